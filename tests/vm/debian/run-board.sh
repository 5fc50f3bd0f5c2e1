#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /payload/run.sh on the Debian board (tests/vm/debian-board.sh): what a
# board engineer does with a Debian image, checked.
#  1. the system is Debian trixie riscv64 on the project's kernel;
#  2. the board kernel's packages (linux-image, linux-headers) installed
#     with apt, then the e1 NPU packages: DKMS builds e1npu.ko against the
#     headers; modprobe binds the NPU's node; udevd applies the packaged
#     rule (group render, mode 0660);
#  3. every command of board.md's ```sh debian-board blocks, as written;
#  4. the userspace: linked against Debian's libudev/libdrm/libpng/libjpeg,
#     npu-smoke on the NPU, the library's cmocka suites, e1npu-classify on
#     BMP, PNG and JPEG (output bytes equal the host's), e1npu-llm's int8
#     token ids through e1npu.ko equal the host's, the delegate loads;
#     TFLite 2.14.1 with the delegate and ONNX Runtime 1.23.2 with the EP
#     (C and Python) from sid, in a chroot (frameworks-board.sh);
#     (the commands and checks on the model and photo are skipped, naming
#     the path, when the build machine had no shared/: data/shared-absent.txt)
#  5. purging the packages leaves the file system as it was before them.
# Results as the busybox guests print them (lib.sh): E1VM: PASS/FAIL lines
# and an E1VM-SUMMARY line.
P=/payload
. $P/lib.sh
W=/var/tmp/e1board
mkdir -p "$W"
export DEBIAN_FRONTEND=noninteractive
# the board has no RTC driver: the build machine's clock, so that make
# (DKMS) and dpkg see file times in the past
date -s "@$(cat $P/epoch)" >/dev/null
NPU_PKGS="libe1npu0 libe1npu-dev e1npu-tools libe1npu-tflite-delegate e1npu-dkms"
echo "E1VM: BEGIN debian-board"

# want NAME GOT EXPECTED
want() {
	if [ "$2" = "$3" ]; then t_pass "$1"; else t_fail "$1" "got '$2', expected '$3'"; fi
}
# secs CMD...: run CMD, print how long it took on the E1VM-LOG channel
secs() {
	_t0=$(date +%s)
	"$@"
	_rc=$?
	echo "E1VM-LOG: $(date +%s | awk -v a="$_t0" '{ print $1 - a }') s: $*"
	return $_rc
}
# snapshot FILE: every path of the root file system but logs, caches,
# apt/dpkg state, home directories (board.md adds a user: its account
# files and their backups are the user's, not a package's) and depmod's
# indexes (rewritten by every depmod: trixie's adds modules.weakdep)
snapshot() {
	find / -xdev \( -path /var/log -o -path /var/cache -o -path /var/lib/apt \
		-o -path /var/lib/dpkg -o -path /root -o -path /home -o -path /var/mail \
		-o -path /var/tmp -o -path /tmp -o -path /var/lib/systemd \) -prune -o -print |
		grep -v -E '^/etc/(passwd|group|shadow|gshadow|subuid|subgid)-?$' |
		grep -v -E '^/usr/lib/modules/[^/]*/modules\.[a-z.]*$' |
		LC_ALL=C sort >"$1"
}

# ---- 1. the system ----------------------------------------------------------
. /etc/os-release
want debian-system "$ID $VERSION_CODENAME $(dpkg --print-architecture)" "debian trixie riscv64"

# ---- 2. the board kernel's packages; udevd, as a board's init starts it ----
t_run apt-kernel secs apt-get install -y -q --no-install-recommends $P/debs/kernel/*.deb
want kernel-headers-for-running-kernel "$(readlink -f /lib/modules/$(uname -r)/build | grep -c headers)" 1
/usr/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1 || t_fail udevd "systemd-udevd --daemon failed"
snapshot "$W/before"

# ---- 3. board.md's Debian commands, as written, in /root ----------------------
mkdir -p /root/e1npu
cp $P/debs/npu/*.deb /root/e1npu/
cp $P/data/* /root/
cd /root
i=0
while IFS= read -r cmd; do
	case "$cmd" in '' | '#'*) continue ;; esac
	i=$((i + 1))
	echo "E1VM-LOG: board-md-debian-$i: $cmd"
	# a file the build machine had no shared/ for (debian-board.sh lists it)
	if why=$(t_shared_absent "$P/data/shared-absent.txt" "$cmd"); then
		t_skip "board-md-debian-$i" "$why"
		continue
	fi
	_t0=$(date +%s)
	if sh -c "$cmd" </dev/null >"$W/cmd.log" 2>&1; then
		t_pass "board-md-debian-$i"
	else
		tail -n 15 "$W/cmd.log" | sed "s/^/E1VM-LOG: board-md-debian-$i: /"
		t_fail "board-md-debian-$i" "$cmd"
	fi
	echo "E1VM-LOG: board-md-debian-$i: $(($(date +%s) - _t0)) s"
done <"$P/board-blocks.sh"
[ "$i" -ge 5 ] || t_fail board-md-debian "board.md has only $i debian-board commands"
rm -rf /root/e1npu
udevadm settle -t 60 >/dev/null 2>&1

# what those commands must have done
for p in $NPU_PKGS; do
	want "installed-$p" "$(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null)" installed
done
st=$(dkms status -k "$(uname -r)" e1npu 2>&1)
echo "E1VM-LOG: dkms status: $st"
case "$st" in
*"$(uname -r)"*installed*) t_pass dkms-built-and-installed ;;
*) t_fail dkms-built-and-installed "dkms status: $st" ;;
esac
ko=$(modinfo -n e1npu 2>/dev/null)
case "$ko" in
*/updates/dkms/e1npu.ko*) t_pass "modinfo-e1npu-from-dkms" ;;
*) t_fail modinfo-e1npu-from-dkms "modinfo -n e1npu: '$ko'" ;;
esac
want driver-bound "$(ls /sys/bus/platform/drivers/e1npu/ 2>/dev/null | grep -c '^10020000\.npu$')" 1
want udev-rule-group-mode "$(stat -c '%G %a' /dev/accel/accel0 2>&1)" "render 660"
# systemd's own rules give accel nodes the same group: the packaged rule
# must be the one that matched (udevadm test names each rule applied)
want udev-rule-packaged-applies "$(udevadm test /sys/class/accel/accel0 2>&1 | grep -c '70-e1npu\.rules:[0-9]*.*GROUP')" 1
want udev-sees-e1npu-parent "$(udevadm info -a /dev/accel/accel0 2>/dev/null | grep -c 'DRIVERS=="e1npu"')" 1
cd "$W"

# ---- 4. the userspace ----------------------------------------------------------
for l in libudev.so.1 libdrm.so.2; do
	want "libe1npu-needs-$l" "$(ldd /usr/lib/riscv64-linux-gnu/libe1npu.so.0 | grep -c "$l => /lib/riscv64-linux-gnu/\|$l => /usr/lib/riscv64-linux-gnu/")" 1
done
for l in libpng16.so.16 libjpeg.so.62; do
	want "classify-needs-$l" "$(ldd /usr/bin/e1npu-classify | grep -c "$l => ")" 1
done
# auto: the device libudev enumerates is the NPU (not the in-process model)
npu-smoke info --json >"$W/info.json" 2>&1
want npu-smoke-auto-finds-accel0 "$(grep -c '"/dev/accel/accel0"' "$W/info.json")" 1
t_run npu-smoke-smoke npu-smoke smoke
for t in "$P"/tests/*; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	E1NPU_DEVICE=/dev/accel/accel0 "$t" >"$W/$n.log" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		t_pass "suite-$n"
	else
		tail -n 20 "$W/$n.log" | sed "s/^/E1VM-LOG: suite-$n: /"
		t_fail "suite-$n" "exit status $rc"
	fi
done
for img in grace_hopper_128.bmp grace_hopper_128.png grace_hopper_128.jpg; do
	if why=$(t_shared_absent "$P/data/shared-absent.txt" "$img"); then
		t_skip "classify-$img-equals-host" "$why"
		continue
	fi
	exp=$(sed -n "s/^$img //p" "$P/data/classify-host.txt")
	if e1npu-classify -m /root/mobilenet_v1_0.25_128_quant.tflite -i "/root/$img" \
		--raw-output "$W/out.raw" >"$W/classify.log" 2>&1; then
		want "classify-$img-equals-host" "$(sha256sum <"$W/out.raw" | cut -d' ' -f1)" "$exp"
	else
		tail -n 5 "$W/classify.log" | sed "s/^/E1VM-LOG: classify-$img: /"
		t_fail "classify-$img-equals-host" "e1npu-classify failed"
	fi
done
# the language model through e1npu.ko: the host's in-process token ids
if grep -q '^SKIP ' "$P/data/llm-host.txt"; then
	t_skip llm-int8-equals-host "$(sed -n 's/^SKIP //p' "$P/data/llm-host.txt")"
else
	exp=$(sed -n 's/^int8 //p' "$P/data/llm-host.txt")
	_t0=$(date +%s)
	if e1npu-llm --device /dev/accel/accel0 -m /root/stories260K.bin -z /root/tok512.bin \
		-p "Once upon a time" -n 32 --json >"$W/llm.json" 2>"$W/llm.err"; then
		got=$(sed -n 's/.*"generated_ids": \[\([^]]*\)\].*/\1/p' "$W/llm.json" | tr -d ' ')
		echo "E1VM-LOG: llm-int8: $(sed -n 's/.*"decode_tok_s": \([0-9.]*\).*/\1/p' "$W/llm.json") tok/s decode, $(($(date +%s) - _t0)) s"
		want llm-int8-equals-host "$got" "$exp"
	else
		tail -n 5 "$W/llm.err" | sed "s/^/E1VM-LOG: llm-int8: /"
		t_fail llm-int8-equals-host "e1npu-llm failed"
	fi
fi
so=$(dpkg -L libe1npu-tflite-delegate | grep '\.so$' | head -n 1)
t_run delegate-loads "$P/bin/delegate-load" "$so"
# TFLite 2.14.1 and ONNX Runtime 1.23.2 (sid) in a chroot, on e1npu.ko
. $P/frameworks-board.sh

# ---- 5. purge -------------------------------------------------------------------
t_run rmmod-e1npu modprobe -r e1npu
t_run apt-purge secs apt-get purge -y -q $NPU_PKGS
snapshot "$W/after"
if cmp -s "$W/before" "$W/after"; then
	t_pass purge-leaves-nothing
else
	diff "$W/before" "$W/after" | head -n 30 | sed 's/^/E1VM-LOG: purge: /'
	t_fail purge-leaves-nothing "the file system differs from before the packages"
fi
want dkms-forgot-e1npu "$(dkms status e1npu 2>/dev/null | wc -l)" 0
t_dmesg_check
t_summary
