#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script of `make test`: runs the selftests with kselftest's own
# runner from the installed tree (harness/kselftest.sh), as anyone would
# run them, and streams each test's KTAP between markers for the host to
# count, line by line as the runner prints it: a crash or a hang loses only
# what had not run. The runner's own KTAP follows at the end. The kernel log
# reaches the host on its own serial port (see init).
cd "${KSELFTEST_DIR:-/kselftest}" || exit 1
runner=${TMPDIR:-/tmp}/kselftest.ktap
: >"$runner"
# TESTS=a.sh,b.sh (from `make check`): only those tests of the collection.
set --
for test in $(echo "${TESTS:-}" | tr ',' ' '); do
	set -- "$@" -t "rust:$test"
done
# The runner prints "# selftests: rust: NAME.sh", the test's output behind
# "# ", then its own "ok" or "not ok" line with the test's exit status.
name=
{ ./run_kselftest.sh "$@" 2>&1; echo "RUNNER-EXIT $?"; } | while IFS= read -r line; do
	case $name/$line in
	"$name/RUNNER-EXIT "*)
		echo "SELFTEST-BEGIN kselftest"
		cat "$runner"
		echo "SELFTEST-END kselftest ${line#RUNNER-EXIT }"
		;;
	"/# selftests: "*)
		printf '%s\n' "$line" >>"$runner"
		name=${line##* }
		name=${name%.sh}
		echo "SELFTEST-BEGIN $name"
		;;
	/*) printf '%s\n' "$line" >>"$runner" ;;
	"$name/ok "* | "$name/not ok "*)
		printf '%s\n' "$line" >>"$runner"
		case $line in
		"ok "*"# SKIP"*) rc=4 ;;
		"ok "*"# XFAIL"*) rc=2 ;;
		*"# exit="*) rc=${line##*# exit=} ;;
		*"# TIMEOUT"*) rc=124 ;;
		"not ok "*) rc=1 ;;
		*) rc=0 ;;
		esac
		echo "SELFTEST-END $name $rc"
		# Shell builtins only: if memory ran out, no command can be
		# forked, and this is what the log should then show.
		while read -r mem; do
			case $mem in MemAvailable:* | Slab:* | Committed_AS:*) echo "MEMINFO $name $mem" ;; esac
		done </proc/meminfo
		name=
		;;
	"$name/#"*)
		line=${line#"#"}
		printf '%s\n' "${line# }"
		;;
	*) printf '%s\n' "$line" ;;
	esac
done
# Smoke test of `make bench`: the benchmark modules and the timing loop run,
# with tiny counts, and every measurement produces numbers.
if [ -z "${TESTS:-}" ] && [ -x /bench/dfsbench ] && grep -q debugfs /proc/mounts; then
	# Timing, then counting instructions (which this boot's clock does not).
	{ ITER=20 BATCHES=3 ROUNDS=1 N=10 SIZES=10 /guest/bench.sh &&
		BENCH_MODE=instructions ITER=20 BATCHES=3 SIZES=10 /guest/bench.sh; } >/tmp/bench.out 2>&1
	rc=$?
	echo "SELFTEST-BEGIN bench_smoke"
	echo "TAP version 13"
	echo "1..1"
	if [ "$rc" = 0 ] && grep -q '^BENCH done' /tmp/bench.out &&
		! awk '$1 == "BENCH" && $2 != "done" && NF < 4 { bad = 1 } END { exit !bad }' /tmp/bench.out; then
		echo "ok 1 the benchmark runs and measures everything"
		rc=0
	else
		sed 's/^/# /' /tmp/bench.out
		echo "not ok 1 the benchmark runs and measures everything"
		rc=1
	fi
	echo "SELFTEST-END bench_smoke $rc"
fi
