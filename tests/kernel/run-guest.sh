#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/run-guest.sh: the e1npu system tests inside the riscv64 QEMU guest
# (the tests/vm harness runs it after its self-test; busybox sh). The e1
# NPU is a device of QEMU's virt machine, described by board.md's device
# tree node (/soc/npu@10020000): insmod e1npu.ko binds the driver to it.
# Runs /tests/e1npu-systest group by group through real ioctls, injects
# faults and switches Gemmini off through the device's QOM properties
# (/tests/e1vm-qmp, QMP), unloads and unbinds with jobs in flight, and
# checks dmesg. The wrapper-only and datapath-only devices need another
# device tree: run-guest-split.sh, on the boot with e1vm.dt=split. Every
# result is an "E1VM: PASS/FAIL name" line.
. /tests/lib.sh

ST=/tests/e1npu-systest
NPU_SYS=$(t_npu_sys)

# probed NAME: the driver bound the board's NPU (its accel node appeared);
# E1T_DEV names that node for the test programs
probed() {
	E1T_DEV=$(t_accel_node)
	export E1T_DEV
	if [ -n "$E1T_DEV" ]; then
		t_pass "probe-$1"
		return 0
	fi
	t_fail "probe-$1" "no accel node under $NPU_SYS"
	dmesg | tail -n 20 | sed "s/^/E1VM-LOG: probe-$1: /"
	return 1
}

# load NAME [E1NPU-PARAMS...]: insmod e1npu, which binds to the NPU
load() {
	_n=$1
	shift
	t_insmod e1npu "$@" || return 1
	probed "$_n"
}

# regs_log NAME WHEN: the wrapper's STATUS, DESC_HEAD, DESC_TAIL from the
# driver's debugfs (evidence that work is in flight)
regs_log() {
	_dfs=$(t_npu_debugfs)
	regs=$(grep -E '^ *0x0(0c|24|28):' "$_dfs/regs" 2>/dev/null | head -n 3)
	echo "E1VM-LOG: $1: $2:" $regs
}

# unload: rmmod e1npu; the NPU is left without a driver and its run-time
# fault properties at their defaults (what reloading the simulator did)
unload() {
	t_rmmod e1npu
	if [ -e "$NPU_SYS/driver" ]; then
		t_fail unbind "$E1VM_NPU still bound after rmmod e1npu"
	fi
	t_dev_defaults || t_fail dev-defaults "cannot reset the device's fault properties"
}

# bind_npu: bind the NPU to e1npu again. A rebind fails with -EBUSY while
# the earlier binding's arena still holds the memory-region (until the last
# reference to that DRM device is gone): retried for 10 s
bind_npu() {
	_i=0
	until echo "$E1VM_NPU" 2>/tmp/e1t-bind.log >"$E1VM_NPU_DRV/bind"; do
		_i=$((_i + 1))
		if [ $_i -ge 100 ]; then
			sed 's/^/E1VM-LOG: bind: /' /tmp/e1t-bind.log
			return 1
		fi
		sleep 0.1
	done
	[ $_i = 0 ] || echo "E1VM-LOG: bind: $E1VM_NPU bound after $_i retries"
}

# wait_file FILE SECONDS
wait_file() {
	_i=0
	while [ ! -e "$1" ] && [ $_i -lt $(($2 * 10)) ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -e "$1" ]
}

if [ ! -x "$ST" ]; then
	t_fail e1npu-systest "no $ST in the guest"
	exit 0
fi
if [ ! -f "$E1VM_MODDIR/e1npu.ko" ]; then
	t_fail e1npu-modules "e1npu.ko missing from $E1VM_MODDIR"
	exit 0
fi
if [ ! -d /proc/device-tree/soc/npu@10020000 ] || [ ! -e "$NPU_SYS" ]; then
	t_fail e1npu-device "no NPU node /soc/npu@10020000 or no platform device $E1VM_NPU"
	exit 0
fi
# the QMP channel to the device's properties works (and starts clean)
if [ ! -x "$E1VM_QMP" ]; then
	t_fail dev-qmp "no $E1VM_QMP in the guest"
elif v=$(t_dev_get inject-hang 2>&1) && [ "$v" = 0 ] && t_dev_defaults; then
	t_pass dev-qmp
else
	t_fail dev-qmp "e1vm-qmp get inject-hang: '$v'"
fi

# ---- the reference instance: wrapper (Gemmini 16x16) + datapath ----------
if load default; then
	for g in basic ops dp ring neg sync perfmon unpriv multi fallback fault-bus fault-hang fault-irq; do
		echo "E1VM: RUN e1npu-systest $g"
		systest "$g"
	done
	systest engines 0x3
	# the library's smoke suite through this driver, compared with the
	# host's run on the in-process model (tests/lib/guest-lib.mk ships it)
	if [ -f /tests/guest-smoke.sh ]; then
		t_run npu-smoke-guest-matches-host sh /tests/guest-smoke.sh "$E1T_DEV"
	fi
	# the library's cmocka suites through this driver (tests/lib/guest-lib.mk)
	[ ! -f /tests/guest-lib-tests.sh ] || sh /tests/guest-lib-tests.sh
	# the fuzzer, stress, NOP latency, the device's DMA isolation counters
	[ ! -f /tests/run-proof.sh ] || sh /tests/run-proof.sh
	# no fault left behind by the tests
	for p in inject-hang inject-bus-error inject-drop-irq; do
		v=$(t_dev_get "$p" 2>&1)
		[ "$v" = 0 ] || t_fail "dev-prop-$p" "$p left at '$v'"
	done
fi
unload

# ---- hardening: sizes, mmap, quota, fdinfo, runtime PM, probe
[ ! -f /tests/harden-guest.sh ] || . /tests/harden-guest.sh

# ---- no Gemmini: every MATMUL takes the CPU-fallback path -----------------
# (CAPS.gemmini_present is read at probe: set while no driver is bound)
if t_dev_set gemmini-present 0 && load nogemmini; then
	systest nogemmini
	systest dp
	[ ! -f /tests/guest-lib-tests.sh ] || sh /tests/guest-lib-tests.sh nogemmini ops-test-fallback lib-test-ops:test_fallback_no_gemmini
fi
unload
t_dev_set gemmini-present 1 || t_fail dev-gemmini-restored "cannot set gemmini-present back to 1"

# ---- recovery and long jobs (tests/kernel/e1t_recover.c; leaves it wedged)
if load recover; then systest recover; fi; unload

# ---- unload with jobs in flight -------------------------------------------
# 1. the submitting process exits with a job in flight on a hung engine,
#    then the driver is unloaded at once
if load unload-busy; then
	rm -f /tmp/e1t-ready
	systest inflight hang /tmp/e1t-ready
	regs_log unload-busy "before rmmod"
	# the last fput of the exited process may lag a little: retry 10 s
	_i=0
	while ! rmmod e1npu 2>/tmp/e1t-rmmod.log && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if grep -q '^e1npu ' /proc/modules; then
		sed 's/^/E1VM-LOG: unload-busy: /' /tmp/e1t-rmmod.log
		t_fail unload-busy-driver "rmmod e1npu with a job in flight failed"
	else
		t_pass unload-busy-driver
	fi
	if [ -e "$NPU_SYS/driver" ] || ls -d "$NPU_SYS"/accel/accel* >/dev/null 2>&1; then
		t_fail unload-busy "$E1VM_NPU still bound or its accel node still present"
	else
		t_pass unload-busy
	fi
	t_dev_defaults || t_fail dev-defaults "cannot reset the device's fault properties"
fi

# unbind_under_holder NAME busy|hang: a process keeps the device file open
# with work in flight while the device is unbound from the driver under it
# (sysfs unbind: the driver's remove runs, as when the hardware goes away);
# then the process is killed (its file closes after the device is gone),
# the device is bound again and must probe and run a job
unbind_under_holder() {
	_name=$1
	rm -f /tmp/e1t-ready
	"$ST" inflight "$2" /tmp/e1t-ready hold &
	holder=$!
	if ! wait_file /tmp/e1t-ready 20; then
		kill "$holder" 2>/dev/null
		wait "$holder" 2>/dev/null
		t_fail "$_name" "the work was not submitted"
		return
	fi
	regs_log "$_name" "before unbind"
	echo "$E1VM_NPU" >"$E1VM_NPU_DRV/unbind" 2>/tmp/e1t-unbind.log &
	ubpid=$!
	_i=0
	while kill -0 "$ubpid" 2>/dev/null && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$ubpid" 2>/dev/null; then
		echo "E1VM-LOG: $_name: unbind still running after 30 s with the file open"
	fi
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	_i=0
	while kill -0 "$ubpid" 2>/dev/null && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$ubpid" 2>/dev/null; then
		t_fail "$_name" "unbind still blocked 30 s after the file closed"
		return
	elif ! wait "$ubpid"; then
		sed "s/^/E1VM-LOG: $_name: /" /tmp/e1t-unbind.log
		t_fail "$_name" "unbind failed"
	elif [ -e "$NPU_SYS/driver" ] || ls -d "$NPU_SYS"/accel/accel* >/dev/null 2>&1; then
		t_fail "$_name" "$E1VM_NPU still bound or its accel node still present after unbind"
	else
		t_pass "$_name"
	fi
	t_dev_defaults || t_fail dev-defaults "cannot reset the device's fault properties"
	# bound again: probes, and runs a job
	if bind_npu && probed "rebind-$_name"; then
		systest job "rebind-$_name-job"
	else
		t_fail "rebind-$_name" "bind $E1VM_NPU failed"
	fi
}

# 2. long jobs running and queued, the file open, the device unbound
load unbind-busy && unbind_under_holder unbind-busy-open busy
unload
# 3. a job on a hung engine, the file open, the device unbound
load unbind-hung && unbind_under_holder unbind-hung-open hang
unload

# 4. jobs queued behind a hung job in a file's entity, the process killed:
#    closing the file kills the queued jobs, which the scheduler frees later
#    from the system workqueue; the driver is unloaded at once and must not
#    release the device (arena, schedulers, module code) under them
if load unload-killed; then
	rm -f /tmp/e1t-ready
	"$ST" inflight hangq /tmp/e1t-ready hold &
	holder=$!
	if wait_file /tmp/e1t-ready 20; then
		kill -9 "$holder" 2>/dev/null
		wait "$holder" 2>/dev/null
		_i=0
		while ! rmmod e1npu 2>/tmp/e1t-rmmod.log && [ $_i -lt 100 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		if grep -q '^e1npu ' /proc/modules; then
			sed 's/^/E1VM-LOG: unload-killed: /' /tmp/e1t-rmmod.log
			t_fail unload-killed "rmmod e1npu after the kill failed"
		else
			t_pass unload-killed
		fi
	else
		kill "$holder" 2>/dev/null
		wait "$holder" 2>/dev/null
		t_fail unload-killed "the work was not submitted"
		t_rmmod e1npu
	fi
	t_dev_defaults || t_fail dev-defaults "cannot reset the device's fault properties"
fi

# ---- and the kernel log stayed clean (the harness checks again at the end)
t_dmesg_check e1npu-dmesg-clean
exit 0
