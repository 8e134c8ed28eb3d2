// SPDX-License-Identifier: GPL-2.0

//! Must not compile: the `ScopedDir` of one scope used, inside another scope's init closure, to
//! create a file on the inner scope's data, which the outer scope's files would outlive.
//!
//! EXPECT: error\[E0521\]: borrowed data escapes outside of closure

use kernel::{
    debugfs::Dir,
    prelude::*,
    sync::atomic::Atomic, //
};

module! {
    type: Case,
    name: "scoped_dir_across_scopes",
    authors: ["Rust DebugFS developers"],
    description: "Must not compile: a ScopedDir used in another scope's init",
    license: "GPL",
}

struct Case;

impl kernel::Module for Case {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let dir = Dir::new(c"compile_fail");
        let outer = dir.scope(Atomic::<u32>::new(5), c"outer", |_, outer_dir| {
            let inner = dir.scope(Atomic::<u32>::new(6), c"inner", |v, inner_dir| {
                #[cfg(not(allowed))]
                outer_dir.read_only_file(c"x", v);
                #[cfg(allowed)]
                inner_dir.read_only_file(c"x", v);
            });
            core::mem::forget(KBox::pin_init(inner, GFP_KERNEL));
        });
        core::mem::forget(KBox::pin_init(outer, GFP_KERNEL)?);
        Ok(Case)
    }
}
