# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the kernel::debugfs selftests; sourced after
# ../kselftest/ktap_helpers.sh, with TMP set to a scratch directory.

# errno_of MESSAGE: the errno name for a glibc strerror text at the end of
# MESSAGE ("sh: write error: Invalid argument" -> EINVAL); OK if empty.
errno_of() {
	case "$1" in
	"") echo OK ;;
	*"Invalid argument") echo EINVAL ;;
	*"Numerical result out of range") echo ERANGE ;;
	*"File too large") echo EFBIG ;;
	*"File exists") echo EEXIST ;;
	*"No such file or directory") echo ENOENT ;;
	*"Input/output error") echo EIO ;;
	*"Bad address") echo EFAULT ;;
	*"Permission denied") echo EACCES ;;
	*"Cannot allocate memory") echo ENOMEM ;;
	*"Resource temporarily unavailable") echo EAGAIN ;;
	*"Device or resource busy") echo EBUSY ;;
	*"Argument list too long") echo E2BIG ;;
	*"No such device") echo ENODEV ;;
	*"No such device or address") echo ENXIO ;;
	*"Operation not permitted") echo EPERM ;;
	*"Is a directory") echo EISDIR ;;
	*) echo "UNKNOWN($1)" ;;
	esac
}

# write_at FILE OFFSET FORMAT: one write(2) of printf FORMAT at byte OFFSET;
# prints OK or the errno name. Processes running it at the same time must
# each set WRITE_AT_TMP to a file of their own.
write_at() {
	# shellcheck disable=SC2059 # FORMAT is a printf format on purpose.
	printf "$3" >"${WRITE_AT_TMP:-$TMP/in}"
	err=$(dd if="${WRITE_AT_TMP:-$TMP/in}" of="$1" bs=65536 seek="$2" oflag=seek_bytes \
		conv=notrunc 2>&1 >/dev/null | grep -v 'records\|bytes\|copied')
	errno_of "${err##*: }"
}

# dd_read OUT OPERAND...: dd with OPERANDs (if=, bs=, skip=, count=; standard
# input without if=) into the file OUT. A failed read prints "read error:
# ERRNO" and fails, so that it cannot pass for an empty read at end of file.
dd_read() {
	dd_out=$1
	shift
	if dd_err=$(dd "$@" of="$dd_out" 2>&1); then
		return 0
	fi
	dd_err=$(echo "$dd_err" | grep -v 'records\|bytes\|copied' | head -n 1)
	echo "read error: $(errno_of "${dd_err##*: }")"
	return 1
}

# read_dd OPERAND...: what dd reads with OPERANDs (see dd_read), or "read
# error: ERRNO".
read_dd() {
	dd_read "$TMP/read_dd" "$@" && cat "$TMP/read_dd"
}

# hex FILE [SKIP [COUNT]]: the bytes of FILE from SKIP on, as one hex string;
# "read error: ERRNO" if the read fails.
hex() {
	dd_read "$TMP/hex" if="$1" bs=1 skip="${2:-0}" ${3:+count=$3} &&
		od -An -v -tx1 <"$TMP/hex" | tr -d ' \n'
}

# check DESCRIPTION ACTUAL EXPECTED: one KTAP case.
check() {
	if [ "$2" = "$3" ]; then
		ktap_test_pass "$1"
	else
		ktap_print_msg "$(printf "%s: expected '%.60s', got '%.60s'" "$1" "$3" "$2")"
		ktap_test_fail "$1"
	fi
}

# repeat N STRING: STRING N times.
repeat() {
	i=0
	out=
	while [ "$i" -lt "$1" ]; do
		out="$out$2"
		i=$((i + 1))
	done
	echo "$out"
}

# wait_for_line FILE LINE: waits until FILE has the line LINE, at most 10 s;
# fails if it never does.
wait_for_line() {
	i=0
	while [ "$i" -lt 100 ]; do
		grep -qx "$2" "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# kernel_reports: how many lines of the kernel log are reports of the
# kernel's own detectors: REPORTS of harness/verdict.sh (warnings, BUGs,
# Oopses, sanitizers, kmemleak, lockdep, RCU, hangs, lockups, sleeping in
# atomic context, refcounts, panics, dropped messages, arm64's "Call
# trace:"). A log that cannot be read gives no number.
REPORTS='WARNING:|BUG:|kernel BUG at|BUG [^ ]+ \((Not tainted|Tainted)|Oops|general protection'
REPORTS="$REPORTS"'|KASAN:|UBSAN:|KCSAN:|KFENCE:|unreferenced object'
REPORTS="$REPORTS"'|kmemleak:.*suspected memory leak|kmemleak: (Cannot allocate a kmemleak_object'
REPORTS="$REPORTS"'|Memory pool empty|Kernel memory leak detector disabled)'
REPORTS="$REPORTS"'|possible recursive locking|possible circular locking|inconsistent lock state'
REPORTS="$REPORTS"'|suspicious RCU usage|lock held when returning to user space'
REPORTS="$REPORTS"'|INFO: task .* blocked.* for more than|soft lockup|hard LOCKUP'
REPORTS="$REPORTS"'|detected (expedited )?stalls?[ ,]|csd: .*CSD lock'
REPORTS="$REPORTS"'|workqueue: .* hogged CPU|BUG: workqueue lockup'
REPORTS="$REPORTS"'|sleeping function called from invalid context|refcount_t:|Kernel panic'
REPORTS="$REPORTS"'|cut here|Call [Tt]race:|printk messages dropped'
kernel_reports() {
	if dmesg >"$TMP/dmesg"; then
		grep -c -E "$REPORTS" "$TMP/dmesg"
	else
		echo "no kernel log (dmesg failed)"
	fi
}

# The test module, as kselftest installs it (TEST_GEN_MODS_DIR).
TESTMOD_DIR="$DIR/debugfs_test_module"

# load NAME: the test module from $TESTMOD_DIR; the samples, which the
# kernel's modules_install puts in /lib/modules, with modprobe.
load() {
	if [ -e "$TESTMOD_DIR/$1.ko" ]; then
		insmod "$TESTMOD_DIR/$1.ko"
	else
		modprobe -q "$1"
	fi
}

# have_module NAME: whether load NAME can find the module.
have_module() {
	[ -e "$TESTMOD_DIR/$1.ko" ] || modinfo "$1" >/dev/null 2>&1
}

# write_refused FILE OFFSET ERRNO FORMAT [VIEW...]: one write(2) of printf
# FORMAT at byte OFFSET of FILE must fail with ERRNO and leave what the
# command VIEW prints (by default, hex FILE) as it was. Sets REFUSED_GOT (OK
# or the errno name), REFUSED_BEFORE and REFUSED_AFTER; fails if either does
# not hold. The one implementation of a refused write: bad_write reports it.
write_refused() {
	wr_file=$1
	wr_offset=$2
	wr_errno=$3
	wr_format=$4
	shift 4
	[ "$#" -gt 0 ] || set -- hex "$wr_file"
	# A view that fails cannot show the value kept: before and after differ.
	REFUSED_BEFORE=$("$@" 2>&1) || REFUSED_BEFORE="$REFUSED_BEFORE (failed before)"
	REFUSED_GOT=$(write_at "$wr_file" "$wr_offset" "$wr_format")
	REFUSED_AFTER=$("$@" 2>&1) || REFUSED_AFTER="$REFUSED_AFTER (failed after)"
	[ "$REFUSED_GOT" = "$wr_errno" ] && [ "$REFUSED_AFTER" = "$REFUSED_BEFORE" ]
}

# bad_write [-at OFFSET] [-keeps WHAT] [-one] FILE DESCRIPTION ERRNO FORMAT
#           [VIEW...]
# A malformed write (write_refused) as two KTAP cases, "DESCRIPTION gives
# ERRNO" and "DESCRIPTION keeps WHAT" (by default "the value"), or with -one
# as the single case DESCRIPTION, for long lists of bad inputs.
bad_write() {
	bw_offset=0
	bw_keeps="the value"
	bw_one=
	while :; do
		case $1 in
		-at) bw_offset=$2; shift 2 ;;
		-keeps) bw_keeps=$2; shift 2 ;;
		-one) bw_one=1; shift ;;
		*) break ;;
		esac
	done
	bw_file=$1
	bw_name=$2
	bw_errno=$3
	bw_format=$4
	shift 4
	if [ -z "$bw_one" ]; then
		write_refused "$bw_file" "$bw_offset" "$bw_errno" "$bw_format" "$@"
		check "$bw_name gives $bw_errno" "$REFUSED_GOT" "$bw_errno"
		check "$bw_name keeps $bw_keeps" "$REFUSED_AFTER" "$REFUSED_BEFORE"
	elif write_refused "$bw_file" "$bw_offset" "$bw_errno" "$bw_format" "$@"; then
		ktap_test_pass "$bw_name"
	else
		ktap_print_msg "$bw_name: '$bw_format' at $bw_offset: $REFUSED_GOT" \
			"(want $bw_errno), $REFUSED_BEFORE -> $REFUSED_AFTER"
		ktap_test_fail "$bw_name"
	fi
}

mode_of() {
	ls -ld "$1" | cut -c1-10
}

LONG_NUMBER=$(repeat 200 1)

# Malformed input every unsigned integer file must refuse, as C DebugFS
# refuses it (see kernel::debugfs).
bad_unsigned_writes() {
	f=$1
	n=$2
	bad_write "$f" "$n: empty line" EINVAL '\n'
	bad_write "$f" "$n: not a number" EINVAL 'abc'
	bad_write "$f" "$n: trailing garbage" EINVAL '12abc'
	bad_write "$f" "$n: negative into unsigned" EINVAL '-1'
	bad_write "$f" "$n: overflow" ERANGE '18446744073709551616'
	bad_write "$f" "$n: hex overflow" ERANGE '0x1ffffffffffffffff'
	bad_write "$f" "$n: bare 0x" EINVAL '0x'
	bad_write "$f" "$n: bad octal digit" EINVAL '08'
	bad_write "$f" "$n: two numbers" EINVAL '1 2'
	bad_write "$f" "$n: leading space" EINVAL ' 5'
	bad_write "$f" "$n: two newlines" EINVAL '5\n\n'
	bad_write "$f" "$n: too long" EINVAL "$LONG_NUMBER"
	bad_write "$f" "$n: non-UTF-8" EINVAL '\377'
	bad_write "$f" "$n: embedded NUL" EINVAL '1\0002'
	bad_write -at 2 "$f" "$n: write at offset 2" EINVAL '7'
}
