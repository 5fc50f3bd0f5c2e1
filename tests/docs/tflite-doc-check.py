#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-docs: the e1npu-tflite examples of Documentation/tflite.md are
real. In its "## e1npu-tflite" section, every fenced block line "$ CMD"
whose command is e1npu-tflite (after VAR=value assignments) is run again
(device sim, in a scratch directory holding the small MobileNet of
$SHARED_DIR/models (default TOP/../shared/models; absent: SKIP, naming it)
and grace_hopper.raw, the pixels of $TEST_IMAGE (the 128x128 photo the
build makes; else made here by tests/data/mkimage.py from the shared
photo) as the input tensor), and every line
shown under it must be a line of what it prints now, except "..." (a cut)
and the "latency:" and "load:" lines (host time). A changed output fails
with both.

  tflite-doc-check.py E1NPU-TFLITE TFLITE.md TOP
"""
import os
import shutil
import subprocess
import sys
import tempfile


def blocks(path):
    """(command, [shown lines]) of the e1npu-tflite section's blocks."""
    out, on, sect, cur = [], False, False, None
    for line in open(path).read().splitlines():
        if line.startswith("## "):
            sect = line.strip() == "## e1npu-tflite"
            continue
        if not sect:
            continue
        if line.startswith("```"):
            on = not on
            cur = None
            continue
        if not on:
            continue
        if line.startswith("$ "):
            cur = (line[2:], [])
            out.append(cur)
        elif cur is not None:
            cur[1].append(line)
    return out


def main():
    tool, doc, top = sys.argv[1:4]
    shared = os.environ.get("SHARED_DIR") or os.path.join(top, "..", "shared")
    models = os.environ.get("MODELS_DIR") or os.path.join(shared, "models")
    model = os.path.join(models, "mobilenet_v1_0.25_128_quant.tflite")
    photo = os.path.join(models, "grace_hopper.bmp")
    for f in (model, photo):
        if not os.path.exists(f):
            print("SKIP: check-docs: tflite.md's e1npu-tflite examples: %s absent "
                  "(CI lays shared/ beside the checkout)" % f)
            print("0 passed, 0 failed, 1 skipped")
            sys.exit(0)
    tmp = tempfile.mkdtemp()
    passed = failed = 0
    try:
        shutil.copy(model, tmp)
        image = os.environ.get("TEST_IMAGE", "")
        if not os.path.isfile(image):
            image = os.path.join(tmp, "grace_hopper_128.bmp")
            subprocess.run([sys.executable, os.path.join(top, "tests/data/mkimage.py"),
                            photo, image], check=True)
        subprocess.run([sys.executable, os.path.join(top, "tests/tools/tflite-tool-check.py"),
                        "bmp", image, os.path.join(tmp, "grace_hopper.raw")], check=True)
        env = dict(os.environ, E1NPU_DEVICE="sim",
                   PATH=os.path.dirname(os.path.abspath(tool)) + ":" + os.environ["PATH"])
        for cmd, shown in blocks(doc):
            words = [w for w in cmd.split() if "=" not in w or w.startswith("-")]
            if not words or words[0] != "e1npu-tflite":
                continue
            p = subprocess.run(cmd, shell=True, cwd=tmp, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
            got = p.stdout.decode(errors="replace").splitlines()
            missing = [s for s in shown if s.strip() != "..." and not s.startswith("latency:")
                       and not s.startswith("load:") and s not in got]
            if missing:
                failed += 1
                print("FAIL tflite_doc: $ %s\n  shown in %s, not printed now:\n    %s\n"
                      "  printed now:\n    %s" % (cmd, doc, "\n    ".join(missing),
                                                  "\n    ".join(got)))
            else:
                passed += 1
                print("PASS tflite_doc: $ %s (%d lines shown)" % (cmd, len(shown)))
    finally:
        shutil.rmtree(tmp)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


main()
