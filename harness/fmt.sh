#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Format our Rust files with the chroot's rustfmt and the base tree's
# .rustfmt.toml (what `make rustfmtcheck` checks), then copy them back into
# the repository.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bash "$REPO/harness/overlay.sh" >/dev/null
cd "$REPO"
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- \
	'rust/*.rs' 'samples/*.rs')
[ ${#files[@]} -gt 0 ] || exit 0
in_chroot sh -c 'cd /cache/src/linux && rustfmt --config-path .rustfmt.toml "$@"' sh "${files[@]}"
for f in "${files[@]}"; do
	cmp -s "$TREE/$f" "$f" || { cp "$TREE/$f" "$f"; msg "formatted $f"; }
done
