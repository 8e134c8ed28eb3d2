// SPDX-License-Identifier: GPL-2.0

//! DebugFS: files under `/sys/kernel/debug` that show and change driver state.
//!
//! A driver puts a value in a file, and `cat` shows it while `echo` changes it. In C that takes
//! a `struct file_operations`, a `void *` and the promise to remove the file before freeing the
//! value. Here a file *owns* its value:
//!
//! 1. [`File<T>`] holds the `T` it shows and removes its file before dropping the `T`. A file
//!    can never read freed data, and there is no separate cleanup to forget.
//! 2. [`Scope<T>`] holds one `T` and a whole directory tree of files showing parts of it, built
//!    through a [`ScopedDir`]. Dropping the scope removes the tree, then drops the data.
//! 3. A [`Dir`] keeps its parent alive, and is removed once it and everything created in it
//!    through owning handles are dropped. [`Dir`] is [`Clone`].
//! 4. How a value is shown and parsed comes from its type ([`Writer`], [`Reader`] and their
//!    binary forms), or from a closure for "callback" files. Each data type (and each closure)
//!    gets its own table of operations at compile time (a `file_operations`, or C's short
//!    `debugfs_short_fops` for files that keep no state while open); a file costs what the C
//!    file costs: a dentry, an inode and one pointer to the data.
//! 5. Like C DebugFS, failures never reach the caller: if DebugFS is compiled out
//!    (`CONFIG_DEBUG_FS=n`, where C returns `ERR_PTR(-ENODEV)`), disabled at boot, or out of
//!    memory, the API still works and still owns the data, but creates nothing. Children of a
//!    directory that could not be created are not created either, rather than being put at the
//!    DebugFS root.
//!
//! Beyond what C offers through `debugfs_create_file()`, there are modes, sizes, C's text formats,
//! record files, register dumps and symbolic links (see "Additions" below). Not covered:
//! `debugfs_create_devm_seqfile()` and custom `file_operations`.
//!
//! # Examples
//!
//! A counter that user space can read and reset, with a text format of its own:
//!
//! ```
//! use kernel::debugfs::{Dir, File, Reader, Writer};
//! use kernel::prelude::*;
//! use kernel::str::CString;
//! use kernel::sync::atomic::{Atomic, Relaxed};
//! use kernel::uaccess::UserSliceReader;
//!
//! struct Hits(Atomic<u64>);
//!
//! // `cat hits` prints "hits: N".
//! impl Writer for Hits {
//!     fn write(&self, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
//!         writeln!(f, "hits: {}", self.0.load(Relaxed))
//!     }
//! }
//!
//! // `echo reset > hits` zeroes it; anything else is refused with `EINVAL`.
//! impl Reader for Hits {
//!     fn read_from_slice(&self, reader: &mut UserSliceReader) -> Result {
//!         let mut buf = [0u8; 6];
//!         if reader.len() > buf.len() {
//!             return Err(EINVAL);
//!         }
//!         let len = reader.len();
//!         reader.read_slice(&mut buf[..len])?;
//!         match &buf[..len] {
//!             b"reset" | b"reset\n" => self.0.store(0, Relaxed),
//!             _ => return Err(EINVAL),
//!         }
//!         Ok(())
//!     }
//! }
//!
//! // Creates `/sys/kernel/debug/example_hits/hits`, mode 0600.
//! let dir = Dir::new(c"example_hits");
//! let hits: Pin<KBox<File<Hits>>> =
//!     KBox::pin_init(dir.read_write_file(c"hits", Hits(Atomic::new(0))), GFP_KERNEL)?;
//!
//! // The driver keeps using its value through the file handle.
//! hits.0.store(3, Relaxed);
//!
//! // This is what `cat` will show.
//! let shown = CString::try_from_fmt(format_args!("{}", Rendered(&**hits)))?;
//! assert_eq!(shown.to_bytes(), b"hits: 3\n");
//!
//! // Dropping the handle removes the file; `dir` itself goes when `dir` is dropped.
//! drop(hits);
//! # struct Rendered<'a, T>(&'a T);
//! # impl<T: Writer> core::fmt::Display for Rendered<'_, T> {
//! #     fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
//! #         self.0.write(f)
//! #     }
//! # }
//! # Ok::<(), Error>(())
//! ```
//!
//! # Design
//!
//! **One word of private data.** A file's inode holds a single pointer, `i_private`, to the
//! `T` the file shows, as in C. There is no boxed trait object and no side table: everything
//! else a file needs is known from its type.
//!
//! **A table of operations per type, built at compile time.** Each data type that backs a file,
//! and each callback, gets its own `struct file_operations` (or, for binary and write-only
//! files, which keep nothing while open, a three-slot `struct debugfs_short_fops`), an
//! associated `const` of a generic type, filled with generic `extern "C"` functions.
//! Monomorphization emits one table per type into the `.rodata` of the module that creates the
//! file; creating a file allocates nothing beyond the dentry and inode C DebugFS allocates.
//!
//! **Callbacks are types, not values.** The `*_callback_file` methods take `&'static F` and never
//! store it: the table is built for `F` itself, and when the file is read, the code conjures the
//! closure back from its type. That is only possible for zero-sized types (a function item or a
//! closure that captures nothing), which is checked at compile time; a capturing closure or a
//! function pointer is rejected. Two more conditions make the conjuring sound. `F` must be
//! inhabited, since making up a value of a type that has none is undefined behaviour: holding a
//! `&'static F` proves a value existed. And `F` must be [`Copy`]: a zero-sized type that cannot
//! be copied may be a token whose existence means something (a proof that a lock is held, say),
//! which must not be forged, while a value that is freely copied has no identity to forge.
//!
//! **Files never outlive their data.** [`File`] and [`Scope`] own the data they show and, on
//! drop, remove their dentries first and drop the data after (their fields are declared in that
//! order, and the order is load-bearing). Removal waits for file operations that are running, and
//! a file that is still open afterwards answers `EIO`. Files made in a [`ScopedDir`] borrow parts
//! of their scope's data, with lifetimes that keep them inside the scope; the data must be owned
//! (`T: 'static`), so that even a leaked scope cannot leave a file on freed memory.
//!
//! **Parents outlive children.** Every entry that owns a dentry keeps its parent directory alive
//! with an [`Arc`], so a [`Dir`] is removed only once it and everything created in it are gone,
//! whatever order the handles are dropped in.
//!
//! **Owner-less tables and the module pin.** The tables have no `owner`: generic code in the
//! `kernel` crate cannot name the `THIS_MODULE` of the module that instantiates it. Instead,
//! DebugFS pins the module that holds the operations of an open file (a patch to
//! `fs/debugfs/file.c` that comes with this code), so `rmmod` refuses to unload a module while
//! one of its readable text files (callback files and register dumps included) or record files
//! is open, as for a C module that sets `owner`, and closing a file never runs code that is
//! gone. Like `owner`, the pin does not hold against a forced unload or a module whose init
//! fails after it created files. Binary and write-only files need no pin: they use DebugFS's
//! short operations (`struct debugfs_short_fops`), which keep nothing while a file is open and
//! call nothing when it is closed, so they do not keep their module loaded, and fail with `EIO`
//! once it is gone, like any removed file. Their callbacks may therefore still run while the
//! module's exit is under way, until their [`File`] or [`Scope`] is dropped (which waits for a
//! call in progress), as for a C module with short operations.
//!
//! **No allocation while rendering.** A [`Writer`] or callback may run under a spinlock or in an
//! RCU read-side section, as a `seq_file` `show` may: the text is rendered into a buffer that
//! exists before the rendering starts, and text that outgrows it is rendered again into a larger
//! one. Reading a short value whole, as `cat` does, allocates nothing at all.
//!
//! # Differences from upstream
//!
//! The API is that of Linux 7.3's `kernel::debugfs`, with these differences a user can see:
//!
//! - [`Dir::scope`] and [`Scope::dir`] require owned data (`T: 'static`); upstream's `T: 'a`
//!   lets a leaked scope keep files on freed memory.
//! - Integers written to files parse like C's `debugfs_create_u32()` and friends
//!   (`kstrtoull`/`kstrtoll` with base 0: decimal, `0x` hex, leading-`0` octal), with `ERANGE`
//!   for values out of range, and `bool` like `kstrtobool`, in an
//!   [`Atomic`](crate::sync::atomic::Atomic) and in a [`Mutex`](crate::sync::Mutex) alike.
//!   Upstream parses with [`FromStr`](core::str::FromStr): decimal only, and `EINVAL` for
//!   everything. Other types still parse with `FromStr`. The value type must be `'static`
//!   (upstream: any `AtomicType` or `FromStr` type), and the `core::sync::atomic` integers are
//!   readable too.
//! - A text write at a non-zero offset fails with `EINVAL`; upstream ignores the offset.
//! - A binary write that does not fit at its offset fails whole with `EFBIG`, and any failed
//!   binary write, `EFAULT` included, leaves the value as it was; upstream writes the part that
//!   fits.
//! - A [`Writer`] error fails the `read(2)` with `EINVAL`; upstream drops the error.
//! - Children of a directory that could not be created are not created; upstream creates them
//!   at the DebugFS root.
//! - Callbacks must be [`Copy`] as well as zero-sized.
//! - A module cannot be unloaded while one of its readable text or record files is open (with
//!   the `fs/debugfs` patch above); upstream's close then runs in freed memory. Binary and
//!   write-only files use DebugFS's short operations, a 32-byte table per type and callback
//!   (16 bytes on 32-bit) where upstream has a whole `file_operations`, and do not keep their
//!   module loaded.
//!
//! # Additions
//!
//! These go beyond upstream's API without changing any of it; each is a no-op with
//! `CONFIG_DEBUG_FS=n` and creates nothing when its directory could not be created.
//!
//! - **Modes.** [`Dir::with_mode`] and [`ScopedDir::with_mode`] return a handle to the same
//!   directory whose files get the permissions of a [`Mode`] (say 0644), masked to what each
//!   file implements: a read-only file made through a 0644 handle is 0444, as C masks blob
//!   modes. Upstream's methods keep 0400, 0600 and 0200.
//! - **Sizes.** [`Dir::read_binary_file_with_size`] and friends set the size `stat` reports,
//!   as `debugfs_create_file_size()` does.
//! - **C's formats.** [`Hex`] (`debugfs_create_x8()` to `x64()`), [`YesNo`]
//!   (`debugfs_create_bool()`), [`SpaceSeparated`] (`debugfs_create_u32_array()`) and [`Str`]
//!   (`debugfs_create_str()`) are value types: they work in an
//!   [`Atomic`](crate::sync::atomic::Atomic) or a [`Mutex`](crate::sync::Mutex), in a [`File`] or
//!   a [`Scope`], and in callbacks.
//! - **Record files.** [`Dir::records_file`] shows a [`Records`] source (a vector, a locked
//!   vector, or a driver's own list) one record at a time through `seq_file`, so a read never
//!   holds the whole text.
//! - **Register dumps.** [`Dir::registers_file`] shows a [`RegisterDump`]: named 32-bit
//!   registers of an I/O region, as `debugfs_create_regset32()` does, read through a
//!   [`RegisterIo`] that may be revoked (a PCI BAR after unbind), which then fails with `ENODEV`.
//! - **Symbolic links.** [`Dir::symlink`] returns a [`Symlink`] that removes the link when
//!   dropped; [`ScopedDir::symlink`] ties it to the scope.
//!
//! Samples: `samples/rust/rust_debugfs_extras.rs` and `samples/rust/rust_debugfs_pci.rs`.
//!
//! C header: [`include/linux/debugfs.h`](srctree/include/linux/debugfs.h)
//!
//! Reference: <https://docs.kernel.org/filesystems/debugfs.html>
//!
//! Samples: `samples/rust/rust_debugfs.rs` (owned [`Dir`] and [`File`]) and
//! `samples/rust/rust_debugfs_scoped.rs` ([`Scope`] and [`ScopedDir`]).

use crate::{
    bindings,
    fmt,
    prelude::*,
    str::CStr,
    sync::Arc,
    uaccess::UserSliceReader, //
};
use core::{
    marker::{
        PhantomData,
        PhantomPinned, //
    },
    mem::ManuallyDrop,
    ops::Deref, //
};

mod callback_adapters;
mod entry;
mod file_ops;
mod formats;
mod mode;
mod records;
mod registers;
mod text_read;
mod traits;

use entry::{
    Entry,
    FileAttrs,
    NewFile,
    Table, //
};
use file_ops::{
    FileOps,
    ShortFileOps, //
};

#[doc(inline)]
pub use formats::{
    Hex,
    HexDigits,
    SpaceSeparated,
    Str,
    YesNo, //
};
#[doc(inline)]
pub use mode::{
    Access,
    Mode, //
};
#[doc(inline)]
pub use records::Records;
#[doc(inline)]
pub use registers::{
    ReadRegister32,
    Register32,
    RegisterDump,
    RegisterIo, //
};

#[doc(inline)]
pub use traits::{
    BinaryReader,
    BinaryReaderMut,
    BinaryWriter,
    Reader,
    Writer, //
};

/// A DebugFS directory.
///
/// The directory is removed when the last [`Dir`] for it is dropped and every [`File`],
/// [`Scope`] or subdirectory created in it is gone too.
///
/// With `CONFIG_DEBUG_FS=n` a [`Dir`] is zero-sized.
///
/// # Invariants
///
/// If `entry` is `Some`, the `Entry` in it is live.
#[derive(Clone)]
pub struct Dir {
    // Compiled out without DebugFS, as upstream does, where it could only ever be `None`.
    #[cfg(CONFIG_DEBUG_FS)]
    entry: Option<Arc<Entry<'static>>>,
    // The permissions of files created through this handle.
    #[cfg(CONFIG_DEBUG_FS)]
    mode: Mode,
}

#[cfg(not(CONFIG_DEBUG_FS))]
const _: () = assert!(core::mem::size_of::<Dir>() == 0);

/// Creates the entry of a directory named `name` in `parent`, or at the DebugFS root if `parent`
/// is `None`.
///
/// A directory whose parent could not be created is not created either.
fn dir_entry(name: &CStr, parent: Option<&Dir>) -> Entry<'static> {
    match parent.map(Dir::entry) {
        None => Entry::dir(name, None),
        Some(Some(parent)) => Entry::dir(name, Some(parent.clone())),
        Some(None) => Entry::empty(),
    }
}

impl Dir {
    fn create(name: &CStr, parent: Option<&Dir>) -> Self {
        let mode = parent.map_or(Mode::OWNER, Dir::mode);
        let entry = dir_entry(name, parent);
        if !entry.is_live() {
            // INVARIANT: `None`.
            return Self::from_entry(None, mode);
        }
        // If the allocation fails, `entry` is dropped and the directory removed again: a `Dir`
        // that has no handle to it must not leave anything behind.
        // INVARIANT: `entry` is live.
        Self::from_entry(Arc::new(entry, GFP_KERNEL).ok(), mode)
    }

    /// Wraps the entry of a directory, which must be live if it is `Some`.
    #[cfg(CONFIG_DEBUG_FS)]
    fn from_entry(entry: Option<Arc<Entry<'static>>>, mode: Mode) -> Self {
        Self { entry, mode }
    }

    /// Without DebugFS no entry is ever live: there is nothing to keep.
    #[cfg(not(CONFIG_DEBUG_FS))]
    fn from_entry(_entry: Option<Arc<Entry<'static>>>, _mode: Mode) -> Self {
        Self {}
    }

    /// The permissions of files created through this handle.
    #[cfg(CONFIG_DEBUG_FS)]
    fn mode(&self) -> Mode {
        self.mode
    }

    /// Without DebugFS no file is created; the default stands in.
    #[cfg(not(CONFIG_DEBUG_FS))]
    fn mode(&self) -> Mode {
        Mode::OWNER
    }

    /// The entry of this directory, if DebugFS created it.
    #[cfg(CONFIG_DEBUG_FS)]
    fn entry(&self) -> Option<&Arc<Entry<'static>>> {
        self.entry.as_ref()
    }

    /// Without DebugFS there is never an entry.
    #[cfg(not(CONFIG_DEBUG_FS))]
    fn entry(&self) -> Option<&Arc<Entry<'static>>> {
        None
    }

    /// Creates a directory at the root of DebugFS.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// // `/sys/kernel/debug/example_new/`, removed when the last clone is dropped.
    /// let same = {
    ///     let dir = Dir::new(c"example_new");
    ///     dir.clone()
    /// };
    /// // `dir` is gone, but `same` still names the directory, and files can still be made in it.
    /// let file = KBox::pin_init(same.read_only_file(c"answer", 42u32), GFP_KERNEL)?;
    /// assert_eq!(**file, 42);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new(name: &CStr) -> Self {
        Self::create(name, None)
    }

    /// Creates a directory in this one.
    ///
    /// The subdirectory keeps this directory alive.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// // `/sys/kernel/debug/example_subdir/child/`.
    /// let child = {
    ///     let parent = Dir::new(c"example_subdir");
    ///     parent.subdir(c"child")
    /// };
    /// // The parent stays until the child is gone, so the file's path stays valid.
    /// let file = KBox::pin_init(child.read_only_file(c"depth", 2u8), GFP_KERNEL)?;
    /// assert_eq!(**file, 2);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn subdir(&self, name: &CStr) -> Self {
        Self::create(name, Some(self))
    }

    /// Returns a handle to this directory that creates files with permissions `mode`.
    ///
    /// Each file keeps the permissions of `mode` that its operations implement: through a handle
    /// with [`Mode::READ_ALL`] (0644), a read-only file gets 0444, a read-write file 0644 and a
    /// write-only file 0200. Subdirectories created through the handle pass the mode on. The
    /// handle is a [`Dir`] like any other and keeps the directory alive.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::{Access, Dir, Mode};
    ///
    /// let dir = Dir::new(c"example_with_mode");
    /// // `ls -l`: `-r--r--r-- version`, `-rw-r--r-- level`, `--w------- reset`.
    /// let public = dir.with_mode(Mode::new(Access::Everyone, Access::Owner));
    /// let version = KBox::pin_init(public.read_only_file(c"version", 1u32), GFP_KERNEL)?;
    /// let level = public.read_write_file(c"level", kernel::new_mutex!(3u8));
    /// let level = KBox::pin_init(level, GFP_KERNEL)?;
    /// let reset = public.write_only_file(c"reset", kernel::new_mutex!(0u8));
    /// let reset = KBox::pin_init(reset, GFP_KERNEL)?;
    /// // `dir` itself still creates root-only files.
    /// let secret = KBox::pin_init(dir.read_only_file(c"secret", 7u32), GFP_KERNEL)?;
    /// assert_eq!((**version, *level.lock(), *reset.lock(), **secret), (1, 3, 0, 7));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn with_mode(&self, mode: Mode) -> Self {
        // INVARIANT: The same entry, live if `self`'s is.
        Self::from_entry(self.entry().cloned(), mode)
    }

    /// Creates a file in this directory that shows `data` through `file_ops`.
    fn create_file<'a, T, E: 'a, O: Table>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        file_ops: &'static FileOps<T, O>,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Sync + 'static,
    {
        self.create_sized_file(name, data, file_ops, 0)
    }

    /// Creates a file in this directory that shows `data` through `file_ops` and whose `stat`
    /// reports `size` bytes.
    fn create_sized_file<'a, T, E: 'a, O: Table>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        file_ops: &'static FileOps<T, O>,
        size: usize,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Sync + 'static,
    {
        let attrs = FileAttrs {
            mode: self.mode(),
            size: size.try_into().unwrap_or(bindings::loff_t::MAX),
        };
        let scope = Scope::new(data, move |data| {
            let file = NewFile::new(data, file_ops, attrs);
            // SAFETY: `file` was built from `data`, the pinned data of the `Scope` under
            // construction, which drops the returned entry before the data.
            unsafe { Entry::file(name, self.entry(), file) }
        });
        try_pin_init!(File { scope <- scope }? E)
    }

    /// Creates a read-only file showing `data` as text.
    ///
    /// The file has mode 0400; reading it shows what [`Writer`] renders.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// let dir = Dir::new(c"example_read_only");
    /// // `cat /sys/kernel/debug/example_read_only/version` prints "3".
    /// let version = KBox::pin_init(dir.read_only_file(c"version", 3u32), GFP_KERNEL)?;
    /// assert_eq!(**version, 3);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_only_file<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Writer + Send + Sync + 'static,
    {
        self.create_file(name, data, &FileOps::<T>::READ_ONLY)
    }

    /// Creates a read-write file showing `data` as text.
    ///
    /// The file has mode 0600; reading it shows what [`Writer`] renders, writing it hands the
    /// bytes to [`Reader`].
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// let dir = Dir::new(c"example_read_write");
    /// // `echo 0x10 > .../level` stores 16, as it would in a C `debugfs_create_u32()` file.
    /// let level = dir.read_write_file(c"level", Atomic::<u32>::new(7));
    /// let level = KBox::pin_init(level, GFP_KERNEL)?;
    /// level.store(8, Relaxed);
    /// assert_eq!(level.load(Relaxed), 8);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_write_file<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Writer + Reader + Send + Sync + 'static,
    {
        self.create_file(name, data, &FileOps::<T>::READ_WRITE)
    }

    /// Creates a write-only file updating `data` from text.
    ///
    /// The file has mode 0200; writing it hands the bytes to [`Reader`].
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// let dir = Dir::new(c"example_write_only");
    /// // `echo 1 > .../trigger`; only the driver reads it.
    /// let trigger = dir.write_only_file(c"trigger", Atomic::new(false));
    /// let trigger = KBox::pin_init(trigger, GFP_KERNEL)?;
    /// assert!(!trigger.load(Relaxed));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn write_only_file<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Reader + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::WRITE_ONLY)
    }

    /// Creates a read-only file that shows `data` through the callback `F`.
    ///
    /// `F` must be zero-sized (a function or a closure that captures nothing), which is checked
    /// at compile time. It is never stored: the file's operations are specific to `F`.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// let dir = Dir::new(c"example_read_callback");
    /// // `cat .../temp` prints "21.5 C".
    /// let temp = KBox::pin_init(
    ///     dir.read_callback_file(c"temp", Atomic::<u32>::new(215), &|t, f| {
    ///         let t = t.load(Relaxed);
    ///         writeln!(f, "{}.{} C", t / 10, t % 10)
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(temp.load(Relaxed), 215);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_callback_file<'a, T, E: 'a, F>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        _f: &'static F,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Send + Sync + 'static,
        F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::read_only(_f))
    }

    /// Creates a read-write file that shows `data` through `F` and updates it through `W`.
    ///
    /// Both callbacks must be zero-sized, see [`Dir::read_callback_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// let dir = Dir::new(c"example_read_write_callback");
    /// // `cat .../mode` prints "on" or "off"; `echo off > .../mode` turns it off.
    /// let mode = KBox::pin_init(
    ///     dir.read_write_callback_file(
    ///         c"mode",
    ///         Atomic::new(true),
    ///         &|on, f| writeln!(f, "{}", if on.load(Relaxed) { "on" } else { "off" }),
    ///         &|on, reader| {
    ///             let mut buf = [0u8; 4];
    ///             let len = reader.len().min(buf.len());
    ///             reader.read_slice(&mut buf[..len])?;
    ///             on.store(buf.starts_with(b"on"), Relaxed);
    ///             Ok(())
    ///         },
    ///     ),
    ///     GFP_KERNEL,
    /// )?;
    /// assert!(mode.load(Relaxed));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_write_callback_file<'a, T, E: 'a, F, W>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        _f: &'static F,
        _w: &'static W,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Send + Sync + 'static,
        F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + Copy,
        W: Fn(&T, &mut UserSliceReader) -> Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::read_write(_f, _w))
    }

    /// Creates a write-only file that updates `data` through the callback `W`.
    ///
    /// `W` must be zero-sized, see [`Dir::read_callback_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// let dir = Dir::new(c"example_write_callback");
    /// // Every write to `.../kick`, whatever it says, counts one kick.
    /// let kicks = KBox::pin_init(
    ///     dir.write_callback_file(c"kick", Atomic::<u32>::new(0), &|kicks, _reader| {
    ///         kicks.fetch_add(1, Relaxed);
    ///         Ok(())
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(kicks.load(Relaxed), 0);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn write_callback_file<'a, T, E: 'a, W>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        _w: &'static W,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Send + Sync + 'static,
        W: Fn(&T, &mut UserSliceReader) -> Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::write_only(_w))
    }

    /// Creates a read-only binary file: reading it copies out the bytes of `data`.
    ///
    /// Reads honour the file offset like C's `debugfs_create_blob()`, see [`BinaryWriter`].
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// let dir = Dir::new(c"example_read_binary");
    /// // `hexdump .../id` shows de ad be ef.
    /// let id = dir.read_binary_file(c"id", [0xde_u8, 0xad, 0xbe, 0xef]);
    /// let id = KBox::pin_init(id, GFP_KERNEL)?;
    /// assert_eq!(id[0], 0xde);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_binary_file<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: BinaryWriter + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_ONLY)
    }

    /// Creates a read-write binary file: reads copy out bytes of `data`, writes copy bytes in.
    ///
    /// See [`BinaryWriter`] and [`BinaryReader`] for offsets and sizes.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// use kernel::new_mutex;
    ///
    /// let dir = Dir::new(c"example_read_write_binary");
    /// // 16 bytes that user space may patch with `dd conv=notrunc seek=...`.
    /// let regs = KBox::pin_init(
    ///     dir.read_write_binary_file(c"regs", new_mutex!([0u8; 16])),
    ///     GFP_KERNEL,
    /// )?;
    /// regs.lock()[3] = 1;
    /// assert_eq!(regs.lock()[3], 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_write_binary_file<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: BinaryWriter + BinaryReader + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_WRITE)
    }

    /// Creates a write-only binary file: writes copy bytes into `data`.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// use kernel::new_mutex;
    ///
    /// let dir = Dir::new(c"example_write_binary");
    /// let key = KBox::pin_init(dir.write_binary_file(c"key", new_mutex!([0u32; 4])), GFP_KERNEL)?;
    /// assert_eq!(*key.lock(), [0; 4]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn write_binary_file<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: BinaryReader + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_WRITE_ONLY)
    }

    /// Creates a read-only binary file, see [`Dir::read_binary_file`], whose `stat` reports
    /// `size` bytes.
    ///
    /// This is C's `debugfs_create_file_size()`: `ls -l` and tools that size their reads by
    /// `st_size` see the length of the data. The size is set once, here: if the data later grows
    /// or shrinks, reads still return what is there, and only `stat` is stale.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// let dir = Dir::new(c"example_sized");
    /// // `ls -l .../log` shows 4096 bytes.
    /// let log = dir.read_binary_file_with_size(c"log", [0u8; 4096], 4096);
    /// let log = KBox::pin_init(log, GFP_KERNEL)?;
    /// assert_eq!(log.len(), 4096);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_binary_file_with_size<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        size: usize,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: BinaryWriter + Send + Sync + 'static,
    {
        self.create_sized_file(name, data, &ShortFileOps::<T>::BINARY_READ_ONLY, size)
    }

    /// Creates a read-write binary file, see [`Dir::read_write_binary_file`], whose `stat`
    /// reports `size` bytes, see [`Dir::read_binary_file_with_size`].
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// let dir = Dir::new(c"example_sized_rw");
    /// let table = kernel::new_mutex!([0u32; 16]);
    /// let table = dir.read_write_binary_file_with_size(c"table", table, 64);
    /// let table = KBox::pin_init(table, GFP_KERNEL)?;
    /// assert_eq!(table.lock().len(), 16);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_write_binary_file_with_size<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        size: usize,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: BinaryWriter + BinaryReader + Send + Sync + 'static,
    {
        self.create_sized_file(name, data, &ShortFileOps::<T>::BINARY_READ_WRITE, size)
    }

    /// Creates a read-only file of [`Records`], rendered one record at a time like a C
    /// `seq_file`.
    ///
    /// Reading never holds the whole text: see [`Records`] for what a read renders and what it
    /// holds. The file has mode 0400 (or what [`Dir::with_mode`] allows for reading).
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// let mut lines = KVec::new();
    /// for i in 0..1000u32 {
    ///     lines.push(i, GFP_KERNEL)?;
    /// }
    /// let dir = Dir::new(c"example_records_file");
    /// // `wc -l .../lines` counts 1000.
    /// let lines = KBox::pin_init(dir.records_file(c"lines", lines), GFP_KERNEL)?;
    /// assert_eq!(lines.len(), 1000);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn records_file<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Records + Send + Sync + 'static,
    {
        self.create_file(name, data, &FileOps::<T>::RECORDS)
    }

    /// Creates a read-only file showing the registers of a [`RegisterDump`], like C's
    /// `debugfs_create_regset32()`.
    ///
    /// See [`RegisterDump`] for an example.
    pub fn registers_file<'a, R, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<RegisterDump<R>, E> + 'a,
    ) -> impl PinInit<File<RegisterDump<R>>, E> + 'a
    where
        R: RegisterIo + Send + 'static,
    {
        self.create_file(name, data, &FileOps::<RegisterDump<R>>::REGISTERS)
    }

    /// Creates a symbolic link named `name` in this directory, pointing at `target`.
    ///
    /// `target` is stored as given: a path relative to this directory, or an absolute one. The
    /// link is removed when the returned [`Symlink`] is dropped, and keeps this directory alive
    /// until then.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// let dir = Dir::new(c"example_symlink");
    /// let dev0 = dir.subdir(c"dev0");
    /// // `readlink .../current` prints "dev0".
    /// let current = dir.symlink(c"current", c"dev0");
    /// drop((current, dev0));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn symlink(&self, name: &CStr, target: &CStr) -> Symlink {
        Symlink {
            _entry: match self.entry() {
                Some(parent) => Entry::symlink(name, parent.clone(), target),
                None => Entry::empty(),
            },
        }
    }

    /// Creates a directory `name` in this one, holding `data` and the files `init` makes for it.
    ///
    /// `init` gets the data and a [`ScopedDir`] to create files and subdirectories in. Those
    /// borrow the data instead of owning it, so one value can back many files. Everything is
    /// removed, then the data dropped, when the returned [`Scope`] is dropped.
    ///
    /// The data must be owned (`T: 'static`), unlike upstream, which accepts any `T: 'a`. A `T`
    /// that holds a reference would let `init` create files on the referenced value, which the
    /// scope does not own: leaking the scope (safe) and then freeing that value would leave files
    /// that read freed memory. With `T: 'static`, every reference a file gets points into the
    /// scope's own data or at data that lives forever. To show borrowed state, own a handle to it
    /// instead (an `Arc`, say).
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// struct Queue {
    ///     head: Atomic<u32>,
    ///     tail: Atomic<u32>,
    /// }
    ///
    /// let root = Dir::new(c"example_scope");
    /// // `example_scope/queue0/{head,tail}`, both showing fields of the one `Queue`.
    /// let queue = KBox::pin_init(
    ///     root.scope(
    ///         Queue { head: Atomic::new(1), tail: Atomic::new(5) },
    ///         c"queue0",
    ///         |queue, dir| {
    ///             dir.read_only_file(c"head", &queue.head);
    ///             dir.read_only_file(c"tail", &queue.tail);
    ///         },
    ///     ),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(queue.tail.load(Relaxed) - queue.head.load(Relaxed), 4);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn scope<'a, T: 'static, E: 'a, F>(
        &'a self,
        data: impl PinInit<T, E> + 'a,
        name: &'a CStr,
        init: F,
    ) -> impl PinInit<Scope<T>, E> + 'a
    where
        F: for<'data, 'dir> FnOnce(&'data T, &'dir ScopedDir<'data, 'dir>) + 'a,
    {
        Scope::new(data, move |data| {
            ScopedDir::build(name, Some(self), data, init)
        })
    }
}

/// A symbolic link in DebugFS, removed when dropped.
///
/// Made by [`Dir::symlink`]. With `CONFIG_DEBUG_FS=n` it is zero-sized.
#[must_use = "the link is removed when the `Symlink` is dropped"]
pub struct Symlink {
    _entry: Entry<'static>,
}

/// Data shown in a DebugFS directory tree, which goes away before the data does.
///
/// Made by [`Dir::scope`] or [`Scope::dir`]. It dereferences to the data.
///
/// # Invariants
///
/// - Every file in the tree of `entry` shows `data` or a part of it (or data that is never
///   freed), and `data` does not move while the scope exists (it is pinned).
/// - `entry` is removed before `data` is dropped: fields drop in declaration order.
///
/// # Examples
///
/// A device's statistics, in a directory of their own that goes away with them:
///
/// ```
/// use kernel::debugfs::{Dir, Scope};
/// use kernel::sync::atomic::{Atomic, Relaxed};
///
/// struct Stats {
///     rx: Atomic<u64>,
///     tx: Atomic<u64>,
/// }
///
/// let root = Dir::new(c"example_scope_type");
/// let stats: Pin<KBox<Scope<Stats>>> = KBox::pin_init(
///     root.scope(Stats { rx: Atomic::new(0), tx: Atomic::new(0) }, c"eth0", |stats, dir| {
///         dir.read_only_file(c"rx", &stats.rx);
///         dir.read_only_file(c"tx", &stats.tx);
///     }),
///     GFP_KERNEL,
/// )?;
/// // The scope dereferences to the data; the files show it as it changes.
/// stats.rx.fetch_add(3, Relaxed);
/// assert_eq!(stats.rx.load(Relaxed), 3);
/// // Removes `example_scope_type/eth0/` with both files, then drops the `Stats`.
/// drop(stats);
/// # Ok::<(), Error>(())
/// ```
#[pin_data]
pub struct Scope<T> {
    // Field order is load-bearing: fields drop in declaration order, so the whole tree is removed
    // (and `debugfs_remove` has waited for running file operations) before `data` is dropped.
    entry: Entry<'static>,
    #[pin]
    data: T,
    // The files point at `data`, so it must never move, even if `T: Unpin`.
    #[pin]
    _pin: PhantomPinned,
}

/// A DebugFS file that owns the data it shows.
///
/// Made by the file methods of [`Dir`]. It dereferences to the data; dropping it removes the file,
/// then drops the data. A driver usually keeps it in its own pinned state, as a `#[pin]` field.
///
/// # Examples
///
/// ```
/// use kernel::debugfs::{Dir, File};
/// use kernel::sync::atomic::{Atomic, Relaxed};
///
/// #[pin_data]
/// struct Driver {
///     #[pin]
///     resets: File<Atomic<u32>>,
///     _dir: Dir,
/// }
///
/// impl Driver {
///     fn new() -> impl PinInit<Self, Error> {
///         let dir = Dir::new(c"example_file_type");
///         try_pin_init!(Self {
///             resets <- dir.read_write_file(c"resets", Atomic::new(0)),
///             _dir: dir,
///         }? Error)
///     }
/// }
///
/// let driver = KBox::pin_init(Driver::new(), GFP_KERNEL)?;
/// driver.resets.fetch_add(1, Relaxed);
/// assert_eq!(driver.resets.load(Relaxed), 1);
/// # Ok::<(), Error>(())
/// ```
#[pin_data]
pub struct File<T> {
    #[pin]
    scope: Scope<T>,
}

impl<'b, T: 'b> Scope<T> {
    /// Initialises the data, then makes its DebugFS entry with `init`.
    ///
    /// `init` gets the data at its final, pinned address. The entry it returns may point at the
    /// data: it is dropped first.
    fn new<E: 'b, F>(data: impl PinInit<T, E> + 'b, init: F) -> impl PinInit<Self, E> + 'b
    where
        F: for<'a> FnOnce(&'a T) -> Entry<'static> + 'b,
    {
        try_pin_init!(Self {
            entry: Entry::empty(),
            data <- data,
            _pin: PhantomPinned,
        }? E)
        .pin_chain(|scope| {
            // SAFETY: Nothing is moved out of `scope`: `entry` is overwritten in place and
            // `data`, which is structurally pinned, is only borrowed.
            let scope = unsafe { scope.get_unchecked_mut() };
            scope.entry = init(&scope.data);
            Ok(())
        })
    }
}

impl<'a, T: 'a> Scope<T> {
    /// Creates a directory `name` at the root of DebugFS, holding `data` and the files `init`
    /// makes for it.
    ///
    /// This is [`Dir::scope`] for a directory with no parent; like it, it requires owned data
    /// (`T: 'static`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// static DROPPED: Atomic<bool> = Atomic::new(false);
    ///
    /// struct Stats(Atomic<u64>);
    ///
    /// impl Drop for Stats {
    ///     fn drop(&mut self) {
    ///         DROPPED.store(true, Relaxed);
    ///     }
    /// }
    ///
    /// let stats = KBox::pin_init(
    ///     Scope::dir(Stats(Atomic::new(0)), c"example_scope_dir", |stats, dir| {
    ///         dir.read_write_file(c"packets", &stats.0);
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// stats.0.fetch_add(2, Relaxed);
    /// assert_eq!(stats.0.load(Relaxed), 2);
    ///
    /// // Dropping the scope removes `example_scope_dir/`, then drops the data.
    /// drop(stats);
    /// assert!(DROPPED.load(Relaxed));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn dir<E: 'a, F>(
        data: impl PinInit<T, E> + 'a,
        name: &'a CStr,
        init: F,
    ) -> impl PinInit<Self, E> + 'a
    where
        T: 'static,
        F: for<'data, 'dir> FnOnce(&'data T, &'dir ScopedDir<'data, 'dir>) + 'a,
    {
        Scope::new(data, move |data| ScopedDir::build(name, None, data, init))
    }
}

impl<T> Deref for Scope<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.data
    }
}

impl<T> Deref for File<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.scope
    }
}

/// A directory inside a [`Scope`], whose files borrow the scope's data.
///
/// # Examples
///
/// One directory per queue, each with files on that queue's part of the data:
///
/// ```
/// use kernel::debugfs::{Scope, ScopedDir};
/// use kernel::sync::atomic::Atomic;
///
/// struct Queue {
///     head: Atomic<u32>,
///     tail: Atomic<u32>,
/// }
///
/// fn show_queue<'data>(queue: &'data Queue, dir: &ScopedDir<'data, '_>) {
///     dir.read_only_file(c"head", &queue.head);
///     dir.read_only_file(c"tail", &queue.tail);
/// }
///
/// let queues = [0, 1].map(|_| Queue { head: Atomic::new(0), tail: Atomic::new(0) });
/// let queues = KBox::pin_init(
///     Scope::dir(queues, c"example_scoped_dir_type", |queues, dir| {
///         for (name, queue) in [c"q0", c"q1"].into_iter().zip(queues) {
///             show_queue(queue, &dir.dir(name));
///         }
///     }),
///     GFP_KERNEL,
/// )?;
/// assert_eq!(queues.len(), 2);
/// # Ok::<(), Error>(())
/// ```
///
/// Its files and subdirectories have no handles: they are removed all together when the
/// [`Scope`] is dropped. `'data` is the lifetime of the data files may show, `'dir` that of the
/// parent directory.
///
/// # Invariants
///
/// `entry` belongs to the tree of one [`Scope`], which removes its root before it drops its
/// data. A [`ScopedDir`] is only made while that scope is being built, and the init closure must
/// accept it for every `'data`. The closure starts from a `&'data T` into the scope's pinned data,
/// with `T: 'static`: so every `&'data` reference it can make points into that data (valid until
/// the root is removed) or at data that is never freed. Files made here on such references
/// cannot outlive what they show, even if the scope itself is leaked.
pub struct ScopedDir<'data, 'dir> {
    // Entries below the root are never dropped: removing the root removes them.
    entry: ManuallyDrop<Entry<'dir>>,
    // The permissions of files created through this handle.
    mode: Mode,
    _data: PhantomData<fn(&'data ()) -> &'dir ()>,
}

impl<'data> ScopedDir<'data, 'static> {
    /// Creates the root of a scope in `parent` (or at the DebugFS root), lets `init` fill it, and
    /// returns the entry the [`Scope`] must drop before the data.
    fn build<T, F>(name: &CStr, parent: Option<&Dir>, data: &'data T, init: F) -> Entry<'static>
    where
        F: for<'d, 'dir> FnOnce(&'d T, &'dir ScopedDir<'d, 'dir>),
    {
        // INVARIANT: The root of the tree of the scope that `data` belongs to.
        let root = ScopedDir {
            entry: ManuallyDrop::new(dir_entry(name, parent)),
            mode: parent.map_or(Mode::OWNER, Dir::mode),
            _data: PhantomData,
        };
        init(data, &root);
        ManuallyDrop::into_inner(root.entry)
    }
}

impl<'data, 'dir> ScopedDir<'data, 'dir> {
    /// Creates a subdirectory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    ///
    /// let ports = KBox::pin_init(
    ///     Scope::dir([80u16, 443], c"example_scoped_subdir", |ports, dir| {
    ///         // `example_scoped_subdir/port{0,1}/number`.
    ///         for (name, port) in [c"port0", c"port1"].into_iter().zip(ports) {
    ///             dir.dir(name).read_only_file(c"number", port);
    ///         }
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(ports[1], 443);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn dir<'dir2>(&'dir2 self, name: &CStr) -> ScopedDir<'data, 'dir2> {
        // INVARIANT: A subdirectory of `self`, in the same scope.
        ScopedDir {
            entry: ManuallyDrop::new(Entry::dir_in(name, &self.entry)),
            mode: self.mode,
            _data: PhantomData,
        }
    }

    /// Returns a handle to this directory that creates files with permissions `mode`, see
    /// [`Dir::with_mode`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::{Mode, Scope};
    ///
    /// let info = KBox::pin_init(
    ///     Scope::dir(2u32, c"example_scoped_with_mode", |revision, dir| {
    ///         // `-r--r--r-- revision`.
    ///         dir.with_mode(Mode::READ_ALL).read_only_file(c"revision", revision);
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(**info, 2);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn with_mode<'dir2>(&'dir2 self, mode: Mode) -> ScopedDir<'data, 'dir2> {
        // INVARIANT: The same directory of the same scope. The alias is in a `ManuallyDrop`, as
        // every `ScopedDir` entry, and cannot outlive `self`, which it borrows.
        ScopedDir {
            // SAFETY: Held in a `ManuallyDrop`, as every `ScopedDir` entry, and never dropped.
            entry: unsafe { self.entry.alias() },
            mode,
            _data: PhantomData,
        }
    }

    /// Creates a file showing `data` through `file_ops`; it is removed with the scope.
    fn create_file<T: Sync, O: Table>(
        &self,
        name: &CStr,
        data: &'data T,
        file_ops: &'static FileOps<T, O>,
    ) {
        self.create_sized_file(name, data, file_ops, 0);
    }

    /// Creates a file showing `data` through `file_ops`, whose `stat` reports `size` bytes.
    fn create_sized_file<T: Sync, O: Table>(
        &self,
        name: &CStr,
        data: &'data T,
        file_ops: &'static FileOps<T, O>,
        size: usize,
    ) {
        let attrs = FileAttrs {
            mode: self.mode,
            size: size.try_into().unwrap_or(bindings::loff_t::MAX),
        };
        let file = NewFile::new(data, file_ops, attrs);
        // SAFETY: `file` was built from `data`, which by the type invariant stays valid until
        // the scope's root is removed, which removes this file too.
        let entry = unsafe { Entry::file_in(name, &self.entry, file) };
        core::mem::forget(entry);
    }

    /// Creates a read-only binary file whose `stat` reports `size` bytes, see
    /// [`Dir::read_binary_file_with_size`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    ///
    /// let log = KBox::pin_init(
    ///     Scope::dir([0u8; 512], c"example_scoped_sized", |log, dir| {
    ///         dir.read_binary_file_with_size(c"log", log, log.len());
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(log.len(), 512);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_binary_file_with_size<T: BinaryWriter + Send + Sync + 'static>(
        &self,
        name: &CStr,
        data: &'data T,
        size: usize,
    ) {
        self.create_sized_file(name, data, &ShortFileOps::<T>::BINARY_READ_ONLY, size)
    }

    /// Creates a read-write binary file whose `stat` reports `size` bytes, see
    /// [`Dir::read_binary_file_with_size`].
    pub fn read_write_binary_file_with_size<T>(&self, name: &CStr, data: &'data T, size: usize)
    where
        T: BinaryWriter + BinaryReader + Send + Sync + 'static,
    {
        self.create_sized_file(name, data, &ShortFileOps::<T>::BINARY_READ_WRITE, size)
    }

    /// Creates a read-only file of [`Records`], see [`Dir::records_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    /// use kernel::sync::Mutex;
    ///
    /// let log = KBox::pin_init(
    ///     Scope::dir(kernel::new_mutex!(KVec::<u32>::new()), c"example_scoped_records", |log, d| {
    ///         d.records_file(c"log", log);
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// log.lock().push(1, GFP_KERNEL)?;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn records_file<T: Records + Send + Sync + 'static>(&self, name: &CStr, data: &'data T) {
        self.create_file(name, data, &FileOps::<T>::RECORDS)
    }

    /// Creates a read-only register dump, see [`Dir::registers_file`].
    pub fn registers_file<R: RegisterIo + Send + 'static>(
        &self,
        name: &CStr,
        data: &'data RegisterDump<R>,
    ) {
        self.create_file(name, data, &FileOps::<RegisterDump<R>>::REGISTERS)
    }

    /// Creates a symbolic link named `name` to `target`; it is removed with the scope.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    ///
    /// let port = KBox::pin_init(
    ///     Scope::dir(0u32, c"example_scoped_symlink", |port, dir| {
    ///         dir.dir(c"port0").read_only_file(c"id", port);
    ///         // `readlink .../first` prints "port0".
    ///         dir.symlink(c"first", c"port0");
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(**port, 0);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn symlink(&self, name: &CStr, target: &CStr) {
        core::mem::forget(Entry::symlink_in(name, &self.entry, target));
    }

    /// Creates a read-only text file, see [`Dir::read_only_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    ///
    /// let board = KBox::pin_init(
    ///     Scope::dir((c"rev-b", 2u32), c"example_scoped_read_only", |board, dir| {
    ///         dir.read_only_file(c"revision", &board.1);
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(board.1, 2);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_only_file<T: Writer + Send + Sync + 'static>(&self, name: &CStr, data: &'data T) {
        self.create_file(name, data, &FileOps::<T>::READ_ONLY)
    }

    /// Creates a read-write text file, see [`Dir::read_write_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// let limit = KBox::pin_init(
    ///     Scope::dir(Atomic::<u64>::new(100), c"example_scoped_read_write", |limit, dir| {
    ///         dir.read_write_file(c"limit", limit);
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// limit.store(50, Relaxed);
    /// assert_eq!(limit.load(Relaxed), 50);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_write_file<T: Writer + Reader + Send + Sync + 'static>(
        &self,
        name: &CStr,
        data: &'data T,
    ) {
        self.create_file(name, data, &FileOps::<T>::READ_WRITE)
    }

    /// Creates a write-only text file, see [`Dir::write_only_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// let flush = KBox::pin_init(
    ///     Scope::dir(Atomic::<i32>::new(-1), c"example_scoped_write_only", |flush, dir| {
    ///         dir.write_only_file(c"flush", flush);
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(flush.load(Relaxed), -1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn write_only_file<T: Reader + Send + Sync + 'static>(&self, name: &CStr, data: &'data T) {
        self.create_file(name, data, &ShortFileOps::<T>::WRITE_ONLY)
    }

    /// Creates a read-only callback file, see [`Dir::read_callback_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    ///
    /// let link = KBox::pin_init(
    ///     Scope::dir([1000u32, 100], c"example_scoped_read_callback", |speeds, dir| {
    ///         // `cat .../max` prints "1000 Mb/s".
    ///         dir.read_callback_file(c"max", speeds, &|s, f| writeln!(f, "{} Mb/s", s[0]));
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(link[0], 1000);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_callback_file<T, F>(&self, name: &CStr, data: &'data T, _f: &'static F)
    where
        T: Send + Sync + 'static,
        F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::read_only(_f))
    }

    /// Creates a read-write callback file, see [`Dir::read_write_callback_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// let duty = KBox::pin_init(
    ///     Scope::dir(Atomic::<u32>::new(50), c"example_scoped_read_write_callback", |duty, dir| {
    ///         dir.read_write_callback_file(
    ///             c"duty",
    ///             duty,
    ///             &|d, f| writeln!(f, "{}%", d.load(Relaxed)),
    ///             &|d, _reader| {
    ///                 d.store(0, Relaxed);
    ///                 Ok(())
    ///             },
    ///         );
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(duty.load(Relaxed), 50);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_write_callback_file<T, F, W>(
        &self,
        name: &CStr,
        data: &'data T,
        _f: &'static F,
        _w: &'static W,
    ) where
        T: Send + Sync + 'static,
        F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + Copy,
        W: Fn(&T, &mut UserSliceReader) -> Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::read_write(_f, _w))
    }

    /// Creates a write-only callback file, see [`Dir::write_callback_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// let resets = KBox::pin_init(
    ///     Scope::dir(Atomic::<u32>::new(0), c"example_scoped_write_callback", |resets, dir| {
    ///         dir.write_only_callback_file(c"reset", resets, &|r, _reader| {
    ///             r.fetch_add(1, Relaxed);
    ///             Ok(())
    ///         });
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(resets.load(Relaxed), 0);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn write_only_callback_file<T, W>(&self, name: &CStr, data: &'data T, _w: &'static W)
    where
        T: Send + Sync + 'static,
        W: Fn(&T, &mut UserSliceReader) -> Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::write_only(_w))
    }

    /// Creates a read-only binary file, see [`Dir::read_binary_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    ///
    /// let log = KBox::pin_init(
    ///     Scope::dir([0x55u8; 64], c"example_scoped_read_binary", |log, dir| {
    ///         dir.read_binary_file(c"log", log);
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(log.len(), 64);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_binary_file<T: BinaryWriter + Send + Sync + 'static>(
        &self,
        name: &CStr,
        data: &'data T,
    ) {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_ONLY)
    }

    /// Creates a read-write binary file, see [`Dir::read_write_binary_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    /// use kernel::new_mutex;
    ///
    /// let eeprom = KBox::pin_init(
    ///     Scope::dir(new_mutex!([0xffu8; 32]), c"example_scoped_read_write_binary", |e, dir| {
    ///         dir.read_write_binary_file(c"eeprom", e);
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(eeprom.lock()[31], 0xff);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_write_binary_file<T: BinaryWriter + BinaryReader + Send + Sync + 'static>(
        &self,
        name: &CStr,
        data: &'data T,
    ) {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_WRITE)
    }

    /// Creates a write-only binary file, see [`Dir::write_binary_file`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Scope;
    /// use kernel::new_mutex;
    ///
    /// let firmware = KBox::pin_init(
    ///     Scope::dir(new_mutex!([0u8; 8]), c"example_scoped_write_binary", |fw, dir| {
    ///         dir.write_binary_file(c"patch", fw);
    ///     }),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(*firmware.lock(), [0; 8]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn write_binary_file<T: BinaryReader + Send + Sync + 'static>(
        &self,
        name: &CStr,
        data: &'data T,
    ) {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_WRITE_ONLY)
    }
}
