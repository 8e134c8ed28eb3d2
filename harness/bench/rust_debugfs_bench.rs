// SPDX-License-Identifier: GPL-2.0

//! The Rust side of `make bench`: `kernel::debugfs` files mirroring `c_debugfs_bench.ko`.
//!
//! ```text
//! debugfs_bench_rust/
//!   u64        read_write_file(Atomic<u64>)         vs debugfs_create_u64()
//!   callback   read_callback_file(Atomic<u64>)      vs DEFINE_SHOW_ATTRIBUTE()
//!   blob4k     read_binary_file([u8; 4096])         vs debugfs_create_blob()
//!   blob1m     read_binary_file(KVVec<u8>, 1 MiB)   vs debugfs_create_blob()
//!   x64        read_write_file(Atomic<Hex<u64>>)    vs debugfs_create_x64()
//!   records    records_file(KVec<Record>), 100000   vs a seq_file over the same records
//!   records_by_hand  the same text, each record rendered by hand: what `writeln!` costs
//!   regs       registers_file(4 registers)          vs debugfs_create_regset32()
//!   bench/control  "hold KIND N" (text, binary, callback, scoped), "release", "churn N",
//!                  "churn-shared N"
//!   bench/result   nanoseconds of the last churn: N files created in one Scope, then dropped
//! ```
//!
//! With `--cfg upstream_debugfs` the module uses only the API that upstream's `kernel::debugfs`
//! shares with ours, so that `make bench` can build it against the pristine base tree as well:
//! `x64`, `records` and `regs` are then left out.

use kernel::{
    debugfs::{
        Dir,
        File,
        Scope, //
    },
    new_mutex,
    prelude::*,
    str::CString,
    sync::{
        atomic::{
            Atomic,
            Relaxed, //
        },
        Mutex, //
    },
    time::Instant,
    uaccess::UserSliceReader, //
};

module! {
    type: Bench,
    name: "rust_debugfs_bench",
    authors: ["Rust DebugFS developers"],
    description: "kernel::debugfs files to compare with C DebugFS",
    license: "GPL",
}

/// The files only our `kernel::debugfs` can make, and what they show.
#[cfg(not(upstream_debugfs))]
mod extras {
    pub(crate) use kernel::debugfs::{
        Hex,
        RegisterDump, //
    };
    use kernel::{
        debugfs::{
            ReadRegister32,
            Register32,
            RegisterIo,
            Writer, //
        },
        prelude::*,
    };

    /// Records of `records`, as many as the C side's.
    const RECORDS: u32 = 100_000;

    /// One record of `records`, shown as the C side shows its own.
    pub(crate) struct Record {
        seq: u32,
        value: u32,
    }

    impl Writer for Record {
        fn write(&self, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
            writeln!(f, "event {}: {}", self.seq, self.value)
        }
    }

    /// A [`Record`] whose line is put together by hand and written with one `write_str`.
    ///
    /// The "slurp_records_by_hand" row reads these: the same text as `records`, through the same
    /// record file, without `core::fmt` formatting two integers per record. The difference
    /// between the two rows is what the driver's `writeln!` costs, not the file.
    pub(crate) struct RecordByHand(Record);

    impl Writer for RecordByHand {
        fn write(&self, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
            let mut line = [0u8; BY_HAND_LINE];
            let mut len = 0;
            let parts = [
                Part::Text(b"event "),
                Part::Number(self.0.seq),
                Part::Text(b": "),
                Part::Number(self.0.value),
                Part::Text(b"\n"),
            ];
            for part in parts {
                len = part.put(&mut line, len);
            }
            f.write_str(core::str::from_utf8(&line[..len]).map_err(|_| kernel::fmt::Error)?)
        }
    }

    /// The longest line of a [`RecordByHand`]: "event ", two `u32`s of at most 10 digits, ": "
    /// and a newline.
    const BY_HAND_LINE: usize = 6 + 10 + 2 + 10 + 1;

    /// A piece of a [`RecordByHand`] line.
    enum Part {
        Text(&'static [u8]),
        Number(u32),
    }

    impl Part {
        /// Writes the piece at `line[at..]`; returns where it ends.
        fn put(self, line: &mut [u8; BY_HAND_LINE], at: usize) -> usize {
            match self {
                Part::Text(text) => {
                    line[at..at + text.len()].copy_from_slice(text);
                    at + text.len()
                }
                Part::Number(mut value) => {
                    // CAST: The logarithm of a `u32` is at most 9.
                    let digits = value.checked_ilog10().map_or(1, |log| log as usize + 1);
                    for slot in line[at..at + digits].iter_mut().rev() {
                        // CAST: A decimal digit fits in a `u8`.
                        *slot = b'0' + (value % 10) as u8;
                        value /= 10;
                    }
                    at + digits
                }
            }
        }
    }

    /// The records of `records`, made by `wrap`.
    pub(crate) fn records<T>(wrap: impl Fn(Record) -> T) -> Result<KVec<T>> {
        let mut records = KVec::with_capacity(RECORDS as usize, GFP_KERNEL)?;
        for seq in 0..RECORDS {
            let record = Record {
                seq,
                value: 3 * seq,
            };
            records.push(wrap(record), GFP_KERNEL)?;
        }
        Ok(records)
    }

    pub(crate) fn records_by_hand() -> Result<KVec<RecordByHand>> {
        records(RecordByHand)
    }

    /// Registers in memory, like the C side's regset over a `kmalloc` buffer.
    pub(crate) struct MemoryRegisters(pub(crate) [u32; 4]);

    impl ReadRegister32 for &MemoryRegisters {
        fn read32(&self, offset: usize) -> Result<u32> {
            self.0.get(offset / 4).copied().ok_or(EINVAL)
        }
    }

    impl RegisterIo for MemoryRegisters {
        type Mapped<'a> = &'a MemoryRegisters;

        fn try_map(&self) -> Option<&MemoryRegisters> {
            Some(self)
        }
    }

    pub(crate) static REGISTERS: [Register32; 4] = [
        Register32::new(c"ID", 0x0),
        Register32::new(c"CTRL", 0x4),
        Register32::new(c"STATUS", 0x8),
        Register32::new(c"COUNT", 0xc),
    ];
}

#[cfg(not(upstream_debugfs))]
use extras::*;

const BLOB_SMALL: usize = 4096;
const BLOB_LARGE: usize = 1 << 20;

/// A scope of counters, each in its own file.
type Counters = Pin<KBox<Scope<KVec<Atomic<u64>>>>>;

/// Files held by "hold" share a pinned allocation per `CHUNK` of them, the way a driver embeds
/// its files in its own data; a box per file would count the benchmark's allocation as the API's.
const CHUNK: usize = 10;

/// `File`s kept around by "hold", in chunks; only their `Drop` matters.
type Chunks<T> = KVec<Pin<KBox<[File<T>; CHUNK]>>>;

/// Files kept around by "hold", to count what they cost.
enum Held {
    Files { _files: Chunks<Atomic<u64>> },
    Binary { _files: Chunks<[u8; 8]> },
    Scoped { _scope: Counters },
}

#[pin_data]
struct Control {
    root: Dir,
    #[pin]
    held: Mutex<Option<(Dir, Held)>>,
    last_ns: Atomic<u64>,
}

fn show_value(v: &Atomic<u64>, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
    writeln!(f, "{}", v.load(Relaxed))
}

fn name(i: usize) -> Result<CString> {
    CString::try_from_fmt(fmt!("{i}"))
}

/// Room for the longest `usize` in decimal and its NUL.
const DECIMAL_NAME: usize = 21;

/// `i` in decimal, NUL-terminated, in `buf`: the churn rows time DebugFS, so their names are
/// made on the stack, as `snprintf()` makes the C module's, not allocated and formatted.
fn decimal_name(mut i: usize, buf: &mut [u8; DECIMAL_NAME]) -> &CStr {
    let mut start = DECIMAL_NAME - 1;
    buf[start] = 0;
    loop {
        start -= 1;
        // CAST: A decimal digit fits in a `u8`.
        buf[start] = b'0' + (i % 10) as u8;
        i /= 10;
        if i == 0 {
            break;
        }
    }
    // The digits are not NUL and the last byte is: this cannot fail.
    CStr::from_bytes_with_nul(&buf[start..]).unwrap_or(c"0")
}

/// A scope holding `n` counters, each shown in its own file.
fn scope_of(dir: &Dir, dir_name: &CStr, n: usize) -> Result<Counters> {
    let mut values = KVec::with_capacity(n, GFP_KERNEL)?;
    for _ in 0..n {
        values.push(Atomic::new(42), GFP_KERNEL)?;
    }
    let scope = dir.scope(values, dir_name, |values, sub| {
        let mut buf = [0u8; DECIMAL_NAME];
        for (i, value) in values.iter().enumerate() {
            sub.read_write_file(decimal_name(i, &mut buf), value);
        }
    });
    KBox::pin_init(scope, GFP_KERNEL)
}

/// Creates `names.len()` files (a multiple of [`CHUNK`]) with `make`, in chunks.
fn chunks<'a, T: 'a, I>(
    dir: &'a Dir,
    names: &'a [CString],
    make: impl Fn(&'a Dir, &'a CStr) -> I,
) -> Result<Chunks<T>>
where
    I: PinInit<File<T>>,
{
    if names.len() % CHUNK != 0 {
        return Err(EINVAL);
    }
    let mut chunks = KVec::with_capacity(names.len() / CHUNK, GFP_KERNEL)?;
    for chunk in names.chunks(CHUNK) {
        let files = pin_init::pin_init_array_from_fn(|i| make(dir, &chunk[i]));
        chunks.push(KBox::pin_init(files, GFP_KERNEL)?, GFP_KERNEL)?;
    }
    Ok(chunks)
}

impl Control {
    fn hold(&self, kind: &str, n: usize) -> Result {
        *self.held.lock() = None;
        let dir = self.root.subdir(c"held");
        // Freed before "hold" returns, so they do not count.
        let mut names = KVec::with_capacity(n, GFP_KERNEL)?;
        for i in 0..n {
            names.push(name(i)?, GFP_KERNEL)?;
        }
        let held = match kind {
            "text" => Held::Files {
                _files: chunks(&dir, &names, |dir, name| {
                    dir.read_write_file(name, Atomic::new(42))
                })?,
            },
            "callback" => Held::Files {
                _files: chunks(&dir, &names, |dir, name| {
                    dir.read_callback_file(name, Atomic::new(42), &show_value)
                })?,
            },
            "binary" => Held::Binary {
                _files: chunks(&dir, &names, |dir, name| {
                    dir.read_binary_file(name, [0u8; 8])
                })?,
            },
            "scoped" => Held::Scoped {
                _scope: scope_of(&self.root, c"held_scope", n)?,
            },
            _ => return Err(EINVAL),
        };
        *self.held.lock() = Some((dir, held));
        Ok(())
    }

    fn churn(&self, n: usize) -> Result {
        let start = Instant::<kernel::time::Monotonic>::now();
        let scope = scope_of(&self.root, c"churn", n)?;
        drop(scope);
        let elapsed = start.elapsed().as_nanos();
        self.last_ns
            .store(u64::try_from(elapsed).unwrap_or(0), Relaxed);
        Ok(())
    }
}

/// The one counter behind every file of "churn-shared", as the C module's files share one `u64`.
static SHARED: Atomic<u64> = Atomic::new(42);

impl Control {
    /// "churn" as the C module does it: the files share one static counter, and the scope, which
    /// owns nothing, lives on the stack. Without this, "churn" also times allocating the
    /// counters and the scope.
    fn churn_shared(&self, n: usize) -> Result {
        let start = Instant::<kernel::time::Monotonic>::now();
        {
            pin_init::stack_pin_init!(let _scope = self.root.scope((), c"churn", |(), sub| {
                let mut buf = [0u8; DECIMAL_NAME];
                for i in 0..n {
                    sub.read_write_file(decimal_name(i, &mut buf), &SHARED);
                }
            }));
        }
        let elapsed = start.elapsed().as_nanos();
        self.last_ns
            .store(u64::try_from(elapsed).unwrap_or(0), Relaxed);
        Ok(())
    }
}

fn control_write(control: &Control, reader: &mut UserSliceReader) -> Result {
    let mut buf = [0u8; 32];
    let len = reader.len();
    if len > buf.len() {
        return Err(EINVAL);
    }
    reader.read_slice(&mut buf[..len])?;
    let text = core::str::from_utf8(&buf[..len]).map_err(|_| EINVAL)?;
    let mut words = text.split_whitespace();
    let count = |word: Option<&str>| word.and_then(|w| w.parse::<usize>().ok()).ok_or(EINVAL);
    match words.next() {
        Some("hold") => {
            let kind = words.next().ok_or(EINVAL)?;
            control.hold(kind, count(words.next())?)
        }
        Some("release") => {
            *control.held.lock() = None;
            Ok(())
        }
        Some("churn") => control.churn(count(words.next())?),
        Some("churn-shared") => control.churn_shared(count(words.next())?),
        _ => Err(EINVAL),
    }
}

#[pin_data]
struct Bench {
    #[pin]
    _u64: File<Atomic<u64>>,
    #[pin]
    _callback: File<Atomic<u64>>,
    #[pin]
    _blob4k: File<[u8; BLOB_SMALL]>,
    #[pin]
    _blob1m: File<KVVec<u8>>,
    #[cfg(not(upstream_debugfs))]
    #[pin]
    _x64: File<Atomic<Hex<u64>>>,
    #[cfg(not(upstream_debugfs))]
    #[pin]
    _records: File<KVec<Record>>,
    #[cfg(not(upstream_debugfs))]
    #[pin]
    _records_by_hand: File<KVec<RecordByHand>>,
    #[cfg(not(upstream_debugfs))]
    #[pin]
    _regs: File<RegisterDump<MemoryRegisters>>,
    #[pin]
    _control: Scope<Control>,
    _root: Dir,
}

impl kernel::InPlaceModule for Bench {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        pin_init::pin_init_scope(move || {
            let root = Dir::new(c"debugfs_bench_rust");
            let large = KVVec::from_elem(0u8, BLOB_LARGE, GFP_KERNEL)?;
            #[cfg(not(upstream_debugfs))]
            let regs = MemoryRegisters([0x010000ed, 1, 0x8000_0000, 42]);
            let control_root = root.clone();
            let control = try_pin_init!(Control {
                root: control_root,
                held <- new_mutex!(None),
                last_ns: Atomic::new(0),
            }? Error);
            Ok(try_pin_init!(Self {
                _u64 <- root.read_write_file(c"u64", Atomic::new(42)),
                _callback <- root.read_callback_file(c"callback", Atomic::new(42), &show_value),
                _blob4k <- root.read_binary_file(c"blob4k", [0u8; BLOB_SMALL]),
                _blob1m <- root.read_binary_file(c"blob1m", large),
                #[cfg(not(upstream_debugfs))]
                _x64 <- root.read_write_file(c"x64", Atomic::new(Hex(42))),
                #[cfg(not(upstream_debugfs))]
                _records <- root.records_file(c"records", records(|record| record)?),
                #[cfg(not(upstream_debugfs))]
                _records_by_hand <- root.records_file(c"records_by_hand", records_by_hand()?),
                #[cfg(not(upstream_debugfs))]
                _regs <- root.registers_file(c"regs", RegisterDump::new(&REGISTERS, regs)),
                _control <- root.scope(control, c"bench", |control, dir| {
                    dir.write_only_callback_file(c"control", control, &control_write);
                    dir.read_callback_file(c"result", control, &|c: &Control, f| {
                        writeln!(f, "{}", c.last_ns.load(Relaxed))
                    });
                }),
                _root: root,
            }? Error))
        })
    }
}
