#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The safety rules of kernel::debugfs: each snippet of
# selftests/rust/debugfs_compile_fail/ is rejected with the error its
# "EXPECT:" line names, and its twin (ALLOWED=1, keeping the rule) compiles,
# so that none passes by failing otherwise. Needs the test kernel; prints KTAP.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=tools/testing/selftests/rust/debugfs_compile_fail
cases=()
for f in "$REPO/$src"/*.rs; do
	cases+=("$(basename "$f" .rs)")
done

# build CASE VARIANT [MAKE_ARGS...]: logged to $LOGS/compile-fail-CASE-VARIANT.log.
build() {
	local name=$1 variant=$2
	shift 2
	in_chroot make -C /cache/src/linux O=/cache/build/test LLVM=1 M="/repo/$src" \
		MO="/cache/build/test/compile-fail/$name-$variant" CASE="$name" "$@" "$name.o" \
		>"$LOGS/compile-fail-$name-$variant.log" 2>&1
}

# rejected CASE: the snippet does not compile, with the error it names.
rejected() {
	local expect rc=0 log=$LOGS/compile-fail-$1-rejected.log
	expect=$(sed -n 's|^//! EXPECT: ||p' "$REPO/$src/$1.rs")
	build "$1" rejected || rc=$?
	[ -n "$expect" ] && [ "$rc" != 0 ] && grep -q -E -- "$expect" "$log" && return
	echo "# exit $rc, expected '$expect'; first errors in $log:"
	grep -E '^error' "$log" | sed -n '1,5p' | sed 's/^/# /' || true
	return 1
}

# allowed CASE: its twin, which keeps the rule, compiles.
allowed() {
	build "$1" allowed ALLOWED=1 && return
	grep -E '^error' "$LOGS/compile-fail-$1-allowed.log" | sed -n '1,5p' | sed 's/^/# /' || true
	return 1
}

ktap_begin compile-fail $((2 * ${#cases[@]}))
for name in "${cases[@]}"; do
	ktap_case "$name: rejected with '$(sed -n 's|^//! EXPECT: ||p' "$REPO/$src/$name.rs")'" \
		rejected "$name"
	ktap_case "$name: its twin that keeps the rule compiles" allowed "$name"
done
ktap_end
