#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a built kernel in QEMU (TCG; a PC or arm64's virt, by the
# configuration's architecture) with a busybox initramfs (made by the
# kernel's gen_init_cpio) holding the modules, the kselftest tree
# (kselftest.sh), the benchmark and harness/guest/; run one guest script.
#
# usage: boot.sh CONFIG GUEST_SCRIPT GUEST_LOG [KERNEL_ARGS...]
#   GUEST_LOG gets the script's output (second serial port); the whole
#   kernel console (the first) goes to GUEST_LOG less .log plus -kernel.log.
# exit:  0 the guest script ran and the VM ended; 3 the VM hung (timeout or
#        the guest's watchdog) or the guest never finished its script.
#
# ICOUNT=1 (make bench): one vCPU whose clock advances a nanosecond per
# instruction (-icount shift=0,sleep=off), and nothing the host does
# reaches the guest at a time of its own (RTC on that clock, no RDRAND or
# RDSEED, nokaslr, norandmaps): the same counts on every boot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cfg=${1:?usage: $0 CONFIG GUEST_SCRIPT CONSOLE_LOG [KERNEL_ARGS...]}
script=${2:?guest script}
console=${3:?guest log}
kernel_log=${console%.log}-kernel.log
# QEMU runs in the toolchain root, which sees the cache as /cache.
case $console in
"$CACHE"/*.log) ;;
*) die "the guest log must be a .log file in $CACHE, not $console" ;;
esac
shift 3
TIMEOUT=${BOOT_TIMEOUT:-900}
ICOUNT=${ICOUNT:-0}

out=$CACHE/build/$cfg
guest=$out/guest
arch=$(cfg_arch "$cfg")
# The machines: a PC gets the SSDT of the platform sample's device and the
# toolchain root's binaries; arm64's virt a devicetree and chroot.sh's root.
case $arch in
x86)
	image=arch/x86/boot/bzImage
	in_chroot sh -c "cd /repo/harness/guest && iasl -p /cache/build/$cfg/ssdt ssdt.asl" \
		>"$LOGS/iasl-$cfg.log" 2>&1 || die "iasl failed; see $LOGS/iasl-$cfg.log"
	qemu=(qemu-system-x86_64 -cpu max -smp 2 -m 2G -device pci-testdev
		-acpitable file="/cache/build/$cfg/ssdt.aml")
	counting=(-cpu max,rdrand=off,rdseed=off -rtc clock=vm)
	tty=ttyS
	userland=
	;;
arm64)
	image=arch/arm64/boot/Image
	# pauth-impdef: pointer authentication with QEMU's cheap hash, not the
	# architected cipher that costs TCG most of its time.
	qemu=(qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -smp 2 -m 2G -device pci-testdev)
	# QEMU cannot hide FEAT_RNG, whose RNDR is host randomness: no ICOUNT.
	counting=()
	tty=ttyAMA
	userland=/cache/guest-arm64
	[ -x "$CACHE/guest-arm64/usr/bin/busybox" ] || die "no arm64 guest root: run 'make chroot'"
	# QEMU's devicetree of this machine (both serial ports given) with the
	# platform sample's node (guest/virt-sample.dtsi) added.
	in_chroot sh -euc 'out=$1
		shift
		"$@" -accel tcg -display none -monitor none -serial null -serial null \
			-machine dumpdtb="$out/virt.dtb" >/dev/null
		"$out/scripts/dtc/dtc" -q -I dtb -O dts "$out/virt.dtb" | sed "\$d" >"$out/virt.dts"
		{ cat /repo/harness/guest/virt-sample.dtsi; echo "};"; } >>"$out/virt.dts"
		"$out/scripts/dtc/dtc" -q -I dts -O dtb -o "$out/virt-sample.dtb" "$out/virt.dts"' \
		sh "/cache/build/$cfg" "${qemu[@]}" >"$LOGS/dtc-$cfg.log" 2>&1 ||
		die "the devicetree could not be made; see $LOGS/dtc-$cfg.log"
	qemu+=(-dtb "/cache/build/$cfg/virt-sample.dtb")
	;;
*) die "no machine to boot '$cfg' ($arch) on" ;;
esac
[ -f "$out/$image" ] || die "no kernel in $out: build it first"
# The later -cpu and -smp options replace the earlier ones.
case $ICOUNT in
0) ;;
1)
	[ ${#counting[@]} -gt 0 ] || die "ICOUNT=1 boots a PC only, not '$cfg' ($arch)"
	qemu+=("${counting[@]}" -smp 1 -icount shift=0,sleep=off)
	set -- "$@" nokaslr norandmaps
	;;
*) die "ICOUNT is 0 or 1, not '$ICOUNT'" ;;
esac

# libraries: "GUEST_PATH SOURCE" of each shared library the guest needs:
# ldd's on a PC, every library of its root on a foreign guest.
libraries() {
	if [ -z "$userland" ]; then
		in_chroot sh -c 'ls /usr/bin/bash /usr/bin/kmod "$1"/kselftest/rust/debugfs_io 2>/dev/null |
			xargs ldd' sh "/cache/build/$cfg" | grep -o '/[^ ]*\.so[^ ]*' | sort -u |
			awk '{ print $1, $1 }'
		return
	fi
	local libdir=$userland/usr/lib/aarch64-linux-gnu
	find "${libdir/#\/cache/$CACHE}" -maxdepth 1 -name '*.so*' \
		-printf "/lib/aarch64-linux-gnu/%f $libdir/%f\n"
	echo "/lib/ld-linux-aarch64.so.1 $libdir/ld-linux-aarch64.so.1"
}

# The initramfs, described for gen_init_cpio.
mkdir -p "$guest"
list=$guest/initramfs.list

# tree HOST_DIR GUEST_DIR: the directories and files under HOST_DIR (in the
# cache), at GUEST_DIR. Symlinks, such as modules_install's "build", stay out.
tree() {
	[ -d "$1" ] || return 0
	find "$1" -mindepth 1 -type d -printf "dir $2/%P 0755 0 0\n"
	find "$1" -type f -printf "file $2/%P ${1/#$CACHE//cache}/%P %#m 0 0\n"
}

{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	for d in bin sbin proc sys tmp modules bench guest lib kselftest; do
		echo "dir /$d 0755 0 0"
	done
	echo "file /bin/busybox $userland/bin/busybox 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	# kselftest needs bash and kmod's modprobe (-n), first in the default PATH.
	echo "file /bin/bash $userland/usr/bin/bash 0755 0 0"
	echo "file /sbin/kmod $userland/usr/bin/kmod 0755 0 0"
	for tool in modprobe insmod rmmod modinfo lsmod depmod; do
		echo "slink /sbin/$tool kmod 0777 0 0"
	done
	libraries | while read -r lib src; do
		dirname "$lib" | awk -F/ '{ d = ""; for (i = 2; i <= NF; i++) {
			d = d "/" $i; print "dir " d " 0755 0 0" } }'
		echo "file $lib $src 0755 0 0"
	done
	echo "file /init /repo/harness/guest/init 0755 0 0"
	[ -x "$out/bench/dfsbench" ] &&
		echo "file /bench/dfsbench /cache/build/$cfg/bench/dfsbench 0755 0 0"
	for f in "$REPO"/harness/guest/*.sh; do
		echo "file /guest/$(basename "$f") /repo/harness/guest/$(basename "$f") 0755 0 0"
	done
	# kselftest's runner bounds each test with /usr/bin/timeout, if there is
	# one: coreutils' calling convention, over busybox's (guest/timeout.sh).
	echo "dir /usr 0755 0 0"
	echo "dir /usr/bin 0755 0 0"
	echo "slink /usr/bin/timeout /guest/timeout.sh 0777 0 0"
	[ -d "$out/bench" ] &&
		find "$out/bench" -name '*.ko' -printf "file /modules/%f /cache/build/$cfg/bench/%P 0644 0 0\n"
	tree "$out/modroot/lib" /lib
	tree "$out/kselftest" /kselftest
} | awk '!seen[$0]++' >"$list"
in_chroot "/cache/build/$cfg/usr/gen_init_cpio" "/cache/build/$cfg/guest/initramfs.list" \
	>"$guest/initramfs.cpio" 2>"$LOGS/initramfs-$cfg.log" ||
	die "gen_init_cpio failed; see $LOGS/initramfs-$cfg.log"

msg "Booting '$cfg' in QEMU (TCG) to run $script (console: $console)..."
start=$(now)
rc=0
# An Oops panics and a panic ends the VM at once (-no-reboot). The guest's
# watchdog dumps every task a minute before the timeout.
: >"$kernel_log"
in_chroot timeout -k 10 "$TIMEOUT" "${qemu[@]}" \
	-accel tcg -display none -vga none -monitor none -no-reboot \
	-serial "file:${kernel_log/#$CACHE//cache}" -serial stdio \
	-kernel "/cache/build/$cfg/$image" \
	-initrd "/cache/build/$cfg/guest/initramfs.cpio" \
	-append "console=${tty}0 GUEST_TTY=${tty}1 log_buf_len=16M panic=-1 oops=panic \
rdinit=/init rdinit_script=$script GUEST_WATCHDOG=$((TIMEOUT - 60)) $*" \
	</dev/null >"$console" 2>"$LOGS/qemu-$(basename "$console")" || rc=$?
elapsed=$(($(now) - start))
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	msg "The VM did not finish within $TIMEOUT s: HANG. Logs: $console, $kernel_log"
	exit 3
fi
if grep -q "^GUEST-WATCHDOG" "$console"; then
	msg "The guest's watchdog fired: HANG; tasks are dumped in $kernel_log"
	exit 3
fi
if ! grep -q "^GUEST-EXIT" "$console"; then
	msg "The guest never finished its script (QEMU exit $rc, $elapsed s). Logs: $console, $kernel_log"
	exit 3
fi
msg "VM finished in $elapsed s."
