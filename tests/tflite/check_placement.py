#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Placement of the structural and index operators (check-tflite-models):
# `e1npu-tflite report --json` on the built models must put each of them
# on the host (no hardware form) with its reason, and keep the partition
# whole (no operator refused).
#
# Usage: check_placement.py E1NPU_TFLITE MODELS_DIR
import json
import os
import subprocess
import sys

# model -> {operator: words its reason must hold}
WANT = {
    'split-u8-axis3': {'SPLIT': 'layout only: block copies'},
    'split-v-u8-axis2': {'SPLIT_V': 'layout only: block copies'},
    'unpack-u8-axis0': {'UNPACK': 'layout only: block copies'},
    'pack-i8-axis2': {'PACK': 'layout only: block copies'},
    'gather-u8-axis0': {'GATHER': 'indexed block copies'},
    'gather-u8-argmax-indices': {'GATHER': 'indexed block copies',
                                 'ARG_MAX': 'no hardware arg-reduction'},
    'argmin-i8-axis2-i32': {'ARG_MIN': 'no hardware arg-reduction'},
    'space-batch-u8-pad': {'SPACE_TO_BATCH_ND': 'block-strided copies',
                           'BATCH_TO_SPACE_ND': 'block-strided copies'},
    'space-depth-u8-3-2': {'SPACE_TO_DEPTH': 'block-to-channel copies',
                           'DEPTH_TO_SPACE': 'block-to-channel copies'},
    'tconv-i8-batch2-s2': {'TRANSPOSE_CONV': "TFLite 2.2's scatter-accumulate"},
    'reduce-max-u8-axes12-keep': {'REDUCE_MAX': 'max/min of the stored values'},
    'sum-u8-rescale': {'SUM': "TFLite 2.2's QuantizedMeanOrSum"},
    'prelu-u8-input-alpha': {'PRELU': 'parametric ReLU with broadcast alpha'},
    'log-softmax-u8-wide': {'LOG_SOFTMAX': "TFLite 2.2's gemmlowp fixed point"},
    'bilinear-i8-half': {'RESIZE_BILINEAR': "TFLite 2.2's single-precision float"},
    'bcast-add-u8-se': {'ADD': 'broadcasting add: the hardware add takes equal shapes'},
}


def main():
    tool, models = sys.argv[1], sys.argv[2]
    passed = failed = 0
    for name, ops in WANT.items():
        path = os.path.join(models, name + '.tflite')
        r = subprocess.run([tool, 'report', path, '--device', 'sim', '--json'],
                           capture_output=True, text=True)
        rep = json.loads(r.stdout) if r.returncode == 0 else {'operators': []}
        seen = {o['builtin']: o for o in rep['operators']}
        for op, words in ops.items():
            o = seen.get(op)
            if o and o['place'] == 'host' and o['reason'] == 'no_hw_op' and words in o['why'] \
                    and rep['totals']['refused'] == 0:
                passed += 1
                print('  PASS  %s: %s on the host: %s' % (name, op, o['why']))
            else:
                failed += 1
                print('  FAIL  %s: %s: %r (want host, no_hw_op, %r; exit %d %s)' %
                      (name, op, o, words, r.returncode, r.stderr.strip()))
    print('%d passed, %d failed (check_placement.py)' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
