#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Negative tests of the structural and index operators (check-tflite-models):
# each model below has one bad parameter; `e1npu-tflite run` must refuse it
# at load (exit status 2) with a message naming the bad value, before it
# reads any input.
#
# Usage: check_refused.py E1NPU_TFLITE DIR
import os
import subprocess
import sys

from tflbuild import I32, U8, I8, Model, Table, ADD, O_ADD
from mkmodels import (ARG_MAX, B2S, GATHER, O_ARG_MAX, O_B2S, O_GATHER, O_PACK,
                      O_RESIZE_BL, O_S2B, O_SPLIT, O_SPLIT_V, O_UNPACK, PACK,
                      RESIZE_BL, S2B, SPLIT, SPLIT_V, UNPACK, I64)


def one_op(code, in_shapes, consts, out_shapes, otype=0, opts=None, ttype=U8,
           out_types=None, const_first=False):
    """One operator: model inputs of @in_shapes, constant int32 inputs
    @consts (shape, values), outputs @out_shapes (type @out_types[k] or
    the input type)."""
    m = Model()
    ins = [m.tensor('in%d' % k, s, ttype, 0.05, 128 if ttype == U8 else 0)
           for k, s in enumerate(in_shapes)]
    cs = [m.const('c%d' % k, s, I32, v) for k, (s, v) in enumerate(consts)]
    outs = []
    for k, s in enumerate(out_shapes):
        t = out_types[k] if out_types else ttype
        outs.append(m.tensor('out%d' % k, s, t, 0.05 if t in (U8, I8) else None,
                             (128 if t == U8 else 0) if t in (U8, I8) else None))
    m.op(code, cs + ins if const_first else ins + cs, outs, otype, opts)
    return m.build(ins, outs, 'refused')


CASES = {
    'gather-index-past-end': (
        lambda: one_op(GATHER, [[6, 4]], [([3], [5, 6, 2])], [[3, 4]], O_GATHER,
                       Table(f0=('i32', 0))),
        'operator 0 (GATHER): index 6 (position 1) out of [0, 6)'),
    'gather-index-negative': (
        lambda: one_op(GATHER, [[6, 4]], [([2], [-1, 0])], [[2, 4]], O_GATHER,
                       Table(f0=('i32', 0))),
        'index -1 (position 0) out of [0, 6)'),
    'gather-axis-out-of-range': (
        lambda: one_op(GATHER, [[6, 4]], [([2], [0, 0])], [[6, 2]], O_GATHER,
                       Table(f0=('i32', 2))),
        'axis 2 of a rank 2 tensor'),
    'split-uneven': (
        lambda: one_op(SPLIT, [[1, 2, 2, 4]], [([], [3])], [[1, 2, 2, 1]] * 3, O_SPLIT,
                       Table(f0=('i32', 3)), const_first=True),
        'dimension 4 along axis 3 into 3 outputs'),
    'split-axis-out-of-range': (
        lambda: one_op(SPLIT, [[1, 2, 2, 4]], [([], [4])], [[1, 2, 2, 2]] * 2, O_SPLIT,
                       Table(f0=('i32', 2)), const_first=True),
        'axis 4 of a rank 4 tensor'),
    'split-num-splits-mismatch': (
        lambda: one_op(SPLIT, [[1, 2, 2, 4]], [([], [3])], [[1, 2, 2, 2]] * 2, O_SPLIT,
                       Table(f0=('i32', 3)), const_first=True),
        'num_splits 3, but 2 outputs'),
    'split-v-sizes-sum': (
        lambda: one_op(SPLIT_V, [[1, 7, 2]], [([2], [2, 3]), ([], [1])],
                       [[1, 2, 2], [1, 3, 2]], O_SPLIT_V, Table(f0=('i32', 2))),
        'size_splits add up to 5, dimension 7'),
    'unpack-num-mismatch': (
        lambda: one_op(UNPACK, [[3, 4]], [], [[4]] * 3, O_UNPACK,
                       Table(f0=('i32', 4), f1=('i32', 0))),
        'num 4, but 3 outputs'),
    'pack-axis-out-of-range': (
        lambda: one_op(PACK, [[3, 4], [3, 4]], [], [[3, 4, 2]], O_PACK,
                       Table(f0=('i32', 2), f1=('i32', 3))),
        'axis 3 of a rank 3 tensor'),
    'argmax-uint8-output': (
        lambda: one_op(ARG_MAX, [[2, 5]], [([1], [1])], [[2]], O_ARG_MAX,
                       Table(f0=('i8', U8))),
        'output type uint8 (int32 or int64)'),
    'argmax-axis-out-of-range': (
        lambda: one_op(ARG_MAX, [[2, 5]], [([1], [-3])], [[2]], O_ARG_MAX,
                       Table(f0=('i8', I32)), out_types=[I32]),
        'axis -3 of a rank 2 tensor'),
    'space-to-batch-indivisible': (
        lambda: one_op(S2B, [[1, 5, 4, 2]], [([2], [2, 2]), ([2, 2], [0, 0, 0, 0])],
                       [[4, 3, 2, 2]], O_S2B, Table()),
        'block 2x2 with paddings 0,0,0,0 does not fit 1x5x4'),
    'batch-to-space-rank3': (
        lambda: one_op(B2S, [[4, 3, 2]], [([2], [2, 2]), ([2, 2], [0, 0, 0, 0])],
                       [[1, 6, 4]], O_B2S, Table()),
        'rank 3 (4-D handled)'),
    'batch-to-space-negative-crop': (
        lambda: one_op(B2S, [[4, 3, 2, 1]], [([2], [2, 2]), ([2, 2], [0, -1, 0, 0])],
                       [[1, 7, 4, 1]], O_B2S, Table()),
        'with crops 0,-1,0,0 does not fit'),
    'bilinear-size-mismatch': (
        lambda: one_op(RESIZE_BL, [[1, 3, 3, 2]], [([2], [5, 6])], [[1, 5, 5, 2]],
                       O_RESIZE_BL, Table()),
        'output shape does not match the size 5x6'),
    'add-no-broadcast': (
        lambda: one_op(ADD, [[1, 4, 3], [1, 2, 3]], [], [[1, 4, 3]], O_ADD,
                       Table(f0=('i8', 0))),
        'shapes do not broadcast to the output'),
}


def main():
    tool, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    dummy = os.path.join(out, 'dummy.bin')
    with open(dummy, 'wb') as f:
        f.write(b'\0')
    passed = failed = 0
    for name, (build, want) in CASES.items():
        path = os.path.join(out, name + '.tflite')
        with open(path, 'wb') as f:
            f.write(build())
        r = subprocess.run([tool, 'run', path, '-i', dummy, '--device', 'sim'],
                           capture_output=True, text=True)
        if r.returncode == 2 and want in r.stderr:
            passed += 1
            print('  PASS  %s: refused: %s' % (name, r.stderr.strip()))
        else:
            failed += 1
            print('  FAIL  %s: exit %d, stderr %r, expected %r' % (name, r.returncode,
                                                                  r.stderr.strip(), want))
    print('%d passed, %d failed (check_refused.py)' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
