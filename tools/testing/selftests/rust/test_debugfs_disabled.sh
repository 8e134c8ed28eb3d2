#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# With DebugFS disabled at boot (debugfs=off), drivers using kernel::debugfs
# must still load, work and unload: the API degrades to no-ops. Skipped when
# DebugFS is available.

DIR="$(dirname "$(readlink -f "$0")")"
KTAP_HELPERS="${DIR}/../kselftest/ktap_helpers.sh"
if [ -e "$KTAP_HELPERS" ]; then
	. "$KTAP_HELPERS"
else
	echo "$KTAP_HELPERS file not found [SKIP]"
	exit 4
fi
. "$DIR/debugfs_helpers.sh"

ktap_print_header
if ! grep -q 'debugfs=off' /proc/cmdline; then
	ktap_skip_all "DebugFS is not disabled at boot (boot with debugfs=off)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 14

TMP=$(mktemp -d)
trap 'umount "$TMP/mnt" 2>/dev/null; rm -rf "$TMP"' EXIT

# Disabled at boot, DebugFS does not even register its file system: a mount
# on any directory gives ENODEV, whatever else could refuse it.
mkdir "$TMP/mnt"
err=$(mount -t debugfs none "$TMP/mnt" 2>&1)
check "DebugFS cannot be mounted" "$(errno_of "${err##*: }")" ENODEV

# ktap_test_result expands its command unquoted, so compound checks are
# spelt out.
for m in rust_debugfs rust_debugfs_scoped rust_debugfs_extras rust_debugfs_pci \
	rust_debugfs_test_module; do
	if have_module "$m"; then
		ktap_test_result "$m loads" load "$m"
	else
		ktap_test_skip "$m loads: $m.ko not found"
	fi
done
# The platform sample's probe must still succeed, and so must the PCI
# sample's if there is a pci-testdev.
ktap_test_result "rust_debugfs bound to its device" \
	test -e /sys/bus/platform/drivers/rust_debugfs/LNUXBEEF:00
if grep -qx 0x0005 /sys/bus/pci/devices/*/device 2>/dev/null; then
	check "rust_debugfs_pci bound to its device" \
		"$(ls /sys/bus/pci/drivers/rust_debugfs_pci | grep -q : && echo yes)" yes
else
	ktap_test_skip "rust_debugfs_pci bound to its device: no pci-testdev"
fi
for m in rust_debugfs rust_debugfs_scoped rust_debugfs_extras rust_debugfs_pci \
	rust_debugfs_test_module; do
	if [ -d "/sys/module/$m" ]; then
		ktap_test_result "$m unloads" rmmod "$m"
	else
		ktap_test_skip "$m unloads: not loaded"
	fi
done
if dmesg | grep -iE 'rust_debugfs.*(error|fail)'; then
	ktap_test_fail "no error from the modules in the kernel log"
else
	ktap_test_pass "no error from the modules in the kernel log"
fi
ktap_finished
