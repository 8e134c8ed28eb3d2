# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The counting behind `make test`'s last line. Sourced after lib.sh;
# harness/selftest-harness.sh feeds it fake logs to prove that it fails.
# Every check and case becomes a PASS, FAIL or SKIP line of $RESULTS. What a
# boot must report is declared in harness/expect/<boot>: anything missing,
# cut off, crashed or counted otherwise is a named FAIL, never an abort
# (the functions run with `set -e` on and off).

RESULTS=${RESULTS:-$LOGS/results.txt}
passed=0
failed=0
skipped=0

# The counters are the verdict: a failed write to $RESULTS must not end the run.
pass() { passed=$((passed + 1)); echo "PASS $*" >>"$RESULTS" || true; }
fail() { failed=$((failed + 1)); echo "FAIL $*" >>"$RESULTS" || true; msg "FAIL: $*" || true; }
skip() { skipped=$((skipped + 1)); echo "SKIP $*" >>"$RESULTS" || true; }

# check NAME CMD...: PASS or FAIL for CMD, whose status is returned. CMD runs
# in a subshell: an `exit` in it (lib.sh's `die`) ends the check, not the run.
check() {
	local name=$1 rc=0
	shift
	("$@") || rc=$?
	if [ "$rc" = 0 ]; then
		pass "$name"
	else
		fail "$name"
	fi
	return "$rc"
}

# build_check CONFIG LABEL TARGET...: a build and a warnings check
# (build.sh: 0 clean, 3 warnings in our files, else not built).
build_check() {
	local cfg=$1 label=$2
	shift 2
	counted_build "$label" "$LOGS/build-$cfg*.log" bash "$REPO/harness/build.sh" "$cfg" "$@"
}

# kselftest_check CONFIG LABEL [MAKE_ARGS...]: the same for kselftest.sh.
kselftest_check() {
	local cfg=$1 label=$2
	shift 2
	counted_build "$label" "$LOGS/kselftest-$cfg.log" \
		bash "$REPO/harness/kselftest.sh" "$cfg" "$@"
}

# bench_checks CONFIG: `make bench`'s modules and timing loop, for the smoke test.
bench_checks() {
	build_check "$1" "benchmark modules ($1)" M=/repo/harness/bench MO="/cache/build/$1/bench" \
		modules || true
	check "build: benchmark timing loop ($1)" in_chroot "$(cfg_cc "$1")" -O2 -static -Wall \
		-o "/cache/build/$1/bench/dfsbench" /repo/harness/bench/dfsbench.c || true
}

counted_build() {
	local label=$1 logs=$2 rc=0
	shift 2
	"$@" || rc=$?
	case $rc in
	0) pass "build: $label"; pass "no warnings in our files: $label" ;;
	3) pass "build: $label"; fail "no warnings in our files: $label" ;;
	*) fail "build: $label (exit $rc; log: $logs)" ;;
	esac
	return "$rc"
}

# --- boots -----------------------------------------------------------------

# selftest-harness.sh puts a fake in its place.
BOOT_SCRIPT=$REPO/harness/boot.sh

# The test kernel's boots: the bench smoke test switches allocation
# profiling; the hostile test's long phases run in full on the debug kernel.
TEST_BOOT_ARGS="sysctl.vm.mem_profiling=0 DURATION=5 CHURN=300"

# boot_and_count CONFIG LABEL NAME KERNEL_ARGS...: one boot running every
# selftest, counted against harness/expect/NAME (arguments with '=' and no
# '.' reach the selftests' environment). What a boot that hangs or dies
# reported before still counts.
boot_and_count() {
	local cfg=$1 label=$2 name=$3 rc=0
	shift 3
	boot_run "$cfg" "$name" "$@" || rc=$?
	boot_record "$label" "$name" "$rc"
}

boot_run() {
	local cfg=$1 name=$2
	shift 2
	# A boot that dies early must not leave the last run's logs to be counted.
	rm -f "$LOGS/$name".log "$LOGS/$name"-*
	bash "$BOOT_SCRIPT" "$cfg" /guest/run-tests.sh "$LOGS/$name.log" "$@"
}

boot_record() {
	local label=$1 name=$2 rc=$3
	if [ "$rc" = 0 ]; then
		pass "$label: the guest ran its tests to the end"
	else
		fail "$label: the VM hung, died or did not finish (logs: $LOGS/$name*.log)"
	fi
	boot_verdict "$label" "$EXPECT/$name" "$LOGS/$name.log" "$LOGS/$name-kernel.log"
}

# boot_start CONFIG NAME KERNEL_ARGS...: boot_and_count's boot in the
# background, its messages in $LOGS/NAME.out (outside boot_run's cleaning);
# boot_count LABEL NAME waits for it, shows the messages and counts it.
boot_start() {
	local cfg=$1 name=$2
	shift 2
	boot_run "$cfg" "$name" "$@" >"$LOGS/$name.out" 2>&1 &
	BACKGROUND[$name]=$!
}

boot_count() {
	local label=$1 name=$2 rc=0
	if [ -z "${BACKGROUND[$name]:-}" ]; then
		fail "$label: the boot was never started"
		return
	fi
	wait "${BACKGROUND[$name]}" || rc=$?
	unset "BACKGROUND[$name]"
	cat "$LOGS/$name.out" 2>/dev/null || true
	boot_record "$label" "$name" "$rc"
}

# What runs in the background (the object builds, boot_start), by name.
declare -gA BACKGROUND

# stop_background: ends those and every process below them (QEMU runs in
# a process group of its own, under `timeout`).
stop_background() {
	local pid
	for pid in "${BACKGROUND[@]}"; do
		# shellcheck disable=SC2046 # one pid per word.
		kill -TERM "$pid" $(descendants "$pid") 2>/dev/null
	done
}

# descendants PID: every process below PID, from /proc (no procps). The
# parent is the second field after the last ')' of /proc/N/stat.
descendants() {
	local -A children=()
	local stat line ppid pid todo next
	for stat in /proc/[0-9]*/stat; do
		read -r line 2>/dev/null <"$stat" || continue
		line=${line##*) }
		read -r _ ppid _ <<<"$line"
		pid=${stat#/proc/}
		children[$ppid]+="${pid%/stat} "
	done
	todo=$1
	while [ -n "$todo" ]; do
		next=
		for pid in $todo; do
			next+=${children[$pid]:-}
		done
		[ -z "$next" ] || echo "$next"
		todo=$next
	done
}

# verdict_line: the last line of `make test`.
verdict_line() {
	echo "$passed passed, $failed failed, $skipped skipped"
}

# judged_commit: $REPO's commit, "-dirty" if tracked files differ, or "unknown".
judged_commit() {
	local commit
	commit=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null) || { echo unknown; return; }
	git -C "$REPO" diff --quiet HEAD -- 2>/dev/null || commit+=-dirty
	echo "$commit"
}

# --- kernel log -------------------------------------------------------------

# What the kernel's detectors print, anywhere in a boot. A stack dump is a
# report whatever printed it (x86 "Call Trace:", arm64 "Call trace:");
# kmemleak switching itself off would leave leaks unseen.
REPORTS='WARNING:|BUG:|kernel BUG at|BUG [^ ]+ \((Not tainted|Tainted)|Oops|general protection'
REPORTS+='|KASAN:|UBSAN:|KCSAN:|KFENCE:|kmemleak:.*suspected memory leak|unreferenced object'
REPORTS+='|kmemleak: (Cannot allocate a kmemleak_object|Memory pool empty'
REPORTS+='|Kernel memory leak detector disabled)'
REPORTS+='|possible recursive locking|possible circular locking|inconsistent lock state'
REPORTS+='|suspicious RCU usage|lock held when returning to user space'
REPORTS+='|INFO: task .* blocked.* for more than|soft lockup|hard LOCKUP'
REPORTS+='|detected (expedited )?stalls?[ ,]|csd: .*CSD lock'
REPORTS+='|workqueue: .* hogged CPU|BUG: workqueue lockup'
REPORTS+='|sleeping function called from invalid context|refcount_t:|Kernel panic'
REPORTS+='|cut here|Call [Tt]race:|printk messages dropped'

# The line the guest writes to /dev/kmsg last: a log without it was cut off.
KMSG_END='rust-debugfs-guest: end of tests'

# kernel_log_verdict LABEL LOG: the log is whole, and no detector reported.
kernel_log_verdict() {
	local label=$1 log=$2 hits rc=0
	if [ ! -s "$log" ]; then
		fail "$label: kernel log: missing or empty ($log)"
		return
	fi
	if grep -a -q 'Linux version' "$log" && grep -a -q "$KMSG_END" "$log"; then
		pass "$label: kernel log: captured from boot to the end of the tests"
	else
		fail "$label: kernel log: incomplete, from 'Linux version' to '$KMSG_END' ($log)"
	fi
	# Matches go to a file: no pipe can end early and lose a status.
	hits=$log.reports
	grep -a -n -E "$REPORTS" "$log" >"$hits" || rc=$?
	case $rc in
	0)
		fail "$label: kernel log: $(wc -l <"$hits") report line(s), first: $(head -c 200 "$hits")"
		msg "Kernel reports of $label (all of them in $hits):"
		sed -n '1,20p' "$hits" >&2
		;;
	1) pass "$label: kernel log: no warning, BUG, lockdep, sanitizer or hang report" ;;
	*) fail "$label: kernel log: grep failed ($rc) on $log" ;;
	esac
}

# --- KUnit ------------------------------------------------------------------

# kunit_count SUMMARY STATUS: the count of STATUS in kunit.py's summary, or 0.
kunit_count() {
	local n
	n=$(echo "$1" | sed -n "s/.*[ ,]$2: \([0-9]*\).*/\1/p")
	echo "${n:-0}"
}

# kunit_verdict LABEL LOG CASES SKIPS DOCTESTS: KUnit in the kernel log LOG
# is complete, CASES cases (SKIPS skipped), DOCTESTS kernel::debugfs doctests pass.
kunit_verdict() {
	local label="$1: KUnit" log=$2 want=$3 want_skips=$4 want_doc=$5
	local dir input parsed rc=0 summary total p f c s e doc
	if [ ! -r "$log" ]; then
		fail "$label: no kernel log ($log)"
		return
	fi
	dir=$(dirname "$log")
	input=$dir/$(basename "$log" .log).kunit-input
	parsed=$dir/$(basename "$log" .log).kunit
	# Built-in tests run before init; what follows is not KUnit's.
	sed -n '1,/Run .* as init process/p' "$log" >"$input"
	python3 "$TREE/tools/testing/kunit/kunit.py" parse "$input" >"$parsed" 2>&1 || rc=$?
	summary=$(grep -a 'Testing complete' "$parsed" | tail -n 1) || true
	if [ -z "$summary" ]; then
		fail "$label: no results (kunit.py parse exit $rc; $parsed)"
		return
	fi
	total=$(echo "$summary" | sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p')
	p=$(kunit_count "$summary" passed)
	f=$(kunit_count "$summary" failed)
	c=$(kunit_count "$summary" crashed)
	s=$(kunit_count "$summary" skipped)
	e=$(kunit_count "$summary" errors)
	msg "$label: ${total:-0} cases: $p passed, $f failed, $c crashed, $s skipped, $e errors"
	passed=$((passed + p))
	echo "PASS $label: $p cases (list: $parsed)" >>"$RESULTS"
	if [ $((f + c)) -gt 0 ]; then
		grep -a -E '\[(FAILED|CRASHED)\]' "$parsed" | sed -n '1,20p' >&2 || true
		failed=$((failed + f + c))
		echo "FAIL $label: $f failed and $c crashed cases, see $parsed" >>"$RESULTS"
		msg "FAIL: $label: $f failed, $c crashed"
	fi
	[ "$e" = 0 ] || fail "$label: $e parser error(s): output cut off or malformed ($parsed)"
	if [ "$rc" != 0 ] && [ $((f + c + e)) = 0 ]; then
		fail "$label: kunit.py parse exit $rc with no failure counted ($parsed)"
	fi
	if [ "${total:-0}" != "$want" ]; then
		fail "$label: ${total:-0} cases ran, harness/expect declares $want"
	fi
	if [ "$s" != "$want_skips" ]; then
		fail "$label: $s cases skipped, harness/expect declares $want_skips"
	fi
	skipped=$((skipped + s))
	[ "$s" = 0 ] || echo "SKIP $label: $s cases (declared)" >>"$RESULTS"
	doc=$(grep -a -E '^(\[[^]]*\])?\s*ok [0-9]+ rust_doctest_kernel_debugfs' "$input" |
		grep -a -c -v '# SKIP') || true
	if [ "$doc" = "$want_doc" ]; then
		pass "$label: all $want_doc kernel::debugfs doctests passed"
	else
		fail "$label: $doc kernel::debugfs doctests passed, harness/expect declares $want_doc"
	fi
}

# --- selftests --------------------------------------------------------------

# ktap_tally FILE: "PLAN RESULTS PASSED FAILED SKIPPED SKIP_ALL BAIL" of a
# KTAP document's top level (PLAN - if none). XFAIL and XPASS count as failed.
ktap_tally() {
	awk '
		/^1\.\.[0-9]+/ {
			plans++
			plan = substr($1, 4) + 0
			if ($0 ~ /# SKIP/) skip_all = 1
		}
		/^ok / { n++; if ($0 ~ /# SKIP/) s++; else if ($0 ~ /# (XFAIL|XPASS)/) f++; else p++ }
		/^not ok / { n++; f++ }
		/^Bail out!/ { bail = 1 }
		END {
			if (plans != 1) plan = "-"
			printf "%s %d %d %d %d %d %d\n", plan, n, p, f, s, skip_all, bail
		}' "$1"
}

# suite_verdict LABEL GUEST_LOG NAME CASES SKIPS: the selftest NAME ran to its
# end with CASES cases (SKIPS skipped); CASES "skip-all": exit 4, plan 1..0.
suite_verdict() {
	local label="$1: $3" log=$2 name=$3 want=$4 want_skips=$5
	local ktap status plan n p f s skip_all bail
	if [ ! -r "$log" ]; then
		fail "$label: did not run (no guest log $log)"
		return
	fi
	ktap=${log%.log}-$name.ktap
	# The guest's tty ends lines with CR LF.
	tr -d '\r' <"$log" | sed -n "/^SELFTEST-BEGIN $name\$/,/^SELFTEST-END $name /p" >"$ktap"
	if [ ! -s "$ktap" ]; then
		fail "$label: did not run (no output in $log)"
		return
	fi
	status=$(sed -n "s/^SELFTEST-END $name \([0-9]*\)\$/\1/p" "$ktap")
	read -r plan n p f s skip_all bail < <(ktap_tally "$ktap")
	msg "$label: $n cases: $p passed, $f failed, $s skipped (exit ${status:-none}; $ktap)"
	# Every case counts, named.
	while IFS= read -r line; do
		case $line in
		"not ok "* | "ok "*"# XFAIL"* | "ok "*"# XPASS"*)
			failed=$((failed + 1))
			echo "FAIL $label: ${line#*ok }" >>"$RESULTS"
			;;
		"ok "*"# SKIP"*) skipped=$((skipped + 1)); echo "SKIP $label: ${line#ok }" >>"$RESULTS" ;;
		"ok "*) passed=$((passed + 1)); echo "PASS $label: ${line#ok }" >>"$RESULTS" ;;
		esac
	done <"$ktap"
	[ "$f" = 0 ] || grep -E '^not ok |^ok .*# (XFAIL|XPASS)' "$ktap" | sed -n '1,30p' >&2 || true
	if [ -z "$status" ]; then
		fail "$label: cut off: no end marker after $n cases"
		return
	fi
	[ "$bail" = 0 ] || fail "$label: bailed out"
	if [ "$want" = skip-all ]; then
		if [ "$skip_all" = 1 ] && [ "$n" = 0 ] && [ "$status" = 4 ]; then
			skip "$label: whole suite (declared)"
		else
			fail "$label: declared to skip entirely, but ran $n cases (exit $status)"
		fi
		return
	fi
	if [ "$skip_all" = 1 ] || [ "$status" = 4 ]; then
		fail "$label: skipped entirely: $(grep -m1 '^1\.\.0' "$ktap" || echo "exit $status")"
		return
	fi
	[ "$plan" = "$n" ] || fail "$label: the plan says ${plan/-/no plan}, $n cases reported"
	[ "$n" = "$want" ] || fail "$label: $n cases, harness/expect declares $want"
	[ "$s" = "$want_skips" ] || fail "$label: $s cases skipped, harness/expect declares $want_skips"
	if [ "$f" = 0 ] && [ "$status" != 0 ]; then
		fail "$label: exit status $status with no failed case"
	elif [ "$f" != 0 ] && [ "$status" = 0 ]; then
		fail "$label: exit status 0 with failed cases"
	fi
}

# expect_lines FILE: FILE's declarations, "include NAME" replaced by the file
# NAME beside it, a later declaration of a suite (or KUnit) replacing an earlier.
expect_lines() {
	awk -v dir="$(dirname "$1")" '
		function take(file,   line, f, r) {
			while ((r = getline line <file) > 0) {
				split(line, f)
				if (f[1] == "include") {
					take(dir "/" f[2])
					continue
				}
				if (f[1] == "" || f[1] ~ /^#/)
					continue
				key = f[1] == "kunit" ? "kunit" : f[1] " " f[2]
				if (!(key in decl))
					order[++n] = key
				decl[key] = line
			}
			if (r < 0)
				order[++n] = "missing " file
			close(file)
		}
		BEGIN {
			take(ARGV[1])
			for (i = 1; i <= n; i++)
				print (order[i] in decl) ? decl[order[i]] : order[i]
		}' "$1"
}

# boot_verdict LABEL EXPECT GUEST_LOG KERNEL_LOG: what EXPECT declares, and
# a clean, whole kernel log (KERNEL_LOG "-": none). EXPECT's lines:
#   kunit CASES SKIPS DOCTESTS | suite NAME CASES SKIPS | suite NAME skip-all
# A suite, or KUnit, that ran undeclared fails.
boot_verdict() {
	local label=$1 expect=$2 log=$3 klog=$4 kind a b c declared=" " kunit=no
	[ -f "$expect" ] || { fail "$label: no expectations file $expect"; return; }
	expect_lines "$expect" >"$LOGS/$(basename "$expect").expect"
	expect=$LOGS/$(basename "$expect").expect
	if [ ! -r "$log" ]; then
		# Each declared suite fails too, as did not run.
		fail "$label: no guest log ($log)"
	fi
	while read -r kind a b c _; do
		case $kind in
		kunit)
			kunit_verdict "$label" "$klog" "$a" "$b" "$c"
			kunit=yes
			;;
		suite)
			suite_verdict "$label" "$log" "$a" "$b" "$c"
			declared+="$a "
			;;
		"" | "#"*) ;;
		*) fail "$label: unknown line '$kind $a' in $expect" ;;
		esac
	done <"$expect"
	if [ -r "$log" ]; then
		for name in $(tr -d '\r' <"$log" | sed -n 's/^SELFTEST-BEGIN \([^ ]*\)$/\1/p'); do
			case $declared in
			*" $name "*) ;;
			*) fail "$label: $name ran but is not declared in $expect" ;;
			esac
		done
	fi
	if [ "$klog" != - ]; then
		if [ "$kunit" = no ] && grep -a -q -E '^(\[[^]]*\])?\s*KTAP version' "$klog" 2>/dev/null; then
			fail "$label: KUnit ran but is not declared in $expect ($klog)"
		fi
		kernel_log_verdict "$label" "$klog"
	fi
}

# upstream_fixes_verdict: what upstream-fixes.sh left in $LOGS: the series'
# checks, the fixed base's boot, the pristine base's (upstream_defects).
upstream_fixes_verdict() {
	local expect=$REPO/harness/expect
	boot_verdict "upstream fixes" "$expect/upstream-fixes" "$LOGS/upstream-fixes.log" -
	boot_verdict "upstream base with the fixes" "$expect/upstream-fixed-boot" \
		"$LOGS/upstream-fixed-boot.log" "$LOGS/upstream-fixed-boot-kernel.log"
	boot_verdict "upstream base, pristine" "$expect/upstream-base-boot" \
		"$LOGS/upstream-defects.log" "$LOGS/upstream-base-boot-kernel.log"
}
