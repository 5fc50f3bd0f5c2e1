# SPDX-License-Identifier: MIT
"""Shared helpers of the ONNX Runtime EP tests (tests/ort/): load the e1
plugin EP into onnxruntime and make sessions with it or with the CPU EP alone."""
import os
import sys

import numpy as np
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


def session(model, e1=None, options=None, opt_level=None):
    """e1: None (CPU EP alone) or the EP library path."""
    so = ort.SessionOptions()
    so.log_severity_level = 3
    if opt_level is not None:
        so.graph_optimization_level = opt_level
    if e1:
        devs = register(e1)
        so.add_provider_for_devices(devs, options or {})
        return ort.InferenceSession(model, sess_options=so)
    return ort.InferenceSession(model, sess_options=so, providers=["CPUExecutionProvider"])


def run(sess, feeds):
    return sess.run(None, feeds)
