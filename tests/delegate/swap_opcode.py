#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a copy of a .tflite model with one builtin operator code replaced
(in the OperatorCode table, both the int8 and the int32 code field), e.g.
RESHAPE (22) -> RELU (19): a network TFLite still runs, with an operator
the e1npu delegate does not take (tests/delegate/delegate.mk).

usage: swap_opcode.py IN OUT FROM_CODE TO_CODE
"""
import struct
import sys


def field(b, t, i):
    vt = t - struct.unpack_from("<i", b, t)[0]
    vlen = struct.unpack_from("<H", b, vt)[0]
    if 4 + 2 * i >= vlen:
        return None
    fo = struct.unpack_from("<H", b, vt + 4 + 2 * i)[0]
    return t + fo if fo else None


def main():
    src, dst, old, new = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    b = bytearray(open(src, "rb").read())
    root = struct.unpack_from("<I", b, 0)[0]
    p = field(b, root, 1)
    vec = p + struct.unpack_from("<I", b, p)[0]
    swapped = 0
    for k in range(struct.unpack_from("<I", b, vec)[0]):
        e = vec + 4 + 4 * k
        oc = e + struct.unpack_from("<I", b, e)[0]
        f0, f3 = field(b, oc, 0), field(b, oc, 3)
        c0 = struct.unpack_from("<b", b, f0)[0] if f0 is not None else 0
        c3 = struct.unpack_from("<i", b, f3)[0] if f3 is not None else 0
        if max(c0, c3) != old:
            continue
        if f0 is not None:
            struct.pack_into("<b", b, f0, new if new < 128 else 127)
        if f3 is not None:
            struct.pack_into("<i", b, f3, new)
        swapped += 1
    if swapped != 1:
        sys.exit("swap_opcode.py: %s has %d operator codes %d, expected 1" % (src, swapped, old))
    open(dst, "wb").write(b)


if __name__ == "__main__":
    main()
