#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Writes the seeds of fuzz-tflite-art: the artifacts of the
# fuzz-tflite-load seed models the interpreter loads (their *-dev.tflite
# copies), compiled by e1npu-tflite for the in-process simulator the
# harness uses. Each artifact is written twice, with and without one byte
# of trailing padding, so both of the harness's paths start from it (even
# size: checksum made good first; odd: loaded as it is, which a padded
# artifact fails on, as it should). Rerun after a format change.
# Usage: mkseeds-tflite-art.sh E1NPU-TFLITE   (from the tree's top)
set -eu
tool=$1
src=tests/fuzz/corpus-fuzz-tflite-load
dst=tests/fuzz/corpus-fuzz-tflite-art
mkdir -p "$dst"
rm -f "$dst"/*.e1c
n=0
for m in "$src"/*-dev.tflite; do
	b=$(basename "$m" -dev.tflite)
	if E1NPU_DEVICE=sim "$tool" compile "$m" -o "$dst/$b.e1c" >/dev/null 2>&1; then
		n=$((n + 1))
	fi
done
echo "mkseeds-tflite-art: $n models compiled into $dst"
