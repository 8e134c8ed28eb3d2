// SPDX-License-Identifier: GPL-2.0

//! DebugFS: files under `/sys/kernel/debug` that show and change driver state.
//!
//! In C a file takes a `struct file_operations`, a `void *` and the promise to remove the file
//! before freeing the value. Here a file *owns* its value:
//!
//! 1. [`File<T>`] holds the `T` it shows and removes its file before dropping the `T`: no freed
//!    data is ever read, and there is no separate cleanup to forget.
//! 2. [`Scope<T>`] holds one `T` and a whole directory tree of files showing parts of it, built
//!    through a [`ScopedDir`]. Dropping the scope removes the tree, then drops the data.
//! 3. A [`Dir`] keeps its parent alive, and is removed once it and everything created in it
//!    through owning handles are dropped. [`Dir`] is [`Clone`].
//! 4. How a value is shown and parsed comes from its type ([`Writer`], [`Reader`] and their
//!    binary forms), or from a function or capture-less closure for "callback" files. Each data
//!    type and each callback gets its own table of operations at compile time, so a file costs
//!    what a C file costs: a dentry, an inode and one pointer to the data.
//! 5. Like C DebugFS, failures never reach the caller: if DebugFS is compiled out
//!    (`CONFIG_DEBUG_FS=n`), disabled at boot, or out of memory, the API still owns the data but
//!    creates nothing, not even children of a directory that could not be created.
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
//!         let text = buf.get_mut(..reader.len()).ok_or(EINVAL)?;
//!         reader.read_slice(text)?;
//!         match &*text {
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
//! // The driver keeps using its value through the file handle; this is what `cat` will show.
//! hits.0.store(3, Relaxed);
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
//! # From C
//!
//! What a C driver uses, and what takes its place here:
//!
//! - `debugfs_create_dir()`: [`Dir::new`], [`Dir::subdir`]; `debugfs_remove()`: dropping.
//! - `debugfs_create_file()`: [`Dir::read_only_file`] and the other file methods, or a [`Scope`]
//!   of files on one value.
//! - The `mode` of a file: [`Dir::with_mode`].
//! - `debugfs_create_u32()` and the other integers, `debugfs_create_atomic_t()`: a file of an
//!   [`Atomic`](crate::sync::atomic::Atomic) or a [`Mutex`](crate::sync::Mutex) of the integer.
//! - `debugfs_create_x32()` and the other hexadecimal formats: [`Hex`]; `debugfs_create_bool()`:
//!   [`YesNo`]; `debugfs_create_str()`: [`Str`]; `debugfs_create_u32_array()`:
//!   [`SpaceSeparated`].
//! - `debugfs_create_blob()`: [`Dir::read_binary_file`].
//! - `debugfs_create_file_size()`: [`Dir::read_binary_file_with_size`].
//! - `DEFINE_SHOW_ATTRIBUTE()`, `DEFINE_DEBUGFS_ATTRIBUTE()`: a [`Writer`] and a [`Reader`] for
//!   the type, or [`Dir::read_callback_file`] and its siblings.
//! - `seq_file` iterators (`start`, `next`, `stop`, `show`): [`Records`], [`Dir::records_file`].
//! - `debugfs_create_regset32()`: [`RegisterDump`], [`Dir::registers_file`].
//! - `debugfs_create_symlink()`: [`Dir::symlink`].
//!
//! Not covered: `debugfs_create_devm_seqfile()` and custom `file_operations`.
//!
//! C header: [`include/linux/debugfs.h`](srctree/include/linux/debugfs.h)
//!
//! Reference: <https://docs.kernel.org/filesystems/debugfs.html>
//!
//! Samples: `samples/rust/rust_debugfs.rs` ([`Dir`] and [`File`]), `rust_debugfs_scoped.rs`
//! ([`Scope`] and [`ScopedDir`]), `rust_debugfs_extras.rs` (formats, modes, records, symbolic
//! links) and `rust_debugfs_pci.rs` (register dumps).

mod callback_adapters;
mod dir;
mod entry;
mod file_ops;
mod formats;
mod mode;
mod records;
mod registers;
mod scope;
mod sizes;
mod symlink;
mod text_read;
mod traits;

#[doc(inline)]
pub use dir::{
    Dir,
    File, //
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
pub use scope::{
    Scope,
    ScopedDir, //
};
#[doc(inline)]
pub use symlink::Symlink;
#[doc(inline)]
pub use traits::{
    BinaryReader,
    BinaryReaderMut,
    BinaryWriter,
    Reader,
    Writer, //
};
