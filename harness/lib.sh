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
# The tree build.sh and config.sh use, as the toolchain root sees it.
KSRC=${KSRC:-/cache/src/linux}
LOGS=$CACHE/logs
JOBS=${JOBS:-$(nproc)}
V=${V:-0}

mkdir -p "$CACHE" "$LOGS"

# One run at a time per cache: the first script of a run takes $CACHE/lock,
# the scripts it starts inherit it, and a second run waits.
if [ "${DEBUGFS_LOCKED:-}" != "$CACHE" ]; then
	exec 9>>"$CACHE/lock"
	if ! flock -n 9; then
		printf '[%(%H:%M:%S)T] %s\n' -1 "Another run holds $CACHE/lock: waiting for it..." >&2
		flock 9
	fi
	export DEBUGFS_LOCKED=$CACHE
fi

# The series we test against, and the package (and its tarball) tested last.
BASE_SERIES=7.3
BASE_PACKAGE=linux-source-$BASE_SERIES
BASE_TESTED_VERSION=7.3.4-1~bpo13+1
BASE_TESTED_SHA256=703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3
BASE_TESTED_TARBALL_SHA256=76df1affb19f24926949369be1d74b60071c963c598ce8780bddd4bbf0fc3bc4
# Where harness/source.sh records the archive the base tree comes from.
BASE_RECORD=$CACHE/dl/base-archive

msg() {
	printf '[%(%H:%M:%S)T] %s\n' -1 "$*"
}

die() {
	printf '[%(%H:%M:%S)T] ERROR: %s\n' -1 "$*" >&2
	exit 1
}

# logged LOGFILE CMD...: CMD's output to LOGFILE (and the terminal if V=1).
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

# The toolchain root: the kernel's minimum Rust, or with TOOLCHAIN=newest
# the newest rustc Debian ships (compiles and lints only).
toolchain_root() {
	case ${TOOLCHAIN:-minimum} in
	minimum) echo "$CACHE/chroot" ;;
	newest) echo "$CACHE/chroot-newest" ;;
	*) die "TOOLCHAIN is 'minimum' or 'newest', not '$TOOLCHAIN'" ;;
	esac
}

# in_chroot CMD...: CMD in the toolchain root, in a private mount namespace
# whose mounts the kernel drops whenever CMD ends.
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

# fragment_arch FILE: make's ARCH= of a fragment of harness/configs/, from
# its line "# ARCH=arm64"; x86 (x86_64) if it has none.
fragment_arch() {
	local arch
	arch=$(sed -n 's/^# ARCH=\([a-z0-9]*\)$/\1/p' "$1" 2>/dev/null)
	echo "${arch:-x86}"
}

# cfg_arch CONFIG: the architecture of a build directory (its .fragment).
cfg_arch() {
	fragment_arch "$CACHE/build/$1/.fragment"
}

# cfg_cc CONFIG: the C compiler for CONFIG's user space.
cfg_cc() {
	case $(cfg_arch "$1") in
	x86) echo gcc ;;
	arm64) echo aarch64-linux-gnu-gcc ;;
	*) die "no C compiler for the user space of '$1'" ;;
	esac
}

now() {
	date +%s
}

# setup CONFIG[:FRAGMENT]...: the toolchain root, the base tree with our
# files, and each CONFIG's .config (from configs/FRAGMENT.config), each step
# doing only what changed. The one chain behind every make target.
setup() {
	local step cfg
	for step in chroot.sh source.sh overlay.sh; do
		bash "$REPO/harness/$step" || return
	done
	for cfg; do
		# shellcheck disable=SC2086 # CONFIG and FRAGMENT as two words.
		bash "$REPO/harness/config.sh" ${cfg/:/ } || return
	done
}

# base_archive: the .deb or tarball the base tree comes from (source.sh).
base_archive() {
	[ -s "$BASE_RECORD" ] || die "no base archive recorded in $BASE_RECORD: run 'make source'"
	cat "$BASE_RECORD"
}

# base_name: the package and version of the base, "linux-source-7.3
# 7.3.4-1~bpo13+1", or a tarball's file name.
base_name() {
	local archive
	archive=$(base_archive) || return 1
	case $archive in
	*.deb) basename "$archive" .deb | sed 's/_/ /; s/_.*//' ;;
	*) basename "$archive" ;;
	esac
}

# base_origin: one line saying where the base tree comes from.
base_origin() {
	case $(base_archive) in
	*.deb) echo "Linux as packaged by Debian: $(base_name)" ;;
	*) echo "Linux from $(base_name)" ;;
	esac
}

# base_extract DIR [PATTERN...]: the base archive's kernel tree, or the
# members matching PATTERNs, extracted into DIR.
base_extract() {
	local dir=$1 archive
	shift
	archive=$(base_archive) || return 1
	set -- --strip-components=1 ${1:+--wildcards} "$@"
	case $archive in
	*.deb)
		dpkg-deb --fsys-tarfile "$archive" |
			tar -x -O --wildcards './usr/src/linux-source-*.tar.*' |
			tar -x -J -C "$dir" "$@"
		;;
	*) tar -x -f "$archive" -C "$dir" "$@" ;;
	esac
}

# base_repo: the pristine base as a git repository, $CACHE/src/base, whose
# one commit "base" is reproducible (fixed identity and date). Made once.
base_repo() {
	local repo=$CACHE/src/base name
	if ! git -C "$repo" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
		rm -rf "$repo" "$repo.tmp"
		msg "Importing the pristine base tree into git (once)..." >&2
		mkdir -p "$repo.tmp"
		base_extract "$repo.tmp" || return 1
		name=$(base_name)
		(
			cd "$repo.tmp" || exit
			export GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL=
			export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL=
			export GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000"
			git init -q
			git add -A -f
			git commit -q -m "$(base_origin)"
			git tag base
		) >&2
		mv "$repo.tmp" "$repo"
	fi
	echo "$repo"
}

# base_worktree DIR: a worktree of base_repo at DIR, checked out once.
base_worktree() {
	local base
	base=$(base_repo) || return 1
	if ! [ -e "$1/.git" ]; then
		rm -rf "$1"
		git -C "$base" worktree prune
		msg "Checking out the pristine base in $1 (once)..."
		git -C "$base" worktree add -q --detach "$1" base
	fi
}

# The KTAP of the harness's own checks, between the guest's markers:
#   ktap_begin NAME PLAN, ktap_case DESCRIPTION CMD... (ok if CMD succeeds),
#   ktap_end (exit 1 if a case failed). To plan after the cases, print them
#   to a file, then ktap_begin NAME "$KTAP_N" and the file.
KTAP_N=0
KTAP_FAILED=0
ktap_begin() {
	KTAP_NAME=$1
	echo "SELFTEST-BEGIN $1"
	echo "TAP version 13"
	echo "1..$2"
}

ktap_case() {
	local description=$1
	shift
	KTAP_N=$((KTAP_N + 1))
	if "$@"; then
		echo "ok $KTAP_N $description"
	else
		KTAP_FAILED=$((KTAP_FAILED + 1))
		echo "not ok $KTAP_N $description"
	fi
}

ktap_end() {
	echo "SELFTEST-END $KTAP_NAME $([ "$KTAP_FAILED" = 0 ] && echo 0 || echo 1)"
}
