#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Prove that a series is bisectable: apply its mails with git am, one at a
# time, to a checkout of the base ($CACHE/src/series), and after each build
# fs/debugfs/, rust/, samples/rust/ and the selftest module as objects
# (LLVM=1 CLIPPY=1; no vmlinux, so each patch costs what it changes).
#
# usage: bisect.sh MAIL...; the log of patch N is $LOGS/bisect-N.log.
# exit:  0 every patch applied and built with no warning in our files
set -euo pipefail
. "$(dirname "$0")/lib.sh"

work=$CACHE/src/series
obj=$CACHE/build/series
base_worktree "$work"
git -C "$work" am --abort >/dev/null 2>&1 || true
git -C "$work" reset -q --hard base
mkdir -p "$obj"

# build_patch N: builds the checkout as it is after patch N.
build_patch() {
	local n=$1 testmod=tools/testing/selftests/rust/debugfs_test_module
	# The samples' options appear with the patch that adds them to Kconfig.
	cp "$REPO/harness/configs/test.config" "$obj/.config"
	in_chroot make -C /cache/src/series O=/cache/build/series LLVM=1 olddefconfig &&
		in_chroot make -C /cache/src/series O=/cache/build/series LLVM=1 CLIPPY=1 \
			-j"$JOBS" fs/debugfs/ rust/ samples/rust/ &&
		if [ -d "$work/$testmod" ]; then
			in_chroot make -C /cache/src/series O=/cache/build/series LLVM=1 CLIPPY=1 \
				M="/cache/src/series/$testmod" MO=/cache/build/series/testmod \
				rust_debugfs_test_module.o
		fi
}

status=0
n=0
for mail in "$@"; do
	n=$((n + 1))
	name=$(basename "$mail")
	if ! git -C "$work" am -q "$mail" >"$LOGS/bisect-$n.log" 2>&1; then
		msg "bisect: $name does not apply with git am; see $LOGS/bisect-$n.log"
		exit 1
	fi
	start=$(now)
	if ! logged "$LOGS/bisect-$n.log" build_patch "$n"; then
		msg "bisect: the tree does not build after $name; see $LOGS/bisect-$n.log"
		status=1
		continue
	fi
	rm -rf "$obj/.warnings"
	if ! python3 "$REPO/harness/warnings.py" "$LOGS/bisect-$n.log" "$obj" "$obj/.warnings" \
		>/dev/null; then
		msg "bisect: warnings in our files after $name; see $LOGS/bisect-$n.log"
		status=1
		continue
	fi
	msg "bisect: builds after $name ($(($(now) - start)) s)"
done
exit "$status"
