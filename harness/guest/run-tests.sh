#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script of `make test`: runs the selftests with kselftest's own
# runner from the installed tree (harness/kselftest.sh), as anyone would
# run them, and prints the runner's KTAP and each test's KTAP between
# markers for the host to count. The kernel log reaches the host on its own
# serial port (see init), so nothing here prints it.
LOGS=/tmp/kselftest
cd /kselftest || exit 1
# TESTS=a.sh,b.sh (from `make check`): only those tests of the collection.
set --
for test in $(echo "${TESTS:-}" | tr ',' ' '); do
	set -- "$@" -t "rust:$test"
done
./run_kselftest.sh --per-test-log "$LOGS" "$@" >/tmp/kselftest.ktap 2>&1
rc=$?
echo "SELFTEST-BEGIN kselftest"
cat /tmp/kselftest.ktap
echo "SELFTEST-END kselftest $rc"

# Each test's log holds its output behind the runner's "# " prefix, after
# the runner's note of the timeout; its exit status is in the runner's line.
sed -n 's/^\(not \)\{0,1\}ok [0-9]* selftests: [^:]*: \([^ ]*\) *\(.*\)$/\2 \1\3/p' \
	/tmp/kselftest.ktap | while read -r test result; do
	case $result in
	"# SKIP"*) rc=4 ;;
	"# XFAIL"*) rc=2 ;;
	"not # exit="*) rc=${result#not # exit=} ;;
	"not # TIMEOUT"*) rc=124 ;;
	not*) rc=1 ;;
	*) rc=0 ;;
	esac
	name=${test%.sh}
	# Shell builtins only: if memory ran out, no command can be forked, and
	# this is what the log should then show.
	while read -r line; do
		case $line in MemAvailable:* | Slab:* | Committed_AS:*) echo "MEMINFO $name $line" ;; esac
	done </proc/meminfo
	echo "SELFTEST-BEGIN $name"
	sed -e 's/^# \{0,1\}//' -e '1{/^timeout set to [0-9]*$/d;/^overriding timeout to [0-9]*$/d}' \
		"$LOGS/$test"
	echo "SELFTEST-END $name $rc"
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
