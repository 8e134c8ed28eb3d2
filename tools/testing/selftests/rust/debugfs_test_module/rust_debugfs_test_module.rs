// SPDX-License-Identifier: GPL-2.0

//! Test module for `test_debugfs_hostile.sh`: one DebugFS file of every kind, and controls that
//! drop them while they are in use and create them in bulk under fault injection.
//!
//! It is a module, not KUnit tests, because what it tests is what happens to open files when
//! their data, or the whole module, goes away; KUnit tests cannot unload themselves. Like
//! `selftests/bpf/bpf_testmod`, it is built as an external module (`M=`).
//!
//! ```text
//! rust_debugfs_test_module/
//!   files/                 every kind of file; dropped and recreated through control/
//!     text_ro text_rw text_wo bool_rw i8_rw u8_rw mutex_rw
//!     level_rw                      a driver's own AtomicType enum, parsed with FromStr
//!     callback_ro callback_rw callback_wo
//!     slow_ro                       a read blocks until control/drop has begun
//!     ticket_ro ticket_long_ro      every rendering shows the next number
//!     empty_rw                      no text while its value is 0; "set N" sets it
//!     spinlocked_ro                 16 KiB rendered while holding a spinlock
//!     failing_short failing_long    the Writer fails after 1 or 200 bytes
//!     binary_ro binary_rw binary_wo
//!     records_ro                    3000 records; the 1500th is longer than a page
//!     scope/value scope/sub/blob
//!     scope/regs                    a register dump of four registers in memory
//!     scope/regs_unmap              any write: the registers are gone (regs then fails ENODEV)
//!   control/
//!     drop      any write: drops files/ and its data (open files then answer EIO)
//!     create    any write: creates files/ again
//!     churn     "N": N times, creates and drops churn/ with files and a scope in it
//!     status    the values of the write-only files, and counters
//! ```
//!
//! `slow_ro` makes "drop while a read is running" deterministic: its read announces itself in
//! `status` (`slow_readers`), waits until `control/drop` has begun (at most ten seconds, counted
//! in `slow_timeouts`), then sleeps a little longer, so that the drop reaches
//! `debugfs_remove()` while the read is still running, and only then reads its data. If removal
//! did not wait for the read, KASAN would report the read of freed data.
//!
//! ```text
//! ```

use core::{
    str::FromStr,
    sync::atomic::{
        AtomicI8,
        AtomicU8, //
    }, //
};
use kernel::{
    debugfs::{
        Dir,
        File,
        ReadRegister32,
        Records,
        Register32,
        RegisterDump,
        RegisterIo,
        Scope,
        ScopedDir, //
    },
    new_mutex,
    new_spinlock,
    prelude::*,
    str::kstrtobool,
    sync::{
        atomic::{
            Atomic,
            AtomicType,
            Relaxed, //
        },
        Mutex,
        SpinLock, //
    },
    time::{
        delay::fsleep,
        Delta, //
    },
    uaccess::UserSliceReader, //
};

module! {
    type: TestModule,
    name: "rust_debugfs_test_module",
    authors: ["Rust DebugFS developers"],
    description: "Files of every kind for the kernel::debugfs selftests",
    license: "GPL",
}

/// How long a read of `slow_ro` goes on after the drop has begun.
const SLOW_READ: Delta = Delta::from_millis(200);

/// How often a read of `slow_ro` looks whether the drop has begun.
const SLOW_WAIT_STEP: Delta = Delta::from_millis(10);

/// How many times it looks at most (ten seconds), so that a failed test cannot hang.
const SLOW_WAIT_STEPS: u32 = 1000;

/// Reads running inside `slow_ro`.
static SLOW_READERS: Atomic<u32> = Atomic::new(0);

/// Reads of `slow_ro` that gave up waiting for the drop.
static SLOW_TIMEOUTS: Atomic<u32> = Atomic::new(0);

/// Set when `control/drop` begins, cleared when `control/create` makes the files again.
static DROP_STARTED: Atomic<bool> = Atomic::new(false);

/// Lines of `ticket_long_ro`: enough to make its text longer than a read on the stack takes.
const TICKET_LINES: u64 = 32;

/// Size of the binary files.
const BLOB_LEN: usize = 16;

/// Lines of `spinlocked_ro`, 16 bytes each: 16 KiB of text, far more than fits on the stack.
const SPINLOCKED_LINES: u32 = 1024;

/// Records of `records_ro`.
const RECORDS: u32 = 3000;

/// The record of `records_ro` that is longer than a page, so that `seq_file` must stop, grow its
/// buffer and start again at that record.
const LONG_RECORD: u32 = 1500;

/// Bytes of padding in [`LONG_RECORD`].
const LONG_RECORD_PADDING: usize = 6000;

/// Cursors of `records_ro` made and not yet dropped, shown in `control/status`: 0 whenever no
/// read is running, or a cursor was leaked (or dropped twice, which shows as negative).
static LIVE_CURSORS: Atomic<i32> = Atomic::new(0);

/// `records_ro`: records of the driver's own whose cursor, an index, fits in a pointer and still
/// has a `Drop`, which counts it out of [`LIVE_CURSORS`].
struct Numbered;

/// Where a read of [`Numbered`] is.
struct NumberedCursor(u32);

impl NumberedCursor {
    fn new(index: u32) -> Self {
        LIVE_CURSORS.fetch_add(1, Relaxed);
        Self(index)
    }
}

impl Drop for NumberedCursor {
    fn drop(&mut self) {
        LIVE_CURSORS.fetch_sub(1, Relaxed);
    }
}

impl Records for Numbered {
    type Cursor<'a>
        = NumberedCursor
    where
        Self: 'a;

    fn start(&self, index: usize) -> Option<NumberedCursor> {
        let index = u32::try_from(index).ok().filter(|&i| i < RECORDS)?;
        Some(NumberedCursor::new(index))
    }

    fn next(&self, cursor: &mut NumberedCursor) -> bool {
        cursor.0 += 1;
        cursor.0 < RECORDS
    }

    fn show(
        &self,
        cursor: &NumberedCursor,
        f: &mut kernel::fmt::Formatter<'_>,
    ) -> kernel::fmt::Result {
        write!(f, "{:04}", cursor.0)?;
        if cursor.0 == LONG_RECORD {
            f.write_str(" ")?;
            for _ in 0..LONG_RECORD_PADDING {
                f.write_str("x")?;
            }
        }
        writeln!(f)
    }
}

/// `level_rw`: an atomic enum of the driver's own, shown with `Debug` and parsed with `FromStr`.
#[derive(Clone, Copy, Debug)]
#[repr(i32)]
enum Level {
    Off = 0,
    Low = 1,
    High = 2,
}

// SAFETY: `#[repr(i32)]` gives `Level` the size and alignment of `i32`, and every `Level` is an
// `i32` that converts back to the same `Level`.
unsafe impl AtomicType for Level {
    type Repr = i32;
}

impl FromStr for Level {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "off" => Ok(Level::Off),
            "low" => Ok(Level::Low),
            "high" => Ok(Level::High),
            _ => Err(EINVAL),
        }
    }
}

/// Registers in memory that can be made to go away, like a BAR whose device was unbound.
struct FakeRegisters {
    values: [u32; 4],
    mapped: Atomic<bool>,
}

impl ReadRegister32 for &FakeRegisters {
    fn read32(&self, offset: usize) -> Result<u32> {
        self.values.get(offset / 4).copied().ok_or(EINVAL)
    }
}

impl RegisterIo for FakeRegisters {
    type Mapped<'a> = &'a FakeRegisters;

    fn try_map(&self) -> Option<&FakeRegisters> {
        self.mapped.load(Relaxed).then_some(self)
    }
}

/// What `scope/regs` shows.
static FAKE_REGISTERS: [Register32; 4] = [
    Register32::new(c"ID", 0x0),
    Register32::new(c"CTRL", 0x4),
    Register32::new(c"STATUS", 0x8),
    Register32::new(c"COUNT", 0xc),
];

/// The data of `files/scope/`.
#[pin_data]
struct ScopeData {
    value: Atomic<u64>,
    regs: RegisterDump<FakeRegisters>,
    #[pin]
    blob: Mutex<[u8; BLOB_LEN]>,
}

/// Every kind of file, created and dropped together.
#[pin_data]
struct Files {
    #[pin]
    text_ro: File<Atomic<u64>>,
    #[pin]
    text_rw: File<Atomic<i32>>,
    #[pin]
    text_wo: File<Atomic<u64>>,
    #[pin]
    bool_rw: File<Atomic<bool>>,
    #[pin]
    i8_rw: File<AtomicI8>,
    #[pin]
    u8_rw: File<AtomicU8>,
    #[pin]
    mutex_rw: File<Mutex<i64>>,
    #[pin]
    level_rw: File<Atomic<Level>>,
    #[pin]
    callback_ro: File<Atomic<u32>>,
    #[pin]
    callback_rw: File<Atomic<u32>>,
    #[pin]
    callback_wo: File<Atomic<u32>>,
    #[pin]
    slow_ro: File<Atomic<u32>>,
    #[pin]
    ticket_ro: File<Atomic<u64>>,
    #[pin]
    ticket_long_ro: File<Atomic<u64>>,
    #[pin]
    empty_rw: File<Atomic<u32>>,
    #[pin]
    spinlocked_ro: File<SpinLock<u32>>,
    #[pin]
    failing_short: File<usize>,
    #[pin]
    failing_long: File<usize>,
    #[pin]
    binary_ro: File<[u8; BLOB_LEN]>,
    #[pin]
    binary_rw: File<Mutex<[u8; BLOB_LEN]>>,
    #[pin]
    binary_wo: File<Mutex<[u8; BLOB_LEN]>>,
    #[pin]
    records_ro: File<Numbered>,
    #[pin]
    scope: Scope<ScopeData>,
    _dir: Dir,
}

/// Reads one short write of UTF-8 text into `buf`; longer input is refused with `EINVAL`.
fn read_text<'a>(reader: &mut UserSliceReader, buf: &'a mut [u8]) -> Result<&'a str> {
    let len = reader.len();
    if len > buf.len() {
        return Err(EINVAL);
    }
    reader.read_slice(&mut buf[..len])?;
    core::str::from_utf8(&buf[..len]).map_err(|_| EINVAL)
}

/// `callback_rw` and `callback_wo` take "set N" (decimal) and nothing else.
fn write_set(value: &Atomic<u32>, reader: &mut UserSliceReader) -> Result {
    let mut buf = [0u8; 16];
    let text = read_text(reader, &mut buf)?;
    let text = text.strip_suffix('\n').unwrap_or(text);
    let number = text.strip_prefix("set ").ok_or(EINVAL)?;
    value.store(number.parse().map_err(|_| EINVAL)?, Relaxed);
    Ok(())
}

/// `slow_ro`: blocks until the drop has begun, see the module documentation.
fn show_slow(value: &Atomic<u32>, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
    SLOW_READERS.fetch_add(1, Relaxed);
    let mut waited = 0;
    while !DROP_STARTED.load(Relaxed) {
        if waited == SLOW_WAIT_STEPS {
            SLOW_TIMEOUTS.fetch_add(1, Relaxed);
            break;
        }
        fsleep(SLOW_WAIT_STEP);
        waited += 1;
    }
    fsleep(SLOW_READ);
    let shown = writeln!(f, "{}", value.load(Relaxed));
    SLOW_READERS.fetch_sub(1, Relaxed);
    shown
}

/// `ticket_ro`: each rendering takes a number, so a test can count renderings.
fn show_ticket(ticket: &Atomic<u64>, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
    writeln!(f, "{}", ticket.fetch_add(1, Relaxed))
}

/// `ticket_long_ro`: like `ticket_ro`, with the number on every line of a long text.
fn show_long_ticket(
    ticket: &Atomic<u64>,
    f: &mut kernel::fmt::Formatter<'_>,
) -> kernel::fmt::Result {
    let n = ticket.fetch_add(1, Relaxed);
    for line in 0..TICKET_LINES {
        writeln!(f, "ticket {n} line {line}")?;
    }
    Ok(())
}

/// `empty_rw`: no text at all while the value is 0.
fn show_unless_zero(
    value: &Atomic<u32>,
    f: &mut kernel::fmt::Formatter<'_>,
) -> kernel::fmt::Result {
    match value.load(Relaxed) {
        0 => Ok(()),
        n => writeln!(f, "{n}"),
    }
}

/// `spinlocked_ro`: a long text rendered in atomic context, where allocating would be a bug
/// that `CONFIG_DEBUG_ATOMIC_SLEEP` reports.
fn show_spinlocked(
    value: &SpinLock<u32>,
    f: &mut kernel::fmt::Formatter<'_>,
) -> kernel::fmt::Result {
    let value = value.lock();
    for line in 0..SPINLOCKED_LINES {
        writeln!(f, "{line:04} {:010}", *value)?;
    }
    Ok(())
}

/// `failing_*`: writes `len` bytes, then fails, as a `Writer` whose value cannot be shown.
fn show_failing(len: &usize, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
    for _ in 0..*len {
        f.write_str("x")?;
    }
    Err(kernel::fmt::Error)
}

fn populate_scope<'data>(data: &'data ScopeData, dir: &ScopedDir<'data, '_>) {
    dir.read_write_file(c"value", &data.value);
    dir.dir(c"sub").read_write_binary_file(c"blob", &data.blob);
    dir.registers_file(c"regs", &data.regs);
    dir.write_only_callback_file(c"regs_unmap", &data.regs, &|regs: &RegisterDump<_>, _| {
        regs.io().mapped.store(false, Relaxed);
        Ok(())
    });
}

impl Files {
    fn new(parent: &Dir) -> impl PinInit<Self, Error> + '_ {
        let dir = parent.subdir(c"files");
        let mut counting = [0u8; BLOB_LEN];
        for (i, byte) in counting.iter_mut().enumerate() {
            *byte = i as u8;
        }
        try_pin_init!(Self {
            text_ro <- dir.read_only_file(c"text_ro", Atomic::new(42)),
            text_rw <- dir.read_write_file(c"text_rw", Atomic::new(-7)),
            text_wo <- dir.write_only_file(c"text_wo", Atomic::new(0)),
            bool_rw <- dir.read_write_file(c"bool_rw", Atomic::new(false)),
            i8_rw <- dir.read_write_file(c"i8_rw", AtomicI8::new(0)),
            u8_rw <- dir.read_write_file(c"u8_rw", AtomicU8::new(0)),
            mutex_rw <- dir.read_write_file(c"mutex_rw", new_mutex!(0i64)),
            level_rw <- dir.read_write_file(c"level_rw", Atomic::new(Level::Low)),
            callback_ro <- dir.read_callback_file(c"callback_ro", Atomic::new(7), &|v, f| {
                writeln!(f, "value: {}", v.load(Relaxed))
            }),
            callback_rw <- dir.read_write_callback_file(
                c"callback_rw",
                Atomic::new(0),
                &|v, f| writeln!(f, "cb={}", v.load(Relaxed)),
                &write_set,
            ),
            callback_wo <- dir.write_callback_file(c"callback_wo", Atomic::new(0), &write_set),
            slow_ro <- dir.read_callback_file(c"slow_ro", Atomic::new(1), &show_slow),
            ticket_ro <- dir.read_callback_file(c"ticket_ro", Atomic::new(100), &show_ticket),
            ticket_long_ro <- dir.read_callback_file(
                c"ticket_long_ro",
                Atomic::new(100),
                &show_long_ticket,
            ),
            empty_rw <- dir.read_write_callback_file(
                c"empty_rw",
                Atomic::new(0),
                &show_unless_zero,
                &write_set,
            ),
            spinlocked_ro <- dir.read_callback_file(
                c"spinlocked_ro",
                new_spinlock!(7),
                &show_spinlocked,
            ),
            failing_short <- dir.read_callback_file(c"failing_short", 1, &show_failing),
            failing_long <- dir.read_callback_file(c"failing_long", 200, &show_failing),
            binary_ro <- dir.read_binary_file(c"binary_ro", counting),
            binary_rw <- dir.read_write_binary_file(c"binary_rw", new_mutex!([0; BLOB_LEN])),
            binary_wo <- dir.write_binary_file(c"binary_wo", new_mutex!([0; BLOB_LEN])),
            records_ro <- dir.records_file(c"records_ro", Numbered),
            scope <- dir.scope(
                try_pin_init!(ScopeData {
                    value: Atomic::new(5),
                    regs: RegisterDump::new(
                        &FAKE_REGISTERS,
                        FakeRegisters {
                            values: [0x010000ed, 0x1, 0x8000_0000, 42],
                            mapped: Atomic::new(true),
                        },
                    ),
                    blob <- new_mutex!([0xee; BLOB_LEN]),
                }? Error),
                c"scope",
                populate_scope,
            ),
            _dir: dir,
        }? Error)
    }
}

/// What the control files act on.
#[pin_data]
struct Control {
    root: Dir,
    #[pin]
    files: Mutex<Option<Pin<KBox<Files>>>>,
    churned: Atomic<u64>,
    churn_failures: Atomic<u64>,
}

impl Control {
    fn create(&self) -> Result {
        let mut files = self.files.lock();
        if files.is_none() {
            *files = Some(KBox::pin_init(Files::new(&self.root), GFP_KERNEL)?);
            DROP_STARTED.store(false, Relaxed);
        }
        Ok(())
    }

    fn drop_files(&self) {
        DROP_STARTED.store(true, Relaxed);
        let files = self.files.lock().take();
        // Removes files/ (waiting for running reads and writes), then frees the data.
        drop(files);
    }

    /// Creates and drops a directory with files and a scope in it.
    ///
    /// Under fault injection any step may fail; nothing must then appear anywhere else, and
    /// everything that was created must be gone afterwards.
    fn churn_once(&self, n: u64) -> Result {
        let dir = self.root.subdir(c"churn");
        let value = KBox::pin_init(
            dir.read_write_file(c"churn_value", Atomic::new(n)),
            GFP_KERNEL,
        )?;
        let scope = KBox::pin_init(
            dir.scope((n, n.to_le_bytes()), c"churn_scope", |(n, bytes), sub| {
                sub.read_only_file(c"churn_value", n);
                sub.dir(c"churn_sub").read_binary_file(c"churn_blob", bytes);
            }),
            GFP_KERNEL,
        )?;
        drop(scope);
        drop(value);
        Ok(())
    }
}

/// `control/status`: what cannot be read back from the write-only files.
fn show_status(control: &Control, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
    let files = control.files.lock();
    match files.as_ref() {
        Some(files) => {
            writeln!(f, "files: present")?;
            writeln!(f, "text_wo: {}", files.text_wo.load(Relaxed))?;
            writeln!(f, "callback_wo: {}", files.callback_wo.load(Relaxed))?;
            write!(f, "binary_wo:")?;
            for byte in files.binary_wo.lock().iter() {
                write!(f, " {byte:02x}")?;
            }
            writeln!(f)?;
        }
        None => writeln!(f, "files: absent")?,
    }
    writeln!(f, "slow_readers: {}", SLOW_READERS.load(Relaxed))?;
    writeln!(f, "slow_timeouts: {}", SLOW_TIMEOUTS.load(Relaxed))?;
    writeln!(f, "live_cursors: {}", LIVE_CURSORS.load(Relaxed))?;
    writeln!(f, "churned: {}", control.churned.load(Relaxed))?;
    writeln!(
        f,
        "churn_failures: {}",
        control.churn_failures.load(Relaxed)
    )
}

/// The upper bound of one `control/churn` write, so that a typo cannot hang the writer.
const CHURN_MAX: u64 = 100_000;

fn write_churn(control: &Control, reader: &mut UserSliceReader) -> Result {
    let mut buf = [0u8; 16];
    let count: u64 = read_text(reader, &mut buf)?
        .trim()
        .parse()
        .map_err(|_| EINVAL)?;
    if count > CHURN_MAX {
        return Err(EINVAL);
    }
    for n in 0..count {
        if control.churn_once(n).is_err() {
            control.churn_failures.fetch_add(1, Relaxed);
        }
        control.churned.fetch_add(1, Relaxed);
    }
    Ok(())
}

/// Accepts "1"/"y"/... like `kstrtobool`, so that the control files take what `echo 1` writes.
fn confirmed(reader: &mut UserSliceReader) -> Result {
    let mut buf = [0u8; 8];
    let len = reader.len().min(buf.len() - 1);
    reader.read_slice(&mut buf[..len])?;
    let text = kernel::str::CStr::from_bytes_until_nul(&buf).map_err(|_| EINVAL)?;
    if kstrtobool(text)? {
        Ok(())
    } else {
        Err(EINVAL)
    }
}

#[pin_data]
struct TestModule {
    #[pin]
    _control: Scope<Control>,
}

impl kernel::InPlaceModule for TestModule {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        let root = Dir::new(c"rust_debugfs_test_module");
        let files_parent = root.clone();
        let control = try_pin_init!(Control {
            root: files_parent,
            files <- new_mutex!(None),
            churned: Atomic::new(0),
            churn_failures: Atomic::new(0),
        }? Error);
        pin_init::pin_init_scope(move || {
            let this = try_pin_init!(Self {
                _control <- root.scope(control, c"control", |control, dir| {
                    dir.write_only_callback_file(c"drop", control, &|c: &Control, r| {
                        confirmed(r)?;
                        c.drop_files();
                        Ok(())
                    });
                    dir.write_only_callback_file(c"create", control, &|c: &Control, r| {
                        confirmed(r)?;
                        c.create()
                    });
                    dir.write_only_callback_file(c"churn", control, &write_churn);
                    dir.read_callback_file(c"status", control, &show_status);
                }),
            }? Error);
            Ok(this.pin_chain(|this| this._control.create()))
        })
    }
}
