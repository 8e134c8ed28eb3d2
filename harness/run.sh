#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make run`: build what is missing, boot the test kernel, and show a
# transcript of the samples in use, live. The VM ends by itself.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

H=$REPO/harness
for step in "chroot.sh" "source.sh" "overlay.sh" "config.sh test"; do
	# shellcheck disable=SC2086 # step carries its argument.
	bash $H/$step
done
bash "$H/build.sh" test bzImage modules || [ $? = 1 ]

console=$LOGS/run-console.log
: >"$console"
bash "$H/boot.sh" test /guest/demo.sh "$console" &
boot=$!
# Print the transcript as the guest writes it; stop at its end marker.
tail -n +1 -F "$console" 2>/dev/null |
	awk '/^DEMO-END/ { exit } shown { print; fflush() } /^DEMO-BEGIN/ { shown = 1 }' |
	tr -d '\r' &
viewer=$!
rc=0
wait "$boot" || rc=$?
sleep 1
kill "$viewer" 2>/dev/null || true
echo
msg "The VM has ended (full console: $console)."
exit "$rc"
