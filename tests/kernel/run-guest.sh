#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/run-guest.sh: the e1npu system tests inside the QEMU guest (the
# tests/vm harness runs it after its self-test; busybox sh). Loads
# e1npu_sim.ko (the device model behind a platform device) and e1npu.ko,
# runs /tests/e1npu-systest group by group through real ioctls, reloads the
# simulator in other configurations, unloads with jobs in flight, and
# checks dmesg. Every result is an "E1VM: PASS/FAIL name" line.
. /tests/lib.sh

ST=/tests/e1npu-systest
SIM=/sys/module/e1npu_sim/parameters

# systest GROUP [ARGS]: run one group; it reports its own results, exit 1
# means "some failed" (already reported), anything else is a crash
systest() {
	"$ST" "$@"
	_rc=$?
	case "$_rc" in
	0 | 1) ;;
	*) t_fail "systest-$1" "e1npu-systest $* exited with status $_rc" ;;
	esac
}

# load NAME [SIM-PARAMS...]: insmod e1npu_sim with PARAMS, then e1npu
load() {
	_n=$1
	shift
	t_insmod e1npu_sim "$@" || return 1
	t_insmod e1npu || return 1
	# the driver binds asynchronously on some setups: wait for the node
	if [ -n "$(t_accel_node)" ]; then
		t_pass "probe-$_n"
		return 0
	fi
	t_fail "probe-$_n" "no accel node under /sys/devices/platform/e1npu-sim"
	dmesg | tail -n 20 | sed "s/^/E1VM-LOG: probe-$_n: /"
	return 1
}

unload() {
	t_rmmod e1npu
	t_rmmod e1npu_sim
	if [ -e /sys/devices/platform/e1npu-sim ]; then
		t_fail unbind "e1npu-sim device still present"
	fi
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
if [ ! -f "$E1VM_MODDIR/e1npu_sim.ko" ] || [ ! -f "$E1VM_MODDIR/e1npu.ko" ]; then
	t_fail e1npu-modules "e1npu_sim.ko or e1npu.ko missing from $E1VM_MODDIR"
	exit 0
fi

# ---- the reference instance: wrapper (Gemmini 16x16) + datapath ----------
if load default; then
	for g in basic ops dp ring neg multi fallback fault-bus fault-hang fault-irq; do
		echo "E1VM: RUN e1npu-systest $g"
		systest "$g"
	done
	systest engines 0x3
	# the library's smoke suite through this driver, compared with the
	# host's run on the in-process model (tools/tools.mk ships it)
	if [ -f /tests/guest-smoke.sh ]; then
		for _d in /sys/devices/platform/e1npu-sim/accel/accel*; do
			dev=/dev/accel/${_d##*/}
		done
		t_run npu-smoke-guest-matches-host sh /tests/guest-smoke.sh "$dev"
	fi
	# the library's cmocka suites through this driver (tests/lib/guest-lib.mk)
	[ ! -f /tests/guest-lib-tests.sh ] || sh /tests/guest-lib-tests.sh
	# the fuzzer, stress, NOP latency, the simulator's buffer guard
	[ ! -f /tests/run-proof.sh ] || sh /tests/run-proof.sh
	for p in inject_hang inject_bus_error inject_drop_irq; do
		v=$(cat "$SIM/$p" 2>/dev/null)
		case "$v" in
		N | 0) ;;
		*) t_fail "sim-param-$p" "$p left at '$v'" ;;
		esac
	done
fi
unload

# ---- hardening: sizes, results cap, mmap, quota, fdinfo, runtime PM, probe
[ ! -f /tests/harden-guest.sh ] || . /tests/harden-guest.sh

# ---- no Gemmini: every MATMUL takes the CPU-fallback path -----------------
if load nogemmini gemmini_present=0; then
	systest nogemmini
	systest dp
	[ ! -f /tests/guest-lib-tests.sh ] || sh /tests/guest-lib-tests.sh nogemmini ops-test-fallback lib-test-ops:test_fallback_no_gemmini
fi
unload

# ---- one window only -------------------------------------------------------
if load wrapper-only datapath=0; then
	systest engines 0x1
fi
unload
if load datapath-only wrapper=0; then
	systest engines 0x2
	systest dp
	[ ! -f /tests/guest-lib-tests.sh ] || sh /tests/guest-lib-tests.sh datapath-only ops-test-fallback lib-test-ops:test_engine_absent
fi
unload

# ---- recovery and long jobs (tests/kernel/e1t_recover.c; leaves it wedged)
if load recover; then systest recover; fi; unload

# ---- unload with jobs in flight -------------------------------------------
# 1. the submitting process exits with a job in flight on a hung engine,
#    then the driver and the simulator are unloaded at once
if load unload-busy; then
	rm -f /tmp/e1t-ready
	systest inflight hang /tmp/e1t-ready
	# evidence that work is in flight: wrapper STATUS, DESC_HEAD, DESC_TAIL
	regs=$(grep -E '^0(0c|24|28):' /sys/kernel/debug/regmap/dummy-wrapper/registers 2>/dev/null)
	echo "E1VM-LOG: unload-busy: before rmmod:" $regs
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
	t_rmmod e1npu_sim
	if [ -e /sys/devices/platform/e1npu-sim ]; then
		t_fail unload-busy "device still present"
	else
		t_pass unload-busy
	fi
fi

# unload_sim_under_holder NAME busy|hang: a process keeps the device file
# open with work in flight while the simulator (the "hardware") goes away
# under the driver; then the process is killed and the driver unloaded
unload_sim_under_holder() {
	_name=$1
	rm -f /tmp/e1t-ready
	"$ST" inflight "$2" /tmp/e1t-ready hold &
	holder=$!
	if ! wait_file /tmp/e1t-ready 20; then
		kill "$holder" 2>/dev/null
		wait "$holder" 2>/dev/null
		t_fail "$_name" "the work was not submitted"
		t_rmmod e1npu_sim
		t_rmmod e1npu
		return
	fi
	regs=$(grep -E '^0(0c|24|28):' /sys/kernel/debug/regmap/dummy-wrapper/registers 2>/dev/null)
	echo "E1VM-LOG: $_name: before rmmod:" $regs
	rmmod e1npu_sim >/tmp/e1t-rmmod.log 2>&1 &
	rmpid=$!
	_i=0
	while kill -0 "$rmpid" 2>/dev/null && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$rmpid" 2>/dev/null; then
		echo "E1VM-LOG: $_name: rmmod e1npu_sim waits for the open file"
	fi
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	_i=0
	while kill -0 "$rmpid" 2>/dev/null && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$rmpid" 2>/dev/null; then
		t_fail "$_name" "rmmod e1npu_sim still blocked 30 s after the file closed"
	elif wait "$rmpid"; then
		t_pass "$_name"
	else
		sed "s/^/E1VM-LOG: $_name: /" /tmp/e1t-rmmod.log
		t_fail "$_name" "rmmod e1npu_sim failed"
	fi
	t_rmmod e1npu
}

# 2. long jobs running and queued, the file open, the simulator unloaded
load unload-busy-open && unload_sim_under_holder unload-busy-sim busy
# 3. a job on a hung engine, the file open, the simulator unloaded
load unload-hung-open && unload_sim_under_holder unload-hung-sim hang

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
	t_rmmod e1npu_sim
fi

# ---- and the kernel log stayed clean (the harness checks again at the end)
hits=$(dmesg | grep -E "$E1VM_DMESG_BAD" || true)
if [ -z "$hits" ]; then
	t_pass e1npu-dmesg-clean
else
	dmesg | grep -E -B 5 -A 30 "$E1VM_DMESG_BAD" |
		head -n 120 | sed 's/^/E1VM-LOG: e1npu-dmesg: /'
	t_fail e1npu-dmesg-clean "$(echo "$hits" | head -n 1)"
fi
exit 0
