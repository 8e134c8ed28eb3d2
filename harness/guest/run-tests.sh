#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script of `make test`: runs our selftests and prints each KTAP
# document between markers, then the kernel log for the harness to scan.
# Kernel messages are kept off the console meanwhile, so that they cannot
# split a KTAP line; they all appear in the final dmesg.
dmesg -n 1
for t in /selftests/rust/test_debugfs*.sh; do
	name=$(basename "$t" .sh)
	MODULES=/modules "$t" >"/tmp/$name.ktap" 2>&1
	rc=$?
	echo "SELFTEST-BEGIN $name"
	cat "/tmp/$name.ktap"
	echo "SELFTEST-END $name $rc"
done
echo "DMESG-BEGIN"
dmesg
echo "DMESG-END"
