// SPDX-License-Identifier: GPL-2.0

//! Rust DebugFS sample: a platform driver that shows its state under `/sys/kernel/debug`.
//!
//! Each file owns the value it shows ([`File`]); the driver keeps the handles and uses the values
//! through them. Unbinding the driver drops the handles, which removes the files, then the
//! directory. The driver binds to an ACPI device with `_HID "LNUXBEEF"` whose `_DSD` has the
//! property `"compatible" = "sample-debugfs"`, or to a devicetree node with that `compatible`
//! (on a machine without ACPI, such as arm64's QEMU `virt`): either way, the file `compatible`
//! shows the same string.
//!
//! After probe:
//!
//! ```text
//! # ls -l /sys/kernel/debug/sample_debugfs
//! -rw-------    1 root     root             0 array_blob
//! -r--------    1 root     root             0 compatible
//! -rw-------    1 root     root             0 counter
//! -rw-------    1 root     root             0 pair
//! -rw-------    1 root     root             0 vector_blob
//! # cd /sys/kernel/debug/sample_debugfs
//! # cat compatible
//! "sample-debugfs"
//! # cat counter
//! 91
//! # echo 0x10 > counter; cat counter
//! 16
//! # cat pair
//! 10 42
//! # echo "3 4" > pair; cat pair
//! 3 4
//! # echo "3" > pair
//! sh: write error: Invalid argument
//! # hexdump -C array_blob
//! 00000000  01 02 03 04                                       |....|
//! # printf '\xff' | dd of=array_blob bs=1 seek=2 conv=notrunc
//! # hexdump -C array_blob
//! 00000000  01 02 ff 04                                       |....|
//! # wc -c vector_blob
//! 4096 vector_blob
//! ```

use core::str::FromStr;
use kernel::{
    acpi,
    debugfs::{
        Dir,
        File, //
    },
    device::Core,
    fmt,
    new_mutex,
    of,
    platform,
    prelude::*,
    str::CString,
    sync::{
        atomic::Atomic,
        Mutex, //
    }, //
};

kernel::acpi_device_table!(
    ACPI_TABLE,
    <RustDebugFs as platform::Driver>::IdInfo,
    [(acpi::DeviceId::new(c"LNUXBEEF"), ())]
);

kernel::of_device_table!(
    OF_TABLE,
    <RustDebugFs as platform::Driver>::IdInfo,
    [(of::DeviceId::new(c"sample-debugfs"), ())]
);

/// Two numbers, read and written as `"x y"`.
struct Pair {
    x: u32,
    y: u32,
}

// DebugFS renders values with `Debug`; writing it by hand makes `cat` print the same format that
// `echo` takes.
impl fmt::Debug for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.x, self.y)
    }
}

impl FromStr for Pair {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let mut numbers = s.split_whitespace().map(u32::from_str);
        match (numbers.next(), numbers.next(), numbers.next()) {
            (Some(Ok(x)), Some(Ok(y)), None) => Ok(Pair { x, y }),
            _ => Err(EINVAL),
        }
    }
}

/// Size of `vector_blob`: one page, as a C driver would expose a firmware log.
const VECTOR_BLOB_LEN: usize = 4096;

#[pin_data]
struct RustDebugFs {
    // The handles are held for their `Drop`: they remove the files. Each file keeps the directory
    // alive, so the order of the fields does not matter.
    _dir: Dir,
    #[pin]
    _compatible: File<CString>,
    #[pin]
    _counter: File<Atomic<usize>>,
    #[pin]
    _pair: File<Mutex<Pair>>,
    #[pin]
    _array_blob: File<Mutex<[u8; 4]>>,
    #[pin]
    _vector_blob: File<Mutex<KVec<u8>>>,
}

impl platform::Driver for RustDebugFs {
    type IdInfo = ();
    type Data<'bound> = Self;
    const OF_ID_TABLE: Option<of::IdTable<Self::IdInfo>> = Some(&OF_TABLE);
    const ACPI_ID_TABLE: Option<acpi::IdTable<Self::IdInfo>> = Some(&ACPI_TABLE);

    fn probe<'bound>(
        pdev: &'bound platform::Device<Core<'_>>,
        _info: Option<&'bound Self::IdInfo>,
    ) -> impl PinInit<Self, Error> + 'bound {
        pin_init::pin_init_scope(move || {
            let dev = pdev.as_ref();
            let compatible = dev
                .fwnode()
                .ok_or(ENOENT)?
                .property_read::<CString>(c"compatible")
                .required_by(dev)?;
            let vector = KVec::from_elem(0x42u8, VECTOR_BLOB_LEN, GFP_KERNEL)?;
            let dir = Dir::new(c"sample_debugfs");

            Ok(try_pin_init!(Self {
                // `cat compatible` shows the firmware property, quoted by `Debug`.
                _compatible <- dir.read_only_file(c"compatible", compatible),
                // Integers parse like C's `debugfs_create_*` files: `echo 0x10 > counter` works.
                _counter <- dir.read_write_file(c"counter", Atomic::new(91)),
                // Any `FromStr` type behind a `Mutex` can be written; `Pair` wants "x y".
                _pair <- dir.read_write_file(c"pair", new_mutex!(Pair { x: 10, y: 42 })),
                // Binary files copy raw bytes at the file offset, like C blobs.
                _array_blob <- dir.read_write_binary_file(c"array_blob", new_mutex!([1, 2, 3, 4])),
                _vector_blob <- dir.read_write_binary_file(c"vector_blob", new_mutex!(vector)),
                _dir: dir,
            }? Error))
        })
    }
}

kernel::module_platform_driver! {
    type: RustDebugFs,
    name: "rust_debugfs",
    authors: ["Rust DebugFS developers"],
    description: "Rust DebugFS sample: a platform driver's state in DebugFS",
    license: "GPL",
}
