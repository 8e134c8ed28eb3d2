#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: kernel::debugfs against C DebugFS, measured in one boot.
#
# Builds the benchmark modules (harness/bench/) and a static user-space
# timing loop, boots the test kernel, and runs the same measurements on our
# files and on their C equivalents, alternating. Code size is measured from
# objects built with and without one more file type or callback. Prints one
# table; the CSV goes to $CACHE/bench/results.csv. Every figure is a ratio
# or a count from the same boot: no absolute timing is compared across runs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

H=$REPO/harness
prepare_test_kernel

out=$CACHE/bench
mkdir -p "$out"
msg "Building the benchmark modules and the timing loop..."
bash "$H/build.sh" test M=/repo/harness/bench MO=/cache/build/test/bench modules || [ $? = 3 ]
in_chroot gcc -O2 -static -Wall -o /cache/build/test/bench/dfsbench /repo/harness/bench/dfsbench.c

# Code size: the probe modules built three ways each.
sizes=$out/sizes.csv
section_bytes() {
	# Sums the sizes of the .text* and .rodata* sections of an object.
	in_chroot llvm-size -A "$1" | awk -v want="$2" \
		'index($1, want) == 1 { sum += $2 } END { print sum + 0 }'
}
probe() {
	local variant=$1
	shift
	logged "$LOGS/bench-size-$variant.log" in_chroot make -C /cache/src/linux \
		O=/cache/build/test LLVM=1 M=/repo/harness/bench/size \
		MO="/cache/build/test/size-$variant" "$@" modules
}
probe base
probe type KRUSTFLAGS="--cfg extra_type" KCFLAGS=-DEXTRA_U32
probe callback KRUSTFLAGS="--cfg extra_callback" KCFLAGS=-DEXTRA_SHOW
: >"$sizes"
for section in .text .rodata; do
	for extra in type callback; do
		r0=$(section_bytes /cache/build/test/size-base/rust_debugfs_size.o "$section")
		r1=$(section_bytes "/cache/build/test/size-$extra/rust_debugfs_size.o" "$section")
		c0=$(section_bytes /cache/build/test/size-base/c_debugfs_size.o "$section")
		c1=$(section_bytes "/cache/build/test/size-$extra/c_debugfs_size.o" "$section")
		label=$([ "$extra" = type ] && echo "one more file type (C: u32)" ||
			echo "one more callback (C: show attr)")
		echo "code,$section: $label,$((r1 - r0)),$((c1 - c0))" >>"$sizes"
	done
done

console=$LOGS/bench-console.log
# Allocation profiling is built in but off; this lets the guest turn it on
# for the memory phase alone.
bash "$H/boot.sh" test /guest/bench.sh "$console" sysctl.vm.mem_profiling=0
grep -q '^BENCH done' "$console" || die "the benchmark did not finish; see $console"
python3 "$H/bench/tabulate.py" "$console" "$sizes" "$out/results.csv"
msg "CSV: $out/results.csv"
