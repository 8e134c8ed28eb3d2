#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script of `make bench`: the same measurement on kernel::debugfs
# files and on their C equivalents, alternating, in one boot. Prints
# "BENCH <metric> <variant> <values...>" lines for the host to tabulate.
#
# BENCH_API=upstream: the Rust module has upstream's API only, and the rows
# of our extra files are left out; any other missing file fails the run.
# BENCH_MODE=instructions: the boot counts instructions, the same on every
# boot: one round per row, no allocation counts, and open+close and a spin
# loop that proves the counting.
insmod /modules/c_debugfs_bench.ko || exit 1
insmod /modules/rust_debugfs_bench.ko || exit 1
R=/sys/kernel/debug/debugfs_bench_rust
C=/sys/kernel/debug/debugfs_bench_c
B=/bench/dfsbench
API=${BENCH_API:-ours}
MODE=${BENCH_MODE:-time}
case $API in
ours | upstream) ;;
*) echo "BENCH_API is ours or upstream, not $API" && exit 1 ;;
esac
case $MODE in
time) ;;
instructions)
	ROUNDS=${ROUNDS:-1}
	BATCHES=${BATCHES:-9}
	;;
*) echo "BENCH_MODE is time or instructions, not $MODE" && exit 1 ;;
esac
ITER=${ITER:-2000}
BATCHES=${BATCHES:-21}
ROUNDS=${ROUNDS:-7}
echo "BENCH-MODE $MODE $API"
failed=

# second WORD...: the second word, the file of a dfsbench argument list.
second() {
	echo "$2"
}

# missing FILE...: whether one of the files is missing; names each one.
missing() {
	gone=1
	for f; do
		[ -e "$f" ] && continue
		echo "BENCH-MISSING $f"
		gone=0
	done
	return $gone
}

# ours ROW...: a row of our API only, left out if the Rust module has
# upstream's.
ours() {
	[ "$API" = upstream ] || "$@"
}

# counting ROW...: a row of the instruction-counting boot only.
counting() {
	[ "$MODE" != instructions ] || "$@"
}

# spin COUNT: dfsbench's loop of 2 * COUNT instructions, as row spin_COUNT.
spin() {
	echo "BENCH spin_$1 c $($B spin "$1" "$ITER" "$BATCHES")"
}

# pair METRIC RUST_ARGS -- C_ARGS: the two, ROUNDS times each, alternating
# which goes first.
pair() {
	metric=$1
	shift
	rust=
	while [ "$1" != -- ]; do
		rust="$rust $1"
		shift
	done
	shift
	# shellcheck disable=SC2086 # an argument list.
	if missing "$(second $rust)" "$2"; then
		failed=1
		return
	fi
	round=0
	while [ "$round" -lt "$ROUNDS" ]; do
		if [ $((round % 2)) = 0 ]; then
			# shellcheck disable=SC2086 # argument lists.
			echo "BENCH $metric rust $($B $rust)"
			echo "BENCH $metric c $($B "$@")"
		else
			echo "BENCH $metric c $($B "$@")"
			# shellcheck disable=SC2086 # argument lists.
			echo "BENCH $metric rust $($B $rust)"
		fi
		round=$((round + 1))
	done
}

# floor METRIC ARGS: the C file that does nothing (null), ROUNDS times.
floor() {
	metric=$1
	shift
	if missing "$2"; then
		failed=1
		return
	fi
	for round in $(seq "$ROUNDS"); do
		echo "BENCH $metric c $($B "$@")"
	done
}

pair open_read_close_u64 open $R/u64 $ITER $BATCHES -- open $C/u64 $ITER $BATCHES
# C's integer files are not seekable: no C counterpart.
pair pread_u64 pread $R/u64 64 $ITER $BATCHES -- pread $R/u64 64 $ITER $BATCHES
pair write_u64 write $R/u64 5 $ITER $BATCHES -- write $C/u64 5 $ITER $BATCHES
pair open_read_close_show open $R/callback $ITER $BATCHES -- open $C/show $ITER $BATCHES
pair pread_show pread $R/callback 64 $ITER $BATCHES -- pread $C/show 64 $ITER $BATCHES
pair pread_blob_4k pread $R/blob4k 4096 $ITER $BATCHES -- pread $C/blob4k 4096 $ITER $BATCHES
pair pread_blob_1m pread $R/blob1m 1048576 20 $BATCHES -- pread $C/blob1m 1048576 20 $BATCHES
ours pair open_read_close_x64 open $R/x64 $ITER $BATCHES -- open $C/x64 $ITER $BATCHES
ours pair write_x64 write $R/x64 5 $ITER $BATCHES -- write $C/x64 5 $ITER $BATCHES
ours pair open_read_close_records open $R/records $ITER $BATCHES -- open $C/records $ITER $BATCHES
# The whole file, 100000 records (2.3 MB), in reads of 64 KiB.
SLURPS=$(((ITER + 999) / 1000))
ours pair slurp_records slurp $R/records 65536 $SLURPS $BATCHES -- slurp $C/records 65536 $SLURPS $BATCHES
# The same text, each record put together by hand: what writeln! costs.
if [ "$API" = ours ] && [ -e $R/records_by_hand ] && ! cmp -s $R/records_by_hand $C/records; then
	echo "records_by_hand does not show the C records' text"
	exit 1
fi
ours pair slurp_records_by_hand slurp $R/records_by_hand 65536 $SLURPS $BATCHES -- \
	slurp $C/records 65536 $SLURPS $BATCHES
ours pair open_read_close_regs open $R/regs $ITER $BATCHES -- open $C/regs $ITER $BATCHES

# The floor: the same calls on a C file that does nothing (VFS and proxy).
floor floor_open_read_close open $C/null $ITER $BATCHES
floor floor_pread pread $C/null 64 $ITER $BATCHES
floor floor_write write $C/null 5 $ITER $BATCHES

# Counted only: open and release without a read; loops of 2 * 1000 and
# 2 * 2000 instructions (see dfsbench.c).
counting pair open_close_u64 openclose $R/u64 $ITER $BATCHES -- openclose $C/u64 $ITER $BATCHES
counting pair open_close_show openclose $R/callback $ITER $BATCHES -- \
	openclose $C/show $ITER $BATCHES
counting ours pair open_close_records openclose $R/records $ITER $BATCHES -- \
	openclose $C/records $ITER $BATCHES
counting floor floor_open_close openclose $C/null $ITER $BATCHES
counting spin 1000
counting spin 2000

# Live allocations and their bytes over /proc/allocinfo (exact, unlike slab
# statistics), profiling on for this phase of the timing boot only.
live() {
	awk '$1 ~ /^[0-9]+$/ { bytes += $1; calls += $2 } END { print calls, bytes }' /proc/allocinfo
}
N=${N:-1000}
alloc() {
	metric=$1 variant=$2 control=$3 kind=$4
	echo release >"$control"
	before=$(live)
	echo "hold $kind $N" >"$control"
	after=$(live)
	echo release >"$control"
	echo "BENCH $metric $variant $N $before $after"
}
if [ "$MODE" = time ]; then
	echo 1 >/proc/sys/vm/mem_profiling || exit 1
	for round in $(seq "$ROUNDS"); do
		alloc alloc_text rust $R/bench/control text
		alloc alloc_text c $C/control u64
		alloc alloc_callback rust $R/bench/control callback
		alloc alloc_callback c $C/control show
		alloc alloc_binary rust $R/bench/control binary
		alloc alloc_binary c $C/control blob
		alloc alloc_scoped rust $R/bench/control scoped
	done

	# What an open descriptor, read once, costs (N held open).
	for round in $(seq "$ROUNDS"); do
		echo "BENCH open_u64 rust $($B hold $R/u64 "$N")"
		echo "BENCH open_u64 c $($B hold $C/u64 "$N")"
		echo "BENCH open_show rust $($B hold $R/callback "$N")"
		echo "BENCH open_show c $($B hold $C/show "$N")"
		if [ "$API" = ours ] && missing $R/records; then
			failed=1
		elif [ "$API" = ours ]; then
			echo "BENCH open_records rust $($B hold $R/records "$N")"
			echo "BENCH open_records c $($B hold $C/records "$N")"
		fi
	done
	echo 0 >/proc/sys/vm/mem_profiling
fi

for n in ${SIZES:-10 100 1000 10000}; do
	for round in $(seq "$ROUNDS"); do
		echo "churn $n" >$R/bench/control
		echo "BENCH churn_$n rust $(cat $R/bench/result)"
		echo "churn $n" >$C/control
		echo "BENCH churn_$n c $(cat $C/result)"
		echo "churn-shared $n" >$R/bench/control
		echo "BENCH churn_shared_$n rust $(cat $R/bench/result)"
		echo "churn $n" >$C/control
		echo "BENCH churn_shared_$n c $(cat $C/result)"
	done
done
rmmod rust_debugfs_bench c_debugfs_bench
if [ -n "$failed" ]; then
	echo "BENCH-FAILED: rows above could not be measured"
	exit 1
fi
echo "BENCH done"
