# SPDX-License-Identifier: MIT
"""The e1 ONNX Runtime EP's QDQ groups beyond the products
(Documentation/onnxruntime.md): DQ -> Reshape/Flatten/Squeeze/Unsqueeze/
Transpose/Relu -> Q and DQ x n -> Concat -> Q with equal parameters (8-bit
data movement), DQ -> Add/Mul -> Q (MLAS's QLinearAdd/QLinearMul): int8 and
uint8, seeded random inputs with the extreme values, each compared with
ONNX Runtime's CPU EP byte for byte and the summary line's claim checked;
and one case per refusal (the reason in the summary line)."""
import numpy as np
from onnx import helper as h, numpy_helper, TensorProto as T

import ort_common as oc

TYPES = ((T.UINT8, np.uint8), (T.INT8, np.int8))


def _i(a, name):
    return numpy_helper.from_array(a, name)


def _model(nodes, inputs, inits, otype, opset=13):
    g = h.make_graph(nodes, "g", inputs, [h.make_tensor_value_info(nodes[-1].output[0], otype, None)],
                     inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    return m.SerializeToString()


def _data(rng, npt, shape):
    """seeded random values with the type's extremes in the first places"""
    info = np.iinfo(npt)
    x = rng.integers(info.min, int(info.max) + 1, shape).astype(npt)
    flat = x.reshape(-1)
    ext = np.array([info.min, info.max, 0, info.min + 1, info.max - 1], npt)
    flat[:min(len(ext), flat.size)] = ext[:flat.size]
    return x


def _check(result, ep, mb, feeds, want, what, reason=None):
    """run with both EPs; claimed == want nodes, bytes equal; a refusal's
    reason in the summary line"""
    c = oc.session(mb)[0].run(None, feeds)[0]
    es, summ = oc.session(mb, ep)
    e = es.run(None, feeds)[0]
    same = c.dtype == e.dtype and c.shape == e.shape and np.array_equal(c, e)
    why_ok = reason is None or (summ is not None and reason in summ[3])
    result(summ is not None and summ[0] == want and same and why_ok,
           "%s: claimed %s of %s%s, %s" % (what, summ[0] if summ else None, summ[1] if summ else None,
                                           " (%s)" % summ[3][:160] if summ and (reason or summ[0] != want) else "",
                                           "equal to the CPU EP" if same else "DIFFERS"))


def t_move(ep, result):
    """DQ -> op -> Q with one scale and zero point: claimed (3 nodes) and
    the bytes moved equal the CPU EP's; different ones left to the CPU."""
    rng = np.random.default_rng(21)
    ops = [("Reshape", [2, 4, 3], [_i(np.array([4, -1, 0], np.int64), "shp")], {}, ["shp"]),
           ("Reshape", [2, 3, 4], [_i(np.array([24], np.int64), "shp")], {}, ["shp"]),
           ("Flatten", [2, 3, 4, 5], [], {"axis": 2}, []),
           ("Flatten", [2, 3, 4], [], {"axis": -1}, []),
           ("Squeeze", [2, 1, 4, 1], [_i(np.array([1, -1], np.int64), "ax")], {}, ["ax"]),
           ("Squeeze", [1, 3, 1], [], {}, []),
           ("Unsqueeze", [2, 4], [_i(np.array([0, -1], np.int64), "ax")], {}, ["ax"]),
           ("Transpose", [2, 3, 4, 5], [], {"perm": [0, 2, 3, 1]}, []),
           ("Transpose", [3, 7], [], {}, []),
           ("Transpose", [2, 3, 4, 5, 2], [], {"perm": [4, 1, 3, 0, 2]}, []),
           ("Relu", [4, 9], [], {}, [])]
    for dt, npt in TYPES:
        zp = 7 if npt == np.uint8 else -3
        for op, shape, extra, attrs, names in ops:
            for same in (True, False):
                if not same and op not in ("Reshape", "Transpose", "Relu"):
                    continue
                inits = [_i(np.array(0.05, np.float32), "s"), _i(np.array(zp, npt), "z"),
                         _i(np.array(0.05 if same else 0.06, np.float32), "s2")] + extra
                nodes = [h.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"]),
                         h.make_node(op, ["xf"] + names, ["of"], **attrs),
                         h.make_node("QuantizeLinear", ["of", "s2", "z"], ["y"])]
                mb = _model(nodes, [h.make_tensor_value_info("x", dt, shape)], inits, dt)
                x = _data(rng, npt, shape)
                _check(result, ep, mb, {"x": x}, 3 if same else 0,
                       "DQ->%s%s->Q %s %s %s parameters" % (op, attrs.get("perm", ""), "u8" if npt == np.uint8 else "s8",
                                                            shape, "equal" if same else "different"),
                       None if same else "parameters differ")
    # Relu with the type's lowest zero point: Relu is the identity there
    for dt, npt in TYPES:
        zp = 0 if npt == np.uint8 else -128
        inits = [_i(np.array(0.02, np.float32), "s"), _i(np.array(zp, npt), "z")]
        nodes = [h.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"]), h.make_node("Relu", ["xf"], ["of"]),
                 h.make_node("QuantizeLinear", ["of", "s", "z"], ["y"])]
        mb = _model(nodes, [h.make_tensor_value_info("x", dt, [5, 6])], inits, dt)
        _check(result, ep, mb, {"x": _data(rng, npt, [5, 6])}, 3,
               "DQ->Relu->Q zero point %d (ORT drops the Relu)" % zp)
    # a scale so small that Q(DQ(q)) is not q: left to the CPU EP
    inits = [_i(np.array(1e-40, np.float32), "s"), _i(np.array(3, np.uint8), "z")]
    nodes = [h.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"]),
             h.make_node("Transpose", ["xf"], ["of"]),
             h.make_node("QuantizeLinear", ["of", "s", "z"], ["y"])]
    mb = _model(nodes, [h.make_tensor_value_info("x", T.UINT8, [3, 4])], inits, T.UINT8)
    _check(result, ep, mb, {"x": _data(rng, np.uint8, [3, 4])}, 0,
           "DQ->Transpose->Q denormal scale 1e-40", "Q(DQ(q)) is not q")
    # opset 11: Squeeze/Unsqueeze axes as attributes
    for op, shape, axes in (("Squeeze", [3, 1, 2], [1]), ("Unsqueeze", [3, 2], [1, 3])):
        inits = [_i(np.array(0.1, np.float32), "s"), _i(np.array(-9, np.int8), "z")]
        nodes = [h.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"]),
                 h.make_node(op, ["xf"], ["of"], axes=axes),
                 h.make_node("QuantizeLinear", ["of", "s", "z"], ["y"])]
        mb = _model(nodes, [h.make_tensor_value_info("x", T.INT8, shape)], inits, T.INT8, opset=11)
        _check(result, ep, mb, {"x": _data(rng, np.int8, shape)}, 3,
               "DQ->%s->Q opset 11 axes attribute %s" % (op, axes))


def t_concat(ep, result):
    """DQ x n -> Concat -> Q: inputs whose parameters equal the output's
    are copied, the others requantized as QLinearConcat's table does
    (every byte value, random parameters); a run-time scale refused."""
    rng = np.random.default_rng(22)
    for dt, npt in TYPES:
        zp = 100 if npt == np.uint8 else 5
        for shapes, axis, same in (([[2, 3, 4], [2, 5, 4], [2, 1, 4]], 1, True),
                                   ([[3, 4], [3, 4]], -1, True), ([[1, 2, 3, 3], [2, 2, 3, 3]], 0, True),
                                   ([[2, 3], [2, 4]], 1, False), ([[2, 2, 5], [2, 3, 5], [2, 1, 5]], 1, False)):
            inits = [_i(np.array(0.125, np.float32), "s"), _i(np.array(zp, npt), "z"),
                     _i(np.array(0.125 if same else 0.25, np.float32), "s1"), _i(np.array(zp - 3, npt), "z1")]
            nodes = [h.make_node("DequantizeLinear", ["x%d" % i, "s1" if i == 1 else "s", "z1" if i == 1 and not same else "z"],
                                 ["f%d" % i]) for i in range(len(shapes))]
            nodes += [h.make_node("Concat", ["f%d" % i for i in range(len(shapes))], ["cf"], axis=axis),
                      h.make_node("QuantizeLinear", ["cf", "s", "z"], ["y"])]
            mb = _model(nodes, [h.make_tensor_value_info("x%d" % i, dt, s) for i, s in enumerate(shapes)],
                        inits, dt)
            feeds = {"x%d" % i: _data(rng, npt, s) for i, s in enumerate(shapes)}
            _check(result, ep, mb, feeds, len(shapes) + 2,
                   "DQ->Concat->Q %s %d inputs axis %d %s parameters" % (
                       "u8" if npt == np.uint8 else "s8", len(shapes), axis, "equal" if same else "different"))
        # every byte through the table, random parameters
        info = np.iinfo(npt)
        vals = np.arange(info.min, int(info.max) + 1).astype(npt)
        for _ in range(8):
            sx, sy = (np.float32(v) for v in np.exp(rng.uniform(-6, 0, 2)))
            zx, zy = (int(v) for v in rng.integers(info.min, int(info.max) + 1, 2))
            inits = [_i(np.array(sx, np.float32), "sx"), _i(np.array(zx, npt), "zx"),
                     _i(np.array(sy, np.float32), "sy"), _i(np.array(zy, npt), "zy")]
            nodes = [h.make_node("DequantizeLinear", ["a", "sx", "zx"], ["af"]),
                     h.make_node("DequantizeLinear", ["b", "sy", "zy"], ["bf"]),
                     h.make_node("Concat", ["af", "bf"], ["cf"], axis=0),
                     h.make_node("QuantizeLinear", ["cf", "sy", "zy"], ["y"])]
            mb = _model(nodes, [h.make_tensor_value_info("a", dt, [256]), h.make_tensor_value_info("b", dt, [256])],
                        inits, dt)
            _check(result, ep, mb, {"a": vals, "b": vals[::-1].copy()}, 4,
                   "DQ->Concat->Q %s every byte, scale %.4g -> %.4g zero point %d -> %d" % (
                       "u8" if npt == np.uint8 else "s8", sx, sy, zx, zy))
    # a run-time scale: left to the CPU EP
    inits = [_i(np.array(0.1, np.float32), "s"), _i(np.array(3, np.uint8), "z")]
    nodes = [h.make_node("DequantizeLinear", ["a", "rs", "z"], ["af"]),
             h.make_node("DequantizeLinear", ["b", "s", "z"], ["bf"]),
             h.make_node("Concat", ["af", "bf"], ["cf"], axis=0),
             h.make_node("QuantizeLinear", ["cf", "s", "z"], ["y"])]
    mb = _model(nodes, [h.make_tensor_value_info("a", T.UINT8, [2, 3]), h.make_tensor_value_info("b", T.UINT8, [2, 3]),
                        h.make_tensor_value_info("rs", T.FLOAT, [])], inits, T.UINT8)
    _check(result, ep, mb, {"a": _data(rng, np.uint8, [2, 3]), "b": _data(rng, np.uint8, [2, 3]),
                            "rs": np.array(0.3, np.float32)}, 0, "DQ->Concat->Q with a run-time scale", "run-time")


def _ew_model(op, dt, npt, shape_a, shape_b, sa, za, sb, zb, sc, zc, const_b=None):
    inits = [_i(np.array(sa, np.float32), "sa"), _i(np.array(za, npt), "za"),
             _i(np.array(sb, np.float32), "sb"), _i(np.array(zb, npt), "zb"),
             _i(np.array(sc, np.float32), "sc"), _i(np.array(zc, npt), "zc")]
    ins = [h.make_tensor_value_info("a", dt, shape_a)]
    if const_b is None:
        ins.append(h.make_tensor_value_info("b", dt, shape_b))
    else:
        inits.append(_i(const_b, "b"))
    nodes = [h.make_node("DequantizeLinear", ["a", "sa", "za"], ["af"]),
             h.make_node("DequantizeLinear", ["b", "sb", "zb"], ["bf"]),
             h.make_node(op, ["af", "bf"], ["cf"]),
             h.make_node("QuantizeLinear", ["cf", "sc", "zc"], ["y"])]
    return _model(nodes, ins, inits, dt)


def t_eltwise(ep, result):
    """DQ -> Add/Mul -> Q (QLinearAdd/QLinearMul on the CPU EP): random
    scales and zero points (some giving saturation), int8 and uint8,
    lengths around MLAS's vector widths, broadcasting; one refusal."""
    rng = np.random.default_rng(23)
    for op in ("Add", "Mul"):
        for dt, npt in TYPES:
            info = np.iinfo(npt)
            for case in range(12):
                shape = [[2, 3], [5, 33], [1, 64], [3, 4, 7], [1, 100], [2, 255]][case % 6]
                sa, sb = (float(v) for v in rng.uniform(0.001, 0.2, 2))
                sc = float(rng.uniform(0.001, 0.2)) if case % 3 else float(sa * rng.uniform(0.01, 0.2))
                za, zb, zc = (int(v) for v in rng.integers(info.min, int(info.max) + 1, 3))
                if case == 0:
                    za = zb = zc = 0
                const = case % 4 == 3
                mb = _ew_model(op, dt, npt, shape, shape, np.float32(sa), za, np.float32(sb), zb,
                               np.float32(sc), zc, _data(rng, npt, shape) if const else None)
                feeds = {"a": _data(rng, npt, shape)}
                if not const:
                    feeds["b"] = _data(rng, npt, shape)
                _check(result, ep, mb, feeds, 4,
                       "DQ->%s->Q %s %s%s scales %.4g %.4g -> %.4g zero points %d %d -> %d" % (
                           op, "u8" if npt == np.uint8 else "s8", shape, " (B constant)" if const else "",
                           sa, sb, sc, za, zb, zc))
        # every (a, b) pair: the float32 rounding of MLAS's kernel (a
        # contraction of another order differs on a few pairs in 20 sets)
        for dt, npt in TYPES:
            info = np.iinfo(npt)
            vals = np.arange(info.min, int(info.max) + 1).astype(npt)
            a = np.repeat(vals[:, None], 256, 1)
            b = np.repeat(vals[None, :], 256, 0)
            for _ in range(10):
                sa, sb, sc = (np.float32(v) for v in np.exp(rng.uniform(-7, 0, 3)))
                za, zb, zc = (int(v) for v in rng.integers(info.min, int(info.max) + 1, 3))
                mb = _ew_model(op, dt, npt, [256, 256], [256, 256], sa, za, sb, zb, sc, zc)
                _check(result, ep, mb, {"a": a, "b": b}, 4,
                       "DQ->%s->Q %s all 65536 pairs, scales %.4g %.4g -> %.4g zero points %d %d -> %d" % (
                           op, "u8" if npt == np.uint8 else "s8", sa, sb, sc, za, zb, zc))
        # broadcasting: every (a, b) pair with B, then A, broadcast along
        # the innermost dimension (MLAS's scalar operand), B of lower rank
        # (general spans), a one-element operand, a per-channel bias
        for dt, npt in TYPES:
            info = np.iinfo(npt)
            vals = np.arange(info.min, int(info.max) + 1).astype(npt)
            for form, a, b in (("B [256, 1]", np.repeat(vals[None, :], 256, 0), vals[:, None].copy()),
                               ("A [256, 1]", vals[:, None].copy(), np.repeat(vals[None, :], 256, 0)),
                               ("B [256]", np.repeat(vals[:, None], 256, 1), vals.copy()),
                               ("A [1]", vals[7:8].copy(), np.repeat(vals[None, :], 3, 0)),
                               ("B [1, 3, 1, 1]", _data(rng, npt, [2, 3, 5, 5]), _data(rng, npt, [1, 3, 1, 1])),
                               ("B [3, 1, 1]", _data(rng, npt, [2, 3, 4, 4]), _data(rng, npt, [3, 1, 1]))):
                sa, sb, sc = (np.float32(v) for v in np.exp(rng.uniform(-7, 0, 3)))
                za, zb, zc = (int(v) for v in rng.integers(info.min, int(info.max) + 1, 3))
                mb = _ew_model(op, dt, npt, list(a.shape), list(b.shape), sa, za, sb, zb, sc, zc)
                _check(result, ep, mb, {"a": a, "b": b}, 4,
                       "DQ->%s->Q %s broadcasting %s x %s (%s)" % (op, "u8" if npt == np.uint8 else "s8",
                                                                 list(a.shape), list(b.shape), form))
        # a scale given at run time: left to the CPU EP
        inits = [_i(np.array(0.05, np.float32), "s"), _i(np.array(3, np.uint8), "z")]
        nodes = [h.make_node("DequantizeLinear", ["a", "rs", "z"], ["af"]),
                 h.make_node("DequantizeLinear", ["b", "s", "z"], ["bf"]),
                 h.make_node(op, ["af", "bf"], ["cf"]),
                 h.make_node("QuantizeLinear", ["cf", "s", "z"], ["y"])]
        mb = _model(nodes, [h.make_tensor_value_info("a", T.UINT8, [3, 5]),
                            h.make_tensor_value_info("b", T.UINT8, [3, 5]),
                            h.make_tensor_value_info("rs", T.FLOAT, [])], inits, T.UINT8)
        _check(result, ep, mb, {"a": _data(rng, np.uint8, [3, 5]), "b": _data(rng, np.uint8, [3, 5]),
                                "rs": np.array(0.07, np.float32)}, 0,
               "DQ->%s->Q with a run-time scale" % op, "run-time")


def t_act(ep, result):
    """Relu/Clip before the Q of a Conv or Add group: part of the group
    where ORT's Relu/ClipQuantFusion removes it (the Q's saturation
    covers it), else left to the CPU EP with the reason."""
    rng = np.random.default_rng(24)
    for dt, npt in TYPES:
        lowest = 0 if npt == np.uint8 else -128
        u8 = npt == np.uint8
        # (act, lo, hi, Q scale, Q zero point, claimed)
        for act, lo, hi, ys, yz, want in (("Clip", 0.0, 6.0, np.float32(6 / 255) if u8 else np.float32(6 / 255), lowest, True),
                                          ("Clip", 0.0, 6.0, 0.05, lowest, False),
                                          ("Clip", -100.0, 100.0, 0.05, 3, True),
                                          ("Clip", None, None, 0.05, 3, True),
                                          ("Relu", None, None, 0.05, lowest, True),
                                          ("Relu", None, None, 0.05, lowest + 3, False)):
            for op in ("Conv", "Add"):
                inits = [_i(np.array(0.02, np.float32), "xs"), _i(np.array(3, npt), "xz"),
                         _i(np.array(ys, np.float32), "ys")]
                if yz is not None:
                    inits.append(_i(np.array(yz, npt), "yz"))
                if op == "Conv":
                    inits += [_i(rng.integers(0, 40, (4, 3, 3, 3)).astype(npt), "w"),
                              _i(np.array(0.01, np.float32), "ws"), _i(np.array(0, npt), "wz")]
                    shape = [1, 3, 6, 6]
                else:
                    inits += [_i(_data(rng, npt, [2, 9]), "w"), _i(np.array(0.03, np.float32), "ws"),
                              _i(np.array(-2 if not u8 else 7, npt), "wz")]
                    shape = [2, 9]
                names = []
                if lo is not None:
                    inits += [_i(np.array(lo, np.float32), "lo"), _i(np.array(hi, np.float32), "hi")]
                    names = ["lo", "hi"]
                nodes = [h.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xf"]),
                         h.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wf"]),
                         h.make_node(op, ["xf", "wf"], ["of"], **({"pads": [1, 1, 1, 1]} if op == "Conv" else {})),
                         h.make_node(act, ["of"] + names, ["af"]),
                         h.make_node("QuantizeLinear", ["af", "ys"] + (["yz"] if yz is not None else []), ["y"])]
                mb = _model(nodes, [h.make_tensor_value_info("x", dt, shape)], inits, dt)
                if op == "Conv" and not u8:
                    continue  # s8 x s8 convolution: covered by the product tests
                _check(result, ep, mb, {"x": _data(rng, npt, shape)}, 5 if want else 0,
                       "DQ->%s->%s(%s, %s)->Q %s scale %.5g zero point %s" % (
                           op, act, lo, hi, "u8" if u8 else "s8", ys, yz),
                       None if want else "ORT keeps it")


def t_select(ep, result):
    """DQ -> Slice / Resize (nearest, integer scales) -> Q with equal
    parameters: claimed, each output element one input element; linear
    Resize and a fractional scale left to the CPU EP."""
    rng = np.random.default_rng(25)
    L = np.iinfo(np.int64)
    slices = [([2, 7, 5], [1, 0], [2, 6], [0, 1], [1, 2]),
              ([4, 9], [-1, 8], [L.min, 0], [0, 1], [-1, -3]),
              ([3, 10], [2], [L.max], None, None),
              ([6, 4, 4], [5, -2], [-7, 100], [0, -1], [-2, 1]),
              ([5, 5], [1], [1], [1], [1])]
    resizes = [([1, 2, 3, 4], [1, 1, 2, 2], {}), ([1, 1, 3, 5], [1, 1, 3, 2], {}),
               ([1, 2, 2, 3], [1, 1, 2, 4], {"coordinate_transformation_mode": "asymmetric"}),
               ([1, 2, 3, 3], [1, 1, 2, 2], {"coordinate_transformation_mode": "asymmetric",
                                             "nearest_mode": "round_prefer_ceil"}),
               ([2, 3, 3], [1, 3, 3], {"nearest_mode": "floor"}),
               ([1, 1, 4, 2], [1, 1, 3, 3], {"coordinate_transformation_mode": "pytorch_half_pixel",
                                             "nearest_mode": "ceil"})]
    for dt, npt in TYPES:
        zp = 11 if npt == np.uint8 else -7
        for shape, st, en, ax, steps in slices:
            inits = [_i(np.array(0.04, np.float32), "s"), _i(np.array(zp, npt), "z"),
                     _i(np.array(st, np.int64), "st"), _i(np.array(en, np.int64), "en")]
            names = ["st", "en"]
            if ax is not None:
                inits += [_i(np.array(ax, np.int64), "ax"), _i(np.array(steps, np.int64), "sp")]
                names += ["ax", "sp"]
            nodes = [h.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"]),
                     h.make_node("Slice", ["xf"] + names, ["of"]),
                     h.make_node("QuantizeLinear", ["of", "s", "z"], ["y"])]
            mb = _model(nodes, [h.make_tensor_value_info("x", dt, shape)], inits, dt)
            _check(result, ep, mb, {"x": _data(rng, npt, shape)}, 3,
                   "DQ->Slice->Q %s %s starts %s ends %s axes %s steps %s" % (
                       "u8" if npt == np.uint8 else "s8", shape, st, en, ax, steps))
        for shape, scales, attrs in resizes + [([1, 1, 2, 2], [1, 1, 2, 2], {"mode": "linear"}),
                                               ([1, 1, 4, 4], [1, 1, 1.5, 1.5], {})]:
            inits = [_i(np.array(0.04, np.float32), "s"), _i(np.array(zp, npt), "z"),
                     _i(np.array(scales, np.float32), "sc")]
            nodes = [h.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"]),
                     h.make_node("Resize", ["xf", "", "sc"], ["of"], **attrs),
                     h.make_node("QuantizeLinear", ["of", "s", "z"], ["y"])]
            mb = _model(nodes, [h.make_tensor_value_info("x", dt, shape)], inits, dt)
            want = 0 if attrs.get("mode") == "linear" or scales[-1] != int(scales[-1]) else 3
            _check(result, ep, mb, {"x": _data(rng, npt, shape)}, want,
                   "DQ->Resize->Q %s %s scales %s %s" % ("u8" if npt == np.uint8 else "s8", shape, scales, attrs),
                   None if want else "Resize")


def t_softmax(ep, result):
    """DQ -> Softmax -> Q (QLinearSoftmax on the CPU EP): 200 random
    shapes, axes, opsets 11 and 13, scales and zero points (seed 9 holds
    a case where a double log in the table would differ); one result line
    per type and opset; a run-time scale left to the CPU EP."""
    rng = np.random.default_rng(9)
    stats = {}
    for it in range(200):
        dt, npt = TYPES[it % 2]
        info = np.iinfo(npt)
        opset = [13, 11][(it // 2) % 2]
        D = int(rng.integers(2, 300))
        shape = [3, int(rng.integers(1, 5)), D]
        axis = int(rng.choice([-1, 2, 1])) if opset == 13 else int(rng.choice([1, 2, -1]))
        sx = np.float32(np.exp(rng.uniform(-6, 0)))
        sy = np.float32(1 / 256) if it % 3 else np.float32(np.exp(rng.uniform(-6, -1)))
        zx = int(rng.integers(info.min, int(info.max) + 1))
        zy = (0 if npt == np.uint8 else -128) if it % 3 else int(rng.integers(info.min, int(info.max) + 1))
        inits = [_i(np.array(sx, np.float32), "sx"), _i(np.array(zx, npt), "zx"),
                 _i(np.array(sy, np.float32), "sy"), _i(np.array(zy, npt), "zy")]
        nodes = [h.make_node("DequantizeLinear", ["x", "sx", "zx"], ["xf"]),
                 h.make_node("Softmax", ["xf"], ["sf"], axis=axis),
                 h.make_node("QuantizeLinear", ["sf", "sy", "zy"], ["y"])]
        mb = _model(nodes, [h.make_tensor_value_info("x", dt, shape)], inits, dt, opset=opset)
        x = _data(rng, npt, shape)
        c = oc.session(mb)[0].run(None, {"x": x})[0]
        es, summ = oc.session(mb, ep)
        e = es.run(None, {"x": x})[0]
        st = stats.setdefault(("u8" if npt == np.uint8 else "s8", opset), [0, 0, []])
        st[0] += 1
        if summ is None or summ[0] != 3 or not np.array_equal(c, e):
            st[1] += 1
            st[2].append("%s axis %d sx %g sy %g zy %d: claimed %s, %s" % (
                shape, axis, sx, sy, zy, summ[0] if summ else None,
                "equal" if np.array_equal(c, e) else "DIFFERS"))
    for (t, opset), (n, bad, why) in sorted(stats.items()):
        result(bad == 0, "DQ->Softmax->Q %s opset %d: %d random cases claimed and equal to the CPU EP, %d not%s"
               % (t, opset, n - bad, bad, (": " + "; ".join(why[:3])) if why else ""))
    # floor(1 / output scale) above ~148 D: ORT's largest product is inf
    for dt, npt in TYPES:
        for D in (1, 2, 3):
            inits = [_i(np.array(0.05, np.float32), "sx"), _i(np.array(1, npt), "zx"),
                     _i(np.array(1 / 60000, np.float32), "sy"), _i(np.array(-5 if npt == np.int8 else 5, npt), "zy")]
            nodes = [h.make_node("DequantizeLinear", ["x", "sx", "zx"], ["xf"]), h.make_node("Softmax", ["xf"], ["sf"]),
                     h.make_node("QuantizeLinear", ["sf", "sy", "zy"], ["y"])]
            mb = _model(nodes, [h.make_tensor_value_info("x", dt, [4, D])], inits, dt)
            _check(result, ep, mb, {"x": _data(rng, npt, [4, D])}, 3,
                   "DQ->Softmax->Q %s D %d output scale 1/60000 (ORT's inf product)" % (
                       "u8" if npt == np.uint8 else "s8", D))
    inits = [_i(np.array(1 / 256, np.float32), "sy"), _i(np.array(0, np.uint8), "z")]
    nodes = [h.make_node("DequantizeLinear", ["x", "rs", "z"], ["xf"]), h.make_node("Softmax", ["xf"], ["sf"]),
             h.make_node("QuantizeLinear", ["sf", "sy", "z"], ["y"])]
    mb = _model(nodes, [h.make_tensor_value_info("x", T.UINT8, [2, 7]), h.make_tensor_value_info("rs", T.FLOAT, [])],
                inits, T.UINT8)
    _check(result, ep, mb, {"x": _data(rng, np.uint8, [2, 7]), "rs": np.array(0.1, np.float32)}, 0,
           "DQ->Softmax->Q with a run-time scale", "run-time")


def t_pool(ep, result):
    """DQ -> GlobalAveragePool / AveragePool -> Q (QLinearGlobalAveragePool
    / QLinearAveragePool on the CPU EP): 150 random shapes, windows,
    strides, pads, count_include_pad, AveragePool over the whole image
    (ORT's global path), scales and zero points; one result line per
    type and op; ceil_mode left to the CPU EP."""
    rng = np.random.default_rng(26)
    stats = {}
    for it in range(150):
        dt, npt = TYPES[it % 2]
        info = np.iinfo(npt)
        g = (it // 2) % 3
        H, W = int(rng.integers(2, 12)), int(rng.integers(2, 12))
        shape = [int(rng.integers(1, 3)), int(rng.integers(1, 6)), H, W]
        attrs = {}
        op = "GlobalAveragePool" if g == 0 else "AveragePool"
        if g == 1:
            kh, kw = int(rng.integers(1, H + 1)), int(rng.integers(1, W + 1))
            attrs = dict(kernel_shape=[kh, kw], strides=[int(rng.integers(1, 3)), int(rng.integers(1, 3))])
            if kh > 1 and kw > 1 and rng.integers(0, 2):
                attrs["pads"] = [int(rng.integers(0, kh)), int(rng.integers(0, kw)),
                                 int(rng.integers(0, kh)), int(rng.integers(0, kw))]
            attrs["count_include_pad"] = int(rng.integers(0, 2))
        elif g == 2:
            attrs = dict(kernel_shape=[H, W])
        sx, sy = (np.float32(v) for v in np.exp(rng.uniform(-6, 0, 2)))
        zx, zy = (int(v) for v in rng.integers(info.min, int(info.max) + 1, 2))
        inits = [_i(np.array(sx, np.float32), "sx"), _i(np.array(zx, npt), "zx"),
                 _i(np.array(sy, np.float32), "sy"), _i(np.array(zy, npt), "zy")]
        nodes = [h.make_node("DequantizeLinear", ["x", "sx", "zx"], ["xf"]), h.make_node(op, ["xf"], ["pf"], **attrs),
                 h.make_node("QuantizeLinear", ["pf", "sy", "zy"], ["y"])]
        mb = _model(nodes, [h.make_tensor_value_info("x", dt, shape)], inits, dt)
        x = _data(rng, npt, shape)
        c = oc.session(mb)[0].run(None, {"x": x})[0]
        es, summ = oc.session(mb, ep)
        e = es.run(None, {"x": x})[0]
        key = ("u8" if npt == np.uint8 else "s8", op + (" whole image" if g == 2 else ""))
        st = stats.setdefault(key, [0, 0, []])
        st[0] += 1
        if summ is None or summ[0] != 3 or not np.array_equal(c, e):
            st[1] += 1
            st[2].append("%s %s: claimed %s, %s" % (shape, attrs, summ[0] if summ else None,
                                                    "equal" if np.array_equal(c, e) else "DIFFERS"))
    for (t, op), (n, bad, why) in sorted(stats.items()):
        result(bad == 0, "DQ->%s->Q %s: %d random cases claimed and equal to the CPU EP, %d not%s"
               % (op, t, n - bad, bad, (": " + "; ".join(why[:3])) if why else ""))
    inits = [_i(np.array(0.1, np.float32), "s"), _i(np.array(3, np.uint8), "z")]
    nodes = [h.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"]),
             h.make_node("AveragePool", ["xf"], ["pf"], kernel_shape=[2, 2], ceil_mode=1, strides=[2, 2]),
             h.make_node("QuantizeLinear", ["pf", "s", "z"], ["y"])]
    mb = _model(nodes, [h.make_tensor_value_info("x", T.UINT8, [1, 2, 5, 5])], inits, T.UINT8)
    _check(result, ep, mb, {"x": _data(rng, np.uint8, [1, 2, 5, 5])}, 0, "DQ->AveragePool(ceil_mode)->Q", "ceil_mode")


def _host_line(mb, ep):
    """the summary line's "(G groups, H computed on the host" part"""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.add_provider_for_devices(oc.register(ep), {"log_level": "summary"})
    with oc.CaptureStderr() as cap:
        ort.InferenceSession(mb, sess_options=so)
    lines = [x for x in cap.text.splitlines() if " claimed " in x]
    return lines[-1].split(" partitions ")[-1].split(":")[0] if lines else ""


def t_partition(ep, result):
    """Groups joined by an 8-bit tensor are one partition (one fused
    node): a chain Conv -> Reshape -> Add -> Transpose -> Concat is one;
    a tensor also returned as a graph output is written there and passed
    on; where a float node of the CPU EP sits between two groups on one
    path and not on another, merging them would make a cycle: they stay
    two partitions. Each equal to the CPU EP byte for byte."""
    rng = np.random.default_rng(27)
    q = [_i(np.array(0.05, np.float32), "s"), _i(np.array(3, np.uint8), "z")]
    w = [_i(rng.integers(0, 30, (4, 3, 3, 3)).astype(np.uint8), "w"), _i(np.array(0.01, np.float32), "ws"),
         _i(np.array(0, np.uint8), "wz"), _i(np.array([1, 4, 36], np.int64), "shp")]

    def dq(x, y):
        return h.make_node("DequantizeLinear", [x, "s", "z"], [y])

    def qn(x, y):
        return h.make_node("QuantizeLinear", [x, "s", "z"], [y])

    chain = [dq("x", "xf"), h.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wf"]),
             h.make_node("Conv", ["xf", "wf"], ["cf"], pads=[1, 1, 1, 1]), qn("cf", "c"),
             dq("c", "cf2"), h.make_node("Reshape", ["cf2", "shp"], ["rf"]), qn("rf", "r"),
             dq("r", "rf2"), dq("b", "bf"), h.make_node("Add", ["rf2", "bf"], ["af"]), qn("af", "a"),
             dq("a", "af2"), h.make_node("Transpose", ["af2"], ["tf"], perm=[0, 2, 1]), qn("tf", "t"),
             dq("t", "tf2"), dq("t2", "t2f"), h.make_node("Concat", ["tf2", "t2f"], ["kf"], axis=1), qn("kf", "y")]
    ins = [h.make_tensor_value_info("x", T.UINT8, [1, 3, 6, 6]), h.make_tensor_value_info("b", T.UINT8, [1, 4, 36]),
           h.make_tensor_value_info("t2", T.UINT8, [1, 5, 4])]
    feeds = {"x": _data(rng, np.uint8, [1, 3, 6, 6]), "b": _data(rng, np.uint8, [1, 4, 36]),
             "t2": _data(rng, np.uint8, [1, 5, 4])}
    for extra_out in (False, True):
        outs = [h.make_tensor_value_info("y", T.UINT8, None)]
        if extra_out:
            outs.append(h.make_tensor_value_info("r", T.UINT8, None))
        g = h.make_graph(chain, "g", ins, outs, q + w)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
        m.ir_version = 8
        mb = m.SerializeToString()
        c = oc.session(mb)[0].run(None, feeds)
        es, summ = oc.session(mb, ep)
        e = es.run(None, feeds)
        same = all(np.array_equal(a, b) for a, b in zip(c, e))
        result(summ is not None and summ[0] == summ[1] and summ[2] == 1 and same and
               (extra_out or _host_line(mb, ep).endswith("(5 groups, 4 computed on the host")),
               "Conv->Reshape->Add->Transpose->Concat%s: claimed %s of %s in %s partition(s), %s" % (
                   " (the Reshape's output a graph output too)" if extra_out else "",
                   summ[0] if summ else None, summ[1] if summ else None, summ[2] if summ else None,
                   "equal to the CPU EP" if same else "DIFFERS"))
    # A -> B directly and A -> float Sigmoid (CPU) -> B: not one partition
    nodes = [dq("x", "xf"), h.make_node("Reshape", ["xf", "shp2"], ["rf"]), qn("rf", "a"),
             dq("a", "af1"), dq("a", "af2"), h.make_node("Sigmoid", ["af2"], ["sg"]), qn("sg", "sq"),
             dq("sq", "sf"), h.make_node("Add", ["af1", "sf"], ["of"]), qn("of", "y")]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.UINT8, [2, 6])],
                     [h.make_tensor_value_info("y", T.UINT8, None)], q + [_i(np.array([3, 4], np.int64), "shp2")])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    mb = m.SerializeToString()
    x = _data(rng, np.uint8, [2, 6])
    c = oc.session(mb)[0].run(None, {"x": x})[0]
    es, summ = oc.session(mb, ep)
    e = es.run(None, {"x": x})[0]
    result(summ is not None and summ[2] == 2 and summ[0] == 7 and np.array_equal(c, e),
           "Reshape -> Add and Reshape -> Sigmoid (CPU) -> Add: claimed %s of %s in %s partitions (merging "
           "would be a cycle through the CPU EP), %s" % (summ[0] if summ else None, summ[1] if summ else None,
                                                         summ[2] if summ else None,
                                                         "equal to the CPU EP" if np.array_equal(c, e) else "DIFFERS"))


def t_leaky(ep, result):
    """DQ -> LeakyRelu -> Q (QLinearLeakyRelu's table on the CPU EP): every
    byte value through 20 random parameter sets and alphas per type."""
    rng = np.random.default_rng(28)
    for dt, npt in TYPES:
        info = np.iinfo(npt)
        vals = np.arange(info.min, int(info.max) + 1).astype(npt)
        bad = []
        for _ in range(20):
            sx, sy = (np.float32(v) for v in np.exp(rng.uniform(-6, 0, 2)))
            zx, zy = (int(v) for v in rng.integers(info.min, int(info.max) + 1, 2))
            alpha = float(rng.choice([0.01, 0.1, 0.2, 0.3333, -0.5, 1.7]))
            inits = [_i(np.array(sx, np.float32), "sx"), _i(np.array(zx, npt), "zx"),
                     _i(np.array(sy, np.float32), "sy"), _i(np.array(zy, npt), "zy")]
            nodes = [h.make_node("DequantizeLinear", ["x", "sx", "zx"], ["xf"]),
                     h.make_node("LeakyRelu", ["xf"], ["lf"], alpha=alpha),
                     h.make_node("QuantizeLinear", ["lf", "sy", "zy"], ["y"])]
            mb = _model(nodes, [h.make_tensor_value_info("x", dt, [256])], inits, dt)
            c = oc.session(mb)[0].run(None, {"x": vals})[0]
            es, summ = oc.session(mb, ep)
            e = es.run(None, {"x": vals})[0]
            if summ is None or summ[0] != 3 or not np.array_equal(c, e):
                bad.append("sx %g sy %g zx %d zy %d alpha %g: claimed %s, %s" % (
                    sx, sy, zx, zy, alpha, summ[0] if summ else None,
                    "equal" if np.array_equal(c, e) else "DIFFERS"))
        result(not bad, "DQ->LeakyRelu->Q %s: every byte, 20 random parameter sets claimed and equal to the "
               "CPU EP%s" % ("u8" if npt == np.uint8 else "s8", (": " + "; ".join(bad[:3])) if bad else ""))


def t_qdqops(ep, result):
    t_move(ep, result)
    t_concat(ep, result)
    t_eltwise(ep, result)
    t_act(ep, result)
    t_select(ep, result)
    t_softmax(ep, result)
    t_pool(ep, result)
    t_leaky(ep, result)
    t_partition(ep, result)
