#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make patches`: our work as the series a maintainer would receive, in
# $CACHE/patches/: committed on the base's git import, exported (series.sh),
# checkpatch.pl --strict clean, the mails giving the series' tree, and with
# BISECT=1 each patch built on its own (bisect.sh). Exit 1 if anything fails.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$REPO/harness/series.sh"

BISECT=${BISECT:-0}
out=$CACHE/patches
bash "$REPO/harness/overlay.sh" >/dev/null
base=$(base_repo)
stage=$CACHE/build/series-stage

# commit MESSAGE PATH...: the next commit, with our version of each PATH
# (the repository's, else the overlaid tree's); a PATH we lack is deleted.
# On an index of its own: the base repository is never checked out.
export GIT_INDEX_FILE=$CACHE/build/series-index GIT_DIR=$base/.git
git read-tree base
parent=$(git rev-parse base)
commit() {
	local message=$1 path
	shift
	rm -rf "$stage"
	for path in "$@"; do
		mkdir -p "$stage/$(dirname "$path")"
		if [ -e "$REPO/$path" ]; then
			cp -r "$REPO/$path" "$stage/$path"
		elif [ -e "$TREE/$path" ]; then
			cp -r "$TREE/$path" "$stage/$path"
		fi
	done
	# -f: the .gitignore of Debian's package ignores every new file.
	git --work-tree="$stage" add -A -f -- "$@"
	parent=$(echo "$message" | git commit-tree "$(git write-tree)" -p "$parent")
}

P=$REPO/harness/patches
# ours PATH...: our files under PATH, from the repository's own index.
ours() {
	env -u GIT_DIR -u GIT_INDEX_FILE git -C "$REPO" ls-files -- "$@"
}

# Our selftest files one by one: the base's own files there stay.
mapfile -t selftests < <(ours tools/testing/selftests/rust)
commit "$(harness_message "$P"/0001-*.patch)" fs/debugfs/file.c
commit "rust: seq_file: add fallible printing and the private pointer

SeqFile::call_printf() goes through %pA, which cannot report an error
of a formatting trait: a Display that fails leaves part of its text in
the buffer, and show() cannot tell. Add SeqFile::write_fmt(), which
appends with seq_write() and returns that error; text that does not fit
still only marks the seq_file overflowed, for seq_read() to retry with a
larger buffer. Nothing is allocated, so show() may use it in atomic
context.

Add private() and private_field(), the private pointer and its address,
for seq_operations that keep their iterator state there (the allocation
of __seq_open_private(), or a value of a pointer's size in the field
itself after seq_open()).

Rust DebugFS record files use both." rust/kernel/seq_file.rs
commit "rust: debugfs: replace the kernel::debugfs implementation

Replace kernel::debugfs with an implementation that never creates
entries at the DebugFS root after a failed parent, reads text files
without seq_file (a whole read allocates nothing), refuses text writes
at an offset, reports Writer errors to read(2), parses integers exactly
like C's attribute files, and requires callbacks to be zero-sized and
Copy.

It adds what C DebugFS offers and the original series did not: file
modes, file sizes, C's hex, Y/N, array and string formats, record files
driven by seq_file, register dumps over kernel::io, and symlinks.

The interface of the original series is kept: its two samples build
unchanged on top of this patch." rust/kernel/debugfs.rs rust/kernel/debugfs
commit "samples: rust: rewrite the DebugFS samples

Rewrite the platform and scoped DebugFS samples against the new
kernel::debugfs; their module documentation shows the files and the
commands that drive them." samples/rust/rust_debugfs.rs samples/rust/rust_debugfs_scoped.rs
commit "$(harness_message "$P"/0003-*.patch)" samples/rust/Kconfig samples/rust/Makefile \
	samples/rust/rust_debugfs_extras.rs samples/rust/rust_debugfs_pci.rs
commit "selftests: rust: add the kernel::debugfs selftests

Add KTAP selftests that drive the samples and a test module with one
file of every kind from user space: bad input, files dropped or their
module unloaded while open, concurrency, fault injection and DebugFS
disabled at boot; and snippets that must not compile, one per safety
rule of the API.

They run the kselftest way: the Makefile lists them, their helpers and
the test module (TEST_GEN_MODS_DIR), config has the options they need,
and settings gives each up to 600 seconds. They leave fault injection
and kmemleak as they found them. The MAINTAINERS entry of the Rust
DebugFS code covers them." MAINTAINERS tools/testing/selftests/rust/Makefile \
	tools/testing/selftests/rust/config "${selftests[@]}"
git update-ref refs/heads/series "$parent"
unset GIT_INDEX_FILE GIT_DIR
count=$(git -C "$base" rev-list --count base..series)

export_series series "$out"
msg "Series of $count patches and a cover letter in $out; running checkpatch.pl..."
status=0
new_files_maintained series || status=1
checkpatch_mails
for mail in "${MAILS[@]}"; do
	if [ -s "$mail.checkpatch" ]; then
		status=1
		msg "checkpatch: $(basename "$mail"):"
		sed -n '1,40p' "$mail.checkpatch"
	else
		msg "checkpatch: $(basename "$mail"): clean"
	fi
done

# Every file of ours is in the series as it is in the repository.
while read -r path; do
	if [ "$(git -C "$base" rev-parse -q --verify "series:$path" || true)" != \
		"$(git hash-object "$REPO/$path")" ]; then
		msg "the series lacks $path, or has another version of it"
		status=1
	fi
done < <(ours rust/kernel/seq_file.rs rust/kernel/debugfs.rs rust/kernel/debugfs samples/rust \
	tools/testing/selftests/rust)
if mails_give series; then
	msg "The $count mails apply to the base and give the series' tree."
else
	msg "The mails applied to the base do not give the series' tree."
	status=1
fi

BISECTED=
if [ "$BISECT" = 1 ]; then
	if bash "$REPO/harness/bisect.sh" "${MAILS[@]}"; then
		BISECTED="Every patch was applied with git am and built on its own"
		BISECTED+=" (fs/debugfs/, rust/, samples/rust/, the selftest module; clippy)"
		BISECTED+=" without a warning in the files it touches."
	else
		status=1
	fi
fi
if [ -f "$LOGS/verdict.txt" ]; then
	tested="The last \`make test\` run here: $(cat "$LOGS/verdict.txt")."
else
	tested="\`make test\` has not run to its end here yet."
fi
write_cover "$out" "rust: debugfs: a sound, zero-cost kernel::debugfs, with C's features" <<EOF
This series replaces the Rust DebugFS abstraction with one that is sound
from safe code and adds what C DebugFS gives drivers. It keeps the design
of the original series (Dir, File<T>, Scope<T>, ScopedDir, the Writer and
Reader traits, per-type file_operations built at compile time, zero-sized
callbacks) and its interface: the original samples build unchanged on
patch 3.

User-visible differences from the original series:

 - A module cannot go away while one of its DebugFS files is open
   (patch 1): rmmod fails with EWOULDBLOCK instead of leaving the close
   to run in freed memory.
 - Children of a directory that could not be created are not created at
   the DebugFS root.
 - Writer errors reach read(2) as an errno instead of a short file.
 - Integer files parse input like C's attribute files (0x, 0 and sign
   prefixes, range checks: ERANGE), bool files take C's Y/N/1/0/on/off.
 - Text reads allocate nothing; writes at an offset fail with EINVAL.
 - A binary write that does not fit fails whole with EFBIG, and a failed
   binary write leaves the value as it was.
 - The data of a Scope must be owned (T: 'static): a leaked scope can no
   longer leave files on freed memory.
 - Callbacks must be Copy as well as zero-sized.
 - New: file modes, file sizes, C's hex, Y/N, array and string formats,
   record files over seq_file, register dumps over kernel::io, symlinks.

Testing: KUnit with the Rust doctests and the selftests of patch 6 (run
through kselftest) under QEMU: on x86_64 a test kernel, the same with
randomised Rust layouts, and a debug kernel (KASAN, lockdep, kmemleak,
UBSAN, failslab); on arm64 a test kernel. Built without warnings for
ARMv7 and s390 too; clippy, rustfmt and rustdoc clean with rustc 1.85.1
and the newest Debian rustc.

$(echo "$tested $BISECTED" | fmt -w 72)
EOF
exit "$status"
