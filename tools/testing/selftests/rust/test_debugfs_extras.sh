#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What kernel::debugfs offers beyond the original series, from user space:
#
#   modes        files made through a handle with a mode keep the bits their
#                operations implement (0444, 0644, 0200, 0660)
#   sizes        stat reports the size given at creation
#   formats      C's hex, Y/N, space-separated and string files: contents,
#                valid writes in every syntax C takes, malformed writes
#   records      100000 records through seq_file: cat, short reads, lseek,
#                records added between reads
#   registers    a register dump of QEMU's pci-testdev, compared with the BAR
#                mapped from user space; reads racing with unbind; a dump
#                whose registers went away fails with ENODEV
#   symlinks     targets as given, removed with their owner
#
# Needs root, DebugFS mounted, rust_debugfs_extras.ko and rust_debugfs_pci.ko
# in /lib/modules (modprobe), and what kselftest installs next to this
# script: debugfs_io and debugfs_test_module/rust_debugfs_test_module.ko.
# Without a pci-testdev, the register cases of the PCI sample are skipped.

DIR="$(dirname "$(readlink -f "$0")")"
KTAP_HELPERS="${DIR}/../kselftest/ktap_helpers.sh"
if [ -e "$KTAP_HELPERS" ]; then
	. "$KTAP_HELPERS"
else
	echo "$KTAP_HELPERS file not found [SKIP]"
	exit 4
fi
. "$DIR/debugfs_helpers.sh"

DEBUGFS=/sys/kernel/debug
IO=$DIR/debugfs_io
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# good_write FILE DESCRIPTION FORMAT EXPECTED: a write that must succeed and
# make the file read EXPECTED.
good_write() {
	check "$2: accepted" "$(write_at "$1" 0 "$3")" OK
	check "$2: reads back" "$(cat "$1")" "$4"
}

run_modes() {
	check "public/version: mode 0444" "$(mode_of "$d/public/version")" "-r--r--r--"
	check "public/level: mode 0644" "$(mode_of "$d/public/level")" "-rw-r--r--"
	check "public/reset: mode 0200" "$(mode_of "$d/public/reset")" "--w-------"
	check "group/shared: mode 0660" "$(mode_of "$d/group/shared")" "-rw-rw----"
	check "model: mode 0444" "$(mode_of "$d/model")" "-r--r--r--"
	check "x8: default mode 0600" "$(mode_of "$d/x8")" "-rw-------"
	check "board/rev: scoped mode 0444" "$(mode_of "$d/board/rev")" "-r--r--r--"
	check "board/blob: default mode 0400" "$(mode_of "$d/board/blob")" "-r--------"
	check "journal/events: mode 0400" "$(mode_of "$d/journal/events")" "-r--------"
	check "public/version: content" "$(cat "$d/public/version")" 3
	good_write "$d/public/level" "public/level" '0x10' 16
}

run_sizes() {
	check "log: stat size" "$(stat -c %s "$d/log")" 4096
	check "log: bytes read" "$(wc -c <"$d/log")" 4096
	check "log: content" "$(hex "$d/log" 252 8)" fcfdfeff00010203
	check "board/blob: stat size" "$(stat -c %s "$d/board/blob")" 64
	check "x8: text files keep size 0" "$(stat -c %s "$d/x8")" 0
}

run_hex() {
	check "x8: bytes" "$(hex "$d/x8")" 307832610a
	check "x16: content" "$(cat "$d/x16")" 0x1234
	check "x32: content" "$(cat "$d/x32")" 0xdeadbeef
	check "x64: content" "$(cat "$d/x64")" 0x0123456789abcdef
	check "status: a callback in C formats" "$(cat "$d/status")" "state=0x0000002a ready=Y"
	good_write "$d/x8" "x8: decimal" '7' 0x07
	good_write "$d/x8" "x8: hex" '0xff' 0xff
	good_write "$d/x8" "x8: octal" '010\n' 0x08
	good_write "$d/x16" "x16: decimal" '65535' 0xffff
	good_write "$d/x32" "x32: hex" '0xcafe' 0x0000cafe
	good_write "$d/x64" "x64: largest" '0xffffffffffffffff' 0xffffffffffffffff
	bad_write "$d/x8" "x8: just too large" ERANGE '256'
	bad_write "$d/x16" "x16: just too large" ERANGE '0x10000'
	bad_write "$d/x32" "x32: just too large" ERANGE '4294967296'
	for f in x8 x16 x32 x64; do
		bad_unsigned_writes "$d/$f" "$f"
	done
}

run_yes_no() {
	check "flag: bytes" "$(hex "$d/flag")" 590a
	good_write "$d/flag" "flag: n" 'n' N
	good_write "$d/flag" "flag: 1" '1' Y
	good_write "$d/flag" "flag: off" 'off\n' N
	good_write "$d/flag" "flag: on" 'on' Y
	good_write "$d/flag" "flag: No" 'No' N
	good_write "$d/flag" "flag: yes" 'yes\n' Y
	bad_write "$d/flag" "flag: empty line" EINVAL '\n'
	bad_write "$d/flag" "flag: x" EINVAL 'x'
	bad_write "$d/flag" "flag: 2" EINVAL '2'
	bad_write "$d/flag" "flag: o alone" EINVAL 'o'
	bad_write "$d/flag" "flag: -1" EINVAL '-1'
	bad_write "$d/flag" "flag: leading space" EINVAL ' y'
	bad_write "$d/flag" "flag: too long" EINVAL "$LONG_NUMBER"
	bad_write "$d/flag" "flag: non-UTF-8" EINVAL '\377'
	bad_write "$d/flag" "flag: embedded NUL" EINVAL 'y\000'
	bad_write -at 1 "$d/flag" "flag: write at offset 1" EINVAL 'n'
}

run_space_separated() {
	check "lanes: bytes" "$(hex "$d/lanes")" 302031203420350a
	check "lanes: write refused" "$(write_at "$d/lanes" 0 '1 2 3 4')" EINVAL
	check "lanes: unchanged" "$(cat "$d/lanes")" "0 1 4 5"
}

run_str() {
	f=$d/label
	check "label: bytes" "$(hex "$f")" 706f7274300a
	check "model: content" "$(cat "$d/model")" "QEMU edu"
	good_write "$f" "label: plain" 'uplink' uplink
	good_write "$f" "label: trailing white space trimmed" ' \t lan 1 \t\r\n' \
		"$(printf ' \t lan 1')"
	check "label: 0xa0 is white space too" "$(write_at "$f" 0 'x\240\240')" OK
	check "label: 0xa0 trimmed" "$(cat "$f")" x
	check "label: non-UTF-8 accepted" "$(write_at "$f" 0 'a\377b')" OK
	check "label: non-UTF-8 shown escaped" "$(cat "$f")" 'a\xffb'
	good_write "$f" "label: only a newline" '\n' ''
	good_write "$f" "label: longest" "$(repeat 4095 s)" "$(repeat 4095 s)"
	good_write "$f" "label: back" 'port0' port0
	bad_write "$f" "label: NUL first" EINVAL '\000abc'
	bad_write "$f" "label: NUL inside" EINVAL 'ab\000c'
	bad_write "$f" "label: NUL last" EINVAL 'abc\000'
	bad_write "$f" "label: one page" E2BIG "$(repeat 4096 p)"
	bad_write "$f" "label: more than a page" E2BIG "$(repeat 5000 p)"
	bad_write "$f" "label: 64 KiB" E2BIG "$(repeat 64 "$(repeat 1024 k)")"
	bad_write -at 5 "$f" "label: append at its end" EINVAL 'x'
	bad_write -at 1 "$f" "label: write at offset 1" EINVAL 'x'
	bad_write -at 4096 "$f" "label: write at offset 4096" EINVAL 'x'
	bad_write -at 2 "$f" "label: white space at offset 2" EINVAL ' '
	check "label: faulting buffer" "$("$IO" "$f" pwrite-fault:0:8:4)" \
		"pwrite-fault:0:8:4: EFAULT"
	check "label: faulting buffer keeps the value" "$(cat "$f")" port0
}

run_records() {
	f=$d/journal/events
	# The records as the sample makes them, "event N: 3N", generated here:
	# every read is compared with this text, not with another read.
	awk 'BEGIN { for (n = 0; n < 100000; n++) printf "event %d: %d\n", n, 3 * n }' \
		>"$TMP/expected"
	err=$(dd_read "$TMP/events" if="$f" bs=65536) || ktap_print_msg "events: $err"
	check "events: 100000 records" "$(wc -l <"$TMP/events")" 100000
	check "events: every record is 'event N: 3N'" \
		"$(cmp "$TMP/expected" "$TMP/events" 2>&1 && echo same)" same
	check "events: first" "$(sed -n 1p "$TMP/events")" "event 0: 0"
	check "events: last" "$(sed -n 100000p "$TMP/events")" "event 99999: 299997"
	err=$(dd_read "$TMP/pieces" if="$f" bs=4093) || ktap_print_msg "events: $err"
	check "events: read in 4093-byte pieces" \
		"$(cmp "$TMP/expected" "$TMP/pieces" 2>&1 && echo same)" same
	check "events: 7-byte reads" "$(read_dd if="$f" bs=7 count=300 | md5sum)" \
		"$(head -c 2100 "$TMP/expected" | md5sum)"
	expected=$(tail -c +1000001 "$TMP/expected" | head -c 20 | tr '\n' '|' | sed 's/|/\\n/g')
	got=$("$IO" "$f" lseek:1000000 read:20 | sed -n 2p)
	check "events: lseek then read" "$got" "read:20: 20 $expected"
	check "events: write refused" "$(write_at "$f" 0 'x')" EINVAL
	check "events: push" "$(write_at "$d/journal/push" 0 '7')" OK
	check "events: count after push" "$(cat "$d/journal/push")" 100001
	check "events: pushed record" "$(tail -n 1 "$f")" "event 100000: 7"
	# A descriptor opened before a record is added sees it in its next reads.
	size=$(wc -c <"$f")
	got=$("$IO" "$f" read:11 "echo:$d/journal/push:8" "lseek:$size" read:4096)
	check "events: read before a record is added" "$(echo "$got" | sed -n 1p)" \
		'read:11: 11 event 0: 0\n'
	check "events: record added between reads" "$(echo "$got" | sed -n 4p)" \
		'read:4096: 16 event 100001: 8\n'
}

run_symlinks() {
	check "latest: target" "$(readlink "$d/latest")" x32
	check "latest: read through" "$(cat "$d/latest")" "$(cat "$d/x32")"
	check "board/first: target" "$(readlink "$d/board/first")" rev
	check "board/first: read through" "$(cat "$d/board/first")" 0x00000002
}

run_extras_sample() {
	d=$DEBUGFS/rust_debugfs_extras
	check "rust_debugfs_extras: module loads" "$(load rust_debugfs_extras && echo yes)" yes
	run_modes
	run_sizes
	run_hex
	run_yes_no
	run_space_separated
	run_str
	run_records
	run_symlinks
	check "rust_debugfs_extras: module unloads" "$(rmmod rust_debugfs_extras && echo yes)" yes
	check "rust_debugfs_extras: directory and links gone" \
		"$([ -e "$d" ] && echo present || echo gone)" gone
}

# QEMU's pci-testdev (1b36:0005), which the PCI sample binds to.
have_pci_testdev() {
	grep -qx 0x1b36 $(grep -lx 0x0005 /sys/bus/pci/devices/*/device 2>/dev/null |
		sed 's/device$/vendor/') /dev/null 2>/dev/null
}

# The number of cases of each part, for the plan. Without a pci-testdev, the
# PCI sample's part is its loading and one skip.
EXTRAS_CASES=254
PCI_CASES=13
GONE_REGISTERS_CASES=5

# The register dump of the PCI sample against the BAR mapped from user space.
run_pci_sample() {
	check "rust_debugfs_pci: module loads" "$(load rust_debugfs_pci && echo yes)" yes
	if ! have_pci_testdev; then
		ktap_test_skip "rust_debugfs_pci: no pci-testdev"
		rmmod rust_debugfs_pci
		return
	fi
	drv=/sys/bus/pci/drivers/rust_debugfs_pci
	dev=$(ls "$drv" 2>/dev/null | grep '^[0-9a-f]*:' | head -n 1)
	if [ -z "$dev" ]; then
		ktap_test_fail "rust_debugfs_pci: bound to the pci-testdev"
		rmmod rust_debugfs_pci
		return
	fi
	f=$DEBUGFS/rust_debugfs_pci/regs
	check "regs: mode 0400" "$(mode_of "$f")" "-r--------"
	check "regs: names" "$(cut -d' ' -f1 "$f" | tr '\n' ' ')" "TEST OFFSET DATA COUNT "
	offset=0
	for name in TEST OFFSET DATA COUNT; do
		value=$(sed -n "s/^$name = //p" "$f")
		mapped=$("$IO" "/sys/bus/pci/devices/$dev/resource0" "mmio32:$offset")
		check "regs: $name as mapped" "$value" "${mapped##*: }"
		offset=$((offset + 4))
	done
	check "regs: count of the probe's write" "$(grep COUNT "$f")" "COUNT = 0x00000001"
	check "regs: write refused" "$(write_at "$f" 0 'x')" EINVAL
	# Readers loop on the file while the device is unbound and bound again.
	before=$(kernel_reports)
	i=0
	while [ "$i" -lt 100 ]; do
		cat "$f" >/dev/null 2>&1
		i=$((i + 1))
	done &
	reader=$!
	echo "$dev" >"$drv/unbind"
	check "regs: gone after unbind" "$([ -e "$f" ] && echo present || echo gone)" gone
	echo "$dev" >"$drv/bind"
	wait "$reader"
	check "regs: back after bind" "$(cut -d' ' -f1 "$f" | tr '\n' ' ')" \
		"TEST OFFSET DATA COUNT "
	check "regs: no kernel report while unbinding" "$(kernel_reports)" "$before"
	check "rust_debugfs_pci: module unloads" "$(rmmod rust_debugfs_pci && echo yes)" yes
}

# A dump whose registers went away (as a BAR after unbind) fails with ENODEV.
run_gone_registers() {
	s=$DEBUGFS/rust_debugfs_test_module/files/scope
	check "rust_debugfs_test_module: module loads" \
		"$(load rust_debugfs_test_module && echo yes)" yes
	check "fake regs: content" "$(cat "$s/regs" | tr '\n' '|')" \
		"ID = 0x010000ed|CTRL = 0x00000001|STATUS = 0x80000000|COUNT = 0x0000002a|"
	check "fake regs: unmap" "$(write_at "$s/regs_unmap" 0 '1')" OK
	err=$(cat "$s/regs" 2>&1 >/dev/null)
	check "fake regs: ENODEV once unmapped" "$(errno_of "${err##*: }")" ENODEV
	check "rust_debugfs_test_module: module unloads" \
		"$(rmmod rust_debugfs_test_module && echo yes)" yes
}

ktap_print_header
if ! [ -d "$DEBUGFS" ] || ! grep -q debugfs /proc/mounts; then
	ktap_skip_all "DebugFS is not mounted"
	exit "$KSFT_SKIP"
fi
if ! have_module rust_debugfs_extras; then
	ktap_skip_all "rust_debugfs_extras is not installed in /lib/modules"
	exit "$KSFT_SKIP"
fi
# The plan comes first and each case is printed as it runs: a test cut
# short keeps what it had reported.
ktap_set_plan $((EXTRAS_CASES + $(have_pci_testdev && echo "$PCI_CASES" || echo 2) +
	GONE_REGISTERS_CASES))
run_extras_sample
run_pci_sample
run_gone_registers
ktap_finished
