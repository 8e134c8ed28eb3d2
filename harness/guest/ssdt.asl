/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device samples/rust/rust_debugfs.rs binds to: _HID "LNUXBEEF" with a
 * device property "compatible" (ACPI _DSD, device-properties UUID). QEMU
 * gets it with -acpitable. No _CRS: the sample needs no resources, and a
 * memory range would collide with QEMU's own devices.
 */
DefinitionBlock ("", "SSDT", 2, "RUSTDF", "DEBUGFS", 0x00000001)
{
    Scope (\_SB)
    {
        Device (RDFS)
        {
            Name (_HID, "LNUXBEEF")
            Name (_UID, Zero)
            Name (_DSD, Package ()
            {
                ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
                Package ()
                {
                    Package () { "compatible", "sample-debugfs" },
                }
            })
        }
    }
}
