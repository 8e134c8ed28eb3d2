#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what the guest of one configuration runs, as a kernel developer
# would: `make modules_install` into $CACHE/build/CONFIG/modroot, and
# kselftest's install of the rust selftests (debugfs_io and the test
# module) into $CACHE/build/CONFIG/kselftest.
#
# usage: kselftest.sh CONFIG [MAKE_ARGS...]   (MAKE_ARGS go to kselftest's make)
# exit:  0 installed, no warnings in our files; 3 installed with warnings in
#        our files; 2 the build or install failed
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cfg=${1:?usage: $0 CONFIG [MAKE_ARGS...]}
shift
out=/cache/build/$cfg
log=$LOGS/kselftest-$cfg.log
selftests=/cache/src/linux/tools/testing/selftests

# kselftest builds inside the shared source tree: its clean runs first, so
# that nothing built for another kernel or architecture ends up here.
install_all() {
	local arch
	arch=ARCH=$(cfg_arch "$cfg")
	rm -rf "$CACHE/build/$cfg/modroot" "$CACHE/build/$cfg/kselftest"
	in_chroot make -C /cache/src/linux O="$out" LLVM=1 "$arch" -j"$JOBS" \
		INSTALL_MOD_PATH="$out/modroot" modules_install &&
		in_chroot make -C "$selftests" TARGETS=rust KDIR="$out" "$arch" clean &&
		in_chroot make -C "$selftests" TARGETS=rust LLVM=1 "$arch" CLIPPY=1 KDIR="$out" \
			INSTALL_PATH="$out/kselftest" "$@" install
}

msg "Installing the modules and kselftests of '$cfg' (log: $log)..."
if ! logged "$log" install_all "$@"; then
	msg "kselftest install of '$cfg' FAILED; see $log"
	exit 2
fi
rc=0
python3 "$REPO/harness/warnings.py" "$log" "$CACHE/build/$cfg" \
	"$CACHE/build/$cfg/.kselftest-warnings" || rc=$?
# The C helper is compiled by clang here; its warnings are ours too.
if grep -E '(debugfs_io\.c|debugfs_test_module).*warning:' "$log"; then
	rc=1
fi
case $rc in
0) ;;
1) exit 3 ;;
*) die "warnings.py failed ($rc) on $log" ;;
esac
