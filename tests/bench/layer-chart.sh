#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The per-layer SVG chart of MODEL (tests/bench/layer-chart.py) from
# `e1npu-tflite report --json` on the in-process model, its ideal from the
# device's array (npu-smoke info --json: rows x cols MACs per cycle); the
# report is kept beside the SVG (OUT.json). Prints the SVG's path.
# Usage: layer-chart.sh E1NPU-TFLITE NPU-SMOKE MODEL OUT.svg [TITLE]
set -eu
tool=$1 smoke=$2 model=$3 svg=$4 title=${5:-}
export E1NPU_DEVICE=sim
json=${svg%.svg}.json
peak=$("$smoke" info --json | python3 -c 'import json, sys; a = json.load(sys.stdin)["array"]; print(a[0] * a[1])')
"$tool" report "$model" --json >"$json"
if [ -n "$title" ]; then
	python3 "$(dirname "$0")/layer-chart.py" "$json" "$svg" --macs-per-cycle "$peak" --title "$title"
else
	python3 "$(dirname "$0")/layer-chart.py" "$json" "$svg" --macs-per-cycle "$peak"
fi
