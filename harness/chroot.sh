#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the pinned toolchain: a Debian trixie root (with trixie-backports)
# made by mmdebstrap. This is the only stage, together with source.sh, that
# downloads anything, and it says so. A rerun with the root in place does
# nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --help ]; then
	echo "usage: $0   (creates $CHROOT)"
	exit 0
fi

MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

PACKAGES=(
	# Rust for Linux: rustc 1.85.1 and bindgen 0.71.1 are 7.3's minimums.
	rustc rust-src bindgen rustfmt rust-clippy
	# LLVM=1 toolchain; trixie's clang 19 passes 7.3's libclang check.
	clang lld llvm libclang-dev
	# The kernel build itself.
	make gcc libc6-dev bc flex bison libelf-dev libssl-dev cpio python3
	kmod xz-utils git perl
	# Guest user space, the ACPI table of the platform sample, and QEMU.
	busybox-static acpica-tools qemu-system-x86
	# Fetching the base tree.
	ca-certificates
)

stamp=$CHROOT/.rust-debugfs-packages
want=$(printf '%s\n' "${PACKAGES[@]}" | sort | tr '\n' ' ')
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	msg "Toolchain root is up to date ($CHROOT)."
	exit 0
fi

command -v mmdebstrap >/dev/null || {
	msg "Installing mmdebstrap on the host (apt-get)..."
	apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q mmdebstrap >/dev/null
}

msg "Creating Debian trixie root in $CHROOT (downloads from $MIRROR)..."
start=$(now)
rm -rf "$CHROOT.new"
include=$(IFS=,; echo "${PACKAGES[*]}")
logged "$LOGS/chroot.log" mmdebstrap \
	--variant=apt \
	--include="$include" \
	--skip=cleanup/apt/lists \
	--aptopt='APT::Install-Recommends "false"' \
	trixie "$CHROOT.new" \
	"deb $MIRROR trixie main" \
	"deb $MIRROR trixie-backports main"
echo "$want" >"$CHROOT.new/.rust-debugfs-packages"
rm -rf "$CHROOT"
mv "$CHROOT.new" "$CHROOT"
msg "Toolchain root ready in $(($(now) - start)) s:" \
	"$(in_chroot rustc --version), $(in_chroot bindgen --version 2>&1 | head -n1)"
