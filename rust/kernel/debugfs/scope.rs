// SPDX-License-Identifier: GPL-2.0

//! The scoped API: a [`Scope`] owns data and a directory tree of files that borrow it, built
//! through [`ScopedDir`]s.

use super::{
    callback_adapters,
    dir::dir_entry,
    entry::Entry,
    file_ops::{
        FileOps,
        NewFile,
        ShortFileOps,
        Table, //
    },
    BinaryReader,
    BinaryWriter,
    Dir,
    Mode,
    Reader,
    Writer, //
};
use crate::{
    fmt,
    prelude::*,
    str::CStr,
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

/// Data shown in a DebugFS directory tree, which goes away before the data does.
///
/// Made by [`Dir::scope`] or [`Scope::dir`]. It dereferences to the data.
///
/// # Invariants
///
/// - Every file in the tree of `entry` shows `data` or a part of it (or data that is never
///   freed), and `data` does not move while the scope exists (it is pinned).
/// - `entry` is removed before `data` is dropped: fields drop in declaration order.
/// - `data` is only ever shared: the scope gives out `&T` ([`Deref`]) and never `&mut T`, so the
///   files may read it concurrently.
#[pin_data]
pub struct Scope<T> {
    // Dropped first: removing the tree waits for running file operations, before `data` goes.
    entry: Entry<'static>,
    #[pin]
    data: T,
    // The files point at `data`, so it must never move, even if `T: Unpin`.
    #[pin]
    _pin: PhantomPinned,
}

impl<'b, T: 'b> Scope<T> {
    /// Initialises the data, then makes its DebugFS entry with `init`.
    ///
    /// `init` gets the data at its final, pinned address. The entry it returns may point at the
    /// data: it is dropped first.
    pub(super) fn new<E: 'b, F>(
        data: impl PinInit<T, E> + 'b,
        init: F,
    ) -> impl PinInit<Self, E> + 'b
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

impl<'b, T: 'static> Scope<T> {
    /// Initialises the data, then creates the directory `name` in `parent` (or at the DebugFS
    /// root) and lets `init` fill it with files on the data.
    pub(super) fn tree<E: 'b, F>(
        data: impl PinInit<T, E> + 'b,
        name: &'b CStr,
        parent: Option<&'b Dir>,
        init: F,
    ) -> impl PinInit<Self, E> + 'b
    where
        F: for<'data, 'dir> FnOnce(&'data T, &'dir ScopedDir<'data, 'dir>) + 'b,
    {
        Scope::new(data, move |data| {
            // INVARIANT: The root of the tree of the scope being built, and `data` is that
            // scope's pinned data, with `T: 'static`.
            let root = ScopedDir {
                entry: ManuallyDrop::new(dir_entry(name, parent)),
                mode: parent.map_or(Mode::OWNER, Dir::mode),
                _data: PhantomData,
            };
            init(data, &root);
            ManuallyDrop::into_inner(root.entry)
        })
    }

    /// Creates a directory `name` at the root of DebugFS, holding `data` and the files `init`
    /// makes for it.
    ///
    /// This is [`Dir::scope`] for a directory with no parent; like it, it requires owned data
    /// (`T: 'static`), and [`ScopedDir`] has an example.
    pub fn dir<E: 'b, F>(
        data: impl PinInit<T, E> + 'b,
        name: &'b CStr,
        init: F,
    ) -> impl PinInit<Self, E> + 'b
    where
        F: for<'data, 'dir> FnOnce(&'data T, &'dir ScopedDir<'data, 'dir>) + 'b,
    {
        Scope::tree(data, name, None, init)
    }
}

impl<T> Deref for Scope<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.data
    }
}

/// A directory inside a [`Scope`], whose files borrow the scope's data.
///
/// It creates the same files as [`Dir`], with the same methods, but they take a reference into
/// the scope's data instead of the data itself, and return nothing: files and subdirectories are
/// removed all together when the [`Scope`] is dropped. `'data` is the lifetime of the data files
/// may show, `'dir` that of the parent directory.
///
/// # Examples
///
/// Every kind of file, on one value:
///
/// ```
/// use kernel::debugfs::{Scope, ScopedDir};
/// use kernel::{new_mutex, sync::Mutex, uaccess::UserSliceReader};
///
/// fn mbps(speed: &Mutex<u32>, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
///     writeln!(f, "{} Mb/s", *speed.lock())
/// }
///
/// fn reset(speed: &Mutex<u32>, _input: &mut UserSliceReader) -> Result {
///     *speed.lock() = 0;
///     Ok(())
/// }
///
/// // A helper filling `port0/`; `cat mbps` prints "100 Mb/s", writing `reset` zeroes the speed.
/// fn show_port<'data>(speed: &'data Mutex<u32>, dir: &ScopedDir<'data, '_>) {
///     let dir = &dir.dir(c"port0");
///     dir.read_write_file(c"speed", speed);
///     dir.read_only_file(c"speed_ro", speed);
///     dir.write_only_file(c"set_speed", speed);
///     dir.read_callback_file(c"mbps", speed, &mbps);
///     dir.write_only_callback_file(c"reset", speed, &reset);
///     dir.read_write_callback_file(c"mbps_or_reset", speed, &mbps, &reset);
///     // `hexdump speed_bin` shows 64 00 00 00 on a little-endian CPU.
///     dir.read_binary_file(c"speed_bin", speed);
///     dir.read_write_binary_file(c"speed_bin_rw", speed);
///     dir.write_binary_file(c"speed_bin_wo", speed);
/// }
///
/// // `example_scoped_dir/port0/`.
/// let port = Scope::dir(new_mutex!(100u32), c"example_scoped_dir", show_port);
/// let port = KBox::pin_init(port, GFP_KERNEL)?;
/// assert_eq!(*port.lock(), 100);
/// # Ok::<(), Error>(())
/// ```
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
    pub(super) entry: ManuallyDrop<Entry<'dir>>,
    // The permissions of files created through this handle.
    pub(super) mode: Mode,
    pub(super) _data: PhantomData<fn(&'data ()) -> &'dir ()>,
}

impl<'data, 'dir> ScopedDir<'data, 'dir> {
    /// Creates a subdirectory, see [`Dir::subdir`].
    pub fn dir<'dir2>(&'dir2 self, name: &CStr) -> ScopedDir<'data, 'dir2> {
        // INVARIANT: A subdirectory of `self`, in the same scope.
        ScopedDir {
            entry: ManuallyDrop::new(Entry::dir_in(name, &self.entry)),
            mode: self.mode,
            _data: PhantomData,
        }
    }

    /// Creates a file showing `data` through `file_ops`, whose `stat` reports `size` bytes; it is
    /// removed with the scope.
    pub(super) fn create_file<T: Sync, O: Table>(
        &self,
        name: &CStr,
        data: &'data T,
        file_ops: &'static FileOps<T, O>,
        size: usize,
    ) {
        let file = NewFile::new(data, file_ops, self.mode, size);
        // SAFETY: `file` was built from `data`, which by the type invariant stays valid until
        // the scope's root is removed, which removes this file too.
        let entry = unsafe { Entry::file_in(name, &self.entry, file) };
        core::mem::forget(entry);
    }

    /// Creates a read-only text file, see [`Dir::read_only_file`].
    pub fn read_only_file<T: Writer + Send + Sync + 'static>(&self, name: &CStr, data: &'data T) {
        self.create_file(name, data, &FileOps::<T>::READ_ONLY, 0)
    }

    /// Creates a read-write text file, see [`Dir::read_write_file`].
    pub fn read_write_file<T>(&self, name: &CStr, data: &'data T)
    where
        T: Writer + Reader + Send + Sync + 'static,
    {
        self.create_file(name, data, &FileOps::<T>::READ_WRITE, 0)
    }

    /// Creates a write-only text file, see [`Dir::write_only_file`].
    pub fn write_only_file<T: Reader + Send + Sync + 'static>(&self, name: &CStr, data: &'data T) {
        self.create_file(name, data, &ShortFileOps::<T>::WRITE_ONLY, 0)
    }

    /// Creates a read-only callback file, see [`Dir::read_callback_file`].
    pub fn read_callback_file<T, F>(&self, name: &CStr, data: &'data T, f: &'static F)
    where
        T: Send + Sync + 'static,
        F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::read_only(f), 0)
    }

    /// Creates a read-write callback file, see [`Dir::read_write_callback_file`].
    pub fn read_write_callback_file<T, F, W>(
        &self,
        name: &CStr,
        data: &'data T,
        f: &'static F,
        w: &'static W,
    ) where
        T: Send + Sync + 'static,
        F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + Copy,
        W: Fn(&T, &mut UserSliceReader) -> Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::read_write(f, w), 0)
    }

    /// Creates a write-only callback file, see [`Dir::write_callback_file`].
    pub fn write_only_callback_file<T, W>(&self, name: &CStr, data: &'data T, w: &'static W)
    where
        T: Send + Sync + 'static,
        W: Fn(&T, &mut UserSliceReader) -> Result + Send + Sync + Copy,
    {
        self.create_file(name, data, callback_adapters::write_only(w), 0)
    }

    /// Creates a read-only binary file, see [`Dir::read_binary_file`].
    pub fn read_binary_file<T>(&self, name: &CStr, data: &'data T)
    where
        T: BinaryWriter + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_ONLY, 0)
    }

    /// Creates a read-write binary file, see [`Dir::read_write_binary_file`].
    pub fn read_write_binary_file<T>(&self, name: &CStr, data: &'data T)
    where
        T: BinaryWriter + BinaryReader + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_WRITE, 0)
    }

    /// Creates a write-only binary file, see [`Dir::write_binary_file`].
    pub fn write_binary_file<T>(&self, name: &CStr, data: &'data T)
    where
        T: BinaryReader + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_WRITE_ONLY, 0)
    }
}
