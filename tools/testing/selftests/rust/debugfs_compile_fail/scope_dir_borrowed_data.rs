// SPDX-License-Identifier: GPL-2.0

//! Must not compile: `Scope::dir` (a scope at the DebugFS root) on borrowed data.
//!
//! EXPECT: error\[E0597\]: `value` does not live long enough

use kernel::{
    debugfs::Scope,
    prelude::*,
    sync::atomic::Atomic, //
};

module! {
    type: Case,
    name: "scope_dir_borrowed_data",
    authors: ["Rust DebugFS developers"],
    description: "Must not compile: a root scope on borrowed data",
    license: "GPL",
}

struct Case;

impl kernel::Module for Case {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let value = KBox::new(Atomic::<u32>::new(5), GFP_KERNEL)?;
        #[cfg(not(allowed))]
        let scope = Scope::dir(&*value, c"compile_fail", |v, d| d.read_only_file(c"x", *v));
        #[cfg(allowed)]
        let scope = Scope::dir(Atomic::<u32>::new(5), c"compile_fail", |v, d| {
            d.read_only_file(c"x", v)
        });
        core::mem::forget(KBox::pin_init(scope, GFP_KERNEL)?);
        drop(value);
        Ok(Case)
    }
}
