#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make patches`: export our work as a patch series against the pristine
# base tree, the way it would be posted, and run the base tree's
# scripts/checkpatch.pl on every patch.
#
#   harness/patches/*    base-tree patches the overlay applies, as they are
#                        (those of MAINTAINERS and samples/rust/{Kconfig,Makefile}
#                        go into the patches with the files they list)
#   then                 rust: debugfs: replace the kernel::debugfs implementation
#                        samples: rust: replace the DebugFS samples
#                        selftests: rust: add the kernel::debugfs selftests
#
# The series goes to $CACHE/patches/. Exit status 1 if checkpatch reports
# any error or warning.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$CACHE/patches
bash "$REPO/harness/overlay.sh" >/dev/null

pristine=$(pristine_tree)
rm -rf "$out"
mkdir -p "$out/a" "$out/b"
author=$(git -C "$REPO" log -1 --format='%an <%ae>')

# make_patch NUMBER SUBJECT BODY PATH...: one patch of PATHs (repo-relative),
# comparing the pristine base (absent paths are new files) with ours.
make_patch() {
	local number=$1 subject=$2 body=$3 file
	shift 3
	rm -rf "$out/a" "$out/b"
	mkdir -p "$out/a" "$out/b"
	for path in "$@"; do
		if [ -e "$pristine/$path" ]; then
			mkdir -p "$out/a/$(dirname "$path")"
			cp -r "$pristine/$path" "$out/a/$path"
		fi
		# Ours: the repository's file, or for base-tree files that only a
		# harness patch changes (MAINTAINERS), the patched tree's.
		if [ -e "$REPO/$path" ]; then
			mkdir -p "$out/b/$(dirname "$path")"
			cp -r "$REPO/$path" "$out/b/$path"
		elif [ -e "$TREE/$path" ]; then
			mkdir -p "$out/b/$(dirname "$path")"
			cp "$TREE/$path" "$out/b/$path"
		fi
	done
	file=$out/$number-$(echo "$subject" | tr -c 'a-zA-Z0-9\n' '-' | tr -s '-' | sed 's/-$//').patch
	{
		echo "From: $author"
		echo "Subject: [PATCH $((10#$number))/$total] $subject"
		echo
		echo "$body" | fold -s -w 72 | sed 's/ *$//'
		echo
		echo "---"
		(cd "$out" && git diff --no-index --stat=72 a b || true) |
			sed -e 's|^ a/b/| |' -e 's|^ a/| |' -e 's|^ b/| |' -e 's|{a => b}/||' -e 's|^ \.\.\./|  |'
		echo
		(cd "$out" && git diff --no-index a b || true) |
			sed -e 's|^diff --git a/[ab]/|diff --git a/|' -e 's| b/[ab]/| b/|' \
				-e 's|^--- a/a/|--- a/|' -e 's|^+++ b/b/|+++ b/|'
		echo "-- "
		echo "2.47.3"
	} >"$file"
	rm -rf "$out/a" "$out/b"
	echo "$file"
}

series=()
# The base-tree patches the overlay applies come first, as they are, but
# for those of MAINTAINERS and the samples' Kconfig and Makefile, which go
# with the files they list.
mapfile -t own < <(ls "$REPO"/harness/patches/*.patch | grep -v 'MAINTAINERS\|samples-rust')
total=$((${#own[@]} + 3))
number=0
for hp in "${own[@]}"; do
	number=$((number + 1))
	file=$out/$(basename "$hp")
	{
		echo "From: $author"
		sed -n '/^Subject:/,/^---$/p' "$hp" | sed '/^---$/d' |
			sed "s/^Subject: \[PATCH\]/Subject: [PATCH $number\/$total]/"
		echo "---"
		sed -n '/^---$/,$p' "$hp" | sed '1d'
		echo "-- "
		echo "2.47.3"
	} >"$file"
	series+=("$file")
done
series+=("$(make_patch "$(printf '%04d' $((number + 1)))" "rust: debugfs: replace the kernel::debugfs implementation" \
	"Replace kernel::debugfs with an implementation that never creates entries at the DebugFS root after a failed parent, reads text files without seq_file (a whole read allocates nothing), refuses text writes at an offset, reports Writer errors to read(2), parses integers exactly like C's attribute files, and requires callbacks to be zero-sized and Copy. It adds what C DebugFS offers and the original series did not: file modes, file sizes, C's hex, Y/N, array and string formats, record files driven by seq_file, register dumps over kernel::io, and symlinks." \
	rust/kernel/debugfs.rs rust/kernel/debugfs)")
series+=("$(make_patch "$(printf '%04d' $((number + 2)))" "samples: rust: replace the DebugFS samples" \
	"Rewrite the platform and scoped DebugFS samples against the new kernel::debugfs; their module documentation shows the files and the commands that drive them. Add rust_debugfs_extras, which shows modes, sizes, the C formats, a record file and symlinks, and rust_debugfs_pci, a register dump of QEMU's pci-testdev." \
	samples/rust/Kconfig samples/rust/Makefile \
	samples/rust/rust_debugfs.rs samples/rust/rust_debugfs_scoped.rs \
	samples/rust/rust_debugfs_extras.rs samples/rust/rust_debugfs_pci.rs)")
series+=("$(make_patch "$(printf '%04d' $((number + 3)))" "selftests: rust: add the kernel::debugfs selftests" \
	"Add KTAP selftests that drive both samples and a test module with one file of every kind from user space: bad input, files dropped or their module unloaded while open, concurrency, fault injection and DebugFS disabled at boot; and snippets that must not compile, one per safety rule of the API." \
	MAINTAINERS \
	tools/testing/selftests/rust/debugfs_helpers.sh \
	tools/testing/selftests/rust/test_debugfs_samples.sh \
	tools/testing/selftests/rust/test_debugfs_hostile.sh \
	tools/testing/selftests/rust/test_debugfs_disabled.sh \
	tools/testing/selftests/rust/test_debugfs_extras.sh \
	tools/testing/selftests/rust/debugfs_io.c \
	tools/testing/selftests/rust/debugfs_testmod \
	tools/testing/selftests/rust/debugfs_compile_fail)")

msg "Series in $out; running checkpatch.pl..."
status=0
# checkpatch asks "does MAINTAINERS need updating?" (FILE_PATH_CHANGES) of
# every patch that adds a file and leaves MAINTAINERS alone, even when an
# entry already covers the file. The question is answered here instead:
# every file the series adds must have a maintainer in the patched tree.
for path in $(awk '/^diff --git / { path = substr($4, 3) }
	/^new file mode/ { print path }' "${series[@]}"); do
	if ! in_chroot sh -c 'cd /cache/src/linux &&
		perl scripts/get_maintainer.pl --no-git --no-rolestats -f "$1"' sh "$path" |
		grep -q '<'; then
		msg "checkpatch: no MAINTAINERS entry covers the new file $path"
		status=1
	fi
done
# The series carries no Signed-off-by: that line certifies the Developer's
# Certificate of Origin, which only the human who posts the series can do
# (Documentation/process/submitting-patches.rst and coding-assistants.rst).
# checkpatch's MISSING_SIGN_OFF is therefore expected, and ignored.
for p in "${series[@]}"; do
	rel=${p#"$CACHE/"}
	if ! in_chroot perl /cache/src/linux/scripts/checkpatch.pl --no-tree \
		--ignore FILE_PATH_CHANGES,MISSING_SIGN_OFF -q "/cache/$rel" >"$p.checkpatch" 2>&1; then
		status=1
	fi
	if [ -s "$p.checkpatch" ]; then
		status=1
		msg "checkpatch: $(basename "$p"):"
		head -n 40 "$p.checkpatch"
	else
		msg "checkpatch: $(basename "$p"): clean"
	fi
done
exit "$status"
