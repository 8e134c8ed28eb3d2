#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: our kernel::debugfs and upstream's own, each against C
# DebugFS in one boot. Two kernels of configs/upstream.config, 'bench' (ours)
# and 'upstream-base' (pristine; the Rust module with --cfg upstream_debugfs)
# run the measurements of guest/bench.sh, Rust and C alternating; probe
# modules give the code size of one more file type or callback.
#
# Ratios against C come from one boot; ours/upstream is their quotient.
# BOOTS=n repeats the pair of boots (alternating which goes first); each
# kernel also boots counting instructions (boot.sh's ICOUNT=1); MEASURE=time
# or instructions does one kind only; ITER, BATCHES, ROUNDS and N, if set,
# reach the guest. CSVs go to $CACHE/bench/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

H=$REPO/harness
BOOTS=${BOOTS:-1}
MEASURE=${MEASURE:-both}
case $MEASURE in
both) kinds=(time instructions) ;;
time | instructions) kinds=("$MEASURE") ;;
*) die "MEASURE is both, time or instructions, not '$MEASURE'" ;;
esac
setup
base_worktree "$CACHE/src/upstream-base"

# build CFG TREE ARGS...: build.sh for CFG from the tree $CACHE/src/TREE.
# Warnings do not stop a benchmark: make test is where they fail.
build() {
	local cfg=$1 tree=$2
	shift 2
	KSRC=/cache/src/$tree bash "$H/build.sh" "$cfg" "$@" || [ $? = 3 ]
}
declare -A tree=([bench]=linux [upstream-base]=upstream-base)
declare -A krustflags=([bench]= [upstream-base]="--cfg upstream_debugfs")
for cfg in bench upstream-base; do
	KSRC=/cache/src/${tree[$cfg]} bash "$H/config.sh" "$cfg" upstream
	build "$cfg" "${tree[$cfg]}" bzImage modules
	msg "Building the benchmark modules against '$cfg'..."
	build "$cfg" "${tree[$cfg]}" M=/repo/harness/bench MO="/cache/build/$cfg/bench" \
		KRUSTFLAGS="${krustflags[$cfg]}" modules
done
in_chroot gcc -O2 -static -Wall -o /cache/build/bench/bench/dfsbench \
	/repo/harness/bench/dfsbench.c
cp "$CACHE/build/bench/bench/dfsbench" "$CACHE/build/upstream-base/bench/dfsbench"

# Code size: the probe modules built four ways against each kernel.
out=$CACHE/bench
mkdir -p "$out"
sizes=$out/sizes.csv
section_bytes() {
	# Sums the sizes of the .text* or .rodata* sections of an object.
	in_chroot llvm-size -A "$1" | awk -v want="$2" \
		'index($1, want) == 1 { sum += $2 } END { print sum + 0 }'
}
for cfg in bench upstream-base; do
	for variant in base type callback binary; do
		case $variant in
		base) flags=() ;;
		type) flags=(KRUSTFLAGS="--cfg extra_type" KCFLAGS=-DEXTRA_U32) ;;
		callback) flags=(KRUSTFLAGS="--cfg extra_callback" KCFLAGS=-DEXTRA_SHOW) ;;
		binary) flags=(KRUSTFLAGS="--cfg extra_binary" KCFLAGS=-DEXTRA_BLOB) ;;
		esac
		logged "$LOGS/bench-size-$cfg-$variant.log" in_chroot make \
			-C "/cache/src/${tree[$cfg]}" O="/cache/build/$cfg" LLVM=1 \
			M=/repo/harness/bench/size MO="/cache/build/$cfg/size-$variant" \
			"${flags[@]}" modules
	done
done
# cost CFG OBJECT EXTRA SECTION: the bytes of SECTION that EXTRA adds to
# OBJECT (rust or c) of the probe built against CFG.
cost() {
	local o=debugfs_size.o before after
	before=$(section_bytes "/cache/build/$1/size-base/$2_$o" "$4")
	after=$(section_bytes "/cache/build/$1/size-$3/$2_$o" "$4")
	echo $((after - before))
}
: >"$sizes"
for section in .text .rodata; do
	for extra in type callback binary; do
		case $extra in
		type) label="one more file type (C: u32)" ;;
		callback) label="one more callback (C: show attr)" ;;
		binary) label="one more binary type (C: blob)" ;;
		esac
		printf 'code,%s: %s,%s,%s,%s\n' "$section" "$label" \
			"$(cost bench rust "$extra" "$section")" \
			"$(cost upstream-base rust "$extra" "$section")" \
			"$(cost bench c "$extra" "$section")" >>"$sizes"
	done
done

# The guest's knobs (guest/bench.sh) that are set here reach it as kernel
# arguments, which the kernel hands to init as its environment.
knobs=()
for knob in ITER BATCHES ROUNDS N; do
	[ -z "${!knob:-}" ] || knobs+=("$knob=${!knob}")
done

csv=$out/results.csv
icsv=$out/instructions.csv
rm -f "$csv" "$icsv"
# Upstream's Rust module lacks our extra API's files: their rows are left out.
declare -A api=([bench]=ours [upstream-base]=upstream)
for boot in $(seq "$BOOTS"); do
	order=(bench upstream-base)
	[ $((boot % 2)) = 1 ] || order=(upstream-base bench)
	for kind in "${kinds[@]}"; do
		case $kind in
		time) name=bench icount=0 ;;
		instructions) name=bench-icount icount=1 ;;
		esac
		start=$(now)
		for cfg in "${order[@]}"; do
			console=$LOGS/$name-$cfg-$boot.log
			# Allocation profiling is off but for the guest's memory phase.
			ICOUNT=$icount bash "$H/boot.sh" "$cfg" /guest/bench.sh "$console" \
				sysctl.vm.mem_profiling=0 BENCH_API="${api[$cfg]}" BENCH_MODE="$kind" \
				"${knobs[@]}"
			grep -q '^BENCH done' "$console" || die "the benchmark did not finish; see $console"
		done
		msg "Boots $boot of $BOOTS, $kind, in $(($(now) - start)) s (ours:" \
			"$LOGS/$name-bench-$boot.log, upstream: $LOGS/$name-upstream-base-$boot.log):"
		if [ "$kind" = time ]; then
			python3 "$H/bench/tabulate.py" "$boot" "$LOGS/bench-bench-$boot.log" \
				"$LOGS/bench-upstream-base-$boot.log" "$sizes" "$csv"
		else
			python3 "$H/bench/tabulate.py" --instructions "$boot" \
				"$LOGS/$name-bench-$boot.log" "$LOGS/$name-upstream-base-$boot.log" "$icsv"
		fi
	done
done
if [ -f "$icsv" ] && [ "$BOOTS" -gt 1 ]; then
	python3 "$H/bench/tabulate.py" --compare "$icsv"
fi
for f in "$csv" "$icsv"; do
	[ ! -f "$f" ] || msg "CSV: $f"
done
