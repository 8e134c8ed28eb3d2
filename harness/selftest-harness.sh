#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness's own test: plants defects in small fake logs and proves that
# harness/verdict.sh turns each into a named failure, and that the unchanged
# logs pass. No boot, no build. `make test` counts its KTAP like a selftest's.
# shellcheck disable=SC2016 # single-quoted code, for eval and bash -c
set -euo pipefail
. "$(dirname "$0")/lib.sh"

work=$CACHE/selftest-harness
rm -rf "$work"
mkdir -p "$work"
LOGS=$work
RESULTS=$work/results
. "$REPO/harness/verdict.sh"

# --- the fake logs ------------------------------------------------------------

# A kernel log as boot.sh captures it: KUnit with two kernel::debugfs
# doctests and one other case, then init, then the guest's end line.
kunit_lines() {
	cat <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: rust_doctests_kernel
    # module: kernel
    1..3
    ok 1 rust_doctest_kernel_debugfs_rs_0
    ok 2 rust_doctest_kernel_debugfs_rs_1
    ok 3 rust_doctest_kernel_sync_rs_0
# rust_doctests_kernel: pass:3 fail:0 skip:0 total:3
# Totals: pass:3 fail:0 skip:0 total:3
ok 1 rust_doctests_kernel
EOF
}

kernel_log() {
	echo "Linux version 7.3.4 (fake) #1 SMP"
	echo "Command line: console=ttyS0"
	echo "smp: Brought up 1 node, 2 CPUs"
	echo "kmemleak: Kernel memory leak detector initialized (mem pool available: 15867)"
	echo "kmemleak: Automatic memory scanning thread started"
	kunit_lines
	echo "Run /init as init process"
	echo "debugfs: out of free dentries, can not create file 'x'"
	echo "$KMSG_END"
}

# The guest's output: a suite with one skipped case, and a suite that skips
# whole, as run-tests.sh prints them.
suite_alpha() {
	cat <<'EOF'
SELFTEST-BEGIN alpha
TAP version 13
1..3
ok 1 alpha: first
ok 2 alpha: second
ok 3 alpha: third # SKIP not in this kernel
# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0
SELFTEST-END alpha 0
EOF
}

suite_beta() {
	cat <<'EOF'
SELFTEST-BEGIN beta
TAP version 13
1..0 # SKIP DebugFS is not disabled at boot
SELFTEST-END beta 4
EOF
}

guest_log() {
	echo "GUEST-START /guest/run-tests.sh"
	suite_alpha
	suite_beta
	echo "GUEST-EXIT 0"
}

expectations() {
	echo "kunit 3 0 2"
	echo "suite alpha 3 1"
	echo "suite beta skip-all"
}

# --- running a case -------------------------------------------------------------

# in_verdict CODE [ARG...]: CODE in a bash of its own with `set -euo
# pipefail`, as test.sh runs the verdict functions (LOGS and EXPECT: $work),
# so that one that would abort the run fails the case. The counters go to
# $work/counts, "- - -" if it aborted.
in_verdict() {
	: >"$RESULTS"
	WORK=$work bash -euo pipefail -c '
		. "$0/harness/lib.sh"
		LOGS=$WORK RESULTS=$WORK/results EXPECT=$WORK
		. "$REPO/harness/verdict.sh"
		'"$1"'
		echo "$passed $failed $skipped" >"$LOGS/counts"' "$REPO" "${@:2}" ||
		echo "- - -" >"$work/counts"
}

# verdict_of: boot_verdict on $work/{guest,kernel}.log and $work/expect.
verdict_of() {
	in_verdict 'boot_verdict fake "$LOGS/expect" "$LOGS/guest.log" "$LOGS/kernel.log" >/dev/null 2>&1'
}

# fresh: the unchanged logs; a case then plants its defect in them.
# The guest log is written as its tty writes it, with CR LF line ends.
fresh() {
	kernel_log >"$work/kernel.log"
	guest_log | crlf >"$work/guest.log"
	expectations >"$work/expect"
}

crlf() {
	sed 's/$/\r/'
}

# with_alpha SED_SCRIPT: fresh logs, the suite alpha edited by SED_SCRIPT.
with_alpha() {
	fresh
	{ suite_alpha | sed "$1"; suite_beta; } | crlf >"$work/guest.log"
}

# with_kernel SED_SCRIPT: fresh logs, the kernel log edited by SED_SCRIPT.
with_kernel() {
	fresh
	kernel_log | sed "$1" >"$work/kernel.log"
}

# skipped_alpha REASON: fresh logs, the suite alpha skipped whole for REASON.
skipped_alpha() {
	fresh
	printf '%s\n' "SELFTEST-BEGIN alpha" "TAP version 13" "1..0 # SKIP $1" "SELFTEST-END alpha 4" |
		cat - <(suite_beta) | crlf >"$work/guest.log"
}

# assert DESCRIPTION CMD...: one case, ok when CMD succeeds (lib.sh's
# ktap_case); a failed one shows what the verdict said.
assert() {
	local failed_before=$KTAP_FAILED
	ktap_case "$@"
	[ "$KTAP_FAILED" = "$failed_before" ] && return
	grep '^FAIL' "$RESULTS" | sed -n 's/^/# /;1,5p' || true
	echo "# counts (passed failed skipped): $(cat "$work/counts")"
}

# has RE...: each extended regex RE matches a line of $RESULTS.
has() {
	local re
	for re; do
		grep -q -E "$re" "$RESULTS" || return
	done
}

# expect_pass CASE: the verdict ran to its end, with no FAIL and a PASS.
expect_pass() {
	verdict_of
	assert "$1" grep -q -x '[1-9][0-9]* 0 [0-9]*' "$work/counts"
}

# expect_fail CASE RE: the verdict ran to its end, and a FAIL matches RE.
expect_fail() {
	verdict_of
	assert "$1" failed_with "$2"
	grep -m1 -E "^FAIL .*$2" "$RESULTS" | cut -c1-150 | sed 's/^/# /' || true
}

failed_with() {
	grep -q -x '[0-9]* [1-9][0-9]* [0-9]*' "$work/counts" && has "^FAIL .*$1"
}

# --- the cases --------------------------------------------------------------------

# Lines each of the kernel's detectors prints; any one fails a boot.
REPORT_SAMPLES=(
	"WARNING: CPU: 1 PID: 77 at fs/debugfs/file.c:100 full_proxy_read+0x10/0x20"
	"BUG: KASAN: slab-use-after-free in debugfs_read+0x1/0x2"
	"kernel BUG at mm/slub.c:123!"
	"BUG kmalloc-64 (Not tainted): Object already free"
	"Oops: general protection fault, probably for non-canonical address 0xdead"
	"UBSAN: array-index-out-of-bounds in rust/kernel/debugfs.rs:10:5"
	"WARNING: possible circular locking dependency detected"
	"WARNING: suspicious RCU usage"
	"INFO: task cat:123 blocked for more than 120 seconds."
	"INFO: task sh:99 blocked in I/O wait for more than 122 seconds."
	"INFO: rcu_tasks detected stalls on tasks:"
	"BUG: workqueue lockup - pool cpus=0 node=0 flags=0x0 nice=0 stuck for 33s!"
	"watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [sh:1]"
	"BUG: sleeping function called from invalid context at mm/slub.c:4000"
	"refcount_t: underflow; use-after-free."
	"kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)"
	"Kernel panic - not syncing: Fatal exception"
	"** 12 printk messages dropped **"
	"Call trace:"
	"rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 1-... } 21 jiffies s: 177"
	"csd: Detected non-responsive CSD lock (#1) on CPU#0, waiting 5000000032 ns for CPU#01."
	"csd: CSD lock (#1) got unstuck on CPU#00, CPU#01 released the lock."
	"kmemleak: Cannot allocate a kmemleak_object structure"
	"kmemleak: Kernel memory leak detector disabled"
	"kmemleak: Memory pool empty, consider increasing CONFIG_DEBUG_KMEMLEAK_MEM_POOL_SIZE"
)

cases() {
	fresh
	expect_pass "the unchanged fake logs pass"

	fresh
	for i in $(seq 3000); do
		echo "WARNING: CPU: 0 PID: 1 at rust/kernel/debugfs.rs:$i warn_in_loop"
		echo "Call Trace:"
	done >>"$work/kernel.log"
	echo "$KMSG_END" >>"$work/kernel.log"
	expect_fail "a WARN in a loop of 3,000 fails the kernel log" "kernel log: 6000 report"

	fresh
	for i in $(seq 100000); do
		echo "debugfs: out of free dentries, can not create file 'churn_$i'"
	done >"$work/flood"
	{ cat "$work/flood"; echo "${REPORT_SAMPLES[0]}"; echo "$KMSG_END"; } >>"$work/kernel.log"
	expect_fail "a WARNING after a flood of 100,000 lines fails the kernel log" \
		"kernel log: 1 report"

	for sample in "${REPORT_SAMPLES[@]}"; do
		sample=${sample//#/}
		fresh
		{ echo "$sample"; echo "$KMSG_END"; } >>"$work/kernel.log"
		expect_fail "kernel log report: ${sample:0:40}" "kernel log: 1 report"
	done

	fresh
	{
		echo "Linux version 7.3.4 (fake) #1 SMP"
		kunit_lines | sed -n '1,7p'
		echo "Oops: general protection fault"
		echo "Kernel panic - not syncing: Fatal exception"
	} >"$work/kernel.log"
	expect_fail "a guest that panics in the middle of KUnit fails KUnit" "KUnit: .*(crashed|error|cases ran)"
	expect_fail "a guest that panics in the middle of KUnit fails the kernel log" \
		"kernel log: incomplete"

	fresh
	{ echo "Linux version 7.3.4 (fake)"; echo "Run /init as init process"; echo "$KMSG_END"; } \
		>"$work/kernel.log"
	expect_fail "a boot without KUnit output fails" "KUnit: (no results|1 parser error)"

	with_kernel 's/ok 2 rust_doctest_kernel_debugfs_rs_1/ok 2 rust_doctest_kernel_other_rs_1/'
	expect_fail "a kernel::debugfs doctest that did not run fails" "1 kernel::debugfs doctests"

	with_kernel 's/ok 3 rust_doctest_kernel_sync_rs_0/not ok 3 rust_doctest_kernel_sync_rs_0/'
	expect_fail "a failed KUnit case fails" "KUnit: 1 failed"

	skipped_alpha "DebugFS is not mounted"
	expect_fail "a suite that exits 4 fails" "alpha: skipped entirely"

	skipped_alpha "rust_debugfs_test_module.ko not found in /kselftest/rust/debugfs_test_module"
	expect_fail "a missing test module fails" "alpha: skipped entirely: .*test_module.ko not found"

	fresh
	suite_alpha | sed -n '1,4p' | crlf >"$work/guest.log"
	{ kernel_log | grep -v "$KMSG_END"; echo "Oops: 0000 [#1] SMP"; } >"$work/kernel.log"
	expect_fail "a closing that Oopses: the suite is cut off" "alpha: cut off"
	expect_fail "a closing that Oopses: the next suite did not run" "beta: did not run"
	expect_fail "a closing that Oopses: the kernel log reports it" "kernel log: 1 report"

	with_alpha '/^ok 2 /d'
	expect_fail "a case missing from the plan fails" "alpha: the plan says 3, 2 cases"

	with_alpha 's/^ok 2 alpha: second/& # SKIP no device/'
	expect_fail "an undeclared skip fails" "alpha: 2 cases skipped"

	with_alpha 's/^ok 2 /not ok 2 /'
	expect_fail "a failed case fails, named" "alpha: 2 alpha: second"

	# The runner reports a test that exits 2 (KSFT_XFAIL) as "ok ... # XFAIL"
	# and exits 0: that line alone must fail it.
	fresh
	{
		printf '%s\n' "SELFTEST-BEGIN kselftest" "TAP version 13" "1..2" \
			"ok 1 selftests: rust: alpha.sh # XFAIL" "ok 2 selftests: rust: beta.sh # SKIP" \
			"SELFTEST-END kselftest 0"
		suite_alpha
		suite_beta
	} | crlf >"$work/guest.log"
	echo "suite kselftest 2 1" >>"$work/expect"
	expect_fail "a selftest that exits 2 (XFAIL) fails" \
		"kselftest: 1 selftests: rust: alpha.sh # XFAIL"

	with_alpha 's/^ok 2 alpha: second/& # XFAIL known to fail/'
	expect_fail "a case marked XFAIL fails" "alpha: 2 alpha: second # XFAIL"

	fresh
	{ suite_alpha; suite_beta; suite_beta | sed 's/beta/gamma/'; } | crlf >"$work/guest.log"
	expect_fail "a suite that is not declared fails" "gamma ran but is not declared"

	fresh
	suite_alpha | crlf >"$work/guest.log"
	expect_fail "a declared suite that did not run fails" "beta: did not run"

	fresh
	{
		suite_alpha
		printf '%s\n' "SELFTEST-BEGIN beta" "TAP version 13" "1..1" "ok 1 beta: ran" \
			"SELFTEST-END beta 0"
	} | crlf >"$work/guest.log"
	expect_fail "a suite declared to skip that runs fails" "beta: declared to skip entirely"

	with_kernel 's/ok 2 rust_doctest_kernel_debugfs_rs_1/& # SKIP not here/'
	echo "kunit 3 1 2" >"$work/expect"
	tail -n +2 < <(expectations) >>"$work/expect"
	expect_fail "a skipped kernel::debugfs doctest does not count as passed" \
		"1 kernel::debugfs doctests passed"

	fresh
	rm "$work/guest.log"
	expect_fail "a missing guest log fails, and the run goes on" "no guest log"

	# Nothing may be written beside a guest log that is not there: each
	# declared suite fails, its KTAP file written nowhere (/dev/null- once).
	fresh
	rm "$work/guest.log"
	echo "suite orphan-$$ 1 0" >>"$work/expect"
	verdict_of
	assert "a missing guest log: each suite did not run, and nothing is written for it" \
		eval 'has "^FAIL fake: orphan-$$: did not run" &&
		! compgen -G "/dev/null-orphan-$$*" >/dev/null && ! compgen -G "$work/guest-orphan-$$*"'
	rm -f "/dev/null-orphan-$$.ktap"

	fresh
	expectations | grep -v '^kunit' >"$work/expect"
	expect_fail "KUnit that runs but is not declared fails" "KUnit ran but is not declared"

	fresh
	rm "$work/kernel.log"
	expect_fail "a missing kernel log fails, and the run goes on" "KUnit: no kernel log"

	# The newest toolchain's root cannot be created: its checks fail by
	# name and the run goes on.
	: >"$RESULTS"
	(
		passed=0 failed=0 skipped=0
		TOOLCHAIN=newest DEBUGFS_CACHE=$work/no-cache build_check newest "kernel crate (newest)" \
			rust/ >/dev/null 2>&1 || true
		check "setup: dies" die "no toolchain" >/dev/null 2>&1 || true
		echo "$passed $failed $skipped" >"$work/counts"
	) || echo "- - -" >"$work/counts"
	assert "a toolchain root that cannot be set up fails its checks, and the run goes on" \
		eval 'has "^FAIL build: kernel crate \(newest\) \(exit [^3]" "^FAIL setup: dies" &&
		[ "$(cat "$work/counts")" = "0 2 0" ]'
	sed 's/^/# /' "$RESULTS"
}

# --- warnings.py -------------------------------------------------------------------

# clippy_log OBJ [FILE]: what kbuild prints when clippy-driver compiles the
# module OBJ, with a warning at line 12 of FILE if given.
clippy_log() {
	echo "  CLIPPY [M] $1"
	if [ -n "${2:-}" ]; then
		echo "warning: unused variable: \`x\`"
		echo "  --> $2:12:9"
		echo "   |"
		echo "12 |     let x = 1;"
		echo "   |         ^ help: if this is intentional, prefix it with an underscore: \`_x\`"
		echo
		echo "warning: 1 warning emitted"
	fi
}

# warnings_check CASE WANT LOG...: warnings.py on each fake build log in
# turn, one state for all, as build.sh runs it; the last must exit WANT.
warnings_check() {
	local name=$1 want=$2 log rc=0
	shift 2
	rm -rf "$work/warnings"
	for log; do
		rc=0
		python3 "$REPO/harness/warnings.py" "$work/$log" "$work" "$work/warnings" \
			>"$work/warnings.out" 2>&1 || rc=$?
	done
	assert "$name" [ "$rc" = "$want" ]
	[ "$rc" = "$want" ] || echo "# warnings.py exit $rc, want $want: $(head -c 300 "$work/warnings.out")"
}

warnings_cases() {
	: >"$RESULTS"
	clippy_log rust_debugfs_size.o /repo/harness/bench/size/rust_debugfs_size.rs \
		>"$work/build-size.log"
	warnings_check "a warning in the code-size probe fails" 1 build-size.log

	{
		echo "  CC [M]  c_debugfs_bench.o"
		echo "../repo/harness/bench/c_debugfs_bench.c:42:6: warning: unused variable 'n'"
		echo "   42 |         int n;"
		echo "      |             ^"
		echo "1 warning generated."
	} >"$work/build-c.log"
	warnings_check "a clang warning in a C benchmark module fails" 1 build-c.log

	# Two builds of a module, the first warns; on the rerun it compiles
	# nothing, and its warning must stay on record.
	clippy_log rust_debugfs_bench.o /repo/harness/bench/rust_debugfs_bench.rs \
		>"$work/build-test-bench.log"
	clippy_log rust_debugfs_bench.o >"$work/build-test-bench-upstream-api.log"
	mkdir -p "$work/rerun"
	echo "  MODPOST Module.symvers" >"$work/rerun/build-test-bench.log"
	warnings_check "a warning of one of two builds of a module stays on record" 1 \
		build-test-bench.log build-test-bench-upstream-api.log rerun/build-test-bench.log
}

# --- the Makefile ---------------------------------------------------------------------

# What the harness sets for its own scripts must not come in from the
# caller (`TOOLCHAIN=newest make test` would test no rustc 1.85.1), but make
# check honours BOOT_TIMEOUT. Stubs record what reaches the scripts.
makefile_cases() {
	local vars='^(TOOLCHAIN|KSRC|DEBUGFS_LOCKED|NO_KVM|RESULTS|CONFIG_ONLY|BOOT_TIMEOUT)='
	mkdir -p "$work/stub"
	for script in test check; do
		printf 'env | grep -E "%s" | sort >"%s"\n' "$vars" "$work/stub/$script.env" \
			>"$work/stub/$script.sh"
	done
	: >"$RESULTS"
	assert "make test and make check take no harness-internal variable from outside" eval \
		'TOOLCHAIN=newest KSRC=/cache/src/other DEBUGFS_LOCKED=/elsewhere NO_KVM=1 \
		RESULTS=/tmp/results CONFIG_ONLY=1 BOOT_TIMEOUT=5 MAKEFLAGS= \
		make -s --no-print-directory -f "$REPO/Makefile" H="$work/stub" test check \
		>"$work/stub/make.out" 2>&1 &&
		[ ! -s "$work/stub/test.env" ] && [ "$(cat "$work/stub/check.env")" = BOOT_TIMEOUT=5 ]'
	grep -H . "$work/stub/"*.env | sed 's/^/# /' || true
	# The commit that logs/verdict.txt names, and whether the files differ.
	local dir=$work/repo judged head
	git init -q "$dir"
	echo one >"$dir/file"
	git -C "$dir" add file
	git -C "$dir" -c user.name=t -c user.email=t@t commit -q -m one
	head=$(git -C "$dir" rev-parse --short HEAD)
	judged=$(REPO=$dir judged_commit || echo failed)
	echo two >"$dir/file"
	judged+=" $(REPO=$dir judged_commit || echo failed)"
	assert "the verdict names the commit judged, -dirty with changed files" \
		[ "$judged" = "$head $head-dirty" ]
	echo "# judged: $judged"
}

# bg_case NAME RC: a background boot with a fake boot.sh that prints a line
# and exits RC, then counted; what boot_count printed goes to $work/bg.out.
bg_case() {
	in_verdict 'BOOT_SCRIPT=$LOGS/fake-boot.sh
		FAKE_RC=$2 boot_start fake "$1"
		boot_count background "$1" 2>/dev/null' "$1" "$2" >"$work/bg.out"
}

background_cases() {
	# The fake leaves what a clean boot leaves: a guest log without suites
	# and a complete kernel log.
	cat >"$work/fake-boot.sh" <<FAKE
console=\$3
echo "fake boot: started"
: >"\$console"
printf '%s\n' "Linux version fake" "$KMSG_END" >"\${console%.log}-kernel.log"
exit "\$FAKE_RC"
FAKE
	: >"$work/bg-boot"
	bg_case bg-boot 0
	assert "a background boot counts when it is waited for, and its messages are shown" \
		eval '[ "$(cat "$work/counts")" = "3 0 0" ] && grep -q "fake boot: started" "$work/bg.out"'
	bg_case bg-boot 3
	assert "a background boot that hangs fails" \
		has '^FAIL background: the VM hung, died or did not finish'
	# The exit trap's stop_background, without procps: a background job
	# and what runs below it in a process group of its own (as timeout
	# runs QEMU) are gone half a second later.
	in_verdict 'pgrep() { echo "pgrep: command not found" >&2; return 127; }
		# Only the sleeper has the pattern in its command line; "; true"
		# keeps a shell between the job and timeout, as boot.sh does.
		bash -c "timeout 60 sleep $1; true" &
		BACKGROUND[sleeper]=$!
		sleep 0.5
		stop_background' 59.25
	sleep 0.5
	assert "the exit trap ends what runs in the background, below a timeout too" \
		eval '[ "$(cat "$work/counts")" != "- - -" ] && [ -z "$(sleepers 59.25)" ]'
	# shellcheck disable=SC2046 # one pid per word.
	kill $(sleepers 59.25) 2>/dev/null || true
}

# sleepers ARG: the pids of the processes whose command line holds
# "sleep ARG", read from /proc.
sleepers() {
	local f args
	for f in /proc/[0-9]*/cmdline; do
		mapfile -d '' args 2>/dev/null <"$f" || continue
		case "${args[*]}" in
		*"sleep $1"*) f=${f#/proc/}; echo "${f%/cmdline}" ;;
		esac
	done
}

# --- the guest's runner ----------------------------------------------------------

# guest/run-tests.sh with the base tree's kselftest runner and two fake
# tests: alpha is killed by its timeout after its first case, beta crashes
# the "guest" (kills every process of the run) after its first. What
# reached the guest log by then is counted, as test.sh counts it.
stream_cases() {
	local ksft=$work/ksft
	mkdir -p "$ksft/rust"
	cp -r "$TREE/tools/testing/selftests/run_kselftest.sh" \
		"$TREE/tools/testing/selftests/kselftest" "$ksft/"
	printf 'rust:%s\n' alpha.sh beta.sh >"$ksft/kselftest-list.txt"
	echo timeout=2 >"$ksft/rust/settings"
	printf '%s\n' 'echo "TAP version 13"; echo "1..3"; echo "ok 1 alpha: first"; sleep 20' \
		>"$ksft/rust/alpha.sh"
	cat >"$ksft/rust/beta.sh" <<'EOF'
echo "TAP version 13"; echo "1..2"; echo "ok 1 beta: ran"
for i in 1 2 3 4 5 6 7 8 9 10; do
	grep -q "^ok 1 beta: ran" "$OUT" && break
	sleep 0.1
done
kill -s KILL -- "-$(cut -d' ' -f6 /proc/$$/stat)" 0
EOF
	chmod +x "$ksft"/rust/*.sh
	fresh
	printf '%s\n' "kunit 3 0 2" "suite alpha 3 0" "suite beta 2 0" >"$work/expect"
	KSELFTEST_DIR=$ksft TESTS=alpha.sh,beta.sh TMPDIR=$work OUT=$work/guest.log \
		setsid -w sh "$REPO/harness/guest/run-tests.sh" >"$work/guest.log" 2>&1 || true
	verdict_of
	assert "a test killed by its timeout keeps its earlier cases, and fails" \
		has '^PASS fake: alpha: 1 alpha: first$' '^FAIL fake: alpha: exit status 124 with no failed case'
	assert "a guest that dies in a test keeps that test's earlier cases, cut off" \
		has '^PASS fake: beta: 1 beta: ran$' '^FAIL fake: beta: cut off: no end marker after 1 cases'
	sed 's/^/# guest log: /' "$work/guest.log"
}

# harness/expect/harness declares how many cases there must be, so a plan
# counted after the cases still catches a case that went missing.
{
	cases
	warnings_cases
	makefile_cases
	background_cases
	stream_cases
} >"$work/cases"
ktap_begin selftest-harness "$KTAP_N"
cat "$work/cases"
ktap_end
rm -rf "$work"
