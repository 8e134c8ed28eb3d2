#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make patches`: our work as the series a maintainer would receive, in
# $CACHE/patches/: committed on the base's git import, exported (series.sh),
# checkpatch.pl --strict clean, the mails giving the series' tree, and with
# BISECT=1 each patch built on its own (bisect.sh). Exit 1 if anything fails.
# shellcheck disable=SC2016,SC2317 # literal patterns; CUT[N] calls the cut_* functions
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$REPO/harness/series.sh"

BISECT=${BISECT:-0}
out=$CACHE/patches
bash "$REPO/harness/overlay.sh" >/dev/null
base=$(base_repo)

# The series is made of steps: step N has a commit message (MESSAGE[N]),
# the paths it sets (PATHS[N]) and, optionally, a function CUT[N] that
# takes what the step adds out of the tree after it, which gives the tree
# before it. The repository holds only the final tree: the tree after each
# step is the final tree less the cuts of the steps after it, made by
# cutting pieces out of files (see cut), never by a second copy of code.
MESSAGE=() PATHS=() CUT=() NAMES=()
# step MESSAGE CUT NAMES PATH...: the next step. NAMES is an extended regex
# of what the step adds, which the tree before it must not mention (the
# docs included) in rust/kernel/debugfs*; empty: nothing is checked.
step() {
	MESSAGE+=("$1") CUT+=("$2") NAMES+=("$3")
	shift 3
	PATHS+=("$*")
}

# cut OP PATH ARG...: takes a piece out of PATH in the tree being cut
# ($cur); fails unless the piece is there, so that a change to the final
# tree that moves it fails the export instead of giving another series.
#   file PATH...       the files or directories
#   lines PATH RE      every line matching RE (at least one)
#   item PATH RE       the item whose first line matches RE (one line
#                      only), with its docs and attributes; a one-line
#                      item, or up to the brace closing it (and the block
#                      around it, if that is left empty)
#   tail PATH RE       the item whose first line matches RE, and every
#                      line after it
#   rows PATH RE       the rows of `//!` lists (`- ` and the lines
#                      continuing it) that match RE (at least one)
#   sub PATH RE TEXT   RE (multi-line, one match) becomes TEXT
#   sub? PATH RE TEXT  the same, if RE matches
cut() {
	python3 - "$cur" "$@" <<'PY' || die "a cut does not apply (cut $*)"
import os, re, shutil, sys

root, op, path, *args = sys.argv[1:]

def fail(why):
    sys.exit(f"cut {op} {path}: {why}")

if op == "file":
    for rel in [path, *args]:
        full = os.path.join(root, rel)
        if os.path.isdir(full):
            shutil.rmtree(full)
        elif os.path.exists(full):
            os.remove(full)
        else:
            fail(f"{rel} is not there")
    sys.exit(0)

full = os.path.join(root, path)
text = open(full).read()
lines = text.splitlines(keepends=True)

def first_line(regex):
    hits = [i for i, line in enumerate(lines) if re.search(regex, line)]
    if len(hits) != 1:
        fail(f"{len(hits)} lines match {regex!r}, not one")
    return hits[0]

def item_start(i):
    while i > 0 and re.match(r"\s*(///|#\[)", lines[i - 1]):
        i -= 1
    return i

def item_end(i):
    indent = re.match(r"\s*", lines[i]).group()
    if lines[i].rstrip().endswith(";"):
        return i + 1
    for j in range(i + 1, len(lines)):
        if lines[j].rstrip() in (indent + "}", indent + "};"):
            return j + 1
    fail(f"no end to the item at line {i + 1}")

def blank(i):
    return 0 <= i < len(lines) and lines[i].strip() == ""

def closes(i):
    return i >= len(lines) or lines[i].strip() in ("}", "};")

if op in ("item", "tail"):
    header = first_line(args[0])
    start = item_start(header)
    end = len(lines) if op == "tail" else item_end(header)
    # The blank line that separated the item from its neighbours.
    if blank(start - 1) and (blank(end) or closes(end)):
        start -= 1
    elif start > 0 and lines[start - 1].rstrip().endswith("{") and blank(end):
        end += 1
    del lines[start:end]
    # A block left empty goes too.
    if 0 < start < len(lines) and lines[start - 1].rstrip().endswith("{") and \
            lines[start].strip() == "}":
        opening = item_start(start - 1)
        del lines[opening - 1 if blank(opening - 1) else opening:start + 1]
    text = "".join(lines)
elif op == "lines":
    kept = [line for line in lines if not re.search(args[0], line)]
    if len(kept) == len(lines):
        fail(f"no line matches {args[0]!r}")
    text = "".join(kept)
elif op == "rows":
    out, row, cut_rows = [], [], 0
    for line in lines + [""]:
        if row and line.startswith("//!   "):
            row.append(line)
            continue
        if row:
            if re.search(args[0], "".join(row)):
                cut_rows += 1
            else:
                out += row
            row = []
        if line.startswith("//! - "):
            row = [line]
        else:
            out.append(line)
    if cut_rows == 0:
        fail(f"no row matches {args[0]!r}")
    text = "".join(out)
elif op in ("sub", "sub?"):
    text, n = re.subn(args[0], args[1], text, flags=re.M)
    if n > 1 or (n == 0 and op == "sub"):
        fail(f"{n} matches of {args[0]!r}")
else:
    fail("unknown operation")
open(full, "w").write(text)
PY
}

D=rust/kernel/debugfs
# mod_cut NAME: the lines of debugfs.rs that declare and re-export the module NAME.
mod_cut() {
	cut lines "$D.rs" "^mod $1;$"
	cut item "$D.rs" "^pub use $1::"
}

P=$REPO/harness/patches
# ours PATH...: our files under PATH, from the repository's own index.
ours() {
	env -u GIT_DIR -u GIT_INDEX_FILE git -C "$REPO" ls-files -- "$@"
}
S=tools/testing/selftests/rust

step "$(harness_message "$P"/0001-*.patch)" '' '' fs/debugfs/file.c
cut_going() {
	(cd "$cur" && git apply -R "$P"/0005-*.patch) || die "0005 does not come off the tree"
}
step "$(harness_message "$P"/0005-*.patch)" cut_going '' fs/debugfs/file.c fs/debugfs/inode.c
step "rust: debugfs: replace the kernel::debugfs implementation

Replace kernel::debugfs with an implementation that never creates
entries at the DebugFS root after a failed parent, reads text files
without seq_file (a whole read allocates nothing), refuses text writes
at an offset, reports Writer errors to read(2), parses integers exactly
like C's attribute files, and requires callbacks to be zero-sized and
Copy.

The interface of the original series is kept: its two samples build
unchanged on top of this patch. The patches that follow add, one each,
what C DebugFS offers and the original series did not." '' '' "$D.rs" "$D"

cut_modes() {
	cut tail "$D/mode.rs" '^pub enum Access'
	cut item "$D/mode.rs" '^use super::'
	cut item "$D/mode.rs" '^use core::'
	cut sub "$D/mode.rs" '^pub struct Mode' 'pub(crate) struct Mode'
	cut sub "$D/mode.rs" '^    pub const OWNER' '    pub(crate) const OWNER'
	cut sub "$D.rs" '^#\[doc\(inline\)\]\npub use mode::\{\n    Access,\n    Mode, //\n\};' \
		'use mode::Mode;'
	cut rows "$D.rs" 'with_mode'
}
step "rust: debugfs: add file modes

C drivers choose the permissions of each DebugFS file: 0444 for a
version anyone may read, 0644 for a tunable, 0200 for a trigger. The
files of kernel::debugfs are 0400, 0600 or 0200, for root only,
whatever the driver needs.

Add Mode, built from who may read and who may write (Access), and
Dir::with_mode() and ScopedDir::with_mode(), which return a handle to
the same directory that creates files, and subdirectories, with that
mode. As C's debugfs_create_blob() does, a file keeps only the bits its
operations implement: a read-only file made with 0644 is 0444." \
	cut_modes '(Dir::|\.)with_mode|fn with_mode\(&|\bAccess\b|READ_ALL' "$D.rs" "$D"

cut_sizes() {
	cut file "$D/sizes.rs"
	cut lines "$D.rs" '^mod sizes;$'
	cut rows "$D.rs" '_with_size'
}
step "rust: debugfs: add file sizes

debugfs_create_file_size() gives a file the size stat() reports, for
tools that size their reads by st_size (a dump read whole with one
read() of st_size bytes, say); other DebugFS files report 0.

Add Dir::read_binary_file_with_size() and
Dir::read_write_binary_file_with_size(), and their ScopedDir
counterparts, whose files report the size given at their creation." \
	cut_sizes '_with_size|mod sizes' "$D.rs" "$D"

cut_formats() {
	cut file "$D/formats.rs"
	mod_cut formats
	cut rows "$D.rs" '\[`(Hex|YesNo|Str|SpaceSeparated)`\]'
	cut item "$D/traits.rs" '^use super::formats::'
	cut lines "$D/traits.rs" '^ *parse_like_c_if!\(Hex<'
	cut item "$D/traits.rs" '^pub\(super\) fn parse_str_like_c\b'
	# ParseLikeC is public only to bound HexDigits.
	cut sub "$D/traits.rs" '^(///\n)?/// Public only to bound \[`HexDigits`\].*\npub trait ParseLikeC' \
		'pub(super) trait ParseLikeC'
	cut 'sub?' "$D/traits.rs" ', `bool`,\n/// \[`Hex`\] or \[`YesNo`\]\) ' ', `bool`)\n/// '
}
step "rust: debugfs: add C's text formats

C DebugFS has hexadecimal integer files (debugfs_create_x8() to
debugfs_create_x64()), Y/N booleans (debugfs_create_bool()), strings
(debugfs_create_str()) and arrays (debugfs_create_u32_array()), and the
tools that read them parse what they print. A driver that moves to
kernel::debugfs must keep that text.

Add Hex, YesNo, Str and SpaceSeparated, which print what C prints and
parse what C parses: an Atomic<Hex<u32>> file reads as 0x0000002a and
takes 0x10, as a debugfs_create_x32() file does. Hex and YesNo are
AtomicTypes, and the Reader impls of atomics and mutexes parse them as
C does." \
	cut_formats '\b(Hex|YesNo|Str|SpaceSeparated|HexDigits)\b|formats::|parse_str_like_c' "$D.rs" "$D"

step "rust: seq_file: add fallible printing and the private pointer

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

Rust DebugFS record files use both." '' '' rust/kernel/seq_file.rs

cut_records() {
	cut file "$D/records.rs"
	mod_cut records
	cut rows "$D.rs" '\[`Records`\]'
	# Only record files and register dumps build tables outside file_ops.rs.
	cut item "$D/file_ops.rs" '^    pub\(super\) const unsafe fn new\('
}
step "rust: debugfs: add record files

A C driver shows a long list (its clients, an event log) through
seq_file iterators: start, next, stop and show render one record at a
time, so that a file of a hundred thousand records costs each reader a
page of buffer, and the lock that keeps the records still is held only
while a read renders.

Add the Records trait, implemented for KVec and Mutex<KVec>, and
Dir::records_file() and ScopedDir::records_file(), whose files are
seq_files that drive those iterators through kernel::seq_file." \
	cut_records '\bRecords\b|records_file|RECORDS|SeqFile' "$D.rs" "$D"

cut_registers() {
	cut file "$D/registers.rs"
	mod_cut registers
	cut rows "$D.rs" 'RegisterDump'
}
step "rust: debugfs: add register dumps

debugfs_create_regset32() shows a table of 32-bit registers, one
\"name = 0x0000002a\" line each: the first thing one reads when a device
misbehaves.

Add RegisterDump, a table of Register32 over an I/O region, and
Dir::registers_file() and ScopedDir::registers_file(). The region is a
RegisterIo, as a PCI BAR is: once the device is unbound, a read fails
with ENODEV instead of reading an unmapped BAR." \
	cut_registers 'Register(Dump|Io|32)|ReadRegister32|registers_file|REGISTERS' "$D.rs" "$D"

cut_symlinks() {
	cut file "$D/symlink.rs"
	mod_cut symlink
	cut rows "$D.rs" 'symlink'
}
step "rust: debugfs: add symbolic links

debugfs_create_symlink() lets a driver give a DebugFS entry a second
name: a stable one for the current device, or a link from a subsystem's
directory to a driver's.

Add Dir::symlink(), whose Symlink removes the link when dropped and
keeps its directory alive until then, and ScopedDir::symlink(), whose
link is removed with its scope." \
	cut_symlinks '[Ss]ymlink' "$D.rs" "$D"

step "samples: rust: rewrite the DebugFS samples

Rewrite the platform and scoped DebugFS samples against the new
kernel::debugfs; their module documentation shows the files and the
commands that drive them." '' '' samples/rust/rust_debugfs.rs samples/rust/rust_debugfs_scoped.rs
step "$(harness_message "$P"/0003-*.patch)" '' '' samples/rust/Kconfig samples/rust/Makefile \
	samples/rust/rust_debugfs_extras.rs samples/rust/rust_debugfs_pci.rs

step "selftests: rust: test the DebugFS samples from user space

Add a KTAP selftest that drives every file of the two DebugFS samples
from user space, as a developer would: modes, contents, valid writes,
and malformed ones, which must fail with the documented errno and leave
the value as it was; and files whose data goes away while open.

It runs the kselftest way: the Makefile lists it, its helpers (shell
functions, and debugfs_io for the system calls a shell cannot make),
config has the options the DebugFS selftests need, and settings gives
each up to 600 seconds. The MAINTAINERS entry of the Rust DebugFS code
covers them." '' '' MAINTAINERS "$S/Makefile" "$S/config" "$S/settings" "$S/debugfs_helpers.sh" \
	"$S/debugfs_io.c" "$S/test_debugfs_samples.sh"

cut_testmod() {
	cut file "$S/debugfs_test_module" "$S/test_debugfs_extras.sh" "$S/test_debugfs_disabled.sh"
	cut lines "$S/Makefile" '^TEST_PROGS \+= test_debugfs_(extras|disabled)\.sh$|^TEST_GEN_MODS_DIR'
}
step "selftests: rust: add a kernel::debugfs test module

Add a test module with one DebugFS file of every kind, and controls
that drop them while they are in use and create them in bulk, which
kselftest builds through TEST_GEN_MODS_DIR; and two selftests: one of
what kernel::debugfs adds to the original series (modes, sizes, C's
formats, record files, register dumps of QEMU's pci-testdev, symbolic
links), one of DebugFS disabled at boot, where the modules must load,
work and unload with nothing created." \
	cut_testmod '' "$S/Makefile" "$S/debugfs_test_module" "$S/test_debugfs_extras.sh" \
	"$S/test_debugfs_disabled.sh"

cut_hostile() {
	cut file "$S/test_debugfs_hostile.sh" "$S/debugfs_test_module/rust_debugfs_leak.rs"
	cut lines "$S/Makefile" '^TEST_PROGS \+= test_debugfs_hostile\.sh$'
	cut lines "$S/debugfs_test_module/Kbuild" '^obj-m \+= rust_debugfs_leak\.o$'
}
step "selftests: rust: test kernel::debugfs under hostile conditions

Add a selftest that drives the test module and the samples the way a
hostile or unlucky user space would: malformed writes by the hundred,
reads in pieces and after seeks, files dropped while readers block in
them, modules unloaded while their files are open, processes racing
opens, reads and writes with scope churn, and thousands of creations
under failslab; and a second test module that leaks its files across
rmmod (a static, an Arc cycle, mem::forget) or fails its init while
one is open. It leaves fault injection and kmemleak as it found them." \
	cut_hostile '' "$S/Makefile" "$S/test_debugfs_hostile.sh" "$S/debugfs_test_module"

cut_compile_fail() {
	cut file "$S/debugfs_compile_fail"
}
step "selftests: rust: add kernel::debugfs snippets that must not compile

Add one snippet per safety rule of kernel::debugfs that breaks it and
must be rejected by the compiler, with the error it names, each with a
twin that keeps the rule and must compile (so that a snippet cannot
fail for another reason). They build as external modules against a
configured kernel tree, one at a time." cut_compile_fail '' "$S/debugfs_compile_fail"

# The tree after each step, from the last: $stages/N.
stages=$CACHE/build/series-stages
cur=$stages/cur
rm -rf "$stages"
mkdir -p "$cur"
read -ra paths <<<"${PATHS[*]}"
for path in "${paths[@]}"; do
	[ -e "$cur/$path" ] && continue
	mkdir -p "$cur/$(dirname "$path")"
	if [ -e "$REPO/$path" ]; then
		cp -r "$REPO/$path" "$cur/$path"
	else
		cp -r "$TREE/$path" "$cur/$path"
	fi
done
status=0
for ((n = ${#MESSAGE[@]}; n > 0; n--)); do
	cp -r "$cur" "$stages/$n"
	[ -n "${CUT[n - 1]}" ] || continue
	"${CUT[n - 1]}"
	if [ -n "${NAMES[n - 1]}" ] &&
		grep -rnE "${NAMES[n - 1]}" "$cur/$D.rs" "$cur/$D" >"$stages/names" 2>&1; then
		msg "the tree before patch $n still names what it adds:"
		sed "s|^$cur/||" "$stages/names"
		status=1
	fi
	if command -v rustfmt >/dev/null &&
		! rustfmt --check --edition 2021 --config-path "$TREE/.rustfmt.toml" "$cur/$D.rs" \
			>"$stages/rustfmt" 2>&1; then
		msg "the tree before patch $n is not formatted:"
		sed "s|$cur/||" "$stages/rustfmt" | head -40
		status=1
	fi
done

# Each step on the base's git import, on an index of its own: the base
# repository is never checked out.
export GIT_INDEX_FILE=$CACHE/build/series-index GIT_DIR=$base/.git
git read-tree base
parent=$(git rev-parse base)
for n in "${!MESSAGE[@]}"; do
	# -f: the .gitignore of Debian's package ignores every new file.
	read -ra paths <<<"${PATHS[n]}"
	git --work-tree="$stages/$((n + 1))" add -A -f -- "${paths[@]}"
	parent=$(echo "${MESSAGE[n]}" | git commit-tree "$(git write-tree)" -p "$parent")
done
git update-ref refs/heads/series "$parent"
unset GIT_INDEX_FILE GIT_DIR
count=$(git -C "$base" rev-list --count base..series)

export_series series "$out"
msg "Series of $count patches and a cover letter in $out; running checkpatch.pl..."
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
# patch_of RE: the number of the patch whose subject matches RE.
patch_of() {
	local n
	for n in "${!MESSAGE[@]}"; do
		if head -n 1 <<<"${MESSAGE[n]}" | grep -qE "$1"; then
			echo $((n + 1))
			return
		fi
	done
	die "no patch of the series matches $1"
}
core=$(patch_of 'replace the kernel::debugfs implementation')
first=$(patch_of 'add file modes')
last=$(patch_of 'add symbolic links')
seqfile=$(patch_of '^rust: seq_file:')
tests=$(patch_of '^selftests:')
write_cover "$out" "rust: debugfs: a sound, zero-cost kernel::debugfs, with C's features" <<EOF
This series replaces the Rust DebugFS abstraction with one that is sound
from safe code, then adds what C DebugFS gives drivers. Patch $core keeps
the design of the original series (Dir, File<T>, Scope<T>, ScopedDir, the
Writer and Reader traits, per-type file_operations built at compile time,
zero-sized callbacks) and its interface: the original samples build
unchanged on it. Patches $first to $last each add one thing C DebugFS offers
and the original series did not (patch $seqfile prepares kernel::seq_file
for record files). Samples and selftests follow.

$(for n in "${!MESSAGE[@]}"; do
	printf '%3d %s\n' $((n + 1)) "$(head -n 1 <<<"${MESSAGE[n]}")"
done)

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
 - New (patches $first to $last): file modes, file sizes, C's hex, Y/N,
   array and string formats, record files over seq_file, register dumps
   over kernel::io, symlinks.

Testing: KUnit with the Rust doctests and the selftests of patches
$tests to ${#MESSAGE[@]} (run through kselftest) under QEMU: on x86_64 a test
kernel, the same with randomised Rust layouts, and a debug kernel (KASAN,
lockdep, kmemleak, UBSAN, failslab); on arm64 a test kernel. Built without
warnings for ARMv7 and s390 too; clippy, rustfmt and rustdoc clean with
rustc 1.85.1 and the newest Debian rustc.

$(echo "$tested $BISECTED" | fmt -w 72)
EOF
exit "$status"
