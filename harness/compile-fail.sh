#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Negative tests of the safety rules of kernel::debugfs: each snippet in
# tools/testing/selftests/rust/debugfs_compile_fail/ must be rejected by the
# compiler with the error its "EXPECT:" line names, and its twin built with
# ALLOWED=1 (the same code, keeping the rule) must compile, so that no
# snippet passes by failing for some other reason. Needs the built test
# kernel. Prints one KTAP document between the markers the harness counts.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=tools/testing/selftests/rust/debugfs_compile_fail
cases=()
for f in "$REPO/$src"/*.rs; do
	cases+=("$(basename "$f" .rs)")
done

# build CASE VARIANT [MAKE_ARGS...]: builds the snippet's object; its log
# goes to $LOGS/compile-fail-CASE-VARIANT.log.
build() {
	local name=$1 variant=$2
	shift 2
	in_chroot make -C /cache/src/linux O=/cache/build/test LLVM=1 M="/repo/$src" \
		MO="/cache/build/test/compile-fail/$name-$variant" CASE="$name" "$@" "$name.o" \
		>"$LOGS/compile-fail-$name-$variant.log" 2>&1
}

echo "SELFTEST-BEGIN compile-fail"
echo "TAP version 13"
echo "1..$((2 * ${#cases[@]}))"
n=0
bad=0
for name in "${cases[@]}"; do
	expect=$(sed -n 's|^//! EXPECT: ||p' "$REPO/$src/$name.rs")
	log=$LOGS/compile-fail-$name-rejected.log
	rc=0
	build "$name" rejected || rc=$?
	n=$((n + 1))
	if [ -n "$expect" ] && [ "$rc" != 0 ] && grep -q -E -- "$expect" "$log"; then
		echo "ok $n $name: rejected with '$expect'"
	else
		bad=$((bad + 1))
		echo "not ok $n $name: rejected with '$expect'"
		echo "# exit $rc; first errors in $log:"
		grep -E '^error' "$log" | sed -n '1,5p' | sed 's/^/# /' || true
	fi
	rc=0
	build "$name" allowed ALLOWED=1 || rc=$?
	n=$((n + 1))
	if [ "$rc" = 0 ]; then
		echo "ok $n $name: its twin that keeps the rule compiles"
	else
		bad=$((bad + 1))
		echo "not ok $n $name: its twin that keeps the rule compiles"
		grep -E '^error' "$LOGS/compile-fail-$name-allowed.log" | sed -n '1,5p' |
			sed 's/^/# /' || true
	fi
done
echo "SELFTEST-END compile-fail $([ "$bad" = 0 ] && echo 0 || echo 1)"
