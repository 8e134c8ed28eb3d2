#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The base-tree lookup of harness/source.sh, without the network: each case
# runs it on a scratch cache (sharing only the toolchain root) against a
# fake Debian archive of tiny linux-source packages, or with DEBUGFS_BASE
# naming a local file. Prints KTAP; a few seconds.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

work=$CACHE/source-test
rm -rf "$work"
mkdir -p "$work/files"

# fake_tree DIR VERSION: a kernel tree of one Makefile that knows its version.
fake_tree() {
	mkdir -p "$1"
	printf 'kernelversion:\n\t@echo %s\n' "$2" >"$1/Makefile"
}

# fake_deb PACKAGE VERSION: a linux-source package holding a fake tree.
fake_deb() {
	local pkg=$1 ver=$2 root=$work/files/$1_$2
	fake_tree "$root/tree/$pkg" "${ver%%-*}"
	mkdir -p "$root/deb/usr/src" "$root/deb/DEBIAN"
	tar -cJf "$root/deb/usr/src/$pkg.tar.xz" -C "$root/tree" "$pkg"
	printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: nobody <nobody@example.org>\nDescription: fake\n' \
		"$pkg" "$ver" >"$root/deb/DEBIAN/control"
	dpkg-deb --build "$root/deb" "$work/files/${pkg}_${ver}_all.deb" >/dev/null
}

# fake_archive NAME DEB...: a flat apt repository of those packages, and the
# sources.list of it, as the toolchain root sees them.
fake_archive() {
	local name=$1 repo=$work/archives/$1 deb
	shift
	mkdir -p "$repo"
	: >"$repo/Packages"
	for deb in "$@"; do
		cp "$work/files/$deb" "$repo/"
		{
			dpkg-deb -f "$repo/$deb"
			echo "Filename: ./$deb"
			echo "Size: $(stat -c %s "$repo/$deb")"
			echo "SHA256: $(sha256sum "$repo/$deb" | cut -d' ' -f1)"
			echo
		} >>"$repo/Packages"
	done
	printf 'Origin: fake\nSuite: fake\nSHA256:\n %s %s Packages\n' \
		"$(sha256sum "$repo/Packages" | cut -d' ' -f1)" "$(stat -c %s "$repo/Packages")" \
		>"$repo/Release"
	echo "deb [trusted=yes] file:/cache/archives/$name ./" >"$repo.list"
}

# source_run CACHE_DIR ARCHIVE [VAR=VALUE...]: source.sh on that cache, with
# the fake archive of that name; its output goes to CACHE_DIR/out.
source_run() {
	local dir=$1 archive=$2
	shift 2
	mkdir -p "$dir"
	ln -sfn "$CACHE/chroot" "$dir/chroot"
	# The fake archives, at /cache/archives in the toolchain root.
	[ -d "$dir/archives" ] || cp -r "$work/archives" "$dir/"
	env DEBUGFS_CACHE="$dir" DEBUGFS_APT_SOURCES="/cache/archives/$archive.list" "$@" \
		bash "$REPO/harness/source.sh" >"$dir/out" 2>&1
}

# expect CACHE_DIR DESCRIPTION CHECK...: a case passes when CHECK
# succeeds; a failed one shows what source.sh printed.
expect() {
	local dir=$1 what=$2
	shift 2
	local before=$KTAP_FAILED
	ktap_case "$what" "$@"
	[ "$KTAP_FAILED" = "$before" ] || sed 's/^/# /' "$dir/out" 2>/dev/null || true
}

# run_in N ARCHIVE [VAR=VALUE...]: source_run on the scratch cache $work/cN,
# which c then names; its exit status in rc.
run_in() {
	c=$work/c$1
	rc=0
	shift
	source_run "$c" "$@" || rc=$?
}

version_is() {
	[ "$(cat "$1/src/linux/.rust-debugfs-version" 2>/dev/null)" = "$2" ]
}

fake_deb linux-source-7.9 7.9.1-1
fake_deb linux-source-7.10 7.10.2-1
fake_deb linux-source-7.3 7.3.9-1
fake_deb linux-source-6.1 6.1.5-1
fake_archive forward linux-source-7.9_7.9.1-1_all.deb linux-source-7.10_7.10.2-1_all.deb \
	linux-source-6.1_6.1.5-1_all.deb
fake_archive other73 linux-source-7.3_7.3.9-1_all.deb linux-source-7.10_7.10.2-1_all.deb
fake_archive none linux-source-6.1_6.1.5-1_all.deb

ktap_begin source-test 9

run_in 1 forward
expect "$c" "no 7.3 offered: falls forward to the newest 7.x, linux-source-7.10" \
	eval '[ $rc = 0 ] && version_is "$c" 7.10.2-1'
expect "$c" "the fall-forward is announced with a loud warning" \
	grep -q 'WARNING: .*gone from the archive: falling forward to linux-source-7.10' "$c/out"

run_in 2 other73
expect "$c" "another 7.3 build offered: it is used, not a newer series, with a warning" \
	eval '[ $rc = 0 ] && version_is "$c" 7.3.9-1 && grep -q "WARNING: .*not the tested" "$c/out"'

run_in 3 none
expect "$c" "no 7.x offered at all: an error that names DEBUGFS_BASE, no tree" \
	eval '[ $rc != 0 ] && grep -q DEBUGFS_BASE "$c/out" && [ ! -e "$c/src/linux" ]'

fake_tree "$work/files/tar/linux-7.9.3" 7.9.3
tar -cJf "$work/files/linux-7.9.3.tar.xz" -C "$work/files/tar" linux-7.9.3
run_in 4 none DEBUGFS_BASE="$work/files/linux-7.9.3.tar.xz"
expect "$c" "DEBUGFS_BASE names a tarball: used without any lookup, with a warning" \
	eval '[ $rc = 0 ] && version_is "$c" 7.9.3 && grep -q "WARNING: .*not the tested" "$c/out" &&
		! grep -q "Looking up" "$c/out"'
expect "$c" "a rerun with the same base extracts nothing" \
	eval 'source_run "$c" none DEBUGFS_BASE="$work/files/linux-7.9.3.tar.xz" &&
		grep -q "is in place" "$c/out" && ! grep -q Extracting "$c/out"'
mkdir -p "$c/build/test"
expect "$c" "another base replaces the tree and clears the build directories" \
	eval 'source_run "$c" none DEBUGFS_BASE="$work/files/linux-source-7.9_7.9.1-1_all.deb" &&
		version_is "$c" 7.9.1-1 && [ ! -e "$c/build/test" ]'

# A file with the tested build's name but other content.
cp "$work/files/linux-source-7.3_7.3.9-1_all.deb" \
	"$work/files/${BASE_PACKAGE}_${BASE_TESTED_VERSION}_all.deb"
run_in 5 none DEBUGFS_BASE="$work/files/${BASE_PACKAGE}_${BASE_TESTED_VERSION}_all.deb"
expect "$c" "DEBUGFS_BASE with the tested name but not its sha256 is refused" \
	eval '[ $rc != 0 ] && grep -q "sha256 differs" "$c/out" && [ ! -e "$c/src/linux" ]'
cp "$work/files/linux-7.9.3.tar.xz" "$work/files/$BASE_PACKAGE.tar.xz"
run_in 6 none DEBUGFS_BASE="$work/files/$BASE_PACKAGE.tar.xz"
expect "$c" "so is a tarball with the tested name but not its sha256" \
	eval '[ $rc != 0 ] && grep -q "sha256 differs" "$c/out"'
ktap_end
[ "$KTAP_FAILED" = 0 ]
