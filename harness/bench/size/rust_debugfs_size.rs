// SPDX-License-Identifier: GPL-2.0

//! Code-size probe of `make bench`: built four times, the differences in `.text` and `.rodata`
//! are what one more file type (`--cfg extra_type`), one more callback (`--cfg extra_callback`)
//! and one more binary file type (`--cfg extra_binary`) cost a module. It uses only the API that
//! upstream's `kernel::debugfs` shares with ours, so that it builds against both.

use kernel::{
    debugfs::{
        Dir,
        File, //
    },
    prelude::*,
    sync::atomic::Atomic, //
};

module! {
    type: Size,
    name: "rust_debugfs_size",
    authors: ["Rust DebugFS developers"],
    description: "kernel::debugfs code-size probe",
    license: "GPL",
}

#[pin_data]
struct Size {
    #[pin]
    _base: File<Atomic<u64>>,
    #[cfg(extra_type)]
    #[pin]
    _extra_type: File<Atomic<u32>>,
    #[cfg(extra_callback)]
    #[pin]
    _extra_callback: File<Atomic<u64>>,
    #[cfg(extra_binary)]
    #[pin]
    _extra_binary: File<[u8; 16]>,
    _dir: Dir,
}

impl kernel::InPlaceModule for Size {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        let dir = Dir::new(c"debugfs_size_rust");
        try_pin_init!(Self {
            _base <- dir.read_write_file(c"base", Atomic::new(0)),
            #[cfg(extra_type)]
            _extra_type <- dir.read_write_file(c"extra_type", Atomic::new(0)),
            #[cfg(extra_callback)]
            _extra_callback <- dir.read_callback_file(c"extra_callback", Atomic::new(0), &|v, f| {
                writeln!(f, "{}", v.load(kernel::sync::atomic::Relaxed))
            }),
            #[cfg(extra_binary)]
            _extra_binary <- dir.read_binary_file(c"extra_binary", [0u8; 16]),
            _dir: dir,
        }? Error)
    }
}
