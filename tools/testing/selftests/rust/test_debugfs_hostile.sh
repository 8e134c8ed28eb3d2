#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel::debugfs under hostile conditions, using rust_debugfs_test_module (one
# file of every kind) and the two samples:
#
#   bad input     at least 60 malformed writes per writable file type, each
#                 with its errno and the value left intact
#   text reads    one rendering shown per read from offset 0, whole or in
#                 pieces, short and longer than a read on the stack takes;
#                 empty text read again; 16 KiB rendered under a spinlock;
#                 Writer errors give EINVAL and no text; a record file read
#                 whole, in pieces and after seeks drops every cursor once
#   drop in use   files dropped while readers loop on them and one reader
#                 is blocked inside a read until the drop has begun: the
#                 drop waits for it, later reads give EIO, closing is clean
#   unload open   a file of every kind held open: the module cannot be
#                 unloaded until they are closed; closing is harmless.
#                 Binary and write-only files alone do not hold it, and
#                 fail with EIO once it is gone
#   concurrency   processes mixing open/read/write/close with scope churn;
#                 every operation's result is checked, and the final values
#   failslab      thousands of creations with allocations failing: nothing
#                 appears outside its parent, nothing is left behind
#   kmemleak      no leak reported at the end (if the kernel has kmemleak)
#
# Needs root, DebugFS mounted, the samples in /lib/modules (modprobe) and
# what kselftest installs next to this script (debugfs_test_module/). Fault
# injection and kmemleak are used if the kernel has them, and left as they
# were found. Optional environment: DURATION (seconds of the concurrency
# phase, default 60), CHURN (failslab iterations, default 3000), BAD_INPUTS
# (at most this many bad inputs per file type, default all).

DIR="$(dirname "$(readlink -f "$0")")"
KTAP_HELPERS="${DIR}/../kselftest/ktap_helpers.sh"
if [ -e "$KTAP_HELPERS" ]; then
	. "$KTAP_HELPERS"
else
	echo "$KTAP_HELPERS file not found [SKIP]"
	exit 4
fi
. "$DIR/debugfs_helpers.sh"

DURATION=${DURATION:-60}
CHURN=${CHURN:-3000}
BAD_INPUTS=${BAD_INPUTS:-1000}
# The fault-injection settings this test changes, in the order it sets them.
FAILSLAB_KNOBS="task-filter verbose ignore-gfp-wait times interval probability"
DEBUGFS=/sys/kernel/debug
T=$DEBUGFS/rust_debugfs_test_module
F=$T/files
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# malformed NAME FILE < CASES: each line of CASES is "ERRNO OFFSET FORMAT";
# writing FORMAT at OFFSET must fail with ERRNO and leave what FILE reads
# unchanged. One KTAP case per line, for the first BAD_INPUTS lines.
malformed() {
	name=$1
	file=$2
	n=0
	while read -r errno offset format; do
		[ "$format" = "''" ] && format=
		[ "$n" -ge "$BAD_INPUTS" ] && break
		n=$((n + 1))
		bad_write -one -at "$offset" "$file" "$name: bad input $n gives $errno" \
			"$errno" "$format"
	done
	echo "$name $n" >>"$TMP/bad-input-counts"
}

# cases_of FILE: how many cases malformed runs from the cases in FILE.
cases_of() {
	n=$(wc -l <"$1")
	echo $((n < BAD_INPUTS ? n : BAD_INPUTS))
}

# Inputs no integer parser accepts: EINVAL for kstrto* and FromStr alike.
not_numbers() {
	for s in '\n' 'abc' '12abc' 'x5' '5x' '0xg' '0x5g' '0xx5' '1\0402' '\0405' '5\040' \
		'\t5' '5\t' '5\n\n' '\n5' '--5' '+-5' '-+5' '++5' '0b101' '0o17' '1e3' '1.5' \
		'.5' '5.' 'zero' 'NaN' 'inf' '-' '+' '\040' '\r5' '5\r' '5\r\n' '\377' \
		'\300\200' '\357\274\221' '\331\243' '1\0002' '\0005' '5\000' '\000' \
		"$(repeat 129 1)" "$(repeat 200 0)" '0x\n' '1,000' '1_000' '#5' '5#' \
		'\0335' 'five' '1+1' '(5)' '"5"' "'5'" '5\v' '\f5'; do
		echo "EINVAL 0 $s"
	done
	# A value, but not at offset 0.
	for offset in 1 2 3 7 64; do
		echo "EINVAL $offset 5"
	done
}

# kstrto* only: C's own spelling of malformed numbers.
c_only_invalid() {
	for s in '08' '09' '0x' '078' '0X' '1\n\n\n'; do
		echo "EINVAL 0 $s"
	done
}

unsigned_cases() {
	not_numbers
	c_only_invalid
	for s in '-1' '-0' '-0x1' '-18446744073709551615'; do
		echo "EINVAL 0 $s"
	done
}

bool_cases() {
	# kstrtobool takes the first letter of y/n/t/f/1/0/enable/disable, and
	# "on"/"off"; every other first character is refused.
	for c in 2 3 4 5 6 7 8 9 a b c g h i j k l m p q r s u v w x z A B C G H I J K L \
		'-' '+' '.' '#' '~'; do
		echo "EINVAL 0 ${c}"
	done
	for s in '\n' 'o' 'ox' 'oX' 'o1' 'O' '\040y' '\ty' '\377' '\0001' '\000y' \
		"$(repeat 129 y)" '-1' '+1' '\r1'; do
		echo "EINVAL 0 $s"
	done
	for offset in 1 2 5 100; do
		echo "EINVAL $offset 1"
	done
}

binary_cases() {
	# Writes that do not fit at their offset fail whole.
	off=0
	while [ "$off" -lt 16 ]; do
		echo "EFBIG $off $(repeat $((17 - off)) x)"
		off=$((off + 1))
	done
	off=16
	while [ "$off" -lt 56 ]; do
		echo "EFBIG $off y"
		off=$((off + 1))
	done
	for off in 1000 65536 4294967296 1099511627776; do
		echo "EFBIG $off z"
	done
}

callback_cases() {
	# Spaces are written as \040: read(1) would strip them at the ends.
	for w in '' x -1 '\0401' '1\040' 0x1 1.0 4294967296 99999999999 '1\0402' abc '\377' \
		'1\000' '\0001' '1\n\n' 0b1 1e1 '1_0' '-0' '++1' '1+' 4294967295x; do
		echo "EINVAL 0 set\\040$w"
	done
	for s in '\n' 'set' 'SET\0401' '\040set\0401' 'set\040\0401' 'get\0401' 'set1' \
		'set\t1' "set\\040$(repeat 20 1)" 'reset\0401' 'sett\0401' 'se\0401' '1' \
		'\377' '\000' 'set\0401\0402' 'set\040-0' 'set\040+' 'set\0400x' 'set\040--1' \
		'set\040_1' 'set\040١' 'setting' '\tset\0401' 'set\0401\t' 'set\0401\r' \
		'set\0401\n\n' 'set\0401x' 'set\040x1' 'set\040\n' 'set:1' 'set=1' 'set\0401.'; do
		echo "EINVAL 0 $s"
	done
	for offset in 1 2 3 4 8 16 100 1000; do
		echo "EINVAL $offset set\\0401"
	done
}

# The bad inputs of each file type, into $TMP/cases.TYPE.
make_bad_inputs() {
	{ unsigned_cases; echo "ERANGE 0 18446744073709551616"
	  echo "ERANGE 0 0x10000000000000000"; } \
		>"$TMP/cases.text_wo"
	{ not_numbers; c_only_invalid
	  for s in 2147483648 -2147483649 0x80000000 4294967296 99999999999; do
		echo "ERANGE 0 $s"
	  done; } \
		>"$TMP/cases.i32"
	{ unsigned_cases
	  for s in 256 0x100 1000 0400 65536 18446744073709551615; do echo "ERANGE 0 $s"; done; } \
		>"$TMP/cases.u8"
	{ not_numbers; c_only_invalid
	  for s in 128 -129 0x80 255 1000 -0x81; do echo "ERANGE 0 $s"; done; } >"$TMP/cases.i8"
	bool_cases >"$TMP/cases.bool"
	{ not_numbers; c_only_invalid
	  for s in 9223372036854775808 -9223372036854775809 0x8000000000000000; do
		echo "ERANGE 0 $s"
	  done; } >"$TMP/cases.mutex"
	# A driver's own AtomicType parses with FromStr.
	for s in '\n' medium Low LOW 'low\n\n' '\040low' 'low\040' 1 '\377' 'lo\000w' off.; do
		echo "EINVAL 0 $s"
	done >"$TMP/cases.level"
	binary_cases >"$TMP/cases.binary"
	callback_cases >"$TMP/cases.callback"
}

# What control/status shows of text_wo, which cannot be read back.
text_wo_value() {
	sed -n 's/^text_wo: //p' "$T/control/status"
}

# The cases of run_bad_input: one per bad input of each readable type (the
# first BAD_INPUTS), one for all of text_wo's, the "at least 60" of each
# readable type but level_rw when all are tried, and 16 more.
bad_input_cases() {
	n=$((1 + 16))
	for t in i32 u8 i8 bool mutex level binary callback; do
		n=$((n + $(cases_of "$TMP/cases.$t")))
	done
	[ "$BAD_INPUTS" -ge 60 ] && n=$((n + 7))
	echo "$n"
}

run_bad_input() {
	k=0
	while read -r e o s; do
		[ "$s" = "''" ] && s=
		[ "$k" -ge "$BAD_INPUTS" ] && break
		k=$((k + 1))
		if write_refused "$F/text_wo" "$o" "$e" "$s" text_wo_value; then
			echo ok
		else
			echo "not ok '$s' at $o: $REFUSED_GOT (want $e)," \
				"$REFUSED_BEFORE -> $REFUSED_AFTER"
		fi
	done <"$TMP/cases.text_wo" >"$TMP/text_wo.results"
	n=$(wc -l <"$TMP/text_wo.results")
	bad=$(grep -c '^not ok' "$TMP/text_wo.results")
	grep '^not ok' "$TMP/text_wo.results" | head -n 5 >"$TMP/text_wo.failures"
	while read -r line; do ktap_print_msg "$line"; done <"$TMP/text_wo.failures"
	enough=$((BAD_INPUTS < 60 ? BAD_INPUTS : 60))
	check "text_wo (Atomic<u64>, write-only): $n bad inputs refused, value intact" \
		"$bad $([ "$n" -ge "$enough" ] && echo enough)" "0 enough"
	echo "text_wo $n" >>"$TMP/bad-input-counts"

	# malformed() reads its cases by redirection: a pipeline would run it in
	# a subshell and lose the counts.
	malformed "text_rw (i32)" "$F/text_rw" <"$TMP/cases.i32"
	malformed "u8_rw (core AtomicU8)" "$F/u8_rw" <"$TMP/cases.u8"
	malformed "i8_rw (core AtomicI8)" "$F/i8_rw" <"$TMP/cases.i8"
	malformed "bool_rw (Atomic<bool>)" "$F/bool_rw" <"$TMP/cases.bool"
	malformed "mutex_rw (Mutex<i64>)" "$F/mutex_rw" <"$TMP/cases.mutex"
	malformed "level_rw (Atomic<Level>)" "$F/level_rw" <"$TMP/cases.level"
	malformed "binary_rw (Mutex<[u8; 16]>)" "$F/binary_rw" <"$TMP/cases.binary"
	malformed "callback_rw" "$F/callback_rw" <"$TMP/cases.callback"

	for name in "text_rw (i32)" "u8_rw (core AtomicU8)" "i8_rw (core AtomicI8)" \
		"bool_rw (Atomic<bool>)" "mutex_rw (Mutex<i64>)" \
		"binary_rw (Mutex<[u8; 16]>)" callback_rw; do
		n=$(grep -F "$name " "$TMP/bad-input-counts" | awk '{ print $NF }')
		[ "$BAD_INPUTS" -lt 60 ] && continue
		check "$name: at least 60 malformed inputs tried" \
			"$([ "${n:-0}" -ge 60 ] && echo yes)" yes
	done

	# A write whose user buffer faults part-way is refused whole.
	before=$(hex "$F/binary_rw")
	check "binary_rw: a write from a half-unmapped buffer gives EFAULT" \
		"$("$DIR/debugfs_io" "$F/binary_rw" pwrite-fault:0:16:8)" \
		"pwrite-fault:0:16:8: EFAULT"
	check "binary_rw: the faulting write leaves the value intact" \
		"$(hex "$F/binary_rw")" "$before"

	# The valid forms still work after all that.
	check "text_rw: valid negative" "$(write_at "$F/text_rw" 0 '-12'; cat "$F/text_rw")" "OK
-12"
	check "bool_rw: valid 'on'" "$(write_at "$F/bool_rw" 0 'on'; cat "$F/bool_rw")" "OK
true"
	check "mutex_rw: valid" "$(write_at "$F/mutex_rw" 0 '-9000\n'; cat "$F/mutex_rw")" "OK
-9000"
	check "mutex_rw: hex, as C parses it" \
		"$(write_at "$F/mutex_rw" 0 '0x10'; cat "$F/mutex_rw")" "OK
16"
	check "level_rw: a driver's AtomicType from text" \
		"$(cat "$F/level_rw"; write_at "$F/level_rw" 0 'high\n'; cat "$F/level_rw")" "Low
OK
High"
	check "callback_rw: valid" \
		"$(write_at "$F/callback_rw" 0 'set 9'; cat "$F/callback_rw")" "OK
cb=9"
	check "callback_wo: valid" "$(write_at "$F/callback_wo" 0 'set 3'
		sed -n 's/^callback_wo: //p' "$T/control/status")" "OK
3"
	check "binary_wo: write at 15" "$(write_at "$F/binary_wo" 15 '\001'
		sed -n 's/^binary_wo: //p' "$T/control/status" | tr -d ' ')" "OK
00000000000000000000000000000001"
	check "binary_wo: past end" "$(write_at "$F/binary_wo" 16 '\001')" EFBIG
	check "text_ro: content" "$(cat "$F/text_ro")" 42
	check "callback_ro: content" "$(cat "$F/callback_ro")" "value: 7"
	check "binary_ro: content" "$(hex "$F/binary_ro")" 000102030405060708090a0b0c0d0e0f
	check "scope/value: content" "$(cat "$F/scope/value")" 5
	check "scope/sub/blob: content" \
		"$(hex "$F/scope/sub/blob")" eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee
}

# long_ticket N: what ticket_long_ro shows when it renders ticket N.
long_ticket() {
	line=0
	while [ "$line" -lt 32 ]; do
		echo "ticket $1 line $line"
		line=$((line + 1))
	done
}

# reads_match NAME FILE WANT BS: FILE read whole, then in BS-byte pieces,
# gives the bytes of the file WANT.
reads_match() {
	cat "$2" >"$TMP/reads.got"
	check "$1, read whole" "$(cmp "$3" "$TMP/reads.got" && echo same)" same
	err=$(dd_read "$TMP/reads.got" if="$2" bs="$4") || echo "$err" >"$TMP/reads.got"
	check "$1, read in $4-byte pieces" "$(cmp "$3" "$TMP/reads.got" && echo same)" same
}

run_text_reads() {
	# Every rendering of a ticket file takes the next number, so the
	# numbers count renderings.
	a=$(cat "$F/ticket_ro")
	check "ticket_ro: one rendering per cat" "$(cat "$F/ticket_ro")" $((a + 1))
	check "ticket_ro: read byte by byte sees one rendering" \
		"$(read_dd if="$F/ticket_ro" bs=1)" $((a + 2))
	check "ticket_ro: read from offset 1 renders afresh" \
		"$(read_dd if="$F/ticket_ro" bs=1 skip=1)" "$(echo $((a + 3)) | cut -c2-)"
	exec 3<"$F/ticket_ro"
	whole=$(read_dd bs=64 count=1 <&3)
	rest=$(read_dd bs=64 count=1 <&3)
	exec 3<&-
	check "ticket_ro: whole read on a held descriptor" "$whole" $((a + 4))
	check "ticket_ro: then end of file" "$rest" ""
	check "ticket_ro: end of file rendered nothing" "$(cat "$F/ticket_ro")" $((a + 5))

	# Text longer than the stack buffer is measured by one rendering and kept
	# from a second one, rendered into a buffer of that size: two tickets per
	# rendering that is shown. Every text shown is one rendering.
	l=$(cat "$F/ticket_long_ro")
	n=${l#ticket }
	n=${n%% *}
	check "ticket_long_ro: longer than 128 bytes, one rendering" \
		"$([ ${#l} -gt 128 ] && echo yes)$l" "yes$(long_ticket "$n")"
	check "ticket_long_ro: read in 7-byte pieces sees one rendering" \
		"$(read_dd if="$F/ticket_long_ro" bs=7)" "$(long_ticket $((n + 2)))"
	check "ticket_long_ro: read from offset 9 renders afresh" \
		"$(read_dd if="$F/ticket_long_ro" bs=1 skip=9)" \
		"$(long_ticket $((n + 4)) | tail -c +10)"
	exec 3<"$F/ticket_long_ro"
	whole=$(read_dd bs=4096 count=1 <&3)
	rest=$(read_dd bs=4096 count=1 <&3)
	exec 3<&-
	check "ticket_long_ro: whole read, then end of file" "$whole|$rest" \
		"$(long_ticket $((n + 6)))|"
	check "ticket_long_ro: end of file rendered nothing" \
		"$(head -n 1 "$F/ticket_long_ro")" "ticket $((n + 8)) line 0"

	# A text that was empty: a read from offset 0 renders afresh, on the same
	# descriptor too.
	write_at "$F/empty_rw" 0 'set 0' >/dev/null
	check "empty_rw: empty, then the new text through one descriptor" \
		"$("$DIR/debugfs_io" "$F/empty_rw" read:64 "echo:$F/empty_rw:set 5" pread:64:0 \
			read:64 | tr '\n' '|')" \
		"read:64: 0 |echo:$F/empty_rw:set 5: 5|pread:64:0: 2 5\n|read:64: 2 5\n|"
	check "empty_rw: a read past the end of a whole read renders afresh" \
		"$("$DIR/debugfs_io" "$F/empty_rw" read:64 "echo:$F/empty_rw:set 123" pread:64:3 |
			tr '\n' '|')" \
		"read:64: 2 5\n|echo:$F/empty_rw:set 123: 7|pread:64:3: 1 \n|"

	# 16 KiB rendered under a spinlock: rendering must not allocate (the
	# debug kernel reports sleeping in atomic context).
	reports=$(kernel_reports)
	line=0
	while [ "$line" -lt 1024 ]; do
		printf '%04d 0000000007\n' "$line"
		line=$((line + 1))
	done >"$TMP/spinlocked.want"
	reads_match "spinlocked_ro: 16 KiB rendered under a spinlock" "$F/spinlocked_ro" \
		"$TMP/spinlocked.want" 1000
	check "spinlocked_ro: read byte by byte" \
		"$(read_dd if="$F/spinlocked_ro" bs=1 count=300)" \
		"$(head -c 300 "$TMP/spinlocked.want")"
	check "spinlocked_ro: read from offset 8192" \
		"$(read_dd if="$F/spinlocked_ro" bs=4096 skip=2 | md5sum)" \
		"$(tail -c +8193 "$TMP/spinlocked.want" | md5sum)"
	check "spinlocked_ro: no kernel report while rendering under a spinlock" \
		"$(kernel_reports)" "$reports"

	run_records_reads

	for f in failing_short failing_long; do
		err=$(cat "$F/$f" 2>&1 >"$TMP/failing.out")
		check "$f: Writer error gives EINVAL" "$(errno_of "${err##*: }")" EINVAL
		check "$f: and no text" "$(wc -c <"$TMP/failing.out")" 0
	done
}

# records_ro: 3000 records, whose cursor (an index with a Drop) is kept in the
# seq_file itself; record 1500 is longer than a page. Every read and seek must
# drop each cursor it made, exactly once.
run_records_reads() {
	f=$F/records_ro
	# Not "i": repeat() uses it.
	record=0
	while [ "$record" -lt 3000 ]; do
		if [ "$record" = 1500 ]; then
			printf '%04d %s\n' "$record" "$(repeat 6000 x)"
		else
			printf '%04d\n' "$record"
		fi
		record=$((record + 1))
	done >"$TMP/records.want"
	reads_match "records_ro: a record longer than a page included" "$f" \
		"$TMP/records.want" 4093
	check "records_ro: 7-byte reads" "$(read_dd if="$f" bs=7 count=300 | md5sum)" \
		"$(head -c 2100 "$TMP/records.want" | md5sum)"
	# Record 1500 starts at 7500: a seek into it, and one past it.
	for offset in 7600 13506; do
		expected=$(read_dd if="$TMP/records.want" bs=1 skip="$offset" count=20 |
			tr '\n' '|' | sed 's/|/\\n/g')
		got=$("$DIR/debugfs_io" "$f" "lseek:$offset" read:20 | sed -n 2p)
		check "records_ro: lseek to $offset then read" "$got" "read:20: 20 $expected"
	done
	check "records_ro: every cursor dropped once" \
		"$(grep live_cursors "$T/control/status")" "live_cursors: 0"
}

run_drop_in_use() {
	# One reader blocked inside a read until the drop has begun (the test
	# module makes it wait), others looping until their file is gone or the
	# drop is over, one writer.
	rm -f "$TMP/stop"
	cat "$F/slow_ro" >"$TMP/slow.out" 2>"$TMP/slow.err" &
	check "a reader is blocked inside slow_ro" \
		"$(wait_for_line "$T/control/status" 'slow_readers: 1' && echo yes)" yes
	for f in text_rw binary_rw scope/value; do
		( while [ ! -e "$TMP/stop" ] && cat "$F/$f" >/dev/null 2>&1; do :; done ) &
	done
	# The shell reports a failed redirection before it applies a later one:
	# silence the whole loop, or its message splits a KTAP line of ours.
	( while [ ! -e "$TMP/stop" ] && echo 1 >"$F/text_rw"; do :; done ) 2>/dev/null &
	exec 3<"$F/text_ro" 4<>"$F/binary_rw" 5>"$F/callback_wo" 6<"$F/scope/value"
	check "drop files/ while in use" "$(write_at "$T/control/drop" 0 1)" OK
	touch "$TMP/stop"
	check "files/ is gone" "$([ -e "$F" ] || echo gone)" gone
	wait
	check "the blocked read finished with the old value" "$(cat "$TMP/slow.out")" 1
	check "the blocked read was still running when the drop began" \
		"$(sed -n 's/^slow_timeouts: //p' "$T/control/status")" 0
	err=$(cat <&3 2>&1 >/dev/null)
	check "read of a dropped text file gives EIO" "$(errno_of "${err##*: }")" EIO
	err=$(dd bs=4 count=1 <&4 2>&1 >/dev/null | grep -v 'records\|bytes\|copied')
	check "read of a dropped binary file gives EIO" "$(errno_of "${err##*: }")" EIO
	err=$( (echo 'set 1' >&5) 2>&1)
	check "write to a dropped callback file gives EIO" "$(errno_of "${err##*: }")" EIO
	err=$(cat <&6 2>&1 >/dev/null)
	check "read of a dropped scoped file gives EIO" "$(errno_of "${err##*: }")" EIO
	reports=$(kernel_reports)
	exec 3<&- 4<&- 5>&- 6<&-
	check "closing dropped files adds no kernel report" "$(kernel_reports)" "$reports"
	check "create files/ again" "$(write_at "$T/control/create" 0 1)" OK
	check "new files have fresh values" "$(cat "$F/text_rw")" -7
}

run_unload_open() {
	exec 3<"$F/text_ro" 4<>"$F/text_rw" 5>"$F/text_wo" 6<"$F/callback_ro" \
		7<>"$F/binary_rw" 8<"$F/scope/value" 9>"$F/callback_wo"
	err=$(rmmod rust_debugfs_test_module 2>&1)
	check "rmmod refused while files are open" \
		"$([ -d /sys/module/rust_debugfs_test_module ] && echo loaded)" loaded
	ktap_print_msg "rmmod said: $err"
	check "open text file still reads" "$(cat <&3)" 42
	check "open binary file still reads" \
		"$(dd_read "$TMP/held" bs=16 count=1 <&7 &&
			od -An -v -tx1 <"$TMP/held" | tr -d ' \n')" \
		00000000000000000000000000000000
	exec 3<&- 4<&- 5>&- 6<&- 7<&- 8<&- 9>&-
	check "rmmod works once all are closed" \
		"$(rmmod rust_debugfs_test_module && echo unloaded)" unloaded
	check "nothing left of rust_debugfs_test_module" "$([ -e "$T" ] || echo gone)" gone

	# Binary and write-only files have DebugFS's short operations: nothing
	# of the module runs while they are open or when they are closed, so
	# they do not keep it loaded, and they fail with EIO once it is gone.
	load rust_debugfs_test_module
	exec 3<"$F/binary_ro" 4>"$F/binary_wo" 5>"$F/text_wo" 7<>"$F/binary_rw" \
		9>"$F/callback_wo"
	check "rmmod works with only binary and write-only files open" \
		"$(rmmod rust_debugfs_test_module && echo unloaded)" unloaded
	reports=$(kernel_reports)
	for fd in 3 7; do
		err=$(dd bs=4 count=1 <&$fd 2>&1 >/dev/null | grep -v 'records\|bytes\|copied')
		check "read of a binary file (fd $fd) of an unloaded module gives EIO" \
			"$(errno_of "${err##*: }")" EIO
	done
	err=$( (echo 1 >&4) 2>&1)
	check "write to a write-only binary file of an unloaded module gives EIO" \
		"$(errno_of "${err##*: }")" EIO
	err=$( (echo 1 >&5) 2>&1)
	check "write to a write-only text file of an unloaded module gives EIO" \
		"$(errno_of "${err##*: }")" EIO
	err=$( (echo 'set 1' >&9) 2>&1)
	check "write to a write-only callback file of an unloaded module gives EIO" \
		"$(errno_of "${err##*: }")" EIO
	exec 3<&- 4>&- 5>&- 7<&- 9>&-
	check "I/O on and closing of files of an unloaded module add no kernel report" \
		"$(kernel_reports)" "$reports"

	# The scoped sample: a dynamic file and a control file held open.
	load rust_debugfs_scoped
	S=$DEBUGFS/rust_scoped_debugfs
	echo "held 1 2" >"$S/control/create"
	exec 3<"$S/dynamic/held/0" 4>"$S/control/create"
	rmmod rust_debugfs_scoped 2>/dev/null
	check "scoped sample stays while its files are open" \
		"$([ -d /sys/module/rust_debugfs_scoped ] && echo loaded)" loaded
	exec 3<&- 4>&-
	check "scoped sample unloads after close" \
		"$(rmmod rust_debugfs_scoped && echo unloaded)" unloaded
	check "nothing left of the scoped sample" "$([ -e "$S" ] || echo gone)" gone
	load rust_debugfs_test_module
}

# concurrency_loop NAME: runs the rest of the command line until $end,
# counting iterations and failures into $TMP/loop.NAME ("N FAILURES"); the
# first failures' messages go to $TMP/loop.NAME.err.
concurrency_loop() {
	loop=$1
	shift
	WRITE_AT_TMP=$TMP/in.$loop
	iterations=0
	failures=0
	# Until the end of the phase, and at least four times however slow the
	# machine: binary_rw writes its four quarters in turn.
	while [ "$iterations" -lt 4 ] || [ "$(date +%s)" -lt "$end" ]; do
		"$@" "$iterations" >>"$TMP/loop.$loop.err" 2>&1 || failures=$((failures + 1))
		iterations=$((iterations + 1))
	done
	echo "$iterations $failures" >"$TMP/loop.$loop"
}

# last_written LOOP: the iteration number of LOOP's last iteration.
last_written() {
	read -r iterations _ <"$TMP/loop.$1"
	echo $((iterations - 1))
}

# One iteration of each loop; the last argument is the iteration number.
# Every operation must succeed: each file has one writer.
rw_text() {
	cat "$F/$1" >/dev/null && expect_ok "$1 $2" "$(write_at "$F/$1" 0 "$2")"
}

rw_bool() {
	cat "$F/bool_rw" >/dev/null && expect_ok "bool $1" "$(write_at "$F/bool_rw" 0 $(($1 % 2)))"
}

rw_binary() {
	cat "$F/binary_rw" >/dev/null &&
		expect_ok "binary $1" "$(write_at "$F/binary_rw" $(($1 % 4 * 4)) abcd)"
}

# A scope made, read and removed; each loop has names of its own.
scope_churn() {
	scope=w$1$(($2 % 3))
	expect_ok "create $scope" "$(write_at "$S/control/create" 0 "$scope $2 1 2")" &&
		cat "$S/dynamic/$scope/0" "$S/dynamic/$scope/blob" >/dev/null &&
		expect_ok "remove $scope" "$(write_at "$S/control/remove" 0 "$scope")"
}

# Reader $1 reads whatever scopes exist; one may vanish under it, so ENOENT
# and EIO are expected there, and nothing else.
scope_reader() {
	err=$TMP/reader$1.err
	for d in "$S"/dynamic/*; do
		if cat "$d/0" "$d/1" >/dev/null 2>"$err"; then
			echo "$d" >>"$TMP/reader$1.read"
		elif grep -v -E 'No such file or directory|Input/output error' "$err"; then
			return 1
		fi
	done
}

expect_ok() {
	[ "$2" = OK ] || { echo "$1: $2"; return 1; }
}

run_concurrency() {
	load rust_debugfs_scoped
	S=$DEBUGFS/rust_scoped_debugfs
	end=$(($(date +%s) + DURATION))
	concurrency_loop text_rw rw_text text_rw &
	concurrency_loop mutex_rw rw_text mutex_rw &
	concurrency_loop bool_rw rw_bool &
	concurrency_loop binary_rw rw_binary &
	concurrency_loop scope0 scope_churn 0 &
	concurrency_loop scope1 scope_churn 1 &
	concurrency_loop reader0 scope_reader 0 &
	concurrency_loop reader1 scope_reader 1 &
	wait
	total=0
	for name in text_rw mutex_rw bool_rw binary_rw scope0 scope1 reader0 reader1; do
		read -r n bad <"$TMP/loop.$name" || { n=0; bad=missing; }
		total=$((total + n))
		sed -n '1,3p' "$TMP/loop.$name.err" | while read -r line; do
			ktap_print_msg "$name: $line"
		done
		check "concurrency: $name ran without an error" \
			"$([ "$n" -ge 4 ] && echo "ran, $bad failed")" "ran, 0 failed"
	done
	ktap_print_msg "8 processes for ${DURATION} s: $total loop iterations"
	echo "$total" >"$TMP/concurrency-ops"
	# Each file had one writer: it holds that writer's last value.
	check "text_rw holds the last value written" "$(cat "$F/text_rw")" "$(last_written text_rw)"
	check "mutex_rw holds the last value written" "$(cat "$F/mutex_rw")" \
		"$(last_written mutex_rw)"
	check "bool_rw holds the last value written" "$(cat "$F/bool_rw")" \
		"$([ $(($(last_written bool_rw) % 2)) = 1 ] && echo true || echo false)"
	check "binary_rw holds the last values written" "$(hex "$F/binary_rw")" \
		"$(repeat 4 61626364)"
	reads=$(cat "$TMP"/reader?.read 2>/dev/null | grep -c dynamic/w)
	check "the readers read scopes while they came and went" \
		"$([ "$reads" -gt 0 ] && echo yes)" yes
	check "no scope left behind" "$([ -d "$S/dynamic" ] && ls "$S/dynamic" | wc -l)" 0
	check "scoped sample unloads" "$(rmmod rust_debugfs_scoped && echo unloaded)" unloaded
}

run_failslab() {
	FS=$DEBUGFS/failslab
	if ! [ -d "$FS" ]; then
		write_at "$T/control/churn" 0 "$CHURN" >/dev/null
		check "churn without fault injection: every iteration ran" \
			"$(sed -n 's/^churned: //p' "$T/control/status")" "$CHURN"
		check "churn without fault injection: nothing failed" \
			"$(sed -n 's/^churn_failures: //p' "$T/control/status")" 0
		echo "$CHURN" >"$TMP/churned"
		ktap_test_skip "failslab: not in this kernel"
		return
	fi
	# Whatever the system had set is put back afterwards, probability
	# last: the reverse of the order below.
	for knob in $FAILSLAB_KNOBS; do
		cat "$FS/$knob" >"$TMP/failslab-$knob"
	done
	# The filter goes first and the probability last: in between, every
	# task's allocations could fail, this shell's writes of the remaining
	# settings included, and a lost task-filter would leave fault injection
	# on for the whole machine.
	echo Y >"$FS/task-filter"
	echo 0 >"$FS/verbose"
	echo N >"$FS/ignore-gfp-wait"
	echo -1 >"$FS/times"
	echo 1 >"$FS/interval"
	if [ "$(cat "$FS/task-filter")" != Y ]; then
		ktap_test_fail "failslab: limited to one task"
		ktap_print_msg "failslab: not run, so the plan's 4 other cases of it are missing"
		return
	fi
	ktap_test_pass "failslab: limited to one task"
	echo 10 >"$FS/probability"
	# Only this shell's write fails allocations (task-filter + make-it-fail);
	# the file is opened first, so that the open itself cannot fail.
	got=$(sh -c "exec 3>$T/control/churn; echo 1 >/proc/self/make-it-fail
		echo $CHURN >&3" 2>&1)
	echo 0 >"$FS/probability"
	check "failslab: off again" "$(cat "$FS/probability")" 0
	for knob in $FAILSLAB_KNOBS; do
		cat "$TMP/failslab-$knob" >"$FS/$knob"
	done
	now=
	was=
	for knob in $FAILSLAB_KNOBS; do
		now="$now $(cat "$FS/$knob")"
		was="$was $(cat "$TMP/failslab-$knob")"
	done
	check "failslab: the system's settings are back" "$now" "$was"
	ktap_print_msg "churn under failslab: ${got:-ok}; $(tr '\n' ' ' <"$T/control/status")"
	check "failslab: every iteration ran" \
		"$(sed -n 's/^churned: //p' "$T/control/status")" "$CHURN"
	check "failslab: allocations did fail" \
		"$([ "$(sed -n 's/^churn_failures: //p' "$T/control/status")" -gt 0 ] &&
			echo yes)" yes
	echo "$CHURN" >"$TMP/churned"
}

run_leftovers() {
	# What churn creates is named churn_*, inside $T/churn only.
	stray=$(find "$DEBUGFS" -name 'churn_*' -o -path "$T/churn" 2>/dev/null | head -n 5)
	check "no churn entry left anywhere in DebugFS" "$stray" ""
	check "rust_debugfs_test_module unloads" \
		"$(rmmod rust_debugfs_test_module && echo unloaded)" unloaded
	left=$(ls "$DEBUGFS" | grep -E 'rust_debugfs|sample_debugfs|rust_scoped' | head -n 3)
	check "no sample or test directory left" "$left" ""
	if [ -e "$DEBUGFS/kmemleak" ]; then
		kmemleak_scan
		sleep 6
		kmemleak_scan
		# Only what was not reported before the test is ours; the report is
		# read, never cleared, so the system's own stays as it was.
		leaks=$(awk -v shown="$TMP/leaks" 'NR == FNR { old[$0] = 1; next }
			/^unreferenced object/ { ours = !($0 in old); leaks += ours }
			ours && leaks <= 3 { print >shown }
			END { print leaks + 0 }' "$TMP/leaks-before" "$DEBUGFS/kmemleak")
		# A scan that failed (EPERM: kmemleak turned itself off, as it
		# does when its own allocations fail) checked nothing.
		check "kmemleak: no new leaks" "$leaks$(cat "$TMP/kmemleak-scans")" 0
		touch "$TMP/leaks"
		while read -r line; do ktap_print_msg "$line"; done <"$TMP/leaks"
	else
		ktap_test_skip "kmemleak: not in this kernel"
	fi
}

# Files a module never removed, and a module whose init fails while one of
# its files is open (rust_debugfs_leak): DebugFS removes what a going module
# left, with a warning naming each file, and nothing runs the module's code
# once it is gone. The leaked memory is kmemleak's to see: its automatic
# scans stop for the phase, and what it then finds is cleared.
run_module_boundary() {
	if [ -e "$DEBUGFS/kmemleak" ]; then
		echo scan=off 2>/dev/null >"$DEBUGFS/kmemleak" || true
	fi
	for n in 1 2 3; do
		L=$DEBUGFS/rust_debugfs_leak$n
		reports=$(kernel_reports)
		warned=$(dmesg | grep -c "did not remove /rust_debugfs_leak$n/" || true)
		check "leak=$n: loads" "$(insmod "$TESTMOD_DIR/rust_debugfs_leak.ko" leak=$n &&
			cat "$L/value")" 7
		exec 3<"$L/blob"
		check "leak=$n: rmmod works with the leaked files there" \
			"$(rmmod rust_debugfs_leak && echo unloaded)" unloaded
		after=$(dmesg | grep -c "did not remove /rust_debugfs_leak$n/" || true)
		check "leak=$n: DebugFS warned of both files" "$((after - warned))" 2
		err=$(cat "$L/value" 2>&1 >/dev/null)
		check "leak=$n: opening the leaked value gives ENOENT" \
			"$(errno_of "${err##*: }")" ENOENT
		check "leak=$n: open of the leaked value for writing gives ENOENT" \
			"$("$DIR/debugfs_io" "$L/value" read:1 || true)" "open: ENOENT"
		check "leak=$n: read of the leaked blob gives ENOENT" "$(read_dd if="$L/blob")" \
			"read error: ENOENT"
		check "leak=$n: a blob opened before rmmod reads EIO" \
			"$(read_dd bs=4 count=1 <&3)" "read error: EIO"
		exec 3<&-
		check "leak=$n: no kernel report" "$(kernel_reports)" "$reports"
	done

	L=$DEBUGFS/rust_debugfs_leak0
	reports=$(kernel_reports)
	insmod "$TESTMOD_DIR/rust_debugfs_leak.ko" fail_init=1 2>/dev/null &
	loader=$!
	i=0
	while [ ! -e "$L/blob" ] && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	err=$(cat "$L/value" 2>&1 >/dev/null)
	check "fail_init: value cannot be opened while init runs" "$(errno_of "${err##*: }")" ENXIO
	exec 3<"$L/blob"
	check "fail_init: blob reads while init runs" "$(read_dd bs=4 count=1 <&3)" read
	rc=0
	wait "$loader" || rc=$?
	check "fail_init: insmod fails" "$([ "$rc" != 0 ] && echo failed)" failed
	check "fail_init: the open blob then reads EIO" "$(read_dd bs=4 count=1 <&3)" \
		"read error: EIO"
	exec 3<&-
	check "fail_init: nothing left, no kernel report" \
		"$([ -e "$L" ] || echo gone) $(kernel_reports)" "gone $reports"

	if [ -e "$DEBUGFS/kmemleak" ]; then
		sleep 6
		kmemleak_scan
		echo clear 2>/dev/null >"$DEBUGFS/kmemleak" || true
		echo scan=600 2>/dev/null >"$DEBUGFS/kmemleak" || true
	fi
}

# memory PHASE: a KTAP comment with the free and slab memory after PHASE, so
# that a log shows which phase used up memory if one does.
memory() {
	ktap_print_msg "memory after $1:" \
		"$(awk '/^(MemAvailable|Slab|SUnreclaim):/ { printf "%s %s kB ", $1, $2 }' \
			/proc/meminfo)"
}

# kmemleak_scan: an immediate scan of kmemleak; a failure is noted in
# $TMP/kmemleak-scans.
kmemleak_scan() {
	err=$( (echo scan >"$DEBUGFS/kmemleak") 2>&1)
	[ -z "$err" ] ||
		printf ', a scan gave %s' "$(errno_of "${err##*: }")" >>"$TMP/kmemleak-scans"
}

run_cases() {
	# What kmemleak reports already, so that only new reports count.
	echo "(before the test)" >"$TMP/leaks-before"
	: >"$TMP/kmemleak-scans"
	if [ -e "$DEBUGFS/kmemleak" ]; then
		kmemleak_scan
		grep '^unreferenced object' "$DEBUGFS/kmemleak" >>"$TMP/leaks-before"
	fi
	memory start
	check "rust_debugfs_test_module loads" "$(load rust_debugfs_test_module && echo yes)" yes
	for phase in bad_input text_reads drop_in_use unload_open concurrency failslab \
		leftovers module_boundary; do
		"run_$phase"
		memory "$phase"
	done
	# One line the harness copies into its summary.
	ktap_print_msg "counts: $(tr '\n' ';' <"$TMP/bad-input-counts")" \
		"concurrency ops $(cat "$TMP/concurrency-ops")," \
		"churned $(cat "$TMP/churned" 2>/dev/null || echo 0)"
}

# The number of cases of each phase but bad_input, for the plan; failslab's
# is 3 without fault injection (one of them a skip).
TEXT_READS_CASES=28
DROP_IN_USE_CASES=12
UNLOAD_OPEN_CASES=15
CONCURRENCY_CASES=15
FAILSLAB_CASES=5
LEFTOVERS_CASES=4
MODULE_BOUNDARY_CASES=29

ktap_print_header
if ! grep -q debugfs /proc/mounts; then
	ktap_skip_all "DebugFS is not mounted"
	exit "$KSFT_SKIP"
fi
if ! have_module rust_debugfs_test_module; then
	ktap_skip_all "rust_debugfs_test_module.ko not found in $TESTMOD_DIR"
	exit "$KSFT_SKIP"
fi
# The plan comes first and each case is printed as it runs: a test cut
# short keeps what it had reported. It follows from BAD_INPUTS and the bad
# inputs themselves, and from whether the kernel has fault injection.
make_bad_inputs
ktap_set_plan $((1 + $(bad_input_cases) + TEXT_READS_CASES + DROP_IN_USE_CASES +
	UNLOAD_OPEN_CASES + CONCURRENCY_CASES +
	$([ -d "$DEBUGFS/failslab" ] && echo "$FAILSLAB_CASES" || echo 3) + LEFTOVERS_CASES +
	MODULE_BOUNDARY_CASES))
run_cases
ktap_finished
