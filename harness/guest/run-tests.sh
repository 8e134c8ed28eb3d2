#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script of `make test`: runs our selftests and prints each KTAP
# document between markers. The kernel log reaches the host on its own
# serial port (see init), so nothing here prints it.
for t in /selftests/rust/test_debugfs*.sh; do
	name=$(basename "$t" .sh)
	MODULES=/modules "$t" >"/tmp/$name.ktap" 2>&1
	rc=$?
	# Shell builtins only: if memory ran out, no command can be forked, and
	# this is what the log should then show.
	while read -r line; do
		case $line in MemAvailable:* | Slab:* | Committed_AS:*) echo "MEMINFO $name $line" ;; esac
	done </proc/meminfo
	echo "SELFTEST-BEGIN $name"
	while IFS= read -r line; do printf "%s\n" "$line"; done <"/tmp/$name.ktap"
	echo "SELFTEST-END $name $rc"
done
# Smoke test of `make bench`: the benchmark modules and the timing loop run,
# with tiny counts, and every measurement produces numbers.
if [ -x /bench/dfsbench ] && grep -q debugfs /proc/mounts; then
	ITER=20 BATCHES=3 ROUNDS=1 N=10 SIZES=10 /guest/bench.sh >/tmp/bench.out 2>&1
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
