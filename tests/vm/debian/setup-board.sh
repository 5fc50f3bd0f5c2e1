#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /payload/run.sh of `make board OS=debian`: the Debian board as a board
# engineer leaves it after board.md -- the kernel's and the stack's
# packages installed with apt (DKMS builds e1npu.ko), udevd running, the
# module loaded, the model and images in /root -- then the command of
# CMD= (/payload/board-cmd; its status is the board's) or a login shell.
P=/payload
export DEBIAN_FRONTEND=noninteractive
# the board has no RTC driver: the build machine's clock, so that make
# (DKMS) and dpkg see file times in the past
date -s "@$(cat $P/epoch)" >/dev/null
echo "board: installing the packages (DKMS builds e1npu.ko: a few minutes under emulation)"
apt-get install -y -q --no-install-recommends $P/debs/kernel/*.deb >/tmp/apt.log 2>&1 &&
	apt-get install -y -q --no-install-recommends $P/debs/npu/*.deb >>/tmp/apt.log 2>&1 ||
	{ tail -n 20 /tmp/apt.log; echo "board: apt-get install failed (/tmp/apt.log)"; }
/usr/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1
modprobe e1npu || echo "board: modprobe e1npu failed"
udevadm settle -t 60 >/dev/null 2>&1
cp $P/data/* /root/
echo "board: e1 NPU: $(ls /dev/accel/ 2>/dev/null | tr '\n' ' ')(driver e1npu on $(ls -d /sys/bus/platform/drivers/e1npu/*.npu 2>/dev/null | sed 's,.*/,,' | tr '\n' ' '))"
cd /root || exit 1
if [ -f $P/board-cmd ]; then
	sh $P/board-cmd
	exit $?
fi
echo "board: a login shell on the Debian board ('exit' powers off)"
exec setsid -c /bin/bash -l <>/dev/ttyS0 >&0 2>&0
