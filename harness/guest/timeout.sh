#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest's /usr/bin/timeout for kselftest's runner, as coreutils' (busybox's
# takes no --foreground, exits 143 and signals TEST alone, whose leftovers
# would hold the runner's pipe open): TEST runs in a session of its own, TERM
# goes to it all (to TEST alone with --foreground) after SECS seconds, KILL
# ten seconds later, and the status is 124.
#
#     timeout [--foreground] SECS COMMAND [ARG]...
foreground=
if [ "$1" = --foreground ]; then
	foreground=1
	shift
fi
secs=$1
shift
expired=/tmp/timeout.$$
rm -f "$expired"
# An asynchronous command's standard input would be /dev/null: keep ours.
exec 3<&0
if [ -n "$foreground" ]; then
	"$@" <&3 3<&- &
	pid=$!
	target=$pid
else
	setsid "$@" <&3 3<&- &
	pid=$!
	target=-$pid
fi
exec 3<&-
# The watcher keeps none of our descriptors: it must not hold a pipe open.
(
	elapsed=0
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$elapsed" -ge "$secs" ]; then
			: >"$expired"
			kill -TERM "$target"
			sleep 10
			kill -KILL "$target"
			exit
		fi
		sleep 1
		elapsed=$((elapsed + 1))
	done
) </dev/null >/dev/null 2>&1 &
wait "$pid"
rc=$?
if [ -e "$expired" ]; then
	rm -f "$expired"
	exit 124
fi
exit "$rc"
