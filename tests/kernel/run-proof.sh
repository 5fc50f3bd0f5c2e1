#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/run-proof.sh: the driver's proof runs in the guest (busybox sh),
# called by run-guest.sh on the default instance (e1npu_sim + e1npu
# loaded): the simulator's buffer guard sees escapes, the NOP latency, the
# stress run, the ioctl fuzzer, then no device access left its job's
# buffers. Kernel command line knobs (tests/vm: VM_APPEND):
#   e1vm.fuzz_seed=N     replay a fuzzer run (default: a fresh seed, printed)
#   e1vm.fuzz_calls=N    calls in total (default 100000; 10000 on the debug
#                        kernel, 90-480 calls/s there under TCG, with load)
#   e1vm.fuzz_secs=N     time bound (default 300; 600 on the debug kernel)
#   e1vm.stress_jobs=N   jobs per stress process (default 1000; 250 on the
#                        debug kernel, where 4 x 1000 took 56-115 s)
#   e1vm.guard_panic_test=1  prove that an escape panics the guest: with
#                        guard=2 and guard_trim=4096 one stress job must
#                        panic it (the run then fails, as it should)
. /tests/lib.sh

P=/tests/e1npu-proof
SIM=/sys/module/e1npu_sim/parameters

if [ ! -x "$P" ]; then
	t_fail e1npu-proof "no $P in the guest"
	exit 0
fi

# proof PROGRAM-ARGS: it reports its own results; exit 1 means "some
# failed" (already reported), anything else is a crash
proof() {
	"$P" "$@"
	_rc=$?
	case "$_rc" in
	0 | 1) ;;
	*) t_fail "e1npu-proof-$1" "e1npu-proof $* exited with status $_rc" ;;
	esac
}

debug=0
[ "$(e1vm_param kvariant)" != debug ] || debug=1

if [ "$(e1vm_param guard_panic_test)" = 1 ]; then
	echo "E1VM-LOG: guard-panic-test: guard=2 guard_trim=4096: the next job must panic the guest"
	echo 2 >"$SIM/guard"
	echo 4096 >"$SIM/guard_trim"
	"$P" stress 1 1 1
	echo 0 >"$SIM/guard_trim"
	t_fail guard-panic-test "a job outside its (trimmed) buffers did not panic the guest"
fi

echo "E1VM: RUN e1npu-proof guard-selftest"
proof guard-selftest

echo "E1VM: RUN e1npu-proof perf"
# slub_debug sends every allocation through the slow debug path: a submit
# allocates, DRM_IOCTL_VERSION does not, so the ratio is not the driver's.
case " $(cat /proc/cmdline) " in
*" slub_debug="*) echo "E1VM-LOG: perf: slub_debug is on ($(tr ' ' '\n' </proc/cmdline | grep '^slub_debug=')): the SUBMIT path's allocations are slowed, VERSION has none" ;;
esac
proof perf $([ $debug = 1 ] && echo 200 || echo 2000)

jobs=$(e1vm_param stress_jobs || { [ $debug = 1 ] && echo 250 || echo 1000; })
echo "E1VM: RUN e1npu-proof stress 4 $jobs"
proof stress 4 "$jobs" "$(e1vm_param fuzz_seed || echo 1)"

seed=$(e1vm_param fuzz_seed || echo $(( ($(date +%s) ^ $$) & 0x7fffffff )))
calls=$(e1vm_param fuzz_calls || { [ $debug = 1 ] && echo 10000 || echo 100000; })
secs=$(e1vm_param fuzz_secs || { [ $debug = 1 ] && echo 600 || echo 300; })
echo "E1VM: RUN e1npu-proof fuzz $seed 4 $calls $secs"
proof fuzz "$seed" 4 "$calls" "$secs"

# every device access was checked and none left its job's buffers
checked=$(cat "$SIM/guard_checked" 2>/dev/null)
viol=$(cat "$SIM/guard_violations" 2>/dev/null)
echo "E1VM-LOG: sim-guard: $checked device accesses checked; $viol violations counted (the guard-selftest's own, under guard=1)"
if [ -z "$checked" ] || [ "$checked" -lt 1000 ]; then
	t_fail sim-guard-checked "only '${checked}' device accesses checked"
else
	t_pass sim-guard-checked
fi
exit 0
