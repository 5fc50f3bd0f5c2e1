#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Guest side of the "same smoke suite on both backends" check: run
# `npu-smoke --device DEV smoke --json` against the kernel driver and
# compare every case with the host's run of the same command on the
# in-process model (smoke-host.json, produced at build time): the hardware
# operations (opcode, engine, result, error, hw_err_code, output checksum)
# and the lowered operations of e1npu_ops.h (engine, reason, hardware ops
# per engine, jobs, MACs, modelled cycles, output checksum). Any
# difference, any failing case, or a host run without both parts fails
# the script.
#
# Usage: guest-smoke.sh [DEVICE]   (default /dev/accel/accel0)
# Files, next to this script: npu-smoke-static, smoke-host.json.
# Busybox sh compatible. Exit 0 on a bit-for-bit match.
set -u
dir=$(dirname "$0")
dev=${1:-/dev/accel/accel0}
bin=$dir/npu-smoke-static
host=$dir/smoke-host.json
out=${TMPDIR:-/tmp}/smoke-guest.$$

[ -x "$bin" ] || { echo "guest-smoke: missing $bin" >&2; exit 1; }
[ -r "$host" ] || { echo "guest-smoke: missing $host" >&2; exit 1; }

"$bin" --device "$dev" smoke --json >"$out.json"
rc=$?
# One operation per line; drop the trailing comma.
ops() { grep '^{"name":' "$1" | sed 's/,$//'; }
ops "$host" >"$out.host"
ops "$out.json" >"$out.guest"

# Problems go to $out.err, printed after the guest's JSON so that the
# last lines (all a failing t_run shows) say what differed.
fail=0
: >"$out.err"
bad() { echo "guest-smoke: $*" >>"$out.err"; fail=1; }
nhw=$(grep -c '"part":"hw"' "$out.host")
nlo=$(grep -c '"part":"lowered"' "$out.host")
if [ "$nhw" -eq 0 ] || [ "$nlo" -eq 0 ]; then
	bad "$host has $nhw hardware and $nlo lowered cases"
fi
[ "$rc" -eq 0 ] || bad "npu-smoke exited $rc on $dev"
nh=$(wc -l <"$out.host")
ng=$(wc -l <"$out.guest")
if [ "$nh" -ne "$ng" ] || [ "$nh" -eq 0 ]; then
	bad "$ng cases on $dev, $nh on the host model"
fi
i=0
while IFS= read -r h; do
	i=$((i + 1))
	g=$(sed -n "${i}p" "$out.guest")
	if [ "$h" != "$g" ]; then
		bad "MISMATCH case $i"
		echo "  host:  $h" >>"$out.err"
		echo "  guest: $g" >>"$out.err"
	fi
done <"$out.host"
if [ "$fail" -eq 0 ]; then
	echo "guest-smoke: $ng cases ($nhw hardware, $nlo lowered) on $dev match the in-process model bit for bit"
else
	cat "$out.json"
	cat "$out.err" >&2
fi
rm -f "$out.json" "$out.host" "$out.guest" "$out.err"
exit "$fail"
