#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make test`: everything, from a bare machine to one verdict.
#
#   setup  toolchain roots, base tree, configurations
#   build  test, debug, randomised-layout and arm64 kernels with clippy;
#          DEBUG_FS=n; objects for ARMv7 and s390; the newest rustc;
#          upstream's samples; the snippets that must not compile
#   lint   rustfmtcheck, rustdoc, checkpatch.pl of both series
#   boot   KUnit and the selftests on each kernel (harness/boot.sh), counted
#          against harness/expect/ with the kernel log (harness/verdict.sh)
#
# The last line, printed whatever happens: "N passed, M failed, K skipped".
# Exit: 0 all passed, 1 something failed, 2 setup failed.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '3,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
fi
# Until the counting below is in place, an exit is a run that could not start.
trap 'echo "make test could not start"; echo "0 passed, 1 failed, 0 skipped"; exit 2' EXIT
. "$(dirname "$0")/lib.sh"

H=$REPO/harness
EXPECT=$H/expect
RESULTS=$LOGS/results.txt
. "$H/verdict.sh"
declare -A STAGE_TIME

# An exit before the summary (a bug here, a signal) is one more failure.
finished=no
setup_failed=no
on_exit() {
	local rc=$?
	set +e
	[ "$finished" = yes ] && return
	stop_background
	if [ "$setup_failed" = yes ]; then
		verdict_line
		exit 2
	fi
	fail "harness: make test ended early (exit $rc)"
	verdict_line
	exit 1
}
trap on_exit EXIT
: >"$RESULTS"
# What is judged: the files as they are now, before the overlay copies them.
judged=$(judged_commit)

stage() {
	STAGE_TIME[$1]=$(now)
}

stage_end() {
	STAGE_TIME[$1]=$(($(now) - STAGE_TIME[$1]))
}

# --- setup ------------------------------------------------------------
stage setup
if ! setup test nodebugfs debug random:test arm64 arm; then
	fail "setup: toolchain root, base tree, configurations (nothing could be tested)"
	setup_failed=yes
	exit 2
fi
# The newest rustc only builds and lints; without it everything else runs.
newest_ok=no
TOOLCHAIN=newest check "setup: newest Debian rustc" \
	sh -c "bash $H/chroot.sh && bash $H/config.sh newest test && bash $H/config.sh s390" &&
	newest_ok=yes
# The counting itself, against fake logs with planted defects: seconds.
harness_log=$LOGS/selftest-harness.log
bash "$H/selftest-harness.sh" >"$harness_log" 2>&1 || true
boot_verdict "harness" "$EXPECT/harness" "$harness_log" -
# The base-tree lookup's fall-forward and DEBUGFS_BASE, on fake archives.
source_log=$LOGS/source-test.log
bash "$H/source-test.sh" >"$source_log" 2>&1 || true
boot_verdict "base tree lookup" "$EXPECT/source-test" "$source_log" -
stage_end setup

# --- build ------------------------------------------------------------
# kselftest_config CONFIG: CONFIG's .config has every option of selftests/rust/config.
kselftest_config() {
	local missing
	missing=$(grep -vxF -f "$CACHE/build/$1/.config" "$TREE/tools/testing/selftests/rust/config" |
		grep -v '^# CONFIG_.* is not set$' || true)
	[ -z "$missing" ] || { msg "not in the $1 kernel's .config: $missing"; return 1; }
}

stage build
# The object builds (ARMv7, newest rustc, s390) run beside the kernels: an
# incremental build spends most of its time in one rustc, leaving a core
# idle. object_builds records each exit status; objects counts them.
OBJECTS=$LOGS/objects
rm -rf "$OBJECTS"
mkdir -p "$OBJECTS"
object_builds() {
	local cfg=$1 n=0 rc args
	for args in "rust/ samples/rust/" \
		"M=/repo/tools/testing/selftests/rust/debugfs_test_module MO=/cache/build/$cfg/testmod rust_debugfs_test_module.o" \
		"M=/repo/harness/bench MO=/cache/build/$cfg/bench rust_debugfs_bench.o"; do
		n=$((n + 1))
		rc=0
		# shellcheck disable=SC2086 # args is a list of words.
		bash "$H/build.sh" "$cfg" $args >>"$OBJECTS/$cfg.out" 2>&1 || rc=$?
		echo "$rc" >"$OBJECTS/$cfg-$n.rc"
	done
}
(
	object_builds arm
	if [ "$newest_ok" = yes ]; then
		TOOLCHAIN=newest object_builds newest
		# s390 needs a target rustc 1.85.1 does not have.
		TOOLCHAIN=newest object_builds s390
	fi
) &
BACKGROUND[objects]=$!
kernel_ok=yes
build_check test "test kernel (DEBUG_FS=y)" bzImage modules || [ $? = 3 ] || kernel_ok=no
if [ "$kernel_ok" = yes ]; then
	kselftest_check test "kselftest install: selftests and test module (test kernel)" || true
	check "kselftest config: the test kernel has every option of selftests/rust/config" \
		kselftest_config test || true
	bench_checks test
	# make bench's Rust module with only the API upstream has too.
	build_check test "benchmark module with upstream's API only (test)" M=/repo/harness/bench \
		MO=/cache/build/test/bench-upstream-api KRUSTFLAGS="--cfg upstream_debugfs" \
		rust_debugfs_bench.o || true
	# Its code-size probes, with every extra file at once.
	build_check test "benchmark code-size probes (test)" M=/repo/harness/bench/size \
		MO=/cache/build/test/size-all KCFLAGS="-DEXTRA_U32 -DEXTRA_SHOW -DEXTRA_BLOB" \
		KRUSTFLAGS="--cfg extra_type --cfg extra_callback --cfg extra_binary" modules || true
fi
# upstream_samples: the pristine base's two DebugFS samples, built against ours.
upstream_samples() {
	local dir=$CACHE/build/test/upstream-samples base sample
	base=$(base_repo) || return 1
	rm -rf "$dir"
	mkdir -p "$dir"
	for sample in rust_debugfs rust_debugfs_scoped; do
		git -C "$base" show "base:samples/rust/$sample.rs" >"$dir/$sample.rs" || return 1
	done
	echo "obj-m += rust_debugfs.o rust_debugfs_scoped.o" >"$dir/Kbuild"
	in_chroot make -C /cache/src/linux O=/cache/build/test LLVM=1 -j"$JOBS" \
		M=/cache/build/test/upstream-samples modules >"$LOGS/build-upstream-samples.log" 2>&1
}

if [ "$kernel_ok" = yes ]; then
	check "build: upstream 7.3's own samples against our kernel::debugfs" upstream_samples ||
		true
	# The safety rules: snippets that must not compile, each with a twin that must.
	bash "$H/compile-fail.sh" >"$LOGS/compile-fail.log" 2>&1 || true
	boot_verdict "safety rules" "$EXPECT/compile-fail" "$LOGS/compile-fail.log" -
fi
build_check nodebugfs "kernel crate and doctests (DEBUG_FS=n)" rust/ || true
# The test kernel with every repr(Rust) type's fields shuffled: no code may
# rely on a layout Rust does not guarantee.
RANDOM_LAYOUT=KRUSTFLAGS=-Zrandomize-layout
random_ok=yes
build_check random "test kernel with randomised Rust layouts" "$RANDOM_LAYOUT" bzImage modules ||
	[ $? = 3 ] || random_ok=no
if [ "$random_ok" = yes ]; then
	kselftest_check random "kselftest install (randomised layouts)" "$RANDOM_LAYOUT" || true
fi
debug_ok=yes
build_check debug "debug kernel (KASAN, lockdep, kmemleak, UBSAN, failslab)" bzImage modules ||
	[ $? = 3 ] || debug_ok=no
if [ "$debug_ok" = yes ]; then
	kselftest_check debug "kselftest install (debug kernel)" || true
fi
# arm64 is built and booted; ARMv7 (32-bit, unsigned char) and s390
# (big-endian) are built as objects.
arm64_ok=yes
build_check arm64 "arm64 test kernel" Image modules || [ $? = 3 ] || arm64_ok=no
if [ "$arm64_ok" = yes ]; then
	kselftest_check arm64 "kselftest install (arm64)" || true
	bench_checks arm64
fi
# objects CONFIG WHAT: the object builds of CONFIG; one that left no status failed.
object_status() {
	local rc
	rc=$(cat "$OBJECTS/$1.rc" 2>/dev/null) || rc=1
	return "$rc"
}
objects() {
	cat "$OBJECTS/$1.out" 2>/dev/null || true
	local logs="$LOGS/build-$1*.log" what
	for what in "1 kernel crate, doctests, samples" "2 selftest module" "3 benchmark module"; do
		counted_build "${what#* } ($2)" "$logs" object_status "$1-${what%% *}" || true
	done
}
wait "${BACKGROUND[objects]}" || true
unset "BACKGROUND[objects]"
objects arm "ARMv7"
if [ "$newest_ok" = yes ]; then
	objects newest "newest rustc"
	objects s390 "s390, big-endian, newest rustc"
fi
stage_end build

# --- lint -------------------------------------------------------------
# Lines of a log that mention our files.
OURS='rust/kernel/debugfs|samples/rust/rust_debugfs|tools/testing/selftests/rust/.*debugfs'

# rustfmt_clean CONFIG: our files are formatted (a failure without a diff
# means rustfmtcheck did not run).
rustfmt_clean() {
	local log=$LOGS/rustfmtcheck-$1.log rc=0
	in_chroot make -C /cache/src/linux O="/cache/build/$1" LLVM=1 rustfmtcheck >"$log" 2>&1 ||
		rc=$?
	if grep -E "Diff in .*($OURS)" "$log"; then
		msg "rustfmtcheck: see $log"
		return 1
	fi
	if [ "$rc" != 0 ] && ! grep -q "Diff in " "$log"; then
		msg "rustfmtcheck failed ($rc) without a diff: see $log"
		return 1
	fi
}

# rustdoc_clean CONFIG: no rustdoc warning in our files (CLIPPY=1 as the
# builds, or make rebuilds the Rust libraries twice).
rustdoc_clean() {
	local log=$LOGS/rustdoc-$1.log
	if ! in_chroot make -C /cache/src/linux O="/cache/build/$1" LLVM=1 CLIPPY=1 -j"$JOBS" \
		rustdoc >"$log" 2>&1; then
		msg "rustdoc failed: see $log"
		return 1
	fi
	if grep -A4 '^warning' "$log" | grep -E -- "--> .*($OURS)"; then
		msg "rustdoc warnings in our files: see $log"
		return 1
	fi
}

# The debug kernel's boot, the longest, runs beside the lint stage and the
# other boots and is counted last. BAD_INPUTS=15 takes every error path;
# sharing the cores, KUnit under KASAN takes 11 minutes and the selftests
# 14: it gets 2400 s.
if [ "$debug_ok" = yes ]; then
	BOOT_TIMEOUT=2400 boot_start debug debug-boot DURATION=60 CHURN=3000 BAD_INPUTS=15 \
		watchdog_thresh=30
fi

stage lint
msg "Checking formatting (rustfmtcheck), documentation (rustdoc) and checkpatch.pl..."
check "rustfmtcheck: our files" rustfmt_clean test || true
check "rustdoc: no warnings in our files" rustdoc_clean test || true
if [ "$newest_ok" = yes ]; then
	TOOLCHAIN=newest check "rustfmtcheck: our files (newest rustfmt)" rustfmt_clean newest ||
		true
	TOOLCHAIN=newest check "rustdoc: no warnings in our files (newest rustc)" \
		rustdoc_clean newest || true
fi
check "patch series: checkpatch.pl --strict clean, the mails give our tree" \
	bash "$H/patches.sh" || true
# The fixes for the base's own kernel::debugfs, exported and checked
# without building (`make upstream-fixes` builds and boots them).
upstream_series() {
	BUILD=0 bash "$H/upstream-fixes.sh" >"$LOGS/upstream-fixes-run.log" 2>&1
}
check "upstream fixes: the series is exported (log: $LOGS/upstream-fixes-run.log)" \
	upstream_series || true
boot_verdict "upstream fixes" "$EXPECT/upstream-fixes-series" "$LOGS/upstream-fixes.log" -
check "kunit.py config: rust/kernel/debugfs/.kunitconfig configures" \
	env CONFIG_ONLY=1 bash "$H/kunit.sh" || true
stage_end lint

# --- boot -------------------------------------------------------------
stage boot
if [ "$kernel_ok" = yes ]; then
	# shellcheck disable=SC2086 # the arguments are words.
	boot_and_count test "test kernel" test-boot $TEST_BOOT_ARGS
	# DebugFS disabled at boot: the modules must load and unload as no-ops.
	boot_and_count test "test kernel, debugfs=off" debugfs-off-boot debugfs=off kunit.enable=0
else
	fail "boot: skipped, the test kernel did not build"
fi
if [ "$random_ok" = yes ]; then
	# shellcheck disable=SC2086 # the arguments are words.
	boot_and_count random "test kernel, randomised layouts" random-boot $TEST_BOOT_ARGS
else
	fail "boot: skipped, the randomised test kernel did not build"
fi
if [ "$arm64_ok" = yes ]; then
	# shellcheck disable=SC2086 # the arguments are words.
	boot_and_count arm64 "arm64 test kernel" arm64-boot $TEST_BOOT_ARGS
else
	fail "boot: skipped, the arm64 test kernel did not build"
fi
if [ "$debug_ok" = yes ]; then
	boot_count "debug kernel" debug-boot
else
	fail "boot: skipped, the debug kernel did not build"
fi
stage_end boot

# --- summary ----------------------------------------------------------
msg "Stage times: setup ${STAGE_TIME[setup]} s, build ${STAGE_TIME[build]} s," \
	"lint ${STAGE_TIME[lint]} s, boot ${STAGE_TIME[boot]} s. Results: $RESULTS"
if [ "$failed" != 0 ]; then
	grep '^FAIL' "$RESULTS" || true
	msg "Logs are in $LOGS. To rerun only a boot:" \
		"bash harness/boot.sh test /guest/run-tests.sh $LOGS/test-boot.log"
fi
finished=yes
verdict_line
# For the cover letter of `make patches`.
echo "$(verdict_line) ($(date -u +%F), commit $judged)" >"$LOGS/verdict.txt"
[ "$failed" = 0 ]
