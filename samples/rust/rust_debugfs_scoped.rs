// SPDX-License-Identifier: GPL-2.0

//! Rust DebugFS sample: directories created and removed at run time with [`Scope`].
//!
//! A [`Scope`] owns one value and a whole directory of files showing parts of it. Here user space
//! asks for "devices" through two write-only callback files, and each device is a [`Scope`] under
//! `dynamic/`:
//!
//! ```text
//! # cd /sys/kernel/debug/rust_scoped_debugfs
//! # echo "eth0 10 20 30" > control/create
//! # ls dynamic/eth0
//! 0     1     2     blob
//! # cat dynamic/eth0/1
//! 20
//! # echo 25 > dynamic/eth0/1; cat dynamic/eth0/1
//! 25
//! # hexdump -C dynamic/eth0/blob
//! 00000000  0a 00 00 00 14 00 00 00  1e 00 00 00              |............|
//! # echo eth0 > control/create
//! sh: write error: File exists
//! # echo eth0 > control/remove
//! # ls dynamic
//! #
//! ```
//!
//! `blob` holds the numbers the device was created with, as little-endian `u32`s; the numbered
//! files hold their current values.

use core::str::FromStr;
use kernel::{
    debugfs::{
        Dir,
        Scope,
        ScopedDir, //
    },
    new_mutex,
    prelude::*,
    str::CString,
    sync::{
        atomic::Atomic,
        Mutex, //
    },
    uaccess::UserSliceReader, //
};

module! {
    type: RustScopedDebugFs,
    name: "rust_debugfs_scoped",
    authors: ["Rust DebugFS developers"],
    description: "Rust DebugFS sample: directories that come and go with their data",
    license: "GPL",
}

/// The longest command accepted by `control/create` and `control/remove`.
const COMMAND_MAX: usize = 256;

/// One device made through `control/create`: the data of one `dynamic/NAME/` directory.
#[pin_data]
struct Device {
    name: CString,
    numbers: KVec<Atomic<u32>>,
    #[pin]
    blob: Mutex<KVec<u8>>,
}

/// What the control files act on.
#[pin_data]
struct Registry {
    dynamic: Dir,
    #[pin]
    devices: Mutex<KVec<Pin<KBox<Scope<Device>>>>>,
}

#[pin_data]
struct RustScopedDebugFs {
    // Dropping the scope removes `control/` (waiting for running writes), then the registry and
    // with it every device directory.
    #[pin]
    _control: Scope<Registry>,
}

impl kernel::InPlaceModule for RustScopedDebugFs {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        let root = Dir::new(c"rust_scoped_debugfs");
        let dynamic = root.subdir(c"dynamic");
        let registry = try_pin_init!(Registry {
            dynamic,
            devices <- new_mutex!(KVec::new()),
        }? Error);
        // `root` only needs to live until `control/` is made in it: its children keep it.
        pin_init::pin_init_scope(move || {
            Ok(try_pin_init!(Self {
                _control <- root.scope(registry, c"control", |registry, dir| {
                    dir.write_only_callback_file(c"create", registry, &create_device);
                    dir.write_only_callback_file(c"remove", registry, &remove_device);
                }),
            }? Error))
        })
    }
}

/// Reads one command written to a control file.
fn read_command(reader: &mut UserSliceReader) -> Result<KVec<u8>> {
    if reader.len() > COMMAND_MAX {
        return Err(EINVAL);
    }
    let mut command = KVec::new();
    reader.clone_reader().read_all(&mut command, GFP_KERNEL)?;
    Ok(command)
}

/// `control/create`: "NAME N0 N1 ..." makes `dynamic/NAME/` with files `0`, `1`, ... and `blob`.
fn create_device(registry: &Registry, reader: &mut UserSliceReader) -> Result {
    let command = read_command(reader)?;
    let command = core::str::from_utf8(&command).map_err(|_| EINVAL)?;
    let name = name_of(command);
    if name.is_empty() {
        return Err(EINVAL);
    }
    if name.contains(['/', '\0']) {
        return Err(EINVAL);
    }

    let mut numbers = KVec::new();
    let mut blob = KVec::new();
    for word in command.split_whitespace().skip(1) {
        let number = u32::from_str(word).map_err(|_| EINVAL)?;
        numbers.push(Atomic::new(number), GFP_KERNEL)?;
        blob.extend_from_slice(&number.to_le_bytes(), GFP_KERNEL)?;
    }

    let mut devices = registry.devices.lock();
    if devices
        .iter()
        .any(|device| device.name.to_bytes() == name.as_bytes())
    {
        return Err(EEXIST);
    }
    // The scope's directory name is only borrowed while the scope is built, but the device keeps
    // its own copy to be found by `control/remove`.
    let dir_name = CString::try_from_fmt(fmt!("{name}"))?;
    let device = try_pin_init!(Device {
        name: CString::try_from_fmt(fmt!("{name}"))?,
        numbers,
        blob <- new_mutex!(blob),
    }? Error);
    let scope = KBox::pin_init(
        registry.dynamic.scope(device, &dir_name, populate_device),
        GFP_KERNEL,
    )?;
    devices.push(scope, GFP_KERNEL)?;
    Ok(())
}

/// Returns the first word of a command, which names the device.
fn name_of(command: &str) -> &str {
    command.split_whitespace().next().unwrap_or_default()
}

/// Fills `dynamic/NAME/`: one read-write file per number, and `blob`.
fn populate_device<'data>(device: &'data Device, dir: &ScopedDir<'data, '_>) {
    for (index, number) in device.numbers.iter().enumerate() {
        // DebugFS is best effort: a file whose name cannot be allocated is left out.
        if let Ok(name) = CString::try_from_fmt(fmt!("{index}")) {
            dir.read_write_file(&name, number);
        }
    }
    dir.read_write_binary_file(c"blob", &device.blob);
}

/// `control/remove`: "NAME" removes `dynamic/NAME/` and drops its data.
fn remove_device(registry: &Registry, reader: &mut UserSliceReader) -> Result {
    let command = read_command(reader)?;
    let command = core::str::from_utf8(&command).map_err(|_| EINVAL)?;
    let name = name_of(command);
    let mut devices = registry.devices.lock();
    let index = devices
        .iter()
        .position(|device| device.name.to_bytes() == name.as_bytes())
        .ok_or(ENOENT)?;
    let device = devices.remove(index)?;
    drop(devices);
    // Removes the directory, waiting for any running read or write of its files, then frees the
    // numbers and the blob. Files still open answer `EIO` from now on.
    drop(device);
    Ok(())
}
