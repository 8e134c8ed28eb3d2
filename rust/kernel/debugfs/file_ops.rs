// SPDX-License-Identifier: GPL-2.0

//! [`FileOps`]: the `file_operations` of DebugFS files, one table per data type.
//!
//! A DebugFS file is a `struct file_operations` plus one word of private data, the inode's
//! `i_private`, which here always points at the `T` the file shows. The tables are associated
//! constants of [`FileOps<T>`], so monomorphization emits one table per data type (and per
//! callback, see [`super::callback_adapters`]) into the `.rodata` of the crate that creates the
//! file. Nothing is built or allocated at run time.
//!
//! Every callback here is reached through the DebugFS "full proxy" (`fs/debugfs/file.c`), which
//! takes an active reference on the file for the duration of the call and fails it with `EIO`
//! once the file has been removed. `debugfs_remove` waits for those references, so a `T` that
//! outlives its file's dentry is valid in every callback.
//!
//! The tables have no `owner`: the `kernel` crate's generic code cannot name the `THIS_MODULE` of
//! the module that instantiates it. The module that holds a table is pinned instead by DebugFS
//! itself, which takes a reference on it while a file with owner-less operations is open
//! (`debugfs_real_fops_get()` in `fs/debugfs/file.c`, added by this project's patch
//! `debugfs: pin the module of owner-less file operations`). So a module cannot be unloaded
//! while one of its files is open, just like a C module that sets `owner`, and closing a file
//! never runs code or reads a table that is gone. Built-in users need no reference: their tables
//! are in the kernel image, which is never unloaded.
//!
//! C header: [`include/linux/seq_file.h`](srctree/include/linux/seq_file.h)

use super::{
    BinaryReader,
    BinaryWriter,
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

type OpenFn = unsafe extern "C" fn(*mut bindings::inode, *mut bindings::file) -> c_int;
type ReadFn = unsafe extern "C" fn(*mut bindings::file, *mut c_char, usize, *mut Offset) -> isize;
type WriteFn =
    unsafe extern "C" fn(*mut bindings::file, *const c_char, usize, *mut Offset) -> isize;

/// The `file_operations` of DebugFS files showing a `T`, and the mode to create them with.
///
/// # Invariants
///
/// Every callback in `operations` is sound to call, through the DebugFS proxy, on a file whose
/// `i_private` points at a `T` that stays valid until the file's dentry is removed.
pub(crate) struct FileOps<T> {
    operations: bindings::file_operations,
    mode: bindings::umode_t,
    _data: PhantomData<fn(&T)>,
}

impl<T> FileOps<T> {
    /// Builds the table of a text file.
    ///
    /// With `open`, the file is readable: `open` must set up a `seq_file` (`single_open`) that
    /// renders the value, and reads, seeks and release are `seq_file`'s. With `write`, the file
    /// is writable, and each `write(2)` hands its bytes to `write`.
    ///
    /// # Safety
    ///
    /// `open` and `write` must be sound to call on a file whose `i_private` points at a `T` that
    /// stays valid until the file's dentry is removed.
    const unsafe fn text(open: Option<OpenFn>, write: Option<WriteFn>) -> Self {
        let operations = if open.is_some() {
            bindings::file_operations {
                open,
                read: Some(bindings::seq_read),
                write,
                llseek: Some(bindings::seq_lseek),
                release: Some(bindings::single_release),
                // SAFETY: All-zero is valid for `file_operations`: its fields are integers, raw
                // pointers and `Option`s of function pointers.
                ..unsafe { core::mem::zeroed() }
            }
        } else {
            bindings::file_operations {
                write,
                // A real seek, so that a write after `lseek()` (say `dd seek=2`) reaches
                // `write` at that offset and is refused, instead of silently landing at 0.
                llseek: Some(bindings::default_llseek),
                // SAFETY: As above.
                ..unsafe { core::mem::zeroed() }
            }
        };
        // INVARIANT: The `seq_file` callbacks only touch the `seq_file` set up by `open`; `open`
        // and `write` are sound by the caller's guarantee.
        Self::with_mode(operations, open.is_some(), write.is_some())
    }

    /// Builds the table of a binary file: reads and writes at the file offset, with no buffering
    /// or state between calls.
    ///
    /// # Safety
    ///
    /// `read` and `write` must be sound to call on a file whose `i_private` points at a `T` that
    /// stays valid until the file's dentry is removed.
    const unsafe fn binary(read: Option<ReadFn>, write: Option<WriteFn>) -> Self {
        let operations = bindings::file_operations {
            read,
            write,
            llseek: Some(bindings::default_llseek),
            // SAFETY: All-zero is valid for `file_operations`, see `text`.
            ..unsafe { core::mem::zeroed() }
        };
        // INVARIANT: `default_llseek` only touches the file offset; `read` and `write` are sound
        // by the caller's guarantee.
        Self::with_mode(operations, read.is_some(), write.is_some())
    }

    /// Pairs `operations` with the mode its slots call for: a file is readable if it can be read
    /// and writable if it can be written, so the two cannot disagree.
    const fn with_mode(operations: bindings::file_operations, read: bool, write: bool) -> Self {
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

    /// The mode to create files with.
    // Only `Entry` reads the table, and only if DebugFS is compiled in.
    #[cfg_attr(not(CONFIG_DEBUG_FS), expect(dead_code))]
    pub(crate) const fn mode(&self) -> bindings::umode_t {
        self.mode
    }

    /// The table to hand to `debugfs_create_file_full`.
    #[cfg_attr(not(CONFIG_DEBUG_FS), expect(dead_code))]
    pub(crate) const fn as_raw(&self) -> *const bindings::file_operations {
        &self.operations
    }
}

impl<T: Writer + Sync> FileOps<T> {
    /// Read-only text file rendering `T` with [`Writer`].
    pub(crate) const READ_ONLY: Self = {
        // SAFETY: `open_text::<T>` expects `i_private` to point at a live `T`.
        unsafe { Self::text(Some(open_text::<T>), None) }
    };
}

impl<T: Reader + Sync> FileOps<T> {
    /// Write-only text file updating `T` with [`Reader`].
    pub(crate) const WRITE_ONLY: Self = {
        // SAFETY: `write_text::<T>` expects `i_private` to point at a live `T`.
        unsafe { Self::text(None, Some(write_text::<T>)) }
    };
}

impl<T: Writer + Reader + Sync> FileOps<T> {
    /// Read-write text file.
    pub(crate) const READ_WRITE: Self = {
        // SAFETY: Both callbacks expect `i_private` to point at a live `T`.
        unsafe { Self::text(Some(open_text::<T>), Some(write_text::<T>)) }
    };
}

impl<T: BinaryWriter + Sync> FileOps<T> {
    /// Read-only binary file.
    pub(crate) const BINARY_READ_ONLY: Self = {
        // SAFETY: `read_binary::<T>` expects `i_private` to point at a live `T`.
        unsafe { Self::binary(Some(read_binary::<T>), None) }
    };
}

impl<T: BinaryReader + Sync> FileOps<T> {
    /// Write-only binary file.
    pub(crate) const BINARY_WRITE_ONLY: Self = {
        // SAFETY: `write_binary::<T>` expects `i_private` to point at a live `T`.
        unsafe { Self::binary(None, Some(write_binary::<T>)) }
    };
}

impl<T: BinaryWriter + BinaryReader + Sync> FileOps<T> {
    /// Read-write binary file.
    pub(crate) const BINARY_READ_WRITE: Self = {
        // SAFETY: Both callbacks expect `i_private` to point at a live `T`.
        unsafe { Self::binary(Some(read_binary::<T>), Some(write_binary::<T>)) }
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

/// `open` of readable text files: prepares a `seq_file` that renders the value on first read.
///
/// # Safety
///
/// Called by the VFS with valid `inode` and `file`, whose `i_private` points at a live `T`.
unsafe extern "C" fn open_text<T: Writer + Sync>(
    inode: *mut bindings::inode,
    file: *mut bindings::file,
) -> c_int {
    // SAFETY: `inode` is valid by the function's contract.
    let data = unsafe { (*inode).i_private };
    // SAFETY: `file` is being opened. `single_open` stores `data` in the new `seq_file`, where
    // `show::<T>` expects a `T` that outlives the reads, as `data` does.
    unsafe { bindings::single_open(file, Some(show::<T>), data) }
}

/// `show` of readable text files: renders the value into the `seq_file` buffer.
///
/// A [`Writer`] error fails the `read(2)` with `EINVAL`. A full buffer is not an error: it makes
/// `seq_read` retry with a buffer twice as large.
///
/// # Safety
///
/// Called by `seq_read` on a `seq_file` set up by [`open_text::<T>`].
unsafe extern "C" fn show<T: Writer + Sync>(seq: *mut bindings::seq_file, _: *mut c_void) -> c_int {
    // SAFETY: `open_text::<T>` stored the file's `i_private` in `private`; it is a live `T` for
    // the duration of the read (see the module documentation).
    let data = unsafe { &*(*seq).private.cast::<T>() };
    let mut out = SeqBuffer {
        seq,
        overflowed: false,
    };
    match core::fmt::write(&mut out, format_args!("{}", Rendered(data))) {
        Ok(()) => 0,
        Err(_) if out.overflowed => 0,
        Err(_) => EINVAL.to_errno(),
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

/// The buffer of a `seq_file`, as a [`fmt::Write`] target.
struct SeqBuffer {
    seq: *mut bindings::seq_file,
    overflowed: bool,
}

impl fmt::Write for SeqBuffer {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // SAFETY: `seq` is the `seq_file` that `show` was called with, and `s` is valid for
        // `s.len()` bytes.
        let ret = unsafe { bindings::seq_write(self.seq, s.as_ptr().cast(), s.len()) };
        if ret != 0 {
            self.overflowed = true;
            return Err(fmt::Error);
        }
        Ok(())
    }
}
