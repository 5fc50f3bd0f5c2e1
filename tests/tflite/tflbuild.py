#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Small quantized TFLite models for the tests, written with a hand-rolled
# FlatBuffer writer (no flatbuffers package, no TensorFlow): used by
# tests/fuzz/mkseeds-tflite-load.py and tests/tflite/mkmodels.py.
#
# Layout: depth first, every object after the field that refers to it
# (uoffsets are unsigned), each table's vtable just before the table.
# Field numbers are those of TensorFlow's schema.fbs (see
# lib/tflite/tflite_reader.c for the ones the reader uses).
import struct

# schema.fbs TensorType
F32, I32, U8, I8 = 0, 2, 3, 9
# BuiltinOperator
ADD, AVG, CONV, DW, FC, MAXP, RESHAPE, SOFTMAX, MEAN, SQUEEZE, QUANT = \
    0, 1, 3, 4, 9, 17, 22, 25, 40, 43, 114
# BuiltinOptions union type
O_CONV, O_DW, O_POOL, O_FC, O_SOFTMAX, O_ADD, O_RESHAPE, O_REDUCER = \
    1, 2, 5, 8, 9, 11, 17, 27
SAME, VALID = 0, 1
NONE, RELU, RELU6 = 0, 1, 3


class Table:
    """fields: list indexed by field number of (kind, value) or None;
    kind: 'u8', 'i8', 'i32', 'u32', 'u64', 'f32', 'str', 'ivec', 'fvec',
    'lvec', 'bvec', 'tab', 'tvec'."""

    def __init__(self, **fields):
        self.f = []
        for k, v in fields.items():
            idx = int(k[1:])
            while len(self.f) <= idx:
                self.f.append(None)
            self.f[idx] = v


SIZES = {'u8': 1, 'i8': 1, 'i32': 4, 'u32': 4, 'u64': 8, 'f32': 4}
FMT = {'u8': '<B', 'i8': '<b', 'i32': '<i', 'u32': '<I', 'u64': '<Q', 'f32': '<f'}


class Builder:
    def __init__(self):
        self.b = bytearray()

    def align(self, n):
        while len(self.b) % n:
            self.b.append(0)

    def vector(self, kind, vals):
        self.align(8 if kind == 'lvec' else 4)
        pos = len(self.b)
        if kind == 'str':
            data = vals.encode()
            self.b += struct.pack('<I', len(data)) + data + b'\0'
            return pos
        if kind == 'tvec':
            self.b += struct.pack('<I', len(vals))
            slots = []
            for _ in vals:
                slots.append(len(self.b))
                self.b += b'\0\0\0\0'
            for s, t in zip(slots, vals):
                tp = self.table(t)
                struct.pack_into('<I', self.b, s, tp - s)
            return pos
        fmt = {'ivec': '<i', 'fvec': '<f', 'lvec': '<q', 'bvec': '<B'}[kind]
        if kind == 'lvec':
            # the int64 elements 8-aligned: the length just before them
            if (pos + 4) % 8:
                self.b += b'\0\0\0\0'
                pos += 4
        self.b += struct.pack('<I', len(vals))
        for v in vals:
            self.b += struct.pack(fmt, v)
        return pos

    def table(self, t):
        # table layout: soffset, then scalars, then 4-byte ref slots
        layout = []
        off = 4
        for i, fv in enumerate(t.f):
            if fv is None:
                continue
            kind, _ = fv
            size = SIZES.get(kind, 4)
            while off % size:
                off += 1
            layout.append((i, off, size))
            off += size
        tlen = off
        nfields = len(t.f)
        vt = struct.pack('<HH', 4 + 2 * nfields, tlen)
        fo = [0] * nfields
        for i, o, _ in layout:
            fo[i] = o
        vt += b''.join(struct.pack('<H', x) for x in fo)
        self.align(2)
        vpos = len(self.b)
        self.b += vt
        self.align(8)
        tpos = len(self.b)
        self.b += bytes(tlen)
        struct.pack_into('<i', self.b, tpos, tpos - vpos)
        refs = []
        for i, o, size in layout:
            kind, v = t.f[i]
            if kind in FMT:
                struct.pack_into(FMT[kind], self.b, tpos + o, v)
            else:
                refs.append((tpos + o, kind, v))
        for slot, kind, v in refs:
            if kind == 'tab':
                p = self.table(v)
            else:
                p = self.vector(kind, v)
            struct.pack_into('<I', self.b, slot, p - slot)
        return tpos

    def finish(self, root):
        self.b += bytes(8)       # root offset + "TFL3"
        self.b[4:8] = b'TFL3'
        rp = self.table(root)
        struct.pack_into('<I', self.b, 0, rp)
        return bytes(self.b)


def rnd_bytes(n, seed):
    x = seed * 2654435761 + 12345
    out = []
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7fffffff
        out.append((x >> 16) & 0xff)
    return out


class Model:
    def __init__(self):
        self.tensors = []
        self.buffers = [[]]   # buffer 0: empty
        self.ops = []
        self.codes = []

    def tensor(self, name, shape, ttype, scale=None, zp=None, data=None,
               qdim=None):
        buf = 0
        if data is not None:
            self.buffers.append(data)
            buf = len(self.buffers) - 1
        f = dict(f0=('ivec', shape), f1=('i8', ttype), f2=('u32', buf),
                 f3=('str', name))
        if scale is not None:
            sc = scale if isinstance(scale, list) else [scale]
            z = zp if isinstance(zp, list) else [zp if zp is not None else 0] * len(sc)
            q = dict(f2=('fvec', sc), f3=('lvec', z))
            if qdim is not None:
                q['f6'] = ('i32', qdim)
            f['f4'] = ('tab', Table(**q))
        self.tensors.append(Table(**f))
        return len(self.tensors) - 1

    def const(self, name, shape, ttype, vals, scale=None, zp=None, qdim=None):
        if ttype == I32:
            data = list(b''.join(struct.pack('<i', v) for v in vals))
        else:
            data = [v & 0xff for v in vals]
        return self.tensor(name, shape, ttype, scale, zp, data, qdim)

    def op(self, code, ins, outs, otype=0, opts=None):
        if code not in self.codes:
            self.codes.append(code)
        f = dict(f0=('u32', self.codes.index(code)), f1=('ivec', ins),
                 f2=('ivec', outs))
        if otype:
            f['f3'] = ('u8', otype)
            f['f4'] = ('tab', opts if opts is not None else Table())
        self.ops.append(Table(**f))

    def build(self, inputs, outputs, description='fuzz seed'):
        codes = [Table(f0=('i8', min(c, 127)), f2=('i32', 1), f3=('i32', c))
                 for c in self.codes]
        sg = Table(f0=('tvec', self.tensors), f1=('ivec', inputs),
                   f2=('ivec', outputs), f3=('tvec', self.ops),
                   f4=('str', 'main'))
        bufs = [Table(f0=('bvec', d)) if d else Table() for d in self.buffers]
        root = Table(f0=('u32', 3), f1=('tvec', codes), f2=('tvec', [sg]),
                     f3=('str', description), f4=('tvec', bufs))
        return Builder().finish(root)
