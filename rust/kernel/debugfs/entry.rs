// SPDX-License-Identifier: GPL-2.0

//! [`Entry`]: the owner of one DebugFS dentry.
//!
//! This is the only place that calls into `fs/debugfs`, and the only place that knows whether
//! DebugFS is compiled in: with `CONFIG_DEBUG_FS=n` an [`Entry`] is zero-sized and is never
//! [`live`](Entry::is_live), so the rest of the module is the same code in both configurations.
//!
//! C header: [`include/linux/debugfs.h`](srctree/include/linux/debugfs.h)

use super::{
    file_ops::FileOps,
    Mode, //
};
use crate::{
    bindings,
    str::CStr,
    sync::Arc, //
};
use core::{
    marker::PhantomData,
    mem::ManuallyDrop, //
};

#[cfg(CONFIG_DEBUG_FS)]
use crate::{
    error::from_err_ptr,
    str::CStrExt, //
};

/// What an [`Entry`] holds: a dentry if DebugFS created one, nothing if DebugFS is compiled out.
#[cfg(CONFIG_DEBUG_FS)]
type Dentry = Option<core::ptr::NonNull<bindings::dentry>>;
#[cfg(not(CONFIG_DEBUG_FS))]
type Dentry = NoDentry;

/// Stands in for a dentry when DebugFS is compiled out.
#[cfg(not(CONFIG_DEBUG_FS))]
#[derive(Clone, Copy)]
struct NoDentry;

/// An owned DebugFS dentry, removed (with everything below it) when dropped.
///
/// DebugFS never reports errors to its callers, so an [`Entry`] records a failed creation as an
/// entry that is not live. Children of such an entry are never created: handing its dentry to C
/// would create them at the DebugFS root, where nobody would ever remove them.
///
/// The lifetime `'a` bounds entries whose parent is borrowed rather than owned (see
/// [`Entry::dir_in`]).
///
/// # Invariants
///
/// - `dentry` is `None`, or a dentry returned by DebugFS that this [`Entry`] removes exactly
///   once, when it is dropped.
/// - If `dentry` is `Some`, its parent directory is not removed before it: the parent is the
///   DebugFS root, or `_parent` keeps the parent's [`Entry`] alive, or the parent is an [`Entry`]
///   borrowed for `'a`.
pub(crate) struct Entry<'a> {
    #[cfg(CONFIG_DEBUG_FS)]
    dentry: Dentry,
    #[cfg(CONFIG_DEBUG_FS)]
    _parent: Option<Arc<Entry<'static>>>,
    _borrowed_parent: PhantomData<&'a Entry<'a>>,
}

// SAFETY: An `Entry` is a handle to a dentry. DebugFS lets any thread create children of a
// dentry and remove it, and the parent `Arc` is itself `Send`.
unsafe impl Send for Entry<'_> {}

// SAFETY: Through `&Entry` one can only create children and test for liveness. DebugFS
// serialises creation in a directory on the directory's inode lock.
unsafe impl Sync for Entry<'_> {}

impl Entry<'static> {
    /// Creates an entry that stands for nothing.
    ///
    /// It stands in where creation failed or DebugFS is off, and is a placeholder to overwrite.
    pub(crate) const fn empty() -> Self {
        // INVARIANT: No dentry, so nothing to remove and no parent to keep.
        Self {
            #[cfg(CONFIG_DEBUG_FS)]
            dentry: None,
            #[cfg(CONFIG_DEBUG_FS)]
            _parent: None,
            _borrowed_parent: PhantomData,
        }
    }

    /// Creates a directory named `name` that keeps `parent` alive, or at the DebugFS root if
    /// `parent` is `None`.
    pub(crate) fn dir(name: &CStr, parent: Option<Arc<Entry<'static>>>) -> Self {
        let dentry = match &parent {
            Some(parent) => parent.create_dir(name),
            None => create_dir(name, None),
        };
        // INVARIANT: The dentry (if any) is new and ours, and `_parent` owns its parent.
        Self::from_parts(dentry, parent)
    }

    /// Creates `file`, named `name`, in `parent` and keeps `parent` alive; without a `parent`
    /// (its creation failed, or DebugFS is compiled out) it creates nothing.
    ///
    /// Not generic, like everything it calls: one copy in the `kernel` crate creates the files
    /// of every type of data, of every module.
    ///
    /// # Safety
    ///
    /// The data of `file` must stay valid (and at the same address) until the returned [`Entry`]
    /// is dropped.
    pub(crate) unsafe fn file(
        name: &CStr,
        parent: Option<&Arc<Entry<'static>>>,
        file: NewFile,
    ) -> Self {
        let Some(parent) = parent else {
            return Self::empty();
        };
        // SAFETY: Forwarded from the caller: the file is removed when the result is dropped.
        let dentry = unsafe { parent.create_file(name, file) };
        // INVARIANT: The dentry (if any) is new and ours, and `_parent` owns its parent.
        Self::from_parts(dentry, Some(parent.clone()))
    }
}

impl Entry<'static> {
    /// Creates a symbolic link named `name` to `target` in `parent`, keeping `parent` alive.
    pub(crate) fn symlink(name: &CStr, parent: Arc<Entry<'static>>, target: &CStr) -> Self {
        let dentry = parent.create_symlink(name, target);
        // INVARIANT: The dentry (if any) is new and ours, and `_parent` owns its parent.
        Self::from_parts(dentry, Some(parent))
    }
}

impl<'a> Entry<'a> {
    /// Creates a directory named `name` in `parent`, which it borrows.
    ///
    /// The directory is removed with `parent` at the latest, so the result may be leaked with
    /// [`core::mem::forget`] when `parent` is going to be removed anyway.
    pub(crate) fn dir_in(name: &CStr, parent: &'a Entry<'_>) -> Self {
        // INVARIANT: The dentry (if any) is new and ours; its parent is borrowed for `'a`.
        Self::from_parts(parent.create_dir(name), None)
    }

    /// Creates `file`, named `name`, in `parent`, which it borrows.
    ///
    /// # Safety
    ///
    /// The data of `file` must stay valid (and at the same address) until the returned [`Entry`]
    /// is dropped or, if it is leaked, until `parent` is removed.
    pub(crate) unsafe fn file_in(name: &CStr, parent: &'a Entry<'_>, file: NewFile) -> Self {
        // SAFETY: Forwarded from the caller.
        let dentry = unsafe { parent.create_file(name, file) };
        // INVARIANT: The dentry (if any) is new and ours; its parent is borrowed for `'a`.
        Self::from_parts(dentry, None)
    }

    /// Creates a symbolic link named `name` to `target` in `parent`, which it borrows.
    pub(crate) fn symlink_in(name: &CStr, parent: &'a Entry<'_>, target: &CStr) -> Self {
        let dentry = parent.create_symlink(name, target);
        // INVARIANT: The dentry (if any) is new and ours; its parent is borrowed for `'a`.
        Self::from_parts(dentry, None)
    }

    /// Another handle to the dentry of this entry, borrowing it.
    ///
    /// # Safety
    ///
    /// The result must never be dropped: it is not the owner of the dentry.
    pub(crate) unsafe fn alias<'b>(&'b self) -> ManuallyDrop<Entry<'b>> {
        // INVARIANT: The dentry is `self`'s, which `self` removes; the alias, which is never
        // dropped (the caller's guarantee), does not. Its parent is `self`'s parent, which `self`
        // keeps alive while the alias borrows `self`.
        ManuallyDrop::new(Entry::from_parts(self.dentry_raw(), None))
    }

    /// Assembles an entry; each caller says why the invariants hold.
    fn from_parts(dentry: Dentry, parent: Option<Arc<Entry<'static>>>) -> Self {
        #[cfg(not(CONFIG_DEBUG_FS))]
        let _ = (dentry, parent);
        Self {
            #[cfg(CONFIG_DEBUG_FS)]
            dentry,
            #[cfg(CONFIG_DEBUG_FS)]
            _parent: parent,
            _borrowed_parent: PhantomData,
        }
    }
}

impl Entry<'_> {
    /// Returns whether this entry stands for a dentry that exists in DebugFS.
    pub(crate) fn is_live(&self) -> bool {
        #[cfg(CONFIG_DEBUG_FS)]
        {
            self.dentry.is_some()
        }
        #[cfg(not(CONFIG_DEBUG_FS))]
        false
    }

    /// The dentry, copied.
    fn dentry_raw(&self) -> Dentry {
        #[cfg(CONFIG_DEBUG_FS)]
        {
            self.dentry
        }
        #[cfg(not(CONFIG_DEBUG_FS))]
        NoDentry
    }

    /// Creates a symbolic link in this directory, unless this one is not live.
    fn create_symlink(&self, name: &CStr, target: &CStr) -> Dentry {
        #[cfg(CONFIG_DEBUG_FS)]
        {
            let parent = self.dentry?;
            // SAFETY: `name` and `target` are NUL-terminated and DebugFS copies both. `parent` is
            // live by the type invariant of `self`.
            let dentry = unsafe {
                bindings::debugfs_create_symlink(
                    name.as_char_ptr(),
                    parent.as_ptr(),
                    target.as_char_ptr(),
                )
            };
            from_err_ptr(dentry).ok().and_then(core::ptr::NonNull::new)
        }
        #[cfg(not(CONFIG_DEBUG_FS))]
        {
            let _ = (name, target);
            NoDentry
        }
    }

    /// Creates a directory in this one, unless this one is not live.
    fn create_dir(&self, name: &CStr) -> Dentry {
        #[cfg(CONFIG_DEBUG_FS)]
        {
            self.dentry
                .and_then(|parent| create_dir(name, Some(parent)))
        }
        #[cfg(not(CONFIG_DEBUG_FS))]
        {
            let _ = name;
            NoDentry
        }
    }

    /// Creates a file in this directory, unless this one is not live.
    ///
    /// # Safety
    ///
    /// The data of `file` must stay valid (and at the same address) until the file is removed.
    unsafe fn create_file(&self, name: &CStr, file: NewFile) -> Dentry {
        #[cfg(CONFIG_DEBUG_FS)]
        {
            let parent = self.dentry?.as_ptr();
            let name = name.as_char_ptr();
            // SAFETY: `name` is NUL-terminated and DebugFS copies it. `parent` is live by the
            // type invariant of `self`, and a directory: files are only created in the entries
            // of `Dir`s and `ScopedDir`s (the callers of `Entry::file` and `Entry::file_in`).
            // The callbacks of the table are sound on
            // `file.data` while it is valid (type invariant of `NewFile`), which it is until the
            // file is removed (our caller's guarantee). `aux` is null: DebugFS only stores it. The
            // short proxy opens files with `simple_open()` and calls only `read`, `write` and
            // `llseek` of the table, each under an active reference, as short tables expect.
            let dentry = unsafe {
                match file.table {
                    RawTable::Full(table) => bindings::debugfs_create_file_full(
                        name,
                        file.mode,
                        parent,
                        file.data,
                        core::ptr::null(),
                        table,
                    ),
                    RawTable::Short(table) => bindings::debugfs_create_file_short(
                        name,
                        file.mode,
                        parent,
                        file.data,
                        core::ptr::null(),
                        table,
                    ),
                }
            };
            let dentry = from_err_ptr(dentry)
                .ok()
                .and_then(core::ptr::NonNull::new)?;
            if file.size != 0 {
                // SAFETY: The dentry is new and positive, and its inode lives as long as it does.
                // The file is already visible, so a concurrent `stat()` may see the size still 0:
                // this is exactly what `debugfs_create_file_size()` does (it does not return the
                // dentry, so it cannot be used here).
                unsafe { (*(*dentry.as_ptr()).d_inode).i_size = file.size };
            }
            Some(dentry)
        }
        #[cfg(not(CONFIG_DEBUG_FS))]
        {
            let _ = (name, file);
            NoDentry
        }
    }
}

/// A table as DebugFS serves it: a `struct file_operations` through the full proxy, or a
/// `struct debugfs_short_fops` through the short one.
#[derive(Clone, Copy)]
// Read only when DebugFS is compiled in.
#[cfg_attr(not(CONFIG_DEBUG_FS), expect(dead_code))]
pub(crate) enum RawTable {
    /// Created with `debugfs_create_file_full()`.
    Full(&'static bindings::file_operations),
    /// Created with `debugfs_create_file_short()`.
    Short(&'static bindings::debugfs_short_fops),
}

/// A kind of table DebugFS serves files with (see [`RawTable`]).
///
/// # Safety
///
/// `raw` must return `self`: [`NewFile::new`] hands DebugFS the table `raw` returns for the
/// callbacks of the table it was given.
pub(crate) unsafe trait Table: 'static {
    /// This very table, tagged with its kind.
    fn raw(&'static self) -> RawTable;
}

// SAFETY: `raw` returns `self`.
unsafe impl Table for bindings::file_operations {
    fn raw(&'static self) -> RawTable {
        RawTable::Full(self)
    }
}

// SAFETY: `raw` returns `self`.
unsafe impl Table for bindings::debugfs_short_fops {
    fn raw(&'static self) -> RawTable {
        RawTable::Short(self)
    }
}

/// A file to create: a pointer to its data, the table that serves it, its mode and its size.
///
/// The type of the data is erased here, in a few stores inlined where a file is created, so that
/// the code that creates files ([`Entry::file`], [`Entry::file_in`]) is not generic: a new type
/// of data or callback costs a module its table and callbacks, and no copy of that code.
///
/// # Invariants
///
/// The callbacks of `table` are sound to call, through the proxy of the table's kind, on a file
/// whose `i_private` is `data`, for as long as what `data` points at stays valid.
#[derive(Clone, Copy)]
// Read only when DebugFS is compiled in.
#[cfg_attr(not(CONFIG_DEBUG_FS), expect(dead_code))]
pub(crate) struct NewFile {
    data: *mut crate::ffi::c_void,
    table: RawTable,
    mode: bindings::umode_t,
    size: bindings::loff_t,
}

impl NewFile {
    /// A file showing `data` through `file_ops`, created with `attrs`.
    #[inline]
    pub(crate) fn new<T, O: Table>(
        data: &T,
        file_ops: &'static FileOps<T, O>,
        attrs: FileAttrs,
    ) -> Self {
        // INVARIANT: By the type invariant of `FileOps`, its callbacks are sound on a file whose
        // `i_private` points at a `T` that stays valid, and `data` points at a `T`; `raw`
        // returns that very table (the safety requirement of `Table`).
        Self {
            data: core::ptr::from_ref(data).cast_mut().cast(),
            table: file_ops.operations().raw(),
            mode: file_ops.mode(attrs.mode),
            size: attrs.size,
        }
    }
}

/// How to create a file, besides its operations.
#[derive(Clone, Copy)]
pub(crate) struct FileAttrs {
    /// The permissions; each file keeps those its operations implement.
    pub(crate) mode: Mode,
    /// The size `stat` reports, as `debugfs_create_file_size()` sets it (0 if unknown).
    pub(crate) size: bindings::loff_t,
}

/// Creates a directory in `parent`, or at the DebugFS root if `parent` is `None`.
///
/// DebugFS returns an `ERR_PTR` when it is disabled at boot, not initialised, or out of memory;
/// all of those become `None`.
#[cfg(CONFIG_DEBUG_FS)]
fn create_dir(name: &CStr, parent: Dentry) -> Dentry {
    let parent = parent.map_or(core::ptr::null_mut(), |parent| parent.as_ptr());
    // SAFETY: `name` is NUL-terminated and DebugFS copies it. `parent` is null (the root) or a
    // live dentry: every caller passes the dentry of an `Entry` it holds a reference to.
    let dentry = unsafe { bindings::debugfs_create_dir(name.as_char_ptr(), parent) };
    from_err_ptr(dentry).ok().and_then(core::ptr::NonNull::new)
}

#[cfg(not(CONFIG_DEBUG_FS))]
fn create_dir(name: &CStr, parent: Option<NoDentry>) -> Dentry {
    let _ = (name, parent);
    NoDentry
}

impl Drop for Entry<'_> {
    fn drop(&mut self) {
        #[cfg(CONFIG_DEBUG_FS)]
        if let Some(dentry) = self.dentry.take() {
            // SAFETY: By the type invariant the dentry is ours and its parent is still there.
            // We take it out of `self`, so it is removed exactly once. `debugfs_remove` removes
            // the subtree and returns only when no file operation is running on any file in it;
            // operations on files that are still open fail with `EIO` from then on. That is what
            // lets the owner of the file data drop it right after this.
            unsafe { bindings::debugfs_remove(dentry.as_ptr()) };
        }
    }
}
