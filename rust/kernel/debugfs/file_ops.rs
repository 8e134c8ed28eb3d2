// SPDX-License-Identifier: GPL-2.0

//! [`FileOps`]: the operations of DebugFS files, one table per data type, and [`NewFile`], a file
//! to create with one of them.
//!
//! A DebugFS file is a table of operations plus one word of private data, the inode's
//! `i_private`, which here always points at the `T` the file shows. The tables are associated
//! constants of [`FileOps<T>`], so monomorphization emits one table per data type (and per
//! callback, see [`super::callback_adapters`]) into the `.rodata` of the crate that creates the
//! file; nothing is built or allocated at run time. A table is a whole `struct file_operations`
//! for files that keep state while open (text that is read, records), or C's three-slot
//! `struct debugfs_short_fops` for those that do not (binary files, write-only text files).
//!
//! Every callback but `release` is reached through a DebugFS proxy (`fs/debugfs/file.c`), which
//! holds an active reference on the file for the call and fails it with `EIO` once the file has
//! been removed. `debugfs_remove` waits for those references, so a `T` that outlives its file's
//! dentry is valid in every such callback. `release` (of full tables only) may run after the
//! removal, and touches only what the open file itself holds.
//!
//! The short proxy opens files itself (`simple_open()`) and calls nothing at close, so once a
//! file with a short table is removed no code of its module runs again: the module may be
//! unloaded while such files are open, as a C module with short operations may.
//!
//! The full tables have no `owner`: the `kernel` crate's generic code cannot name the
//! `THIS_MODULE` of the module that instantiates it. DebugFS pins the module that holds the table
//! instead, while a file with owner-less operations is open (`debugfs_real_fops_get()`, added by
//! this project's patch `debugfs: pin the module of owner-less file operations`). So `rmmod`
//! refuses to unload a module while one of its files with a full table is open, as for a C module
//! that sets `owner`, and closing a file never runs code or reads a table that is gone. The pin
//! has the limits of `owner`: a module whose init fails after it created files, or a forced
//! unload (`CONFIG_MODULE_FORCE_UNLOAD`), frees the module regardless. Built-in users need no
//! pin: their tables are in the kernel image.

use super::{
    records::{
        self,
        RecordOps,
        Records, //
    },
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

/// Mode bit of files that can be read: by the owner (root) only, like most DebugFS files.
const READABLE: bindings::umode_t = bindings::S_IRUSR as bindings::umode_t;

/// Mode bit of files that can be written: by the owner (root) only.
const WRITABLE: bindings::umode_t = bindings::S_IWUSR as bindings::umode_t;

/// The table of DebugFS files showing a `T`, of kind `O`, and the mode to create them with.
///
/// The layout is `#[repr(C)]` and `T` only appears in a zero-sized [`PhantomData`], so every
/// `FileOps<T, O>` has the same layout whatever `T` is. [`super::callback_adapters`] relies on
/// this to serve files of one type with the table of a `#[repr(transparent)]` wrapper of it.
///
/// # Invariants
///
/// Every callback in `operations` is sound to call, through the DebugFS proxy of kind `O`, on a
/// file whose `i_private` points at a `T` that stays valid until the file's dentry is removed.
/// The callbacks of a short table (`O` is `debugfs_short_fops`) use nothing of the file but its
/// inode's `i_private` and the offset, and leave nothing behind that outlives the call: the
/// short proxy opens files with `simple_open()`, which sets `private_data` to `i_private`, and
/// calls nothing at close.
#[repr(C)]
pub(crate) struct FileOps<T, O = bindings::file_operations> {
    operations: O,
    mode: bindings::umode_t,
    _data: PhantomData<fn(&T)>,
}

/// The short table of DebugFS files showing a `T`: no state while open, nothing at close.
pub(crate) type ShortFileOps<T> = FileOps<T, bindings::debugfs_short_fops>;

/// The slots every readable text file has; its `read` renders with [`text_read::read`].
pub(super) const TEXT: bindings::file_operations = bindings::file_operations {
    // A real seek, so that a write after `lseek()` (say `dd seek=2`) reaches `write` at that
    // offset and is refused, instead of silently landing at 0.
    llseek: Some(bindings::default_llseek),
    release: Some(text_read::release),
    ..pin_init::zeroed()
};

/// The slots every short table has.
const SHORT: bindings::debugfs_short_fops = bindings::debugfs_short_fops {
    read: None,
    write: None,
    // A real seek: binary files are read and written at the offset, and a text write after
    // `lseek()` is refused as in [`TEXT`].
    llseek: Some(bindings::default_llseek),
};

impl<T> FileOps<T> {
    /// Builds a full table; files are readable if it has a `read` and writable if a `write`.
    ///
    /// Each caller establishes the type invariant for `operations`.
    const fn full(operations: bindings::file_operations) -> Self {
        let (read, write) = (operations.read.is_some(), operations.write.is_some());
        Self::with_mode(operations, read, write)
    }

    /// Builds a full table outside this module, such as a readable text file's from [`TEXT`].
    ///
    /// # Safety
    ///
    /// Every callback in `operations` must be sound to call, through the full DebugFS proxy, on a
    /// file whose `i_private` points at a `T` that stays valid until the file's dentry is
    /// removed.
    pub(super) const unsafe fn new(operations: bindings::file_operations) -> Self {
        // INVARIANT: The callbacks are sound, by the caller's guarantee.
        Self::full(operations)
    }
}

impl<T> ShortFileOps<T> {
    /// Builds a short table; files are readable if it has a `read` and writable if a `write`.
    ///
    /// Each caller establishes the type invariant for `operations`.
    const fn short(operations: bindings::debugfs_short_fops) -> Self {
        let (read, write) = (operations.read.is_some(), operations.write.is_some());
        Self::with_mode(operations, read, write)
    }
}

impl<T, O> FileOps<T, O> {
    /// Pairs `operations` with the mode its slots call for: a file is readable if it can be read
    /// and writable if it can be written, so the two cannot disagree.
    const fn with_mode(operations: O, read: bool, write: bool) -> Self {
        let mut mode = 0;
        if read {
            mode |= READABLE;
        }
        if write {
            mode |= WRITABLE;
        }
        Self {
            operations,
            mode,
            _data: PhantomData,
        }
    }

    /// Whether a `FileOps<U, O>` has the same layout as this one, field by field.
    ///
    /// Always true, by `#[repr(C)]`; [`super::callback_adapters`] checks it at compile time before
    /// it serves files of one type with another type's table, so that the reuse cannot silently
    /// outlive the attribute.
    pub(crate) const fn same_layout_as<U>() -> bool {
        use core::mem::{
            align_of,
            offset_of,
            size_of, //
        };
        size_of::<Self>() == size_of::<FileOps<U, O>>()
            && align_of::<Self>() == align_of::<FileOps<U, O>>()
            && offset_of!(Self, operations) == offset_of!(FileOps<U, O>, operations)
            && offset_of!(Self, mode) == offset_of!(FileOps<U, O>, mode)
    }
}

impl<T: Writer + Sync> FileOps<T> {
    /// Read-only text file rendering `T` with [`Writer`].
    // INVARIANT: `read_text::<T>` is sound on a file whose `i_private` points at a live `T`;
    // `default_llseek` only moves the offset and `text_read::release` only frees the read state.
    pub(crate) const READ_ONLY: Self = Self::full(bindings::file_operations {
        read: Some(read_text::<T>),
        ..TEXT
    });
}

impl<T: Writer + Reader + Sync> FileOps<T> {
    /// Read-write text file.
    // INVARIANT: As for `READ_ONLY`, and `write_text::<T>` is sound on a file whose `i_private`
    // points at a live `T`.
    pub(crate) const READ_WRITE: Self = Self::full(bindings::file_operations {
        read: Some(read_text::<T>),
        write: Some(write_text::<T>),
        ..TEXT
    });
}

// INVARIANT (for the short tables below): each callback is sound on a file whose `i_private`
// points at a live `T`, uses nothing else of the file but the offset, and keeps nothing;
// `default_llseek` only moves the offset.

impl<T: Reader + Sync> ShortFileOps<T> {
    /// Write-only text file updating `T` with [`Reader`].
    pub(crate) const WRITE_ONLY: Self = Self::short(bindings::debugfs_short_fops {
        write: Some(write_text::<T>),
        ..SHORT
    });
}

impl<T: BinaryWriter + Sync> ShortFileOps<T> {
    /// Read-only binary file.
    pub(crate) const BINARY_READ_ONLY: Self = Self::short(bindings::debugfs_short_fops {
        read: Some(read_binary::<T>),
        ..SHORT
    });
}

impl<T: BinaryReader + Sync> ShortFileOps<T> {
    /// Write-only binary file.
    pub(crate) const BINARY_WRITE_ONLY: Self = Self::short(bindings::debugfs_short_fops {
        write: Some(write_binary::<T>),
        ..SHORT
    });
}

impl<T: BinaryWriter + BinaryReader + Sync> ShortFileOps<T> {
    /// Read-write binary file.
    pub(crate) const BINARY_READ_WRITE: Self = Self::short(bindings::debugfs_short_fops {
        read: Some(read_binary::<T>),
        write: Some(write_binary::<T>),
        ..SHORT
    });
}

impl<T: Records + 'static> FileOps<T> {
    /// Read-only file of records, rendered by `seq_file`.
    pub(crate) const RECORDS: Self = {
        let operations = bindings::file_operations {
            open: Some(records::open::<T>),
            read: Some(bindings::seq_read),
            llseek: Some(bindings::seq_lseek),
            // What undoes `records::open`, which picks `seq_open()` for a cursor that fits in
            // `private` and `__seq_open_private()` otherwise.
            release: Some(if RecordOps::<T>::INLINE {
                bindings::seq_release
            } else {
                bindings::seq_release_private
            }),
            ..pin_init::zeroed()
        };
        // INVARIANT: `records::open` expects `i_private` to point at a live `T`; `seq_read` and
        // `seq_lseek` only call the `seq_operations` that `open` installed, and the release
        // functions only free what `open` allocated.
        Self::full(operations)
    };
}

/// A kind of table DebugFS serves files with: [`bindings::file_operations`] through the full
/// proxy, or [`bindings::debugfs_short_fops`] through the short one.
///
/// Sealed: the two impls below are the only ones, and both return the very table they are
/// called on, which [`NewFile::new`] relies on.
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
// Read only by `Entry`, which does not create files when DebugFS is compiled out.
#[cfg_attr(not(CONFIG_DEBUG_FS), expect(dead_code))]
pub(crate) enum RawTable {
    /// Created with `debugfs_create_file_full()`.
    Full(&'static bindings::file_operations),
    /// Created with `debugfs_create_file_short()`.
    Short(&'static bindings::debugfs_short_fops),
}

/// A file to create: a pointer to its data, the table that serves it, its mode and its size.
///
/// The type of the data is erased here, in a few stores inlined where a file is created, so that
/// the code that creates files ([`super::entry::Entry::file_in`]) is not generic: a new type of
/// data or callback costs a module its table and callbacks, and no copy of that code.
///
/// # Invariants
///
/// The callbacks of `table` are sound to call, through the proxy of the table's kind, on a file
/// whose `i_private` is `data`, for as long as what `data` points at stays valid.
#[derive(Clone, Copy)]
pub(crate) struct NewFile {
    data: *mut c_void,
    table: RawTable,
    mode: bindings::umode_t,
    size: bindings::loff_t,
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
        let (read, write) = (file_ops.mode & READABLE != 0, file_ops.mode & WRITABLE != 0);
        // INVARIANT: By the type invariant of `FileOps`, its callbacks are sound on a file whose
        // `i_private` points at a `T` that stays valid, and `data` points at a `T`; `raw` returns
        // that very table (the two impls of the sealed `Table`).
        Self {
            data: core::ptr::from_ref(data).cast_mut().cast(),
            table: file_ops.operations.raw(),
            mode: permissions.for_file(read, write),
            size: size.try_into().unwrap_or(bindings::loff_t::MAX),
        }
    }
}

// Read only by `Entry`, which does not create files when DebugFS is compiled out.
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

    /// The mode to create the file with.
    pub(super) fn mode(&self) -> bindings::umode_t {
        self.mode
    }

    /// The size `stat` reports, as `debugfs_create_file_size()` sets it.
    pub(super) fn size(&self) -> bindings::loff_t {
        self.size
    }
}

/// Displays what a closure formats, so that it can be handed to [`text_read::read`] with
/// `format_args!`.
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

/// `read` of readable text files: renders the value with [`Writer`] and copies it out.
///
/// A [`Writer`] error fails the `read(2)` with `EINVAL`. See [`text_read`] for what is rendered
/// when, and what an open file keeps.
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
    // SAFETY: `file` is valid and its inode's `i_private` points at a `T` that the proxy's
    // active reference keeps alive for the call (`# Safety` above); a `T` is only ever shared.
    // For `text_read::read`: the file is a readable text file whose `release` is
    // `text_read::release`, only `text_read` uses its `private_data` (no other callback of this
    // table does), and `buf`, `count` and `ppos` are as the VFS passed them.
    unsafe {
        let data = &*(*(*file).f_inode).i_private.cast::<T>();
        text_read::read(
            file,
            format_args!("{}", Rendered::new(|f| data.write(f))),
            buf,
            count,
            ppos,
        )
    }
}

/// `write` of writable text files: hands the bytes of one `write(2)` to [`Reader`].
///
/// A text file holds one value; a write at an offset other than 0 (`dd seek=`, or a write after
/// reading from the same descriptor) is refused with `EINVAL` instead of silently ignoring the
/// offset. The offset is not advanced, so a process can write several values through one
/// descriptor, as with C's attribute files.
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
    // proxy's active reference keeps alive for the call (`# Safety` above); a `T` is only ever
    // shared.
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
    // SAFETY: `file` is valid and its inode's `i_private` points at a `T` that the proxy's active
    // reference keeps alive for the call; a `T` is only ever shared. `ppos` is valid and ours
    // for the call. (`# Safety` above.)
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
    // SAFETY: As in `read_binary`, whose `# Safety` this function shares: `file` and its `T` are
    // valid for the call and the `T` only ever shared; `ppos` is valid and ours for the call.
    let (data, offset) = unsafe { (&*(*(*file).f_inode).i_private.cast::<T>(), &mut *ppos) };
    let mut reader = UserSlice::new(UserPtr::from_ptr(buf.cast_mut().cast()), count).reader();
    transferred(data.read_from_slice(&mut reader, offset), count)
}

/// Converts the byte count of a binary transfer into what `read(2)`/`write(2)` return.
///
/// An implementation claiming more than was asked for is clamped, so user space never sees a
/// count larger than its buffer.
fn transferred(result: Result<usize>, count: usize) -> isize {
    match result {
        // The VFS caps `count` at `MAX_RW_COUNT`, so it fits.
        Ok(done) => done.min(count) as isize,
        Err(e) => e.to_errno() as isize,
    }
}
