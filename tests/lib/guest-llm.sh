#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/guest-llm.sh DEVICE: e1npu-llm on stories260K (from
# $(SHARED_DIR)/llm, tests/lib/guest-lib.mk copies it and tok512.bin to
# /tests) in a QEMU guest, greedy, "Once upon a time", 32 steps: the int8
# path through the kernel driver (DEVICE) and on the in-process device
# model (--device sim, built for this arch), and the float32 path (--float,
# on the CPU: it takes no device). The generated token ids must equal the
# host's in-process run (llm-host.txt, built by tests/lib/guest-lib.mk);
# without the model the three checks are skipped, naming the file.
# Busybox sh.
# Environment: LLM (the command, default e1npu-llm), DATA (the directory
# with stories260K.bin and tok512.bin, default /tests).
. /tests/lib.sh

dev=$1
llm=${LLM:-e1npu-llm}
data=${DATA:-/tests}
host=/tests/llm-host.txt
skip=
if [ ! -r "$host" ]; then
	skip="no $host"
elif grep -q '^SKIP ' "$host"; then
	skip=$(sed -n 's/^SKIP //p' "$host")
else
	for f in stories260K.bin tok512.bin; do
		[ -r "$data/$f" ] || skip="$data/$f absent"
	done
fi
for run in int8-kernel int8-sim float-cpu; do
	path=${run%-*}
	mode=${run#*-}
	exp=$(sed -n "s/^$path //p" "$host" 2>/dev/null)
	name=llm-$run
	if [ -n "$skip" ]; then
		t_skip "$name" "$skip"
		continue
	fi
	case "$mode" in
	kernel) o="--device $dev" ;;
	sim) o="--device sim" ;;
	*) o="--float" ;;
	esac
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086
	$llm $o -m "$data/stories260K.bin" -z "$data/tok512.bin" -p "Once upon a time" \
		-n 32 --json >/tmp/llm.json 2>/tmp/llm.err
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	got=$(sed -n 's/.*"generated_ids": \[\([^]]*\)\].*/\1/p' /tmp/llm.json | tr -d ' ')
	tps=$(sed -n 's/.*"decode_tok_s": \([0-9.]*\).*/\1/p' /tmp/llm.json)
	jpt=$(sed -n 's/.*"jobs_per_decode_token": \([0-9.]*\).*/\1/p' /tmp/llm.json)
	echo "E1VM-LOG: $name: decode $tps tok/s, $jpt jobs/token ($(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s)"
	echo "E1VM-LOG: $name: generated ids $got"
	if [ "$rc" = 0 ] && [ -n "$got" ] && [ "$got" = "$exp" ]; then
		t_pass "$name"
	else
		t_fail "$name" "e1npu-llm $o: exit $rc ($(head -c 200 /tmp/llm.err)), ids '$got', host's '$exp'"
	fi
done
rm -f /tmp/llm.json /tmp/llm.err
exit 0
