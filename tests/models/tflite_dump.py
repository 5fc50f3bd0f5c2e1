#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent check of lib/tflite/tflite_reader.c: a second, deliberately
simple FlatBuffer walk of a .tflite file using only the Python standard
library (struct). Prints one summary line per model that
tests/models/run-models.sh compares with `test-tflite-reader --summary`:

  tensors=N ops=N codes=OP:count,... in=[dims]type out=[dims]type
"""
import struct
import sys

TYPES = {0: "float32", 2: "int32", 3: "uint8", 9: "int8", 4: "int64", 7: "int16"}
OPS = {0: "ADD", 1: "AVERAGE_POOL_2D", 3: "CONV_2D", 4: "DEPTHWISE_CONV_2D",
       6: "DEQUANTIZE", 9: "FULLY_CONNECTED", 17: "MAX_POOL_2D", 22: "RESHAPE",
       25: "SOFTMAX", 114: "QUANTIZE", 40: "MEAN", 43: "SQUEEZE"}


class FB:
    def __init__(self, b):
        self.b = b

    def u32(self, o):
        return struct.unpack_from("<I", self.b, o)[0]

    def i32(self, o):
        return struct.unpack_from("<i", self.b, o)[0]

    def field(self, t, i):
        vt = t - self.i32(t)
        vlen = struct.unpack_from("<H", self.b, vt)[0]
        if 4 + 2 * i >= vlen:
            return None
        fo = struct.unpack_from("<H", self.b, vt + 4 + 2 * i)[0]
        return t + fo if fo else None

    def ref(self, t, i):
        p = self.field(t, i)
        return None if p is None else p + self.u32(p)

    def vec(self, t, i):
        p = self.ref(t, i)
        if p is None:
            return (0, 0)
        return (self.u32(p), p + 4)

    def tables(self, t, i):
        n, s = self.vec(t, i)
        return [s + 4 * k + self.u32(s + 4 * k) for k in range(n)]

    def ints(self, t, i):
        n, s = self.vec(t, i)
        return list(struct.unpack_from("<%di" % n, self.b, s))

    def scalar(self, t, i, fmt, default=0):
        p = self.field(t, i)
        return default if p is None else struct.unpack_from("<" + fmt, self.b, p)[0]


def summary(path):
    fb = FB(open(path, "rb").read())
    model = fb.u32(0)
    codes = []
    for oc in fb.tables(model, 1):
        dep = fb.scalar(oc, 0, "b")
        code = fb.scalar(oc, 3, "i")
        codes.append(max(dep, code))
    sg = fb.tables(model, 2)[0]
    tensors = fb.tables(sg, 0)
    ops = fb.tables(sg, 3)
    count = {}
    for op in ops:
        c = codes[fb.scalar(op, 0, "I")]
        name = OPS.get(c, "OP%d" % c)
        count[name] = count.get(name, 0) + 1

    def desc(ti):
        t = tensors[ti]
        return "[%s]%s" % (",".join(str(d) for d in fb.ints(t, 0)),
                           TYPES.get(fb.scalar(t, 1, "b"), "?"))

    ins = fb.ints(sg, 1)
    outs = fb.ints(sg, 2)
    return "tensors=%d ops=%d codes=%s in=%s out=%s" % (
        len(tensors), len(ops),
        ",".join("%s:%d" % (k, count[k]) for k in sorted(count)),
        desc(ins[0]), desc(outs[0]))


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(summary(p))
