#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script of `make run`: a transcript of DebugFS in use, between
# markers the host prints live.
echo DEMO-BEGIN

say() {
	echo
	echo "== $*"
}

# run CMD: show the command as typed at a root prompt, then its output.
run() {
	echo "# $*"
	sh -c "$*" 2>&1
}

say "KUnit ran while booting; the Rust doctests of kernel::debugfs among them:"
dmesg | sed 's/^\[[^]]*\] *//' | grep -E '^# Totals|ok [0-9]+ rust_doctest_kernel_debugfs' |
	sed 's/^ *//'

say "DebugFS:"
run "mount | grep debugfs"
run "ls /sys/kernel/debug"

say "rust_debugfs: a platform driver bound to ACPI device LNUXBEEF"
run "modprobe rust_debugfs"
cd /sys/kernel/debug/sample_debugfs || exit 1
run "pwd; ls -l"
run "cat compatible"
run "cat counter"
run "echo 0x10 > counter; cat counter"
run "echo 12abc > counter"
run "cat pair"
run "echo '3 4' > pair; cat pair"
run "echo 3 > pair"
run "hexdump -C array_blob"
run "printf '\\377' | dd of=array_blob bs=1 seek=2 conv=notrunc 2>/dev/null; hexdump -C array_blob"
run "hexdump -C vector_blob"
cd / || exit 1
run "rmmod rust_debugfs; ls /sys/kernel/debug"

say "rust_debugfs_scoped: directories that come and go with their data"
run "modprobe rust_debugfs_scoped"
cd /sys/kernel/debug/rust_scoped_debugfs || exit 1
run "ls -l control"
run "echo 'eth0 10 20 30' > control/create"
run "echo 'wlan0 7' > control/create"
run "ls dynamic dynamic/eth0"
run "cat dynamic/eth0/0 dynamic/eth0/1 dynamic/eth0/2"
run "echo 25 > dynamic/eth0/1; cat dynamic/eth0/1"
run "hexdump -C dynamic/eth0/blob"
run "echo eth0 > control/create"
run "echo eth0 > control/remove; ls dynamic"
cd / || exit 1
run "rmmod rust_debugfs_scoped; ls /sys/kernel/debug"
echo DEMO-END
