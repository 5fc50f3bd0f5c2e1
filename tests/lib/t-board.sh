#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/t-board.sh: Documentation/board.md on the riscv64 guest (the tests
# harness runs every /tests/t-*.sh after run-guest.sh; busybox sh).
#  1. the root file system of tests/lib/board-host.sh (the cross build,
#     installed with make install DESTDIR=, plus the C library) at /; the
#     NPU is the QEMU board's (a device of QEMU's virt machine at the
#     addresses board.md's device tree node gives, which the guest boots
#     with); the modules go where `make modules_install` puts them (depmod);
#  2. every command of board.md's ```sh board blocks (board-blocks.sh),
#     one test each, as written (skipped, naming the path, when it uses a
#     file the build machine had no shared/ for: board-shared-absent.txt);
#  3. checks: npu-smoke info|ping|smoke|bench|perf|ops --json parsed; the
#     sysfs counters against the MACs of known matmuls; e1npu-classify's
#     output bytes against the host's (guest-classify.sh); e1npu-llm's
#     generated token ids against the host's (guest-llm.sh); the udev rule;
#     the device tree node, its arena, and that the driver bound to it.
. /tests/lib.sh
# the debug kernel checks the driver; this is userspace
t_debug_skip board "board.md in userspace (its commands, classify, the LLM): the base guest runs it" && exit 0

T=/tests
export PATH=/usr/bin:/usr/sbin:$PATH
W=/tmp/board
mkdir -p "$W"

if [ ! -x /usr/bin/npu-smoke ] && ! tar -xf "$T/guest-riscv64.tar" -C /; then
	t_fail board-rootfs "cannot unpack $T/guest-riscv64.tar"
	exit 0
fi

# jget KEY FILE: the first "KEY": value in FILE (strings unquoted)
jget() {
	awk -v k="\"$1\":" '{
		i = index($0, k)
		if (!i) next
		v = substr($0, i + length(k))
		if (v ~ /^"/) { v = substr(v, 2); sub(/".*/, "", v) }
		else sub(/[],}].*/, "", v)
		print v
		exit
	}' "$2"
}
# want NAME WHAT GOT EXPECTED: one test comparing two strings
want() {
	if [ "$3" = "$4" ]; then t_pass "$1"; else t_fail "$1" "$2: got '$3', expected '$4'"; fi
}
# strs FILE: a DT string list, space separated; hexb FILE: its bytes in hex
strs() { tr '\0' ' ' <"$1" 2>/dev/null | sed 's/ $//'; }
hexb() { od -An -tx1 "$1" 2>/dev/null | tr -d ' \n'; }

# board.md's NPU node and its memory-region (the reserved-memory node whose
# phandle it names): the arena, as the device tree gives it
dt=/proc/device-tree/soc/npu@10020000
rm=
if [ -d "$dt" ]; then
	ph=$(hexb $dt/memory-region)
	for _n in /proc/device-tree/reserved-memory/*; do
		[ -f "$_n/phandle" ] && [ "$(hexb "$_n/phandle")" = "$ph" ] && rm=$_n
	done
fi
reg=$(hexb "$rm/reg")
dt_size=
[ -z "$reg" ] || dt_size=$(printf '%d' "0x$(echo "$reg" | cut -c17-32)")
# the arena the binding gives that region
dt_arena=$(t_dt_arena "$dt")
dt_arena=${dt_arena#* }

# ---- 1. the board: modules where modules_install puts them -----------------
kr=$(uname -r)
mkdir -p "/lib/modules/$kr"
cp "$E1VM_MODDIR"/*.ko "/lib/modules/$kr/"
t_run board-depmod depmod

# ---- 2. board.md's commands, as written ------------------------------------
i=0
while IFS= read -r cmd; do
	case "$cmd" in '' | '#'*) continue ;; esac
	i=$((i + 1))
	echo "E1VM-LOG: board-md-$i: $cmd"
	# a file board.md's board-host lines would have copied from shared/
	# (absent on the build machine: tests/lib/board-host.sh lists it)
	if why=$(t_shared_absent "$T/board-shared-absent.txt" "$cmd"); then
		t_skip "board-md-$i" "$why"
		continue
	fi
	if sh -c "$cmd" </dev/null >"$W/cmd.log" 2>&1; then
		t_pass "board-md-$i"
	else
		sed "s/^/E1VM-LOG: board-md-$i: /" "$W/cmd.log" | tail -n 20
		t_fail "board-md-$i" "board.md command failed: $cmd"
	fi
done <"$T/board-blocks.sh"
[ "$i" -ge 8 ] || t_fail board-md-commands "only $i board commands in board-blocks.sh"

acc=
for _d in /sys/class/accel/accel*; do
	[ -e "$_d/device/driver" ] && [ "$(basename "$(readlink "$_d/device/driver")")" = e1npu ] &&
		acc=${_d##*/}
done
if [ -z "$acc" ]; then
	t_fail board-accel "no accel device driven by e1npu after modprobe"
	exit 0
fi
dev=/dev/accel/$acc
perf=/sys/class/accel/$acc/device/perf

# the module options of board.md's modprobe line
want board-modprobe-options "timeout_ms vs board.md's modprobe line" \
	"$(cat /sys/module/e1npu/parameters/timeout_ms)" \
	"$(sed -n 's/^modprobe e1npu .*timeout_ms=\([0-9]*\).*/\1/p' "$T/board-blocks.sh")"

# ---- 3a. npu-smoke --json, parsed ------------------------------------------
npu-smoke --json info >"$W/info.json" 2>&1
want board-json-info-device "info device" "$(jget device "$W/info.json")" "$dev"
want board-json-info-backend "info backend" "$(jget backend "$W/info.json")" kernel
want board-json-info-driver "info driver" "$(jget driver "$W/info.json")" e1npu
want board-json-info-arena "info arena_size vs the node's memory-region" \
	"$(jget arena_size "$W/info.json")" "$dt_arena"
want board-json-info-ring "info ring_len vs the module parameter" \
	"$(jget ring_len "$W/info.json")" "$(cat /sys/module/e1npu/parameters/ring_len)"

npu-smoke --json ping >"$W/ping.json" 2>&1
rc=$?
want board-json-ping "ping ok (exit $rc)" "$(jget ok "$W/ping.json"),$rc" "true,0"
lat=$(jget latency_us "$W/ping.json")
case "$lat" in [0-9]*.[0-9]*) t_pass board-json-ping-latency ;;
*) t_fail board-json-ping-latency "latency_us '$lat'" ;; esac

npu-smoke --json smoke >"$W/smoke.json" 2>&1
rc=$?
nops=$(grep -c '^{"name":' "$W/smoke.json")
npass=$(grep '^{"name":' "$W/smoke.json" | grep -c '"result":"pass"')
nhost=$(grep -c '^{"name":' "$T/smoke-host.json")
want board-json-smoke "smoke: exit, passed, failed, operations passing" \
	"$rc $(jget passed "$W/smoke.json") $(jget failed "$W/smoke.json") $npass" "0 $nops 0 $nops"
want board-json-smoke-count "smoke operations vs the host's run" "$nops" "$nhost"
want board-json-smoke-device "smoke device" "$(jget device "$W/smoke.json")" "$dev"

# bench -n 3: MACs of its 64x64x64 matmul, and the sysfs counter moves by
# 3 of them (NOPs count none)
m0=$(cat "$perf/macs")
npu-smoke --json bench -n 3 >"$W/bench.json" 2>&1
rc=$?
m1=$(cat "$perf/macs")
want board-json-bench "bench: exit, iterations, matmul64_macs" \
	"$rc $(jget iterations "$W/bench.json") $(jget matmul64_macs "$W/bench.json")" \
	"0 3 $((64 * 64 * 64))"
want board-perf-macs-bench "sysfs perf/macs delta over bench -n 3" \
	"$((m1 - m0))" "$((3 * 64 * 64 * 64))"

npu-smoke --json perf >"$W/perf.json" 2>&1
want board-json-perf "perf: wrapper_macs, dp_macs, wrapper_cycles vs sysfs" \
	"$(jget wrapper_macs "$W/perf.json") $(jget dp_macs "$W/perf.json") $(jget wrapper_cycles "$W/perf.json")" \
	"$(cat "$perf/macs") $(cat "$perf/dp_macs") $(cat "$perf/cycles")"

npu-smoke --json ops >"$W/ops.json" 2>&1
rc=$?
n=$(grep -o -E '\{"op":"[^"]*","engine":"[^"]*","supported":(true|false),"why":"[^"]*"\}' "$W/ops.json" | wc -l)
nall=$(grep -o '"op":' "$W/ops.json" | wc -l)
s8=$(grep -o '{"op":"matmul_s8","engine":"wrapper","supported":[a-z]*' "$W/ops.json" | sed 's/.*://')
if [ "$rc" = 0 ] && [ "$n" -gt 0 ] && [ "$n" = "$nall" ] && [ $((n % 3)) = 0 ] && [ "$s8" = true ]; then
	t_pass board-json-ops
else
	t_fail board-json-ops "exit $rc, $n well-formed of $nall entries, matmul_s8 on wrapper '$s8'"
fi

# ---- 3b. sysfs counters: the example's one 4x4x16 matmul -------------------
m0=$(cat "$perf/macs")
j0=$(cat "$perf/jobs_completed")
out=$(e1npu-example 2>&1)
rc=$?
m1=$(cat "$perf/macs")
j1=$(cat "$perf/jobs_completed")
echo "E1VM-LOG: board-example: $out"
want board-example "e1npu-example (built through the installed libe1npu.pc)" "$rc" 0
want board-perf-macs-example "sysfs perf/macs delta over one 4x4x16 matmul" "$((m1 - m0))" "$((4 * 4 * 16))"
want board-perf-jobs-example "sysfs perf/jobs_completed delta" "$((j1 - j0))" 1

# ---- 3c. a real network: output bytes equal to the host's -------------------
DATA=/root sh "$T/guest-classify.sh" "$dev"
# the language model: generated token ids equal to the host's
sh "$T/guest-llm.sh" "$dev"

# ---- 3d. the installed udev rule matches this device ------------------------
rule=$(grep -v '^#' /etc/udev/rules.d/70-e1npu.rules 2>/dev/null | grep .)
sys=/sys/class/accel/$acc
subsys=$(basename "$(readlink "$sys/subsystem")")
drivers=
p=$(cd "$sys/device" && pwd -P)
while [ "$p" != / ] && [ -n "$p" ]; do
	[ -e "$p/driver" ] && drivers="$drivers $(basename "$(readlink "$p/driver")")"
	p=$(dirname "$p")
done
r_sub=$(echo "$rule" | sed -n 's/.*SUBSYSTEM=="\([^"]*\)".*/\1/p')
r_ker=$(echo "$rule" | sed -n 's/.*KERNEL=="\([^"]*\)".*/\1/p')
r_drv=$(echo "$rule" | sed -n 's/.*DRIVERS=="\([^"]*\)".*/\1/p')
ok=1
[ -n "$rule" ] && [ "$subsys" = "$r_sub" ] || ok=0
# shellcheck disable=SC2254
case "$acc" in $r_ker) ;; *) ok=0 ;; esac
case " $drivers " in *" $r_drv "*) ;; *) ok=0 ;; esac
if [ "$ok" = 1 ] && echo "$rule" | grep -q 'GROUP="render", MODE="0660"'; then
	t_pass board-udev-rule
else
	t_fail board-udev-rule "rule '$rule' vs subsystem '$subsys', name '$acc', drivers '$drivers'"
fi

# ---- 3e. board.md's device tree node (run-vm.sh boots with it) -------------
if [ -d "$dt" ]; then
	want board-dt-npu "npu node: compatible; reg-names; interrupt-names" \
		"$(strs $dt/compatible); $(strs $dt/reg-names); $(strs $dt/interrupt-names)" \
		"eliza,e1-npu-ref eliza,e1-npu; wrapper datapath; npu fallback datapath"
	# the accel device is the node's platform device, driven by e1npu
	pdev=$(cd "/sys/class/accel/$acc/device" && pwd -P)
	want board-dt-npu-bound "the accel device's platform device, its of_node, its driver" \
		"${pdev##*/} $(cd "$pdev/of_node" 2>/dev/null && pwd -P) $(basename "$(readlink "$pdev/driver")")" \
		"10020000.npu $(cd $dt && pwd -P) e1npu"
	base=$(printf '0x%s' "$(echo "$reg" | cut -c1-16)")
	mib=$((${dt_size:-0} / 1048576))
	want board-dt-arena "memory-region: compatible, no-map" \
		"$(strs "$rm/compatible") $([ -e "$rm/no-map" ] && echo no-map)" "shared-dma-pool no-map"
	line="Reserved memory: created DMA memory pool at $base, size $mib MiB"
	if [ -n "$rm" ] && dmesg | grep -q -F "$line"; then
		t_pass board-dt-arena-reserved
		echo "E1VM-LOG: board-dt-arena-reserved: $line"
	else
		t_fail board-dt-arena-reserved "no '$line' in dmesg: $(dmesg | grep -i 'reserved mem' | tail -n 3)"
	fi
else
	t_fail board-dt-npu "no $dt: the guest did not boot with board.md's device tree"
fi

t_rmmod e1npu
exit 0
