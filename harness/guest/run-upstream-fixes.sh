#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script of the boots of harness/upstream-fixes.sh: runs
# test_upstream_fixes.sh from the tree that script installed and prints its
# KTAP between markers for the host to count.
t=/kselftest/rust/test_upstream_fixes.sh
"$t" >/tmp/test_upstream_fixes.ktap 2>&1
rc=$?
echo "SELFTEST-BEGIN test_upstream_fixes"
cat /tmp/test_upstream_fixes.ktap
echo "SELFTEST-END test_upstream_fixes $rc"
