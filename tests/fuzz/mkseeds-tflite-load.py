#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the seeds of fuzz-tflite-load: small valid quantized TFLite models
# (one to a few operators each, every seed < 4 KiB) with a hand-rolled
# FlatBuffer writer. Run from tests/fuzz/.
#
# Layout: depth first, every object after the field that refers to it
# (uoffsets are unsigned), each table's vtable just before the table.
# Field numbers are those of TensorFlow's schema.fbs (see
# lib/tflite/tflite_reader.c for the ones the reader uses).
#
# The harness picks the device path from the file size (size % 3: the
# in-process device, the CPU-only context, the reference kernels); each
# model is written three times with 0-2 bytes of trailing padding (a
# FlatBuffer ignores trailing bytes) so every path starts with every model.
import os
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

    def build(self, inputs, outputs):
        codes = [Table(f0=('i8', min(c, 127)), f2=('i32', 1), f3=('i32', c))
                 for c in self.codes]
        sg = Table(f0=('tvec', self.tensors), f1=('ivec', inputs),
                   f2=('ivec', outputs), f3=('tvec', self.ops),
                   f4=('str', 'main'))
        bufs = [Table(f0=('bvec', d)) if d else Table() for d in self.buffers]
        root = Table(f0=('u32', 3), f1=('tvec', codes), f2=('tvec', [sg]),
                     f3=('str', 'fuzz seed'), f4=('tvec', bufs))
        return Builder().finish(root)


def conv_u8():
    m = Model()
    i = m.tensor('in', [1, 4, 4, 2], U8, 0.05, 128)
    w = m.const('w', [3, 3, 3, 2], U8, rnd_bytes(54, 1), 0.02, 120)
    b = m.const('b', [3], I32, [100, -200, 300])
    o = m.tensor('out', [1, 4, 4, 3], U8, 0.1, 10)
    m.op(CONV, [i, w, b], [o], O_CONV,
         Table(f0=('i8', SAME), f1=('i32', 1), f2=('i32', 1), f3=('i8', RELU6)))
    return m.build([i], [o])


def conv_i8_perchannel():
    m = Model()
    i = m.tensor('in', [1, 7, 6, 3], I8, 0.04, -5)
    w = m.const('w', [4, 2, 2, 3], I8, rnd_bytes(48, 2), [0.01, 0.02, 0.015, 0.03],
                [0, 0, 0, 0], qdim=0)
    b = m.const('b', [4], I32, [10, 20, -30, 40])
    o = m.tensor('out', [1, 3, 2, 4], I8, 0.08, 3)
    m.op(CONV, [i, w, b], [o], O_CONV,
         Table(f0=('i8', VALID), f1=('i32', 2), f2=('i32', 2), f3=('i8', RELU),
               f4=('i32', 2), f5=('i32', 2)))
    return m.build([i], [o])


def depthwise_u8():
    m = Model()
    i = m.tensor('in', [1, 5, 5, 2], U8, 0.05, 128)
    w = m.const('w', [1, 3, 3, 4], U8, rnd_bytes(36, 3), 0.03, 127)
    b = m.const('b', [4], I32, [1, 2, 3, 4])
    o = m.tensor('out', [1, 5, 5, 4], U8, 0.07, 100)
    m.op(DW, [i, w, b], [o], O_DW,
         Table(f0=('i8', SAME), f1=('i32', 1), f2=('i32', 1), f3=('i32', 2),
               f4=('i8', NONE)))
    return m.build([i], [o])


def depthwise_i8_stride():
    m = Model()
    i = m.tensor('in', [1, 6, 6, 3], I8, 0.05, 0)
    w = m.const('w', [1, 3, 3, 3], I8, rnd_bytes(27, 4), [0.02, 0.03, 0.04], [0, 0, 0],
                qdim=3)
    o = m.tensor('out', [1, 3, 3, 3], I8, 0.1, -10)
    m.op(DW, [i, w], [o], O_DW,
         Table(f0=('i8', SAME), f1=('i32', 2), f2=('i32', 2), f3=('i32', 1),
               f4=('i8', RELU6)))
    return m.build([i], [o])


def fc_i8():
    m = Model()
    i = m.tensor('in', [2, 8], I8, 0.05, 1)
    w = m.const('w', [4, 8], I8, rnd_bytes(32, 5), 0.02, 0)
    b = m.const('b', [4], I32, [5, -5, 50, -50])
    o = m.tensor('out', [2, 4], I8, 0.1, -1)
    m.op(FC, [i, w, b], [o], O_FC, Table(f0=('i8', RELU)))
    return m.build([i], [o])


def fc_u8_nobias():
    m = Model()
    i = m.tensor('in', [1, 2, 2, 3], U8, 0.05, 128)
    w = m.const('w', [5, 12], U8, rnd_bytes(60, 6), 0.01, 130)
    o = m.tensor('out', [1, 5], U8, 0.2, 120)
    m.op(FC, [i, w, -1], [o], O_FC, Table(f0=('i8', NONE)))
    return m.build([i], [o])


def add_u8():
    m = Model()
    a = m.tensor('a', [1, 2, 2, 3], U8, 0.05, 128)
    b = m.tensor('b', [1, 2, 2, 3], U8, 0.03, 100)
    o = m.tensor('out', [1, 2, 2, 3], U8, 0.06, 120)
    m.op(ADD, [a, b], [o], O_ADD, Table(f0=('i8', RELU)))
    return m.build([a, b], [o])


def add_i8_chain():
    m = Model()
    a = m.tensor('a', [1, 9], I8, 0.05, -3)
    b = m.tensor('b', [1, 9], I8, 0.04, 5)
    c = m.tensor('c', [1, 9], I8, 0.07, 0)
    o = m.tensor('out', [1, 9], I8, 0.1, -2)
    m.op(ADD, [a, b], [c], O_ADD, Table(f0=('i8', NONE)))
    m.op(ADD, [c, a], [o], O_ADD, Table(f0=('i8', RELU6)))
    return m.build([a, b], [o])


def pools_u8():
    m = Model()
    i = m.tensor('in', [1, 4, 4, 2], U8, 0.05, 128)
    p = m.tensor('avg', [1, 2, 2, 2], U8, 0.05, 128)
    o = m.tensor('max', [1, 1, 1, 2], U8, 0.05, 128)
    m.op(AVG, [i], [p], O_POOL,
         Table(f0=('i8', VALID), f1=('i32', 2), f2=('i32', 2), f3=('i32', 2),
               f4=('i32', 2), f5=('i8', NONE)))
    m.op(MAXP, [p], [o], O_POOL,
         Table(f0=('i8', SAME), f1=('i32', 2), f2=('i32', 2), f3=('i32', 2),
               f4=('i32', 2), f5=('i8', RELU)))
    return m.build([i], [o])


def reshape_softmax_u8():
    m = Model()
    i = m.tensor('in', [1, 2, 2, 3], U8, 0.1, 128)
    r = m.tensor('flat', [1, 12], U8, 0.1, 128)
    o = m.tensor('prob', [1, 12], U8, 1.0 / 256, 0)
    m.op(RESHAPE, [i], [r], O_RESHAPE, Table(f0=('ivec', [1, 12])))
    m.op(SOFTMAX, [r], [o], O_SOFTMAX, Table(f0=('f32', 1.0)))
    return m.build([i], [o])


def softmax_i8_squeeze():
    m = Model()
    i = m.tensor('in', [1, 1, 1, 10], I8, 0.2, -1)
    s = m.tensor('sq', [1, 10], I8, 0.2, -1)
    o = m.tensor('prob', [1, 10], I8, 1.0 / 256, -128)
    m.op(SQUEEZE, [i], [s])
    m.op(SOFTMAX, [s], [o], O_SOFTMAX, Table(f0=('f32', 0.5)))
    return m.build([i], [o])


def quantize_mean():
    m = Model()
    i = m.tensor('in', [1, 3, 3, 4], U8, 0.05, 128)
    q = m.tensor('q', [1, 3, 3, 4], I8, 0.05, 0)
    ax = m.const('axes', [2], I32, [1, 2])
    o = m.tensor('mean', [1, 4], I8, 0.04, 2)
    m.op(QUANT, [i], [q])
    m.op(MEAN, [q, ax], [o], O_REDUCER, Table(f0=('u8', 0)))
    return m.build([i], [o])


def tiny_net_i8():
    """conv -> depthwise -> avg pool -> reshape -> fc -> softmax."""
    m = Model()
    i = m.tensor('image', [1, 6, 6, 1], I8, 0.02, -128)
    w1 = m.const('w1', [2, 3, 3, 1], I8, rnd_bytes(18, 7), [0.02, 0.03], [0, 0], qdim=0)
    b1 = m.const('b1', [2], I32, [7, -7])
    c1 = m.tensor('c1', [1, 3, 3, 2], I8, 0.05, -128)
    w2 = m.const('w2', [1, 3, 3, 2], I8, rnd_bytes(18, 8), [0.04, 0.05], [0, 0], qdim=3)
    b2 = m.const('b2', [2], I32, [1, 1])
    c2 = m.tensor('c2', [1, 3, 3, 2], I8, 0.06, -128)
    p = m.tensor('pool', [1, 1, 1, 2], I8, 0.06, -128)
    r = m.tensor('flat', [1, 2], I8, 0.06, -128)
    w3 = m.const('w3', [3, 2], I8, [10, -20, 30, -40, 50, -60], 0.01, 0)
    b3 = m.const('b3', [3], I32, [0, 100, -100])
    f = m.tensor('logits', [1, 3], I8, 0.1, 0)
    o = m.tensor('prob', [1, 3], I8, 1.0 / 256, -128)
    m.op(CONV, [i, w1, b1], [c1], O_CONV,
         Table(f0=('i8', SAME), f1=('i32', 2), f2=('i32', 2), f3=('i8', RELU6)))
    m.op(DW, [c1, w2, b2], [c2], O_DW,
         Table(f0=('i8', SAME), f1=('i32', 1), f2=('i32', 1), f3=('i32', 1),
               f4=('i8', RELU6)))
    m.op(AVG, [c2], [p], O_POOL,
         Table(f0=('i8', VALID), f1=('i32', 3), f2=('i32', 3), f3=('i32', 3),
               f4=('i32', 3), f5=('i8', NONE)))
    m.op(RESHAPE, [p], [r], O_RESHAPE, Table(f0=('ivec', [1, 2])))
    m.op(FC, [r, w3, b3], [f], O_FC, Table(f0=('i8', NONE)))
    m.op(SOFTMAX, [f], [o], O_SOFTMAX, Table(f0=('f32', 1.0)))
    return m.build([i], [o])


def regress_mean_sum_overflow():
    """F27: MEAN over 4096 x 4096 uint8 values (an int32 sum past
    INT32_MAX); rejected at load since the fix."""
    m = Model()
    i = m.tensor('in', [1, 4096, 4096, 1], U8, 0.05, 0)
    ax = m.const('axes', [2], I32, [1, 2])
    o = m.tensor('mean', [1, 1], U8, 0.05, 0)
    m.op(MEAN, [i, ax], [o], O_REDUCER, Table(f0=('u8', 0)))
    return m.build([i], [o])


def regress_arena_too_big():
    """F30: ADD of three 1x16384x16384x3 uint8 tensors: a 2.4 GiB arena
    allocated at load by a 700-byte file; more than 1 GiB is -ENOTSUP.
    Padded to size % 3 == 0 (the harness's device path)."""
    m = Model()
    shape = [1, 16384, 16384, 3]
    a = m.tensor('a', shape, U8, 0.05, 128)
    b = m.tensor('b', shape, U8, 0.03, 100)
    o = m.tensor('out', shape, U8, 0.06, 120)
    m.op(ADD, [a, b], [o], O_ADD, Table(f0=('i8', RELU)))
    d = m.build([a, b], [o])
    return d + bytes(-len(d) % 3)


# written once, as named (regression inputs of fixed bugs)
REGRESS = {
    'regress-mean-sum-overflow': regress_mean_sum_overflow,
    'regress-arena-too-big': regress_arena_too_big,
}

SEEDS = {
    'conv-u8': conv_u8,
    'conv-i8-perchannel-valid-dilated': conv_i8_perchannel,
    'depthwise-u8-mult2': depthwise_u8,
    'depthwise-i8-stride2': depthwise_i8_stride,
    'fc-i8-batch2': fc_i8,
    'fc-u8-nobias-4d-input': fc_u8_nobias,
    'add-u8': add_u8,
    'add-i8-chain': add_i8_chain,
    'avgpool-maxpool-u8': pools_u8,
    'reshape-softmax-u8': reshape_softmax_u8,
    'squeeze-softmax-i8': softmax_i8_squeeze,
    'quantize-mean': quantize_mean,
    'tiny-net-i8': tiny_net_i8,
}


def main():
    out = 'corpus-fuzz-tflite-load'
    os.makedirs(out, exist_ok=True)
    for name, fn in SEEDS.items():
        data = fn()
        for pad in range(3):
            d = data + bytes(pad)
            # size % 3 picks the path: 0 device, 1 CPU-only, 2 reference
            path = ['dev', 'cpu', 'ref'][len(d) % 3]
            assert len(d) < 4096, (name, len(d))
            with open(os.path.join(out, '%s-%s.tflite' % (name, path)), 'wb') as f:
                f.write(d)
    for name, fn in REGRESS.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(fn())


if __name__ == '__main__':
    main()
