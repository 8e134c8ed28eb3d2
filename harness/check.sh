#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: the fast loop after a change to our files: rebuilds the test
# kernel and its selftests, boots it once as `make test` does and counts the
# boot against harness/expect/test-boot. TESTS=a.sh,... runs only those
# selftests (and KUnit).
# exit: 0 all passed, 1 something failed, 2 the kernel did not build.
set -euo pipefail
if [ "${1:-}" = --help ]; then
	sed -n '3,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
fi
. "$(dirname "$0")/lib.sh"

H=$REPO/harness
RESULTS=$LOGS/check-results.txt
. "$H/verdict.sh"
: >"$RESULTS"
start=$(now)

if ! setup test; then
	fail "check: setup (toolchain, base tree, configuration)"
	verdict_line
	exit 2
fi
rc=0
build_check test "test kernel" bzImage modules || rc=$?
if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
	verdict_line
	exit 2
fi
kselftest_check test "kselftest install" || true
bench_checks test

# The expectations of the test boot, cut down to TESTS.
EXPECT=$LOGS/check-expect
mkdir -p "$EXPECT"
args=()
if [ -n "${TESTS:-}" ]; then
	expect_lines "$H/expect/test-boot" | awk -v tests="$TESTS" '
		BEGIN { n = split(tests, t, ","); for (i = 1; i <= n; i++) { sub(/\.sh$/, "", t[i]); want[t[i]] = 1 } }
		$1 == "kunit" { print; next }
		$1 == "suite" && ($2 in want) { print; cases++; if ($3 == "skip-all") skips++ }
		END { printf "suite kselftest %d %d\n", cases, skips }
	' >"$EXPECT/check-boot"
	args=(TESTS="$TESTS")
else
	expect_lines "$H/expect/test-boot" >"$EXPECT/check-boot"
fi
# shellcheck disable=SC2086 # the arguments are words.
boot_and_count test "check" check-boot $TEST_BOOT_ARGS "${args[@]}"
[ "$failed" = 0 ] || grep '^FAIL' "$RESULTS" || true
msg "make check took $(($(now) - start)) s; results: $RESULTS"
verdict_line
[ "$failed" = 0 ]
