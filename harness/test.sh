#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make test`: everything, from a bare machine to one verdict.
#
#   setup     toolchain roots, base tree, overlay, every configuration
#   build     test and debug kernels with clippy, DEBUG_FS=n rust/, and our
#             code with the newest Debian rustc and clippy
#   lint      warnings in our files, rustfmtcheck and rustdoc (minimum and
#             newest rustc), checkpatch.pl
#   boot      KUnit (Rust doctests included) and the selftests: the test
#             kernel, the test kernel with debugfs=off, the debug kernel;
#             the kernel log of each boot is scanned for reports
#
# Every KUnit case, every selftest case and every check above counts in the
# last line, "N passed, M failed". Exit: 0 all passed, 1 something failed,
# 2 setup failed (nothing could be tested).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --help ]; then
	sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi

H=$REPO/harness
RESULTS=$LOGS/results.txt
: >"$RESULTS"
declare -A STAGE_TIME
passed=0
failed=0

pass() {
	passed=$((passed + 1))
	echo "PASS $*" >>"$RESULTS"
}

fail() {
	failed=$((failed + 1))
	echo "FAIL $*" >>"$RESULTS"
	msg "FAIL: $*"
}

# check NAME CMD...: one pass or fail for one command.
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

stage() {
	STAGE_TIME[$1]=$(now)
}

stage_end() {
	STAGE_TIME[$1]=$(($(now) - STAGE_TIME[$1]))
}

# --- setup ------------------------------------------------------------
stage setup
for step in "chroot.sh" "source.sh" "overlay.sh" "config.sh test" "config.sh nodebugfs" \
	"config.sh debug"; do
	# shellcheck disable=SC2086 # step carries its argument.
	bash $H/$step || { msg "Setup step '$step' failed: nothing was tested."; exit 2; }
done
# The newest rustc only builds and lints; without it everything else runs.
newest_ok=yes
TOOLCHAIN=newest check "setup: newest Debian rustc" \
	sh -c "bash $H/chroot.sh && bash $H/config.sh newest test" || newest_ok=no
stage_end setup

# --- build ------------------------------------------------------------
# The selftests' test module, built as an external module of a kernel.
testmod() {
	echo M=/repo/tools/testing/selftests/rust/debugfs_testmod "MO=/cache/build/$1/testmod" modules
}

# build_check CONFIG LABEL TARGET...: a build check and a warnings check.
build_check() {
	local cfg=$1 label=$2 rc=0
	shift 2
	bash "$H/build.sh" "$cfg" "$@" || rc=$?
	case $rc in
	0) pass "build: $label"; pass "no warnings in our files: $label" ;;
	1) pass "build: $label"; fail "no warnings in our files: $label" ;;
	*) fail "build: $label (log: $LOGS/build-$cfg.log)" ;;
	esac
	return "$rc"
}

stage build
kernel_ok=yes
build_check test "test kernel (DEBUG_FS=y)" bzImage modules || [ $? = 1 ] || kernel_ok=no
if [ "$kernel_ok" = yes ]; then
	# shellcheck disable=SC2046 # testmod prints make arguments.
	build_check test "selftest module (test kernel)" $(testmod test) || true
	# The benchmark, smoke-tested in the test boot so that it cannot rot.
	build_check test "benchmark modules" M=/repo/harness/bench MO=/cache/build/test/bench \
		modules || true
	check "build: benchmark timing loop" in_chroot gcc -O2 -static -Wall \
		-o /cache/build/test/bench/dfsbench /repo/harness/bench/dfsbench.c
fi
build_check nodebugfs "kernel crate and doctests (DEBUG_FS=n)" rust/ || true
debug_ok=yes
build_check debug "debug kernel (KASAN, lockdep, kmemleak, UBSAN, failslab)" bzImage modules ||
	[ $? = 1 ] || debug_ok=no
if [ "$debug_ok" = yes ]; then
	# shellcheck disable=SC2046
	build_check debug "selftest module (debug kernel)" $(testmod debug) || true
fi
if [ "$newest_ok" = yes ]; then
	# Objects only: the kernel crate with its doctests, the samples, and our
	# out-of-tree modules, compiled and linted by the newest clippy-driver.
	TOOLCHAIN=newest build_check newest "kernel crate, doctests, samples (newest rustc)" \
		rust/ samples/rust/ || true
	TOOLCHAIN=newest build_check newest "selftest module (newest rustc)" \
		M=/repo/tools/testing/selftests/rust/debugfs_testmod \
		MO=/cache/build/newest/testmod rust_debugfs_testmod.o || true
	TOOLCHAIN=newest build_check newest "benchmark module (newest rustc)" \
		M=/repo/harness/bench MO=/cache/build/newest/bench rust_debugfs_bench.o || true
fi
stage_end build

# --- lint -------------------------------------------------------------
# Lines of a log that mention our files.
OURS='rust/kernel/debugfs|samples/rust/rust_debugfs|tools/testing/selftests/rust/.*debugfs'

# rustfmt_clean CONFIG, rustdoc_clean CONFIG: with CONFIG's toolchain.
rustfmt_clean() {
	local log=$LOGS/rustfmtcheck-$1.log
	in_chroot make -C /cache/src/linux O="/cache/build/$1" LLVM=1 rustfmtcheck >"$log" 2>&1 ||
		true
	if grep -E "Diff in .*($OURS)" "$log"; then
		msg "rustfmtcheck: see $log"
		return 1
	fi
}

rustdoc_clean() {
	local log=$LOGS/rustdoc-$1.log
	if ! in_chroot make -C /cache/src/linux O="/cache/build/$1" LLVM=1 -j"$JOBS" rustdoc \
		>"$log" 2>&1; then
		msg "rustdoc failed: see $log"
		return 1
	fi
	if grep -A4 '^warning' "$log" | grep -E -- "--> .*($OURS)"; then
		msg "rustdoc warnings in our files: see $log"
		return 1
	fi
}

stage lint
msg "Checking formatting (rustfmtcheck), documentation (rustdoc) and checkpatch.pl..."
check "rustfmtcheck: our files" rustfmt_clean test
check "rustdoc: no warnings in our files" rustdoc_clean test
if [ "$newest_ok" = yes ]; then
	TOOLCHAIN=newest check "rustfmtcheck: our files (newest rustfmt)" rustfmt_clean newest
	TOOLCHAIN=newest check "rustdoc: no warnings in our files (newest rustc)" \
		rustdoc_clean newest
fi
check "checkpatch.pl: the exported patch series" bash "$H/patches.sh"
stage_end lint

# --- boot -------------------------------------------------------------
count_kunit() {
	local log=$LOGS/kunit.log summary
	sed -n '1,/^GUEST-START/p' "$console" >"$LOGS/kunit-console.log"
	in_chroot python3 /cache/src/linux/tools/testing/kunit/kunit.py parse \
		/cache/logs/kunit-console.log >"$log" 2>&1 || true
	summary=$(grep -a 'Testing complete' "$log" | tail -n1)
	if [ -z "$summary" ]; then
		fail "KUnit: no results (log: $log)"
		return
	fi
	local p f s
	p=$(echo "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	f=$(echo "$summary" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
	s=$(echo "$summary" | sed -n 's/.*skipped: \([0-9]*\).*/\1/p')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	echo "KUNIT passed=${p:-0} failed=${f:-0} skipped=${s:-0}" >>"$RESULTS"
	local ours
	ours=$(grep -a -c '^\s*ok [0-9]* rust_doctest_kernel_debugfs' "$LOGS/kunit-console.log" || true)
	msg "KUnit: ${p:-0} passed, ${f:-0} failed, ${s:-0} skipped ($ours kernel::debugfs doctests passed; log: $log)"
	if [ "${f:-0}" != 0 ]; then
		grep -a 'not ok' "$LOGS/kunit-console.log" | head -n 20
	fi
}

count_selftests() {
	local name p f s ktap
	for name in $(sed -n 's/^SELFTEST-BEGIN //p' "$console" | tr -d '\r'); do
		ktap=$LOGS/$(basename "$console" -console.log)-$name.ktap
		sed -n "/^SELFTEST-BEGIN $name/,/^SELFTEST-END $name/p" "$console" | tr -d '\r' >"$ktap"
		p=$(grep -c '^ok [0-9]* .*' "$ktap" || true)
		s=$(grep -c '^ok [0-9]* .*# SKIP' "$ktap" || true)
		f=$(grep -c '^not ok ' "$ktap" || true)
		p=$((p - s))
		passed=$((passed + p))
		failed=$((failed + f))
		echo "SELFTEST $name passed=$p failed=$f skipped=$s" >>"$RESULTS"
		grep '^# counts:' "$ktap" >>"$RESULTS" || true
		msg "Selftest $name: $p passed, $f failed, $s skipped (log: $ktap)"
		grep '^not ok ' "$ktap" | head -n 30 || true
		# Exit 0 is a pass and 4 a skip (kselftest); anything else is a failure.
		grep -qE "^SELFTEST-END $name (0|4)$" "$ktap" || fail "selftest $name: exit status"
	done
	[ -n "$(sed -n 's/^SELFTEST-BEGIN //p' "$console")" ] || fail "selftests: none ran"
}

# Reports of the kernel's own bug detectors, anywhere in the boot.
REPORTS='WARNING:|BUG:|Oops|KASAN:|UBSAN:|suspected memory leak|unreferenced object|possible recursive locking|circular locking|refcount_t:|general protection|Call Trace:'

kernel_log_clean() {
	if grep -a -E "$REPORTS" "$console" | head -n 20 | grep .; then
		msg "Kernel reports found in $console"
		return 1
	fi
}

# boot_and_count CONFIG LABEL CONSOLE KERNEL_ARGS...: one boot running every
# selftest, with KUnit counted only where asked (KUNIT=yes). Arguments with
# '=' and no '.' reach init's environment, hence the selftests' settings.
boot_and_count() {
	local cfg=$1 label=$2
	console=$3
	shift 3
	if bash "$H/boot.sh" "$cfg" /guest/run-tests.sh "$console" "$@"; then
		pass "boot: $label ran the guest script"
		[ "${KUNIT:-no}" = yes ] && count_kunit
		count_selftests
		check "kernel log ($label): no warnings, BUGs or sanitizer reports" kernel_log_clean
	else
		fail "boot: $label (console: $console)"
	fi
}

stage boot
if [ "$kernel_ok" = yes ]; then
	# The long phases of the hostile test run in full on the debug kernel.
	# The benchmark smoke test needs allocation profiling switchable.
	KUNIT=yes boot_and_count test "test kernel" "$LOGS/test-console.log" \
		sysctl.vm.mem_profiling=0 DURATION=5 CHURN=300
	# DebugFS disabled at boot: the modules must load and unload as no-ops.
	boot_and_count test "test kernel, debugfs=off" "$LOGS/debugfs-off-console.log" \
		debugfs=off kunit.enable=0
else
	fail "boot: skipped, the test kernel did not build"
fi
if [ "$debug_ok" = yes ]; then
	# Every error path of the bad-input phase is already taken by its first
	# inputs; the full lists run on the test kernel.
	KUNIT=yes boot_and_count debug "debug kernel" "$LOGS/debug-console.log" \
		DURATION=60 CHURN=3000 BAD_INPUTS=15
else
	fail "boot: skipped, the debug kernel did not build"
fi
stage_end boot

# --- summary ----------------------------------------------------------
msg "Stage times: setup ${STAGE_TIME[setup]} s, build ${STAGE_TIME[build]} s," \
	"lint ${STAGE_TIME[lint]} s, boot ${STAGE_TIME[boot]} s. Results: $RESULTS"
if [ "$failed" != 0 ]; then
	grep '^FAIL' "$RESULTS" || true
	msg "Logs are in $LOGS. To rerun only a boot: bash harness/boot.sh test /guest/run-tests.sh $console"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
