#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a .tflite model is, read with tests/models/tflite_dump.py's
standard-library FlatBuffer walk (independent of lib/tflite): one line per
model for tests/data/zoo/README.md and Documentation/tflite.md:

  name bytes in=TYPE[dims],... out=TYPE[dims],... weights=int8|uint8|...
       quant=per-tensor|per-channel ops=OP/vVERSION:count,...

zoo_info.py MODEL...
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
from tflite_dump import FB  # noqa: E402

TYPES = {0: "float32", 1: "float16", 2: "int32", 3: "uint8", 4: "int64", 5: "string",
         6: "bool", 7: "int16", 8: "complex64", 9: "int8", 10: "float64"}

# schema.fbs BuiltinOperator, in order (0..).
OPS = """ADD AVERAGE_POOL_2D CONCATENATION CONV_2D DEPTHWISE_CONV_2D DEPTH_TO_SPACE
DEQUANTIZE EMBEDDING_LOOKUP FLOOR FULLY_CONNECTED HASHTABLE_LOOKUP L2_NORMALIZATION
L2_POOL_2D LOCAL_RESPONSE_NORMALIZATION LOGISTIC LSH_PROJECTION LSTM MAX_POOL_2D MUL
RELU RELU_N1_TO_1 RELU6 RESHAPE RESIZE_BILINEAR RNN SOFTMAX SPACE_TO_DEPTH SVDF TANH
CONCAT_EMBEDDINGS SKIP_GRAM CALL CUSTOM EMBEDDING_LOOKUP_SPARSE PAD
UNIDIRECTIONAL_SEQUENCE_RNN GATHER BATCH_TO_SPACE_ND SPACE_TO_BATCH_ND TRANSPOSE MEAN
SUB DIV SQUEEZE UNIDIRECTIONAL_SEQUENCE_LSTM STRIDED_SLICE BIDIRECTIONAL_SEQUENCE_RNN
EXP TOPK_V2 SPLIT LOG_SOFTMAX DELEGATE BIDIRECTIONAL_SEQUENCE_LSTM CAST PRELU MAXIMUM
ARG_MAX MINIMUM LESS NEG PADV2 GREATER GREATER_EQUAL LESS_EQUAL SELECT SLICE SIN
TRANSPOSE_CONV SPARSE_TO_DENSE TILE EXPAND_DIMS EQUAL NOT_EQUAL LOG SUM SQRT RSQRT
SHAPE POW ARG_MIN FAKE_QUANT REDUCE_PROD REDUCE_MAX PACK LOGICAL_OR ONE_HOT
LOGICAL_AND LOGICAL_NOT UNPACK REDUCE_MIN FLOOR_DIV REDUCE_ANY SQUARE ZEROS_LIKE FILL
FLOOR_MOD RANGE RESIZE_NEAREST_NEIGHBOR LEAKY_RELU SQUARED_DIFFERENCE MIRROR_PAD ABS
SPLIT_V UNIQUE CEIL REVERSE_V2 ADD_N GATHER_ND COS WHERE RANK ELU REVERSE_SEQUENCE
MATRIX_DIAG QUANTIZE MATRIX_SET_DIAG ROUND HARD_SWISH IF WHILE NON_MAX_SUPPRESSION_V4
NON_MAX_SUPPRESSION_V5 SCATTER_ND SELECT_V2 DENSIFY SEGMENT_SUM BATCH_MATMUL
PLACEHOLDER_FOR_GREATER_OP_CODES CUMSUM CALL_ONCE BROADCAST_TO RFFT2D CONV_3D IMAG
REAL COMPLEX_ABS HASHTABLE HASHTABLE_FIND HASHTABLE_IMPORT HASHTABLE_SIZE REDUCE_ALL
CONV_3D_TRANSPOSE VAR_HANDLE READ_VARIABLE ASSIGN_VARIABLE BROADCAST_ARGS
RANDOM_STANDARD_NORMAL BUCKETIZE RANDOM_UNIFORM MULTINOMIAL GELU""".split()


def describe(path):
    """The model's facts as a dict (the keys of info()'s line)."""
    fb = FB(open(path, "rb").read())
    root = fb.u32(0)
    codes = []
    for oc in fb.tables(root, 1):
        dep = fb.scalar(oc, 0, "b")
        code = max(dep, fb.scalar(oc, 3, "i"))
        ver = fb.scalar(oc, 2, "i", 1)
        if code == 32:
            p = fb.ref(oc, 1)
            name = "CUSTOM:" + (fb.b[p + 4:p + 4 + fb.u32(p)].decode() if p else "?")
        else:
            name = OPS[code] if code < len(OPS) else "BUILTIN_%d" % code
        codes.append("%s/v%d" % (name, ver))
    sg = fb.tables(root, 2)[0]
    tensors = fb.tables(sg, 0)

    def tdesc(i):
        t = tensors[i]
        return "%s[%s]" % (TYPES.get(fb.scalar(t, 1, "b"), "?"),
                           ",".join(str(x) for x in fb.ints(t, 0)))

    counts = {}
    for op in fb.tables(sg, 3):
        c = codes[fb.scalar(op, 0, "I")]
        counts[c] = counts.get(c, 0) + 1
    # Weights: constant tensors (non-empty buffer) of integer types.
    bufs = fb.tables(root, 4)
    wtypes, perch = set(), False
    for t in tensors:
        b = fb.scalar(t, 2, "I")
        has = b < len(bufs) and fb.vec(bufs[b], 0)[0] > 0
        q = fb.ref(t, 4)
        nscale = fb.vec(q, 2)[0] if q is not None else 0
        if nscale > 1:
            perch = True
        if has and fb.scalar(t, 1, "b") in (3, 9, 7):
            wtypes.add(TYPES[fb.scalar(t, 1, "b")])
    return {"name": os.path.basename(path), "bytes": len(fb.b),
            "in": " ".join(tdesc(i) for i in fb.ints(sg, 1)),
            "out": " ".join(tdesc(i) for i in fb.ints(sg, 2)),
            "intypes": ",".join(TYPES.get(fb.scalar(tensors[i], 1, "b"), "?")
                                for i in fb.ints(sg, 1)),
            "outtypes": ",".join(TYPES.get(fb.scalar(tensors[i], 1, "b"), "?")
                                 for i in fb.ints(sg, 2)),
            "weights": "+".join(sorted(wtypes)) or "none",
            "quant": "per-channel" if perch else "per-tensor",
            "ops": ",".join("%s:%d" % kv for kv in sorted(counts.items()))}


def info(path):
    d = describe(path)
    return "%s %d in=%s out=%s weights=%s quant=%s ops=%s" % (
        d["name"], d["bytes"], d["in"].replace(" ", ","), d["out"].replace(" ", ","),
        d["weights"], d["quant"], d["ops"])


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(info(p))
