#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a toolchain root, a Debian trixie root made by mmdebstrap, with the
# pinned minimum toolchain and all the tests need; with TOOLCHAIN=newest,
# the build tools with trixie-backports' newest Rust. With source.sh the only
# stage that downloads, and it says so; a rerun with the root in place does
# nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROOT=$(toolchain_root)
if [ "${1:-}" = --help ]; then
	echo "usage: [TOOLCHAIN=newest] $0   (creates $ROOT)"
	exit 0
fi

MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

BUILD=(
	# bindgen 0.71.1 is 7.3's minimum; trixie's clang 19 passes its
	# libclang check and is the LLVM=1 toolchain.
	bindgen clang lld llvm libclang-dev
	# The kernel build itself.
	make gcc libc6-dev bc flex bison libelf-dev libssl-dev cpio python3
	kmod xz-utils git perl
)
case ${TOOLCHAIN:-minimum} in
minimum)
	PACKAGES=(
		"${BUILD[@]}"
		# rustc 1.85.1 is 7.3's minimum Rust.
		rustc rust-src rustfmt rust-clippy
		# Guest user space, the ACPI table of the platform sample, and QEMU.
		busybox-static acpica-tools qemu-system-x86
		# The arm64 guest: QEMU and a cross compiler.
		qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross
		# kselftest's install, checkpatch.pl --codespell.
		rsync codespell
		# Fetching the base tree.
		ca-certificates
	)
	BACKPORTED=()
	;;
newest)
	PACKAGES=("${BUILD[@]}")
	BACKPORTED=(rustc rust-src rustfmt rust-clippy)
	;;
esac

stamp=$ROOT/.rust-debugfs-packages
want="$(printf '%s\n' "${PACKAGES[@]}" | sort | tr '\n' ' ')${BACKPORTED[*]}"

# guest_root ARCH: a foreign guest's user space, extracted into $CACHE/guest-ARCH.
guest_root() {
	local dir=$CACHE/guest-$1
	[ -x "$dir/usr/bin/busybox" ] && return 0
	msg "Extracting the $1 guest's user space into $dir (downloads from $MIRROR)..."
	rm -rf "$dir" "$dir.new"
	logged "$LOGS/guest-root-$1.log" mmdebstrap --variant=extract --arch="$1" \
		--include=busybox-static,bash,kmod trixie "$dir.new" "deb $MIRROR trixie main" &&
		mv "$dir.new" "$dir"
}

# update_root: an older root gets what is new with apt.
update_root() {
	local install=(apt-get install -y -q --no-install-recommends)
	[ -f "$stamp" ] || return 1
	msg "Adding packages to the toolchain root $ROOT (downloads from $MIRROR)..."
	logged "$LOGS/chroot-${TOOLCHAIN:-minimum}.log" in_chroot sh -c \
		'apt-get update -q && DEBIAN_FRONTEND=noninteractive "$@"' sh \
		"${install[@]}" "${PACKAGES[@]}" || return 1
	if [ ${#BACKPORTED[@]} -gt 0 ]; then
		logged "$LOGS/chroot-${TOOLCHAIN:-minimum}-backports.log" in_chroot \
			env DEBIAN_FRONTEND=noninteractive "${install[@]}" -t trixie-backports \
			"${BACKPORTED[@]}" || return 1
	fi
	echo "$want" >"$stamp"
}

# make_root: the root from nothing.
make_root() {
	local start include hooks=()
	command -v mmdebstrap >/dev/null || {
		msg "Installing mmdebstrap on the host (apt-get)..."
		apt-get update -q >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q mmdebstrap >/dev/null
	}
	msg "Creating Debian trixie root in $ROOT (downloads from $MIRROR)..."
	start=$(now)
	rm -rf "$ROOT.new"
	include=$(IFS=,; echo "${PACKAGES[*]}")
	if [ ${#BACKPORTED[@]} -gt 0 ]; then
		hooks=(--customize-hook="chroot \"\$1\" apt-get install -y -q -t trixie-backports ${BACKPORTED[*]}")
	fi
	logged "$LOGS/chroot-${TOOLCHAIN:-minimum}.log" mmdebstrap \
		--variant=apt \
		--include="$include" \
		--skip=cleanup/apt/lists \
		--aptopt='APT::Install-Recommends "false"' \
		"${hooks[@]}" \
		trixie "$ROOT.new" \
		"deb $MIRROR trixie main" \
		"deb $MIRROR trixie-backports main"
	echo "$want" >"$ROOT.new/.rust-debugfs-packages"
	rm -rf "$ROOT"
	mv "$ROOT.new" "$ROOT"
	msg "Toolchain root ready in $(($(now) - start)) s:" \
		"$(in_chroot rustc --version), $(in_chroot bindgen --version 2>&1 | head -n1)"
}

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	msg "Toolchain root is up to date ($ROOT)."
elif ! update_root; then
	make_root
fi
[ "${TOOLCHAIN:-minimum}" = newest ] || guest_root arm64
