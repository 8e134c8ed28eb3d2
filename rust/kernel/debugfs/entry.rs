// SPDX-License-Identifier: GPL-2.0

//! [`Entry`]: the owner of one DebugFS dentry.
//!
//! When DebugFS is compiled out, an [`Entry`] is zero-sized and never [`live`](Entry::is_live),
//! and a `Dir` drops the fields that would hold one.
//!
//! C header: [`include/linux/debugfs.h`](srctree/include/linux/debugfs.h)

use super::file_ops::NewFile;
use crate::{
    str::CStr,
    sync::Arc, //
};
use core::{
    marker::PhantomData,
    mem::ManuallyDrop, //
};

#[cfg(CONFIG_DEBUG_FS)]
use super::file_ops::RawTable;
#[cfg(CONFIG_DEBUG_FS)]
use crate::{
    bindings,
    error::from_err_ptr,
    str::CStrExt, //
};

/// What an [`Entry`] holds: the dentry DebugFS created, if any.
#[cfg(CONFIG_DEBUG_FS)]
pub(super) type Dentry = Option<core::ptr::NonNull<bindings::dentry>>;
#[cfg(not(CONFIG_DEBUG_FS))]
pub(super) type Dentry = NoDentry;

#[cfg(not(CONFIG_DEBUG_FS))]
#[derive(Clone, Copy)]
pub(super) struct NoDentry;

/// An owned DebugFS dentry, removed (with everything below it) when dropped.
///
/// A failed creation gives an entry that is not live, whose children are never created (C would
/// create them at the root, where nobody would remove them). `'a` bounds a borrowed parent.
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
        let dentry = create_dir(name, parent.as_deref());
        // INVARIANT: The dentry (if any) is new and ours, and `_parent` owns its parent.
        Self::from_parts(dentry, parent)
    }

    /// Creates `file`, named `name`, in `parent` and keeps `parent` alive; nothing without one.
    ///
    /// # Safety
    ///
    /// The data of `file` must stay valid (and at the same address), and only shared, until the
    /// returned [`Entry`] is dropped.
    pub(crate) unsafe fn file(
        name: &CStr,
        parent: Option<&Arc<Entry<'static>>>,
        file: NewFile,
    ) -> Self {
        let Some(parent) = parent else {
            return Self::empty();
        };
        // SAFETY: The dentry passes from this entry, never dropped, to the result, which removes
        // it when dropped; until then `file`'s data stays valid (our caller's guarantee).
        let borrowed = ManuallyDrop::new(unsafe { Entry::file_in(name, parent, file) });
        // INVARIANT: The dentry (if any) is new and ours, and `_parent` owns its parent.
        Self::from_parts(borrowed.dentry_raw(), Some(parent.clone()))
    }
}

impl<'a> Entry<'a> {
    /// Creates a directory named `name` in `parent`, which it borrows.
    ///
    /// The directory is removed with `parent` at the latest, so the result may be leaked with
    /// [`core::mem::forget`] when `parent` is going to be removed anyway.
    pub(crate) fn dir_in(name: &CStr, parent: &'a Entry<'_>) -> Self {
        // INVARIANT: The dentry (if any) is new and ours; its parent is borrowed for `'a`.
        Self::from_parts(create_dir(name, Some(parent)), None)
    }

    /// Creates `file`, named `name`, in `parent`, which it borrows; nothing if `parent` is not
    /// live.
    ///
    /// # Safety
    ///
    /// The data of `file` must stay valid (and at the same address), and only shared, until the
    /// file is removed: when the returned [`Entry`] is dropped or, if it is leaked, when `parent`
    /// is removed.
    pub(crate) unsafe fn file_in(name: &CStr, parent: &'a Entry<'_>, file: NewFile) -> Self {
        #[cfg(CONFIG_DEBUG_FS)]
        let dentry = parent.dentry.and_then(|parent| {
            let (name, parent, data) = (name.as_char_ptr(), parent.as_ptr(), file.data());
            let (mode, aux) = (file.mode, core::ptr::null());
            // SAFETY: `name` is NUL-terminated and DebugFS copies it. `parent` is live by the
            // invariant of its `Entry`, and a directory (files are only created in `Dir`s and
            // `ScopedDir`s). By the invariant of `NewFile`, the table's callbacks are sound on
            // `data`, valid until the file is removed (our caller's guarantee). `aux` is unused.
            let dentry = unsafe {
                match file.table() {
                    RawTable::Full(ops) => {
                        bindings::debugfs_create_file_full(name, mode, parent, data, aux, ops)
                    }
                    RawTable::Short(ops) => {
                        bindings::debugfs_create_file_short(name, mode, parent, data, aux, ops)
                    }
                }
            };
            let dentry = core::ptr::NonNull::new(from_err_ptr(dentry).ok()?)?;
            if file.size != 0 {
                // SAFETY: The dentry is new and positive, and its inode lives as long as it does.
                // A racing `stat()` may see 0, as with `debugfs_create_file_size()`.
                unsafe { (*(*dentry.as_ptr()).d_inode).i_size = file.size };
            }
            Some(dentry)
        });
        #[cfg(not(CONFIG_DEBUG_FS))]
        let dentry = {
            let _ = (name, parent, file.mode, file.size);
            NoDentry
        };
        // INVARIANT: The dentry (if any) is new and ours; its parent is borrowed for `'a`.
        Self::from_parts(dentry, None)
    }

    /// Assembles an entry; each caller says why the invariants hold.
    pub(super) fn from_parts(dentry: Dentry, parent: Option<Arc<Entry<'static>>>) -> Self {
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

    /// The dentry of this entry, which stays its owner.
    pub(super) fn dentry_raw(&self) -> Dentry {
        #[cfg(CONFIG_DEBUG_FS)]
        {
            self.dentry
        }
        #[cfg(not(CONFIG_DEBUG_FS))]
        NoDentry
    }
}

/// Creates a directory in `parent`, or at the root if `parent` is `None`; nothing if `parent` is
/// not live. Every `ERR_PTR` (DebugFS off at boot, not initialised, no memory) becomes `None`.
fn create_dir(name: &CStr, parent: Option<&Entry<'_>>) -> Dentry {
    #[cfg(CONFIG_DEBUG_FS)]
    {
        let parent = match parent {
            Some(parent) => parent.dentry?.as_ptr(),
            None => core::ptr::null_mut(),
        };
        // SAFETY: `name` is NUL-terminated and DebugFS copies it. `parent` is null (the root) or
        // live by the type invariant of the `Entry` it comes from, which the caller borrows.
        let dentry = unsafe { bindings::debugfs_create_dir(name.as_char_ptr(), parent) };
        from_err_ptr(dentry).ok().and_then(core::ptr::NonNull::new)
    }
    #[cfg(not(CONFIG_DEBUG_FS))]
    {
        let _ = (name, parent);
        NoDentry
    }
}

impl Drop for Entry<'_> {
    fn drop(&mut self) {
        #[cfg(CONFIG_DEBUG_FS)]
        if let Some(dentry) = self.dentry.take() {
            // SAFETY: By the type invariant the dentry is ours and its parent is still there;
            // taken out of `self`, it is removed once. `debugfs_remove` returns when no file
            // operation runs in the subtree (later ones fail with `EIO`), so file data may be
            // dropped right after.
            unsafe { bindings::debugfs_remove(dentry.as_ptr()) };
        }
    }
}
