#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A model TFLite 2.2 runs and libe1npu's interpreter refuses (an operator
# neither it nor the delegate implements: REVERSE_V2, uint8), for
# expect-selftest.sh's "the interpreter refuses it" cases: zoo models the
# interpreter refuses become loadable as operators are added.
#
# Usage: mk_unsupported.py OUT.tflite
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tflite'))
from tflbuild import I32, U8, Model  # noqa: E402

REVERSE_V2 = 105


def main():
    m = Model()
    i = m.tensor('in', [1, 4, 4, 2], U8, 0.05, 128)
    ax = m.const('axis', [1], I32, [2])
    o = m.tensor('out', [1, 4, 4, 2], U8, 0.05, 128)
    m.op(REVERSE_V2, [i, ax], [o])
    with open(sys.argv[1], 'wb') as f:
        f.write(m.build([i], [o], 'reverse'))


if __name__ == '__main__':
    main()
