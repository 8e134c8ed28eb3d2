// SPDX-License-Identifier: GPL-2.0

//! Must not compile: a `Scope` whose data borrows, so that its files show a value the scope
//! does not own. Leaking the scope and freeing the value would leave the file on freed memory.
//!
//! EXPECT: error\[E0597\]: `value` does not live long enough

use kernel::{
    debugfs::Dir,
    prelude::*,
    sync::atomic::Atomic, //
};

module! {
    type: Case,
    name: "scoped_borrowed_data",
    authors: ["Rust DebugFS developers"],
    description: "Must not compile: scoped files on borrowed data",
    license: "GPL",
}

struct Case;

impl kernel::Module for Case {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let dir = Dir::new(c"compile_fail");
        let value = KBox::new(Atomic::<u32>::new(5), GFP_KERNEL)?;
        #[cfg(not(allowed))]
        let scope = dir.scope(&*value, c"scope", |v, d| d.read_only_file(c"x", *v));
        #[cfg(allowed)]
        let scope = dir.scope(Atomic::<u32>::new(5), c"scope", |v, d| {
            d.read_only_file(c"x", v)
        });
        core::mem::forget(KBox::pin_init(scope, GFP_KERNEL)?);
        drop(value);
        Ok(Case)
    }
}
