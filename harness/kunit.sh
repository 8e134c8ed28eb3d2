#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make kunit`: the kernel::debugfs doctests the way a kernel developer runs
# them on a tree with our patches, with the base tree's kunit.py and our
# .kunitconfig, in QEMU (TCG):
#
#   tools/testing/kunit/kunit.py run --kunitconfig rust/kernel/debugfs \
#       --arch x86_64 --make_options LLVM=1 \
#       'rust_doctests_kernel.rust_doctest_kernel_debugfs*'
#
# kunit.py builds a kernel of its own ($CACHE/build/kunit): `make test` only
# runs `kunit.py config` (CONFIG_ONLY=1), which fails if an option is lost.
#
# usage: [CONFIG_ONLY=1] [KUNIT_GLOB=suite.test] kunit.sh; log: $LOGS/kunit.log.
# exit:  kunit.py's (0 every selected test passed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bash "$REPO/harness/overlay.sh" >/dev/null
args=(--kunitconfig rust/kernel/debugfs --arch x86_64 --build_dir /cache/build/kunit
	--make_options LLVM=1)
if [ "${CONFIG_ONLY:-0}" = 1 ]; then
	logged "$LOGS/kunit-config.log" in_chroot sh -c 'cd /cache/src/linux &&
		python3 tools/testing/kunit/kunit.py config "$@"' sh "${args[@]}"
	exit
fi
msg "Running kunit.py (log: $LOGS/kunit.log)..."
start=$(now)
rc=0
# QEMU hangs on this machine's KVM: NO_KVM hides it (see in_chroot).
NO_KVM=1 in_chroot sh -c 'cd /cache/src/linux && python3 tools/testing/kunit/kunit.py run "$@"' sh \
	"${args[@]}" --jobs "$JOBS" --timeout 900 \
	"${KUNIT_GLOB:-rust_doctests_kernel.rust_doctest_kernel_debugfs*}" \
	>"$LOGS/kunit.log" 2>&1 || rc=$?
grep -E 'Testing complete|Ran [0-9]+ tests|FAILED|PASSED|Elapsed' "$LOGS/kunit.log" | tail -n 5
msg "kunit.py ended with status $rc after $(($(now) - start)) s."
exit "$rc"
