// SPDX-License-Identifier: GPL-2.0

//! Sample of what `kernel::debugfs` offers beyond upstream: file modes, file sizes, C's text
//! formats, record files and symbolic links.
//!
//! ```text
//! rust_debugfs_extras/
//!   public/                 made through a handle with Mode::READ_ALL
//!     version   0444        read-only u32: 3
//!     level     0644        read-write Atomic<u32>: 1
//!     reset     0200        write-only Atomic<u32>: 0
//!   group/shared   0660     read-write Atomic<u32>: 0, for root and its group
//!   x8 x16 x32 x64          Hex<u8> .. Hex<u64>: 0x2a, 0x1234, 0xdeadbeef, 0x0123456789abcdef
//!   flag                    Atomic<YesNo>: Y
//!   lanes                   SpaceSeparated<[u32; 4]>: 0 1 4 5
//!   label                   Mutex<Str<CString>>: port0
//!   model    0444           Str<&CStr>: QEMU edu
//!   status                  callback: "state=0x0000002a ready=Y"
//!   log                     read-only binary, 4096 bytes, `stat` says 4096
//!   journal/                a Scope of 100000 records
//!     events                "event N: 3N", one line per record
//!     push                  write N: appends "event LEN: N"; read: the number of records
//!   latest -> x32           symbolic link
//!   board/                  a Scope: rev (0444, Hex<u32>), blob (sized), first -> rev
//! ```

use kernel::{
    debugfs::{
        Access,
        Dir,
        File,
        Hex,
        Mode,
        Scope,
        SpaceSeparated,
        Str,
        Symlink,
        Writer,
        YesNo, //
    },
    fmt, new_mutex,
    prelude::*,
    str::CString,
    sync::{
        atomic::Atomic,
        Mutex, //
    },
    uaccess::UserSliceReader,
};

module! {
    type: ExtrasModule,
    name: "rust_debugfs_extras",
    authors: ["Rust for Linux Contributors"],
    description: "Rust DebugFS beyond upstream: modes, sizes, formats, records, symlinks",
    license: "GPL",
}

/// How many records `events` starts with.
const EVENTS: u32 = 100_000;

/// One record of `events`.
struct Event {
    seq: u32,
    value: u32,
}

impl Writer for Event {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "event {}: {}", self.seq, self.value)
    }
}

/// The data of the `board/` scope.
struct Board {
    revision: Hex<u32>,
    blob: [u8; 64],
}

#[pin_data]
struct ExtrasModule {
    #[pin]
    version: File<u32>,
    #[pin]
    level: File<Atomic<u32>>,
    #[pin]
    reset: File<Atomic<u32>>,
    #[pin]
    shared: File<Atomic<u32>>,
    #[pin]
    x8: File<Mutex<Hex<u8>>>,
    #[pin]
    x16: File<Mutex<Hex<u16>>>,
    #[pin]
    x32: File<Atomic<Hex<u32>>>,
    #[pin]
    x64: File<Atomic<Hex<u64>>>,
    #[pin]
    flag: File<Atomic<YesNo>>,
    #[pin]
    lanes: File<SpaceSeparated<[u32; 4]>>,
    #[pin]
    label: File<Mutex<Str<CString>>>,
    #[pin]
    model: File<Str<&'static CStr>>,
    #[pin]
    status: File<(Hex<u32>, YesNo)>,
    #[pin]
    log: File<KVec<u8>>,
    #[pin]
    journal: Scope<Mutex<KVec<Event>>>,
    #[pin]
    board: Scope<Board>,
    _latest: Symlink,
}

/// `status`: the callback formats the pair with C's formats.
fn show_status(state: &(Hex<u32>, YesNo), f: &mut fmt::Formatter<'_>) -> fmt::Result {
    writeln!(f, "state={} ready={}", state.0, state.1)
}

/// `journal/push`: appends a record whose value is the number written.
fn push_event(events: &Mutex<KVec<Event>>, reader: &mut UserSliceReader) -> Result {
    let mut buf = [0u8; 16];
    let len = reader.len();
    let text = buf.get_mut(..len).ok_or(EINVAL)?;
    reader.read_slice(text)?;
    let text = core::str::from_utf8(text).map_err(|_| EINVAL)?;
    let value = text.trim_end_matches('\n').parse().map_err(|_| EINVAL)?;
    let mut events = events.lock();
    let seq = u32::try_from(events.len()).map_err(|_| ENOSPC)?;
    events.push(Event { seq, value }, GFP_KERNEL)?;
    Ok(())
}

/// `journal/push` when read: the number of records.
fn count_events(events: &Mutex<KVec<Event>>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    writeln!(f, "{}", events.lock().len())
}

/// `log`: 4096 bytes counting up, on the heap (a module's init runs on a small stack).
fn log() -> Result<KVec<u8>> {
    let mut log = KVec::with_capacity(4096, GFP_KERNEL)?;
    for i in 0..4096usize {
        log.push(i as u8, GFP_KERNEL)?;
    }
    Ok(log)
}

fn events() -> Result<KVec<Event>> {
    let mut events = KVec::with_capacity(EVENTS as usize, GFP_KERNEL)?;
    for seq in 0..EVENTS {
        events.push(
            Event {
                seq,
                value: 3 * seq,
            },
            GFP_KERNEL,
        )?;
    }
    Ok(events)
}

impl kernel::InPlaceModule for ExtrasModule {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        let dir = Dir::new(c"rust_debugfs_extras");
        let public = dir.subdir(c"public").with_mode(Mode::READ_ALL);
        let group = dir.with_mode(Mode::new(Access::OwnerAndGroup, Access::OwnerAndGroup));
        let group = group.subdir(c"group");
        let label = CString::try_from(c"port0");
        let log = log();
        let events = events();
        pin_init::pin_init_scope(move || {
            let label = label?;
            let log = log?;
            let events = events?;
            Ok(try_pin_init!(Self {
                version <- public.read_only_file(c"version", 3),
                level <- public.read_write_file(c"level", Atomic::new(1)),
                reset <- public.write_only_file(c"reset", Atomic::new(0)),
                shared <- group.read_write_file(c"shared", Atomic::new(0)),
                x8 <- dir.read_write_file(c"x8", new_mutex!(Hex(0x2a))),
                x16 <- dir.read_write_file(c"x16", new_mutex!(Hex(0x1234))),
                x32 <- dir.read_write_file(c"x32", Atomic::new(Hex(0xdead_beef))),
                x64 <- dir.read_write_file(c"x64", Atomic::new(Hex(0x0123_4567_89ab_cdef))),
                flag <- dir.read_write_file(c"flag", Atomic::new(YesNo(true))),
                lanes <- dir.read_only_file(c"lanes", SpaceSeparated([0, 1, 4, 5])),
                label <- dir.read_write_file(c"label", new_mutex!(Str(label))),
                model <- dir.with_mode(Mode::READ_ALL).read_only_file(c"model", Str(c"QEMU edu")),
                status <- dir.read_callback_file(c"status", (Hex(42), YesNo(true)), &show_status),
                log <- dir.read_binary_file_with_size(c"log", log, 4096),
                journal <- dir.scope(new_mutex!(events), c"journal", |events, dir| {
                    dir.records_file(c"events", events);
                    dir.read_write_callback_file(c"push", events, &count_events, &push_event);
                }),
                board <- dir.scope(
                    Board { revision: Hex(2), blob: [0xb0; 64] },
                    c"board",
                    |board, dir| {
                        dir.with_mode(Mode::READ_ALL).read_only_file(c"rev", &board.revision);
                        dir.read_binary_file_with_size(c"blob", &board.blob, board.blob.len());
                        dir.symlink(c"first", c"rev");
                    },
                ),
                _latest: dir.symlink(c"latest", c"x32"),
            }? Error))
        })
    }
}
