# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Exporting a series (a branch of base_repo's import) as a maintainer
# receives it, for `make patches` and `make upstream-fixes`. Sourced after
# lib.sh. No Signed-off-by: only the human who posts the series can
# certify the DCO (Documentation/process/submitting-patches.rst).

# series_author: PATCH_AUTHOR, else git's identity, else the last commit's author.
series_author() {
	if [ -n "${PATCH_AUTHOR:-}" ]; then
		echo "$PATCH_AUTHOR"
	elif git -C "$REPO" var GIT_AUTHOR_IDENT >/dev/null 2>&1; then
		git -C "$REPO" var GIT_AUTHOR_IDENT | sed 's/> .*/>/'
	else
		git -C "$REPO" log -1 --format='%an <%ae>'
	fi
}

# The commits of a series are the author's, whoever runs the export.
author=$(series_author)
email=${author##*<}
export GIT_AUTHOR_NAME=${author% <*} GIT_COMMITTER_NAME=${author% <*}
export GIT_AUTHOR_EMAIL=${email%>} GIT_COMMITTER_EMAIL=${email%>}
unset email

# harness_message PATCH: a kept patch's subject and body, as a commit message.
harness_message() {
	sed -n '/^Subject:/,/^---$/p' "$1" | sed -e '/^---$/d' -e 's/^Subject: \[PATCH\] //'
}

# in_cache PATH: PATH as the toolchain root sees it.
in_cache() {
	echo "${1/#$CACHE//cache}"
}

# export_series BRANCH OUT: the mails of base..BRANCH, with a cover letter
# and To/Cc from get_maintainer.pl, in OUT (emptied); their names, cover
# letter excepted, in MAILS.
export_series() {
	local branch=$1 out=$2 base work to cc
	base=$(base_repo) || return 1
	work=$out/work
	rm -rf "$out"
	mkdir -p "$work"
	git -C "$base" diff base "$branch" >"$work/series.diff"
	git -C "$base" show "$branch:MAINTAINERS" >"$work/MAINTAINERS"
	in_chroot sh -c 'cd /cache/src/linux && perl scripts/get_maintainer.pl --no-git \
		--no-git-fallback --no-keywords --no-tree --mpath "$1/MAINTAINERS" "$1/series.diff"' \
		sh "$(in_cache "$work")" >"$work/maintainers" 2>&1 || {
		msg "get_maintainer.pl failed: $(cat "$work/maintainers")"
		return 1
	}
	mapfile -t to < <(grep '(maintainer:' "$work/maintainers" | sed 's/ (.*//')
	mapfile -t cc < <(grep -v '(maintainer:' "$work/maintainers" | sed 's/ (.*//')
	if [ ${#to[@]} = 0 ]; then
		msg "get_maintainer.pl names no maintainer: $(cat "$work/maintainers")"
		return 1
	fi
	git -C "$base" format-patch -q --cover-letter --base=base -o "$out" --from="$author" \
		"${to[@]/#/--to=}" "${cc[@]/#/--cc=}" "base..$branch" || return 1
	# The cover letter sorts first.
	MAILS=("$out"/0*.patch)
	MAILS=("${MAILS[@]:1}")
}

# checkpatch_mails: checkpatch.pl --strict --codespell on every mail of
# MAILS, in parallel; MAIL.checkpatch is empty for a clean mail. Ignored:
# MISSING_SIGN_OFF (see above), UNKNOWN_COMMIT_ID (the import lacks
# upstream's history), FILE_PATH_CHANGES (new_files_maintained instead).
checkpatch_mails() {
	local mail pids=() i
	for mail in "${MAILS[@]}"; do
		in_chroot sh -c 'perl /cache/src/linux/scripts/checkpatch.pl --no-tree --strict \
			--codespell --ignore FILE_PATH_CHANGES,MISSING_SIGN_OFF,UNKNOWN_COMMIT_ID \
			-q "$1" || echo "checkpatch.pl exit $?"' sh "$(in_cache "$mail")" \
			>"$mail.checkpatch" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || echo "checkpatch.pl did not run" >>"${MAILS[$i]}.checkpatch"
	done
}

# new_files_maintained BRANCH: every file base..BRANCH adds has a
# MAINTAINERS entry in the tree of BRANCH.
new_files_maintained() {
	local base path status=0
	base=$(base_repo) || return 1
	git -C "$base" show "$1:MAINTAINERS" >"$CACHE/build/MAINTAINERS.$1"
	for path in $(git -C "$base" diff --name-only --diff-filter=A base "$1"); do
		if ! in_chroot sh -c 'cd /cache/src/linux && perl scripts/get_maintainer.pl --no-git \
			--no-rolestats --mpath "$1" -f "$2"' sh "$(in_cache "$CACHE/build/MAINTAINERS.$1")" \
			"$path" | grep -q '<'; then
			msg "no MAINTAINERS entry covers the new file $path"
			status=1
		fi
	done
	return "$status"
}

# mails_give BRANCH: the mails of MAILS, applied to the base on an index of
# their own, give exactly the tree of BRANCH.
mails_give() {
	local base index mail
	base=$(base_repo) || return 1
	index=$CACHE/build/index.$1
	GIT_DIR=$base/.git GIT_INDEX_FILE=$index git read-tree base || return 1
	for mail in "${MAILS[@]}"; do
		if ! GIT_DIR=$base/.git GIT_INDEX_FILE=$index git apply --cached "$mail"; then
			msg "$(basename "$mail") does not apply"
			return 1
		fi
	done
	[ "$(GIT_DIR=$base/.git GIT_INDEX_FILE=$index git write-tree)" = \
		"$(git -C "$base" rev-parse "$1^{tree}")" ]
}

# write_cover OUT SUBJECT: the cover letter in OUT gets SUBJECT and the text
# on standard input, then notes on base-commit: and the sign-off.
write_cover() {
	local blurb=$1/work/blurb
	{
		cat
		echo
		echo "The base is $(base_origin); base-commit: below names a reproducible" \
			"git import of it made by our harness, not a commit of the upstream history." |
			fmt -w 72
		cat <<EOF

No patch carries a Signed-off-by: whoever posts the series certifies the
Developer's Certificate of Origin, with \`git am -s\` or by adding the line
to each patch below its message.
EOF
	} >"$blurb"
	python3 -c 'import sys
path, subject, blurb = sys.argv[1:]
text = open(path).read().replace("*** SUBJECT HERE ***", subject)
open(path, "w").write(text.replace("*** BLURB HERE ***", open(blurb).read().rstrip("\n")))' \
		"$1/0000-cover-letter.patch" "$2" "$blurb"
}
