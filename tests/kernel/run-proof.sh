#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/run-proof.sh: the driver's proof runs in the guest (busybox sh),
# called by run-guest.sh on the default instance (e1npu bound to the
# board's NPU, E1T_DEV its accel node): the device's DMA isolation check
# can fail, the NOP latency, the stress run and the ioctl fuzzer while a
# victim process holds canary buffers, then no device access left the
# tensor arena and no canary byte changed.
#
# The isolation check is the QEMU device's: its dma-window property
# ("BASE+LEN", set to the arena here) makes it count every memory access
# (dma-accesses) and every one outside the window (dma-window-misses, the
# last in dma-last-miss); its own descriptor ring always counts as inside.
# The arena's base and size come from the device tree (the node's
# memory-region, an input of the test, read as the binding says:
# t_dt_arena), checked against the driver's debugfs ring file.
#
# Kernel command line knobs (tests/vm: VM_APPEND):
#   e1vm.fuzz_seed=N     replay a fuzzer run (default: a fresh seed, printed)
#   e1vm.fuzz_calls=N    calls in total (default 100000; 4000 on the debug
#                        kernel, 90-480 calls/s there under TCG, with load)
#   e1vm.fuzz_secs=N     time bound (default 300; 240 on the debug kernel)
#   e1vm.stress_jobs=N   jobs per stress process (default 1000; 250 on the
#                        debug kernel, where 4 x 1000 took 56-115 s)
. /tests/lib.sh

P=/tests/e1npu-proof

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

# ---- the arena: the memory-region of the NPU's DT node ---------------------
node=/proc/device-tree/soc/npu@10020000
base=
size=
if a=$(t_dt_arena "$node"); then
	base=${a% *}
	size=${a#* }
fi
ring=$(t_npu_debugfs)/ring
# "ring_dma 0x... arena_dma 0x... arena_size N"
kbase=$(sed -n 's/.*arena_dma \(0x[0-9a-f]*\).*/\1/p' "$ring" 2>/dev/null)
ksize=$(sed -n 's/.*arena_size \([0-9]*\).*/\1/p' "$ring" 2>/dev/null)
echo "E1VM-LOG: arena: device tree ${base:+$(printf '0x%x' "$base")}+$size, driver (debugfs ring) $kbase+$ksize"
if [ -z "$base" ] || [ -z "$size" ]; then
	t_fail dma-window-arena "no memory-region of $node in the device tree"
elif [ ! -f "$ring" ]; then
	t_fail dma-window-arena "no $ring: the driver's debugfs files are missing"
elif [ -z "$kbase" ] || [ $((kbase)) != "$base" ] || [ "$ksize" != "$size" ]; then
	t_fail dma-window-arena "the driver's arena $kbase+$ksize is not the DT region's $(printf '0x%x' "$base")+$size"
else
	t_pass dma-window-arena
fi
window=
[ -z "$base" ] || window=$(printf '0x%x+0x%x' "$base" "$size")

# ---- the check can fail ----------------------------------------------------
if [ -n "$window" ]; then
	echo "E1VM: RUN e1npu-proof dma-selftest $base $size"
	proof dma-selftest "$base" "$size"
fi

# ---- from here on, the window is the arena; the counters start at 0 --------
if [ -z "$window" ]; then
	t_fail dma-window-set "no arena to set the window to"
elif ! t_dev_set dma-window "$window"; then
	t_fail dma-window-set "cannot set dma-window $window"
	window=
elif [ "$(t_dev_get dma-window-misses)" != 0 ]; then
	t_fail dma-window-set "dma-window-misses not 0 after writing dma-window"
else
	t_pass dma-window-set
fi

# a victim in its own file, with canaries among everyone else's buffers
rm -f /tmp/e1p-victim-ready
"$P" victim /tmp/e1p-victim-ready &
victim=$!
_i=0
while [ ! -e /tmp/e1p-victim-ready ] && kill -0 "$victim" 2>/dev/null && [ $_i -lt 200 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
[ -e /tmp/e1p-victim-ready ] || echo "E1VM-LOG: proof-canary: the victim is not ready"

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
# the debug kernel: KASAN and lockdep see the same ioctl paths in a few
# thousand calls (the base guest fuzzes longer)
calls=$(e1vm_param fuzz_calls || { [ $debug = 1 ] && echo 4000 || echo 100000; })
secs=$(e1vm_param fuzz_secs || { [ $debug = 1 ] && echo 240 || echo 300; })
echo "E1VM: RUN e1npu-proof fuzz $seed 4 $calls $secs"
proof fuzz "$seed" 4 "$calls" "$secs"

# the victim checks its canaries now
kill -USR1 "$victim" 2>/dev/null
wait "$victim"
rc=$?
case "$rc" in
0 | 1) ;;
*) t_fail proof-canary "e1npu-proof victim exited with status $rc" ;;
esac

# every device access was counted and none left the arena
if [ -n "$window" ]; then
	acc=$(t_dev_get dma-accesses)
	miss=$(t_dev_get dma-window-misses)
	echo "E1VM-LOG: dma-window: $window: $acc device memory accesses, $miss outside"
	if [ -z "$acc" ] || [ -z "$miss" ]; then
		t_fail dma-window-clean "cannot read dma-accesses ('$acc') or dma-window-misses ('$miss')"
	elif [ "$miss" != 0 ]; then
		t_fail dma-window-clean "$miss device accesses outside the arena $window, the last: $(t_dev_get dma-last-miss)"
	elif [ "$acc" -lt 1000 ]; then
		t_fail dma-window-clean "only $acc device memory accesses counted"
	else
		t_pass dma-window-clean
	fi
fi
t_dev_set dma-window "" || t_fail dma-window-cleared "cannot clear dma-window"
exit 0
