#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-vm.sh riscv64 [debug|split]: build the project's kernel module against
# the riscv64 test kernel, pack an initramfs (busybox, modules + DRM deps,
# tests), boot it on the virtual board -- QEMU's riscv64 `virt` with the e1
# NPU at 0x1002_0000 (tests/vm/qemu-build.sh, model/qemu/) and board.md's
# device tree node -- print the guest's results and exit non-zero on any
# failure, a missing summary (crash/hang) or a timeout.
#   debug: the debug kernel (lockdep, KASAN, kmemleak, UBSAN, DEBUG_OBJECTS,
#          DMA_API_DEBUG, DEBUG_LIST, KUnit); work in $O/vm/riscv64-debug
#   board: `make board`: the base kernel, the board's userspace at /, the
#          driver loaded, then $VM_BOARD_CMD or a shell on this terminal
#   split: the base kernel on the two-node device tree (riscv64-dtb.sh
#          split: a wrapper-only and a datapath-only node); the guest runs
#          /tests/run-guest-split.sh only; work in $O/vm/riscv64-split
# The guest reaches QEMU's QMP monitor through a virtio console (/dev/hvc0,
# /tests/e1vm-qmp) to inject faults at run time; the host can use the
# monitor socket /tmp/e1vm.XXXXXX/monitor.sock too (qom-set /machine/e1npu
# ...; make board prints its path).
#
# Environment (vm.mk passes these):
#   O                    build dir (default build); work goes to $O/vm/ARCH
#   E1NPU_CACHE          download/kernel/QEMU cache (default /var/cache/e1npu)
#   VM_GUEST_FILES       host files copied to /tests/ in every guest
#   VM_RISCV_GUEST_FILES riscv64 files for /tests/ (static binaries, the
#                        cross-built userspace)
#   VM_APPEND            extra kernel command line (e.g. e1vm.selftest_warn=1)
#   VM_TIMEOUT           seconds before the VM is killed (600; 1800 debug)
#   VM_BANNER_TIMEOUT    seconds for /init's first line before QEMU is
#                        restarted, once (150)
#   VM_SMP, VM_MEM       guest CPUs (2) and memory (512M; 1G debug)
#   VM_OOPS_PANIC=0      do not pass oops=panic (default: an oops ends the run)
#   VM_NO_PROJECT=1      only the self-test module, even if kernel/Kbuild exists
#   VM_QEMU_ARGS         extra QEMU arguments (e.g. -global e1npu.clock-mhz=1000)
#   VM_BOARD_CMD         board variant (make board): run this shell command
#                        on the board and exit with its status; empty: a
#                        shell on this terminal
. "$(dirname "$0")/common.sh"

ARCH=${1:-}
VARIANT=${2:-}
[ "$ARCH" = riscv64 ] ||
	die "usage: run-vm.sh riscv64 [debug|split] (the x86_64 guest of the simulator module is retired: Documentation/testing-vm.md)"
DT=board
case "$VARIANT" in
"" | board) export VM_KVARIANT= ;;
debug) export VM_KVARIANT=debug ;;
split) export VM_KVARIANT= ; DT=split ;;
*) die "usage: run-vm.sh riscv64 [debug|split|board]" ;;
esac
. "$VM_DIR/kernel-riscv64.sh"
EXTRA_FILES=${VM_RISCV_GUEST_FILES:-}

W="$VM_OUT/$ARCH${VARIANT:+-$VARIANT}"
mkdir -p "$W"
T_START=$(now)

# ---- 1. kernel ------------------------------------------------------------
t0=$(now)
riscv64_kernel
qemu_riscv64
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
	# the out-of-tree layout with the compat layer (kernel/compat/stage.sh)
	"$TOP/kernel/compat/stage.sh" "$SRC/e1npu" || die "$ARCH: kernel/compat/stage.sh failed"
	build_modules "$SRC/e1npu" kernel
	mapfile -t proj < <(find "$SRC/e1npu" -name '*.ko' | sort)
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
# the guest's end of the QMP channel (fault injection at run time)
run_logged "$W/e1vm-qmp.log" $GUEST_CC -static -O2 -std=c11 -Wall -Wextra -Werror \
	-o "$R/tests/e1vm-qmp" "$VM_DIR/guest/e1vm-qmp.c" ||
	die "$ARCH: cannot build the static guest tool e1vm-qmp"
# shellcheck disable=SC2086
for f in ${VM_GUEST_FILES:-} $EXTRA_FILES; do
	[ -e "$f" ] || die "$ARCH: guest file $f does not exist (VM_GUEST_FILES / VM_*_GUEST_FILES)"
	cp -L "$f" "$R/tests/"
	msg "$ARCH: + /tests/$(basename "$f")"
done
chmod +x "$R"/tests/*.sh 2>/dev/null || true
[ -z "${VM_BOARD_CMD:-}" ] || printf '%s\n' "$VM_BOARD_CMD" >"$R/tests/board-cmd"
CPIO="$W/initramfs.cpio"
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --owner 0:0 --quiet) >"$CPIO"
msg "$ARCH: initramfs $(du -h "$CPIO" | cut -f1) in $(elapsed "$t0") s"

# ---- 4. boot --------------------------------------------------------------
LOG="$W/serial.log"
# oops=panic: an oops fails fast (panic, reset, -no-reboot exits) instead
# of leaving a stuck task and waiting for the timeout; VM_OOPS_PANIC=0 off
APPEND="console=ttyS0 panic=-1 loglevel=5"
[ "${VM_OOPS_PANIC:-1}" = 0 ] || APPEND="$APPEND oops=panic"
# the debug kernel: kmemleak needs no option; e1vm.kvariant tells the guest
[ -z "$VM_KVARIANT" ] || APPEND="$APPEND e1vm.kvariant=$VM_KVARIANT"
APPEND="$APPEND ${VM_APPEND:-}"
# KASAN's shadow (1/8), lockdep and kmemleak need more memory
mem=512M
[ "$VARIANT" != debug ] || mem=1G
VM_MEM=${VM_MEM:-$mem}
[ "$DT" = board ] || APPEND="$APPEND e1vm.dt=$DT"
[ "$VARIANT" != board ] || APPEND="$APPEND e1vm.board=1"
QEMU=("$QEMU_RISCV64" -M virt -L /usr/share/qemu -bios default
      -m "$VM_MEM" -smp "${VM_SMP:-2}")
APPEND="$APPEND earlycon"
# the debug guest took 791-1064 s on 2 cores, the longer with builds
# running beside it
TIMEOUT=${VM_TIMEOUT:-$([ "$VARIANT" = debug ] && echo 1800 || echo 600)}
riscv64_board_dtb "$W/board.dtb" "$DT" "${QEMU[@]}"
QEMU+=(-dtb "$W/board.dtb")
# The QMP monitor: a socket for the host, and the same monitor's second
# instance on a socket QEMU itself connects to, carried into the guest
# as a virtio console (/dev/hvc0): QMP commands from /tests/e1vm-qmp.
# (short paths: a Unix socket's path has at most 107 bytes)
SOCKS=$(mktemp -d /tmp/e1vm.XXXXXX)
trap 'rm -rf "$SOCKS"' EXIT
QEMU+=(-chardev "socket,id=hostqmp,path=$SOCKS/monitor.sock,server=on,wait=off"
       -mon chardev=hostqmp,mode=control
       -chardev "socket,id=guestqmp,path=$SOCKS/guest-qmp.sock,server=on,wait=off"
       -mon chardev=guestqmp,mode=control
       -chardev "socket,id=guestend,path=$SOCKS/guest-qmp.sock"
       -device virtio-serial-device -device virtconsole,chardev=guestend)
# shellcheck disable=SC2206
QEMU+=(${VM_QEMU_ARGS:-})
QEMU+=(-nographic -no-reboot -nic none -kernel "$KIMAGE" -initrd "$CPIO" -append "$APPEND")
echo "${QEMU[*]}" >"$W/qemu.cmd"
if [ "$VARIANT" = board ]; then
	if [ -z "${VM_BOARD_CMD:-}" ]; then
		msg "board: the virtual board's console is this terminal (Ctrl-A X ends QEMU); host QMP monitor: $SOCKS/monitor.sock"
		"${QEMU[@]}"
		exit $?
	fi
	msg "board: booting, then: $VM_BOARD_CMD (serial log $LOG)"
	timeout -k 5 "$TIMEOUT" "${QEMU[@]}" </dev/null 2>&1 | tr -d '\r' | tee "$LOG" |
		sed -u -n '/^board: /,/^E1VM-BOARD-STATUS: /p' | grep -v '^E1VM-BOARD-STATUS: '
	st=$(sed -n 's/^E1VM-BOARD-STATUS: \([0-9]*\).*/\1/p' "$LOG" | tail -n 1)
	[ -n "$st" ] || die "board: the command did not finish (serial log $LOG)"
	msg "board: exit status $st"
	exit "$st"
fi
msg "$ARCH: booting (timeout ${TIMEOUT}s, serial log $LOG)"
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
