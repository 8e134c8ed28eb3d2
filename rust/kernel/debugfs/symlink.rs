// SPDX-License-Identifier: GPL-2.0

//! Symbolic links: C's `debugfs_create_symlink()`.

use super::{
    entry::{
        Dentry,
        Entry, //
    },
    Dir,
    ScopedDir, //
};
use crate::prelude::*;

/// A symbolic link in DebugFS, removed when dropped.
///
/// Made by [`Dir::symlink`]. With `CONFIG_DEBUG_FS=n` it is zero-sized.
#[must_use = "the link is removed when the `Symlink` is dropped"]
pub struct Symlink {
    _entry: Entry<'static>,
}

impl Dir {
    /// Creates a symbolic link named `name` in this directory, pointing at `target`.
    ///
    /// `target` is stored as given (relative to this directory, or absolute). The link keeps
    /// this directory alive until the returned [`Symlink`] is dropped, which removes it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Dir;
    ///
    /// let dir = Dir::new(c"example_symlink");
    /// // `readlink current` prints "port0"; a link in a scope goes with the scope.
    /// let current = dir.symlink(c"current", c"port0");
    /// let ports = dir.scope((), c"ports", |(), dir| dir.symlink(c"first", c"../port0"));
    /// let ports = KBox::pin_init(ports, GFP_KERNEL)?;
    /// drop((current, ports));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn symlink(&self, name: &CStr, target: &CStr) -> Symlink {
        let _entry = match self.entry() {
            // INVARIANT: The dentry (if any) is new and ours, and `_parent` owns its parent.
            Some(parent) => Entry::from_parts(create(parent, name, target), Some(parent.clone())),
            None => Entry::empty(),
        };
        Symlink { _entry }
    }
}

impl ScopedDir<'_, '_> {
    /// Creates a symbolic link, see [`Dir::symlink`]; it is removed with the scope.
    pub fn symlink(&self, name: &CStr, target: &CStr) {
        let _ = create(&self.entry, name, target);
    }
}

/// Creates a symbolic link named `name` to `target` in `parent`, unless `parent` is not live.
fn create(parent: &Entry<'_>, name: &CStr, target: &CStr) -> Dentry {
    let parent = parent.dentry_raw();
    #[cfg(CONFIG_DEBUG_FS)]
    {
        let (parent, name, target) = (parent?, name.as_char_ptr(), target.as_char_ptr());
        // SAFETY: `name` and `target` are NUL-terminated and DebugFS copies both. `parent` is
        // live by the type invariant of the `Entry` it comes from, which the caller borrows.
        let dentry =
            unsafe { crate::bindings::debugfs_create_symlink(name, parent.as_ptr(), target) };
        crate::error::from_err_ptr(dentry)
            .ok()
            .and_then(core::ptr::NonNull::new)
    }
    #[cfg(not(CONFIG_DEBUG_FS))]
    {
        let _ = (name, target);
        parent
    }
}
