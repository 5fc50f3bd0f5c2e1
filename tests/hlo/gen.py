#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the generated StableHLO tests of tests/hlo (gen-*.mlir).

Inputs are drawn from a fixed-seed generator; expected values are computed
here with plain Python integers (and float32 emulated through struct for
the quantized float decomposition), independently of the importer. Run
`tests/hlo/gen.py --check` to verify the committed files are its output.
"""
import random
import struct
import sys
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def shape_elems(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def strides(shape):
    s, out = 1, [0] * len(shape)
    for i in range(len(shape) - 1, -1, -1):
        out[i] = s
        s *= shape[i]
    return out


def unravel(shape, lin):
    idx = [0] * len(shape)
    for i in range(len(shape) - 1, -1, -1):
        idx[i] = lin % shape[i]
        lin //= shape[i]
    return idx


def nested(flat, shape):
    if not shape:
        return str(flat[0])
    if len(shape) == 1:
        return '[' + ', '.join(str(v) for v in flat) + ']'
    step = shape_elems(shape[1:])
    return '[' + ', '.join(nested(flat[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + ']'


def ttype(shape, et):
    return 'tensor<' + ''.join('%dx' % d for d in shape) + et + '>'


def dense(flat, shape, et):
    return 'dense<%s> : %s' % (nested(flat, shape), ttype(shape, et))


def wrap(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def dot_general(lhs, lshape, rhs, rshape, lb, rb, lc, rc):
    lf = [d for d in range(len(lshape)) if d not in lb and d not in lc]
    rf = [d for d in range(len(rshape)) if d not in rb and d not in rc]
    oshape = [lshape[d] for d in lb] + [lshape[d] for d in lf] + [rshape[d] for d in rf]
    ls, rs = strides(lshape), strides(rshape)
    cshape = [lshape[d] for d in lc]
    out = []
    for o in range(shape_elems(oshape)):
        oi = unravel(oshape, o)
        lo = sum(oi[i] * ls[lb[i]] for i in range(len(lb)))
        ro = sum(oi[i] * rs[rb[i]] for i in range(len(rb)))
        lo += sum(oi[len(lb) + i] * ls[lf[i]] for i in range(len(lf)))
        ro += sum(oi[len(lb) + len(lf) + i] * rs[rf[i]] for i in range(len(rf)))
        acc = 0
        for c in range(shape_elems(cshape)):
            ci = unravel(cshape, c)
            acc += lhs[lo + sum(ci[i] * ls[lc[i]] for i in range(len(lc)))] * \
                rhs[ro + sum(ci[i] * rs[rc[i]] for i in range(len(rc)))]
        out.append(acc)
    return out, oshape


def conv(lhs, lshape, rhs, rshape, dn, stride, pad, ldil, rdil, fgc=1, bgc=1):
    """dn: (lhs b, f, spatial...), (rhs i, o, spatial...), (out b, f, spatial...)."""
    (lb, lf, lsp), (ri, ro, rsp), (ob, of, osp) = dn
    ns = len(lsp)
    ins = [lshape[d] for d in lsp]
    ks = [rshape[d] for d in rsp]
    outs = []
    for s in range(ns):
        din = (ins[s] - 1) * ldil[s] + 1
        padded = din + pad[s][0] + pad[s][1]
        dk = (ks[s] - 1) * rdil[s] + 1
        outs.append((padded - dk) // stride[s] + 1)
    n, ifeat = lshape[lb], lshape[lf]
    rin, rout = rshape[ri], rshape[ro]
    oshape = [0] * (ns + 2)
    oshape[ob], oshape[of] = n // bgc, rout
    for s in range(ns):
        oshape[osp[s]] = outs[s]
    ofg = rout // (fgc * bgc)
    ls, rs, os_ = strides(lshape), strides(rshape), strides(oshape)
    out = [0] * shape_elems(oshape)
    for b in range(n // bgc):
        for oc in range(rout):
            grp = oc // ofg
            lbatch = grp * (n // bgc) + b if bgc > 1 else b
            if0 = grp * rin if fgc > 1 else 0
            for p in range(shape_elems(outs)):
                op_ = unravel(outs, p)
                acc = 0
                for w in range(shape_elems(ks)):
                    wi = unravel(ks, w)
                    src = lbatch * ls[lb]
                    ok = True
                    for s in range(ns):
                        x = op_[s] * stride[s] + wi[s] * rdil[s] - pad[s][0]
                        if x < 0 or x % ldil[s] or x // ldil[s] >= ins[s]:
                            ok = False
                            break
                        src += (x // ldil[s]) * ls[lsp[s]]
                    if not ok:
                        continue
                    for ic in range(rin):
                        ko = oc * rs[ro] + ic * rs[ri] + sum(wi[s] * rs[rsp[s]] for s in range(ns))
                        acc += lhs[src + (if0 + ic) * ls[lf]] * rhs[ko]
                dst = b * os_[ob] + oc * os_[of] + sum(op_[s] * os_[osp[s]] for s in range(ns))
                out[dst] = acc
    return out, oshape


def rnd(rng, n, lo, hi):
    return [rng.randint(lo, hi) for _ in range(n)]


def section(name, body):
    return 'func.func @%s() {\n%s  func.return\n}\n' % (name, body)


def dot_sec(rng, name, lshape, rshape, lb, rb, lc, rc, et='i8', rt='i32', bits=8,
            lo=-128, hi=127, via_convert=False, pretty=True):
    lhs = rnd(rng, shape_elems(lshape), lo, hi)
    rhs = rnd(rng, shape_elems(rshape), lo, hi)
    out, oshape = dot_general(lhs, lshape, rhs, rshape, lb, rb, lc, rc)
    rbits = int(rt[1:])
    out = [wrap(v, rbits) for v in out]
    b = '  %%lhs = stablehlo.constant %s\n' % dense(lhs, lshape, et)
    b += '  %%rhs = stablehlo.constant %s\n' % dense(rhs, rshape, et)
    a, c = '%lhs', '%rhs'
    lt, rt_ = ttype(lshape, et), ttype(rshape, et)
    if via_convert:
        b += '  %%lw = stablehlo.convert %%lhs : (%s) -> %s\n' % (lt, ttype(lshape, rt))
        b += '  %%rw = stablehlo.convert %%rhs : (%s) -> %s\n' % (rt_, ttype(rshape, rt))
        a, c = '%lw', '%rw'
        lt, rt_ = ttype(lshape, rt), ttype(rshape, rt)
    ot = ttype(oshape, rt)
    if pretty:
        b += ('  %%r = stablehlo.dot_general %s, %s, batching_dims = [%s] x [%s], '
              'contracting_dims = [%s] x [%s], precision = [DEFAULT, DEFAULT] : (%s, %s) -> %s\n') % (
            a, c, ', '.join(map(str, lb)), ', '.join(map(str, rb)),
            ', '.join(map(str, lc)), ', '.join(map(str, rc)), lt, rt_, ot)
    else:
        b += ('  %%r = "stablehlo.dot_general"(%s, %s) {dot_dimension_numbers = #stablehlo.dot<'
              'lhs_batching_dimensions = [%s], rhs_batching_dimensions = [%s], '
              'lhs_contracting_dimensions = [%s], rhs_contracting_dimensions = [%s]>} : (%s, %s) -> %s\n') % (
            a, c, ', '.join(map(str, lb)), ', '.join(map(str, rb)),
            ', '.join(map(str, lc)), ', '.join(map(str, rc)), lt, rt_, ot)
    b += '  check.expect_eq_const %%r, %s\n' % dense(out, oshape, rt)
    return section(name, b)


def gen_dot(rng):
    s = ['// RUN: e1npu-hlo run %s\n// Generated by tests/hlo/gen.py: int8/int4 dot_general and dot,\n'
         '// every one on the NPU (E1-NPU counts them).\n// E1-NPU: 9\n']
    s.append(dot_sec(rng, 'dot_general_i8_2d', [5, 7], [7, 6], [], [], [1], [0]))
    s.append(dot_sec(rng, 'dot_general_i8_batch', [2, 3, 4], [2, 4, 5], [0], [0], [2], [1]))
    s.append(dot_sec(rng, 'dot_general_i8_transposed_generic', [4, 3], [5, 4], [], [], [0], [1],
                     pretty=False))
    s.append(dot_sec(rng, 'dot_general_i8_convert_i32', [3, 9], [9, 4], [], [], [1], [0],
                     via_convert=True))
    s.append(dot_sec(rng, 'dot_general_i4', [4, 6], [6, 3], [], [], [1], [0], et='i4',
                     bits=4, lo=-8, hi=7))
    s.append(dot_sec(rng, 'dot_general_i2', [3, 20], [20, 2], [], [], [1], [0], et='i2',
                     bits=2, lo=-2, hi=1))
    s.append(dot_sec(rng, 'dot_general_i8_systolic', [20, 24], [24, 32], [], [], [1], [0]))
    s.append(dot_sec(rng, 'dot_general_i8_to_i16_wraps', [3, 40], [40, 2], [], [], [1], [0],
                     rt='i16'))
    lhs = rnd(rng, 12, -128, 127)
    rhs = rnd(rng, 8, -128, 127)
    out, _ = dot_general(lhs, [3, 4], rhs, [4, 2], [], [], [1], [0])
    b = '  %%a = stablehlo.constant %s\n' % dense(lhs, [3, 4], 'i8')
    b += '  %%b = stablehlo.constant %s\n' % dense(rhs, [4, 2], 'i8')
    b += '  %r = stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : (tensor<3x4xi8>, tensor<4x2xi8>) -> tensor<3x2xi32>\n'
    b += '  check.expect_eq_const %%r, %s\n' % dense(out, [3, 2], 'i32')
    s.append(section('dot_i8', b))
    return '\n// -----\n\n'.join(s)


def gen_dot_cpu(rng):
    s = ['// RUN: e1npu-hlo run %s\n// Generated by tests/hlo/gen.py: dots the NPU has no form for run on\n'
         '// the CPU references (E1-NPU: 0).\n// E1-NPU: 0\n']
    s.append(dot_sec(rng, 'dot_general_i64', [3, 4], [4, 2], [], [], [1], [0], et='i64',
                     rt='i64', bits=64, lo=-(1 << 40), hi=1 << 40))
    s.append(dot_sec(rng, 'dot_general_i16_batch', [2, 2, 3], [2, 3, 2], [0], [0], [2], [1],
                     et='i16', rt='i32', bits=16, lo=-3000, hi=3000))
    # float: small integers and halves are exact in f32
    lhs = [rng.randint(-8, 8) / 2 for _ in range(6)]
    rhs = [rng.randint(-8, 8) / 4 for _ in range(6)]
    out, _ = dot_general(lhs, [2, 3], rhs, [3, 2], [], [], [1], [0])
    b = '  %%a = stablehlo.constant %s\n' % dense(lhs, [2, 3], 'f32')
    b += '  %%b = stablehlo.constant %s\n' % dense(rhs, [3, 2], 'f32')
    b += '  %r = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>\n'
    b += '  check.expect_almost_eq_const %%r, %s\n' % dense(out, [2, 2], 'f32')
    s.append(section('dot_f32', b))
    return '\n// -----\n\n'.join(s)


NHWC = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2]))
NCHW = ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))


def dn_str(dn):
    (lb, lf, lsp), (ri, ro, rsp), (ob, of, osp) = dn

    def one(rank, b, f, sp, bn, fn):
        t = [''] * rank
        t[b], t[f] = bn, fn
        for i, d in enumerate(sp):
            t[d] = str(i)
        return '[' + ', '.join(t) + ']'
    r = 2 + len(lsp)
    return '%sx%s->%s' % (one(r, lb, lf, lsp, 'b', 'f'), one(r, ri, ro, rsp, 'i', 'o'),
                          one(r, ob, of, osp, 'b', 'f'))


def conv_sec(rng, name, lshape, rshape, dn=NHWC, stride=(1, 1), pad=((0, 0), (0, 0)),
             ldil=(1, 1), rdil=(1, 1), fgc=1, bgc=1, et='i8', rt='i32', lo=-128, hi=127,
             generic=False):
    lhs = rnd(rng, shape_elems(lshape), lo, hi)
    rhs = rnd(rng, shape_elems(rshape), lo, hi)
    out, oshape = conv(lhs, lshape, rhs, rshape, dn, stride, pad, ldil, rdil, fgc, bgc)
    b = '  %%lhs = stablehlo.constant %s\n' % dense(lhs, lshape, et)
    b += '  %%rhs = stablehlo.constant %s\n' % dense(rhs, rshape, et)
    sig = '(%s, %s) -> %s' % (ttype(lshape, et), ttype(rshape, et), ttype(oshape, rt))
    if generic:
        b += ('  %%r = "stablehlo.convolution"(%%lhs, %%rhs) {batch_group_count = %d : i64, '
              'dimension_numbers = #stablehlo.conv<%s>, feature_group_count = %d : i64, '
              'lhs_dilation = array<i64: %s>, padding = dense<%s> : tensor<2x2xi64>, '
              'rhs_dilation = array<i64: %s>, window_strides = array<i64: %s>} : %s\n') % (
            bgc, dn_str(dn), fgc, ', '.join(map(str, ldil)),
            '[' + ', '.join('[%d, %d]' % p for p in pad) + ']', ', '.join(map(str, rdil)),
            ', '.join(map(str, stride)), sig)
    else:
        b += ('  %%r = stablehlo.convolution(%%lhs, %%rhs)\n    dim_numbers = %s,\n'
              '    window = {stride = [%s], pad = [%s], lhs_dilate = [%s], rhs_dilate = [%s]}\n'
              '    {batch_group_count = %d : i64, feature_group_count = %d : i64,\n'
              '     precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}\n'
              '    : %s\n') % (
            dn_str(dn), ', '.join(map(str, stride)),
            ', '.join('[%d, %d]' % p for p in pad), ', '.join(map(str, ldil)),
            ', '.join(map(str, rdil)), bgc, fgc, sig)
    b += '  check.expect_eq_const %%r, %s\n' % dense(out, oshape, rt)
    return section(name, b)


def gen_conv(rng):
    s = ['// RUN: e1npu-hlo run %s\n// Generated by tests/hlo/gen.py: int8 convolutions (im2col onto the\n'
         '// NPU GEMM) with every window attribute and group form.\n// E1-NPU: 7\n']
    s.append(conv_sec(rng, 'conv_i8_nhwc_same', [1, 5, 5, 2], [3, 3, 2, 3],
                      pad=((1, 1), (1, 1))))
    s.append(conv_sec(rng, 'conv_i8_stride2_rhs_dilate', [2, 7, 6, 3], [2, 2, 3, 4],
                      stride=(2, 2), rdil=(2, 1)))
    s.append(conv_sec(rng, 'conv_i8_lhs_dilate_pad', [1, 3, 3, 1], [2, 2, 1, 2],
                      ldil=(2, 2), pad=((1, 0), (0, 1))))
    s.append(conv_sec(rng, 'conv_i8_depthwise', [1, 4, 4, 4], [3, 3, 1, 4],
                      pad=((1, 1), (1, 1)), fgc=4))
    s.append(conv_sec(rng, 'conv_i8_batch_groups', [4, 3, 3, 2], [2, 2, 2, 4], bgc=2))
    s.append(conv_sec(rng, 'conv_i8_nchw_generic', [1, 2, 4, 5], [3, 2, 3, 3], dn=NCHW,
                      pad=((0, 0), (1, 1)), generic=True))
    s.append(conv_sec(rng, 'conv_i8_grouped_1d', [1, 6, 4], [3, 2, 4],
                      dn=((0, 2, [1]), (1, 2, [0]), (0, 2, [1])), stride=(1,), pad=((1, 1),),
                      ldil=(1,), rdil=(1,), fgc=2))
    return '\n// -----\n\n'.join(s)


def gen_conv_cpu(rng):
    s = ['// RUN: e1npu-hlo run %s\n// Generated by tests/hlo/gen.py: convolutions on the CPU references.\n'
         '// E1-NPU: 0\n']
    s.append(conv_sec(rng, 'conv_i32', [1, 4, 4, 2], [3, 3, 2, 2], pad=((1, 1), (1, 1)),
                      et='i32', rt='i32', lo=-1000, hi=1000))
    s.append(conv_sec(rng, 'conv_i16_strided', [1, 6, 6, 1], [3, 3, 1, 2], stride=(2, 2),
                      et='i16', rt='i16', lo=-100, hi=100))
    return '\n// -----\n\n'.join(s)


# ----- quantized: StableHLO's float decomposition in f32 -----

def q_dequant(q, scale, zp):
    return f32(f32(float(q - zp)) * f32(scale))


def q_quant(x, scale, zp, qmin, qmax):
    s = f32(f32(x) / f32(scale))
    s = f32(s + zp)
    r = round(s)  # Python rounds half to even
    return max(qmin, min(qmax, int(r)))


def qtype(shape, storage, scale, zp):
    return ttype(shape, '!quant.uniform<%s:f32, %s:%d>' % (storage, repr(scale), zp))


def gen_quant(rng, tol_case):
    """dot_general and convolution on i8 quantized types, then a requantizing
    uniform_quantize. Scales are powers of two, so the f32 decomposition is
    exact except for the rounding of ties, where StableHLO rounds half to
    even and the NPU's fixed-point multiplier half away from zero."""
    s = []
    if tol_case:
        s.append('// RUN: e1npu-hlo run --quant-tolerance=1 %s\n'
                 '// Generated by tests/hlo/gen.py: quantized dot/conv whose requantization\n'
                 '// hits ties: the NPU result differs by 1 LSB from the float decomposition.\n'
                 '// E1-ARGS: --quant-tolerance=1\n// E1-NPU: 2\n// E1-LSB: 1\n')
    else:
        s.append('// RUN: e1npu-hlo run %s\n// Generated by tests/hlo/gen.py: quantized types, exact.\n'
                 '// E1-NPU: 3\n')
    sa, za, sb, zb = 0.5, 3, 0.25, 0
    # dot_general q8 x q8 -> q32 (scale sa*sb) -> uniform_quantize q8
    # small values: the requantized results stay inside int8 (no saturation)
    m, k, n = 3, 5, 4
    lhs = rnd(rng, m * k, -6, 12)
    rhs = rnd(rng, k * n, -5, 5)
    acc = dot_general([q - za for q in lhs], [m, k], [q - zb for q in rhs], [k, n], [], [], [1], [0])[0]
    s32 = sa * sb
    # the float decomposition of the i32 result: exact here (small integers x 2^-3)
    q32 = [q_quant(f32(a * s32), s32, 0, -(1 << 31), (1 << 31) - 1) for a in acc]
    so, zo = (s32 * 2, -1) if tol_case else (s32, 1)
    q8 = [q_quant(q_dequant(q, s32, 0), so, zo, -128, 127) for q in q32]
    assert all(-128 < q < 127 for q in q8), q8
    lt, rt = qtype([m, k], 'i8', sa, za), qtype([k, n], 'i8', sb, zb)
    b = '  %%a = stablehlo.constant() {value = %s} : () -> %s\n' % (dense(lhs, [m, k], 'i8'), lt)
    b += '  %%b = stablehlo.constant() {value = %s} : () -> %s\n' % (dense(rhs, [k, n], 'i8'), rt)
    b += ('  %%acc = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0] : (%s, %s) -> %s\n'
          % (lt, rt, qtype([m, n], 'i32', s32, 0)))
    b += '  %%r = stablehlo.uniform_quantize %%acc : (%s) -> %s\n' % (
        qtype([m, n], 'i32', s32, 0), qtype([m, n], 'i8', so, zo))
    b += '  %%d = stablehlo.uniform_dequantize %%r : (%s) -> %s\n' % (
        qtype([m, n], 'i8', so, zo), ttype([m, n], 'f32'))
    deq = [q_dequant(q, so, zo) for q in q8]
    if tol_case:  # the quantized values: within the tolerance of the spec's
        b += '  check.expect_eq_const %%r, %s\n' % dense(q8, [m, n], 'i8').replace(
            ttype([m, n], 'i8'), qtype([m, n], 'i8', so, zo))
    else:
        b += '  check.expect_almost_eq_const %%d, %s\n' % dense(deq, [m, n], 'f32')
    s.append(section('quant_dot_general_requantize', b))
    # conv NHWC q8 with per-axis (output channel) weight scales -> q32 -> q8
    lshape, rshape = [1, 4, 4, 2], [3, 3, 2, 2]
    lhs = rnd(rng, shape_elems(lshape), -3, 9) if tol_case else rnd(rng, shape_elems(lshape), 0, 6)
    rhs = rnd(rng, shape_elems(rshape), -5, 5) if tol_case else rnd(rng, shape_elems(rshape), -3, 3)
    wsc = [0.25, 0.125]
    dn, stride, pad, dil = NHWC, (1, 1), ((1, 1), (1, 1)), (1, 1)
    acc, oshape = conv([q - za for q in lhs], lshape, rhs, rshape, dn, stride, pad, dil, dil)
    q32 = []
    so, zo = (sa / 4, 2) if tol_case else (sa / 8, -3)
    outq = []
    for i, a in enumerate(acc):
        c = i % oshape[3]
        sc = sa * wsc[c]
        q = q_quant(f32(a * sc), sc, 0, -(1 << 31), (1 << 31) - 1)
        q32.append(q)
    # the conv's i32 result type is per-axis too (scale sa * w_c)
    for i, q in enumerate(q32):
        c = i % oshape[3]
        outq.append(q_quant(q_dequant(q, sa * wsc[c], 0), so, zo, -128, 127))
    assert all(-128 < q < 127 for q in outq), outq
    lt = qtype(lshape, 'i8', sa, za)
    rt = ttype(rshape, '!quant.uniform<i8:f32:3, {%s}>' % ', '.join('%s' % repr(x) for x in wsc))
    at = ttype(oshape, '!quant.uniform<i32:f32:3, {%s}>' % ', '.join(repr(sa * x) for x in wsc))
    ot = qtype(oshape, 'i8', so, zo)
    b = '  %%x = stablehlo.constant() {value = %s} : () -> %s\n' % (dense(lhs, lshape, 'i8'), lt)
    b += '  %%w = stablehlo.constant() {value = %s} : () -> %s\n' % (dense(rhs, rshape, 'i8'), rt)
    b += ('  %%acc = stablehlo.convolution(%%x, %%w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], '
          'window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, '
          'feature_group_count = 1 : i64} : (%s, %s) -> %s\n' % (lt, rt, at))
    b += '  %%r = stablehlo.uniform_quantize %%acc : (%s) -> %s\n' % (at, ot)
    b += '  %%s = "stablehlo.uniform_dequantize"(%%r) : (%s) -> %s\n' % (ot, ttype(oshape, 'f32'))
    if tol_case:
        b += '  check.expect_eq_const %%r, %s\n' % dense(outq, oshape, 'i8').replace(
            ttype(oshape, 'i8'), ot)
    else:
        b += '  check.expect_almost_eq_const %%s, %s\n' % dense(
            [q_dequant(q, so, zo) for q in outq], oshape, 'f32')
    s.append(section('quant_conv_per_axis_requantize', b))
    if not tol_case:
        # f32 -> q8 -> f32 round trip, and a dot whose result is q8 directly
        xs = [-1.0, -0.3, 0.0, 0.26, 0.75, 100.0]
        sc, zp = 0.1, -2
        qs = [q_quant(x, sc, zp, -128, 127) for x in xs]
        qt = qtype([6], 'i8', sc, zp)
        b = '  %%x = stablehlo.constant %s\n' % dense(xs, [6], 'f32')
        b += '  %%q = stablehlo.uniform_quantize %%x : (%s) -> %s\n' % (ttype([6], 'f32'), qt)
        b += '  %%s = stablehlo.bitcast_convert_free %%q\n' if False else ''
        b += '  %%d = stablehlo.uniform_dequantize %%q : (%s) -> %s\n' % (qt, ttype([6], 'f32'))
        b += '  check.expect_almost_eq_const %%d, %s\n' % dense(
            [q_dequant(q, sc, zp) for q in qs], [6], 'f32')
        s.append(section('uniform_quantize_roundtrip', b))
        m, k, n = 2, 3, 2
        lhs = rnd(rng, m * k, -5, 5)
        rhs = rnd(rng, k * n, -5, 5)
        acc = dot_general([q - 1 for q in lhs], [m, k], rhs, [k, n], [], [], [1], [0])[0]
        so2, zo2 = 0.25, 0
        res = [q_quant(f32(f32(a * 0.5) * 0.5), so2, zo2, -128, 127) for a in acc]
        assert all(-128 < q < 127 for q in res), res
        lt, rt = qtype([m, k], 'i8', 0.5, 1), qtype([k, n], 'i8', 0.5, 0)
        ot = qtype([m, n], 'i8', so2, zo2)
        b = '  %%a = stablehlo.constant() {value = %s} : () -> %s\n' % (dense(lhs, [m, k], 'i8'), lt)
        b += '  %%b = stablehlo.constant() {value = %s} : () -> %s\n' % (dense(rhs, [k, n], 'i8'), rt)
        b += '  %%r = stablehlo.dot_general %%a, %%b, contracting_dims = [1] x [0] : (%s, %s) -> %s\n' % (
            lt, rt, ot)
        b += '  %%d = stablehlo.uniform_dequantize %%r : (%s) -> %s\n' % (ot, ttype([m, n], 'f32'))
        b += '  check.expect_almost_eq_const %%d, %s\n' % dense(
            [q_dequant(q, so2, zo2) for q in res], [m, n], 'f32')
        s.append(section('quant_dot_general_i8_result', b))
    return '\n// -----\n\n'.join(s)


def hexblob(vals, bits):
    return '0x' + ''.join(('%0*X' % (bits // 4, v & ((1 << bits) - 1)))[::-1][::-1]
                          if bits == 8 else
                          ''.join('%02X' % ((v >> (8 * i)) & 255) for i in range(bits // 8))
                          for v in vals)


def gen_jax(rng):
    """A module as jax.jit(...).lower(...).as_text() prints it: @main calls
    @inputs and @expected, hex literals, a custom_call check."""
    a = rnd(rng, 4 * 6, -128, 127)
    w = rnd(rng, 6 * 5, -128, 127)
    out, _ = dot_general(a, [4, 6], w, [6, 5], [], [], [1], [0])
    relu = [max(v, 0) for v in out]
    t = '''// RUN: e1npu-hlo run %%s
// Generated by tests/hlo/gen.py: a JAX-style module (jit of
// relu(dot(x.astype(int32), w.astype(int32)))): the converts fold into
// one int8 GEMM on the NPU.
// E1-NPU: 1
module @jit_testcase attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<4x5xi32> {jax.result_info = ""}) {
    %%0:2 = call @inputs() : () -> (tensor<4x6xi8>, tensor<6x5xi8>)
    %%1 = call @expected() : () -> tensor<4x5xi32>
    %%2 = stablehlo.convert %%0#0 : (tensor<4x6xi8>) -> tensor<4x6xi32>
    %%3 = stablehlo.convert %%0#1 : (tensor<6x5xi8>) -> tensor<6x5xi32>
    %%4 = stablehlo.dot_general %%2, %%3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xi32>, tensor<6x5xi32>) -> tensor<4x5xi32>
    %%c = stablehlo.constant dense<0> : tensor<i32>
    %%5 = stablehlo.broadcast_in_dim %%c, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %%6 = stablehlo.maximum %%4, %%5 : tensor<4x5xi32>
    stablehlo.custom_call @check.expect_eq(%%6, %%1) {has_side_effect = true} : (tensor<4x5xi32>, tensor<4x5xi32>) -> ()
    return %%6 : tensor<4x5xi32>
  }
  func.func private @inputs() -> (tensor<4x6xi8> {mhlo.layout_mode = "default"}, tensor<6x5xi8> {mhlo.layout_mode = "default"}) {
    %%0 = stablehlo.constant dense<"%s"> : tensor<4x6xi8>
    %%1 = stablehlo.constant dense<%s> : tensor<6x5xi8>
    return %%0, %%1 : tensor<4x6xi8>, tensor<6x5xi8>
  }
  func.func private @expected() -> (tensor<4x5xi32> {mhlo.layout_mode = "default"}) {
    %%0 = stablehlo.constant dense<"%s"> : tensor<4x5xi32>
    return %%0 : tensor<4x5xi32>
  }
}
''' % (hexblob(a, 8), nested(w, [6, 5]), hexblob(relu, 32))
    return t


def gen_jax_eq(rng):
    """The testdata form: main returns the tensor<i1> of @check.eq."""
    a = rnd(rng, 6, -100, 100)
    b = rnd(rng, 6, -100, 100)
    s = [wrap(x + y, 16) for x, y in zip(a, b)]
    return '''// RUN: e1npu-hlo run %%s
// Generated by tests/hlo/gen.py: stablehlo/testdata-style module.
// E1-NPU: 0
module @jit_testcase {
  func.func public @main() -> tensor<i1> {
    %%0:2 = call @inputs() : () -> (tensor<2x3xi16>, tensor<2x3xi16>)
    %%1 = call @expected() : () -> tensor<2x3xi16>
    %%2 = stablehlo.add %%0#0, %%0#1 : tensor<2x3xi16>
    %%3 = stablehlo.custom_call @check.eq(%%2, %%1) : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<i1>
    return %%3 : tensor<i1>
  }
  func.func private @inputs() -> (tensor<2x3xi16>, tensor<2x3xi16>) {
    %%0 = stablehlo.constant dense<"%s"> : tensor<2x3xi16>
    %%1 = stablehlo.constant dense<%s> : tensor<2x3xi16>
    return %%0, %%1 : tensor<2x3xi16>, tensor<2x3xi16>
  }
  func.func private @expected() -> tensor<2x3xi16> {
    %%0 = "stablehlo.constant"() <{value = dense<%s> : tensor<2x3xi16>}> : () -> tensor<2x3xi16>
    "func.return"(%%0) : (tensor<2x3xi16>) -> ()
  }
}
''' % (hexblob(a, 16), nested(b, [2, 3]), nested(s, [2, 3]))


def gen_e1_attention(rng):
    """The seed's attention QK/AV records as custom_call @e1.* (hlo.md)."""
    B, H, TQ, TK, D = 1, 2, 3, 4, 5
    q = rnd(rng, B * H * TQ * D, -128, 127)
    k = rnd(rng, B * H * TK * D, -128, 127)
    p = rnd(rng, B * H * TQ * TK, 0, 255)
    v = rnd(rng, B * H * TK * D, -128, 127)
    qk, av = [], []
    for bh in range(B * H):
        for i in range(TQ):
            for j in range(TK):
                qk.append(sum(q[(bh * TQ + i) * D + x] * k[(bh * TK + j) * D + x]
                              for x in range(D)))
            for x in range(D):
                acc = sum(min((p[(bh * TQ + i) * TK + j] + 1) >> 1, 127) * v[(bh * TK + j) * D + x]
                          for j in range(TK))
                av.append(max(-128, min(127, (acc + 64) >> 7)))
    b = '  %%q = stablehlo.constant %s\n' % dense(q, [B, H, TQ, D], 'i8')
    b += '  %%k = stablehlo.constant %s\n' % dense(k, [B, H, TK, D], 'i8')
    b += ('  %%s = stablehlo.custom_call @e1.attention_qk(%%q, %%k) : (%s, %s) -> %s\n' %
          (ttype([B, H, TQ, D], 'i8'), ttype([B, H, TK, D], 'i8'), ttype([B, H, TQ, TK], 'i32')))
    b += '  check.expect_eq_const %%s, %s\n' % dense(qk, [B, H, TQ, TK], 'i32')
    b += '  %%p = stablehlo.constant %s\n' % dense(p, [B, H, TQ, TK], 'ui8')
    b += '  %%v = stablehlo.constant %s\n' % dense(v, [B, H, TK, D], 'i8')
    b += ('  %%o = "stablehlo.custom_call"(%%p, %%v) <{call_target_name = "e1.attention_av"}> : (%s, %s) -> %s\n' %
          (ttype([B, H, TQ, TK], 'ui8'), ttype([B, H, TK, D], 'i8'), ttype([B, H, TQ, D], 'i8')))
    b += '  check.expect_eq_const %%o, %s\n' % dense(av, [B, H, TQ, D], 'i8')
    out = [('// RUN: e1npu-hlo run %s\n// Generated by tests/hlo/gen.py: the seed\'s records (attention QK\n'
            '// and AV, 2:4 sparse int4 and group-scaled int4 matmuls) in the\n'
            '// custom_call @e1.<name> form, on the NPU.\n// E1-NPU: 4\n') + section('e1_attention_qk_av', b)]
    # 2:4 sparse int4 weights: two non-zeros in each group of 4 along k
    m, k, n = 3, 8, 4
    a = rnd(rng, m * k, -8, 7)
    w = [0] * (k * n)
    for j in range(n):
        for g in range(0, k, 4):
            for l in rng.sample(range(4), 2):
                w[(g + l) * n + j] = rng.randint(-8, 7)
    c, _ = dot_general(a, [m, k], w, [k, n], [], [], [1], [0])
    b = '  %%a = stablehlo.constant %s\n' % dense(a, [m, k], 'i4')
    b += '  %%w = stablehlo.constant %s\n' % dense(w, [k, n], 'i4')
    b += '  %%c = stablehlo.custom_call @e1.matmul_sparse_s4(%%a, %%w) : (%s, %s) -> %s\n' % (
        ttype([m, k], 'i4'), ttype([k, n], 'i4'), ttype([m, n], 'i32'))
    b += '  check.expect_eq_const %%c, %s\n' % dense(c, [m, n], 'i32')
    out.append(section('e1_matmul_sparse_s4', b))
    # group-scaled int4: Q8.8 scales per (group of k, column)
    m, k, n, grp = 2, 8, 3, 4
    a = rnd(rng, m * k, -128, 127)
    w = rnd(rng, k * n, -8, 7)
    sc = rnd(rng, (k // grp) * n, -512, 512)
    c = []
    for i in range(m):
        for j in range(n):
            acc = 0
            for g in range(0, k, grp):
                acc += sc[(g // grp) * n + j] * sum(a[i * k + x] * w[x * n + j] for x in range(g, g + grp))
            c.append(wrap(acc, 32))
    b = '  %%a = stablehlo.constant %s\n' % dense(a, [m, k], 'i8')
    b += '  %%w = stablehlo.constant %s\n' % dense(w, [k, n], 'i4')
    b += '  %%s = stablehlo.constant %s\n' % dense(sc, [k // grp, n], 'i16')
    b += '  %%c = stablehlo.custom_call @e1.matmul_gs_s4(%%a, %%w, %%s) {group = %d : i64} : (%s, %s, %s) -> %s\n' % (
        grp, ttype([m, k], 'i8'), ttype([k, n], 'i4'), ttype([k // grp, n], 'i16'), ttype([m, n], 'i32'))
    b += '  check.expect_eq_const %%c, %s\n' % dense(c, [m, n], 'i32')
    out.append(section('e1_matmul_gs_s4', b))
    return '\n// -----\n\n'.join(out)


FILES = {
    'gen-e1-records.mlir': gen_e1_attention,
    'gen-dot.mlir': gen_dot,
    'gen-dot-cpu.mlir': gen_dot_cpu,
    'gen-conv.mlir': gen_conv,
    'gen-conv-cpu.mlir': gen_conv_cpu,
    'gen-quant.mlir': lambda r: gen_quant(r, False),
    'gen-quant-tolerance.mlir': lambda r: gen_quant(r, True),
    'gen-jax-dot.mlir': gen_jax,
    'gen-jax-eq.mlir': gen_jax_eq,
}


def main():
    check = '--check' in sys.argv[1:]
    bad = 0
    for i, (name, fn) in enumerate(sorted(FILES.items())):
        text = fn(random.Random(1000 + i))
        path = os.path.join(HERE, name)
        if check:
            with open(path) as f:
                if f.read() != text:
                    print('%s: differs from gen.py output' % name)
                    bad = 1
        else:
            with open(path, 'w') as f:
                f.write(text)
    return bad


if __name__ == '__main__':
    sys.exit(main())
