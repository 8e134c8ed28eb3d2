// SPDX-License-Identifier: GPL-2.0

//! Must not compile: a record cursor aligned to 64 bytes. It does not fit in the `seq_file`'s
//! `private` pointer, and the allocation that would hold it instead is aligned to
//! `ARCH_KMALLOC_MINALIGN` only (8 bytes on x86-64).
//!
//! EXPECT: a Records cursor must fit in a pointer, or be sized and aligned for kmalloc

use kernel::{
    debugfs::{
        Dir,
        Records, //
    },
    fmt,
    prelude::*, //
};

module! {
    type: Case,
    name: "record_cursor_overaligned",
    authors: ["Rust DebugFS developers"],
    description: "Must not compile: a record cursor aligned to 64 bytes",
    license: "GPL",
}

/// Where a read is: an index.
#[cfg_attr(not(allowed), repr(align(64)))]
struct Cursor(usize);

/// One record, "only".
struct Only;

impl Records for Only {
    type Cursor<'a>
        = Cursor
    where
        Self: 'a;

    fn start(&self, index: usize) -> Option<Cursor> {
        (index == 0).then_some(Cursor(index))
    }

    fn next(&self, _cursor: &mut Cursor) -> bool {
        false
    }

    fn show(&self, _cursor: &Cursor, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "only")
    }
}

struct Case;

impl kernel::Module for Case {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let dir = Dir::new(c"compile_fail");
        let file = dir.records_file(c"x", Only);
        core::mem::forget(KBox::pin_init(file, GFP_KERNEL)?);
        Ok(Case)
    }
}
