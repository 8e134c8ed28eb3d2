#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build make targets in one configuration's output directory, with LLVM=1
# and CLIPPY=1 (one build gives the objects and the lints). Warnings in our
# files are tracked across incremental builds by warnings.py, per log.
#
# usage: build.sh CONFIG TARGET...
# exit:  0 built, no warnings in our files; 3 built with warnings in our
#        files; anything else: not built (2 the build failed, 1 a setup error)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cfg=${1:?usage: $0 CONFIG TARGET...}
shift
[ $# -gt 0 ] || die "usage: $0 CONFIG TARGET..."

# One log per configuration and module build, named after its MO= (else M=).
m='' mo=''
for arg; do
	case $arg in
	M=*) m=$(basename "${arg#M=}") ;;
	MO=*) mo=$(basename "${arg#MO=}") ;;
	esac
done
m=${mo:-$m}
log=$LOGS/build-$cfg${m:+-$m}.log
msg "Building '$cfg': $* (log: $log)..."
start=$(now)
if ! logged "$log" in_chroot make -C "$KSRC" O="/cache/build/$cfg" \
	LLVM=1 ARCH="$(cfg_arch "$cfg")" CLIPPY=1 -j"$JOBS" "$@"; then
	msg "Build of '$cfg' FAILED after $(($(now) - start)) s; see $log"
	exit 2
fi
msg "Built '$cfg' in $(($(now) - start)) s."
rc=0
python3 "$REPO/harness/warnings.py" "$log" "$CACHE/build/$cfg" \
	"$CACHE/build/$cfg/.debugfs-warnings" || rc=$?
case $rc in
0) ;;
1) exit 3 ;;
*) die "warnings.py failed ($rc) on $log" ;;
esac
