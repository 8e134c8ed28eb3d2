// SPDX-License-Identifier: GPL-2.0

//! [`Mode`]: who may read and who may write the files of a directory handle.

use super::{
    entry::Entry,
    Dir,
    ScopedDir, //
};
use crate::bindings;
use core::mem::ManuallyDrop;

/// The permissions of the files created through a directory handle: [`Mode::OWNER`] by default.
///
/// Each file keeps only those its operations implement: with 0644, a read-only file gets 0444 and
/// a write-only file 0200, as C's `debugfs_create_blob()` masks the write bits of a read-only blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    bits: u16,
}

impl Mode {
    /// Root may read and write: 0600, and 0400 or 0200 for files that only read or only write.
    pub const OWNER: Self = Self {
        bits: (bindings::S_IRUSR | bindings::S_IWUSR) as u16,
    };

    /// The mode of a file with these permissions, given whether it can be read and written.
    pub(crate) const fn for_file(self, readable: bool, written: bool) -> bindings::umode_t {
        let read = if readable { bindings::S_IRUGO } else { 0 };
        let write = if written { bindings::S_IWUGO } else { 0 };
        (self.bits & (read | write) as u16) as bindings::umode_t
    }
}

/// A class of users, for one kind of access.
///
/// The classes are nested, as in practice: what the group may do, the owner may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Nobody: not even root, unless it overrides permissions.
    Nobody,
    /// The owner of the file, which for DebugFS is root.
    Owner,
    /// The owner and the file's group.
    OwnerAndGroup,
    /// Every user who can reach the file (DebugFS itself is mounted root-only by default).
    Everyone,
}

impl Access {
    /// The mode bits of this class, from the owner's (`S_IRUSR` or `S_IWUSR`) shifted by 3 and 6.
    const fn bits(self, owner_bit: u16) -> u16 {
        match self {
            Access::Nobody => 0,
            Access::Owner => owner_bit,
            Access::OwnerAndGroup => owner_bit | owner_bit >> 3,
            Access::Everyone => owner_bit | owner_bit >> 3 | owner_bit >> 6,
        }
    }
}

impl Mode {
    /// Everyone may read, root may write: 0644 (0444 for read-only files).
    pub const READ_ALL: Self = Self::new(Access::Everyone, Access::Owner);

    /// Builds the mode from who may read and who may write.
    pub const fn new(read: Access, write: Access) -> Self {
        Self {
            bits: read.bits(bindings::S_IRUSR as u16) | write.bits(bindings::S_IWUSR as u16),
        }
    }

    /// The permission bits, as `ls -l` shows them in octal.
    pub const fn bits(self) -> u16 {
        self.bits
    }
}

impl Default for Mode {
    fn default() -> Self {
        Self::OWNER
    }
}

impl Dir {
    /// Returns a handle to this directory that creates files with permissions `mode`, see
    /// [`Mode`]. Subdirectories created through the handle inherit the mode.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::{Access, Dir, Mode};
    /// use kernel::new_mutex;
    ///
    /// // What C drivers write as 0644: anyone may read, root may write; and root only, 0600.
    /// assert_eq!(Mode::new(Access::Everyone, Access::Owner), Mode::READ_ALL);
    /// assert_eq!((Mode::READ_ALL.bits(), Mode::OWNER.bits()), (0o644, 0o600));
    ///
    /// let dir = Dir::new(c"example_with_mode");
    /// // `ls -l`: `-r--r--r-- version`, `-rw-r--r-- level`, `--w------- reset`. Like a clone,
    /// // `public` keeps the directory alive on its own; `dir` still creates root-only files.
    /// let public = dir.with_mode(Mode::READ_ALL);
    /// let version = KBox::pin_init(public.read_only_file(c"version", 1u32), GFP_KERNEL)?;
    /// let level = KBox::pin_init(public.read_write_file(c"level", new_mutex!(3u8)), GFP_KERNEL)?;
    /// let reset = KBox::pin_init(public.write_only_file(c"reset", new_mutex!(0u8)), GFP_KERNEL)?;
    /// // In a scope: `-r--r--r-- example_with_mode/port/speed`.
    /// let port = dir.scope(100u32, c"port", |speed, dir| {
    ///     dir.with_mode(Mode::READ_ALL).read_only_file(c"speed", speed)
    /// });
    /// let port = KBox::pin_init(port, GFP_KERNEL)?;
    /// assert_eq!((**version, *level.lock(), *reset.lock(), **port), (1, 3, 0, 100));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn with_mode(&self, mode: Mode) -> Self {
        // INVARIANT: The same entry, live if `self`'s is.
        Self::from_entry(self.entry().cloned(), mode)
    }
}

impl<'data> ScopedDir<'data, '_> {
    /// Returns a handle to this directory that creates files with permissions `mode`, see
    /// [`Dir::with_mode`].
    pub fn with_mode<'dir2>(&'dir2 self, mode: Mode) -> ScopedDir<'data, 'dir2> {
        // INVARIANT: The same directory of the same scope.
        ScopedDir {
            // SAFETY: The alias is held in a `ManuallyDrop`, as every `ScopedDir` entry, so it is
            // never dropped, and it cannot outlive `self`, which it borrows.
            entry: unsafe { self.entry.alias() },
            mode,
            _data: core::marker::PhantomData,
        }
    }
}

impl Entry<'_> {
    /// Another handle to the dentry of this entry, borrowing it.
    ///
    /// # Safety
    ///
    /// The result must never be dropped: it is not the owner of the dentry.
    unsafe fn alias<'b>(&'b self) -> ManuallyDrop<Entry<'b>> {
        // INVARIANT: The dentry is `self`'s, which `self` removes; the alias, which is never
        // dropped (the caller's guarantee), does not. Its parent is `self`'s parent, which `self`
        // keeps alive while the alias borrows `self`.
        ManuallyDrop::new(Entry::from_parts(self.dentry_raw(), None))
    }
}
