#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The e1 ONNX Runtime plugin EP against ONNX Runtime's CPU EP
(Documentation/onnxruntime.md). Runs inside the sid root (tests/vm/sid-root.sh).

  ort_test.py python EP.so       register the library, list the OrtEpDevice,
                                 sessions with options (good and bad values)
  ort_test.py node EP.so         ONNX's backend node tests of every op type
                                 the EP claims: expected data and CPU EP
  ort_test.py models EP.so DIR   real models quantized at test time (QDQ,
                                 per-tensor and per-channel) and a built one

Each prints result lines and "NAME: N passed, M failed, K skipped".
"""
import contextlib
import glob
import io
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ort_common as oc  # noqa: E402

PASS = FAIL = SKIP = 0


def result(ok, msg):
    global PASS, FAIL
    if ok:
        PASS += 1
        print("PASS: " + msg)
    else:
        FAIL += 1
        print("FAIL: " + msg)


def skip(msg):
    global SKIP
    SKIP += 1
    print("SKIP: " + msg)


def total(name):
    name = os.environ.get("ORT_TEST_NAME", name)
    print("%s: %d passed, %d failed, %d skipped" % (name, PASS, FAIL, SKIP))
    return 1 if FAIL else 0


# ---------------------------------------------------------------- python
def t_python(ep):
    import onnxruntime as ort
    from onnx import helper as h, TensorProto as T
    devs = oc.register(ep)
    d = devs[0]
    md = dict(d.ep_metadata)
    print("device: ep_name=%s vendor=%s metadata=%s" % (d.ep_name, d.ep_vendor, md))
    result(d.ep_name == "e1npu" and md.get("e1npu.description", "").startswith("e1 NPU"),
           "e1 device listed as an OrtEpDevice (%s)" % md.get("e1npu.description"))
    # a QLinearMatMul model
    rng = np.random.default_rng(7)
    inits = [numpy_helper.from_array(np.array(0.05, np.float32), "as"),
             numpy_helper.from_array(np.array(3, np.uint8), "az"),
             numpy_helper.from_array(rng.integers(0, 255, (16, 8)).astype(np.uint8), "b"),
             numpy_helper.from_array(np.array(0.02, np.float32), "bs"),
             numpy_helper.from_array(np.array(128, np.uint8), "bz"),
             numpy_helper.from_array(np.array(0.3, np.float32), "ys"),
             numpy_helper.from_array(np.array(120, np.uint8), "yz")]
    g = h.make_graph([h.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"]),
                      h.make_node("DequantizeLinear", ["y", "ys", "yz"], ["z"])], "g",
                     [h.make_tensor_value_info("a", T.UINT8, [4, 16])],
                     [h.make_tensor_value_info("z", T.FLOAT, [4, 8])], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    mb = m.SerializeToString()
    s, summ = oc.session(mb, ep)
    print("summary:", summ)
    result(summ is not None and summ[0] == 1 and summ[1] == 2 and "DequantizeLinear" in summ[3],
           "summary line: claimed 1 of 2 nodes, DequantizeLinear left with its reason: %s" % (summ,))
    result("e1npu" in s.get_providers()[0] or "e1npu" in str(s.get_providers()),
           "session providers %s" % s.get_providers())
    c, _ = oc.session(mb)
    a = rng.integers(0, 255, (4, 16)).astype(np.uint8)
    result(np.array_equal(s.run(None, {"a": a})[0], c.run(None, {"a": a})[0]),
           "QLinearMatMul through the e1 EP equals the CPU EP")
    # ORT's Python session falls back to the CPU EP alone when an EP
    # fails to be created, printing the EP's error: look for both
    crun = os.environ.get("ORT_C_RUN")
    if crun and os.path.exists(crun):
        import subprocess
        tmp = os.environ.get("ORT_TMP", "/tmp")
        os.makedirs(tmp, exist_ok=True)
        mp = os.path.join(tmp, "qlinearmatmul.onnx")
        with open(mp, "wb") as f:
            f.write(mb)
        a.tofile(os.path.join(tmp, "qlinearmatmul.in"))
        c.run(None, {"a": a})[0].tofile(os.path.join(tmp, "qlinearmatmul.cpu"))
        r = subprocess.run([crun, "-e", os.path.join(tmp, "qlinearmatmul.cpu"), ep, mp,
                            os.path.join(tmp, "qlinearmatmul.in")], capture_output=True, text=True)
        line = [x for x in r.stdout.splitlines() if x.startswith(("PASS", "FAIL"))]
        summ_c = [x for x in r.stderr.splitlines() if "claimed" in x]
        result(r.returncode == 0 and bool(line) and line[0].startswith("PASS") and bool(summ_c),
               "%s; %s" % (line[0][6:] if line else r.stdout + r.stderr[-300:],
                           summ_c[-1] if summ_c else "no summary line"))
    else:
        skip("C API client: ORT_C_RUN not set or not built")
    for key, val in [("log_level", "loud"), ("device", "/nonexistent/accel9"),
                     ("cache_dir", "/nonexistent-dir"), ("summary", "maybe"),
                     ("E1NPU_ORT_LOG", "chatty")]:
        env = key.startswith("E1NPU_")
        if env:
            os.environ[key] = val
        err = ""
        provs = []
        out = io.StringIO()
        with oc.CaptureStderr() as cap, contextlib.redirect_stdout(out):
            try:
                s3, _ = oc.session(mb, ep, {"log_level": None} if env else {key: val})
                provs = s3.get_providers()
            except Exception as e:  # noqa: BLE001
                err = str(e)
        err += cap.text + out.getvalue()
        if env:
            del os.environ[key]
        line = [x for x in err.splitlines() if "e1npu:" in x]
        result(bool(line) and val in line[0] and not any("e1npu" in p for p in provs),
               "bad %s=%s refused: %s" % (key, val, line[0].split("e1npu:")[-1].strip() if line else err[-200:]))
    s2, _ = oc.session(mb, ep, {"device": "sim", "log_level": "quiet"})
    result(np.array_equal(s2.run(None, {"a": a})[0], c.run(None, {"a": a})[0]),
           "device=sim (the in-process device model) explicitly")
    t_conv_shapes(ep)
    t_maxpool(ep)
    t_conv_relu(ep)
    t_gemm(ep)
    import ort_qdqops
    ort_qdqops.t_qdqops(ep, result)
    import ort_epcontext
    ort_epcontext.t_epcontext(ep, result)
    ort_epcontext.t_epcontext_groups(ep, result)
    import ort_fuzz
    ort_fuzz.t_fuzz(ep, result, int(os.environ.get("ORT_FUZZ_COUNT", "300")))
    return total("check-ort-python")


def t_gemm(ep):
    """DQ -> Gemm (+ DQ int32 bias) -> Q, which ORT fuses into QGemm:
    transB 0/1, per-tensor and per-column u8 weights."""
    from onnx import helper as h, TensorProto as T
    rng = np.random.default_rng(17)
    M, K, N = 5, 24, 12
    for transb in (0, 1):
        for pc in (False, True):
            wshape = (N, K) if transb else (K, N)
            ws = (rng.random(N).astype(np.float32) * 0.01 + 0.002) if pc else np.array(0.006, np.float32)
            wz = np.full(N, 120, np.uint8) if pc else np.array(120, np.uint8)
            bscale = (np.float32(0.03) * ws).astype(np.float32)
            inits = [numpy_helper.from_array(np.array(0.03, np.float32), "xs"),
                     numpy_helper.from_array(np.array(128, np.uint8), "xz"),
                     numpy_helper.from_array(rng.integers(0, 255, wshape).astype(np.uint8), "w"),
                     numpy_helper.from_array(ws, "ws"), numpy_helper.from_array(wz, "wz"),
                     numpy_helper.from_array(rng.integers(-3000, 3000, N).astype(np.int32), "b"),
                     numpy_helper.from_array(bscale if pc else np.array(bscale, np.float32), "bs"),
                     numpy_helper.from_array(np.zeros(N, np.int32) if pc else np.array(0, np.int32), "bz"),
                     numpy_helper.from_array(np.array(0.08, np.float32), "ys"),
                     numpy_helper.from_array(np.array(110, np.uint8), "yz")]
            dqw = h.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wf"], axis=(0 if transb else 1)) if pc \
                else h.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wf"])
            nodes = [h.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xf"]), dqw,
                     h.make_node("DequantizeLinear", ["b", "bs", "bz"], ["bf"], **({"axis": 0} if pc else {})),
                     h.make_node("Gemm", ["xf", "wf", "bf"], ["gf"], transB=transb),
                     h.make_node("QuantizeLinear", ["gf", "ys", "yz"], ["y"])]
            gr = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.UINT8, [M, K])],
                              [h.make_tensor_value_info("y", T.UINT8, [M, N])], inits)
            m = h.make_model(gr, opset_imports=[h.make_opsetid("", 13)])
            m.ir_version = 8
            mb = m.SerializeToString()
            x = rng.integers(0, 256, (M, K)).astype(np.uint8)
            c = oc.session(mb)[0].run(None, {"x": x})[0]
            es, summ = oc.session(mb, ep)
            e = es.run(None, {"x": x})[0]
            result(summ is not None and summ[0] == 5 and np.array_equal(c, e),
                   "DQ->Gemm->Q u8 x u8 transB %d %s: claimed %s of %s%s, %s"
                   % (transb, "per-column" if pc else "per-tensor", summ[0] if summ else None,
                      summ[1] if summ else None, "" if not summ or summ[0] else " (" + summ[3] + ")",
                      "equal to the CPU EP" if np.array_equal(c, e) else "DIFFERS"))


def t_conv_relu(ep):
    """DQ -> Conv -> Relu -> Q: claimed (Relu included) when the Q zero point
    is the type's lowest value (ORT drops the Relu then), else left."""
    from onnx import helper as h, TensorProto as T
    rng = np.random.default_rng(13)
    for yz in (0, 10):
        inits = [numpy_helper.from_array(np.array(0.04, np.float32), "xs"),
                 numpy_helper.from_array(np.array(128, np.uint8), "xz"),
                 numpy_helper.from_array(rng.integers(0, 255, (6, 3, 3, 3)).astype(np.uint8), "w"),
                 numpy_helper.from_array(np.array(0.003, np.float32), "ws"),
                 numpy_helper.from_array(np.array(127, np.uint8), "wz"),
                 numpy_helper.from_array(np.array(0.05, np.float32), "ys"),
                 numpy_helper.from_array(np.array(yz, np.uint8), "yz")]
        nodes = [h.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xf"]),
                 h.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wf"]),
                 h.make_node("Conv", ["xf", "wf"], ["cf"], pads=[1, 1, 1, 1]),
                 h.make_node("Relu", ["cf"], ["rf"]),
                 h.make_node("QuantizeLinear", ["rf", "ys", "yz"], ["y"])]
        gr = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.UINT8, [1, 3, 9, 9])],
                          [h.make_tensor_value_info("y", T.UINT8, None)], inits)
        m = h.make_model(gr, opset_imports=[h.make_opsetid("", 13)])
        m.ir_version = 8
        mb = m.SerializeToString()
        x = rng.integers(0, 256, (1, 3, 9, 9)).astype(np.uint8)
        c = oc.session(mb)[0].run(None, {"x": x})[0]
        es, summ = oc.session(mb, ep)
        e = es.run(None, {"x": x})[0]
        want = 5 if yz == 0 else 0
        result(summ is not None and summ[0] == want and np.array_equal(c, e),
               "DQ->Conv->Relu->Q, Q zero point %d: claimed %s of %s%s, %s"
               % (yz, summ[0] if summ else None, summ[1] if summ else None,
                  "" if not summ or summ[0] else " (" + summ[3] + ")",
                  "equal to the CPU EP" if np.array_equal(c, e) else "DIFFERS"))


def t_maxpool(ep):
    """DQ -> MaxPool -> Q with equal parameters: claimed, byte-identical;
    with different parameters: left to the CPU EP."""
    from onnx import helper as h, TensorProto as T
    rng = np.random.default_rng(11)
    for dt, npt, zp in ((T.UINT8, np.uint8, 17), (T.INT8, np.int8, -5)):
        for (H, W, k, s, same) in ((8, 8, 2, 2, True), (9, 7, 3, 2, True), (6, 6, 3, 1, True),
                                   (8, 8, 2, 2, False)):
            inits = [numpy_helper.from_array(np.array(0.05, np.float32), "s"),
                     numpy_helper.from_array(np.array(zp, npt), "z"),
                     numpy_helper.from_array(np.array(0.05 if same else 0.07, np.float32), "s2")]
            nodes = [h.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"]),
                     h.make_node("MaxPool", ["xf"], ["pf"], kernel_shape=[k, k], strides=[s, s]),
                     h.make_node("QuantizeLinear", ["pf", "s2", "z"], ["y"])]
            gr = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", dt, [2, 3, H, W])],
                              [h.make_tensor_value_info("y", dt, None)], inits)
            m = h.make_model(gr, opset_imports=[h.make_opsetid("", 13)])
            m.ir_version = 8
            mb = m.SerializeToString()
            lo, hi = (0, 256) if npt == np.uint8 else (-128, 128)
            x = rng.integers(lo, hi, (2, 3, H, W)).astype(npt)
            c = oc.session(mb)[0].run(None, {"x": x})[0]
            es, summ = oc.session(mb, ep)
            e = es.run(None, {"x": x})[0]
            want = 3 if same else 0
            result(summ is not None and summ[0] == want and np.array_equal(c, e),
                   "DQ->MaxPool->Q %s %dx%d k%d s%d %s parameters: claimed %s of %s, %s"
                   % ("u8" if npt == np.uint8 else "s8", H, W, k, s, "equal" if same else "different",
                      summ[0] if summ else None, summ[1] if summ else None,
                      "equal to the CPU EP" if np.array_equal(c, e) else "DIFFERS"))


def t_conv_shapes(ep):
    """QLinearConv (u8 x u8 per-channel zero points, bias) and QLinearMatMul
    (u8 x s8 small weights, s8 x s8) over strides, dilations, groups,
    auto_pad: e1 claims them and equals the CPU EP byte for byte."""
    from onnx import helper as h, TensorProto as T
    rng = np.random.default_rng(3)
    for ap in ["SAME_UPPER", "SAME_LOWER", "VALID", None]:
        for (H, W, kh, kw, s, d, g) in [(7, 9, 3, 3, 2, 1, 1), (8, 8, 5, 5, 1, 1, 2),
                                        (6, 7, 2, 3, 3, 1, 4), (10, 10, 3, 3, 1, 2, 1),
                                        (9, 5, 1, 1, 1, 1, 4)]:
            if ap and ap.startswith("SAME") and d > 1:
                continue  # ORT's CPU EP refuses it
            C, M = 4, 8
            inits = [numpy_helper.from_array(np.array(0.03, np.float32), "xs"),
                     numpy_helper.from_array(np.array(9, np.uint8), "xz"),
                     numpy_helper.from_array(rng.integers(0, 255, (M, C // g, kh, kw)).astype(np.uint8), "w"),
                     numpy_helper.from_array(rng.random(M).astype(np.float32) * 0.01 + 0.001, "ws"),
                     numpy_helper.from_array(np.full(M, 121, np.uint8), "wz"),
                     numpy_helper.from_array(np.array(0.2, np.float32), "ys"),
                     numpy_helper.from_array(np.array(100, np.uint8), "yz"),
                     numpy_helper.from_array(rng.integers(-500, 500, M).astype(np.int32), "b")]
            attrs = dict(strides=[s, s], dilations=[d, d], group=g)
            if ap:
                attrs["auto_pad"] = ap
            else:
                attrs["pads"] = [1, 0, 0, 1] if kh > 1 else [0, 0, 0, 0]
            n = h.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"], **attrs)
            gr = h.make_graph([n], "g", [h.make_tensor_value_info("x", T.UINT8, [2, C, H, W])],
                              [h.make_tensor_value_info("y", T.UINT8, None)], inits)
            m = h.make_model(gr, opset_imports=[h.make_opsetid("", 13)])
            m.ir_version = 8
            mb = m.SerializeToString()
            x = rng.integers(0, 255, (2, C, H, W)).astype(np.uint8)
            c = oc.session(mb)[0].run(None, {"x": x})[0]
            es, summ = oc.session(mb, ep)
            e = es.run(None, {"x": x})[0]
            result(summ is not None and summ[0] == 1 and c.shape == e.shape and np.array_equal(c, e),
                   "QLinearConv u8 auto_pad=%s HxW %dx%d k %dx%d stride %d dilation %d group %d: "
                   "claimed %s, %s" % (ap, H, W, kh, kw, s, d, g, summ[:2] if summ else None,
                                       "equal to the CPU EP" if np.array_equal(c, e) else "DIFFERS"))
    # int8 weights: small ones are claimed (no int16 pair can saturate in
    # MLAS's AVX2 u8s8 kernel), large ones are left to the CPU EP there
    for wmax in (60, 127):
        for adt in (T.UINT8, T.INT8):
            npa = np.uint8 if adt == T.UINT8 else np.int8
            inits = [numpy_helper.from_array(np.array(0.02, np.float32), "as"),
                     numpy_helper.from_array(np.array(7 if adt == T.UINT8 else -3, npa), "az"),
                     numpy_helper.from_array(rng.integers(-wmax, wmax + 1, (64, 48)).astype(np.int8), "b"),
                     numpy_helper.from_array(np.array(0.013, np.float32), "bs"),
                     numpy_helper.from_array(np.array(0, np.int8), "bz"),
                     numpy_helper.from_array(np.array(0.11, np.float32), "ys"),
                     numpy_helper.from_array(np.array(100 if adt == T.UINT8 else 2, npa), "yz")]
            n = h.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])
            gr = h.make_graph([n], "g", [h.make_tensor_value_info("a", adt, [3, 10, 64])],
                              [h.make_tensor_value_info("y", adt, [3, 10, 48])], inits)
            m = h.make_model(gr, opset_imports=[h.make_opsetid("", 13)])
            m.ir_version = 8
            mb = m.SerializeToString()
            a = rng.integers(0 if npa == np.uint8 else -128, 127, (3, 10, 64)).astype(npa)
            c = oc.session(mb)[0].run(None, {"a": a})[0]
            es, summ = oc.session(mb, ep)
            e = es.run(None, {"a": a})[0]
            result(summ is not None and np.array_equal(c, e),
                   "QLinearMatMul %s x s8 |w| <= %d: claimed %d of %d%s, %s"
                   % ("u8" if adt == T.UINT8 else "s8", wmax, summ[0], summ[1],
                      "" if summ[0] else " (" + summ[3] + ")",
                      "equal to the CPU EP" if np.array_equal(c, e) else "DIFFERS"))


# ---------------------------------------------------------------- node tests
CLAIMED_OPS = ["QLinearMatMul", "QLinearConv", "MatMulInteger", "ConvInteger", "MatMul", "Conv",
               "DequantizeLinear", "QuantizeLinear", "Gemm", "MaxPool", "Relu", "Reshape", "Flatten",
               "Squeeze", "Unsqueeze", "Transpose", "Concat", "Add", "Mul", "Clip", "Slice", "Resize",
               "Softmax", "AveragePool", "GlobalAveragePool", "LeakyRelu"]


def node_dirs():
    base = "/usr/share/libonnx-testdata/data/node"
    return base, sorted(glob.glob(os.path.join(base, "test_*")))


def load_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def t_node(ep):
    base, dirs = node_dirs()
    counts = {}
    print("node tests from %s (%d dirs)" % (base, len(dirs)))
    for d in dirs:
        mp = os.path.join(d, "model.onnx")
        try:
            model = onnx.load(mp)
        except Exception as e:  # noqa: BLE001
            continue
        ops = {n.op_type for n in model.graph.node}
        mine = sorted(ops & set(CLAIMED_OPS))
        if not mine:
            # (float MatMul/Conv/Gemm/MaxPool/Relu tests are run too: the
            # EP must leave float nodes alone)
            continue
        name = os.path.basename(d)
        key = "/".join(mine)
        cnt = counts.setdefault(key, [0, 0, 0, 0])  # pass fail skip claimed
        try:
            cpu, _ = oc.session(mp)
        except Exception as e:  # noqa: BLE001
            skip("%s: the CPU EP cannot load it (%s)" % (name, str(e).strip().splitlines()[0][:100]))
            cnt[2] += 1
            continue
        try:
            e1, summ = oc.session(mp, ep)
        except Exception as e:  # noqa: BLE001
            result(False, "%s: session with the e1 EP: %s" % (name, e))
            cnt[1] += 1
            continue
        claimed = summ[0] if summ else 0
        if claimed:
            cnt[3] += 1
        ins = [i.name for i in e1.get_inputs()]
        good = True
        why = []
        for ds in sorted(glob.glob(os.path.join(d, "test_data_set_*"))):
            feeds = {}
            for i, n in enumerate(ins):
                p = os.path.join(ds, "input_%d.pb" % i)
                if os.path.exists(p):
                    feeds[n] = load_pb(p)
            exp = [load_pb(p) for p in sorted(glob.glob(os.path.join(ds, "output_*.pb")))]
            try:
                yc = cpu.run(None, feeds)
            except Exception as e:  # noqa: BLE001
                why.append("SKIP: the CPU EP alone fails to run it: %s" % str(e).strip()[:100])
                continue
            try:
                ye = e1.run(None, feeds)
            except Exception as e:  # noqa: BLE001
                good = False
                why.append("run: %s" % str(e)[:100])
                continue
            for a, b, x in zip(ye, yc, exp):
                if claimed and not (a.dtype == b.dtype and a.shape == b.shape and
                                    a.tobytes() == b.tobytes()):
                    good = False
                    why.append("differs from the CPU EP")
                if np.issubdtype(x.dtype, np.integer):
                    tol_ok = a.shape == x.shape and np.max(np.abs(a.astype(np.int64) - x.astype(np.int64)), initial=0) <= 1
                else:
                    tol_ok = a.shape == x.shape and np.allclose(a, x, rtol=1e-3, atol=1e-5)
                if not tol_ok:
                    # the CPU EP itself may not meet ONNX's expectation
                    if a.tobytes() == b.tobytes():
                        why.append("expected data not met by the CPU EP alone either (same bytes)")
                    else:
                        good = False
                        why.append("expected data not met")
        if why and all(w.startswith("SKIP") for w in why):
            skip("%s (%s): %s" % (name, key, why[0][6:]))
            cnt[2] += 1
            continue
        if summ and summ[0] < summ[1]:
            why.append("left: " + summ[3][:200])
        msg = "%s (%s): claimed %s%s" % (name, key, "%d of %d" % summ[:2] if summ else "0",
                                         ("; " + "; ".join(sorted(set(why)))) if why else "")
        result(good, msg)
        cnt[0 if good else 1] += 1
    print("per op type (tests passed/failed/skipped, tests where e1 claimed nodes):")
    for k in sorted(counts):
        p, f, s, c = counts[k]
        print("  %-40s %3d passed %3d failed %3d skipped  e1 claimed in %d" % (k, p, f, s, c))
    return total("check-ort-node")


# ---------------------------------------------------------------- models
def t_models(ep, outdir):
    import ort_models as om
    os.makedirs(outdir, exist_ok=True)
    rows = []
    only = os.environ.get("ORT_MODELS_ONLY", "").split()
    for name, path, feeds, src in om.all_models(outdir, result, skip, only):
        try:
            cpu, _ = oc.session(path)
            e1, summ = oc.session(path, ep)
        except Exception as e:  # noqa: BLE001
            result(False, "%s: session: %s" % (name, e))
            continue
        same = 0
        for i, f in enumerate(feeds):
            yc = cpu.run(None, f)
            ye = e1.run(None, f)
            eq = all(a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
                     for a, b in zip(ye, yc))
            same += eq
        # u8 weights are exact on every MLAS path: e1 must take some of it
        claims = summ is not None and (summ[0] > 0 or not name.endswith("_u8u8"))
        result(same == len(feeds) and claims,
               "%s: ORT+e1 vs ORT CPU byte-identical on %d/%d inputs; claimed %s"
               % (name, same, len(feeds), "%d of %d nodes in %d partitions" % summ[:3] if summ else "?"))
        rows.append((name, summ, same, len(feeds), src))
        if summ:
            print("   left: %s" % summ[3][:600])
    print("model table:")
    print("| model | claimed / total nodes | partitions | byte-identical inputs | float model from |")
    print("|---|---|---|---|---|")
    for name, summ, same, n, src in rows:
        print("| %s | %s | %s | %d/%d | %s |" % (name, "%d / %d" % summ[:2] if summ else "?",
                                               summ[2] if summ else "?", same, n, src))
    return total("check-ort-models")


def main():
    mode, ep = sys.argv[1], sys.argv[2]
    if mode == "python":
        return t_python(ep)
    if mode == "node":
        return t_node(ep)
    if mode == "models":
        return t_models(ep, sys.argv[3])
    print("unknown mode " + mode)
    return 2


if __name__ == "__main__":
    sys.exit(main())
