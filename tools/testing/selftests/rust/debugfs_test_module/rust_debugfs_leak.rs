// SPDX-License-Identifier: GPL-2.0

//! Test module for `test_debugfs_hostile.sh`: DebugFS files that outlive the module, on purpose.
//!
//! Safe code can keep a `File` from ever being dropped, and then its file operations, which live
//! in this module, would outlast it. `leak=N` chooses how `rust_debugfs_leakN/` (a text file
//! `value` and a binary file `blob`) escapes the module's exit:
//!
//! - `1`: kept in a `static`, which Rust never drops;
//! - `2`: an `Arc` cycle: the state owns the directory and `value`, whose data owns the state;
//! - `3`: passed to `mem::forget`.
//!
//! DebugFS removes such files when the module goes, with a warning naming each.
//!
//! `fail_init=1` creates the same two files in `rust_debugfs_leak0/`, waits until `blob` has been
//! read (at most ten seconds), and fails its init. While init runs, `value` cannot be opened
//! (`ENXIO`); a descriptor of `blob` opened meanwhile reads `EIO` after the failure.

use core::{
    fmt,
    mem,
    sync::atomic::{
        AtomicBool,
        AtomicU32,
        Ordering, //
    }, //
};
use kernel::{
    debugfs::{
        BinaryWriter,
        Dir,
        File,
        Writer, //
    },
    fs::file::Offset,
    prelude::*,
    sync::{
        Arc,
        SetOnce, //
    },
    time::{
        delay::fsleep,
        Delta, //
    },
    uaccess::UserSliceWriter,
};

module! {
    type: LeakModule,
    name: "rust_debugfs_leak",
    authors: ["Rust for Linux Contributors"],
    description: "DebugFS files that outlive their module, for the selftests",
    license: "GPL",
    params: {
        leak: u32 {
            default: 0,
            description: "1: keep the files in a static, 2: in an Arc cycle, 3: mem::forget",
        },
        fail_init: bool {
            default: false,
            description: "fail init once blob has been read",
        },
    },
}

/// The files of `leak=1`.
struct Kept {
    _dir: Dir,
    _value: Pin<KBox<File<AtomicU32>>>,
    _blob: Pin<KBox<File<[u8; 4]>>>,
}

static KEPT: SetOnce<Kept> = SetOnce::new();

/// The state of `leak=2`: it owns `value`, whose data owns it.
struct Cycle {
    dir: Dir,
    value: SetOnce<Pin<KBox<File<Link>>>>,
    blob: SetOnce<Pin<KBox<File<[u8; 4]>>>>,
}

/// The data of `value` in `leak=2`: a number, and the state that owns the file.
struct Link {
    number: AtomicU32,
    _state: Arc<Cycle>,
}

impl Writer for Link {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.number.load(Ordering::Relaxed))
    }
}

/// Set once `blob` of `fail_init=1` has been read.
static BLOB_READ: AtomicBool = AtomicBool::new(false);

/// The data of `blob` in `fail_init=1`: reading it lets init go on, and fail.
struct Notifying;

impl BinaryWriter for Notifying {
    fn write_to_slice(&self, writer: &mut UserSliceWriter, offset: &mut Offset) -> Result<usize> {
        BLOB_READ.store(true, Ordering::Release);
        writer.write_slice_file(b"read", offset)
    }
}

struct LeakModule;

impl kernel::Module for LeakModule {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let fail_init = module_parameters::fail_init.value();
        let dir = Dir::new(match (fail_init, module_parameters::leak.value()) {
            (true, _) => c"rust_debugfs_leak0",
            (false, 1) => c"rust_debugfs_leak1",
            (false, 2) => c"rust_debugfs_leak2",
            (false, 3) => c"rust_debugfs_leak3",
            _ => return Err(EINVAL),
        });
        if fail_init {
            let _value =
                KBox::pin_init(dir.read_only_file(c"value", AtomicU32::new(7)), GFP_KERNEL)?;
            let _blob = KBox::pin_init(dir.read_binary_file(c"blob", Notifying), GFP_KERNEL)?;
            for _ in 0..1000 {
                if BLOB_READ.load(Ordering::Acquire) {
                    break;
                }
                fsleep(Delta::from_millis(10));
            }
            pr_info!("failing init on purpose\n");
            return Err(ENODEV);
        }
        match module_parameters::leak.value() {
            1 => {
                let value =
                    KBox::pin_init(dir.read_write_file(c"value", AtomicU32::new(7)), GFP_KERNEL)?;
                let blob = KBox::pin_init(dir.read_binary_file(c"blob", [1, 2, 3, 4]), GFP_KERNEL)?;
                KEPT.populate(Kept {
                    _dir: dir,
                    _value: value,
                    _blob: blob,
                });
            }
            2 => {
                let state = Arc::new(
                    Cycle {
                        dir,
                        value: SetOnce::new(),
                        blob: SetOnce::new(),
                    },
                    GFP_KERNEL,
                )?;
                let link = Link {
                    number: AtomicU32::new(7),
                    _state: state.clone(),
                };
                state.value.populate(KBox::pin_init(
                    state.dir.read_only_file(c"value", link),
                    GFP_KERNEL,
                )?);
                state.blob.populate(KBox::pin_init(
                    state.dir.read_binary_file(c"blob", [1, 2, 3, 4]),
                    GFP_KERNEL,
                )?);
            }
            // 3, as the directory's name says.
            _ => {
                mem::forget(KBox::pin_init(
                    dir.read_write_file(c"value", AtomicU32::new(7)),
                    GFP_KERNEL,
                )?);
                mem::forget(KBox::pin_init(
                    dir.read_binary_file(c"blob", [1, 2, 3, 4]),
                    GFP_KERNEL,
                )?);
                mem::forget(dir);
            }
        }
        Ok(LeakModule)
    }
}
