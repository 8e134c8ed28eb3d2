#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch and extract the base tree: Debian's linux-source-7.3, preferably
# the build we tested (checked by sha256); else another 7.3 build with a
# warning; else the newest linux-source-7.x with a loud one. DEBUGFS_BASE=FILE
# names a local .deb or tarball instead (checked by sha256 if it has the
# tested name). DEBUGFS_APT_SOURCES=/cache/FILE: that sources.list alone
# (source-test.sh). Another archive replaces the tree and the build
# directories; the same one does nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --help ]; then
	sed -n '3,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
fi

warn() {
	msg "WARNING: ********************************************************"
	msg "WARNING: $*"
	msg "WARNING: ********************************************************"
}

apt_opts=()
if [ -n "${DEBUGFS_APT_SOURCES:-}" ]; then
	mkdir -p "$CACHE/apt-lists/partial"
	apt_opts=(-o "Dir::Etc::SourceList=$DEBUGFS_APT_SOURCES" -o Dir::Etc::SourceParts=-
		-o Dir::State::Lists=/cache/apt-lists)
fi
apt_in_chroot() {
	local cmd=$1
	shift
	in_chroot "$cmd" "${apt_opts[@]}" "$@"
}

# offered_version PACKAGE: the version apt would install, or nothing.
offered_version() {
	apt_in_chroot apt-cache policy "$1" | awk '/Candidate:/ && $2 != "(none)" { print $2 }'
}

# fetch_base: downloads the base package into $CACHE/dl, prints its path.
fetch_base() {
	local package=$BASE_PACKAGE offered newest
	msg "Looking up $BASE_PACKAGE (apt-get update)..." >&2
	logged "$LOGS/source.log" apt_in_chroot apt-get update >&2
	offered=$(offered_version "$package")
	if [ -z "$offered" ]; then
		newest=$(apt_in_chroot apt-cache search --names-only '^linux-source-7\.[0-9]+$' |
			awk '{ print $1 }' | sort -V | tail -n 1)
		[ -n "$newest" ] || die "neither $BASE_PACKAGE nor any linux-source-7.x is offered;" \
			"point DEBUGFS_BASE at a linux-source .deb or a kernel tarball"
		warn "$BASE_PACKAGE is gone from the archive: falling forward to $newest." \
			"It is untested: our base-tree patches may not apply, tests may fail." >&2
		package=$newest
		offered=$(offered_version "$package")
	elif [ "$offered" != "$BASE_TESTED_VERSION" ]; then
		warn "$BASE_PACKAGE $offered is offered, not the tested $BASE_TESTED_VERSION;" \
			"using it." >&2
	fi
	msg "Downloading $package $offered (about 170 MB)..." >&2
	logged "$LOGS/source.log" in_chroot sh -c 'cd /cache/dl && exec "$@"' sh \
		apt-get "${apt_opts[@]}" download "$package=$offered" >&2
	ls "$CACHE"/dl/"$package"_*.deb | sort -V | tail -n 1
}

# check_archive FILE: refuses a file that carries the tested build's name
# but not its content, and warns about any other.
check_archive() {
	local file=$1 sum=
	case $(basename "$file") in
	"${BASE_PACKAGE}_${BASE_TESTED_VERSION}_all.deb") sum=$BASE_TESTED_SHA256 ;;
	"$BASE_PACKAGE.tar.xz") sum=$BASE_TESTED_TARBALL_SHA256 ;;
	esac
	if [ -n "$sum" ]; then
		echo "$sum  $file" | sha256sum --quiet -c - 2>/dev/null ||
			die "$file is not the tested build (sha256 differs); delete it and retry."
	else
		warn "the base $(basename "$file") is not the tested build" \
			"(${BASE_PACKAGE}_${BASE_TESTED_VERSION}_all.deb)." >&2
	fi
}

mkdir -p "$CACHE/dl" "$CACHE/src"
if [ -n "${DEBUGFS_BASE:-}" ]; then
	archive=$(realpath "$DEBUGFS_BASE") || die "DEBUGFS_BASE: no such file: $DEBUGFS_BASE"
	[ -f "$archive" ] || die "DEBUGFS_BASE is not a file: $DEBUGFS_BASE"
elif [ -s "$BASE_RECORD" ] && [ -f "$(cat "$BASE_RECORD")" ]; then
	archive=$(cat "$BASE_RECORD")
else
	archive=$(ls "$CACHE"/dl/"$BASE_PACKAGE"_*.deb 2>/dev/null | sort -V | tail -n 1 || true)
	[ -n "$archive" ] || archive=$(fetch_base)
fi

# A tree extracted before the archive was recorded is the one in $CACHE/dl.
if [ -f "$TREE/.rust-debugfs-version" ] && [ ! -s "$BASE_RECORD" ] && [ -z "${DEBUGFS_BASE:-}" ]
then
	echo "$archive" >"$BASE_RECORD"
fi
if [ -f "$TREE/.rust-debugfs-version" ] && [ "$(cat "$BASE_RECORD" 2>/dev/null)" = "$archive" ]
then
	msg "Base tree $(cat "$TREE/.rust-debugfs-version") is in place ($TREE)."
	exit 0
fi

check_archive "$archive"
if [ -s "$BASE_RECORD" ] && [ "$(cat "$BASE_RECORD")" != "$archive" ]; then
	msg "The base changes from $(cat "$BASE_RECORD") to $archive:" \
		"removing the old tree, its imports and the build directories."
	rm -rf "$CACHE/build" "$CACHE/src"
	mkdir -p "$CACHE/src"
fi
echo "$archive" >"$BASE_RECORD"

msg "Extracting $(base_name)..."
start=$(now)
tmp=$CACHE/src/extract.tmp
rm -rf "$tmp" "$TREE"
mkdir -p "$tmp"
base_extract "$tmp"
[ -f "$tmp/Makefile" ] || die "$archive holds no kernel tree"
case $archive in
*.deb) version=$(basename "$archive" .deb | cut -d_ -f2) ;;
*) version=$(make -s -C "$tmp" kernelversion 2>/dev/null || basename "$archive") ;;
esac
mv "$tmp" "$TREE"
echo "$version" >"$TREE/.rust-debugfs-version"
msg "Base tree $version extracted in $(($(now) - start)) s."
