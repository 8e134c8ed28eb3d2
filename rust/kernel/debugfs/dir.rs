// SPDX-License-Identifier: GPL-2.0

//! The owning API: a [`Dir`] handle and the [`File`]s created through it.
//!
//! Every handle owns what it created and removes it when dropped. A [`File`] owns its data too,
//! and removes the file before dropping the data (it is a [`Scope`] of one file).

use super::{
    callback_adapters,
    entry::Entry,
    file_ops::{
        FileOps,
        NewFile,
        ShortFileOps,
        Table, //
    },
    BinaryReader,
    BinaryWriter,
    Mode,
    Reader,
    Scope,
    ScopedDir,
    Writer, //
};
use crate::{
    fmt,
    prelude::*,
    str::CStr,
    sync::Arc,
    uaccess::UserSliceReader, //
};
use core::ops::Deref;

/// A DebugFS directory.
///
/// The directory is removed when the last [`Dir`] for it is dropped and every [`File`],
/// [`Scope`] or subdirectory created in it is gone too. With `CONFIG_DEBUG_FS=n` it is zero-sized.
///
/// # Examples
///
/// A driver's directory, with one file of each kind:
///
/// ```
/// use kernel::debugfs::Dir;
/// use kernel::new_mutex;
/// use kernel::sync::atomic::{Atomic, Relaxed};
///
/// // `/sys/kernel/debug/example_dir/` and `.../dev0/`, which keeps its parent alive.
/// let dir = Dir::new(c"example_dir").subdir(c"dev0");
/// // `cat version` prints "3"; the file is 0400.
/// let version = KBox::pin_init(dir.read_only_file(c"version", 3u32), GFP_KERNEL)?;
/// // `echo 0x10 > level` stores 16, as in a C `debugfs_create_u32()` file; 0600.
/// let level = KBox::pin_init(dir.read_write_file(c"level", Atomic::<u32>::new(7)), GFP_KERNEL)?;
/// // `echo 1 > trigger`; only the driver reads it back; 0200.
/// let trigger = KBox::pin_init(dir.write_only_file(c"trigger", Atomic::new(false)), GFP_KERNEL)?;
/// // `hexdump id` shows de ad be ef.
/// let id = KBox::pin_init(dir.read_binary_file(c"id", [0xde_u8, 0xad, 0xbe, 0xef]), GFP_KERNEL)?;
/// // 16 bytes that `dd conv=notrunc` may patch, and a key that can only be written.
/// let regs = dir.read_write_binary_file(c"regs", new_mutex!([0u8; 16]));
/// let regs = KBox::pin_init(regs, GFP_KERNEL)?;
/// let key = KBox::pin_init(dir.write_binary_file(c"key", new_mutex!([0u32; 4])), GFP_KERNEL)?;
/// // `cat temp` prints "21.5 C", through a function or a closure that captures nothing.
/// let temp = dir.read_callback_file(c"temp", Atomic::<u32>::new(215), &|t, f| {
///     writeln!(f, "{}.{} C", t.load(Relaxed) / 10, t.load(Relaxed) % 10)
/// });
/// let temp = KBox::pin_init(temp, GFP_KERNEL)?;
///
/// // The driver keeps using its values through the handles.
/// level.store(8, Relaxed);
/// regs.lock()[3] = 1;
/// assert_eq!((**version, level.load(Relaxed), trigger.load(Relaxed), id[0]), (3, 8, false, 0xde));
/// assert_eq!((temp.load(Relaxed), regs.lock()[3], key.lock()[0]), (215, 1, 0));
/// // Each file goes when its handle is dropped, the directories when the last handle is.
/// drop((temp, key, regs, id, trigger, level, version));
/// # Ok::<(), Error>(())
/// ```
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
/// is `None`; nothing if the parent could not be created.
pub(super) fn dir_entry(name: &CStr, parent: Option<&Dir>) -> Entry<'static> {
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

    /// Wraps the entry of a directory, which must be live if it is `Some` (never without DebugFS).
    #[cfg_attr(not(CONFIG_DEBUG_FS), expect(unused_variables))]
    pub(super) fn from_entry(entry: Option<Arc<Entry<'static>>>, mode: Mode) -> Self {
        Self {
            #[cfg(CONFIG_DEBUG_FS)]
            entry,
            #[cfg(CONFIG_DEBUG_FS)]
            mode,
        }
    }

    /// The permissions of files created through this handle; without DebugFS, the default.
    pub(super) fn mode(&self) -> Mode {
        #[cfg(CONFIG_DEBUG_FS)]
        let mode = self.mode;
        #[cfg(not(CONFIG_DEBUG_FS))]
        let mode = Mode::OWNER;
        mode
    }

    /// The entry of this directory, if DebugFS created it.
    pub(super) fn entry(&self) -> Option<&Arc<Entry<'static>>> {
        #[cfg(CONFIG_DEBUG_FS)]
        let entry = self.entry.as_ref();
        #[cfg(not(CONFIG_DEBUG_FS))]
        let entry = None;
        entry
    }

    /// Creates a directory at the root of DebugFS.
    pub fn new(name: &CStr) -> Self {
        Self::create(name, None)
    }

    /// Creates a directory in this one, which it keeps alive.
    pub fn subdir(&self, name: &CStr) -> Self {
        Self::create(name, Some(self))
    }

    /// Creates a file in this directory that shows `data` through `file_ops` and whose `stat`
    /// reports `size` bytes.
    pub(super) fn create_file<'a, T: Sync + 'static, E: 'a, O: Table>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        file_ops: &'static FileOps<T, O>,
        size: usize,
    ) -> impl PinInit<File<T>, E> + 'a {
        let scope = Scope::new(data, move |data| {
            let file = NewFile::new(data, file_ops, self.mode(), size);
            // SAFETY: `file` was built from `data`, the pinned data of the `Scope` under
            // construction, which drops the returned entry before the data.
            unsafe { Entry::file(name, self.entry(), file) }
        });
        try_pin_init!(File { scope <- scope }? E)
    }

    /// Creates a read-only text file (mode 0400): reading it shows what [`Writer`] renders.
    pub fn read_only_file<'a, T: Writer + Send + Sync + 'static, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a {
        self.create_file(name, data, &FileOps::<T>::READ_ONLY, 0)
    }

    /// Creates a read-write text file (mode 0600): reads use [`Writer`], writes [`Reader`].
    pub fn read_write_file<'a, T: Writer + Reader + Send + Sync + 'static, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a {
        self.create_file(name, data, &FileOps::<T>::READ_WRITE, 0)
    }

    /// Creates a write-only text file (mode 0200): writing it hands the bytes to [`Reader`].
    pub fn write_only_file<'a, T: Reader + Send + Sync + 'static, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a {
        self.create_file(name, data, &ShortFileOps::<T>::WRITE_ONLY, 0)
    }

    /// Creates a read-only file that shows `data` through the callback `F`.
    ///
    /// `F` must be zero-sized (a function or a closure that captures nothing), which is checked
    /// at compile time. It is never stored: the file's operations are specific to `F`. [`Dir`]
    /// has an example.
    pub fn read_callback_file<'a, T, E: 'a, F>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        f: &'static F,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Send + Sync + 'static,
        F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::read_only(f), 0)
    }

    /// Creates a read-write file that shows `data` through `F` and updates it through `W`.
    ///
    /// Both callbacks must be zero-sized, see [`Dir::read_callback_file`].
    pub fn read_write_callback_file<'a, T, E: 'a, F, W>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        f: &'static F,
        w: &'static W,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Send + Sync + 'static,
        F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + Copy,
        W: Fn(&T, &mut UserSliceReader) -> Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::read_write(f, w), 0)
    }

    /// Creates a write-only file that updates `data` through the callback `W`.
    ///
    /// `W` must be zero-sized, see [`Dir::read_callback_file`].
    pub fn write_callback_file<'a, T, E: 'a, W>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        w: &'static W,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: Send + Sync + 'static,
        W: Fn(&T, &mut UserSliceReader) -> Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::write_only(w), 0)
    }

    /// Creates a read-only binary file, like C's `debugfs_create_blob()`, see [`BinaryWriter`].
    pub fn read_binary_file<'a, T: BinaryWriter + Send + Sync + 'static, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_ONLY, 0)
    }

    /// Creates a read-write binary file, see [`BinaryWriter`] and [`BinaryReader`].
    pub fn read_write_binary_file<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: BinaryWriter + BinaryReader + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_WRITE, 0)
    }

    /// Creates a write-only binary file, see [`BinaryReader`].
    pub fn write_binary_file<'a, T: BinaryReader + Send + Sync + 'static, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<File<T>, E> + 'a {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_WRITE_ONLY, 0)
    }

    /// Creates a directory `name` in this one, holding `data` and the files `init` makes for it.
    ///
    /// `init` gets the data and a [`ScopedDir`] to create files and subdirectories in. Those
    /// borrow the data instead of owning it, so one value can back many files. Everything is
    /// removed, then the data dropped, when the returned [`Scope`] is dropped.
    ///
    /// The data must be owned (`T: 'static`), see [`ScopedDir`]'s invariants for why. To show
    /// borrowed state, own a handle to it (an `Arc`, say).
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel::debugfs::Dir;
    /// use kernel::sync::atomic::{Atomic, Relaxed};
    ///
    /// static DROPPED: Atomic<bool> = Atomic::new(false);
    ///
    /// struct Queue {
    ///     head: Atomic<u32>,
    ///     tail: Atomic<u32>,
    /// }
    ///
    /// impl Drop for Queue {
    ///     fn drop(&mut self) {
    ///         DROPPED.store(true, Relaxed);
    ///     }
    /// }
    ///
    /// let root = Dir::new(c"example_scope");
    /// // `example_scope/queue0/{head,tail}`, both showing fields of the one `Queue`.
    /// let queue = Queue { head: Atomic::new(1), tail: Atomic::new(5) };
    /// let queue = root.scope(queue, c"queue0", |queue, dir| {
    ///     dir.read_only_file(c"head", &queue.head);
    ///     dir.read_only_file(c"tail", &queue.tail);
    /// });
    /// let queue = KBox::pin_init(queue, GFP_KERNEL)?;
    /// assert_eq!(queue.tail.load(Relaxed) - queue.head.load(Relaxed), 4);
    /// // Dropping the scope removes `queue0/`, then drops the data.
    /// drop(queue);
    /// assert!(DROPPED.load(Relaxed));
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
        Scope::tree(data, name, Some(self), init)
    }
}

/// A DebugFS file that owns the data it shows.
///
/// Made by the file methods of [`Dir`]. It dereferences to the data; dropping it removes the file,
/// then drops the data. A driver usually keeps it as a `#[pin]` field, as `rust_debugfs.rs` does.
#[pin_data]
pub struct File<T> {
    #[pin]
    scope: Scope<T>,
}

impl<T> Deref for File<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.scope
    }
}
