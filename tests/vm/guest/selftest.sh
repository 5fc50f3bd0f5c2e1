#!/bin/sh
# SPDX-License-Identifier: MIT
# Harness self-test: e1vm_selftest.ko is a minimal DRM accel device.
. /tests/lib.sh

warn=$(e1vm_param selftest_warn || echo 0)
fault=$(e1vm_param selftest_fault || echo none)
t_insmod e1vm_selftest warn="$warn" fault="$fault" || exit 0

# the accel node whose parent is our platform device
dev=""
for d in /sys/devices/platform/e1vm_selftest/accel/accel*; do
	[ -d "$d" ] && dev=/dev/accel/$(basename "$d")
done
if [ -n "$dev" ] && [ -c "$dev" ]; then
	t_pass selftest-accel-node
else
	t_fail selftest-accel-node "no /dev/accel node for e1vm_selftest"
fi

if [ "$(cat /sys/kernel/debug/e1vm_selftest/ping 2>/dev/null)" = pong ]; then
	t_pass selftest-debugfs
else
	t_fail selftest-debugfs "/sys/kernel/debug/e1vm_selftest/ping"
fi

if [ -x /tests/e1vm-ioctl ] && [ -n "$dev" ]; then
	t_run selftest-ioctl-version /tests/e1vm-ioctl "$dev" e1vm_selftest
else
	t_skip selftest-ioctl-version "no /tests/e1vm-ioctl or no device"
fi

t_rmmod e1vm_selftest
if [ -e /sys/devices/platform/e1vm_selftest ]; then
	t_fail selftest-unbind "device still present after rmmod"
else
	t_pass selftest-unbind
fi
exit 0
