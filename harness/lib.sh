# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers of the harness scripts. Sourced, never run.
#
# Everything heavy lives in one cache directory outside the repository:
#
#   $CACHE/chroot/        Debian trixie root with the pinned toolchain
#   $CACHE/chroot-newest/ the same build tools with the newest Debian rustc
#   $CACHE/dl/            downloaded base-tree package
#   $CACHE/src/linux/     the base tree, with our files laid in
#   $CACHE/build/<cfg>/   one O= output directory per configuration
#   $CACHE/logs/          logs of the last run of each stage
#
# Inside the chroot the cache is mounted at /cache and the repository
# (read-only) at /repo.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${DEBUGFS_CACHE:-${XDG_CACHE_HOME:-/var/cache}/rust-debugfs}
TREE=$CACHE/src/linux
LOGS=$CACHE/logs
JOBS=${JOBS:-$(nproc)}
V=${V:-0}

mkdir -p "$CACHE" "$LOGS"

# The series we test against, and the exact build tested most recently.
BASE_SERIES=7.3
BASE_PACKAGE=linux-source-$BASE_SERIES
BASE_TESTED_VERSION=7.3.4-1~bpo13+1

msg() {
	printf '[%(%H:%M:%S)T] %s\n' -1 "$*"
}

die() {
	printf '[%(%H:%M:%S)T] ERROR: %s\n' -1 "$*" >&2
	exit 1
}

# Run a command, sending its output to a log file unless V=1.
# Usage: logged LOGFILE CMD...
logged() {
	local log=$1
	shift
	if [ "$V" = 1 ]; then
		"$@" 2>&1 | tee "$log"
	else
		if ! "$@" >"$log" 2>&1; then
			echo "---- last lines of $log ----" >&2
			tail -n 30 "$log" >&2
			return 1
		fi
	fi
}

# The toolchain root in use: the kernel's minimum Rust, which everything is
# built and tested with, or with TOOLCHAIN=newest the newest rustc Debian
# ships, which only compiles, lints and documents our code.
toolchain_root() {
	case ${TOOLCHAIN:-minimum} in
	minimum) echo "$CACHE/chroot" ;;
	newest) echo "$CACHE/chroot-newest" ;;
	*) die "TOOLCHAIN is 'minimum' or 'newest', not '$TOOLCHAIN'" ;;
	esac
}

# Run a command inside the toolchain root, in a private mount namespace.
#
# /proc, /sys and /dev are needed by rustfmt, objtool and QEMU. Mounting
# them inside `unshare --mount` means the kernel drops every mount when
# the command ends, whether it succeeds, fails or is interrupted, so the
# host never keeps stale mounts.
in_chroot() {
	local root
	root=$(toolchain_root)
	[ -x "$root/usr/bin/rustc" ] || die "no toolchain in $root: run 'make chroot'"
	mkdir -p "$root/cache" "$root/repo"
	unshare --mount --propagation private -- /bin/sh -euc '
		root=$1 cache=$2 repo=$3
		shift 3
		mount -t proc proc "$root/proc"
		mount -t sysfs sys "$root/sys"
		mount --rbind /dev "$root/dev"
		# NO_KVM=1: QEMU, which hangs on the KVM of this machine, finds none.
		if [ "${NO_KVM:-0}" = 1 ] && [ -e "$root/dev/kvm" ]; then
			mount --bind /dev/null "$root/dev/kvm"
		fi
		mount --bind "$cache" "$root/cache"
		mount --bind "$repo" "$root/repo"
		mount -o remount,bind,ro "$root/repo"
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
			HOME=/root LANG=C.UTF-8 TERM=dumb "$@"
	' sh "$root" "$CACHE" "$REPO" "$@"
}

# Seconds since the epoch, for stage timings.
now() {
	date +%s
}

# Sets up everything up to a built test kernel, as `make run` and
# `make bench` need it (warnings in our files are reported, not fatal).
prepare_test_kernel() {
	local step
	for step in chroot.sh source.sh overlay.sh "config.sh test"; do
		# shellcheck disable=SC2086 # step carries its argument.
		bash "$REPO"/harness/$step
	done
	bash "$REPO/harness/build.sh" test bzImage modules || [ $? = 3 ]
}

# base_repo: the whole pristine base tree as a git repository whose one
# commit, tagged "base", is made reproducibly (fixed identity and date: the
# same package gives the same commit id). `make patches` commits the series
# on it, exports it with git format-patch, and applies it back with git am.
# Made once; prints its path, $CACHE/src/base.
base_repo() {
	local repo=$CACHE/src/base debs version
	if ! git -C "$repo" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
		rm -rf "$repo" "$repo.tmp"
		msg "Importing the pristine base tree into git (once)..." >&2
		mkdir -p "$repo.tmp"
		debs=("$CACHE"/dl/"$BASE_PACKAGE"_*.deb)
		version=$(basename "${debs[0]}" .deb | cut -d_ -f2)
		dpkg-deb --fsys-tarfile "${debs[0]}" | tar -x -O "./usr/src/$BASE_PACKAGE.tar.xz" |
			tar -xJ -C "$repo.tmp" --strip-components=1
		(
			cd "$repo.tmp" || exit
			export GIT_AUTHOR_NAME="$BASE_PACKAGE $version" GIT_AUTHOR_EMAIL=
			export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL=
			export GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000"
			git init -q
			git add -A -f
			git commit -q -m "Linux as packaged by Debian: $BASE_PACKAGE $version"
			git tag base
		) >&2
		mv "$repo.tmp" "$repo"
	fi
	echo "$repo"
}

# harness_message PATCH: the subject line and body of a patch kept in the
# repository (harness/patches, harness/upstream-fixes), as a commit message.
harness_message() {
	sed -n '/^Subject:/,/^---$/p' "$1" | sed -e '/^---$/d' -e 's/^Subject: \[PATCH\] //'
}

# series_author: who the exported series are from: PATCH_AUTHOR, else git's
# identity, else the author of the repository's last commit.
series_author() {
	if [ -n "${PATCH_AUTHOR:-}" ]; then
		echo "$PATCH_AUTHOR"
	elif git -C "$REPO" var GIT_AUTHOR_IDENT >/dev/null 2>&1; then
		git -C "$REPO" var GIT_AUTHOR_IDENT | sed 's/> .*/>/'
	else
		git -C "$REPO" log -1 --format='%an <%ae>'
	fi
}

# Extracts, once, the base tree's own versions of the files we replace, and
# prints where they are: $CACHE/src/pristine.
pristine_tree() {
	local pristine=$CACHE/src/pristine debs
	if [ ! -f "$pristine/MAINTAINERS" ] || [ ! -f "$pristine/samples/rust/Kconfig" ]; then
		rm -rf "$pristine" "$pristine.tmp"
		msg "Extracting the base tree's own kernel::debugfs and samples (once)..." >&2
		mkdir -p "$pristine.tmp"
		debs=("$CACHE"/dl/"$BASE_PACKAGE"_*.deb)
		dpkg-deb --fsys-tarfile "${debs[0]}" | tar -x -O "./usr/src/$BASE_PACKAGE.tar.xz" |
			tar -xJ -C "$pristine.tmp" --strip-components=1 --wildcards \
				'*/rust/kernel/debugfs*' '*/samples/rust/rust_debugfs*' '*/MAINTAINERS' \
				'*/samples/rust/Kconfig' '*/samples/rust/Makefile'
		mv "$pristine.tmp" "$pristine"
	fi
	echo "$pristine"
}
