// SPDX-License-Identifier: GPL-2.0

//! Must not compile: a callback that is not zero-sized. A function pointer is `'static`, `Copy`
//! and callable, but it has a value that the file would have to store.
//!
//! EXPECT: DebugFS callbacks must be zero-sized

use kernel::{
    debugfs::Dir,
    fmt,
    prelude::*, //
};

module! {
    type: Case,
    name: "callback_not_zero_sized",
    authors: ["Rust DebugFS developers"],
    description: "Must not compile: a callback with a size",
    license: "GPL",
}

fn show(value: &u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    writeln!(f, "{value}")
}

#[cfg(not(allowed))]
static SHOW: fn(&u32, &mut fmt::Formatter<'_>) -> fmt::Result = show;

struct Case;

impl kernel::Module for Case {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let dir = Dir::new(c"compile_fail");
        #[cfg(not(allowed))]
        let file = dir.read_callback_file(c"x", 1u32, &SHOW);
        #[cfg(allowed)]
        let file = dir.read_callback_file(c"x", 1u32, &show);
        core::mem::forget(KBox::pin_init(file, GFP_KERNEL)?);
        Ok(Case)
    }
}
