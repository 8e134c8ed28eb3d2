#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make run`: build what is missing, boot the test kernel, and show a
# transcript of the samples in use, live. The VM ends by itself.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

H=$REPO/harness
setup test
# Warnings in our files do not stop the demo: make test is where they fail.
bash "$H/build.sh" test bzImage modules || [ $? = 3 ]
bash "$H/kselftest.sh" test || [ $? = 3 ]

console=$LOGS/run-console.log
: >"$console"
msg "Booting the test kernel in QEMU; the transcript follows."
bash "$H/boot.sh" test /guest/demo.sh "$console" >"$LOGS/run-boot.log" 2>&1 &
boot=$!
# Print the transcript as the guest writes it, until its end marker or
# until the VM process is gone.
tail --pid="$boot" -n +1 -F "$console" 2>/dev/null |
	awk '/^DEMO-END/ { exit } shown { print; fflush() } /^DEMO-BEGIN/ { shown = 1 }' |
	tr -d '\r'
rc=0
wait "$boot" || rc=$?
echo
if [ "$rc" = 0 ]; then
	msg "The VM has ended (full console: $console)."
else
	cat "$LOGS/run-boot.log"
fi
exit "$rc"
