# SPDX-License-Identifier: MIT
"""The host's half of the board's ONNX Runtime checks (tests/vm/debian-board.sh),
run in the amd64 sid root (tests/vm/sid-root.sh): QDQ models quantized here
with onnxruntime's quantize_static (tests/ort/ort_models.py), their inputs,
and the outputs the board must reproduce.

    frameworks-host.py OUTDIR EP.so ORT-C-RUN

For each model: OUTDIR/NAME.onnx, NAME.in0.bin .. (3 seeded float32
inputs), NAME.cpu (the CPU EP's first output of each input, one after the
other). The e1 EP (in-process device) must give the CPU EP's bytes, through
Python and through the C API client, or this exits 1. OUTDIR/ort-host.txt:
"NAME SCOPE SHA256(NAME.cpu) CLAIMED/TOTAL/PARTITIONS" a line; SCOPE is
"host" where the board's outputs must equal these bytes (u8 weights: exact
integer products on every CPU), "board" where only the board's own CPU EP
is the reference (s8 weights: x86-64's MLAS may saturate, e1 does not).
"""
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../ort"))
import numpy as np  # noqa: E402

import ort_common as oc  # noqa: E402
import ort_models as om  # noqa: E402


def main():
    out, ep, crun = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    ab = os.path.join(out, "attention_block.onnx")
    om.attention_block(ab)
    srcs = [("attention_block_qdq_per_tensor_u8u8", ab, False, "u8", "host"),
            ("attention_block_qdq_per_tensor_u8s8", ab, False, "s8", "board")]
    mnist = os.path.join(om.SHARED_ONNX, "mnist.onnx")
    if os.path.exists(mnist):
        srcs.append(("mnist_qdq_per_channel_u8u8", mnist, True, "u8", "host"))
    else:
        print("frameworks-host: SKIP mnist: %s absent (../shared/onnx)" % mnist)
    lines = []
    for name, src, pc, wt, scope in srcs:
        path = os.path.join(out, name + ".onnx")
        pre = om.prepare(src, path, None, None)
        iname, dims = om.quantize(pre, path, pc, wt)
        os.remove(pre)
        feeds = om.feeds_for(iname, dims)
        cpu, _ = oc.session(path)
        e1, summ = oc.session(path, ep, {"device": "sim"})
        ref = b""
        ins = []
        for i, f in enumerate(feeds):
            p = os.path.join(out, "%s.in%d.bin" % (name, i))
            f[iname].tofile(p)
            ins.append(p)
            c = cpu.run(None, f)[0]
            if not np.array_equal(c, e1.run(None, f)[0]):
                print("frameworks-host: FAIL %s input %d: the e1 EP differs from the CPU EP" % (name, i))
                return 1
            ref += c.tobytes()
        with open(os.path.join(out, name + ".cpu"), "wb") as fh:
            fh.write(ref)
        r = subprocess.run([crun, "-d", "sim", "-e", os.path.join(out, name + ".cpu"), ep, path] + ins,
                           capture_output=True, text=True)
        if r.returncode:
            print("frameworks-host: FAIL %s through ort-c-run: %s%s" % (name, r.stdout, r.stderr[-300:]))
            return 1
        claim = "%d/%d/%d" % summ[:3] if summ else "0/0/0"
        lines.append("%s %s %s %s\n" % (name, scope, hashlib.sha256(ref).hexdigest(), claim))
        print("frameworks-host: %s: e1 EP == CPU EP (Python and C), claimed %s" % (name, claim))
    with open(os.path.join(out, "ort-host.txt"), "w") as fh:
        fh.writelines(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
