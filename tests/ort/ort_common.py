# SPDX-License-Identifier: MIT
"""Shared helpers of the ONNX Runtime EP tests (tests/ort/): load the e1
plugin EP into onnxruntime, make sessions with it or with the CPU EP alone,
and read the EP's summary line ("claimed N of M nodes in K partitions")."""
import os
import re
import tempfile

import onnxruntime as ort

EP_NAME = "e1npu"
_registered = None


def register(path):
    global _registered
    if _registered is None:
        ort.register_execution_provider_library("e1", path)
        _registered = path
    devs = [d for d in ort.get_ep_devices() if d.ep_name == EP_NAME]
    if not devs:
        raise RuntimeError("no e1npu OrtEpDevice after registering %s" % path)
    return devs


class CaptureStderr:
    """Captures the C-level stderr (the EP prints its summary there)."""

    def __enter__(self):
        self.f = tempfile.TemporaryFile(mode="w+b")
        self.saved = os.dup(2)
        os.dup2(self.f.fileno(), 2)
        return self

    def __exit__(self, *a):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.f.seek(0)
        self.text = self.f.read().decode(errors="replace")
        self.f.close()
        return False


SUMMARY = re.compile(r"e1npu: (.*): claimed (\d+) of (\d+) nodes in (\d+) partitions(?: \([^)]*\))?; left:(.*)")


def session(model, e1=None, options=None):
    """e1: None (CPU EP alone) or the EP library path. Returns (session,
    summary) where summary is (claimed, total, partitions, left) or None."""
    so = ort.SessionOptions()
    so.log_severity_level = 3
    if not e1:
        return ort.InferenceSession(model, sess_options=so,
                                    providers=["CPUExecutionProvider"]), None
    devs = register(e1)
    opts = {"log_level": "summary"}
    opts.update(options or {})
    opts = {k: v for k, v in opts.items() if v is not None}
    so.add_provider_for_devices(devs, opts)
    with CaptureStderr() as c:
        s = ort.InferenceSession(model, sess_options=so)
    summ = None
    for line in c.text.splitlines():
        m = SUMMARY.search(line)
        if m:  # the main graph's line is the last one printed
            summ = (int(m.group(2)), int(m.group(3)), int(m.group(4)), m.group(5).strip())
    return s, summ
