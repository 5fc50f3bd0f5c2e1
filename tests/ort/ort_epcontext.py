# SPDX-License-Identifier: MIT
"""EPContext models of the e1 ONNX Runtime EP (Documentation/onnxruntime.md
"Compiled models"): a session with ep.context_enable=1 writes the compiled
model; a session on it runs without compiling again, byte-identical with
the CPU EP on the original; blobs of another library or format version,
for another device, corrupted, foreign, or not embedded are refused with
the reason. The artifact header offsets and the checksum are those
lib/tflite/tflite_artifact.h documents, written here again from that text."""
import hashlib
import os
import re

import numpy as np
import onnx
from onnx import helper as h, numpy_helper, TensorProto as T

import ort_common as oc

MAGIC = b"E1NPUCM\n"
M64 = (1 << 64) - 1


def _sum64(hh, b):
    m1, m2 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F
    n = len(b)
    i = 0
    while i + 8 <= n:
        w = int.from_bytes(b[i:i + 8], "little")
        hh ^= (w * m2) & M64
        hh = ((((hh << 31) | (hh >> 33)) & M64) * m1) & M64
        i += 8
    while i < n:
        hh ^= (b[i] * m2) & M64
        hh = ((((hh << 31) | (hh >> 33)) & M64) * m1) & M64
        i += 1
    hh ^= n
    hh ^= hh >> 33
    hh = (hh * m2) & M64
    hh ^= hh >> 29
    return hh


def reseal(blob):
    """The artifact's checksum (bytes 112..120) written again."""
    b = bytearray(blob)
    s = _sum64(_sum64(0x6531, bytes(b[:112])), bytes(b[120:]))
    b[112:120] = s.to_bytes(8, "little")
    return bytes(b)


def reseal_all(blob):
    """SHA-256 of the payload (the model section, after the 128-byte
    header of a record-less artifact) and the checksum written again:
    what anyone crafting a blob can do."""
    b = bytearray(blob)
    b[32:64] = hashlib.sha256(bytes(b[128:])).digest()
    return reseal(bytes(b))


def plain(text):
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def model():
    """u8 QLinearConv (per-channel weight scales, bias) -> DQ -> MaxPool ->
    Q -> QLinearMatMul -> DQ: three partitions the EP claims."""
    rng = np.random.default_rng(31)
    w = rng.integers(0, 256, (4, 3, 3, 3)).astype(np.uint8)
    inits = [numpy_helper.from_array(np.array(0.02, np.float32), "xs"),
             numpy_helper.from_array(np.array(100, np.uint8), "xz"),
             numpy_helper.from_array(w, "w"),
             numpy_helper.from_array(np.array([0.01, 0.012, 0.008, 0.011], np.float32), "ws"),
             numpy_helper.from_array(np.array(128, np.uint8), "wz"),
             numpy_helper.from_array(rng.integers(-500, 500, 4).astype(np.int32), "b"),
             numpy_helper.from_array(np.array(0.5, np.float32), "ys"),
             numpy_helper.from_array(np.array(20, np.uint8), "yz"),
             numpy_helper.from_array(rng.integers(0, 256, (3, 5)).astype(np.uint8), "m"),
             numpy_helper.from_array(np.array(0.03, np.float32), "ms"),
             numpy_helper.from_array(np.array(120, np.uint8), "mz"),
             numpy_helper.from_array(np.array(0.7, np.float32), "os"),
             numpy_helper.from_array(np.array(9, np.uint8), "oz")]
    nodes = [h.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["c"],
                         pads=[1, 1, 1, 1]),
             h.make_node("DequantizeLinear", ["c", "ys", "yz"], ["cf"]),
             h.make_node("MaxPool", ["cf"], ["pf"], kernel_shape=[2, 2], strides=[2, 2]),
             h.make_node("QuantizeLinear", ["pf", "ys", "yz"], ["p"]),
             h.make_node("Reshape", ["p", "shape"], ["p2"]),
             h.make_node("Transpose", ["p2"], ["p3"], perm=[1, 0]),
             h.make_node("Slice", ["p3", "st", "en"], ["p4"]),
             h.make_node("QLinearMatMul", ["p4", "ys", "yz", "m", "ms", "mz", "os", "oz"], ["q"]),
             h.make_node("DequantizeLinear", ["q", "os", "oz"], ["out"])]
    inits += [numpy_helper.from_array(np.array([4, 16], np.int64), "shape"),
              numpy_helper.from_array(np.array([0, 0], np.int64), "st"),
              numpy_helper.from_array(np.array([16, 3], np.int64), "en")]
    g = h.make_graph(nodes, "ctx", [h.make_tensor_value_info("x", T.UINT8, [1, 3, 8, 8])],
                     [h.make_tensor_value_info("out", T.FLOAT, None)], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    return m.SerializeToString()


def ctx_nodes(m):
    return [n for n in m.graph.node if n.op_type == "EPContext" and n.domain == "com.microsoft"]


def attr(n, name):
    for a in n.attribute:
        if a.name == name:
            return a
    return None


def compile_to(mb, ep, path, extra=None):
    """A session with ep.context_enable=1 writing @path; returns (ok, text)."""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.add_session_config_entry("ep.context_enable", "1")
    so.add_session_config_entry("ep.context_file_path", path)
    so.add_session_config_entry("ep.context_embed_mode", "1")
    so.add_provider_for_devices(oc.register(ep), dict({"log_level": "summary"}, **(extra or {})))
    err = ""
    with oc.CaptureStderr() as cap:
        try:
            ort.InferenceSession(mb, sess_options=so)
        except Exception as e:  # noqa: BLE001
            err = str(e)
    return not err, err + cap.text


def load(path, ep, log="verbose"):
    """(session or None, everything ORT and the EP printed)."""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.add_provider_for_devices(oc.register(ep), {"log_level": log})
    s, err = None, ""
    with oc.CaptureStderr() as cap:
        try:
            s = ort.InferenceSession(path, sess_options=so)
        except Exception as e:  # noqa: BLE001
            err = str(e)
    return s, err + cap.text



def crafted_records(path, ep, tmp, count, seed, shape, flips, cut_every, tail):
    """@count copies of the compiled model @path with bytes of its kernel
    records changed (1 .. @flips of them, in the last @tail bytes if
    @tail, else anywhere; every @cut_every-th one truncated), SHA-256
    and checksum made valid again (reseal_all): each must be refused or
    load and run on a zero input of @shape, never crash. Returns
    (refused with a reason, loaded and ran)."""
    rng = np.random.default_rng(seed)
    refused = ran = 0
    for i in range(count):
        def mutate(b, i=i):
            p = bytearray(b[128:])
            for _ in range(1 + i % flips):
                j = int(rng.integers(max(0, len(p) - tail) if tail else 0, len(p)))
                p[j] = int(rng.integers(0, 256))
            if i % cut_every == cut_every - 1:
                p = p[:int(rng.integers(0, len(p)))]
            return reseal_all(b[:128] + bytes(p))
        bad = os.path.join(tmp, "ctx_bad.onnx")
        tampered(path, bad, mutate)
        s2, text = load(bad, ep, "quiet")
        if s2 is None:
            refused += "refused" in text or "e1npu" in text
            continue
        try:
            s2.run(None, {"x": np.zeros(shape, np.uint8)})
        except Exception:  # noqa: BLE001
            pass
        ran += 1
    return refused, ran

def tampered(src, dst, fn):
    """@src with each of our EPContext blobs replaced by fn(blob)."""
    m = onnx.load(src)
    for n in ctx_nodes(m):
        a = attr(n, "ep_cache_context")
        a.s = fn(a.s)
    onnx.save(m, dst)


def t_epcontext(ep, result):
    tmp = os.environ.get("ORT_TMP", "/tmp")
    os.makedirs(tmp, exist_ok=True)
    mb = model()
    path = os.path.join(tmp, "ctx_model.onnx")
    if os.path.exists(path):
        os.remove(path)
    good, text = compile_to(mb, ep, path)
    result(good and os.path.exists(path),
           "ep.context_enable=1 writes the compiled model %s (%s)"
           % (os.path.basename(path), "ok" if good else text.strip()[-300:]))
    if not os.path.exists(path):
        return
    m = onnx.load(path)
    cn = ctx_nodes(m)
    ours = [n for n in cn if attr(n, "source") is not None and attr(n, "source").s == b"e1npu"]
    blobs = [attr(n, "ep_cache_context").s for n in ours]
    left = sorted({n.op_type for n in m.graph.node} - {"EPContext"})
    result(len(ours) == 3 and all(b.startswith(MAGIC) and int.from_bytes(b[64:68], "little") == 3
                                  for b in blobs)
           and not ({"QLinearConv", "QLinearMatMul", "MaxPool"} & set(left))
           and all(attr(n, "embed_mode").i == 1 and attr(n, "main_context").i == 1 for n in ours),
           "compiled model: %d EPContext nodes of e1npu (libe1npu artifacts, kind 3, %s bytes), left to the CPU EP: %s"
           % (len(ours), "/".join(str(len(b)) for b in blobs), ", ".join(left)))
    s, text = load(path, ep)
    loaded = text.count("compiled partition loaded, not compiled again")
    rng = np.random.default_rng(5)
    cpu = oc.session(mb)[0]
    same = 0
    for _ in range(3):
        x = rng.integers(0, 256, (1, 3, 8, 8)).astype(np.uint8)
        if s is not None:
            a, b = s.run(None, {"x": x})[0], cpu.run(None, {"x": x})[0]
            same += a.dtype == b.dtype and np.array_equal(a, b)
    result(s is not None and loaded == 3 and same == 3,
           "the compiled model loads its 3 partitions without compiling (%d 'loaded' lines) and equals the CPU EP on the original model on %d of 3 inputs"
           % (loaded, same))
    # refusals: each names its reason, and nothing runs
    cases = [
        ("another libe1npu version", lambda b: reseal(b[:16] + b"9.9.9".ljust(16, b"\0") + b[32:]),
         "compiled by libe1npu 9.9.9"),
        ("another artifact format", lambda b: reseal(b[:8] + (9).to_bytes(4, "little") + b[12:]),
         "format version 9"),
        ("another device (array_rows)", lambda b: reseal(b[:84] + (b[84] ^ 0x40).to_bytes(1, "little") + b[85:]),
         "compiled for a device with array_rows"),
        ("a corrupted weight byte", lambda b: b[:-20] + bytes([b[-20] ^ 1]) + b[-19:],
         "corrupted"),
        ("a corrupted byte, checksum resealed", lambda b: reseal(b[:-20] + bytes([b[-20] ^ 1]) + b[-19:]),
         "SHA-256"),
        ("a foreign blob", lambda b: b"QNN-context-binary" + bytes(200), "not an e1npu compiled model"),
        ("a truncated blob", lambda b: b[:100], "truncated"),
    ]
    for what, fn, want in cases:
        bad = os.path.join(tmp, "ctx_bad.onnx")
        tampered(path, bad, fn)
        s2, text = load(bad, ep, "quiet")
        text = plain(text)
        line = [x for x in text.splitlines() if "refused" in x]
        result(s2 is None and want in text,
               "EPContext with %s refused: %s" % (what, (line[0].split("e1npu:")[-1].strip()
                                                       if line else text.strip()[-300:])))
    # not embedded: refused, named
    m = onnx.load(path)
    for n in ctx_nodes(m):
        attr(n, "embed_mode").i = 0
    bad = os.path.join(tmp, "ctx_bad.onnx")
    onnx.save(m, bad)
    s2, text = load(bad, ep, "quiet")
    result(s2 is None and "embed_mode 0" in text, "EPContext with embed_mode 0 refused, named")
    # crafted kernel records (valid SHA-256 and checksum): refused by the
    # record's checks, or run; never a crash (ASan in check-ort-san)
    refused, ran = crafted_records(path, ep, tmp, 60, 77, (1, 3, 8, 8), 4, 5, 0)
    result(refused + ran == 60, "60 crafted kernel records (SHA-256 and checksum valid): %d refused with a reason, %d loaded and ran, no crash"
           % (refused, ran))
    # compiling a compiled model again
    good, text = compile_to(open(path, "rb").read(), ep, os.path.join(tmp, "ctx_again.onnx"))
    text = plain(text)
    result(not good and "already compiled" in text,
           "ep.context_enable=1 on a compiled model refused: %s"
           % ([x for x in text.splitlines() if "already compiled" in x] or [text[-200:]])[0].strip())


def groups_model():
    """u8: DQ->Conv->Q, DQ->Reshape->Q, DQ->Add(constant)->Q, DQ->Softmax->Q,
    DQ->LeakyRelu->Q, DQ x2->Concat->Q, DQ->Slice->Q, DQ->AveragePool->Q
    of one input: groups of every compute file, one EPContext node each."""
    rng = np.random.default_rng(32)

    def i(a, n):
        return numpy_helper.from_array(a, n)

    def dq(x, y, s="s", z="z"):
        return h.make_node("DequantizeLinear", [x, s, z], [y])

    def qn(x, y, s="s", z="z"):
        return h.make_node("QuantizeLinear", [x, s, z], [y])

    inits = [i(np.array(0.05, np.float32), "s"), i(np.array(3, np.uint8), "z"),
             i(np.array(0.07, np.float32), "s2"), i(np.array(9, np.uint8), "z2"),
             i(np.array(1 / 256, np.float32), "ss"), i(np.array(0, np.uint8), "zs"),
             i(rng.integers(0, 30, (4, 3, 3, 3)).astype(np.uint8), "w"), i(np.array(0.01, np.float32), "ws"),
             i(np.array(0, np.uint8), "wz"), i(np.array([1, 4, 36], np.int64), "shp"),
             i(rng.integers(0, 256, (1, 4, 36)).astype(np.uint8), "c"),
             i(np.array([0], np.int64), "st"), i(np.array([6], np.int64), "en"), i(np.array([1], np.int64), "ax"),
             i(np.array([1, 6, 6, 6], np.int64), "shp4")]
    nodes = [dq("x", "xf"), h.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wf"]),
             h.make_node("Conv", ["xf", "wf"], ["cf"], pads=[1, 1, 1, 1]), qn("cf", "a"),
             dq("a", "af"), h.make_node("Reshape", ["af", "shp"], ["rf"]), qn("rf", "r"),
             dq("r", "rf2"), dq("c", "cf2", "s2", "z2"), h.make_node("Add", ["rf2", "cf2"], ["df"]), qn("df", "d"),
             dq("d", "df2"), h.make_node("Softmax", ["df2"], ["sf"], axis=-1), qn("sf", "sm", "ss", "zs"),
             dq("sm", "smf", "ss", "zs"), h.make_node("LeakyRelu", ["smf"], ["lf"], alpha=0.1), qn("lf", "l", "s2", "z2"),
             dq("l", "lf2", "s2", "z2"), dq("d", "df3"), h.make_node("Concat", ["lf2", "df3"], ["kf"], axis=1),
             qn("kf", "k"),
             dq("k", "kf2"), h.make_node("Slice", ["kf2", "st", "en", "ax"], ["slf"]), qn("slf", "sl"),
             dq("sl", "slf2"), h.make_node("Reshape", ["slf2", "shp4"], ["r4f"]), qn("r4f", "r4"),
             dq("r4", "r4f2"), h.make_node("AveragePool", ["r4f2"], ["pf"], kernel_shape=[2, 2]), qn("pf", "y")]
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.UINT8, [1, 3, 6, 6])],
                     [h.make_tensor_value_info("y", T.UINT8, None)], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    return m.SerializeToString(), len(nodes)


def t_epcontext_groups(ep, result):
    """The QDQ groups of ep_move.c ... ep_pool.c in compiled models: one
    EPContext node per group (no merging when compiling), loaded without
    compiling, equal to the CPU EP on the original; crafted group records
    refused or run, never a crash."""
    tmp = os.environ.get("ORT_TMP", "/tmp")
    mb, nn = groups_model()
    path = os.path.join(tmp, "ctx_groups.onnx")
    if os.path.exists(path):
        os.remove(path)
    good, text = compile_to(mb, ep, path)
    if not os.path.exists(path):
        result(False, "ep.context_enable=1 on the groups model: %s" % text.strip()[-300:])
        return
    m = onnx.load(path)
    ours = [n for n in ctx_nodes(m) if attr(n, "source") is not None and attr(n, "source").s == b"e1npu"]
    left = sorted(n.op_type for n in m.graph.node if n.op_type != "EPContext")
    s, text = load(path, ep)
    loaded = text.count("compiled partition loaded, not compiled again")
    rng = np.random.default_rng(6)
    cpu = oc.session(mb)[0]
    same = 0
    for _ in range(3):
        x = rng.integers(0, 256, (1, 3, 6, 6)).astype(np.uint8)
        if s is not None:
            a, b = s.run(None, {"x": x})[0], cpu.run(None, {"x": x})[0]
            same += a.dtype == b.dtype and np.array_equal(a, b)
    result(good and len(ours) == 9 and not left and s is not None and loaded == 9 and same == 3,
           "groups model compiled to %d EPContext nodes (left: %s), loaded %d without compiling, equal to the "
           "CPU EP on %d of 3 inputs" % (len(ours), ", ".join(left) or "nothing", loaded, same))
    # the group section: the last 900 bytes
    refused, ran = crafted_records(path, ep, tmp, 40, 78, (1, 3, 6, 6), 3, 7, 900)
    result(refused + ran == 40, "40 crafted group records (SHA-256 and checksum valid): %d refused with a reason, "
           "%d loaded and ran, no crash" % (refused, ran))
