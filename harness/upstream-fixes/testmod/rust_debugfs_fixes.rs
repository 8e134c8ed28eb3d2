// SPDX-License-Identifier: GPL-2.0

//! Test module of the fixes that `make upstream-fixes` proposes for the base tree's own
//! `kernel::debugfs`.
//!
//! It uses only the API that upstream and the fixed code share, so it builds against both, and
//! `test_upstream_fixes.sh` shows each defect on the unpatched base and its fix on the patched
//! one. Its files, in `/sys/kernel/debug/rust_debugfs_fixes/`:
//!
//! - `failing_writer`: a callback file whose callback writes some text, then fails.
//! - `flag`, `small`, `signed`: read-write files of an `Atomic<bool>`, `Atomic<i8>` and
//!   `Atomic<i32>`.
//! - `churn`: writing `N` creates and drops a directory with a scope in it `N` times. Under
//!   failslab, some of those directories cannot be created; the files and directory of their
//!   scope, all named `rust_debugfs_fixes_stray*`, must then not be created anywhere.

use kernel::{
    debugfs::{
        Dir,
        File, //
    },
    fmt,
    prelude::*,
    sync::atomic::Atomic,
    uaccess::UserSliceReader, //
};

module! {
    type: FixesTest,
    name: "rust_debugfs_fixes",
    authors: ["Rust DebugFS developers"],
    description: "Test module of the kernel::debugfs fixes proposed upstream",
    license: "GPL",
}

struct FixesTest {
    _failing_writer: Pin<KBox<File<()>>>,
    _flag: Pin<KBox<File<Atomic<bool>>>>,
    _small: Pin<KBox<File<Atomic<i8>>>>,
    _signed: Pin<KBox<File<Atomic<i32>>>>,
    _churn: Pin<KBox<File<()>>>,
    _dir: Dir,
}

/// Writes a partial text, then fails as a `Writer` whose value cannot be shown would.
fn failing_writer(_: &(), f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str("a partial text\n")?;
    Err(fmt::Error)
}

/// Creates and drops a directory with a scope in it, as many times as the text written says.
fn churn(_: &(), reader: &mut UserSliceReader) -> Result {
    let mut buf = [0u8; 16];
    let len = reader.len();
    if len > buf.len() {
        return Err(EINVAL);
    }
    reader.read_slice(&mut buf[..len])?;
    let text = core::str::from_utf8(&buf[..len]).map_err(|_| EINVAL)?;
    let rounds: u32 = text.trim().parse().map_err(|_| EINVAL)?;
    for _ in 0..rounds {
        // Under failslab any step may fail; what fails must leave nothing behind anywhere.
        let dir = Dir::new(c"rust_debugfs_fixes_churn");
        let scope = dir.scope(Atomic::<u32>::new(0), c"scope", |value, scoped| {
            scoped.read_only_file(c"rust_debugfs_fixes_stray_file", value);
            scoped.dir(c"rust_debugfs_fixes_stray_dir");
        });
        // The scope goes first: it removes its files before it frees the value they show.
        drop(KBox::pin_init(scope, GFP_KERNEL));
        drop(dir);
    }
    Ok(())
}

impl kernel::Module for FixesTest {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let dir = Dir::new(c"rust_debugfs_fixes");
        Ok(Self {
            _failing_writer: KBox::pin_init(
                dir.read_callback_file(c"failing_writer", (), &failing_writer),
                GFP_KERNEL,
            )?,
            _flag: KBox::pin_init(
                dir.read_write_file(c"flag", Atomic::<bool>::new(false)),
                GFP_KERNEL,
            )?,
            _small: KBox::pin_init(
                dir.read_write_file(c"small", Atomic::<i8>::new(7)),
                GFP_KERNEL,
            )?,
            _signed: KBox::pin_init(
                dir.read_write_file(c"signed", Atomic::<i32>::new(7)),
                GFP_KERNEL,
            )?,
            _churn: KBox::pin_init(dir.write_callback_file(c"churn", (), &churn), GFP_KERNEL)?,
            _dir: dir,
        })
    }
}
