#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent checks for tests/tools/tflite-tool-test.sh (e1npu-tflite),
with a FlatBuffer walk of the .tflite file of its own (tests/models/
tflite_dump.py's FB reader, Python standard library only):

  macs MODEL                 MACs per operator and the total, from the
                             conv / depthwise / fully-connected shapes
  report MODEL REPORT.json   the report lists every operator in order with
                             its builtin name and output shape, each one's
                             MACs and the total equal the independent count
  dump MODEL DIR             DIR holds layerNNN-OP.{npu,ref}.npy for every
                             operator, of its output tensor's shape and type,
                             and the two paths' data are equal
  bmp IMAGE OUT              the 24-bit BMP's pixels as a raw RGB tensor
  npy IN OUT [u1|i1] SHAPE   raw bytes IN as a .npy OUT (SHAPE: 1,128,128,3)
  npydata IN.npy OUT         the data of a .npy (|u1 / |i1) as raw bytes
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models"))
from tflite_dump import FB, OPS  # noqa: E402


def model_ops(path):
    fb = FB(open(path, "rb").read())
    model = fb.u32(0)
    codes = []
    for oc in fb.tables(model, 1):
        codes.append(max(fb.scalar(oc, 0, "b"), fb.scalar(oc, 3, "i")))
    sg = fb.tables(model, 2)[0]
    tensors = fb.tables(sg, 0)
    shapes = [fb.ints(t, 0) for t in tensors]
    types = [fb.scalar(t, 1, "b") for t in tensors]
    ops = []
    for op in fb.tables(sg, 3):
        code = codes[fb.scalar(op, 0, "I")]
        ops.append((code, fb.ints(op, 1), fb.ints(op, 2)))
    return ops, shapes, types


def prod(v):
    p = 1
    for x in v:
        p *= x
    return p


def op_macs(code, ins, outs, shapes):
    y = shapes[outs[0]]
    if code == 3:        # CONV_2D: w [O, KH, KW, I]
        o, kh, kw, i = shapes[ins[1]]
        return y[1] * y[2] * o * kh * kw * i
    if code == 4:        # DEPTHWISE_CONV_2D: w [1, KH, KW, C*mult]
        _, kh, kw, c = shapes[ins[1]]
        return y[1] * y[2] * c * kh * kw
    if code == 9:        # FULLY_CONNECTED: w [N, K]
        n, k = shapes[ins[1]]
        return prod(shapes[ins[0]]) // k * n * k
    return 0


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def cmd_macs(path):
    ops, shapes, _ = model_ops(path)
    total = 0
    for i, (code, ins, outs) in enumerate(ops):
        m = op_macs(code, ins, outs, shapes)
        total += m
        print("%d %s %d" % (i, OPS.get(code, "OP%d" % code), m))
    print("total %d" % total)


def cmd_report(path, report):
    ops, shapes, _ = model_ops(path)
    r = json.load(open(report))
    rops = r["operators"]
    if len(rops) != len(ops):
        fail("report lists %d operators, the model has %d" % (len(rops), len(ops)))
    total = 0
    for i, (code, ins, outs) in enumerate(ops):
        e = rops[i]
        m = op_macs(code, ins, outs, shapes)
        total += m
        if e["index"] != i or e["builtin"] != OPS.get(code, "?"):
            fail("operator %d: report says %d %s, the model %s" %
                 (i, e["index"], e["builtin"], OPS.get(code, "?")))
        if e["output_shape"] != shapes[outs[0]]:
            fail("operator %d: output shape %s, the model %s" %
                 (i, e["output_shape"], shapes[outs[0]]))
        if e["macs"] != m:
            fail("operator %d (%s): %d MACs, counted %d" % (i, e["builtin"], e["macs"], m))
        if e["place"] not in ("wrapper", "datapath", "host", "refused"):
            fail("operator %d: place %s" % (i, e["place"]))
    if r["totals"]["macs"] != total:
        fail("total %d MACs, counted %d" % (r["totals"]["macs"], total))
    print("PASS report: %d operators, %d MACs (counted independently)" % (len(ops), total))


def read_npy(path):
    b = open(path, "rb").read()
    if b[:6] != b"\x93NUMPY":
        fail("%s: not a .npy" % path)
    hl = struct.unpack_from("<H", b, 8)[0]
    hdr = b[10:10 + hl].decode("latin1")
    d = eval(hdr)  # the header is a Python literal dict
    return d["descr"], list(d["shape"]), b[10 + hl:]


def cmd_dump(path, d):
    ops, shapes, types = model_ops(path)
    for i, (code, ins, outs) in enumerate(ops):
        name = OPS.get(code, "OP%d" % code)
        want = "|i1" if types[outs[0]] == 9 else "|u1"
        data = []
        for p in ("npu", "ref"):
            f = os.path.join(d, "layer%03d-%s.%s.npy" % (i, name, p))
            if not os.path.exists(f):
                fail("missing %s" % f)
            descr, shape, raw = read_npy(f)
            if descr != want or shape != shapes[outs[0]] or len(raw) != prod(shape):
                fail("%s: %s %s (%d bytes), the model's output tensor is %s %s" %
                     (f, descr, shape, len(raw), want, shapes[outs[0]]))
            data.append(raw)
        if data[0] != data[1]:
            fail("layer %d: the dumped paths differ" % i)
    print("PASS dump: %d layers x 2 paths, shapes and types of the model" % len(ops))


def cmd_bmp(img, out):
    d = open(img, "rb").read()
    off = struct.unpack_from("<I", d, 10)[0]
    w, h = struct.unpack_from("<ii", d, 18)
    if struct.unpack_from("<H", d, 28)[0] != 24:
        fail("%s: not 24-bit" % img)
    row = (w * 3 + 3) & ~3
    o = bytearray()
    for y in (range(h - 1, -1, -1) if h > 0 else range(-h)):
        for x in range(w):
            b, g, r = d[off + y * row + 3 * x: off + y * row + 3 * x + 3]
            o += bytes([r, g, b])
    open(out, "wb").write(o)


def cmd_npy(inp, out, t, shape):
    raw = open(inp, "rb").read()
    dims = [int(x) for x in shape.split(",")]
    hdr = "{'descr': '|%s', 'fortran_order': False, 'shape': (%s), }" % (
        t, ", ".join(str(x) for x in dims) + ("," if len(dims) == 1 else ""))
    pad = 64 - (10 + len(hdr) + 1) % 64
    hdr = hdr + " " * pad + "\n"
    open(out, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) +
                          hdr.encode("latin1") + raw)


def cmd_npydata(inp, out):
    _, _, raw = read_npy(inp)
    open(out, "wb").write(raw)


if __name__ == "__main__":
    c, a = sys.argv[1], sys.argv[2:]
    {"macs": cmd_macs, "report": cmd_report, "dump": cmd_dump, "bmp": cmd_bmp,
     "npy": cmd_npy, "npydata": cmd_npydata}[c](*a)
