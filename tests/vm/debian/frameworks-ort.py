# SPDX-License-Identifier: MIT
"""The board's ONNX Runtime checks from Python (tests/vm/debian/run-board.sh,
in the sid chroot): the way a PyTorch user runs a quantized model, with the
e1 EP from its Debian package on e1npu.ko.

    frameworks-ort.py DIR EP.so

DIR holds frameworks-host.py's files. For each line of DIR/ort-host.txt:
a session on the CPU EP alone and one on the e1 EP (device auto: the
board's /dev/accel/accel0), the 3 inputs through both; the e1 EP's bytes
must equal the board's CPU EP's, and for SCOPE "host" also the host's (the
SHA-256 of NAME.cpu). Prints "PASS|name|detail" or "FAIL|name|detail" a
line (run-board.sh counts them) and the claim summary.
"""
import hashlib
import os
import re
import sys
import tempfile

import numpy as np
import onnxruntime as ort


def stderr_of(fn):
    """fn()'s result and what it printed on the C-level stderr (the EP's
    summary line)."""
    with tempfile.TemporaryFile(mode="w+b") as f:
        saved = os.dup(2)
        os.dup2(f.fileno(), 2)
        try:
            res = fn()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        return res, f.read().decode(errors="replace")


def main():
    d, ep = sys.argv[1:3]
    ort.register_execution_provider_library("e1", ep)
    devs = [x for x in ort.get_ep_devices() if x.ep_name == "e1npu"]
    print("%s|python-ep-device|onnxruntime %s: %d e1npu OrtEpDevice(s)%s" % (
        "PASS" if devs else "FAIL", ort.__version__, len(devs),
        ": " + str(devs[0].ep_metadata) if devs else ""))
    if not devs:
        return
    with open(os.path.join(d, "ort-host.txt")) as fh:
        lines = [ln.split() for ln in fh if ln.strip()]
    for name, scope, sha, host_claim in lines:
        path = os.path.join(d, name + ".onnx")
        so = ort.SessionOptions()
        so.log_severity_level = 3
        cpu = ort.InferenceSession(path, sess_options=so, providers=["CPUExecutionProvider"])
        so = ort.SessionOptions()
        so.log_severity_level = 3
        so.add_provider_for_devices(devs, {"log_level": "summary"})
        e1, log = stderr_of(lambda: ort.InferenceSession(path, sess_options=so))
        m = re.findall(r"claimed (\d+) of (\d+) nodes in (\d+) partitions", log)
        claim = "/".join(m[-1]) if m else "0/0/0"
        iname = cpu.get_inputs()[0].name
        shape = [x if isinstance(x, int) and x > 0 else 1 for x in cpu.get_inputs()[0].shape]
        got, same = b"", True
        for i in range(3):
            x = np.fromfile(os.path.join(d, "%s.in%d.bin" % (name, i)), np.float32).reshape(shape)
            a = e1.run(None, {iname: x})[0]
            same = same and np.array_equal(a, cpu.run(None, {iname: x})[0])
            got += a.tobytes()
        print("%s|python-%s-e1-equals-board-cpu|claimed %s (host %s), 3 inputs" % (
            "PASS" if same else "FAIL", name, claim, host_claim))
        if claim == "0/0/0":
            print("FAIL|python-%s-claims|the e1 EP claimed nothing: %s" % (name, log.strip()[-300:]))
        if scope == "host":
            h = hashlib.sha256(got).hexdigest()
            print("%s|python-%s-equals-host|%s" % ("PASS" if h == sha else "FAIL", name,
                                                     "sha256 %s%s" % (h[:16], "" if h == sha else
                                                                     " != host's " + sha[:16])))


if __name__ == "__main__":
    main()
