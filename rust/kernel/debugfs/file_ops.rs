// SPDX-License-Identifier: GPL-2.0

//! [`FileOps`]: the operations of DebugFS files, one table per data type, and [`NewFile`], a file
//! to create with one of them.
//!
//! A file's inode `i_private` points at the `T` it shows. Each table is an associated constant of
//! [`FileOps<T>`], in the `.rodata` of the crate that creates the file: a `struct file_operations`
//! for files that keep state while open (text that is read, records), else a `struct
//! debugfs_short_fops`. Every callback but `release` runs under a DebugFS proxy's active
//! reference, which `debugfs_remove` waits for, so the `T` is valid in it; `release` may run after
//! the removal and touches only what the open file holds.
//!
//! The short proxy opens files itself (`simple_open()`) and calls nothing at close, so a module
//! may be unloaded while such files are open, as in C. Full tables have no `owner` (generic code
//! cannot name the instantiating module's `THIS_MODULE`): DebugFS pins the module of an
//! owner-less table while its file is open (`debugfs_real_fops_get()`, patch `debugfs: pin the
//! module of owner-less file operations`), so `rmmod` refuses and closing never runs code that is
//! gone. A failing init frees the module whatever its references, so such files do not open
//! (`ENXIO`) until it is live; and a file whose handle is leaked is removed when its module goes
//! (patch `debugfs: remove the files a going module left behind`). A forced unload is not covered.

use super::{
    text_read,
    BinaryReader,
    BinaryWriter,
    Mode,
    Reader,
    Writer, //
};
use crate::{
    bindings,
    fmt,
    fs::file::Offset,
    prelude::*,
    uaccess::{
        UserPtr,
        UserSlice, //
    }, //
};
use core::marker::PhantomData;

/// The table of DebugFS files showing a `T`, of kind `O`: `#[repr(C)]` with `T` only in a
/// [`PhantomData`], so the layout does not depend on `T`.
///
/// # Invariants
///
/// Every callback in `operations` is sound to call, through the DebugFS proxy of kind `O`, on a
/// file whose `i_private` points at a `T` that stays valid, and is only shared (never `&mut`),
/// until the file's dentry is removed. Those of a short table (`O` is `debugfs_short_fops`) use
/// nothing of the file but its inode's `i_private` and the offset, and keep nothing after the call.
#[repr(C)]
pub(crate) struct FileOps<T, O = bindings::file_operations> {
    operations: O,
    _data: PhantomData<fn(&T)>,
}

/// The short table of DebugFS files showing a `T`: no state while open, nothing at close.
pub(crate) type ShortFileOps<T> = FileOps<T, bindings::debugfs_short_fops>;

/// The slots every readable text file has; its `read` renders with [`text_read::read`].
pub(super) const TEXT: bindings::file_operations = bindings::file_operations {
    // A real seek, so that a write after `lseek()` reaches `write` at that offset and is refused.
    llseek: Some(bindings::default_llseek),
    release: Some(text_read::release),
    ..pin_init::zeroed()
};

/// The slots every short table has.
const SHORT: bindings::debugfs_short_fops = bindings::debugfs_short_fops {
    // A real seek, as in [`TEXT`]; binary files are read and written at the offset.
    llseek: Some(bindings::default_llseek),
    ..pin_init::zeroed()
};

impl<T, O> FileOps<T, O> {
    /// Wraps `operations`; each caller establishes the type invariant.
    const fn wrap(operations: O) -> Self {
        Self {
            operations,
            _data: PhantomData,
        }
    }
}

impl<T> FileOps<T> {
    /// Builds a full table outside this module.
    ///
    /// # Safety
    ///
    /// Every callback in `operations` must be sound to call, through the full DebugFS proxy, on a
    /// file whose `i_private` points at a `T` that stays valid until the file's dentry is
    /// removed.
    pub(super) const unsafe fn new(operations: bindings::file_operations) -> Self {
        // INVARIANT: The callbacks are sound, by the caller's guarantee.
        Self::wrap(operations)
    }
}

impl<T: Writer + Sync> FileOps<T> {
    /// Read-only text file rendering `T` with [`Writer`].
    // INVARIANT: `read_text::<T>` is sound on a file whose `i_private` points at a live `T`;
    // `default_llseek` only moves the offset and `text_read::release` only frees the read state.
    pub(crate) const READ_ONLY: Self = Self::wrap(bindings::file_operations {
        read: Some(read_text::<T>),
        ..TEXT
    });
}

impl<T: Writer + Reader + Sync> FileOps<T> {
    /// Read-write text file.
    // INVARIANT: As for `READ_ONLY`, and likewise for `write_text::<T>`.
    pub(crate) const READ_WRITE: Self = Self::wrap(bindings::file_operations {
        read: Some(read_text::<T>),
        write: Some(write_text::<T>),
        ..TEXT
    });
}

impl<T: Reader + Sync> ShortFileOps<T> {
    /// Write-only text file updating `T` with [`Reader`].
    // INVARIANT: `write_text::<T>` is sound on a file whose `i_private` points at a live `T`, uses
    // nothing of the file but the offset, and keeps nothing; `default_llseek` only moves it.
    pub(crate) const WRITE_ONLY: Self = Self::wrap(bindings::debugfs_short_fops {
        write: Some(write_text::<T>),
        ..SHORT
    });
}

impl<T: BinaryWriter + Sync> ShortFileOps<T> {
    /// Read-only binary file.
    // INVARIANT: As for `WRITE_ONLY`, with `read_binary::<T>`.
    pub(crate) const BINARY_READ_ONLY: Self = Self::wrap(bindings::debugfs_short_fops {
        read: Some(read_binary::<T>),
        ..SHORT
    });
}

impl<T: BinaryReader + Sync> ShortFileOps<T> {
    /// Write-only binary file.
    // INVARIANT: As for `WRITE_ONLY`, with `write_binary::<T>`.
    pub(crate) const BINARY_WRITE_ONLY: Self = Self::wrap(bindings::debugfs_short_fops {
        write: Some(write_binary::<T>),
        ..SHORT
    });
}

impl<T: BinaryWriter + BinaryReader + Sync> ShortFileOps<T> {
    /// Read-write binary file.
    // INVARIANT: As for `WRITE_ONLY`, with `read_binary::<T>` and `write_binary::<T>`.
    pub(crate) const BINARY_READ_WRITE: Self = Self::wrap(bindings::debugfs_short_fops {
        read: Some(read_binary::<T>),
        write: Some(write_binary::<T>),
        ..SHORT
    });
}

/// A kind of table DebugFS serves files with, full or short.
///
/// Sealed: both impls return the very table they are called on, which [`NewFile::new`] relies on.
pub(crate) trait Table: sealed::Sealed + 'static {
    /// This very table, tagged with its kind.
    fn raw(&'static self) -> RawTable;
}

mod sealed {
    pub(crate) trait Sealed {}
    impl Sealed for super::bindings::file_operations {}
    impl Sealed for super::bindings::debugfs_short_fops {}
}

impl Table for bindings::file_operations {
    fn raw(&'static self) -> RawTable {
        RawTable::Full(self)
    }
}

impl Table for bindings::debugfs_short_fops {
    fn raw(&'static self) -> RawTable {
        RawTable::Short(self)
    }
}

/// A table as DebugFS serves it (see [`Table`]).
#[derive(Clone, Copy)]
pub(crate) enum RawTable {
    /// Served by the full proxy.
    Full(&'static bindings::file_operations),
    /// Served by the short proxy.
    Short(&'static bindings::debugfs_short_fops),
}

impl RawTable {
    /// Whether the table has a `read` and a `write`.
    fn access(self) -> (bool, bool) {
        match self {
            Self::Full(ops) => (ops.read.is_some(), ops.write.is_some()),
            Self::Short(ops) => (ops.read.is_some(), ops.write.is_some()),
        }
    }
}

/// A file to create: a pointer to its data, the table that serves it, its mode and its size.
///
/// The data type is erased here, so that [`super::entry::Entry::file_in`] is not generic: a new
/// data type costs a module its table and callbacks, and no copy of the creation code.
///
/// # Invariants
///
/// The callbacks of `table` are sound to call, through the proxy of the table's kind, on a file
/// whose `i_private` is `data`, for as long as what `data` points at stays valid and shared.
#[derive(Clone, Copy)]
pub(crate) struct NewFile {
    data: *mut c_void,
    table: RawTable,
    /// The mode to create the file with.
    pub(super) mode: bindings::umode_t,
    /// The size `stat` reports (0: unknown).
    pub(super) size: bindings::loff_t,
}

impl NewFile {
    /// A file showing `data` through `file_ops`, with those of `permissions` that `file_ops`
    /// implements, whose `stat` reports `size` bytes (0: unknown, as C's default).
    #[inline]
    pub(crate) fn new<T, O: Table>(
        data: &T,
        file_ops: &'static FileOps<T, O>,
        permissions: Mode,
        size: usize,
    ) -> Self {
        let table = file_ops.operations.raw();
        let (read, write) = table.access();
        // INVARIANT: By the type invariant of `FileOps`, its callbacks are sound on a file whose
        // `i_private` points at a `T` that stays valid, and `data` points at a `T`; `raw` returns
        // that very table (the two impls of the sealed `Table`).
        Self {
            data: core::ptr::from_ref(data).cast_mut().cast(),
            table,
            mode: permissions.for_file(read, write),
            size: size.try_into().unwrap_or(bindings::loff_t::MAX),
        }
    }
}

// Read only by `Entry`, which creates no files when DebugFS is compiled out.
#[cfg_attr(not(CONFIG_DEBUG_FS), expect(dead_code))]
impl NewFile {
    /// The `i_private` of the file.
    pub(super) fn data(&self) -> *mut c_void {
        self.data
    }

    /// The table that serves the file.
    pub(super) fn table(&self) -> RawTable {
        self.table
    }
}

/// Displays what a closure formats.
pub(super) struct Rendered<F>(F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> Rendered<F> {
    /// Displays what `render` formats.
    pub(super) fn new(render: F) -> Self {
        Self(render)
    }
}

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> core::fmt::Display for Rendered<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

/// `read` of readable text files: renders the value with [`Writer`] (see [`text_read`]).
///
/// # Safety
///
/// Called by the VFS through the full DebugFS proxy with a valid `file` whose `i_private` points
/// at a live `T` and whose `release` is [`text_read::release`], a user buffer `buf` of `count`
/// bytes, and a valid `ppos` that nothing else uses during the call.
unsafe extern "C" fn read_text<T: Writer + Sync>(
    file: *mut bindings::file,
    buf: *mut c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: `file` is valid and its inode's `i_private` points at a `T` that the proxy keeps
    // alive for the call (`# Safety` above); a `T` is only ever shared.
    let data = unsafe { &*(*(*file).f_inode).i_private.cast::<T>() };
    let text = Rendered::new(|f| data.write(f));
    // SAFETY: The file's `release` is `text_read::release`, no other callback of this table uses
    // its `private_data`, and `buf`, `count` and `ppos` are as the VFS passed them.
    unsafe { text_read::read(file, format_args!("{text}"), buf, count, ppos) }
}

/// `write` of writable text files: hands the bytes of one `write(2)` to [`Reader`].
///
/// A write at an offset other than 0 is refused with `EINVAL`. The offset is not advanced, so a
/// process can write several values through one descriptor, as with C's attribute files.
///
/// # Safety
///
/// Called by the VFS through a DebugFS proxy with a valid `file` whose inode's `i_private` points
/// at a live `T`, a user buffer `buf` of `count` bytes, and a valid `ppos`.
unsafe extern "C" fn write_text<T: Reader + Sync>(
    file: *mut bindings::file,
    buf: *const c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: `ppos` and `file` are valid, and the inode's `i_private` points at a `T` that the
    // proxy keeps alive for the call (`# Safety` above); a `T` is only ever shared.
    let (pos, data) = unsafe { (*ppos, &*(*(*file).f_inode).i_private.cast::<T>()) };
    if pos != 0 {
        return EINVAL.to_errno() as isize;
    }
    let mut reader = UserSlice::new(UserPtr::from_ptr(buf.cast_mut().cast()), count).reader();
    match data.read_from_slice(&mut reader) {
        // The VFS caps `count` at `MAX_RW_COUNT`, so it fits.
        Ok(()) => count as isize,
        Err(e) => e.to_errno() as isize,
    }
}

/// `read` of readable binary files: copies out bytes of the value from the file offset on.
///
/// # Safety
///
/// Called by the VFS through a DebugFS proxy with a valid `file` whose inode's `i_private` points
/// at a live `T`, a user buffer `buf` of `count` bytes, and a valid `ppos` that nothing else uses
/// during the call.
unsafe extern "C" fn read_binary<T: BinaryWriter + Sync>(
    file: *mut bindings::file,
    buf: *mut c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: By `# Safety`, `file` is valid and its inode's `i_private` points at a `T` that the
    // proxy keeps alive for the call, only ever shared; `ppos` is valid and ours for the call.
    let (data, offset) = unsafe { (&*(*(*file).f_inode).i_private.cast::<T>(), &mut *ppos) };
    let mut writer = UserSlice::new(UserPtr::from_ptr(buf.cast()), count).writer();
    transferred(data.write_to_slice(&mut writer, offset), count)
}

/// `write` of writable binary files: copies bytes into the value from the file offset on.
///
/// # Safety
///
/// Same as [`read_binary`].
unsafe extern "C" fn write_binary<T: BinaryReader + Sync>(
    file: *mut bindings::file,
    buf: *const c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: As in `read_binary`, whose `# Safety` this function shares.
    let (data, offset) = unsafe { (&*(*(*file).f_inode).i_private.cast::<T>(), &mut *ppos) };
    let mut reader = UserSlice::new(UserPtr::from_ptr(buf.cast_mut().cast()), count).reader();
    transferred(data.read_from_slice(&mut reader, offset), count)
}

/// Converts the byte count of a binary transfer into what `read(2)`/`write(2)` return, clamped to
/// `count` so that user space never sees a count larger than its buffer.
fn transferred(result: Result<usize>, count: usize) -> isize {
    match result {
        // The VFS caps `count` at `MAX_RW_COUNT`, so it fits.
        Ok(done) => done.min(count) as isize,
        Err(e) => e.to_errno() as isize,
    }
}
