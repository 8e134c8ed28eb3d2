#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Exercise every file of the Rust DebugFS samples from user space, the way
# a developer pokes at them: modes, contents, valid writes, and malformed
# writes that must fail with the documented errno and leave the value as it
# was. Needs root, DebugFS mounted, and rust_debugfs.ko and
# rust_debugfs_scoped.ko in /lib/modules (modprobe). The platform sample
# binds to an ACPI device with _HID "LNUXBEEF" or a devicetree node
# compatible with "sample-debugfs"; without one, its cases are skipped.
#
# Errno of each class of bad input (see kernel::debugfs):
#   not a number, empty line, too long, embedded NUL, non-UTF-8,
#   offset write, negative into unsigned            EINVAL
#   number out of range                             ERANGE
#   binary write that does not fit at its offset    EFBIG
#   scoped: existing name EEXIST, unknown name ENOENT
#   any file whose data was removed while open      EIO

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
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Malformed writes every binary file of SIZE bytes must refuse whole: they do
# not fit at their offset.
bad_binary_writes() {
	f=$1
	n=$2
	size=$3
	bad_write "$f" "$n: one byte too many" EFBIG "$(repeat $((size + 1)) x)"
	bad_write -at 1 "$f" "$n: full size at offset 1" EFBIG "$(repeat "$size" y)"
	bad_write -at $((size - 1)) "$f" "$n: two bytes at the last" EFBIG 'ab'
	bad_write -at $((size - 2)) "$f" "$n: three bytes at two before the end" EFBIG 'abc'
	for offset in "$size" $((size + 1)) 100000 4294967296 1099511627776; do
		bad_write -at "$offset" "$f" "$n: one byte at $offset" EFBIG 'z'
	done
	bad_write -at "$size" "$f" "$n: NUL bytes past the end" EFBIG '\000\000'
	bad_write -at "$size" "$f" "$n: non-UTF-8 past the end" EFBIG '\377'
}

# What the scoped sample has under dynamic/, for malformed writes to its
# write-only control files that must leave it as it was.
list_dynamic() {
	ls "$d/dynamic" | tr '\n' ' '
}

# bad_control FILE DESCRIPTION ERRNO FORMAT
bad_control() {
	bad_write -keeps dynamic/ "$@" list_dynamic
}

# An ACPI device (a PC), or a devicetree node named debugfs-sample (QEMU's
# arm64 virt with the harness's devicetree), for the platform sample.
have_platform_device() {
	[ -d /sys/bus/acpi/devices/LNUXBEEF:00 ] ||
		[ -d /sys/bus/platform/devices/debugfs-sample ]
}

# The number of cases of each part, for the plan. Without a platform device,
# the platform sample's part is one skip.
PLATFORM_CASES=132
SCOPED_CASES=126

run_platform_sample() {
	d=$DEBUGFS/sample_debugfs
	if ! have_platform_device; then
		ktap_test_skip "rust_debugfs: no LNUXBEEF ACPI device or debugfs-sample node"
		return
	fi
	check "rust_debugfs: module loads" "$(load rust_debugfs && echo yes)" yes
	check "rust_debugfs: directory exists" "$([ -d "$d" ] && echo yes)" yes

	check "compatible: mode" "$(mode_of "$d/compatible")" "-r--------"
	check "counter: mode" "$(mode_of "$d/counter")" "-rw-------"
	check "pair: mode" "$(mode_of "$d/pair")" "-rw-------"
	check "array_blob: mode" "$(mode_of "$d/array_blob")" "-rw-------"
	check "vector_blob: mode" "$(mode_of "$d/vector_blob")" "-rw-------"

	check "compatible: content" "$(cat "$d/compatible")" '"sample-debugfs"'
	# Root may open a 0400 file for writing; the write itself must fail.
	# Its file has no write method: DebugFS's proxy gives EINVAL.
	check "compatible: write refused" "$(write_at "$d/compatible" 0 'x')" EINVAL
	check "compatible: unchanged" "$(cat "$d/compatible")" '"sample-debugfs"'

	check "counter: initial" "$(cat "$d/counter")" 91
	write_at "$d/counter" 0 '5' >/dev/null
	check "counter: decimal" "$(cat "$d/counter")" 5
	write_at "$d/counter" 0 '0x10' >/dev/null
	check "counter: hex" "$(cat "$d/counter")" 16
	write_at "$d/counter" 0 '010' >/dev/null
	check "counter: octal" "$(cat "$d/counter")" 8
	echo 7 >"$d/counter"
	check "counter: echo with newline" "$(cat "$d/counter")" 7
	write_at "$d/counter" 0 '18446744073709551615' >/dev/null
	check "counter: largest usize" "$(cat "$d/counter")" 18446744073709551615
	write_at "$d/counter" 0 '+3' >/dev/null
	check "counter: plus sign" "$(cat "$d/counter")" 3
	bad_unsigned_writes "$d/counter" counter

	check "pair: initial" "$(cat "$d/pair")" "10 42"
	check "pair: valid write" "$(write_at "$d/pair" 0 '3 4\n')" OK
	check "pair: read back" "$(cat "$d/pair")" "3 4"
	bad_write "$d/pair" "pair: empty line" EINVAL '\n'
	bad_write "$d/pair" "pair: one number" EINVAL '3'
	bad_write "$d/pair" "pair: three numbers" EINVAL '1 2 3'
	bad_write "$d/pair" "pair: not numbers" EINVAL 'a b'
	bad_write "$d/pair" "pair: negative" EINVAL '-1 2'
	bad_write "$d/pair" "pair: overflow" EINVAL '4294967296 1'
	bad_write "$d/pair" "pair: too long" EINVAL "1 $LONG_NUMBER"
	bad_write "$d/pair" "pair: non-UTF-8" EINVAL '1 \377'
	bad_write "$d/pair" "pair: embedded NUL" EINVAL '1\000 2'
	bad_write "$d/pair" "pair: hex is not FromStr" EINVAL '0x1 2'
	bad_write -at 1 "$d/pair" "pair: write at offset 1" EINVAL '5 6'

	check "array_blob: initial" "$(hex "$d/array_blob")" 01020304
	check "array_blob: read at offset 1" "$(hex "$d/array_blob" 1)" 020304
	check "array_blob: read at end" "$(hex "$d/array_blob" 4)" ""
	check "array_blob: read past end" "$(hex "$d/array_blob" 100)" ""
	check "array_blob: write at offset 2" "$(write_at "$d/array_blob" 2 '\377')" OK
	check "array_blob: read back" "$(hex "$d/array_blob")" 0102ff04
	check "array_blob: whole write" "$(write_at "$d/array_blob" 0 '\252\273\314\335')" OK
	check "array_blob: read back whole" "$(hex "$d/array_blob")" aabbccdd
	bad_binary_writes "$d/array_blob" array_blob 4

	check "vector_blob: size" "$(read_dd if="$d/vector_blob" bs=4096 | wc -c)" 4096
	check "vector_blob: all 0x42" "$(hex "$d/vector_blob")" "$(repeat 4096 42)"
	dd if=/dev/urandom of="$TMP/page" bs=4096 count=1 2>/dev/null
	dd if="$TMP/page" of="$d/vector_blob" bs=4096 conv=notrunc 2>/dev/null
	check "vector_blob: page round trip" "$(cmp "$TMP/page" "$d/vector_blob" && echo same)" same
	check "vector_blob: a write from a half-unmapped buffer gives EFAULT" \
		"$("$DIR/debugfs_io" "$d/vector_blob" pwrite-fault:0:4096:2048)" \
		"pwrite-fault:0:4096:2048: EFAULT"
	check "vector_blob: the faulting write leaves the page intact" \
		"$(cmp "$TMP/page" "$d/vector_blob" && echo same)" same
	check "vector_blob: read at offset 4000" \
		"$(hex "$d/vector_blob" 4000)" "$(hex "$TMP/page" 4000)"
	bad_binary_writes "$d/vector_blob" vector_blob 4096

	check "rust_debugfs: module unloads" "$(rmmod rust_debugfs && echo yes)" yes
	check "rust_debugfs: directory gone" "$([ -e "$d" ] || echo gone)" gone
}

run_scoped_sample() {
	d=$DEBUGFS/rust_scoped_debugfs
	check "rust_debugfs_scoped: module loads" "$(load rust_debugfs_scoped && echo yes)" yes
	check "control/create: mode" "$(mode_of "$d/control/create")" "--w-------"
	check "control/remove: mode" "$(mode_of "$d/control/remove")" "--w-------"
	check "dynamic: is a directory" "$(mode_of "$d/dynamic")" "drwxr-xr-x"

	check "create a" "$(write_at "$d/control/create" 0 'a 1 2 3\n')" OK
	check "create b" "$(write_at "$d/control/create" 0 'b 10')" OK
	check "create c" "$(write_at "$d/control/create" 0 'c 7 8')" OK
	check "a: files" "$(ls "$d/dynamic/a" | tr '\n' ' ')" "0 1 2 blob "
	check "a/1: mode" "$(mode_of "$d/dynamic/a/1")" "-rw-------"
	check "a/blob: mode" "$(mode_of "$d/dynamic/a/blob")" "-rw-------"
	check "a: numbers" \
		"$(cat "$d/dynamic/a/0" "$d/dynamic/a/1" "$d/dynamic/a/2" | tr '\n' ' ')" "1 2 3 "
	check "a/blob: numbers as le32" "$(hex "$d/dynamic/a/blob")" 010000000200000003000000
	check "b/0: write" "$(write_at "$d/dynamic/b/0" 0 '0x2a')" OK
	check "b/0: read back" "$(cat "$d/dynamic/b/0")" 42
	bad_write "$d/dynamic/b/0" "b/0: u32 overflow" ERANGE '4294967296'
	bad_unsigned_writes "$d/dynamic/b/0" b/0
	check "b/blob: write at offset 1" "$(write_at "$d/dynamic/b/blob" 1 '\001')" OK
	check "b/blob: read back" "$(hex "$d/dynamic/b/blob")" 0a010000
	bad_binary_writes "$d/dynamic/b/blob" b/blob 4

	c=$d/control/create
	bad_control "$c" "create: existing name" EEXIST 'a 5'
	bad_control "$c" "create: empty line" EINVAL '\n'
	bad_control "$c" "create: bad number" EINVAL 'x y'
	bad_control "$c" "create: slash in name" EINVAL 'd/e 1'
	bad_control "$c" "create: non-UTF-8" EINVAL '\377 1'
	bad_control "$c" "create: too long" EINVAL "n $(repeat 200 '1 ')"
	bad_control "$c" "create: negative number" EINVAL 'n -1'
	bad_control "$c" "create: u32 overflow" EINVAL 'n 4294967296'
	bad_control "$c" "create: hex is not decimal" EINVAL 'n 0x10'
	bad_control "$c" "create: fraction" EINVAL 'n 1.5'
	bad_control "$c" "create: NUL in the name" EINVAL 'n\000 1'
	r=$d/control/remove
	bad_control "$r" "remove: unknown name" ENOENT 'zz'
	bad_control "$r" "remove: empty line" ENOENT '\n'
	bad_control "$r" "remove: name with a NUL" ENOENT 'a\000'
	bad_control "$r" "remove: non-UTF-8" EINVAL '\377'
	bad_control "$r" "remove: too long" EINVAL "$(repeat 300 x)"
	bad_control "$r" "remove: prefix of a name" ENOENT 'aa'
	bad_control "$r" "remove: upper case" ENOENT 'A'
	bad_control "$r" "remove: path" ENOENT 'dynamic/a'
	bad_control "$r" "remove: name with a slash" ENOENT 'a/'
	bad_control "$r" "remove: NUL only" ENOENT '\000'
	check "no stray directories" "$(ls "$d/dynamic" | tr '\n' ' ')" "a b c "

	# Hold files of "a" open for reading and writing while it is removed.
	exec 3<"$d/dynamic/a/0" 4>"$d/dynamic/a/1"
	check "remove a while open" "$(write_at "$d/control/remove" 0 'a')" OK
	check "a: gone" "$([ -e "$d/dynamic/a" ] || echo gone)" gone
	err=$(cat <&3 2>&1 >/dev/null)
	check "open a/0 after remove: read gives EIO" "$(errno_of "${err##*: }")" EIO
	err=$( (echo 1 >&4) 2>&1)
	check "open a/1 after remove: write gives EIO" "$(errno_of "${err##*: }")" EIO
	reports=$(kernel_reports)
	exec 3<&- 4>&-
	check "closing removed files adds no kernel report" "$(kernel_reports)" "$reports"
	check "a again after closing" "$(write_at "$d/control/create" 0 'a 4')" OK
	check "a: the new number" "$(cat "$d/dynamic/a/0")" 4
	check "remove the new a" "$(write_at "$d/control/remove" 0 'a')" OK

	check "remove b" "$(write_at "$d/control/remove" 0 'b')" OK
	check "remove c" "$(write_at "$d/control/remove" 0 'c\n')" OK
	check "dynamic: empty" \
		"$(if [ -d "$d/dynamic" ]; then ls -A "$d/dynamic" | wc -l; else echo gone; fi)" 0
	check "rust_debugfs_scoped: module unloads" "$(rmmod rust_debugfs_scoped && echo yes)" yes
	check "rust_debugfs_scoped: directory gone" "$([ -e "$d" ] || echo gone)" gone
}

ktap_print_header
if ! [ -d "$DEBUGFS" ] || ! grep -q debugfs /proc/mounts; then
	ktap_skip_all "DebugFS is not mounted"
	exit "$KSFT_SKIP"
fi
# The plan comes first and each case is printed as it runs: a test cut
# short keeps what it had reported.
ktap_set_plan $(($(have_platform_device && echo "$PLATFORM_CASES" || echo 1) + SCOPED_CASES))
run_platform_sample
run_scoped_sample
ktap_finished
