// SPDX-License-Identifier: GPL-2.0

//! Must not compile: a file on a value that is not `Sync`. Reads and writes of one file run
//! concurrently on different CPUs, all through `&T`.
//!
//! EXPECT: error\[E0277\]: `Cell<u32>` cannot be shared between threads safely

use core::cell::Cell;
use kernel::{
    debugfs::Dir,
    prelude::*,
    sync::atomic::Atomic, //
};

module! {
    type: Case,
    name: "not_sync",
    authors: ["Rust DebugFS developers"],
    description: "Must not compile: a file on a !Sync value",
    license: "GPL",
}

struct Case;

impl kernel::Module for Case {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let dir = Dir::new(c"compile_fail");
        #[cfg(not(allowed))]
        let file = dir.read_only_file(c"x", Cell::new(0u32));
        #[cfg(allowed)]
        let file = dir.read_only_file(c"x", Atomic::<u32>::new(0));
        core::mem::forget(KBox::pin_init(file, GFP_KERNEL)?);
        let _unused = Cell::new(0u8);
        Ok(Case)
    }
}
