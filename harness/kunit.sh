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
# kunit.py builds its own kernel (in $CACHE/build/kunit here), which costs
# minutes the first time; `make test` therefore only runs `kunit.py config`
# with the same .kunitconfig (CONFIG_ONLY=1), which fails if an option of
# it does not land in the configuration, and the full run is this target.
#
# usage: [CONFIG_ONLY=1] [KUNIT_GLOB=suite.test] kunit.sh; the log goes to
# $LOGS/kunit.log. KUNIT_GLOB narrows the tests run (default: ours).
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
# kunit.py asks QEMU for KVM first, and QEMU hangs on this machine's KVM:
# NO_KVM hides it (see in_chroot), so QEMU falls back to TCG.
NO_KVM=1 in_chroot sh -c 'cd /cache/src/linux && python3 tools/testing/kunit/kunit.py run "$@"' sh \
	"${args[@]}" --jobs "$JOBS" --timeout 900 \
	"${KUNIT_GLOB:-rust_doctests_kernel.rust_doctest_kernel_debugfs*}" \
	>"$LOGS/kunit.log" 2>&1 || rc=$?
grep -E 'Testing complete|Ran [0-9]+ tests|FAILED|PASSED|Elapsed' "$LOGS/kunit.log" | tail -n 5
msg "kunit.py ended with status $rc after $(($(now) - start)) s."
exit "$rc"
