#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the seeds of fuzz-tflite-load: small valid quantized TFLite models
# (one to a few operators each, every seed < 4 KiB) with a hand-rolled
# FlatBuffer writer (tests/tflite/tflbuild.py). Run from tests/fuzz/.
#
# The harness picks the device path from the file size (size % 3: the
# in-process device, the CPU-only context, the reference kernels); each
# model is written three times with 0-2 bytes of trailing padding (a
# FlatBuffer ignores trailing bytes) so every path starts with every model.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tflite'))
from tflbuild import *  # noqa: E402,F401,F403
import mkmodels  # noqa: E402  (the operators added with check-tflite-models)


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
    'relu6-i8': mkmodels.MODELS['relu6-i8'],
    'relu-u8': mkmodels.MODELS['relu-u8'],
    'mul-u8-relu': mkmodels.MODELS['mul-u8-relu-tie'],
    'sub-i8-relu6': mkmodels.MODELS['sub-i8-relu6'],
    'concat-u8-rescale': mkmodels.MODELS['concat-u8-axis1-rescale'],
    'pad-i8': mkmodels.MODELS['pad-i8-4d'],
    'transpose-u8': mkmodels.MODELS['transpose-u8-4d'],
    'slice-u8': mkmodels.MODELS['slice-u8-4d'],
    'resize-i8': mkmodels.MODELS['resize-i8-up-odd'],
    'minimum-u8': mkmodels.MODELS['minimum-u8'],
    'mean-u8-keepdims': mkmodels.MODELS['mean-u8-keepdims'],
    'strided-slice-u8': mkmodels.MODELS['strided-slice-u8-masks-shrink'],
    'hard-swish-i8': mkmodels.MODELS['hard-swish-i8'],
    'split-v-u8': mkmodels.MODELS['split-v-u8-axis2'],
    'unpack-i8': mkmodels.MODELS['unpack-i8-axis-neg1'],
    'pack-i8': mkmodels.MODELS['pack-i8-axis2'],
    'argmax-u8-i64': mkmodels.MODELS['argmax-u8-axis3-i64'],
    'gather-i8-idx64': mkmodels.MODELS['gather-i8-axis1-2d-idx64'],
    'gather-argmax-u8': mkmodels.MODELS['gather-u8-argmax-indices'],
    'space-batch-i8': mkmodels.MODELS['space-batch-i8-3x2'],
    'bilinear-u8-half': mkmodels.MODELS['bilinear-u8-half'],
    'bcast-add-i8': mkmodels.MODELS['bcast-add-i8-flat-relu'],
    'logistic-i8': mkmodels.MODELS['logistic-i8'],
    'leaky-relu-u8': mkmodels.MODELS['leaky-relu-u8'],
    'l2norm-i8': mkmodels.MODELS['l2norm-i8'],
    'float-chain-u8': mkmodels.MODELS['float-chain-u8-logistic'],
    'tconv-u8-same': mkmodels.MODELS['tconv-u8-same-s2'],
    'tconv-i8-valid': mkmodels.MODELS['tconv-i8-valid-s2'],
    'space-depth-u8': mkmodels.MODELS['space-depth-u8-3-2'],
    'sum-u8-rescale': mkmodels.MODELS['sum-u8-rescale'],
    'reduce-min-i8': mkmodels.MODELS['reduce-min-i8-axes-dup'],
    'prelu-u8': mkmodels.MODELS['prelu-u8-channel'],
    'log-softmax-i8': mkmodels.MODELS['log-softmax-i8-wide'],
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
