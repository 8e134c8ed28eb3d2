// SPDX-License-Identifier: GPL-2.0

//! [`FileOps`]: the operations of DebugFS files, one table per data type.
//!
//! A DebugFS file is a table of operations plus one word of private data, the inode's
//! `i_private`, which here always points at the `T` the file shows. The tables are associated
//! constants of [`FileOps<T>`], so monomorphization emits one table per data type (and per
//! callback, see [`super::callback_adapters`]) into the `.rodata` of the crate that creates the
//! file. Nothing is built or allocated at run time.
//!
//! A table is one of the two kinds DebugFS serves (see [`super::entry::Table`]): a whole
//! `struct file_operations` for files that keep state while they are open (text that is read,
//! records), and C's three-slot `struct debugfs_short_fops` (`read`, `write`, `llseek`) for those
//! that do not (binary files, write-only text files): 32 bytes of `.rodata` with the mode (16 on
//! 32-bit) instead of a few hundred.
//!
//! Every callback here but `release` is reached through a DebugFS proxy (`fs/debugfs/file.c`),
//! which takes an active reference on the file for the duration of the call and fails it with
//! `EIO` once the file has been removed. `debugfs_remove` waits for those references, so a `T`
//! that outlives its file's dentry is valid in every such callback. `release` (of full tables
//! only) may run after the removal, and touches only what the open file itself holds.
//!
//! Short tables need nothing more: DebugFS opens their files itself (`simple_open()`) and has
//! nothing to call when they are closed, so once a file is removed no code of the module that
//! made it runs again. A module whose only open files are such files may be unloaded, as a C
//! module with short operations may; reads and writes on them then fail with `EIO`.
//!
//! The full tables have no `owner`: the `kernel` crate's generic code cannot name the
//! `THIS_MODULE` of the module that instantiates it. The module that holds a table is pinned
//! instead by DebugFS itself, which takes a reference on it while a file with owner-less
//! operations is open (`debugfs_real_fops_get()` in `fs/debugfs/file.c`, added by this project's
//! patch `debugfs: pin the module of owner-less file operations`). So `rmmod` refuses to unload a
//! module while one of its files with a full table is open, just as for a C module that sets
//! `owner`, and closing a file never runs code or reads a table that is gone. The pin has the
//! limits of `owner`: a module whose init fails after it created files, or a forced unload
//! (`CONFIG_MODULE_FORCE_UNLOAD`), frees the module regardless. Built-in users need no
//! reference: their tables are in the kernel image, which is never unloaded.

use super::{
    records::{
        self,
        RecordOps,
        Records, //
    },
    registers::{
        RegisterDump,
        RegisterIo, //
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

type ReadFn = unsafe extern "C" fn(*mut bindings::file, *mut c_char, usize, *mut Offset) -> isize;
type WriteFn =
    unsafe extern "C" fn(*mut bindings::file, *const c_char, usize, *mut Offset) -> isize;

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

impl<T> FileOps<T> {
    /// Builds the table of a readable text file.
    ///
    /// `read` must render the value with [`text_read::read`], whose state [`text_read::release`]
    /// frees at close. With `write`, the file is writable too, and each `write(2)` hands its
    /// bytes to `write`.
    ///
    /// # Safety
    ///
    /// `read` and `write` must be sound to call on a file whose `i_private` points at a `T` that
    /// stays valid until the file's dentry is removed.
    const unsafe fn text(read: ReadFn, write: Option<WriteFn>) -> Self {
        let operations = bindings::file_operations {
            read: Some(read),
            write,
            // A real seek, so that a write after `lseek()` (say `dd seek=2`) reaches `write` at
            // that offset and is refused, instead of silently landing at 0.
            llseek: Some(bindings::default_llseek),
            release: Some(text_read::release),
            ..pin_init::zeroed()
        };
        // INVARIANT: `default_llseek` only touches the file offset and `release` only the read
        // state; `read` and `write` are sound by the caller's guarantee.
        Self::with_mode(operations, true, write.is_some())
    }
}

impl<T> ShortFileOps<T> {
    /// Builds the table of a file that keeps nothing between calls: a binary file, which reads
    /// and writes at the file offset, or a write-only text file.
    ///
    /// # Safety
    ///
    /// `read` and `write` must be sound to call on a file whose `i_private` points at a `T` that
    /// stays valid until the file's dentry is removed, use nothing of the file but the offset
    /// and its inode's `i_private`, and leave nothing behind that outlives the call. In
    /// particular they must not use [`text_read`], whose state lives in `private_data`, which
    /// `simple_open()` sets to `i_private`.
    const unsafe fn short(read: Option<ReadFn>, write: Option<WriteFn>) -> Self {
        let operations = bindings::debugfs_short_fops {
            read,
            write,
            // A real seek: binary files are read and written at the offset, and a text write
            // after `lseek()` (say `dd seek=2`) reaches `write` at that offset and is refused,
            // instead of silently landing at 0.
            llseek: Some(bindings::default_llseek),
        };
        // INVARIANT: `default_llseek` only touches the file offset; `read` and `write` are sound
        // by the caller's guarantee.
        Self::with_mode(operations, read.is_some(), write.is_some())
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

    /// The mode to create files with, given the permissions asked for: those of `permissions`
    /// that this table implements.
    pub(crate) const fn mode(&self, permissions: Mode) -> bindings::umode_t {
        permissions.for_file(self.mode & READABLE != 0, self.mode & WRITABLE != 0)
    }

    /// The table to hand to DebugFS.
    pub(crate) const fn operations(&self) -> &O {
        &self.operations
    }
}

impl<T: Writer + Sync> FileOps<T> {
    /// Read-only text file rendering `T` with [`Writer`].
    pub(crate) const READ_ONLY: Self = {
        // SAFETY: `read_text::<T>` expects `i_private` to point at a live `T`.
        unsafe { Self::text(read_text::<T>, None) }
    };
}

impl<T: Reader + Sync> ShortFileOps<T> {
    /// Write-only text file updating `T` with [`Reader`].
    pub(crate) const WRITE_ONLY: Self = {
        // SAFETY: `write_text::<T>` expects `i_private` to point at a live `T`, and uses nothing
        // else of the file but the offset, nor keeps anything.
        unsafe { Self::short(None, Some(write_text::<T>)) }
    };
}

impl<T: Writer + Reader + Sync> FileOps<T> {
    /// Read-write text file.
    pub(crate) const READ_WRITE: Self = {
        // SAFETY: Both callbacks expect `i_private` to point at a live `T`.
        unsafe { Self::text(read_text::<T>, Some(write_text::<T>)) }
    };
}

impl<T: BinaryWriter + Sync> ShortFileOps<T> {
    /// Read-only binary file.
    pub(crate) const BINARY_READ_ONLY: Self = {
        // SAFETY: `read_binary::<T>` expects `i_private` to point at a live `T`, and uses nothing
        // else of the file but the offset, nor keeps anything.
        unsafe { Self::short(Some(read_binary::<T>), None) }
    };
}

impl<T: BinaryReader + Sync> ShortFileOps<T> {
    /// Write-only binary file.
    pub(crate) const BINARY_WRITE_ONLY: Self = {
        // SAFETY: `write_binary::<T>` expects `i_private` to point at a live `T`, and uses nothing
        // else of the file but the offset, nor keeps anything.
        unsafe { Self::short(None, Some(write_binary::<T>)) }
    };
}

impl<T: BinaryWriter + BinaryReader + Sync> ShortFileOps<T> {
    /// Read-write binary file.
    pub(crate) const BINARY_READ_WRITE: Self = {
        // SAFETY: Both callbacks expect `i_private` to point at a live `T`, and use nothing else
        // of the file but the offset, nor keep anything.
        unsafe { Self::short(Some(read_binary::<T>), Some(write_binary::<T>)) }
    };
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
        Self::with_mode(operations, true, false)
    };
}

impl<R: RegisterIo> FileOps<RegisterDump<R>> {
    /// Read-only register dump.
    pub(crate) const REGISTERS: Self = {
        // SAFETY: `read_registers::<R>` expects `i_private` to point at a live `RegisterDump<R>`.
        unsafe { Self::text(read_registers::<R>, None) }
    };
}

/// Returns the data a DebugFS file shows.
///
/// # Safety
///
/// `file` must be a file being operated on through the DebugFS proxy, whose inode's `i_private`
/// points at a `T` that stays valid until the file's dentry is removed.
unsafe fn file_data<'a, T>(file: *mut bindings::file) -> &'a T {
    // SAFETY: `file` is valid and its `f_inode` is the DebugFS inode, whose `i_private` is a `T`.
    // The proxy's active reference keeps the dentry, and so the `T`, alive for the call; `T` is
    // only ever shared, so `&T` is fine next to other such calls.
    unsafe { &*(*(*file).f_inode).i_private.cast::<T>() }
}

/// `read` of readable text files: renders the value with [`Writer`] and copies it out.
///
/// A [`Writer`] error fails the `read(2)` with `EINVAL`. See [`text_read`] for what is rendered
/// when, and what an open file keeps.
///
/// # Safety
///
/// Called by the VFS with a valid `file` whose `i_private` points at a live `T` and whose
/// `release` is [`text_read::release`], a user buffer `buf` of `count` bytes, and a valid `ppos`
/// that nothing else uses during the call.
unsafe extern "C" fn read_text<T: Writer + Sync>(
    file: *mut bindings::file,
    buf: *mut c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: By the function's contract.
    let data = unsafe { file_data::<T>(file) };
    // SAFETY: By the function's contract; only `text_read` uses the `private_data` of files with
    // this table.
    unsafe { text_read::read(file, format_args!("{}", Rendered(data)), buf, count, ppos) }
}

/// `read` of register dumps: a text file that fails with `ENODEV` once the registers are gone.
///
/// # Safety
///
/// Same as [`read_text`], with `i_private` pointing at a live `RegisterDump<R>`.
unsafe extern "C" fn read_registers<R: RegisterIo>(
    file: *mut bindings::file,
    buf: *mut c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: By the function's contract.
    let dump = unsafe { file_data::<RegisterDump<R>>(file) };
    let gone = core::cell::Cell::new(false);
    let shown = dump.shown(&gone);
    // SAFETY: By the function's contract.
    let read = unsafe { text_read::read(file, format_args!("{shown}"), buf, count, ppos) };
    if gone.get() && read < 0 {
        ENODEV.to_errno() as isize
    } else {
        read
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
/// Called by the VFS with a valid `file` whose `i_private` points at a live `T`, a user buffer
/// `buf` of `count` bytes, and a valid `ppos`.
unsafe extern "C" fn write_text<T: Reader + Sync>(
    file: *mut bindings::file,
    buf: *const c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: `ppos` is valid by the function's contract.
    if unsafe { *ppos } != 0 {
        return EINVAL.to_errno() as isize;
    }
    // SAFETY: By the function's contract.
    let data = unsafe { file_data::<T>(file) };
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
/// Called by the VFS with a valid `file` whose `i_private` points at a live `T`, a user buffer
/// `buf` of `count` bytes, and a valid `ppos` that nothing else uses during the call.
unsafe extern "C" fn read_binary<T: BinaryWriter + Sync>(
    file: *mut bindings::file,
    buf: *mut c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: By the function's contract.
    let data = unsafe { file_data::<T>(file) };
    // SAFETY: By the function's contract, `ppos` is valid and ours for the call.
    let offset = unsafe { &mut *ppos };
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
    // SAFETY: By the function's contract.
    let data = unsafe { file_data::<T>(file) };
    // SAFETY: By the function's contract, `ppos` is valid and ours for the call.
    let offset = unsafe { &mut *ppos };
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

/// Displays a [`Writer`], so that it can be formatted with `format_args!`.
struct Rendered<'a, T>(&'a T);

impl<T: Writer> core::fmt::Display for Rendered<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f)
    }
}
