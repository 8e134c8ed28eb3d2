#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch and extract the base tree: Debian's linux-source-7.3.
#
# Debian keeps only the newest backport, so we pin the series and prefer
# the exact build we tested (verified by sha256). If another 7.3.x is all
# that is offered we use it and say so loudly; if no 7.3 is offered at
# all, we stop and name what is. A rerun with the tree in place does
# nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --help ]; then
	echo "usage: $0   (extracts $TREE)"
	exit 0
fi

BASE_TESTED_SHA256=703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3

base=$TREE
if [ -f "$base/.rust-debugfs-version" ]; then
	msg "Base tree $(cat "$base/.rust-debugfs-version") is in place ($base)."
	exit 0
fi

mkdir -p "$CACHE/dl" "$CACHE/src"
deb=$(ls "$CACHE"/dl/"$BASE_PACKAGE"_*.deb 2>/dev/null | head -n1 || true)
if [ -z "$deb" ]; then
	msg "Looking up $BASE_PACKAGE in trixie-backports (apt-get update)..."
	logged "$LOGS/source.log" in_chroot apt-get update
	offered=$(in_chroot apt-cache policy "$BASE_PACKAGE" |
		awk '/Candidate:/ { print $2 }')
	if [ -z "$offered" ] || [ "$offered" = "(none)" ]; then
		die "$BASE_PACKAGE is not offered. Offered linux-source packages:" \
			"$(in_chroot apt-cache search --names-only '^linux-source-' | tr '\n' ' ')"
	fi
	if [ "$offered" != "$BASE_TESTED_VERSION" ]; then
		msg "WARNING: $BASE_PACKAGE $offered is offered, not the tested" \
			"$BASE_TESTED_VERSION; using it anyway."
	fi
	msg "Downloading $BASE_PACKAGE $offered (about 170 MB)..."
	logged "$LOGS/source.log" in_chroot sh -c \
		"cd /cache/dl && apt-get download $BASE_PACKAGE=$offered"
	deb=$(ls "$CACHE"/dl/"$BASE_PACKAGE"_*.deb | head -n1)
fi

version=$(basename "$deb" .deb | cut -d_ -f2)
if [ "$version" = "$BASE_TESTED_VERSION" ]; then
	echo "$BASE_TESTED_SHA256  $deb" | sha256sum --quiet -c - ||
		die "$deb does not match the sha256 of the tested build; delete it and retry."
fi

msg "Extracting $BASE_PACKAGE $version..."
start=$(now)
tmp=$CACHE/src/extract.tmp
rm -rf "$tmp" "$base"
mkdir -p "$tmp"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/src/
tarball=$(ls "$tmp"/usr/src/linux-source-*.tar.xz)
tar -xJf "$tarball" -C "$tmp"
mv "$tmp/$(basename "$tarball" .tar.xz)" "$base"
rm -rf "$tmp"
echo "$version" >"$base/.rust-debugfs-version"
msg "Base tree $version extracted in $(($(now) - start)) s."
