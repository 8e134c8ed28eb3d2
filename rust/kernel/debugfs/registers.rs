// SPDX-License-Identifier: GPL-2.0

//! Register dumps: C's `debugfs_create_regset32()` over [`kernel::io`](crate::io).

use super::{
    file_ops::{
        FileOps,
        Rendered,
        TEXT, //
    },
    formats::Hex,
    text_read,
    Dir,
    File,
    ScopedDir, //
};
use crate::{
    bindings,
    fmt,
    fs::file::Offset,
    prelude::*, //
};
#[cfg(CONFIG_PCI)]
use crate::{
    devres::DevresGuard,
    io::Io,
    pci::{
        Bar,
        DevresBar, //
    }, //
};

/// One 32-bit register of a [`RegisterDump`]: its name and its offset in bytes, as C's
/// `struct debugfs_reg32`.
#[derive(Clone, Copy, Debug)]
pub struct Register32 {
    name: &'static CStr,
    offset: usize,
}

impl Register32 {
    /// Names the register at `offset` bytes into the region; the name must be UTF-8 (a read of a
    /// dump with a name that is not fails with `EINVAL`).
    pub const fn new(name: &'static CStr, offset: usize) -> Self {
        Self { name, offset }
    }
}

/// Registers that can be read while they are mapped.
pub trait ReadRegister32 {
    /// Reads the 32-bit register `offset` bytes into the region, or fails (with `EINVAL`, say) if
    /// that is outside it.
    fn read32(&self, offset: usize) -> Result<u32>;
}

/// An I/O region whose registers a [`RegisterDump`] shows, and which may go away (a PCI BAR is
/// unmapped when its driver unbinds).
pub trait RegisterIo: Sync {
    /// Access to the registers, held while a dump reads them.
    type Mapped<'a>: ReadRegister32
    where
        Self: 'a;

    /// Returns access to the registers, or `None` once they are gone, for good.
    ///
    /// The access is held while all registers of one rendering are read and is dropped before
    /// anything is allocated or copied to user space, so it may be an RCU read-side section.
    fn try_map(&self) -> Option<Self::Mapped<'_>>;
}

/// A BAR of a bound PCI device: mapped until the device is unbound.
#[cfg(CONFIG_PCI)]
impl<const SIZE: usize> RegisterIo for DevresBar<SIZE> {
    type Mapped<'a> = DevresGuard<'a, Bar<'static, SIZE>>;

    fn try_map(&self) -> Option<Self::Mapped<'_>> {
        self.try_access()
    }
}

#[cfg(CONFIG_PCI)]
impl<const SIZE: usize> ReadRegister32 for DevresGuard<'_, Bar<'static, SIZE>> {
    fn read32(&self, offset: usize) -> Result<u32> {
        (&**self).try_read32(offset)
    }
}

/// A table of 32-bit registers and the region they are in, shown as C's
/// `debugfs_create_regset32()` shows it: one `name = 0x0000002a` line per register.
///
/// Create its file with [`Dir::registers_file`]. Each read reads every register of the table, in
/// order, with one [`RegisterIo::try_map`]. A read fails with `ENODEV` once the region is gone
/// (rather than reading a stale mapping) and with `EINVAL` if an offset is outside it. As in C, the
/// registers may be read more than once per `read(2)`: do not list registers with read effects.
///
/// # Examples
///
/// A region in ordinary memory, standing in for a device:
///
/// ```
/// use kernel::debugfs::{Dir, ReadRegister32, Register32, RegisterDump, RegisterIo};
/// use kernel::prelude::*;
///
/// struct Fake([u32; 2]);
///
/// impl ReadRegister32 for &Fake {
///     fn read32(&self, offset: usize) -> Result<u32> {
///         self.0.get(offset / 4).copied().ok_or(EINVAL)
///     }
/// }
///
/// impl RegisterIo for Fake {
///     type Mapped<'a> = &'a Fake;
///
///     fn try_map(&self) -> Option<&Fake> {
///         Some(self)
///     }
/// }
///
/// static REGISTERS: [Register32; 2] = [Register32::new(c"ID", 0), Register32::new(c"STATUS", 4)];
///
/// let dir = Dir::new(c"example_registers");
/// // `cat .../regs` prints "ID = 0x010000ed\nSTATUS = 0x00000001\n".
/// let regs = dir.registers_file(c"regs", RegisterDump::new(&REGISTERS, Fake([0x010000ed, 1])));
/// let regs = KBox::pin_init(regs, GFP_KERNEL)?;
/// assert_eq!(regs.io().0[0], 0x010000ed);
/// # Ok::<(), Error>(())
/// ```
pub struct RegisterDump<R> {
    registers: &'static [Register32],
    io: R,
}

impl<R: RegisterIo> RegisterDump<R> {
    /// Shows `registers` of `io`.
    pub const fn new(registers: &'static [Register32], io: R) -> Self {
        Self { registers, io }
    }

    /// The region the registers are in.
    pub fn io(&self) -> &R {
        &self.io
    }

    /// Renders the text of the file: each register on a line of its own.
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mapped = self.io.try_map().ok_or(fmt::Error)?;
        for register in self.registers {
            let value = mapped.read32(register.offset).map_err(|_| fmt::Error)?;
            let name = register.name.to_str().map_err(|_| fmt::Error)?;
            writeln!(f, "{name} = {}", Hex(value))?;
        }
        Ok(())
    }
}

impl<R: RegisterIo> FileOps<RegisterDump<R>> {
    /// Read-only register dump.
    pub(crate) const REGISTERS: Self = {
        let operations = bindings::file_operations {
            read: Some(read_registers::<R>),
            ..TEXT
        };
        // SAFETY: `read_registers::<R>` is sound on a file whose `i_private` points at a live
        // `RegisterDump<R>` (its `# Safety`), from several readers at once since the dump is
        // `Sync`; `TEXT`'s `default_llseek` only moves the offset and
        // `text_read::release` only frees the read state of `read_registers`' `text_read::read`.
        unsafe { Self::new(operations) }
    };
}

/// `read` of register dumps: a text file that fails with `ENODEV` once the registers are gone.
///
/// [`text_read`] fails a `read(2)` whose rendering fails with `EINVAL`; asking again afterwards
/// whether the registers are gone gives the rendering's answer, as gone is for good.
///
/// # Safety
///
/// Called by the VFS through the full DebugFS proxy with a valid `file` whose `i_private` points
/// at a live `RegisterDump<R>` and whose `release` is [`text_read::release`], a user buffer `buf`
/// of `count` bytes, and a valid `ppos` that nothing else uses during the call.
unsafe extern "C" fn read_registers<R: RegisterIo>(
    file: *mut bindings::file,
    buf: *mut c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: `file` is valid and its inode's `i_private` points at a `RegisterDump<R>` that the
    // proxy's active reference keeps alive for the call (`# Safety` above); it is only ever
    // shared, and it is `Sync`.
    let dump = unsafe { &*(*(*file).f_inode).i_private.cast::<RegisterDump<R>>() };
    let text = Rendered::new(|f| dump.render(f));
    // SAFETY: The file is a readable text file whose `release` is `text_read::release`, only
    // `text_read` uses its `private_data` (no other callback of `REGISTERS` does), and `buf`,
    // `count` and `ppos` are as the VFS passed them.
    let read = unsafe { text_read::read(file, format_args!("{text}"), buf, count, ppos) };
    if read == EINVAL.to_errno() as isize && dump.io.try_map().is_none() {
        ENODEV.to_errno() as isize
    } else {
        read
    }
}

impl Dir {
    /// Creates a read-only file showing a [`RegisterDump`], like C's `debugfs_create_regset32()`.
    pub fn registers_file<'a, R: RegisterIo + Send + 'static, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<RegisterDump<R>, E> + 'a,
    ) -> impl PinInit<File<RegisterDump<R>>, E> + 'a {
        self.create_file(name, data, &FileOps::<RegisterDump<R>>::REGISTERS, 0)
    }
}

impl<'data> ScopedDir<'data, '_> {
    /// Creates a read-only register dump, see [`Dir::registers_file`].
    pub fn registers_file<R>(&self, name: &CStr, data: &'data RegisterDump<R>)
    where
        R: RegisterIo + Send + 'static,
    {
        self.create_file(name, data, &FileOps::<RegisterDump<R>>::REGISTERS, 0)
    }
}
