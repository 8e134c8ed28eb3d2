#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Format every Rust file of the repository with the chroot's rustfmt and the
# base tree's .rustfmt.toml (what `make rustfmtcheck` checks). Files are
# formatted in a scratch copy inside the cache and copied back only if
# rustfmt changed them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -f "$TREE/.rustfmt.toml" ] || die "no base tree in $TREE: run 'make source'"
cd "$REPO"
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.rs')
[ ${#files[@]} -gt 0 ] || exit 0
scratch=$CACHE/fmt
rm -rf "$scratch"
mkdir -p "$scratch"
cp "$TREE/.rustfmt.toml" "$scratch/"
for f in "${files[@]}"; do
	mkdir -p "$scratch/$(dirname "$f")"
	cp "$f" "$scratch/$f"
done
in_chroot sh -c 'cd /cache/fmt && rustfmt --config-path .rustfmt.toml "$@"' sh "${files[@]}"
for f in "${files[@]}"; do
	cmp -s "$scratch/$f" "$f" || { cp "$scratch/$f" "$f"; msg "formatted $f"; }
done
