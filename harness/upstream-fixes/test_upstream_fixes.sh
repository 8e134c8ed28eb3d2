#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The run-time defects of the base tree's own kernel::debugfs that the
# series in harness/upstream-fixes/ fixes, one or two cases each, named
# after the defect. On the unpatched base every case fails; with the series
# applied every case passes. The harness boots both and checks both.
#
# Uses upstream's own samples (modprobe) and rust_debugfs_fixes.ko next to
# this script; the failed-directory case needs failslab, whose settings are
# put back afterwards. The case of the Scope lifetime fix is a build: a
# scope on borrowed data must not compile (harness/upstream-fixes.sh).

DIR="$(dirname "$(readlink -f "$0")")"
KTAP_HELPERS="${DIR}/../kselftest/ktap_helpers.sh"
if [ -e "$KTAP_HELPERS" ]; then
	. "$KTAP_HELPERS"
else
	echo "$KTAP_HELPERS file not found [SKIP]"
	exit 4
fi
. "$DIR/debugfs_helpers.sh"

DEBUGFS=/sys/kernel/debug
F=$DEBUGFS/rust_debugfs_fixes
FS=$DEBUGFS/failslab
FAILSLAB_KNOBS="task-filter verbose ignore-gfp-wait times interval probability"
CHURN=300
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ktap_print_header
if ! grep -q debugfs /proc/mounts; then
	ktap_skip_all "DebugFS is not mounted"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 8

# debugfs: pin the module of owner-less file operations.
modprobe rust_debugfs_scoped
S=$DEBUGFS/rust_scoped_debugfs
echo "fixes 1" >"$S/control/create"
# A process of its own holds the file open. If the module goes away under
# it anyway (the defect), that process is left running to the end of the
# boot: closing the file would then run in freed module memory.
sleep 100000 3<"$S/dynamic/fixes/0" &
holder=$!
i=0
while ! [ -e "/proc/$holder/fd/3" ] && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if rmmod rust_debugfs_scoped 2>/dev/null; then
	ktap_test_fail "module pin: rmmod is refused while a file of the module is open"
	ktap_test_fail "module pin: the module unloads once its file is closed"
else
	ktap_test_pass "module pin: rmmod is refused while a file of the module is open"
	kill "$holder"
	wait "$holder"
	check "module pin: the module unloads once its file is closed" \
		"$(rmmod rust_debugfs_scoped && echo yes)" yes
fi

# rust: debugfs: parse integers and booleans like C DebugFS.
modprobe rust_debugfs
C=$DEBUGFS/sample_debugfs/counter
check "C parsing: 0x10 written to sample_debugfs/counter reads back 16" \
	"$(write_at "$C" 0 '0x10\n') $(cat "$C")" "OK 16"
rmmod rust_debugfs
insmod "$DIR/rust_debugfs_fixes.ko"
check "C parsing: -0x10 written to an i32 file reads back -16" \
	"$(write_at "$F/signed" 0 '-0x10\n') $(cat "$F/signed")" "OK -16"
check "C parsing: 128 written to an i8 file fails with ERANGE, the value stays 7" \
	"$(write_at "$F/small" 0 '128\n') $(cat "$F/small")" "ERANGE 7"
check "C parsing: Y written to a bool file reads back true" \
	"$(write_at "$F/flag" 0 'Y\n') $(cat "$F/flag")" "OK true"

# rust: debugfs: report Writer errors to read(2).
err=$(cat "$F/failing_writer" 2>&1 >/dev/null)
check "Writer errors: reading a file whose Writer fails fails with EINVAL" \
	"$(errno_of "${err##*: }")" EINVAL

# rust: debugfs: do not create the children of a failed directory.
if [ -d "$FS" ]; then
	for knob in $FAILSLAB_KNOBS; do
		cat "$FS/$knob" >"$TMP/failslab-$knob"
	done
	# The filter first and the probability last, as the hostile test does;
	# only the writing shell fails allocations, after it opened the file.
	echo Y >"$FS/task-filter"
	echo 0 >"$FS/verbose"
	echo N >"$FS/ignore-gfp-wait"
	echo -1 >"$FS/times"
	echo 1 >"$FS/interval"
	echo 10 >"$FS/probability"
	sh -c "exec 3>$F/churn; echo 1 >/proc/self/make-it-fail; echo $CHURN >&3"
	churned=$?
	echo 0 >"$FS/probability"
	for knob in $FAILSLAB_KNOBS; do
		cat "$TMP/failslab-$knob" >"$FS/$knob"
	done
	# What the scopes of directories that could not be created made.
	strays=0
	for entry in "$DEBUGFS"/rust_debugfs_fixes_stray*; do
		[ -e "$entry" ] && strays=$((strays + 1))
	done
	check "failed directories: $CHURN scopes under failslab leave nothing at the DebugFS root" \
		"$churned $strays" "0 0"
else
	ktap_test_skip "failed directories: failslab is not in this kernel"
fi
rmmod rust_debugfs_fixes

ktap_finished
