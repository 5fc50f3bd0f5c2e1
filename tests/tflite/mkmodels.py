#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the built test models of check-tflite-models (tests/tflite/
# tflite.mk) into DIR: each is run by TFLite 2.2 alone, by TFLite 2.2 with
# the e1npu delegate and (but dynamic-*) by libe1npu's interpreter, and the
# outputs must be byte-identical.
#
#   requant-*   convolution / fully connected layers whose scales make
#               TFLite 2.2's single-precision product in * w differ from the
#               double one, at a rounding tie: in * w / out is exactly 0.5
#               in float and just above it in double, so every odd negative
#               accumulator rounds one way with the float multiplier
#               (2^30) and the other with the double one (2^30 + d).
#   dynamic-*   a shape computed at run time (SHAPE -> STRIDED_SLICE ->
#               PACK -> RESHAPE): TFLite makes the RESHAPE output dynamic.
#
# Usage: mkmodels.py DIR
import os
import struct
import sys

from tflbuild import (ADD, O_ADD, CONV, DW, FC, I32, I8, NONE, O_CONV, O_DW, O_FC,
                      O_RESHAPE, RELU as ACT_RELU, RELU6 as ACT_RELU6,
                      RESHAPE, SAME, U8, VALID, Model, Table)

SHAPE, STRIDED_SLICE, PACK, MEAN = 77, 45, 83, 40
RELU, RELU_N1_TO_1, RELU6, QUANTIZE = 19, 20, 21, 114
MAXIMUM, MINIMUM, O_MAXMIN = 55, 57, 39
MUL, O_MUL = 18, 21
PAD, O_PAD = 34, 22
SUB, O_SUB = 41, 28
CONCAT, O_CONCAT = 2, 10
TRANSPOSE, SLICE = 39, 65
RESIZE_NN, O_RESIZE_NN = 97, 74
O_STRIDED_SLICE_ = 32
HARD_SWISH = 117
SPLIT, SPLIT_V, O_SPLIT, O_SPLIT_V = 49, 102, 35, 79
UNPACK, O_UNPACK = 88, 64
ARG_MAX, ARG_MIN, O_ARG_MAX, O_ARG_MIN = 56, 79, 40, 57
GATHER, O_GATHER = 36, 23
B2S, S2B, O_B2S, O_S2B = 37, 38, 24, 25
RESIZE_BL, O_RESIZE_BL = 23, 15
I64 = 4
LOGISTIC, TANH, LEAKY_RELU, L2_NORM, ABS, DEQUANTIZE = 14, 28, 98, 11, 101, 6
O_L2NORM, O_LEAKY_RELU = 12, 75
F32 = 0
D2S, S2D, O_D2S, O_S2D = 5, 26, 94, 19
TCONV, O_TCONV = 67, 49
PRELU, SUM, REDUCE_MAX, REDUCE_MIN = 54, 74, 82, 89
LOG_SOFTMAX = 50
O_STRIDED_SLICE, O_SHAPE, O_PACK, O_REDUCER = 32, 55, 59, 27


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def quantize_multiplier(real):
    """TFLite QuantizeMultiplier (frexp, round half away from zero)."""
    if real == 0:
        return 0, 0
    m, e = frexp(real)
    q = int(m * (1 << 31) + 0.5)
    if q == 1 << 31:
        q //= 2
        e += 1
    return q, e


def frexp(x):
    e = 0
    while x >= 1.0:
        x /= 2
        e += 1
    while x < 0.5:
        x *= 2
        e -= 1
    return x, e


def tie_scales(start):
    """Float scales (in, w, out) with float(in * w) / out == 0.5 exactly
    and the double product's multiplier above the float one's."""
    k = 0
    while True:
        s_in = f32(start + k * 1.3e-6)
        s_w = f32(0.0071 + k * 0.7e-7)
        p_f = f32(s_in * s_w)
        s_out = f32(2 * p_f)
        mf = quantize_multiplier(p_f / s_out)
        md = quantize_multiplier(s_in * s_w / s_out)
        if mf == (1 << 30, 0) and md[1] == 0 and md[0] > mf[0] + 2:
            return s_in, s_w, s_out, p_f
        k += 1


def small_weights(n, zp, seed):
    """Weights within one step of the zero point (accumulators stay small,
    so the outputs are not all clamped)."""
    x = seed
    out = []
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7fffffff
        out.append(zp + ((x >> 16) % 3) - 1)
    return out


def requant_conv_u8():
    s_in, s_w, s_out, p = tie_scales(0.02)
    m = Model()
    i = m.tensor('in', [1, 8, 8, 3], U8, s_in, 128)
    w = m.const('w', [6, 1, 1, 3], U8, small_weights(18, 131, 1), s_w, 131)
    b = m.const('b', [6], I32, [0, 1, -1, 3, 0, -5], p, 0)
    o = m.tensor('out', [1, 8, 8, 6], U8, s_out, 128)
    m.op(CONV, [i, w, b], [o], O_CONV,
         Table(f0=('i8', SAME), f1=('i32', 1), f2=('i32', 1), f3=('i8', NONE)))
    return m.build([i], [o], 'requant conv u8')


def requant_conv_i8():
    """Per-channel int8: TFLite 2.2 takes the double product here."""
    s_in, s_w, s_out, p = tie_scales(0.023)
    m = Model()
    i = m.tensor('in', [1, 8, 8, 3], I8, s_in, 0)
    w = m.const('w', [4, 1, 1, 3], I8, small_weights(12, 0, 4), [s_w] * 4, [0] * 4,
                qdim=0)
    b = m.const('b', [4], I32, [0, 1, -1, 3], [p] * 4, [0] * 4, qdim=0)
    o = m.tensor('out', [1, 8, 8, 4], I8, s_out, 0)
    m.op(CONV, [i, w, b], [o], O_CONV,
         Table(f0=('i8', SAME), f1=('i32', 1), f2=('i32', 1), f3=('i8', NONE)))
    return m.build([i], [o], 'requant conv i8 per channel')


def mean(ttype, keep, s_in, s_out, zi, zo):
    """MEAN over axes {1, 2}, whose rescale TFLite 2.2 forms per type and
    keep_dims."""
    m = Model()
    i = m.tensor('in', [1, 5, 3, 4], ttype, s_in, zi)
    ax = m.const('axes', [2], I32, [1, 2])
    o = m.tensor('mean', [1, 1, 1, 4] if keep else [1, 4], ttype, s_out, zo)
    m.op(MEAN, [i, ax], [o], O_REDUCER, Table(f0=('u8', 1 if keep else 0)))
    return m.build([i], [o], 'mean')


def quotient_tie_scales():
    """Float scales (in, out) whose float quotient in / out is exactly 0.75
    while the double one is just below: TFLite 2.2's RELU multiplier
    (from the float quotient) puts x * 0.75 for x = 2 mod 4 on a tie."""
    k = 0
    while True:
        s_out = f32(0.0313 + k * 1.7e-7)
        s_in = f32(0.75 * s_out)
        mf = quantize_multiplier(f32(s_in / s_out))
        md = quantize_multiplier(s_in / s_out)
        if mf == (3 << 29, 0) and md[1] == 0 and md[0] < mf[0]:
            return s_in, s_out
        k += 1


def requantize(t_in, zi, t_out, zo):
    """QUANTIZE between 8-bit types at a quotient tie (quotient_tie_scales):
    TFLite 2.2 takes the double quotient here, unlike RELU."""
    s_in, s_out = quotient_tie_scales()
    m = Model()
    i = m.tensor('in', [1, 8, 16], t_in, s_in, zi)
    o = m.tensor('out', [1, 8, 16], t_out, s_out, zo)
    m.op(QUANTIZE, [i], [o])
    return m.build([i], [o], 'requantize')


def minmax(code, ttype):
    """MAXIMUM / MINIMUM of the input and its RELU6 in another
    quantization: TFLite 2.2 compares the stored values, no rescale."""
    zi, zr = (128, 3) if ttype == U8 else (0, -100)
    m = Model()
    i = m.tensor('in', [1, 4, 4, 3], ttype, 0.05, zi)
    r = m.tensor('relu6', [1, 4, 4, 3], ttype, 0.03, zr)
    o = m.tensor('out', [1, 4, 4, 3], ttype, 0.05, zi)
    m.op(RELU6, [i], [r])
    m.op(code, [i, r], [o], O_MAXMIN, Table())
    return m.build([i], [o], 'minmax')


def mul_tie_scales():
    """Scales (in, relu6 out, mul out) whose float in * r / out (TFLite
    2.2's MUL multiplier, single precision throughout) is exactly 0.75
    while the double one is just below: products x * y = 2 mod 4 tie."""
    k = 0
    s2 = f32(2.03)
    while True:
        s1 = f32(0.05 + k * 1.1e-7)
        so = f32(f32(s1 * s2) / 0.75)
        mf = quantize_multiplier(f32(f32(s1 * s2) / so))
        md = quantize_multiplier(s1 * s2 / so)
        if mf == (3 << 29, 0) and md[1] == 0 and md[0] < mf[0]:
            return s1, s2, so
        k += 1


def mul(ttype, act):
    """MUL of the input and its RELU6 (values 0..3 steps): TFLite 2.2's
    single-precision multiplier at product ties; act: fused activation."""
    s1, s2, so = mul_tie_scales()
    z1, z2, zo = (128, 0, 128) if ttype == U8 else (0, -128, 0)
    m = Model()
    i = m.tensor('in', [1, 8, 8, 2], ttype, s1, z1)
    r = m.tensor('relu6', [1, 8, 8, 2], ttype, s2, z2)
    o = m.tensor('out', [1, 8, 8, 2], ttype, so, zo)
    m.op(RELU6, [i], [r])
    m.op(MUL, [i, r], [o], O_MUL, Table(f0=('i8', act)))
    return m.build([i], [o], 'mul')


def pad(ttype, shape, pads):
    """PAD with the output zero point (a real 0), then a RELU so the padded
    values go through arithmetic too."""
    z = 100 if ttype == U8 else -7
    out = [d + a + b for d, (a, b) in zip(shape, pads)]
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, z)
    p = m.const('pads', [len(shape), 2], I32, [v for ab in pads for v in ab])
    o = m.tensor('padded', out, ttype, 0.05, z)
    r = m.tensor('out', out, ttype, 0.04, z)
    m.op(PAD, [i, p], [o], O_PAD, Table())
    m.op(RELU, [o], [r])
    return m.build([i], [r], 'pad')


def sub(ttype, s_r, act, s_out, zo):
    """SUB of the input and its RELU6 (another quantization): ADD's
    rescaling, the second input subtracted."""
    zi, zr = (128, 3) if ttype == U8 else (0, -100)
    m = Model()
    i = m.tensor('in', [1, 6, 6, 3], ttype, 0.05, zi)
    r = m.tensor('relu6', [1, 6, 6, 3], ttype, s_r, zr)
    o = m.tensor('out', [1, 6, 6, 3], ttype, s_out, zo)
    m.op(RELU6, [i], [r])
    m.op(SUB, [i, r], [o], O_SUB, Table(f0=('i8', act)))
    return m.build([i], [o], 'sub')


def concat(ttype, axis, s_r, zr, s_out, zo):
    """CONCATENATION of [input, its RELU6, input] along @axis: uint8 inputs
    quantized unlike the output are rescaled in float."""
    zi = 128 if ttype == U8 else 0
    shape = [1, 3, 4, 2]
    ax = axis % 4
    out = list(shape)
    out[ax] *= 3
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, zi)
    r = m.tensor('relu6', shape, ttype, s_r, zr)
    o = m.tensor('out', out, ttype, s_out, zo)
    m.op(RELU6, [i], [r])
    m.op(CONCAT, [i, r, i], [o], O_CONCAT, Table(f0=('i32', axis), f1=('i8', NONE)))
    return m.build([i], [o], 'concat')


def layout(code, ttype, shape, a, b=None):
    """TRANSPOSE (perm @a) or SLICE (begin @a, size @b) of the input, then a
    RELU so the moved values go through arithmetic."""
    z = 128 if ttype == U8 else 0
    if code == TRANSPOSE:
        out = [shape[p] for p in a]
    else:
        out = [d - s if n == -1 else n for d, s, n in zip(shape, a, b)]
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, z)
    pa = m.const('a', [len(shape)], I32, a)
    ins = [i, pa]
    if b is not None:
        ins.append(m.const('b', [len(shape)], I32, b))
    o = m.tensor('moved', out, ttype, 0.05, z)
    r = m.tensor('out', out, ttype, 0.03, z)
    m.op(code, ins, [o])
    m.op(RELU, [o], [r])
    return m.build([i], [r], 'layout')


def const64(m, name, shape, vals):
    """A constant int64 tensor."""
    return m.tensor(name, shape, I64, None, None,
                    list(b''.join(struct.pack('<q', v) for v in vals)))


def split(ttype, shape, axis, n, sizes=None, axis64=False):
    """SPLIT into @n equal parts (SPLIT_V into @sizes, -1 the rest) along
    the constant @axis; every part a model output, the first through a
    RELU."""
    z = 128 if ttype == U8 else -3
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, z)
    ax = const64(m, 'axis', [1], [axis]) if axis64 else m.const('axis', [], I32, [axis])
    a = axis % len(shape)
    if sizes is None:
        parts = [shape[a] // n] * n
    else:
        parts = [shape[a] - sum(v for v in sizes if v >= 0) if v == -1 else v for v in sizes]
    outs = []
    for k, p in enumerate(parts):
        d = list(shape)
        d[a] = p
        outs.append(m.tensor('part%d' % k, d, ttype, 0.05, z))
    if sizes is None:
        m.op(SPLIT, [ax, i], outs, O_SPLIT, Table(f0=('i32', n)))
    else:
        sz = m.const('sizes', [len(sizes)], I32, sizes)
        m.op(SPLIT_V, [i, sz, ax], outs, O_SPLIT_V, Table(f0=('i32', len(sizes))))
    r = m.tensor('relu', m_dims(shape, a, parts[0]), ttype, 0.03, z)
    m.op(RELU, [outs[0]], [r])
    return m.build([i], [r] + outs[1:], 'split')


def m_dims(shape, a, p):
    d = list(shape)
    d[a] = p
    return d


def unpack(ttype, shape, axis):
    """UNPACK along @axis: every slice a model output."""
    z = 100 if ttype == U8 else 7
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, z)
    a = axis % len(shape)
    d = shape[:a] + shape[a + 1:]
    outs = [m.tensor('slice%d' % k, d, ttype, 0.05, z) for k in range(shape[a])]
    m.op(UNPACK, [i], outs, O_UNPACK, Table(f0=('i32', shape[a]), f1=('i32', axis)))
    return m.build([i], outs, 'unpack')


def pack(ttype, shape, axis):
    """PACK of [input, its RELU (same quantization), input] along a new @axis."""
    z = 128 if ttype == U8 else -10
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, z)
    r = m.tensor('relu', shape, ttype, 0.05, z)
    a = axis % (len(shape) + 1)
    o = m.tensor('out', shape[:a] + [3] + shape[a:], ttype, 0.05, z)
    m.op(RELU, [i], [r])
    m.op(PACK, [i, r, i], [o], O_PACK, Table(f0=('i32', 3), f1=('i32', axis)))
    return m.build([i], [o], 'pack')


def argmax(code, ttype, shape, axis, otype, coarse, axis64=False):
    """ARG_MAX / ARG_MIN along @axis to @otype (int32/int64) of the input
    requantized @coarse times coarser first (a RELU), so that equal values
    (ties) are common."""
    z = 128 if ttype == U8 else 0
    m = Model()
    i = m.tensor('in', shape, ttype, 0.01, z)
    r = m.tensor('coarse', shape, ttype, 0.01 * coarse, z)
    ax = const64(m, 'axis', [1], [axis]) if axis64 else m.const('axis', [1], I32, [axis])
    a = axis % len(shape)
    o = m.tensor('index', shape[:a] + shape[a + 1:], otype)
    m.op(RELU, [i], [r])
    m.op(code, [r, ax], [o], O_ARG_MAX if code == ARG_MAX else O_ARG_MIN,
         Table(f0=('i8', otype)))
    return m.build([i], [o], 'argmax')


def gather(ttype, shape, axis, idx, idx_shape, idx64=False):
    """GATHER of the input's RELU by constant indices along @axis."""
    z = 128 if ttype == U8 else 5
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, z)
    r = m.tensor('relu', shape, ttype, 0.03, z)
    ix = const64(m, 'idx', idx_shape, idx) if idx64 else m.const('idx', idx_shape, I32, idx)
    a = axis % len(shape)
    o = m.tensor('out', shape[:a] + idx_shape + shape[a + 1:], ttype, 0.03, z)
    m.op(RELU, [i], [r])
    m.op(GATHER, [r, ix], [o], O_GATHER, Table(f0=('i32', axis)))
    return m.build([i], [o], 'gather')


def space_batch(ttype, shape, block, pads, crops):
    """SPACE_TO_BATCH_ND (@pads: the output zero point), a RELU on the
    batches, BATCH_TO_SPACE_ND (@crops): a dilated convolution's frame.
    The batch-to-space output is a model output, the batches too."""
    z = 100 if ttype == U8 else -20
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, z)
    bk = m.const('block', [2], I32, block)
    pd = m.const('pads', [2, 2], I32, [v for ab in pads for v in ab])
    cr = m.const('crops', [2, 2], I32, [v for ab in crops for v in ab])
    bs = block[0] * block[1]
    h = (shape[1] + pads[0][0] + pads[0][1]) // block[0]
    w = (shape[2] + pads[1][0] + pads[1][1]) // block[1]
    sb = m.tensor('batches', [shape[0] * bs, h, w, shape[3]], ttype, 0.05, z)
    r = m.tensor('relu', [shape[0] * bs, h, w, shape[3]], ttype, 0.04, z + 3)
    o = m.tensor('out', [shape[0], h * block[0] - crops[0][0] - crops[0][1],
                         w * block[1] - crops[1][0] - crops[1][1], shape[3]], ttype, 0.04, z + 3)
    m.op(S2B, [i, bk, pd], [sb], O_S2B, Table())
    m.op(RELU, [sb], [r])
    m.op(B2S, [r, bk, cr], [o], O_B2S, Table())
    return m.build([i], [o, sb], 'space batch')


def tconv(ttype, in_shape, out_shape, k, stride, padding, s_in=0.05, s_out=0.11, seed=7,
          bias=False, wzp=131, out_tensor=None):
    """TRANSPOSE_CONV of @in_shape to the constant @out_shape, a k[0] x k[1]
    filter; uint8: one weight scale and zero point @wzp; int8: one scale
    per output channel (zero points 0). Weights spread over the whole
    byte range, so sums wrap nothing but do saturate the output."""
    oc, ic = out_shape[3], in_shape[3]
    n = oc * k[0] * k[1] * ic
    z_in, z_out = (128, 120) if ttype == U8 else (-3, 4)
    m = Model()
    i = m.tensor('in', in_shape, ttype, s_in, z_in)
    shp = m.const('output_shape', [4], I32, out_shape)
    vals = [(v * 37 + seed * 11) % 256 for v in range(n)]
    if ttype == U8:
        w = m.const('w', [oc, k[0], k[1], ic], U8, vals, 0.007, wzp)
    else:
        w = m.const('w', [oc, k[0], k[1], ic], I8, [v - 128 for v in vals],
                    [0.004 + 0.0013 * c for c in range(oc)], [0] * oc, qdim=0)
    o = m.tensor('out', out_tensor or out_shape, ttype, s_out, z_out)
    ins = [shp, w, i]
    if bias:
        ins.append(m.const('b', [oc], I32, [5] * oc, f32(s_in * 0.007), 0))
    m.op(TCONV, ins, [o], O_TCONV,
         Table(f0=('i8', padding), f1=('i32', stride[1]), f2=('i32', stride[0])))
    return m.build([i], [o], 'transpose conv')


def reduce_(code, ttype, shape, axes, keep, s_in=0.05, zi=None, s_out=None, zo=None):
    """REDUCE_MAX / REDUCE_MIN / SUM over the constant int32 @axes (any,
    negative too); output quantization the input's unless given (SUM then
    takes 2.2's rescaling form)."""
    zi = (100 if ttype == U8 else -20) if zi is None else zi
    s_out = s_in if s_out is None else s_out
    zo = zi if zo is None else zo
    red = {a % len(shape) for a in axes}
    od = [1 if d in red else n for d, n in enumerate(shape) if keep or d not in red]
    m = Model()
    i = m.tensor('in', shape, ttype, s_in, zi)
    ax = m.const('axes', [len(axes)], I32, axes)
    o = m.tensor('out', od, ttype, s_out, zo)
    m.op(code, [i, ax], [o], O_REDUCER, Table(f0=('u8', 1 if keep else 0)))
    return m.build([i], [o], 'reduce')


def prelu(ttype, shape, ashape, alpha_const=True, s_in=0.05, zi=128, s_a=0.01, za=100,
          s_out=0.04, zo=60):
    """PRELU with alpha of @ashape broadcast against @shape: a constant
    (values across the byte range) or a second model input."""
    m = Model()
    i = m.tensor('in', shape, ttype, s_in, zi)
    n = 1
    for d in ashape:
        n *= d
    if alpha_const:
        a = m.const('alpha', ashape, ttype, [(k * 53 + 7) % 256 for k in range(n)], s_a, za)
    else:
        a = m.tensor('alpha', ashape, ttype, s_a, za)
    o = m.tensor('out', shape, ttype, s_out, zo)
    m.op(PRELU, [i, a], [o])
    return m.build([i] if alpha_const else [i, a], [o], 'prelu')


def depth_space(ttype, shape, b1, b2):
    """SPACE_TO_DEPTH by @b1, then DEPTH_TO_SPACE of that by @b2 (another
    block size where the channels allow: not each other's inverse); both
    outputs are model outputs. Output quantization other than the input's:
    2.2 copies the stored values whatever it is."""
    z = 100 if ttype == U8 else -20
    n, h, w, c = shape
    d = [n, h // b1, w // b1, c * b1 * b1]
    o = [n, d[1] * b2, d[2] * b2, d[3] // (b2 * b2)]
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, z)
    t = m.tensor('depth', d, ttype, 0.05, z)
    u = m.tensor('space', o, ttype, 0.07, z + 3)
    m.op(S2D, [i], [t], O_S2D, Table(f0=('i32', b1)))
    m.op(D2S, [t], [u], O_D2S, Table(f0=('i32', b2)))
    return m.build([i], [u, t], 'depth space')


def depth_to_space(ttype, shape, b):
    """DEPTH_TO_SPACE alone, the model input on its depth side."""
    n, h, w, c = shape
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, 0)
    o = m.tensor('out', [n, h * b, w * b, c // (b * b)], ttype, 0.05, 0)
    m.op(D2S, [i], [o], O_D2S, Table(f0=('i32', b)))
    return m.build([i], [o], 'depth to space')


def bilinear(ttype, hw, size, align, half, n=1, c=3):
    """RESIZE_BILINEAR of [n, h, w, c] to @size, then a RELU."""
    z = 128 if ttype == U8 else 0
    out = [n, size[0], size[1], c]
    m = Model()
    i = m.tensor('in', [n, hw[0], hw[1], c], ttype, 0.05, z)
    sz = m.const('size', [2], I32, size)
    o = m.tensor('resized', out, ttype, 0.05, z)
    r = m.tensor('out', out, ttype, 0.03, z)
    m.op(RESIZE_BL, [i, sz], [o], O_RESIZE_BL, Table(f2=('u8', align), f3=('u8', half)))
    m.op(RELU, [o], [r])
    return m.build([i], [o, r], 'resize bilinear')


def gather_argmax_indices(ttype):
    """GATHER whose indices are computed (ARG_MAX's int32 output): the
    rows of the transposed input picked by each row's largest value."""
    z = 128 if ttype == U8 else 0
    m = Model()
    i = m.tensor('in', [4, 6], ttype, 0.05, z)
    ax = m.const('axis', [1], I32, [1])
    idx = m.tensor('argmax', [4], I32)
    perm = m.const('perm', [2], I32, [1, 0])
    tr = m.tensor('transposed', [6, 4], ttype, 0.05, z)
    o = m.tensor('out', [4, 4], ttype, 0.05, z)
    m.op(ARG_MAX, [i, ax], [idx], O_ARG_MAX, Table(f0=('i8', I32)))
    m.op(TRANSPOSE, [i, perm], [tr])
    m.op(GATHER, [tr, idx], [o], O_GATHER, Table(f0=('i32', 0)))
    return m.build([i], [o, idx], 'gather by argmax')


def resize(ttype, hw, size, align, half=0):
    """RESIZE_NEAREST_NEIGHBOR of [1, h, w, 3] to @size, then a RELU. TFLite
    2.2 ignores @align (align_corners) and @half (half_pixel_centers)."""
    z = 128 if ttype == U8 else 0
    out = [1, size[0], size[1], 3]
    m = Model()
    i = m.tensor('in', [1, hw[0], hw[1], 3], ttype, 0.05, z)
    sz = m.const('size', [2], I32, size)
    o = m.tensor('resized', out, ttype, 0.05, z)
    r = m.tensor('out', out, ttype, 0.03, z)
    m.op(RESIZE_NN, [i, sz], [o], O_RESIZE_NN, Table(f0=('u8', align), f1=('u8', half)))
    m.op(RELU, [o], [r])
    return m.build([i], [r], 'resize')


def ss_shape(shape, begin, end, strides, bm, em, sm):
    """The output shape by strided_slice_logic.h's StartForAxis /
    StopForAxis, in Python."""
    out = []
    for k, size in enumerate(shape):
        s = strides[k]
        start = (-2 ** 31 if s > 0 else 2 ** 31 - 1) if bm >> k & 1 else begin[k]
        start = start + size if start < 0 else start
        start = min(max(start, 0), size - 1)
        stop = start + 1 if sm >> k & 1 else end[k]
        if em >> k & 1:
            stop = 2 ** 31 - 1 if s > 0 else -2 ** 31
        stop = stop + size if stop < 0 else stop
        stop = min(max(stop, 0), size) if s > 0 else min(max(stop, -1), size - 1)
        n = len(range(start, stop, s))
        if not sm >> k & 1:
            out.append(n)
    return out


def strided_slice(ttype, shape, begin, end, strides, bm=0, em=0, sm=0):
    """STRIDED_SLICE with constant begin / end / strides and masks, then a
    RELU."""
    z = 128 if ttype == U8 else 0
    out = ss_shape(shape, begin, end, strides, bm, em, sm)
    n = len(shape)
    m = Model()
    i = m.tensor('in', shape, ttype, 0.05, z)
    b = m.const('begin', [n], I32, begin)
    e = m.const('end', [n], I32, end)
    st = m.const('strides', [n], I32, strides)
    o = m.tensor('sliced', out, ttype, 0.05, z)
    r = m.tensor('out', out, ttype, 0.03, z)
    m.op(STRIDED_SLICE, [i, b, e, st], [o], O_STRIDED_SLICE,
         Table(f0=('i32', bm), f1=('i32', em), f2=('i32', 0), f3=('i32', 0),
               f4=('i32', sm)))
    m.op(RELU, [o], [r])
    return m.build([i], [r], 'strided slice')


def broadcast(code, ttype, flat, swap=False, act=NONE):
    """@code (MUL, SUB, MAXIMUM, MINIMUM) of the input [1, 4, 5, 3] and its
    per-channel MEAN ([1, 1, 1, 3], or [3] with @flat), broadcast as
    TFLite's Broadcast*4DSlow; @swap: the mean first."""
    z, zm, zo = (128, 120, 100) if ttype == U8 else (0, -5, 3)
    m = Model()
    i = m.tensor('in', [1, 4, 5, 3], ttype, 0.05, z)
    ax = m.const('axes', [2], I32, [1, 2])
    mean_t = m.tensor('mean', [1, 1, 1, 3], ttype, 0.02, zm)
    m.op(MEAN, [i, ax], [mean_t], O_REDUCER, Table(f0=('u8', 1)))
    other = mean_t
    if flat:
        other = m.tensor('flat', [3], ttype, 0.02, zm)
        m.op(RESHAPE, [mean_t], [other], O_RESHAPE, Table(f0=('ivec', [3])))
    if code in (MAXIMUM, MINIMUM):
        o = m.tensor('out', [1, 4, 5, 3], ttype, 0.05, z)
        opts = (O_MAXMIN, Table())
    else:
        o = m.tensor('out', [1, 4, 5, 3], ttype, 0.06 if code in (SUB, ADD) else 0.01, zo)
        opts = ({MUL: O_MUL, SUB: O_SUB, ADD: O_ADD}[code], Table(f0=('i8', act)))
    ins = [other, i] if swap else [i, other]
    m.op(code, ins, [o], *opts)
    return m.build([i], [o], 'broadcast')


def relu(code, ttype, s_in, zi, s_out, zo):
    """RELU / RELU_N1_TO_1 / RELU6 with their own output quantization:
    TFLite 2.2 rescales (QuantizeMultiplier of in / out) and clamps."""
    m = Model()
    i = m.tensor('in', [1, 6, 5, 4], ttype, s_in, zi)
    o = m.tensor('out', [1, 6, 5, 4], ttype, s_out, zo)
    m.op(code, [i], [o])
    return m.build([i], [o], 'relu')


def unary(code, ttype, s_in, zi, s_out, zo, shape=(1, 16, 16), out_type=None,
          opts=None):
    """One unary operator on a 256-element tensor: test-delegate's --ramp
    input gives it every stored byte value once (every input value of an
    8-bit input; float32 inputs: -8 to 8 in steps of 1/32)."""
    m = Model()
    i = m.tensor('in', list(shape), ttype, s_in, zi)
    o = m.tensor('out', list(shape), ttype if out_type is None else out_type,
                 s_out, zo)
    m.op(code, [i], [o], *(opts or ()))
    return m.build([i], [o], 'unary')


def leaky(s_in, zi, alpha, s_out, zo):
    """uint8 LEAKY_RELU. TFLite 2.2 keeps the first (q_alpha - zp_in) it
    sees in a static for the process: every model here has
    round(alpha / s_in) = 10, so the one test-delegate process gets the
    same from 2.2 whichever runs first."""
    assert round(alpha / s_in) == 10
    return unary(LEAKY_RELU, U8, s_in, zi, s_out, zo,
                 opts=(O_LEAKY_RELU, Table(f0=('f32', alpha))))


def l2norm(ttype, shape, zi, act=NONE):
    zo = 128 if ttype == U8 else 0
    return unary(L2_NORM, ttype, 0.05, zi, 1 / 128, zo, shape=shape,
                 opts=(O_L2NORM, Table(f0=('i8', act))))


def float_chain(ttype, code, s_q, zq, s_out, zo):
    """float32 in -> QUANTIZE -> LOGISTIC/TANH -> DEQUANTIZE -> ABS -> float32
    out: the float32 boundary at both ends of an 8-bit operator."""
    m = Model()
    i = m.tensor('in', [1, 8, 32], F32)
    q = m.tensor('q', [1, 8, 32], ttype, s_q, zq)
    a = m.tensor('act', [1, 8, 32], ttype, s_out, zo)
    d = m.tensor('deq', [1, 8, 32], F32)
    o = m.tensor('out', [1, 8, 32], F32)
    m.op(QUANTIZE, [i], [q])
    m.op(code, [q], [a])
    m.op(DEQUANTIZE, [a], [d])
    m.op(ABS, [d], [o])
    return m.build([i], [o], 'float chain')


def requant_dw_u8():
    s_in, s_w, s_out, p = tie_scales(0.031)
    m = Model()
    i = m.tensor('in', [1, 8, 8, 4], U8, s_in, 127)
    w = m.const('w', [1, 1, 1, 4], U8, [128, 126, 128, 126], s_w, 127)
    b = m.const('b', [4], I32, [0, 0, 1, 2], p, 0)
    o = m.tensor('out', [1, 8, 8, 4], U8, s_out, 128)
    m.op(DW, [i, w, b], [o], O_DW,
         Table(f0=('i8', SAME), f1=('i32', 1), f2=('i32', 1), f3=('i32', 1),
               f4=('i8', NONE)))
    return m.build([i], [o], 'requant depthwise u8')


def requant_fc(ttype):
    s_in, s_w, s_out, p = tie_scales(0.017)
    zx, zw, zo = (128, 140, 128) if ttype == U8 else (0, 0, 0)
    m = Model()
    i = m.tensor('in', [1, 64], ttype, s_in, zx)
    w = m.const('w', [32, 2], ttype, small_weights(64, zw, 2), s_w, zw)
    b = m.const('b', [32], I32, list(range(-16, 16)), p, 0)
    r = m.tensor('in2', [32, 2], ttype, s_in, zx)
    o = m.tensor('out', [32, 32], ttype, s_out, zo)
    m.op(RESHAPE, [i], [r], O_RESHAPE, Table(f0=('ivec', [32, 2])))
    m.op(FC, [r, w, b], [o], O_FC, Table(f0=('i8', NONE)))
    return m.build([i], [o], 'requant fully connected')


def dynamic_reshape_u8():
    """conv (static) -> SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE (dynamic)
    -> FC: the RESHAPE output's size is known only when it runs."""
    m = Model()
    i = m.tensor('in', [1, 4, 4, 2], U8, 0.05, 128)
    w = m.const('w', [3, 1, 1, 2], U8, [120, 130, 128, 140, 110, 129], 0.02, 128)
    b = m.const('b', [3], I32, [10, -20, 30], f32(f32(0.05) * f32(0.02)), 0)
    c = m.tensor('conv', [1, 4, 4, 3], U8, 0.1, 128)
    shp = m.tensor('shape', [4], I32)
    begin = m.const('begin', [1], I32, [0])
    end = m.const('end', [1], I32, [1])
    stride = m.const('stride', [1], I32, [1])
    batch = m.tensor('batch', [], I32)
    minus1 = m.const('minus1', [], I32, [-1])
    newshape = m.tensor('newshape', [2], I32)
    flat = m.tensor('flat', [1, 48], U8, 0.1, 128)
    wf = m.const('wf', [5, 48], U8, small_weights(240, 128, 3), 0.01, 128)
    bf = m.const('bf', [5], I32, [1, 2, 3, 4, 5], f32(f32(0.1) * f32(0.01)), 0)
    o = m.tensor('out', [1, 5], U8, 0.02, 128)
    m.op(CONV, [i, w, b], [c], O_CONV,
         Table(f0=('i8', SAME), f1=('i32', 1), f2=('i32', 1), f3=('i8', NONE)))
    m.op(SHAPE, [c], [shp], O_SHAPE, Table(f0=('i8', I32)))
    m.op(STRIDED_SLICE, [shp, begin, end, stride], [batch], O_STRIDED_SLICE,
         Table(f0=('i32', 0), f1=('i32', 0), f2=('i32', 0), f3=('i32', 0),
               f4=('i32', 1)))
    m.op(PACK, [batch, minus1], [newshape], O_PACK,
         Table(f0=('i32', 2), f1=('i32', 0)))
    m.op(RESHAPE, [c, newshape], [flat], O_RESHAPE, Table())
    m.op(FC, [flat, wf, bf], [o], O_FC, Table(f0=('i8', NONE)))
    return m.build([i], [o], 'dynamic reshape')


MODELS = {
    'requant-conv-u8': requant_conv_u8,
    'requant-conv-i8': requant_conv_i8,
    'requant-depthwise-u8': requant_dw_u8,
    'quantize-u8-i8-tie': lambda: requantize(U8, 128, I8, 0),
    'quantize-i8-i8-tie': lambda: requantize(I8, 3, I8, -2),
    'quantize-i8-u8-tie': lambda: requantize(I8, 0, U8, 128),
    'mul-u8-tie': lambda: mul(U8, NONE),
    'mul-i8-tie': lambda: mul(I8, NONE),
    'mul-u8-relu-tie': lambda: mul(U8, ACT_RELU),
    'mul-i8-relu6-tie': lambda: mul(I8, ACT_RELU6),
    'pad-u8-4d': lambda: pad(U8, [1, 3, 4, 2], [(0, 0), (1, 2), (2, 0), (0, 1)]),
    'pad-i8-4d': lambda: pad(I8, [1, 5, 3, 3], [(0, 0), (2, 2), (1, 1), (0, 0)]),
    'pad-u8-2d': lambda: pad(U8, [4, 6], [(1, 0), (3, 2)]),
    'sub-u8': lambda: sub(U8, 0.03, NONE, 0.06, 128),
    'sub-i8': lambda: sub(I8, 0.07, NONE, 0.05, 5),
    'sub-u8-relu': lambda: sub(U8, 0.1, ACT_RELU, 0.02, 30),
    'sub-i8-relu6': lambda: sub(I8, 0.025, ACT_RELU6, 0.04, -128),
    'concat-u8-axis3-rescale': lambda: concat(U8, 3, 0.03, 3, 0.04, 120),
    'concat-u8-axis1-rescale': lambda: concat(U8, 1, 0.0235, 0, 0.0625, 128),
    'concat-u8-axis-neg2-same': lambda: concat(U8, -2, 0.05, 128, 0.05, 128),
    'concat-i8-axis3': lambda: concat(I8, 3, 0.05, 0, 0.05, 0),
    'transpose-u8-4d': lambda: layout(TRANSPOSE, U8, [1, 3, 4, 5], [0, 3, 1, 2]),
    'transpose-i8-3d': lambda: layout(TRANSPOSE, I8, [2, 3, 4], [2, 0, 1]),
    'transpose-u8-2d': lambda: layout(TRANSPOSE, U8, [6, 7], [1, 0]),
    'slice-u8-4d': lambda: layout(SLICE, U8, [1, 5, 6, 3], [0, 1, 2, 1], [1, 3, -1, 2]),
    'slice-i8-2d': lambda: layout(SLICE, I8, [7, 9], [2, 0], [4, 5]),
    'resize-u8-up2x': lambda: resize(U8, (4, 5), (8, 10), 0),
    'resize-u8-up-odd': lambda: resize(U8, (3, 7), (7, 9), 0),
    'resize-u8-down': lambda: resize(U8, (9, 10), (4, 3), 0),
    'resize-i8-up-odd': lambda: resize(I8, (5, 3), (11, 7), 0),
    'resize-u8-align': lambda: resize(U8, (3, 7), (7, 9), 1),
    'resize-i8-align-down': lambda: resize(I8, (9, 10), (4, 6), 1),
    'resize-u8-half': lambda: resize(U8, (3, 7), (7, 9), 0, 1),
    # 2 -> 82 rows: row 41 is 1 by TFLite's uint8 16.16 fixed point, 0 by
    # the float floor of 41 * (2 / 82); 2.2 takes the fixed point whatever
    # the options say, 2.14 only without them
    'resize-u8-up-fixed': lambda: resize(U8, (2, 3), (82, 5), 0),
    'resize-u8-up-fixed-half': lambda: resize(U8, (2, 3), (82, 5), 0, 1),
    'resize-u8-up-fixed-align': lambda: resize(U8, (2, 3), (82, 5), 1),
    'strided-slice-u8-4d': lambda: strided_slice(U8, [1, 6, 8, 3], [0, 1, -7, 0],
                                                 [1, 6, 8, 3], [1, 2, 3, 1]),
    'strided-slice-i8-negative': lambda: strided_slice(I8, [2, 7, 5], [1, -1, 4],
                                                       [2, 0, -6], [1, -2, -1], em=4),
    'strided-slice-u8-masks-shrink': lambda: strided_slice(U8, [1, 5, 6, 4], [0, 2, 0, 1],
                                                           [1, 0, 0, 3], [1, 1, 2, 1],
                                                           bm=4, em=6, sm=1),
    'strided-slice-i8-shrink-inner': lambda: strided_slice(I8, [3, 4, 5], [0, 1, -2],
                                                           [3, 2, 0], [2, 1, 1], sm=6),
    'bcast-mul-u8-se': lambda: broadcast(MUL, U8, False),
    'bcast-mul-i8-flat-relu6': lambda: broadcast(MUL, I8, True, act=ACT_RELU6),
    'bcast-sub-u8-swapped': lambda: broadcast(SUB, U8, False, swap=True),
    'bcast-sub-i8-flat': lambda: broadcast(SUB, I8, True),
    'bcast-maximum-u8-flat': lambda: broadcast(MAXIMUM, U8, True),
    'bcast-minimum-i8-swapped': lambda: broadcast(MINIMUM, I8, False, swap=True),
    'maximum-u8': lambda: minmax(MAXIMUM, U8),
    'maximum-i8': lambda: minmax(MAXIMUM, I8),
    'minimum-u8': lambda: minmax(MINIMUM, U8),
    'minimum-i8': lambda: minmax(MINIMUM, I8),
    'hard-swish-u8': lambda: relu(HARD_SWISH, U8, 0.05, 128, 0.03, 30),
    'hard-swish-i8': lambda: relu(HARD_SWISH, I8, 0.04, 10, 0.025, -100),
    'hard-swish-u8-wide': lambda: relu(HARD_SWISH, U8, 0.2, 100, 0.15, 20),
    'hard-swish-i8-narrow': lambda: relu(HARD_SWISH, I8, 0.01, -20, 0.005, -60),
    'hard-swish-u8-tiny': lambda: relu(HARD_SWISH, U8, 0.004, 128, 0.003, 50),
    'relu-u8': lambda: relu(RELU, U8, 0.05, 128, 0.03, 10),
    'relu-i8': lambda: relu(RELU, I8, 0.05, 3, 0.0217, -128),
    'relu6-u8': lambda: relu(RELU6, U8, 0.05, 100, 0.0235, 0),
    'relu6-i8': lambda: relu(RELU6, I8, 0.03, -5, 0.0471, -128),
    'relu-n1-to-1-u8': lambda: relu(RELU_N1_TO_1, U8, 0.02, 128, 0.0078, 128),
    'relu-n1-to-1-i8': lambda: relu(RELU_N1_TO_1, I8, 0.02, 0, 0.0078, 0),
    'relu-u8-same': lambda: relu(RELU, U8, 0.05, 128, 0.05, 128),
    'relu-u8-tie': lambda: relu(RELU, U8, *quotient_tie_scales()[:1], 128,
                                quotient_tie_scales()[1], 0),
    'relu6-i8-tie': lambda: relu(RELU6, I8, quotient_tie_scales()[0], 0,
                                 quotient_tie_scales()[1], -128),
    'mean-u8-keepdims': lambda: mean(U8, True, 0.05, 0.03, 128, 100),
    'mean-u8': lambda: mean(U8, False, 0.05, 0.03, 128, 100),
    'mean-i8-keepdims': lambda: mean(I8, True, 0.05, 0.03, 3, -7),
    'mean-i8': lambda: mean(I8, False, 0.05, 0.03, 3, -7),
    'mean-u8-same-scale': lambda: mean(U8, False, 0.05, 0.05, 128, 128),
    'mean-i8-same-scale': lambda: mean(I8, False, 0.05, 0.05, 5, 5),
    'mean-u8-saturate': lambda: mean(U8, False, 0.05, 0.013, 100, 200),
    'mean-i8-saturate': lambda: mean(I8, False, 0.05, 0.013, -10, 20),
    'mean-u8-keepdims-saturate': lambda: mean(U8, True, 0.05, 0.013, 100, 200),
    # zp_in * s_in / s_out = -11.67: TFLite 2.14 rounds it, 2.2's uint8 form truncates
    'mean-i8-keepdims-round': lambda: mean(I8, True, 0.05, 0.03, -7, 4),
    'requant-fc-u8': lambda: requant_fc(U8),
    'requant-fc-i8': lambda: requant_fc(I8),
    'dynamic-reshape-u8': dynamic_reshape_u8,
    'bcast-add-u8-se': lambda: broadcast(ADD, U8, False),
    'bcast-add-i8-flat-relu': lambda: broadcast(ADD, I8, True, act=ACT_RELU),
    'bcast-add-u8-swapped-relu6': lambda: broadcast(ADD, U8, False, swap=True, act=ACT_RELU6),
    'split-u8-axis3': lambda: split(U8, [1, 4, 6, 4], 3, 2),
    'split-i8-axis1-3': lambda: split(I8, [1, 6, 5, 3], 1, 3),
    'split-u8-axis-neg1-64': lambda: split(U8, [2, 3, 8], -1, 4, axis64=True),
    'split-v-u8-axis2': lambda: split(U8, [1, 3, 7, 2], 2, 3, sizes=[2, -1, 1]),
    'split-v-u8-axis0': lambda: split(U8, [5, 4], 0, 2, sizes=[3, 2]),
    'unpack-u8-axis0': lambda: unpack(U8, [3, 4, 5], 0),
    'unpack-i8-axis-neg1': lambda: unpack(I8, [2, 3, 4], -1),
    'unpack-u8-axis1': lambda: unpack(U8, [1, 4, 3, 2], 1),
    'pack-u8-axis0': lambda: pack(U8, [3, 4], 0),
    'pack-i8-axis2': lambda: pack(I8, [2, 3, 4], 2),
    'pack-u8-axis-neg1': lambda: pack(U8, [2, 5], -1),
    'argmax-u8-axis3-i64': lambda: argmax(ARG_MAX, U8, [1, 5, 6, 21], 3, I64, 40),
    'argmax-i8-axis1-i32': lambda: argmax(ARG_MAX, I8, [2, 7, 4], 1, I32, 30),
    'argmax-u8-axis0-i32-axis64': lambda: argmax(ARG_MAX, U8, [9, 8], 0, I32, 50, True),
    'argmin-u8-axis-neg1-i64': lambda: argmax(ARG_MIN, U8, [1, 4, 4, 10], -1, I64, 40),
    'argmin-i8-axis2-i32': lambda: argmax(ARG_MIN, I8, [3, 4, 6], 2, I32, 25),
    'gather-u8-axis0': lambda: gather(U8, [6, 4], 0, [5, 0, 2, 2], [4]),
    'gather-i8-axis1-2d-idx64': lambda: gather(I8, [2, 5, 3], 1, [4, 1, 0, 3, 3, 4], [2, 3],
                                               True),
    'gather-u8-axis-neg1': lambda: gather(U8, [1, 3, 4, 6], -1, [5, 0, 1], [3]),
    'space-batch-u8-pad': lambda: space_batch(U8, [1, 5, 6, 3], [2, 2], [(1, 0), (0, 2)],
                                              [(1, 0), (0, 2)]),
    'space-batch-i8-3x2': lambda: space_batch(I8, [2, 6, 4, 2], [3, 2], [(0, 0), (2, 2)],
                                              [(1, 2), (2, 1)]),
    'space-batch-u8-dilate': lambda: space_batch(U8, [1, 8, 8, 4], [2, 2], [(2, 2), (2, 2)],
                                                 [(2, 2), (2, 2)]),
    'bilinear-u8-up': lambda: bilinear(U8, (4, 5), (9, 11), 0, 0),
    'bilinear-u8-align': lambda: bilinear(U8, (5, 7), (17, 13), 1, 0),
    'bilinear-u8-half': lambda: bilinear(U8, (4, 6), (7, 9), 0, 1),
    'bilinear-u8-down': lambda: bilinear(U8, (9, 10), (4, 3), 0, 0, c=5),
    'bilinear-i8-up': lambda: bilinear(I8, (4, 5), (9, 11), 0, 0),
    'bilinear-i8-align': lambda: bilinear(I8, (5, 7), (17, 13), 1, 0, n=2),
    'bilinear-i8-half': lambda: bilinear(I8, (4, 6), (7, 9), 0, 1),
    # TFLite 2.14's uint8 8x half-pixel special case (ResizeBilinear888Uint8)
    'bilinear-u8-half8': lambda: bilinear(U8, (2, 3), (16, 24), 0, 1, c=8),
    'gather-u8-argmax-indices': lambda: gather_argmax_indices(U8),
    'gather-i8-argmax-indices': lambda: gather_argmax_indices(I8),
    'logistic-u8': lambda: unary(LOGISTIC, U8, 0.05, 128, 1 / 256, 0),
    'logistic-u8-wide': lambda: unary(LOGISTIC, U8, 0.1, 30, 1 / 256, 0),
    'logistic-u8-zp': lambda: unary(LOGISTIC, U8, 0.02, 200, 1 / 256, 10),
    'logistic-i8': lambda: unary(LOGISTIC, I8, 0.05, 0, 1 / 256, -128),
    'logistic-i8-wide': lambda: unary(LOGISTIC, I8, 0.125, -50, 1 / 256, -128),
    'logistic-i8-fine': lambda: unary(LOGISTIC, I8, 0.0123, 100, 1 / 256, -128),
    'tanh-u8': lambda: unary(TANH, U8, 0.05, 128, 1 / 128, 128),
    'tanh-u8-other': lambda: unary(TANH, U8, 0.02, 60, 0.01, 100),
    'tanh-i8': lambda: unary(TANH, I8, 0.04, 0, 1 / 128, 0),
    'tanh-i8-other': lambda: unary(TANH, I8, 0.1, -20, 0.008, 5),
    'leaky-relu-u8': lambda: leaky(0.02, 128, 0.2, 0.015, 100),
    'leaky-relu-u8-b': lambda: leaky(0.01, 60, 0.1, 0.012, 30),
    'leaky-relu-u8-c': lambda: leaky(0.03, 200, 0.3, 0.05, 180),
    'l2norm-u8': lambda: l2norm(U8, [1, 4, 4, 16], 128),
    'l2norm-u8-depth1': lambda: l2norm(U8, [1, 256, 1], 100),
    'l2norm-i8': lambda: l2norm(I8, [1, 8, 32], -3),
    'l2norm-i8-depth1': lambda: l2norm(I8, [256, 1], 0),
    'dequantize-u8': lambda: unary(DEQUANTIZE, U8, 0.05, 128, None, None, out_type=F32),
    'dequantize-i8': lambda: unary(DEQUANTIZE, I8, 0.0123, -7, None, None, out_type=F32),
    'quantize-f32-u8-tie': lambda: unary(QUANTIZE, F32, None, None, 0.125, 100, out_type=U8),
    'quantize-f32-u8': lambda: unary(QUANTIZE, F32, None, None, 0.03, 0, out_type=U8),
    'quantize-f32-i8-tie': lambda: unary(QUANTIZE, F32, None, None, 0.125, -10, out_type=I8),
    'quantize-f32-i8': lambda: unary(QUANTIZE, F32, None, None, 0.0173, 3, out_type=I8),
    'abs-f32': lambda: unary(ABS, F32, None, None, None, None),
    'tconv-u8-same-s2': lambda: tconv(U8, [1, 4, 5, 3], [1, 8, 10, 4], (3, 3), (2, 2), SAME),
    'tconv-u8-valid-s2': lambda: tconv(U8, [1, 4, 4, 2], [1, 9, 9, 3], (3, 3), (2, 2), VALID),
    'tconv-u8-same-s1-odd': lambda: tconv(U8, [1, 5, 7, 4], [1, 5, 7, 2], (3, 2), (1, 1), SAME,
                                          s_out=0.3, wzp=0),
    'tconv-u8-same-s3x2': lambda: tconv(U8, [2, 3, 4, 2], [2, 9, 7, 3], (4, 3), (3, 2), SAME),
    'tconv-i8-same-s2': lambda: tconv(I8, [1, 4, 5, 3], [1, 8, 10, 4], (3, 3), (2, 2), SAME),
    'tconv-i8-valid-s2': lambda: tconv(I8, [1, 3, 3, 5], [1, 8, 8, 6], (4, 4), (2, 2), VALID,
                                       s_out=0.2),
    'tconv-i8-same-s1': lambda: tconv(I8, [1, 6, 6, 2], [1, 6, 6, 3], (3, 3), (1, 1), SAME),
    'tconv-i8-batch2-s2': lambda: tconv(I8, [2, 3, 4, 3], [2, 6, 8, 2], (3, 3), (2, 2), SAME),
    'tconv-u8-decoder': lambda: tconv(U8, [1, 8, 8, 16], [1, 16, 16, 8], (3, 3), (2, 2), SAME,
                                      s_in=0.02, s_out=0.15),
    'tconv-i8-decoder-4x4': lambda: tconv(I8, [1, 7, 6, 12], [1, 14, 12, 16], (4, 4), (2, 2),
                                          SAME, s_in=0.03, s_out=0.25),
    'reduce-max-u8-axes12-keep': lambda: reduce_(REDUCE_MAX, U8, [1, 5, 6, 4], [1, 2], True),
    'reduce-max-i8-axis-neg1': lambda: reduce_(REDUCE_MAX, I8, [2, 3, 7], [-1], False),
    'reduce-max-u8-all': lambda: reduce_(REDUCE_MAX, U8, [3, 4, 5], [0, 1, 2], False),
    'reduce-min-u8-axis0': lambda: reduce_(REDUCE_MIN, U8, [4, 3, 5], [0], True),
    'reduce-min-i8-axes-dup': lambda: reduce_(REDUCE_MIN, I8, [1, 4, 3, 6], [3, 1, -1], False),
    'sum-u8-same': lambda: reduce_(SUM, U8, [1, 4, 5, 3], [1, 2], True),
    'sum-i8-same': lambda: reduce_(SUM, I8, [2, 3, 4], [1], False),
    'sum-u8-rescale': lambda: reduce_(SUM, U8, [1, 4, 5, 3], [1, 2], False, 0.01, 128, 0.2, 10),
    'sum-i8-rescale-keep': lambda: reduce_(SUM, I8, [1, 3, 4, 6], [-1], True, 0.02, -5, 0.1, -100),
    'sum-u8-rescale-wrap': lambda: reduce_(SUM, U8, [2, 6, 8], [1, 2], False, 0.05, 20, 0.01, 0),
    'sum-i8-rescale-axis0': lambda: reduce_(SUM, I8, [5, 7], [0], False, 0.03, 3, 0.05, 7),
    'prelu-u8-channel': lambda: prelu(U8, [1, 4, 5, 6], [1, 1, 6]),
    'prelu-u8-full': lambda: prelu(U8, [1, 4, 4, 3], [1, 4, 4, 3], s_in=0.1, zi=90, s_a=0.004,
                                   za=0, s_out=0.05, zo=128),
    'prelu-u8-input-alpha': lambda: prelu(U8, [1, 3, 4, 5], [5], alpha_const=False),
    'prelu-u8-ramp': lambda: prelu(U8, [1, 16, 16], [16], s_in=0.02, zi=150, s_a=0.02, za=120,
                                   s_out=0.03, zo=100),
    'log-softmax-u8': lambda: unary(LOG_SOFTMAX, U8, 0.05, 128, 16 / 256, 255),
    'log-softmax-u8-wide': lambda: unary(LOG_SOFTMAX, U8, 0.25, 30, 16 / 256, 255,
                                         shape=(4, 64)),
    'log-softmax-u8-fine': lambda: unary(LOG_SOFTMAX, U8, 0.004, 200, 16 / 256, 255,
                                         shape=(1, 2, 4, 32)),
    'log-softmax-i8': lambda: unary(LOG_SOFTMAX, I8, 0.05, 0, 16 / 256, 127),
    'log-softmax-i8-wide': lambda: unary(LOG_SOFTMAX, I8, 0.3, -20, 16 / 256, 127,
                                         shape=(16, 16)),
    'log-softmax-i8-row1000': lambda: unary(LOG_SOFTMAX, I8, 0.1, 5, 16 / 256, 127,
                                            shape=(2, 1000)),
    'space-depth-u8-3-2': lambda: depth_space(U8, [1, 6, 6, 4], 3, 2),
    'space-depth-i8-2-2': lambda: depth_space(I8, [2, 4, 8, 3], 2, 2),
    'space-depth-u8-1-1': lambda: depth_space(U8, [1, 3, 5, 2], 1, 1),
    'depth-to-space-i8-3': lambda: depth_to_space(I8, [1, 3, 5, 18], 3),
    'depth-to-space-u8-2': lambda: depth_to_space(U8, [2, 4, 3, 8], 2),
    'float-chain-u8-logistic': lambda: float_chain(U8, LOGISTIC, 0.05, 128, 1 / 256, 0),
    'float-chain-i8-tanh': lambda: float_chain(I8, TANH, 0.04, 3, 1 / 128, 0),
}

# What e1npu-tflite report must say (check-tflite-models): where a host
# operator runs and why, for built models above.
PLACES = {
    'float-chain-u8-logistic': ['quantized on the host, e1 has no float datapath',
                                "TFLite 2.2's 256-entry table, looked up on the host",
                                'dequantized on the host, e1 has no float datapath',
                                'float32 absolute value on the host'],
    'tconv-u8-same-s3x2': ["transposed convolution of batch > 1 (e1's lowering takes 1)"],
    'tconv-i8-same-s2': ['systolic engine'],
    'space-depth-i8-2-2': ['layout only: block-to-channel copies on the host'],
    'reduce-min-u8-axis0': ['max/min of the stored values over the axes'],
    'sum-i8-rescale-keep': ["sum over the axes, TFLite 2.2's QuantizedMeanOrSum on the host"],
    'prelu-u8-channel': ["parametric ReLU with broadcast alpha, TFLite 2.2's uint8 kernel"],
    'log-softmax-i8': ["log-softmax in TFLite 2.2's gemmlowp fixed point on the host"],
    'leaky-relu-u8': ["integer leaky ReLU as a 256-entry table on the host"],
    'l2norm-i8': ["integer inverse square root on the host, no hardware form"],
}

# Models libe1npu refuses (and TFLite 2.2 too): check-tflite-models loads
# each with e1npu-tflite report and wants the reason's words in its output.
REFUSED = {
    'refused-logistic-u8-scale': (lambda: unary(LOGISTIC, U8, 0.05, 128, 1 / 128, 0),
                                  'TFLite 2.2 requires exactly 1/256'),
    'refused-leaky-relu-i8': (lambda: unary(LEAKY_RELU, I8, 0.02, 0, 0.015, 0,
                                            opts=(O_LEAKY_RELU, Table(f0=('f32', 0.2)))),
                              'TFLite 2.2 runs LEAKY_RELU on uint8 and float32 only'),
    'refused-leaky-relu-u8-scale': (lambda: unary(LEAKY_RELU, U8, 0.5, 0, 0.1, 0,
                                                  opts=(O_LEAKY_RELU, Table(f0=('f32', 0.2)))),
                                    'squared over output scale 0.1 is not below 1'),
    'refused-l2norm-u8-zp': (lambda: unary(L2_NORM, U8, 0.05, 128, 1 / 128, 127,
                                           opts=(O_L2NORM, Table(f0=('i8', NONE)))),
                             'requires scale 1/128 (0.0078125), zero point 128'),
    'refused-l2norm-i8-relu': (lambda: l2norm(I8, [1, 4, 8], 0, act=ACT_RELU),
                               'fused activation 1: TFLite 2.2 takes none'),
    'refused-space-to-depth-u8-uneven': (
        lambda: unary(S2D, U8, 0.05, 128, 0.05, 128, shape=(1, 4, 6, 2),
                      opts=(O_S2D, Table(f0=('i32', 3)))),
        'block_size 3 does not fit input 1x4x6x2'),
    'refused-depth-to-space-i8-zero': (
        lambda: unary(D2S, I8, 0.05, 0, 0.05, 0, shape=(1, 2, 2, 4),
                      opts=(O_D2S, Table(f0=('i32', 0)))),
        'block_size 0 does not fit input 1x2x2x4'),
    'refused-tconv-u8-bias': (
        lambda: tconv(U8, [1, 4, 5, 3], [1, 8, 10, 4], (3, 3), (2, 2), SAME, bias=True),
        "a bias input: TFLite 2.2's TRANSPOSE_CONV takes none"),
    'refused-tconv-i8-stride0': (
        lambda: tconv(I8, [1, 4, 5, 3], [1, 8, 10, 4], (3, 3), (0, 2), SAME),
        'stride 0x2, padding 0'),
    'refused-tconv-u8-shape': (
        lambda: tconv(U8, [1, 4, 5, 3], [1, 8, 10, 4], (3, 3), (2, 2), SAME,
                      out_tensor=[1, 8, 9, 4]),
        'output_shape 1,8,10,4 is not the output\'s 1,8,9,4'),
    'refused-prelu-i8': (
        lambda: prelu(I8, [1, 4, 5, 6], [1, 1, 6], zi=0, za=0, zo=0),
        'input type int8: TFLite 2.2 runs PRELU on float32 and uint8 only'),
    'refused-prelu-u8-scale': (
        lambda: prelu(U8, [1, 4, 5, 6], [6], s_in=0.5, s_a=0.5, s_out=0.1),
        'input scale 0.5 x alpha scale 0.5 / output scale 0.1 is not below 1'),
    'refused-sum-u8-axis': (
        lambda: reduce_(SUM, U8, [2, 3, 4], [1, 3], False, s_out=0.1),
        'axis 3 of a rank 3 tensor'),
    'refused-reduce-max-i8-axis': (
        lambda: reduce_(REDUCE_MAX, I8, [2, 3, 4], [-4], True),
        'axis -4 of a rank 3 tensor'),
    'refused-log-softmax-u8-zp': (
        lambda: unary(LOG_SOFTMAX, U8, 0.05, 128, 16 / 256, 127),
        'output scale 0.0625, zero point 127: TFLite 2.2 requires 16/256 (0.0625), 255'),
    'refused-log-softmax-i8-scale': (
        lambda: unary(LOG_SOFTMAX, I8, 0.05, 0, 1 / 16.5, 127),
        'TFLite 2.2 requires 16/256 (0.0625), 127'),
    'refused-abs-u8': (lambda: unary(ABS, U8, 0.05, 128, 0.05, 128),
                       'TFLite 2.2 runs ABS on float32 only'),
    'refused-dequantize-f32': (lambda: unary(DEQUANTIZE, F32, None, None, None, None),
                               'float32 -> float32 (handled: uint8/int8 -> float32)'),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, fn in MODELS.items():
        with open(os.path.join(out, name + '.tflite'), 'wb') as f:
            f.write(fn())
    refused = os.path.join(out, 'refused')
    os.makedirs(refused, exist_ok=True)
    with open(os.path.join(refused, 'expect.txt'), 'w') as e:
        for name, (fn, why) in REFUSED.items():
            with open(os.path.join(refused, name + '.tflite'), 'wb') as f:
                f.write(fn())
            e.write('%s|%s\n' % (name, why))
        for name, whys in PLACES.items():
            for why in whys:
                e.write('../%s|%s\n' % (name, why))


if __name__ == '__main__':
    main()
