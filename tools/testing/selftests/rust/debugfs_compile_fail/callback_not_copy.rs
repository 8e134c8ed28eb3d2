// SPDX-License-Identifier: GPL-2.0

//! Must not compile: a zero-sized callback that is not `Copy`. It captures a zero-sized token
//! that cannot be copied, so conjuring another value of it would forge the token.
//!
//! EXPECT: error\[E0277\]: the trait bound `Token: (core::marker::)?Copy` is not satisfied

use kernel::{
    debugfs::Dir,
    fmt,
    prelude::*, //
};

module! {
    type: Case,
    name: "callback_not_copy",
    authors: ["Rust DebugFS developers"],
    description: "Must not compile: a callback that is not Copy",
    license: "GPL",
}

/// A zero-sized proof of something, which must not be duplicated.
struct Token;

struct Case;

impl kernel::Module for Case {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let dir = Dir::new(c"compile_fail");
        let token = Token;
        #[cfg(not(allowed))]
        let show = move |value: &u32, f: &mut fmt::Formatter<'_>| {
            let _proof = &token;
            writeln!(f, "{value}")
        };
        #[cfg(allowed)]
        let show = |value: &u32, f: &mut fmt::Formatter<'_>| writeln!(f, "{value}");
        #[cfg(allowed)]
        drop(token);
        let show: &'static _ = KBox::leak(KBox::new(show, GFP_KERNEL)?);
        let file = dir.read_callback_file(c"x", 1u32, show);
        core::mem::forget(KBox::pin_init(file, GFP_KERNEL)?);
        Ok(Case)
    }
}
