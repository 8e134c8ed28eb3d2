#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make upstream-fixes`: the defects we fixed, as patches against the base
# tree's own kernel::debugfs, and the proof that each is real and fixed.
#
#   1. harness/patches/0001-* and harness/upstream-fixes/*.patch, committed
#      on the base's git import and exported like our series (series.sh).
#   2. The pristine base and the base with the mails applied by git am,
#      each built with upstream's samples and upstream-fixes/testmod/.
#   3. The Scope lifetime fix: a scope on borrowed data compiles on the
#      base and is rejected with the fixes.
#   4. Both boot test_upstream_fixes.sh: with the fixes every case passes,
#      on the base every case fails (turned around into upstream_defects).
#
# BUILD=0 (make test): step 1 only. Prints the KTAP of steps 1 to 3; with
# --verdict, counts it all (upstream_fixes_verdict) and prints the verdict
# line. The mails go to $CACHE/upstream-fixes/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$REPO/harness/series.sh"

if [ "${1:-}" = --help ]; then
	sed -n '3,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
fi

BUILD=${BUILD:-1}
out=$CACHE/upstream-fixes
work=$CACHE/build/upstream-fixes-work
mkdir -p "$work"
# A run that dies early must leave no old results to count.
rm -f "$LOGS/upstream-fixes.log"
cases=$work/cases
: >"$cases"

# result DESCRIPTION CMD...: one KTAP case for the status of CMD.
result() {
	ktap_case "$@" >>"$cases"
}

patches=("$REPO"/harness/patches/0001-*.patch "$REPO"/harness/upstream-fixes/*.patch)
base=$(base_repo)
# The same patches give the same commits, dated by our last change to them.
date=$(git -C "$REPO" log -1 --format=%ad --date=raw -- "${patches[@]#"$REPO"/}" 2>/dev/null) ||
	date=
export GIT_AUTHOR_DATE="${date:-$(date -u +%s) +0000}"
export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE

# --- 1. the series ----------------------------------------------------------
# Committed on an index of its own: no worktree is touched.
commit_series() {
	local p parent
	parent=$(git rev-parse base)
	git read-tree base
	for p in "${patches[@]}"; do
		git apply --cached "$p" || { msg "$(basename "$p") does not apply to the base"; return 1; }
		parent=$(harness_message "$p" | git commit-tree "$(git write-tree)" -p "$parent")
	done
	git update-ref refs/heads/upstream-fixes "$parent"
}

msg "Committing the ${#patches[@]} upstream fixes on the pristine base..."
GIT_DIR=$base/.git GIT_INDEX_FILE=$work/index commit_series ||
	die "the upstream fixes do not apply to the pristine base"
series_tree=$(git -C "$base" rev-parse 'upstream-fixes^{tree}')

if [ "$BUILD" = 1 ]; then
	base_worktree "$CACHE/src/upstream-base"
	base_worktree "$CACHE/src/upstream-fixed"
fi

export_series upstream-fixes "$out" || die "the upstream fixes could not be exported"
checkpatch_mails
for m in "${MAILS[@]}"; do
	result "checkpatch.pl --strict: $(basename "$m")" test ! -s "$m.checkpatch"
done

# The fixed tree is made again only when the series changed.
fixed=$CACHE/src/upstream-fixed
apply_mails() {
	if [ "$(git -C "$fixed" rev-parse 'HEAD^{tree}')" != "$series_tree" ]; then
		msg "Applying the mails to the pristine base with git am..."
		git -C "$fixed" am --abort >/dev/null 2>&1 || true
		git -C "$fixed" reset -q --hard base
		git -C "$fixed" am -q "${MAILS[@]}" >"$LOGS/upstream-fixes-am.log" 2>&1 || return 1
	fi
	[ "$(git -C "$fixed" rev-parse 'HEAD^{tree}')" = "$series_tree" ]
}
if [ "$BUILD" = 1 ]; then
	result "the ${#MAILS[@]} mails apply to the pristine base with git am and give the series" \
		apply_mails
else
	result "the ${#MAILS[@]} mails apply to the pristine base and give the series" \
		mails_give upstream-fixes
fi

# cover_letter: what the series fixes and what this run showed.
cover_letter() {
	local fixed base host_ok tested
	host_ok=$(grep -c '^ok ' "$cases" || true)
	if [ "$BUILD" = 1 ]; then
		fixed=$(tr -d '\r' <"$LOGS/upstream-fixed-boot.log" 2>/dev/null | grep -c '^ok ' || true)
		base=$(grep -c '^ok ' "$LOGS/upstream-defects.log" 2>/dev/null || true)
		tested="Tested on x86_64 under QEMU, on the base with and without the series,
with a test module that uses only the existing API and a script of eight cases,
one or two per run-time defect: with the series $fixed of 8 pass; without it
$base of 8 fail, so each case sees its defect. For patch 3, a scope on borrowed
data compiles without the series and is rejected with it. Of the checks of the
series itself (checkpatch.pl --strict, git am on the base, the builds, the
compile checks), $host_ok of $KTAP_N pass."
	else
		tested="This export was not built or booted; checkpatch.pl --strict and
applying the mails to the base: $host_ok of $KTAP_N checks pass."
	fi
	write_cover "$out" "debugfs, rust: fix five defects of the Rust DebugFS abstraction" <<EOF
These patches fix defects of kernel::debugfs, one each, found while
writing a test suite for it; the first is in fs/debugfs/:

 1. A module can be unloaded while one of its DebugFS files is open,
    since Rust's file_operations have no ->owner; closing the file then
    runs in freed module memory.
 2. The files and subdirectories of a scope in a directory that could not
    be created (the Arc allocation failed) are created at the DebugFS
    root, and never removed.
 3. Dir::scope() and Scope::dir() accept data that borrows, so a leaked
    scope leaves files on freed memory: a use-after-free in safe code.
 4. A Writer error is dropped, and the read returns a short text.
 5. Integer and bool files parse input unlike the C attribute files:
    decimal only, true/false only, EINVAL for out-of-range numbers.

$(echo "Each commit message says how to reproduce its defect. $tested" | fmt -w 72)
EOF
}

# print_cases: the KTAP document of the checks above and of steps 2 and 3.
print_cases() {
	{
		ktap_begin upstream-fixes "$KTAP_N"
		cat "$cases"
		ktap_end
	} | tee "$LOGS/upstream-fixes.log"
}
if [ "$BUILD" != 1 ]; then
	print_cases
	cover_letter
	exit 0
fi

# --- 2. every patch on its own, then the two kernels -------------------------
# harness/bisect.sh, as for our series.
result "bisect: every mail applies with git am and builds on its own" \
	bash "$REPO/harness/bisect.sh" "${MAILS[@]}"

# build_kernel TREE: the kernel of upstream-base or upstream-fixed, its
# modules, the test module, and the guest's $CACHE/build/TREE/kselftest.
# Only the pristine base may warn (upstream's warnings).
build_kernel() {
	local cfg=$1 out=$CACHE/build/$1 rc=0 ksrc=/cache/src/$1
	KSRC=$ksrc bash "$REPO/harness/config.sh" "$cfg" upstream || return 1
	KSRC=$ksrc bash "$REPO/harness/build.sh" "$cfg" bzImage modules || rc=$?
	case $rc in
	0) ;;
	3) [ "$cfg" = upstream-base ] || return 1 ;;
	*) return 1 ;;
	esac
	# Called as a condition, so set -e is off here: every step is chained.
	rm -rf "$out/modroot" "$out/kselftest" &&
		logged "$LOGS/modules_install-$cfg.log" in_chroot make -C "$ksrc" \
			O="/cache/build/$cfg" LLVM=1 INSTALL_MOD_PATH="/cache/build/$cfg/modroot" \
			modules_install &&
		KSRC=$ksrc bash "$REPO/harness/build.sh" "$cfg" M=/repo/harness/upstream-fixes/testmod \
			MO="/cache/build/$cfg/fixes-testmod" modules &&
		mkdir -p "$out/kselftest/rust" "$out/kselftest/kselftest" &&
		cp "$CACHE/src/$cfg/tools/testing/selftests/kselftest/ktap_helpers.sh" \
			"$out/kselftest/kselftest/" &&
		cp "$REPO/harness/upstream-fixes/test_upstream_fixes.sh" \
			"$REPO/tools/testing/selftests/rust/debugfs_helpers.sh" \
			"$out/fixes-testmod/rust_debugfs_fixes.ko" "$out/kselftest/rust/"
}
base_ok=yes
fixed_ok=yes
result "build: the pristine base, its samples and the test module" build_kernel upstream-base
grep -q "^not ok $KTAP_N " "$cases" && base_ok=no
result "build: the base with the fixes, its samples and the test module, no warning" \
	build_kernel upstream-fixed
grep -q "^not ok $KTAP_N " "$cases" && fixed_ok=no

# --- 3. the Scope lifetime fix ----------------------------------------------
# snippet TREE CASE VARIANT [MAKE_ARGS...]: one compile-fail snippet
# against TREE, logged to $LOGS/TREE-CASE-VARIANT.log.
snippet() {
	local cfg=$1 name=$2 variant=$3
	shift 3
	in_chroot make -C "/cache/src/$cfg" O="/cache/build/$cfg" LLVM=1 \
		M=/repo/tools/testing/selftests/rust/debugfs_compile_fail \
		MO="/cache/build/$cfg/compile-fail/$name-$variant" CASE="$name" "$@" "$name.o" \
		>"$LOGS/$cfg-$name-$variant.log" 2>&1
}
rejected() {
	! snippet upstream-fixed "$1" rejected &&
		grep -q 'error\[E0597\]' "$LOGS/upstream-fixed-$1-rejected.log"
}
for name in scoped_borrowed_data scope_dir_borrowed_data; do
	if [ "$base_ok" = yes ]; then
		result "Scope lifetime: $name compiles on the pristine base (the defect)" \
			snippet upstream-base "$name" borrowing
	fi
	if [ "$fixed_ok" = yes ]; then
		result "Scope lifetime: $name is rejected with the fixes (E0597)" rejected "$name"
		result "Scope lifetime: the twin of $name that owns its data compiles with the fixes" \
			snippet upstream-fixed "$name" allowed ALLOWED=1
	fi
done

print_cases

# --- 4. the boots -----------------------------------------------------------
rm -f "$LOGS"/upstream-base-boot* "$LOGS"/upstream-fixed-boot* "$LOGS/upstream-defects.log"
for cfg in upstream-base upstream-fixed; do
	ok=${cfg#upstream-}_ok
	[ "${!ok}" = yes ] || continue
	BOOT_TIMEOUT=300 bash "$REPO/harness/boot.sh" "$cfg" /guest/run-upstream-fixes.sh \
		"$LOGS/$cfg-boot.log" || msg "the boot of $cfg did not end well: see $LOGS/$cfg-boot.log"
done
# On the base, a failing case has shown its defect: upstream_defects.
if [ -f "$LOGS/upstream-base-boot.log" ]; then
	tr -d '\r' <"$LOGS/upstream-base-boot.log" | awk '
		/^SELFTEST-BEGIN test_upstream_fixes$/ { on = 1; print "SELFTEST-BEGIN upstream_defects"; next }
		on && /^SELFTEST-END / { print "SELFTEST-END upstream_defects " (shown ? 1 : 0); on = 0; next }
		on && /^not ok / { sub(/^not ok /, "ok "); print $0 ": fails on the pristine base"; next }
		on && /^ok / { sub(/^ok /, "not ok "); shown = 1; print $0 ": passes on the pristine base"; next }
		on { print }' >"$LOGS/upstream-defects.log"
fi

cover_letter
msg "The upstream fixes and their cover letter are in $out."

if [ "${1:-}" = --verdict ]; then
	RESULTS=$LOGS/upstream-fixes-results.txt
	: >"$RESULTS"
	. "$REPO/harness/verdict.sh"
	upstream_fixes_verdict
	verdict_line
	[ "$failed" = 0 ]
fi
