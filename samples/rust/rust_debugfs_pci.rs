// SPDX-License-Identifier: GPL-2.0

//! Sample of a DebugFS register dump over a PCI BAR, bound to QEMU's `pci-testdev`.
//!
//! Run QEMU with `-device pci-testdev`. On probe the driver selects test 0 of the device and
//! performs the write that test counts, then creates `rust_debugfs_pci/regs`, which shows the
//! first four registers of BAR 0 as C's `debugfs_create_regset32()` would:
//!
//! ```text
//! TEST = 0x...
//! OFFSET = 0x...
//! DATA = 0x...
//! COUNT = 0x00000001
//! ```
//!
//! The file reads the BAR through a [`DevresBar`], whose mapping is revoked when the device is
//! unbound: a read that races with unbinding either completes on the mapped BAR or fails, and
//! never touches an unmapped one.

use kernel::{
    debugfs::{
        Dir,
        File,
        Register32,
        RegisterDump, //
    },
    device::Core,
    io::Io,
    pci::{
        self,
        DevresBar, //
    },
    prelude::*,
};

/// The part of BAR 0 known at compile time: the header of `pci-testdev`'s tests.
const HEADER_SIZE: usize = 0x10;

/// The registers `regs` shows.
static REGISTERS: [Register32; 4] = [
    Register32::new(c"TEST", 0x0),
    Register32::new(c"OFFSET", 0x4),
    Register32::new(c"DATA", 0x8),
    Register32::new(c"COUNT", 0xc),
];

#[pin_data]
struct DebugfsPciData {
    #[pin]
    regs: File<RegisterDump<DevresBar<HEADER_SIZE>>>,
    _dir: Dir,
}

struct DebugfsPciDriver;

kernel::pci_device_table!(
    PCI_TABLE,
    <DebugfsPciDriver as pci::Driver>::IdInfo,
    [(pci::DeviceId::from_id(pci::Vendor::REDHAT, 0x5), ())]
);

impl pci::Driver for DebugfsPciDriver {
    type IdInfo = ();
    type Data<'bound> = DebugfsPciData;

    const ID_TABLE: pci::IdTable<Self::IdInfo> = &PCI_TABLE;

    fn probe<'bound>(
        pdev: &'bound pci::Device<Core<'_>>,
        _info: Option<&'bound Self::IdInfo>,
    ) -> impl PinInit<Self::Data<'bound>, Error> + 'bound {
        pin_init::pin_init_scope(move || {
            pdev.enable_device_mem()?;
            let bar = pdev.iomap_region_sized::<HEADER_SIZE>(0, c"rust_debugfs_pci")?;
            // Select test 0, then write its data at its offset, which the device counts.
            bar.try_write8(0, 0x0)?;
            let offset = bar.try_read32(0x4)? as usize;
            let data = bar.try_read8(0x8)?;
            // Past the header, but in the BAR, which is mapped whole: checked at run time.
            bar.try_write8(data, offset)?;
            let dir = Dir::new(c"rust_debugfs_pci");
            let dump = RegisterDump::new(&REGISTERS, bar.into_devres()?);
            Ok(try_pin_init!(DebugfsPciData {
                regs <- dir.registers_file(c"regs", dump),
                _dir: dir,
            }? Error))
        })
    }
}

kernel::module_pci_driver! {
    type: DebugfsPciDriver,
    name: "rust_debugfs_pci",
    authors: ["Rust for Linux Contributors"],
    description: "Rust DebugFS register dump over a PCI BAR",
    license: "GPL v2",
}
