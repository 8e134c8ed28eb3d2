// SPDX-License-Identifier: GPL-2.0

//! Must not compile: a `ScopedDir` handle with another mode kept past the init closure. It aliases
//! the scope's directory without owning it, and would let files be created after the scope's data
//! could be gone.
//!
//! EXPECT: error\[E0521\]: borrowed data escapes outside of closure

use kernel::{
    debugfs::{
        Dir,
        Mode,
        ScopedDir, //
    },
    prelude::*,
    sync::atomic::Atomic, //
};

module! {
    type: Case,
    name: "scoped_with_mode_escapes",
    authors: ["Rust DebugFS developers"],
    description: "Must not compile: a ScopedDir with a mode escaping its closure",
    license: "GPL",
}

struct Case;

impl kernel::Module for Case {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let dir = Dir::new(c"compile_fail");
        let mut kept: Option<ScopedDir<'_, '_>> = None;
        let scope = dir.scope(Atomic::<u32>::new(5), c"scope", |v, d| {
            d.with_mode(Mode::READ_ALL).read_only_file(c"x", v);
            #[cfg(not(allowed))]
            {
                kept = Some(d.with_mode(Mode::READ_ALL));
            }
        });
        core::mem::forget(KBox::pin_init(scope, GFP_KERNEL)?);
        if let Some(d) = kept {
            d.read_only_file(c"late", &7u32);
        }
        Ok(Case)
    }
}
