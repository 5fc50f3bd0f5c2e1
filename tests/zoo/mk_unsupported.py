#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A model TFLite 2.2 runs and libe1npu's interpreter refuses (an operator
# neither it nor the delegate implements: SPACE_TO_DEPTH, uint8), for
# expect-selftest.sh's "the interpreter refuses it" cases: zoo models the
# interpreter refuses become loadable as operators are added.
#
# Usage: mk_unsupported.py OUT.tflite
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tflite'))
from tflbuild import U8, Model, Table  # noqa: E402

SPACE_TO_DEPTH, O_SPACE_TO_DEPTH = 26, 19


def main():
    m = Model()
    i = m.tensor('in', [1, 4, 4, 2], U8, 0.05, 128)
    o = m.tensor('out', [1, 2, 2, 8], U8, 0.05, 128)
    m.op(SPACE_TO_DEPTH, [i], [o], O_SPACE_TO_DEPTH, Table(f0=('i32', 2)))
    with open(sys.argv[1], 'wb') as f:
        f.write(m.build([i], [o], 'space to depth'))


if __name__ == '__main__':
    main()
