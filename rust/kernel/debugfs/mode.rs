// SPDX-License-Identifier: GPL-2.0

//! [`Mode`]: who may read and who may write the files of a directory handle.

use crate::bindings;

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
    /// The mode bits granting access to this class, given the owner's bit (`S_IRUSR` or
    /// `S_IWUSR`); the group's is 3 bits lower, the others' 6.
    const fn bits(self, owner_bit: u16) -> u16 {
        match self {
            Access::Nobody => 0,
            Access::Owner => owner_bit,
            Access::OwnerAndGroup => owner_bit | owner_bit >> 3,
            Access::Everyone => owner_bit | owner_bit >> 3 | owner_bit >> 6,
        }
    }
}

/// The permissions of the files created through a directory handle.
///
/// Set it with [`Dir::with_mode`](super::Dir::with_mode) or
/// [`ScopedDir::with_mode`](super::ScopedDir::with_mode); the default is [`Mode::OWNER`]. Each file
/// keeps only the permissions its operations implement (read, write or both), as C's
/// `debugfs_create_blob()` masks the write bits of a read-only blob.
///
/// # Examples
///
/// ```
/// use kernel::debugfs::{Access, Mode};
///
/// // What C drivers write as 0644: anyone may read, root may write.
/// let mode = Mode::new(Access::Everyone, Access::Owner);
/// assert_eq!(mode.bits(), 0o644);
/// assert_eq!(Mode::OWNER.bits(), 0o600);
/// assert_eq!(Mode::READ_ALL.bits(), 0o644);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    bits: u16,
}

impl Mode {
    /// Root may read and write: 0600, and 0400 or 0200 for files that only read or only write.
    pub const OWNER: Self = Self::new(Access::Owner, Access::Owner);

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

    /// The mode of a file with these permissions, given whether it can be read and written.
    pub(crate) const fn for_file(self, readable: bool, written: bool) -> bindings::umode_t {
        let mut mask = 0;
        if readable {
            mask |= Access::Everyone.bits(bindings::S_IRUSR as u16);
        }
        if written {
            mask |= Access::Everyone.bits(bindings::S_IWUSR as u16);
        }
        (self.bits & mask) as bindings::umode_t
    }
}

impl Default for Mode {
    fn default() -> Self {
        Self::OWNER
    }
}
