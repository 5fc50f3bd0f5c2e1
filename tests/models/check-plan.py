#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent check of a tensor arena plan (`e1npu-classify --plan
--json`, lib/tflite/arena_plan.c): walks the model with tflite_dump.py's
standard-library FlatBuffer reader, derives which tensors need arena space
and their lifetimes (Documentation/tflite.md, "Tensor arena"), and checks
the plan: the same tensors with the model's shapes, types, sizes, roles and
lifetimes; aligned offsets; no two tensors live at one layer overlap; all
inside total_bytes; lower_bound_bytes equals the largest sum of live sizes
computed here; total_bytes <= 1.05 x that bound.

usage: check-plan.py MODEL.tflite PLAN.json   (exit 0: plan correct)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_dump import FB, TYPES  # noqa: E402

SIZES = {"float32": 4, "int32": 4, "uint8": 1, "int8": 1, "int64": 8, "int16": 2}


def expected(path):
    fb = FB(open(path, "rb").read())
    model = fb.u32(0)
    bufs = fb.tables(model, 4)
    sg = fb.tables(model, 2)[0]
    tensors = []
    for t in fb.tables(sg, 0):
        shape = fb.ints(t, 0)
        typ = TYPES.get(fb.scalar(t, 1, "b"), "?")
        b = fb.scalar(t, 2, "I")
        const = b < len(bufs) and fb.vec(bufs[b], 0)[0] > 0
        n = 1
        for d in shape:
            n *= d
        tensors.append({"shape": shape, "dtype": typ, "const": const,
                        "bytes": n * SIZES.get(typ, 0)})
    ops = fb.tables(sg, 3)
    end = max(len(ops) - 1, 0)
    live = {}

    def touch(ti, step, role):
        if ti < 0 or tensors[ti]["const"] or not tensors[ti]["bytes"]:
            return
        f, l, r = live.get(ti, (step, step, set()))
        r.add(role)
        live[ti] = (min(f, step), max(l, step), r)

    for i, op in enumerate(ops):
        for ti in fb.ints(op, 1) + fb.ints(op, 2):
            touch(ti, i, "intermediate")
    for ti in fb.ints(sg, 1):
        touch(ti, 0, "input")
        touch(ti, end, "input")
    for ti in fb.ints(sg, 2):
        touch(ti, end, "output")
    return tensors, live


def role_of(r):
    if "input" in r and "output" in r:
        return "input+output"
    for k in ("input", "output"):
        if k in r:
            return k
    return "intermediate"


def main(model, plan_path):
    tensors, live = expected(model)
    plan = json.load(open(plan_path))["tensor_arena_plan"]
    errs = []
    got = {e["tensor"]: e for e in plan["tensors"]}
    if set(got) != set(live):
        errs.append("tensors %s, expected %s" % (sorted(got), sorted(live)))
    align, total = plan["alignment_bytes"], plan["total_bytes"]
    for ti, e in got.items():
        if ti not in live:
            continue
        t = tensors[ti]
        f, l, r = live[ti]
        want = (t["shape"], t["dtype"], t["dtype"], t["bytes"], f, l, role_of(r))
        have = (e["shape"], e["dtype"], e["storage_dtype"], e["bytes"],
                e["first_layer"], e["last_layer"], e["role"])
        if want != have:
            errs.append("tensor %d: %s, expected %s" % (ti, have, want))
        if e["offset"] % align or e["offset"] + e["bytes"] > total:
            errs.append("tensor %d: offset %d unaligned or past %d" % (ti, e["offset"], total))
    es = list(got.values())
    for i, a in enumerate(es):
        for b in es[i + 1:]:
            if a["first_layer"] <= b["last_layer"] and b["first_layer"] <= a["last_layer"] and \
               a["offset"] < b["offset"] + b["bytes"] and b["offset"] < a["offset"] + a["bytes"]:
                errs.append("tensors %d and %d are live together and overlap" %
                            (a["tensor"], b["tensor"]))
    steps = max([l for f, l, r in live.values()] + [0]) + 1
    bound = max([sum(tensors[ti]["bytes"] for ti, (f, l, r) in live.items() if f <= s <= l)
                 for s in range(steps)] + [0])
    if plan["lower_bound_bytes"] != bound:
        errs.append("lower bound %d, computed %d" % (plan["lower_bound_bytes"], bound))
    if total > 1.05 * bound:
        errs.append("total %d > 1.05 x lower bound %d" % (total, bound))
    name = os.path.basename(model)
    if errs:
        for e in errs[:10]:
            print("check-plan %s: %s" % (name, e))
        return 1
    print("check-plan %s: %d tensors, total %d, lower bound %d, ratio %.4f" %
          (name, len(es), total, bound, total / bound if bound else 0))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
