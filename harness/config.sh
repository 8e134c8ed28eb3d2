#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure one build directory from its fragment in harness/configs/.
#
# As with kunit.py, the fragment is the whole input, completed by `make
# olddefconfig` when it changed; every option of it is then checked, since
# Kconfig silently drops options whose dependencies are not met.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# usage: config.sh CONFIG [FRAGMENT]: configure $CACHE/build/CONFIG from
# harness/configs/FRAGMENT.config (default: CONFIG's own), with the toolchain
# of TOOLCHAIN (see lib.sh).
cfg=${1:?usage: $0 CONFIG [FRAGMENT]   (fragments: $(ls "$REPO/harness/configs" | sed 's/\.config//' | tr '\n' ' '))}
fragment=$REPO/harness/configs/${2:-$cfg}.config
[ -f "$fragment" ] || die "no fragment $fragment"

out=$CACHE/build/$cfg
mkdir -p "$out"
if [ -f "$out/.config" ] && cmp -s "$fragment" "$out/.fragment"; then
	msg "Configuration '$cfg' is up to date."
	exit 0
fi

msg "Configuring '$cfg' (fragment changed or new)..."
cp "$fragment" "$out/.config"
arch=$(fragment_arch "$fragment")
logged "$LOGS/config-$cfg.log" in_chroot \
	make -C "$KSRC" O="/cache/build/$cfg" LLVM=1 ARCH="$arch" olddefconfig

missing=()
while read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qx "$line" "$out/.config" || missing+=("$line")
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		grep -q "^$opt=" "$out/.config" && missing+=("$line")
		;;
	esac
done <"$fragment"
if [ ${#missing[@]} -gt 0 ]; then
	rm -f "$out/.fragment"
	die "options of $fragment did not land in .config: ${missing[*]}"
fi
cp "$fragment" "$out/.fragment"
msg "Configuration '$cfg' written to $out/.config."
