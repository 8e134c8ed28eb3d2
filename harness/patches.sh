#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make patches`: export our work as the patch series a maintainer would
# receive, and prove that it is one.
#
#   1. Commit the series, one logical step per commit, on a git import of
#      the pristine base tree (base_repo in lib.sh).
#   2. Export it with git format-patch: a cover letter with base-commit:,
#      To/Cc from the base tree's get_maintainer.pl (with our MAINTAINERS
#      entry), the author from PATCH_AUTHOR or git's own identity, and no
#      Signed-off-by: that line certifies the Developer's Certificate of
#      Origin, which only the human who posts the series can do
#      (Documentation/process/submitting-patches.rst, coding-assistants.rst).
#   3. checkpatch.pl --strict on every patch (with --codespell).
#   4. Apply the mails back onto the base, one at a time, and check that
#      they give exactly the series' tree; with BISECT=1 (the default of
#      `make patches`), with git am in a checkout, building fs/debugfs/,
#      rust/, samples/rust/ and the selftest module after each patch.
#
# The series goes to $CACHE/patches/. Exit status 1 if anything fails.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BISECT=${BISECT:-0}
out=$CACHE/patches
bash "$REPO/harness/overlay.sh" >/dev/null
base=$(base_repo)
# The mails go to $out; what it takes to make them, to $work.
work=$out/work
rm -rf "$out"
mkdir -p "$work"
author=$(series_author)

# commit MESSAGE PATH...: the next commit of the series, with our version
# of each PATH (the repository's file, or the overlaid tree's for base-tree
# files that only a harness patch changes); a PATH we lack is deleted.
# Works on an index of its own: the base repository is never checked out.
export GIT_INDEX_FILE=$work/index GIT_DIR=$base/.git
email=${author##*<}
export GIT_AUTHOR_NAME=${author% <*} GIT_COMMITTER_NAME=${author% <*}
export GIT_AUTHOR_EMAIL=${email%>} GIT_COMMITTER_EMAIL=${email%>}
git read-tree base
parent=$(git rev-parse base)
commit() {
	local message=$1 path stage=$work/stage
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
# ours PATH...: our files under PATH, from the repository's own index (the
# git of this script is the base's, see GIT_DIR above).
ours() {
	env -u GIT_DIR -u GIT_INDEX_FILE git -C "$REPO" ls-files -- "$@"
}

# Our selftest files, listed one by one: the base tree's own files of that
# directory stay as they are.
mapfile -t selftests < <(ours tools/testing/selftests/rust)
commit "$(harness_message "$P"/0001-*.patch)" fs/debugfs/file.c
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
unset GIT_INDEX_FILE
count=$(git rev-list --count base..series)

# To and Cc: the maintainers of what the series touches, and everyone else
# get_maintainer.pl names (reviewers, lists), from the tree with our entry.
git diff base series >"$work/series.diff"
in_chroot sh -c 'cd /cache/src/linux && perl scripts/get_maintainer.pl --no-git \
	--no-git-fallback --no-keywords --no-tree /cache/patches/work/series.diff' >"$work/maintainers" 2>&1 ||
	die "get_maintainer.pl failed: $(cat "$work/maintainers")"
mapfile -t to < <(grep '(maintainer:' "$work/maintainers" | sed 's/ (.*//')
mapfile -t cc < <(grep -v '(maintainer:' "$work/maintainers" | sed 's/ (.*//')
[ ${#to[@]} -gt 0 ] || die "get_maintainer.pl names no maintainer: $(cat "$work/maintainers")"

git format-patch -q --cover-letter --base=base -o "$out" --from="$author" \
	"${to[@]/#/--to=}" "${cc[@]/#/--cc=}" base..series

# The mails but the cover letter, which sorts first.
series=("$out"/0*.patch)
series=("${series[@]:1}")
msg "Series of $count patches and a cover letter in $out; running checkpatch.pl..."

status=0
# checkpatch asks "does MAINTAINERS need updating?" (FILE_PATH_CHANGES) of
# every patch that adds a file and leaves MAINTAINERS alone, even when an
# entry already covers the file. The question is answered here instead:
# every file the series adds must have a maintainer in the patched tree.
for path in $(git diff --name-only --diff-filter=A base series); do
	if ! in_chroot sh -c 'cd /cache/src/linux &&
		perl scripts/get_maintainer.pl --no-git --no-rolestats -f "$1"' sh "$path" |
		grep -q '<'; then
		msg "checkpatch: no MAINTAINERS entry covers the new file $path"
		status=1
	fi
done
# MISSING_SIGN_OFF is expected (see above), and ignored; so is
# UNKNOWN_COMMIT_ID: the Fixes: of the module pin names a commit of the
# upstream history, which the import of the Debian package lacks.
# The patches are checked side by side: with --codespell, checkpatch.pl
# takes about a minute over the replacement patch alone.
pids=()
for p in "${series[@]}"; do
	in_chroot perl /cache/src/linux/scripts/checkpatch.pl --no-tree --strict --codespell \
		--ignore FILE_PATH_CHANGES,MISSING_SIGN_OFF,UNKNOWN_COMMIT_ID -q \
		"/cache/patches/$(basename "$p")" >"$p.checkpatch" 2>&1 &
	pids+=($!)
done
for i in "${!series[@]}"; do
	p=${series[$i]}
	wait "${pids[$i]}" || status=1
	if [ -s "$p.checkpatch" ]; then
		status=1
		msg "checkpatch: $(basename "$p"):"
		head -n 40 "$p.checkpatch"
	else
		msg "checkpatch: $(basename "$p"): clean"
	fi
done

# Every file of ours is in the series as it is in the repository: one that
# went missing on the way would leave the mails consistent with each other
# and the series incomplete.
while read -r path; do
	if [ "$(git rev-parse -q --verify "series:$path" || true)" != \
		"$(git hash-object "$REPO/$path")" ]; then
		msg "the series lacks $path, or has another version of it"
		status=1
	fi
done < <(ours rust/kernel/debugfs.rs rust/kernel/debugfs samples/rust tools/testing/selftests/rust)

# The mails, applied to the base one at a time, must give the series' tree
# exactly: nothing lost or mangled on the way through format-patch.
export GIT_INDEX_FILE=$work/index
git read-tree base
for p in "${series[@]}"; do
	git apply --cached "$p" || { msg "$(basename "$p") does not apply"; status=1; break; }
done
if [ "$(git write-tree)" = "$(git rev-parse 'series^{tree}')" ]; then
	msg "The $count mails apply to the base and give the series' tree."
else
	msg "The mails applied to the base do not give the series' tree."
	status=1
fi
unset GIT_INDEX_FILE GIT_DIR

# The cover letter: what the series does, what a user sees change against
# the original series, how it was tested, where the sign-off goes.
# BISECTED says whether every patch was built on its own.
write_cover() {
	local tested
	if [ -f "$LOGS/verdict.txt" ]; then
		tested="The last \`make test\` run here: $(cat "$LOGS/verdict.txt")."
	else
		tested="\`make test\` has not run to its end here yet."
	fi
	python3 - "$out/0000-cover-letter.patch" "$(cover_closing)" \
		"$tested $BISECTED" <<'EOF'
import sys
import textwrap

path, closing, results = sys.argv[1:4]
subject = "rust: debugfs: a sound, zero-cost kernel::debugfs, with C's features"
blurb = f"""\
This series replaces the Rust DebugFS abstraction with one that is sound
from safe code and adds what C DebugFS gives drivers. It keeps the design
of the original series (Dir, File<T>, Scope<T>, ScopedDir, the Writer and
Reader traits, per-type file_operations built at compile time, zero-sized
callbacks) and its interface: the original samples build unchanged on
patch 2.

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
 - New: file modes, file sizes, C's hex, Y/N, array and string formats,
   record files over seq_file, register dumps over kernel::io, symlinks.

Testing: KUnit with the Rust doctests and the selftests of patch 5 (run
through kselftest) under QEMU: on x86_64 a test kernel, the same with
randomised Rust layouts, and a debug kernel (KASAN, lockdep, kmemleak,
UBSAN, failslab); on arm64 a test kernel. Built without warnings for
ARMv7 and s390 too; clippy, rustfmt and rustdoc clean with rustc 1.85.1
and the newest Debian rustc.

{textwrap.fill(results.strip(), 72)}

{closing}"""
with open(path) as f:
    text = f.read()
text = text.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
with open(path, "w") as f:
    f.write(text)
EOF
}

BISECTED=
if [ "$BISECT" = 1 ]; then
	if bash "$REPO/harness/bisect.sh" "$base" "${series[@]}"; then
		BISECTED="Every patch was applied with git am and built on its own"
		BISECTED+=" (fs/debugfs/, rust/, samples/rust/, the selftest module; clippy)"
		BISECTED+=" without a warning in the files it touches."
	else
		status=1
	fi
fi
write_cover
exit "$status"
