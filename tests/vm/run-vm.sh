#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-vm.sh ARCH [debug]: build the project's kernel modules against the
# ARCH kernel, pack an initramfs (busybox, modules + DRM deps, tests), boot
# it in QEMU (TCG), print the guest's results and exit non-zero on any
# failure, a missing summary (crash/hang) or a timeout.
#   ARCH: x86_64 (Debian's 6.12 amd64 kernel) | riscv64 (our trimmed 6.12)
#   debug: riscv64 only, the debug kernel (lockdep, KASAN, kmemleak, UBSAN,
#          DEBUG_OBJECTS, DMA_API_DEBUG, DEBUG_LIST, KUnit); work in
#          $O/vm/riscv64-debug
#
# Environment (vm.mk passes these):
#   O                    build dir (default build); work goes to $O/vm/ARCH
#   E1NPU_CACHE          download/kernel cache (default /var/cache/e1npu)
#   VM_GUEST_FILES       host files copied to /tests/ in every guest
#   VM_X86_GUEST_FILES   ... only in the x86_64 guest (static binaries)
#   VM_RISCV_GUEST_FILES ... only in the riscv64 guest (static binaries)
#   VM_APPEND            extra kernel command line (e.g. e1vm.selftest_warn=1)
#   VM_SLUB_DEBUG        x86_64 slub_debug flags (default FZPU; empty: off)
#   VM_TIMEOUT           seconds before the VM is killed (300; 1200 debug)
#   VM_BANNER_TIMEOUT    seconds for /init's first line before QEMU is
#                        restarted, once (150)
#   VM_SMP, VM_MEM       guest CPUs (2) and memory (512M)
#   VM_OOPS_PANIC=0      do not pass oops=panic (default: an oops ends the run)
#   VM_NO_PROJECT=1      only the self-test module, even if kernel/Kbuild exists
#   VM_BOARD_DTB=0       riscv64: QEMU's own device tree, without board.md's node
. "$(dirname "$0")/common.sh"

ARCH=${1:-}
VARIANT=${2:-}
case "$VARIANT" in
"") ;;
debug) [ "$ARCH" = riscv64 ] || die "the debug kernel exists for riscv64 only" ;;
*) die "usage: run-vm.sh x86_64|riscv64 [debug]" ;;
esac
export VM_KVARIANT=$VARIANT
case "$ARCH" in
x86_64)
	. "$VM_DIR/kernel-x86_64.sh"
	EXTRA_FILES=${VM_X86_GUEST_FILES:-}
	;;
riscv64)
	. "$VM_DIR/kernel-riscv64.sh"
	EXTRA_FILES=${VM_RISCV_GUEST_FILES:-}
	;;
*) die "usage: run-vm.sh x86_64|riscv64" ;;
esac

W="$VM_OUT/$ARCH${VARIANT:+-$VARIANT}"
mkdir -p "$W"
T_START=$(now)

# ---- 1. kernel ------------------------------------------------------------
t0=$(now)
"${ARCH}_kernel"
T_KERNEL=$(elapsed "$t0")

# ---- 2. modules -----------------------------------------------------------
# build_modules SRCDIR NAME: out-of-tree build in a scratch copy; sets MODS
build_modules() {
	local src=$1 name=$2
	local log="$W/build-$name.log"
	msg "$ARCH: building modules in $src (log $log)"
	if ! run_logged "$log" make -C "$KDIR" M="$src" "${KMAKE_ARGS[@]}" -j2 modules; then
		die "$ARCH: module build ($name) failed"
	fi
	if grep -E 'warning:|WARNING:' "$log" >/dev/null; then
		warn "$ARCH: module build ($name) has warnings:"
		grep -E 'warning:|WARNING:' "$log" | sed 's/^/    | /' >&2
	fi
}

t0=$(now)
SRC="$W/src"
mkdir -p "$SRC"
# scratch copy, keeping build products between runs
RSYNC_EXCL=(--exclude '*.o' --exclude '*.ko' --exclude '*.mod' --exclude '*.mod.c'
	    --exclude '.*.cmd' --exclude 'Module.symvers' --exclude 'modules.order'
	    --exclude '.module-common.o')
rsync -a --delete "${RSYNC_EXCL[@]}" "$VM_DIR/selftest/" "$SRC/selftest/"
build_modules "$SRC/selftest" selftest
KOS=("$SRC/selftest/e1vm_selftest.ko")

if [ -f "$TOP/kernel/Kbuild" ] && [ "${VM_NO_PROJECT:-0}" != 1 ]; then
	for d in kernel model include; do
		[ -d "$TOP/$d" ] && rsync -a --delete "${RSYNC_EXCL[@]}" "$TOP/$d/" "$SRC/$d/"
	done
	build_modules "$SRC/kernel" kernel
	mapfile -t proj < <(find "$SRC/kernel" -name '*.ko' | sort)
	[ "${#proj[@]}" -gt 0 ] || die "$ARCH: kernel/Kbuild built no .ko"
	KOS+=("${proj[@]}")
else
	msg "$ARCH: kernel/Kbuild absent: only the harness self-test module (e1vm_selftest.ko)"
fi
T_MODULES=$(elapsed "$t0")
msg "$ARCH: modules built in $T_MODULES s: $(printf '%s ' "${KOS[@]##*/}")"

# ---- 3. initramfs ---------------------------------------------------------
t0=$(now)
busybox_static "$ARCH"		# sets BUSYBOX
R="$W/initramfs"
rm -rf "$R"
mkdir -p "$R"/{bin,sbin,dev,proc,sys,tmp,run,tests,lib/modules/e1vm}
cp "$BUSYBOX" "$R/bin/busybox"
cp "$VM_DIR/guest/init" "$R/init"
cp "$VM_DIR/guest/lib.sh" "$VM_DIR/guest/selftest.sh" "$R/tests/"
mknod -m 600 "$R/dev/console" c 5 1 2>/dev/null || warn "cannot mknod /dev/console (not root?)"
mknod -m 666 "$R/dev/null" c 1 3 2>/dev/null || true
python3 "$VM_DIR/moddeps.py" "$MODROOT" "$KVER" "$R/lib/modules/e1vm" "${KOS[@]}" |
	sed "s/^/[vm] $ARCH: /"
[ "${PIPESTATUS[0]}" = 0 ] || die "$ARCH: module dependency closure failed"
# the harness's own static test program
guest_cc "$ARCH"		# sets GUEST_CC
run_logged "$W/e1vm-ioctl.log" $GUEST_CC -static -O2 -Wall -Wextra -Werror \
	-o "$R/tests/e1vm-ioctl" "$VM_DIR/guest/e1vm-ioctl.c" ||
	die "$ARCH: cannot build the static guest test e1vm-ioctl"
# shellcheck disable=SC2086
for f in ${VM_GUEST_FILES:-} $EXTRA_FILES; do
	[ -e "$f" ] || die "$ARCH: guest file $f does not exist (VM_GUEST_FILES / VM_*_GUEST_FILES)"
	cp -L "$f" "$R/tests/"
	msg "$ARCH: + /tests/$(basename "$f")"
done
chmod +x "$R"/tests/*.sh 2>/dev/null || true
CPIO="$W/initramfs.cpio"
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --owner 0:0 --quiet) >"$CPIO"
msg "$ARCH: initramfs $(du -h "$CPIO" | cut -f1) in $(elapsed "$t0") s"

# ---- 4. boot --------------------------------------------------------------
LOG="$W/serial.log"
# oops=panic: an oops fails fast (panic, reset, -no-reboot exits) instead
# of leaving a stuck task and waiting for the timeout; VM_OOPS_PANIC=0 off
APPEND="console=ttyS0 panic=-1 loglevel=5"
[ "${VM_OOPS_PANIC:-1}" = 0 ] || APPEND="$APPEND oops=panic"
# SLUB red zones, poisoning and free checks (Debian's kernel has
# SLUB_DEBUG): a use-after-free in the driver fails the first run instead
# of corrupting memory silently; VM_SLUB_DEBUG= turns it off.
[ "$ARCH" != x86_64 ] || [ -z "${VM_SLUB_DEBUG-FZPU}" ] ||
	APPEND="$APPEND slub_debug=${VM_SLUB_DEBUG-FZPU}"
# the debug kernel: kmemleak needs no option; e1vm.kvariant tells the guest
[ -z "$VARIANT" ] || APPEND="$APPEND e1vm.kvariant=$VARIANT"
APPEND="$APPEND ${VM_APPEND:-}"
case "$ARCH" in
x86_64)
	# thread=single: one host thread runs both vCPUs. Multi-threaded TCG
	# occasionally oopses (int3) while the guest patches kernel text
	# (jump labels) early in boot; single-threaded TCG does not race.
	QEMU=(qemu-system-x86_64 -M pc -accel tcg,thread=single -cpu max
	      -m "${VM_MEM:-512M}" -smp "${VM_SMP:-2}")
	TIMEOUT=${VM_TIMEOUT:-300}
	;;
riscv64)
	# KASAN's shadow (1/8), lockdep and kmemleak need more memory
	mem=512M
	[ -z "$VARIANT" ] || mem=1G
	VM_MEM=${VM_MEM:-$mem}
	QEMU=(qemu-system-riscv64 -M virt -bios default
	      -m "$VM_MEM" -smp "${VM_SMP:-2}")
	APPEND="$APPEND earlycon"
	TIMEOUT=${VM_TIMEOUT:-$([ -n "$VARIANT" ] && echo 1200 || echo 300)}
	# board.md's device tree node + reserved-memory (VM_BOARD_DTB=0: off)
	if [ "${VM_BOARD_DTB:-1}" = 1 ]; then
		riscv64_board_dtb "$W/board.dtb" "${QEMU[@]}"
		QEMU+=(-dtb "$W/board.dtb")
	fi
	;;
esac
QEMU+=(-nographic -no-reboot -nic none -kernel "$KIMAGE" -initrd "$CPIO" -append "$APPEND")
msg "$ARCH: booting (timeout ${TIMEOUT}s, serial log $LOG)"
echo "${QEMU[*]}" >"$W/qemu.cmd"
t0=$(now)
RAW="$W/serial.raw"
# boot_once: one QEMU run into $RAW; sets rc, panicked and nobanner (the
# guest's /init did not start within VM_BANNER_TIMEOUT seconds: QEMU's TCG
# occasionally stalls before the kernel prints anything, seen once in ~15
# riscv64 boots on a loaded host, with nothing of ours running yet; at
# loglevel=5 the kernel's own banner is not on the console, so the marker
# is /init's "E1VM: BEGIN" line)
boot_once() {
	local waited=0
	: >"$RAW"
	timeout -k 5 "$TIMEOUT" "${QEMU[@]}" </dev/null >"$RAW" 2>&1 &
	qpid=$!
	# live view of the results while the guest runs
	tail -n +1 -f --pid="$qpid" "$RAW" | tr -d '\r' |
		grep --line-buffered -a -E '^E1VM(-SUMMARY)?: (PASS|FAIL|SKIP|BEGIN|RUN)|^E1VM-LOG' |
		sed -u 's/^/    /' &
	vpid=$!
	# a panic does not always reset the VM (early boot): stop it at once
	panicked=0
	nobanner=0
	while kill -0 "$qpid" 2>/dev/null; do
		if grep -a -q -E -e '---\[ end Kernel panic' "$RAW"; then
			panicked=1
			sleep 1
			kill "$qpid" 2>/dev/null || true
			break
		fi
		if [ "$nobanner" = 0 ] && [ "$waited" -ge $((${VM_BANNER_TIMEOUT:-150} * 5)) ] &&
			! grep -a -q 'E1VM: BEGIN' "$RAW"; then
			nobanner=1
			kill "$qpid" 2>/dev/null || true
			break
		fi
		sleep 0.2
		waited=$((waited + 1))
	done
	rc=0
	wait "$qpid" || rc=$?
	wait "$vpid" 2>/dev/null || true
}
boot_once
if [ "$nobanner" = 1 ]; then
	warn "$ARCH: the guest's /init did not start ${VM_BANNER_TIMEOUT:-150}s after QEMU (a TCG stall before the kernel ran?): booting once more"
	cp "$RAW" "$W/serial-stalled.raw"
	boot_once
	[ "$nobanner" = 0 ] || warn "$ARCH: /init did not start on the second boot either"
fi
tr -d '\r' <"$RAW" >"$LOG"
T_BOOT=$(elapsed "$t0")

# ---- 5. verdict -----------------------------------------------------------
npass=$(grep -a -c '^E1VM: PASS ' "$LOG" || true)
nfail=$(grep -a -c '^E1VM: FAIL ' "$LOG" || true)
summary=$(grep -a '^E1VM-SUMMARY:' "$LOG" | tail -n 1 || true)
status=0
if [ "$panicked" = 1 ]; then
	warn "$ARCH: kernel panic: QEMU stopped"
	status=1
elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	warn "$ARCH: QEMU timed out after ${TIMEOUT}s"
	status=1
elif [ "$rc" != 0 ]; then
	warn "$ARCH: QEMU exited with status $rc"
	status=1
fi
if [ -z "$summary" ]; then
	warn "$ARCH: no E1VM-SUMMARY line: the guest crashed or hung. Last 40 lines of $LOG:"
	tail -n 40 "$LOG" | sed 's/^/    | /' >&2
	status=1
else
	sp=$(echo "$summary" | sed -n 's/^E1VM-SUMMARY: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p')
	if [ "$sp" != "$npass $nfail" ]; then
		warn "$ARCH: summary '$summary' does not match the $npass PASS / $nfail FAIL lines"
		status=1
	fi
	[ "$nfail" = 0 ] || status=1
	[ "$npass" -gt 0 ] || { warn "$ARCH: no test passed"; status=1; }
fi
if [ "$panicked" = 1 ] || grep -a -q -E 'Kernel panic - not syncing' "$LOG"; then
	warn "$ARCH: kernel panic in the serial log"
	status=1
fi

ARCH="$ARCH${VARIANT:+-$VARIANT}"
msg "$ARCH: kernel $KVER: ${summary:-NO SUMMARY}"
msg "$ARCH: times: kernel ready ${T_KERNEL}s, modules ${T_MODULES}s, boot-to-poweroff ${T_BOOT}s, total $(elapsed "$T_START")s"
if [ "$status" = 0 ]; then
	msg "$ARCH: VM TESTS PASSED ($npass passed)"
else
	grep '^E1VM: FAIL ' "$LOG" | sed 's/^/    /' >&2 || true
	msg "$ARCH: VM TESTS FAILED (serial log: $LOG)"
fi
exit "$status"
