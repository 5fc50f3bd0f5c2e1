# SPDX-License-Identifier: MIT
#
# /tests/lib.sh - helpers for guest tests (busybox sh). Source it:
#     . /tests/lib.sh
#
#   t_pass NAME             record a pass:  "E1VM: PASS NAME"
#   t_fail NAME REASON...   record a fail:  "E1VM: FAIL NAME REASON"
#   t_skip NAME REASON...   record a skip:  "E1VM: SKIP NAME REASON" (no count)
#   t_run NAME CMD...       run CMD; pass if it exits 0, else fail with
#                           its last output lines
#   t_debug_skip NAME [WHY] on the debug kernel: skip NAME, return 0
#   t_shared_absent FILE TEXT  FILE lists ("NAME REASON..." a line) the data
#                           files the build machine had no shared/ for:
#                           print the REASON of the first NAME in TEXT
#                           (return 0), or return 1
#   t_insmod MOD [ARGS...]  insmod $E1VM_MODDIR/MOD.ko ARGS (test "insmod-MOD")
#   t_rmmod MOD             rmmod MOD (test "rmmod-MOD")
#   t_insmod_deps           insmod the kernel modules the project modules
#                           depend on ($E1VM_MODDIR/deps.order), in order
#   t_script FILE           run FILE with sh; a non-zero exit is a failure
#                           "script-<name>" (results it records still count)
#   t_dmesg_check [NAME]    test NAME (default dmesg-clean): fail on
#                           WARNING:/BUG:/Oops/Call Trace and the
#                           reports of the debug kernel's tools
#                           ($E1VM_DMESG_BAD: KASAN, UBSAN, lockdep,
#                           DMA-API, kmemleak)
#   t_kmemleak_begin        debug kernel: scan, then forget what boot left
#   t_kmemleak_check        debug kernel: scan; any leak report is a failure
#   t_summary               "E1VM-SUMMARY: N passed, M failed"
#
# Results live in $E1VM_RESULTS so subshells and child scripts count too.
# $E1VM_ARCH is riscv64 (uname -m); $E1VM_CMDLINE the kernel command line.

E1VM_MODDIR=/lib/modules/e1vm
E1VM_RESULTS=/tmp/e1vm-results
E1VM_ARCH=$(uname -m)
E1VM_CMDLINE=$(cat /proc/cmdline 2>/dev/null)
# What fails a run when it appears in dmesg. Lockdep, might_sleep, DEBUG_LIST,
# DEBUG_OBJECTS and DMA-API reports go through WARN()/BUG ("WARNING:",
# "BUG:"); the others have their own prefixes.
E1VM_DMESG_BAD='WARNING:|BUG:|Oops|Call Trace|KASAN|UBSAN:|general protection'
E1VM_DMESG_BAD="$E1VM_DMESG_BAD|possible circular locking|possible recursive locking"
E1VM_DMESG_BAD="$E1VM_DMESG_BAD|inconsistent lock state|lockdep is turned off"
E1VM_DMESG_BAD="$E1VM_DMESG_BAD|DMA-API: .*device driver|ODEBUG:"
E1VM_DMESG_BAD="$E1VM_DMESG_BAD|kmemleak: .*(suspected memory leak|disabled|Cannot)"
export E1VM_MODDIR E1VM_RESULTS E1VM_ARCH E1VM_CMDLINE E1VM_DMESG_BAD
touch "$E1VM_RESULTS"

t_pass() {
	echo "E1VM: PASS $1"
	echo "PASS $1" >>"$E1VM_RESULTS"
}

t_fail() {
	_n=$1
	shift
	echo "E1VM: FAIL $_n ${*:-failed}"
	echo "FAIL $_n" >>"$E1VM_RESULTS"
}

t_skip() {
	_n=$1
	shift
	echo "E1VM: SKIP $_n ${*:-skipped}"
}

t_run() {
	_n=$1
	shift
	if _out=$("$@" 2>&1); then
		t_pass "$_n"
	else
		_rc=$?
		echo "$_out" | tail -n 20 | sed "s/^/E1VM-LOG: $_n: /"
		t_fail "$_n" "exit status $_rc: $*"
	fi
}

# t_debug_skip NAME [WHY]: on the debug kernel (e1vm.kvariant=debug) report
# NAME skipped and return 0, else return 1. For checks that run userspace
# alone, or drive the same ioctls other checks do with heavy compute: under
# KASAN, lockdep and kmemleak they take 5-15x the base guest's time, which
# runs them all.
t_debug_skip() {
	[ "$(e1vm_param kvariant)" = debug ] || return 1
	t_skip "$1" "debug kernel: ${2:-the base guest runs it}"
	return 0
}

t_shared_absent() {
	[ -f "$1" ] || return 1
	while read -r _f _why; do
		case "$2" in *"$_f"*)
			echo "$_why"
			return 0
			;;
		esac
	done <"$1"
	return 1
}

# e1vm_param NAME: value of e1vm.NAME=VALUE on the kernel command line
e1vm_param() {
	for _w in $E1VM_CMDLINE; do
		case "$_w" in e1vm."$1"=*) echo "${_w#*=}"; return 0 ;; esac
	done
	return 1
}

t_insmod() {
	_m=$1
	shift
	if [ ! -f "$E1VM_MODDIR/$_m.ko" ]; then
		t_fail "insmod-$_m" "no $E1VM_MODDIR/$_m.ko"
		return 1
	fi
	if _out=$(insmod "$E1VM_MODDIR/$_m.ko" "$@" 2>&1); then
		t_pass "insmod-$_m"
	else
		echo "$_out" | sed "s/^/E1VM-LOG: insmod-$_m: /"
		t_fail "insmod-$_m" "insmod $_m $* failed"
		return 1
	fi
}

t_rmmod() {
	if _out=$(rmmod "$1" 2>&1); then
		t_pass "rmmod-$1"
	else
		echo "$_out" | sed "s/^/E1VM-LOG: rmmod-$1: /"
		t_fail "rmmod-$1" "rmmod failed"
		return 1
	fi
}

t_insmod_deps() {
	_bad=""
	[ -f "$E1VM_MODDIR/deps.order" ] || { t_pass insmod-deps; return 0; }
	while read -r _m; do
		[ -n "$_m" ] || continue
		if ! _out=$(insmod "$E1VM_MODDIR/$_m.ko" 2>&1); then
			echo "$_out" | sed "s/^/E1VM-LOG: insmod-deps: /"
			_bad="$_bad $_m"
		fi
	done <"$E1VM_MODDIR/deps.order"
	if [ -z "$_bad" ]; then
		t_pass insmod-deps
	else
		t_fail insmod-deps "could not insert:$_bad"
	fi
}

t_script() {
	_s=$(basename "$1" .sh)
	echo "E1VM: RUN $1"
	sh "$1"
	_rc=$?
	[ "$_rc" = 0 ] || t_fail "script-$_s" "$1 exited with status $_rc"
}

t_dmesg_check() {
	_name=${1:-dmesg-clean}
	_hits=$(dmesg | grep -E "$E1VM_DMESG_BAD" || true)
	if [ -z "$_hits" ]; then
		t_pass "$_name"
	else
		echo "E1VM-LOG: $_name: ---- dmesg around the first report ----"
		dmesg | grep -E -B 5 -A 30 "$E1VM_DMESG_BAD" | head -n 120 |
			sed "s/^/E1VM-LOG: $_name: /"
		t_fail "$_name" "$(echo "$_hits" | head -n 1)"
	fi
}

E1VM_KMEMLEAK=/sys/kernel/debug/kmemleak

# Objects boot allocated and dropped are not ours: report them once in the
# log (E1VM-LOG) and clear them, so the final scan sees only what the tests
# leaked.
t_kmemleak_begin() {
	[ -e "$E1VM_KMEMLEAK" ] || return 0
	echo scan >"$E1VM_KMEMLEAK" 2>/dev/null
	_n=$(grep -c '^unreferenced object' "$E1VM_KMEMLEAK" 2>/dev/null)
	[ "${_n:-0}" = 0 ] || echo "E1VM-LOG: kmemleak: $_n object(s) leaked during boot, cleared"
	echo clear >"$E1VM_KMEMLEAK" 2>/dev/null
}

# kmemleak only reports objects older than 5 s that no scan found a
# reference to: wait, scan twice (a second scan confirms), then read.
t_kmemleak_check() {
	if [ ! -e "$E1VM_KMEMLEAK" ]; then
		[ "$(e1vm_param kvariant)" != debug ] ||
			t_fail kmemleak "no $E1VM_KMEMLEAK on the debug kernel"
		return 0
	fi
	sleep 6
	if ! echo scan >"$E1VM_KMEMLEAK" 2>/dev/null; then
		t_fail kmemleak "cannot scan: kmemleak disabled?"
		return 1
	fi
	echo scan >"$E1VM_KMEMLEAK"
	_leaks=$(cat "$E1VM_KMEMLEAK")
	if [ -z "$_leaks" ]; then
		t_pass kmemleak
	else
		echo "$_leaks" | head -n 80 | sed 's/^/E1VM-LOG: kmemleak: /'
		t_fail kmemleak "$(echo "$_leaks" | grep -c '^unreferenced object') unreferenced object(s)"
	fi
}

t_summary() {
	_p=$(grep -c '^PASS ' "$E1VM_RESULTS")
	_f=$(grep -c '^FAIL ' "$E1VM_RESULTS")
	echo "E1VM-SUMMARY: $_p passed, $_f failed (uptime $(cut -d' ' -f1 /proc/uptime) s)"
}

# ---- the e1 NPU of the QEMU board ------------------------------------------
# A device of QEMU's virt machine (wrapper window 0x1002_0000, datapath
# 0x1002_1000, PLIC lines 40-42) described by board.md's device tree node
# /soc/npu@10020000; e1npu.ko binds to it. Its fault injection and DMA
# isolation counters are QOM properties of /machine/e1npu, set and read at
# run time through QEMU's QMP monitor by /tests/e1vm-qmp.
E1VM_NPU=10020000.npu
E1VM_NPU_DRV=/sys/bus/platform/drivers/e1npu
E1VM_QMP=${E1VM_QMP:-/tests/e1vm-qmp}
export E1VM_NPU E1VM_NPU_DRV E1VM_QMP

#   systest GROUP [ARGS]    one e1npu-systest group (exit 0/1 expected, else a failure)
#   t_npu_sys [DEV]         sysfs directory of the platform device DEV
#                           (default $E1VM_NPU, /sys/devices/platform/soc/...)
#   t_accel_node [DEV]      its /dev/accel node once e1npu bound it (the bind
#                           may be asynchronous; 5 s at most), or ""
#   t_npu_debugfs [DEV]     the driver's debugfs directory for it (regs, ring)
#   t_dev_set NAME VALUE    set a device property (e1vm-qmp set); on failure
#                           an E1VM-LOG line and status 1
#   t_dev_get NAME          print a device property (e1vm-qmp get)
#   t_dev_defaults          every run-time fault property back to its
#                           default (not gemmini-present, which needs the
#                           driver unbound); status 1 if one failed
#   t_dt_arena DT-NODE      "BASE SIZE" of the tensor arena the binding gives
#                           a node with a memory-region; status 1 without
# systest GROUP [ARGS]: one group of /tests/e1npu-systest; it reports its
# own results: exit 1 means "some failed" (already reported), anything else
# is a crash
systest() {
	/tests/e1npu-systest "$@"
	_rc=$?
	case "$_rc" in
	0 | 1) ;;
	*) t_fail "systest-$1" "e1npu-systest $* exited with status $_rc" ;;
	esac
}

t_npu_sys() {
	echo "/sys/bus/platform/devices/${1:-$E1VM_NPU}"
}

t_accel_node() {
	_i=0
	_s=$(t_npu_sys "${1:-}")
	while [ $_i -lt 50 ]; do
		for _d in "$_s"/accel/accel*; do
			[ -d "$_d" ] && { echo "/dev/accel/${_d##*/}"; return 0; }
		done
		sleep 0.1
		_i=$((_i + 1))
	done
	echo ""
}

# 6.12 names an accel device's debugfs directory after its parent device
# (drm_device.unique); older kernels after the minor
t_npu_debugfs() {
	_n=${1:-$E1VM_NPU}
	if [ -d "/sys/kernel/debug/accel/$_n" ]; then
		echo "/sys/kernel/debug/accel/$_n"
		return 0
	fi
	for _d in "$(t_npu_sys "$_n")"/accel/accel*; do
		[ -d "$_d" ] && { echo "/sys/kernel/debug/accel/${_d##*/accel}"; return 0; }
	done
	echo ""
}

t_dev_set() {
	if _out=$("$E1VM_QMP" set "$1" "$2" 2>&1); then
		return 0
	fi
	echo "E1VM-LOG: e1vm-qmp set $1 '$2': $_out"
	return 1
}

t_dev_get() {
	"$E1VM_QMP" get "$1"
}

t_dev_defaults() {
	_bad=0
	for _p in inject-hang inject-bus-error inject-drop-irq inject-overflow-after \
		inject-bad-id exec-delay-ms flush-drain-ms inject-stuck-busy; do
		t_dev_set "$_p" 0 || _bad=1
	done
	t_dev_set dma-window "" || _bad=1
	return $_bad
}

# The binding (Documentation/devicetree/bindings/npu/eliza,e1-npu.yaml):
# the arena is allocated from the node's shared-dma-pool region, at its
# base; a no-map region is a coherent pool, which hands out power-of-two
# page counts, so the arena is the largest power of two of pages it holds;
# a reusable (CMA) region is used whole. Regions with #address-cells and
# #size-cells 2, as board.md's.
t_dt_arena() {
	_ph=$(od -An -tx1 "$1/memory-region" 2>/dev/null | tr -d ' \n')
	[ -n "$_ph" ] || return 1
	for _n in /proc/device-tree/reserved-memory/*; do
		[ "$(od -An -tx1 "$_n/phandle" 2>/dev/null | tr -d ' \n')" = "$_ph" ] || continue
		_reg=$(od -An -tx1 "$_n/reg" 2>/dev/null | tr -d ' \n')
		[ ${#_reg} = 32 ] || return 1
		_b=$(printf '%d' "0x$(echo "$_reg" | cut -c1-16)")
		_s=$(printf '%d' "0x$(echo "$_reg" | cut -c17-32)")
		if [ -e "$_n/no-map" ]; then
			_p=4096
			while [ $((_p * 2)) -le "$_s" ]; do _p=$((_p * 2)); done
			_s=$_p
		fi
		echo "$_b $_s"
		return 0
	done
	return 1
}
