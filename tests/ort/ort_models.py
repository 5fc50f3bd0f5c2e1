# SPDX-License-Identifier: MIT
"""Models of check-ort-models: the float models in $SHARED_ONNX (mnist,
ultraface RFB-320) quantized at test time with onnxruntime's own
quantize_static (QDQ; per-tensor and per-channel; calibrated on seeded
random inputs), and a small model built here with onnx.helper: an
attention-style block (MatMul, Gemm, Softmax, Add, Concat, Resize), QDQ
quantized the same way. Yields (name, path, feeds) with 3 seeded inputs."""
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

SHARED_ONNX = os.environ.get("SHARED_ONNX", "/shared/onnx")
NINPUTS = 3


def _shape(model):
    inp = model.graph.input[0]
    dims = [d.dim_value if d.dim_value > 0 else 1 for d in inp.type.tensor_type.shape.dim]
    return inp.name, dims


class _Reader:
    def __init__(self, name, dims, seed, n=4):
        rng = np.random.default_rng(seed)
        self.data = [{name: rng.random(dims, dtype=np.float32)} for _ in range(n)]
        self.i = 0

    def get_next(self):
        if self.i >= len(self.data):
            return None
        self.i += 1
        return self.data[self.i - 1]

    def rewind(self):
        self.i = 0


def quantize(src, dst, per_channel, wtype, seed=1234):
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static
    from onnx import version_converter
    model = onnx.load(src)
    name, dims = _shape(model)
    # opset 13 first: per-channel DQ (axis) needs it (the models are opset 8/9)
    if model.opset_import[0].version < 13:
        model = version_converter.convert_version(model, 13)
    pre = dst + ".opset13.onnx"
    onnx.save(model, pre)
    quantize_static(pre, dst, _Reader(name, dims, seed), quant_format=QuantFormat.QDQ,
                    per_channel=per_channel, activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QUInt8 if wtype == "u8" else QuantType.QInt8)
    return name, dims


def feeds_for(name, dims, seed=99):
    rng = np.random.default_rng(seed)
    return [{name: rng.random(dims, dtype=np.float32)} for _ in range(NINPUTS)]


def attention_block(path):
    """x [1, 16, 32] -> q, k, v projections (MatMul), scores (MatMul),
    Softmax, context (MatMul), output (Gemm on [16, 32]), residual Add,
    Concat with x, and a Resize of an image-like branch."""
    rng = np.random.default_rng(5)
    d = 32

    def w(name, shape):
        return nh.from_array((rng.standard_normal(shape) * 0.2).astype(np.float32), name)
    inits = [w("wq", [d, d]), w("wk", [d, d]), w("wv", [d, d]), w("wo", [d, d]), w("bo", [d]),
             nh.from_array(np.array([16, d], np.int64), "shape2d"),
             nh.from_array(np.array([1, 16, d], np.int64), "shape3d"),
             nh.from_array(np.array([0, 2, 1], np.int64), "perm"),
             nh.from_array(np.array([1.0, 1.0, 2.0, 2.0], np.float32), "scales"),
             nh.from_array(np.array([1, 1, 16, d], np.int64), "shape4d")]
    nodes = [
        h.make_node("MatMul", ["x", "wq"], ["q"]),
        h.make_node("MatMul", ["x", "wk"], ["k"]),
        h.make_node("MatMul", ["x", "wv"], ["v"]),
        h.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
        h.make_node("MatMul", ["q", "kt"], ["s"]),
        h.make_node("Softmax", ["s"], ["p"], axis=-1),
        h.make_node("MatMul", ["p", "v"], ["c"]),
        h.make_node("Reshape", ["c", "shape2d"], ["c2"]),
        h.make_node("Gemm", ["c2", "wo", "bo"], ["o2"]),
        h.make_node("Reshape", ["o2", "shape3d"], ["o"]),
        h.make_node("Add", ["o", "x"], ["r"]),
        h.make_node("Concat", ["r", "x"], ["cat"], axis=-1),
        h.make_node("Reshape", ["r", "shape4d"], ["img"]),
        h.make_node("Resize", ["img", "", "scales"], ["up"], mode="nearest"),
    ]
    g = h.make_graph(nodes, "attention_block", [h.make_tensor_value_info("x", T.FLOAT, [1, 16, d])],
                     [h.make_tensor_value_info("cat", T.FLOAT, [1, 16, 2 * d]),
                      h.make_tensor_value_info("up", T.FLOAT, [1, 1, 32, 2 * d])], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, path)


def all_models(outdir, result, skip):
    srcs = []
    for f in ("mnist.onnx", "ultraface_rfb320.onnx"):
        p = os.path.join(SHARED_ONNX, f)
        if os.path.exists(p):
            srcs.append((f[:-5], p))
        else:
            skip("%s: not found in %s (../shared/onnx, README.md there)" % (f, SHARED_ONNX))
    ab = os.path.join(outdir, "attention_block.onnx")
    attention_block(ab)
    srcs.append(("attention_block", ab))
    for base, src in srcs:
        for pc, wt in ((False, "u8"), (True, "u8"), (False, "s8"), (True, "s8")):
            name = "%s_qdq_%s_u8%s" % (base, "per_channel" if pc else "per_tensor", wt)
            dst = os.path.join(outdir, name + ".onnx")
            try:
                iname, dims = quantize(src, dst, pc, wt)
            except Exception as e:  # noqa: BLE001
                result(False, "%s: quantize_static: %s" % (name, e))
                continue
            yield name, dst, feeds_for(iname, dims)
