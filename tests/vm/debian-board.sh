#!/bin/bash
# SPDX-License-Identifier: MIT
#
# debian-board.sh [shell|run]: the virtual board running Debian.
#   QEMU's riscv64 `virt` with the e1 NPU (qemu-build.sh) and board.md's
#   device tree, booting the project's 6.12 kernel (riscv64-kernel.sh: the
#   busybox boards' kernel, whose config has kernel/e1npu.config) on a
#   Debian trixie riscv64 root file system (debian-rootfs.sh) from a QEMU
#   snapshot. A second disk (label e1payload) carries:
#     debs/kernel  the board kernel as packages (riscv64-kernel-debs.sh)
#     debs/npu     the stack's packages, `make deb` of a cross build
#                  against Debian's own riscv64 packages (debian-sysroot.sh)
#     tests/       the library's cmocka suites of that build
#     data/        the model, the test image as BMP, PNG and JPEG, and
#                  e1npu-classify's output checksums on this machine; the
#                  language model (stories260K) and e1npu-llm's token ids
#     board-blocks.sh  board.md's ```sh debian-board commands
#     run.sh       debian/run-board.sh (run), or the command of `make
#                  board-debian CMD=...`
#   run (default): the test run; exits non-zero on any failure, a missing
#   summary or a timeout. shell: a login shell on this terminal, with
#   the packages in /payload/debs (VM_BOARD_CMD: that command instead).
# Environment: O, E1NPU_CACHE, VM_TIMEOUT (1800 s), VM_SMP (2), VM_MEM (1G).
. "$(dirname "$0")/common.sh"
. "$VM_DIR/kernel-riscv64.sh"

MODE=${1:-run}
case "$MODE" in run | shell) ;; *) die "usage: debian-board.sh [run|shell]" ;; esac
W="$VM_OUT/riscv64-debian"
mkdir -p "$W"
P="$W/payload"
P_REL=$P
case "$P" in "$TOP"/*) P_REL=${P#"$TOP"/} ;; esac
T_START=$(now)
CROSS=riscv64-linux-gnu-

# ---- 1. kernel, its packages, QEMU, root file system, sysroot -------------
t0=$(now)
export VM_KVARIANT=
riscv64_kernel
qemu_riscv64
KDEBS=$("$VM_DIR/riscv64-kernel-debs.sh") || die "debian board: the kernel packages did not build"
IMG=$("$VM_DIR/debian-rootfs.sh") || die "debian board: the root file system did not build"
SYSROOT=$("$VM_DIR/debian-sysroot.sh") || die "debian board: the sysroot did not build"
# the frameworks (frameworks-board.sh): sid's riscv64 root for the board's
# chroot, sid's amd64 root for the host's half and ONNX Runtime's headers;
# either missing: the board skips them, saying why
FW_SKIP=
FWIMG=$("$VM_DIR/frameworks-rootfs.sh") ||
	FW_SKIP="the sid riscv64 root did not build (tests/vm/frameworks-rootfs.sh)"
SIDROOT=$("$VM_DIR/sid-root.sh" --print) ||
	FW_SKIP="${FW_SKIP:-the sid amd64 root did not build (tests/vm/sid-root.sh)}"
ORT_INCDIR=
[ -n "$FW_SKIP" ] || ORT_INCDIR=$SIDROOT/usr/include/onnxruntime
case "$P_REL" in /*) FW_SKIP=${FW_SKIP:-"the build directory $O is outside the tree: the sid root sees only the tree"} ;; esac
T_PREP=$(elapsed "$t0")

# ---- 2. the stack's packages for riscv64 ------------------------------------
t0=$(now)
# board.md's debian-host blocks, verbatim, with BUILD and SYSROOT set
B="$W/build-riscv64"
awk '/^```sh debian-host$/ { on = 1; next } /^```/ { on = 0 } on' \
	"$TOP/Documentation/board.md" >"$W/debian-host-blocks.sh"
grep -q 'deb' "$W/debian-host-blocks.sh" || die "debian board: board.md has no debian-host block building the packages"
(cd "$TOP" && export BUILD="$B" SYSROOT ORT_INCDIR && run_logged "$W/debian-host.log" bash -e -x "$W/debian-host-blocks.sh") ||
	die "debian board: board.md's debian-host commands failed (log $W/debian-host.log)"
rm -rf "$P"
mkdir -p "$P/debs/kernel" "$P/debs/npu" "$P/debs/frameworks" "$P/tests" "$P/data" "$P/bin"
cp "$KDEBS"/*.deb "$P/debs/kernel/"
n=0
for d in "$B"/deb/*_riscv64.deb "$B"/deb/*_all.deb; do
	[ -f "$d" ] || continue
	case "$d" in
	# needs ONNX Runtime 1.23 (sid): the frameworks' chroot, not trixie
	*/e1npu-onnxruntime-ep_*) cp "$d" "$P/debs/frameworks/"; continue ;;
	esac
	cp "$d" "$P/debs/npu/"
	n=$((n + 1))
done
[ "$n" -ge 5 ] || die "debian board: make deb left $n packages in $B/deb (5 expected)"
for t in "$B"/tests/lib/test-* "$B"/tests/ops/test-*; do
	case "$t" in *.o | *.d) continue ;; esac
	[ -x "$t" ] && cp "$t" "$P/tests/$(basename "$(dirname "$t")")-$(basename "$t")"
done
run_logged "$W/delegate-load.log" ${CROSS}gcc --sysroot="$SYSROOT" -std=c11 -O2 -Wall -Wextra -Werror \
	-o "$P/bin/delegate-load" "$VM_DIR/debian/delegate-load.c" -ldl ||
	die "debian board: cannot build delegate-load"
T_DEBS=$(elapsed "$t0")

# ---- 3. data: the test image as PNG and JPEG, the host's outputs ----------
# the model, labels and photo from shared/ beside the checkout (SHARED_DIR,
# set by the Makefile), the photo at 128x128 by tests/data/mkimage.py.
# Without one of them: data/shared-absent.txt lists the files the board
# would have had ("NAME REASON" a line, tests/vm/guest/lib.sh's
# t_shared_absent) and the board skips the checks on them, naming the path.
D="$P/data"
SHARED_MODELS=${MODELS_DIR:-${SHARED_DIR:-$TOP/../shared}/models}
absent=
for f in mobilenet_v1_0.25_128_quant.tflite imagenet_labels.txt grace_hopper.bmp; do
	[ -f "$SHARED_MODELS/$f" ] || absent="$absent $SHARED_MODELS/$f"
done
CLASSIFY="$TOP/$O/tools/e1npu-classify/e1npu-classify"
case "$O" in /*) CLASSIFY="$O/tools/e1npu-classify/e1npu-classify" ;; esac
if [ -n "$absent" ]; then
	why="not on the board:$absent absent on the build machine (CI lays shared/ beside the checkout: SHARED_DIR=${SHARED_DIR:-$TOP/../shared})"
	msg "debian board: SKIP the checks on the model and photo:$absent absent"
	for f in mobilenet_v1_0.25_128_quant.tflite imagenet_labels.txt grace_hopper_128.bmp \
		grace_hopper_128.png grace_hopper_128.jpg; do
		echo "$f $why"
	done >"$D/shared-absent.txt"
else
	cp "$SHARED_MODELS/mobilenet_v1_0.25_128_quant.tflite" "$SHARED_MODELS/imagenet_labels.txt" "$D/"
	chmod u+w "$D/mobilenet_v1_0.25_128_quant.tflite" "$D/imagenet_labels.txt"   # shared/ is read-only
	python3 "$TOP/tests/data/mkimage.py" "$SHARED_MODELS/grace_hopper.bmp" "$D/grace_hopper_128.bmp" ||
		die "debian board: cannot make grace_hopper_128.bmp"
	python3 "$VM_DIR/debian/bmp2png.py" "$D/grace_hopper_128.bmp" "$D/grace_hopper_128.png" ||
		die "debian board: cannot write the PNG"
	cjpeg -quality 92 -dct int -outfile "$D/grace_hopper_128.jpg" "$D/grace_hopper_128.bmp" ||
		die "debian board: cjpeg failed"
	[ -x "$CLASSIFY" ] || die "debian board: no host e1npu-classify at $CLASSIFY (make first)"
	: >"$D/classify-host.txt"
	for img in grace_hopper_128.bmp grace_hopper_128.png grace_hopper_128.jpg; do
		E1NPU_DEVICE=sim "$CLASSIFY" -m "$D/mobilenet_v1_0.25_128_quant.tflite" -i "$D/$img" \
			--raw-output "$W/host-out.raw" >"$W/host-classify.log" 2>&1 ||
			{ cat "$W/host-classify.log" >&2; die "debian board: host e1npu-classify on $img failed"; }
		echo "$img $(sha256sum <"$W/host-out.raw" | cut -d' ' -f1)" >>"$D/classify-host.txt"
	done
fi
# the language model (shared/llm): its weights and tokenizer, and the
# token ids the host's in-process device generates (the board's through
# e1npu.ko must be the same); absent: llm-host.txt says "SKIP why"
SHARED_LLM=${SHARED_DIR:-$TOP/../shared}/llm
LLM="$TOP/$O/tools/e1npu-llm/e1npu-llm"
case "$O" in /*) LLM="$O/tools/e1npu-llm/e1npu-llm" ;; esac
if [ -f "$SHARED_LLM/stories260K.bin" ] && [ -f "$SHARED_LLM/tok512.bin" ]; then
	[ -x "$LLM" ] || die "debian board: no host e1npu-llm at $LLM (make first)"
	cp "$SHARED_LLM/stories260K.bin" "$SHARED_LLM/tok512.bin" "$D/"
	chmod u+w "$D/stories260K.bin" "$D/tok512.bin"
	ids=$(E1NPU_DEVICE=sim "$LLM" -m "$D/stories260K.bin" -z "$D/tok512.bin" \
		-p "Once upon a time" -n 32 --json 2>"$W/host-llm.log" |
		sed -n 's/.*"generated_ids": \[\([^]]*\)\].*/\1/p' | tr -d ' ')
	[ -n "$ids" ] || { cat "$W/host-llm.log" >&2; die "debian board: host e1npu-llm failed"; }
	echo "int8 $ids" >"$D/llm-host.txt"
else
	msg "debian board: SKIP the language model: $SHARED_LLM/stories260K.bin or tok512.bin absent"
	echo "SKIP $SHARED_LLM/stories260K.bin or tok512.bin absent on the build machine (CI lays shared/ beside the checkout: SHARED_DIR=${SHARED_DIR:-$TOP/../shared})" >"$D/llm-host.txt"
fi
t0=$(now)
. "$VM_DIR/debian/frameworks-payload.sh"
T_FW=$(elapsed "$t0")
awk '/^```sh debian-board$/ { on = 1; next } /^```/ { on = 0 } on' \
	"$TOP/Documentation/board.md" >"$P/board-blocks.sh"
cp "$VM_DIR/guest/lib.sh" "$P/lib.sh"
date +%s >"$P/epoch"
if [ "$MODE" = run ]; then
	install -m 0755 "$VM_DIR/debian/run-board.sh" "$P/run.sh"
else
	install -m 0755 "$VM_DIR/debian/setup-board.sh" "$P/run.sh"
	[ -z "${VM_BOARD_CMD:-}" ] || printf '%s\n' "$VM_BOARD_CMD" >"$P/board-cmd"
fi
chmod -R a+rX "$P"
rm -f "$W/payload.img"
run_logged "$W/mke2fs.log" mke2fs -q -t ext4 -L e1payload -d "$P" "$W/payload.img" \
	"$(( $(du -sm "$P" | cut -f1) + 32 ))M" || die "debian board: mke2fs of the payload failed"

# ---- 4. boot ----------------------------------------------------------------
VM_MEM=${VM_MEM:-1G}
QEMU=("$QEMU_RISCV64" -M virt -L /usr/share/qemu -bios default -m "$VM_MEM" -smp "${VM_SMP:-2}")
riscv64_board_dtb "$W/board.dtb" board "${QEMU[@]}"
QEMU+=(-dtb "$W/board.dtb" -nographic -no-reboot -nic none -kernel "$KIMAGE"
       -drive "file=$IMG,format=raw,if=none,id=root,snapshot=on"
       -device virtio-blk-device,drive=root
       -drive "file=$W/payload.img,format=raw,if=none,id=payload,readonly=on"
       -device virtio-blk-device,drive=payload
       -append "console=ttyS0 root=/dev/vda rw rootwait init=/sbin/e1board-init panic=-1 loglevel=5 earlycon")
[ -n "$FW_SKIP" ] ||
	QEMU+=(-drive "file=$FWIMG,format=raw,if=none,id=frameworks,snapshot=on"
	       -device virtio-blk-device,drive=frameworks)
echo "${QEMU[*]}" >"$W/qemu.cmd"
LOG="$W/serial.log"
if [ "$MODE" = shell ] && [ -z "${VM_BOARD_CMD:-}" ]; then
	msg "debian board: the console is this terminal (Ctrl-A X ends QEMU); the packages are in /payload/debs"
	exec "${QEMU[@]}"
fi
# the board-init reports run.sh's status as E1BOARD-STATUS
TIMEOUT=${VM_TIMEOUT:-1800}
msg "debian board: booting Debian $(basename "$IMG") (timeout ${TIMEOUT}s, serial log $LOG)"
t0=$(now)
if [ "$MODE" = shell ]; then
	timeout -k 5 "$TIMEOUT" "${QEMU[@]}" </dev/null 2>&1 | sed -u 's/\r$//' | tee "$LOG" |
		sed -u -n '/^board: /,/^E1BOARD-STATUS: /p' | grep -v -E '^E1BOARD(-STATUS)?: '
	st=$(sed -n 's/^E1BOARD-STATUS: \([0-9]*\).*/\1/p' "$LOG" | tail -n 1)
	[ -n "$st" ] || die "debian board: the command did not finish (serial log $LOG)"
	exit "$st"
fi
# QEMU's console into a file (a pipe would hold it in buffers), followed
# live for the results
RAW="$W/serial.raw"
: >"$RAW"
timeout -k 5 "$TIMEOUT" "${QEMU[@]}" </dev/null >"$RAW" 2>&1 &
qpid=$!
tail -n +1 -f --pid="$qpid" "$RAW" |
	grep --line-buffered -a -E '^E1VM(-SUMMARY)?: (PASS|FAIL|SKIP|BEGIN)|^E1VM-LOG|^E1BOARD' |
	sed -u 's/\r$//; s/^/    /' &
vpid=$!
rc=0
wait "$qpid" || rc=$?
wait "$vpid" 2>/dev/null || true
tr -d '\r' <"$RAW" >"$LOG"
T_BOOT=$(elapsed "$t0")

# ---- 5. verdict ---------------------------------------------------------------
npass=$(grep -a -c '^E1VM: PASS ' "$LOG" || true)
nfail=$(grep -a -c '^E1VM: FAIL ' "$LOG" || true)
summary=$(grep -a '^E1VM-SUMMARY:' "$LOG" | tail -n 1 || true)
status=0
[ "$rc" = 0 ] || { warn "debian board: QEMU exited with status $rc (124: timeout)"; status=1; }
if [ -z "$summary" ]; then
	warn "debian board: no E1VM-SUMMARY line: the guest crashed or hung. Last 40 lines of $LOG:"
	tail -n 40 "$LOG" | sed 's/^/    | /' >&2
	status=1
else
	[ "$nfail" = 0 ] || status=1
	[ "$npass" -gt 0 ] || status=1
fi
! grep -a -q 'Kernel panic - not syncing' "$LOG" || { warn "debian board: kernel panic"; status=1; }
msg "debian board: ${summary:-NO SUMMARY}"
msg "debian board: times: kernel/rootfs/sysroot ready ${T_PREP}s, packages ${T_DEBS}s, frameworks' host half ${T_FW}s, boot-to-poweroff ${T_BOOT}s, total $(elapsed "$T_START")s"
msg "debian board: packages: $(cd "$P/debs/npu" && for d in *.deb; do printf '%s %s KiB; ' "${d%%_*}" "$(( $(stat -c %s "$d") / 1024 ))"; done)"
if [ "$status" = 0 ]; then
	msg "debian board: VM TESTS PASSED ($npass passed)"
else
	grep -a '^E1VM: FAIL ' "$LOG" | sed 's/^/    /' >&2 || true
	msg "debian board: VM TESTS FAILED (serial log: $LOG)"
fi
exit "$status"
