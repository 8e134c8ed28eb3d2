#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Lay our files into the base tree, replacing the base's own kernel::debugfs.
#
# The paths in REPLACED must hold exactly our files afterwards; every other
# file of the repository's sparse tree is copied over the base's, only when
# it differs, so that make rebuilds only what changed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --help ]; then
	echo "usage: $0   (updates $TREE from $REPO)"
	exit 0
fi

[ -f "$TREE/.rust-debugfs-version" ] || die "no base tree in $TREE: run 'make source'"

# Paths where the base tree's implementation is replaced by ours.
REPLACED=(
	rust/kernel/debugfs.rs
	rust/kernel/debugfs
	samples/rust/rust_debugfs.rs
	samples/rust/rust_debugfs_scoped.rs
	samples/rust/rust_debugfs_extras.rs
	samples/rust/rust_debugfs_pci.rs
)

# The repository's top-level directories that mirror the kernel's layout.
SPARSE=(rust samples tools Documentation)

cd "$REPO"
changed=0
for path in "${REPLACED[@]}"; do
	# Delete base files (and stale files of ours) that the repository lacks.
	if [ -e "$TREE/$path" ]; then
		while IFS= read -r -d '' file; do
			rel=${file#"$TREE/"}
			if [ ! -f "$REPO/$rel" ]; then
				rm -f "$file"
				changed=$((changed + 1))
			fi
		done < <(find "$TREE/$path" -type f -print0)
	fi
done

while IFS= read -r -d '' rel; do
	if ! cmp -s "$rel" "$TREE/$rel"; then
		mkdir -p "$(dirname "$TREE/$rel")"
		cp "$rel" "$TREE/$rel"
		changed=$((changed + 1))
	fi
done < <(git ls-files -z --cached --others --exclude-standard -- "${SPARSE[@]}")

# harness/patches/*.patch, applied in order; a copy of each is kept in the
# tree, so that one that changed or went away is reversed first.
applied=$TREE/.rust-debugfs-patches
mkdir -p "$applied"
for old in $(ls -r "$applied"); do
	if ! cmp -s "$applied/$old" "$REPO/harness/patches/$old"; then
		git -C "$TREE" apply -R "$applied/$old" ||
			die "cannot reverse the old $old; re-extract the base tree (rm -rf $TREE)"
		rm "$applied/$old"
		changed=$((changed + 1))
	fi
done
for patch in "$REPO"/harness/patches/*.patch; do
	[ -e "$patch" ] || continue
	name=$(basename "$patch")
	[ -e "$applied/$name" ] && continue
	git -C "$TREE" apply "$patch" || die "$name does not apply to the base tree"
	cp "$patch" "$applied/$name"
	changed=$((changed + 1))
	msg "Applied $name."
done

# Prove that the replaced paths hold our files and nothing else.
for path in "${REPLACED[@]}"; do
	if [ -e "$path" ] || [ -e "$TREE/$path" ]; then
		diff -r -q "$path" "$TREE/$path" >/dev/null 2>&1 ||
			die "after the overlay, $TREE/$path differs from the repository's $path"
	fi
done
msg "Overlay: $changed file(s) updated in $TREE; base debugfs implementation absent."
