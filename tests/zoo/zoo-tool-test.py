#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""e1npu-tflite's four subcommands on every model of the test zoo (issue
23, "done when"), run by `make check-tflite-tool`:

  zoo-tool-test.py E1NPU-TFLITE EXPECT.txt TMPDIR MODEL...

What each model should do comes from EXPECT.txt's interpreter column
(tests/data/zoo/expect.txt; a model it does not list, e.g. the MobileNets
of MODELS_DIR, is expected to run): "exact" or "differs: ..." (it runs),
or "refused: REASON".

  report  exit 0 (also for a refused model: it runs nothing), text and
          JSON; one row per operator of the model, in order, with the
          builtin name counted independently here from the FlatBuffer
          (tests/models/tflite_dump.py's walk, not lib/tflite)
  run     on generated inputs of each input's type and shape (seeded
          bytes): exit 0, one output per model output whose bytes, file
          size and shape are the output tensor's (from the FlatBuffer);
          a refused model: exit 2 and REASON on stderr
  diff    NPU path against the CPU reference path: exit 0 and no
          differing layer where EXPECT.txt says "exact", one row per
          operator; a refused model: exit 2 naming the model and the
          operator it cannot run
  compile the artifact, then run from it: exit 0 and outputs
          byte-identical with run's; a refused model: exit 2 naming the
          operator, no artifact written
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_dump import FB  # noqa: E402
from zoo_info import OPS  # noqa: E402

# schema.fbs TensorType: element bytes
SIZES = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 5: 1, 6: 1, 7: 2, 8: 8, 9: 1, 10: 8}

passed = failed = 0


def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("PASS zoo_tool_%s" % name)
    else:
        failed += 1
        print("FAIL zoo_tool_%s: %s" % (name, why))


def model_facts(path):
    """Operators' builtin names, inputs' and outputs' (type, dims)."""
    fb = FB(open(path, "rb").read())
    root = fb.u32(0)
    codes = []
    for oc in fb.tables(root, 1):
        codes.append(max(fb.scalar(oc, 0, "b"), fb.scalar(oc, 3, "i")))
    sg = fb.tables(root, 2)[0]
    tensors = fb.tables(sg, 0)

    def tensor(i):
        return fb.scalar(tensors[i], 1, "b"), list(fb.ints(tensors[i], 0))

    ops = [OPS[codes[fb.scalar(op, 0, "I")]] for op in fb.tables(sg, 3)]
    return ops, [tensor(i) for i in fb.ints(sg, 1)], [tensor(i) for i in fb.ints(sg, 2)]


def nbytes(t):
    n = SIZES.get(t[0], 1)
    for d in t[1]:
        n *= d
    return n


def expectations(path):
    exp = {}
    for line in open(path):
        if line.startswith("#") or "|" not in line:
            continue
        f = [x.strip() for x in line.split("|")]
        exp[f[0]] = f[1]
    return exp


def tool(*args):
    p = subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, E1NPU_DEVICE="sim"))
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def plan_vs_run(rep, trace):
    """report's placement of every operator against what the run did (its
    trace's layer spans): the same engine, and for a host operator the same
    reason text."""
    with open(trace) as fp:
        ev = json.load(fp)
    ev = ev["traceEvents"] if isinstance(ev, dict) else ev
    ran = {}
    for e in ev:
        a = e.get("args", {})
        if e.get("pid") == 1 and e.get("ph") == "X" and "layer" in a and "why" in a:
            ran[a["layer"]] = a
    bad = []
    for o in rep["operators"]:
        r = ran.get(o["index"])
        engine = {"host": "cpu"}.get(o["place"], o["place"])
        if r is None or r["engine"] != engine or \
           (engine == "cpu" and r["why"] != o["why"]):
            bad.append("op %d %s: report %s %r, run %s" % (
                o["index"], o["builtin"], o["place"], o["why"],
                "(no layer span)" if r is None else "%s %r" % (r["engine"], r["why"])))
    return not bad, "; ".join(bad[:3])


def main():
    binary, expect_path, tmp = sys.argv[1:4]
    models = sys.argv[4:]
    exp = expectations(expect_path)
    for path in models:
        name = os.path.basename(path)
        tag = name.replace(".tflite", "")
        want = exp.get(name, "exact")
        refused = want.startswith("refused:")
        reason = want[len("refused:"):].strip() if refused else ""
        ops, ins, outs = model_facts(path)

        # report: every operator, in order, text and JSON
        rc, out, err = tool(binary, "report", path, "--json")
        try:
            rep = json.loads(out) if rc == 0 else None
        except ValueError as e:
            rep, err = None, "JSON: %s" % e
        got = [o["builtin"] for o in rep["operators"]] if rep else None
        check(tag + "_report", rep is not None and got == ops and
              rep["totals"]["operators"] == len(ops),
              "exit %d %s; operators %s, the model's %s" % (rc, err.strip(), got, ops))
        rc, out, err = tool(binary, "report", path)
        rows = [ln.split()[1] for ln in out.splitlines()[2:2 + len(ops)]]
        check(tag + "_report_text", rc == 0 and rows == ops and
              ("%d operators" % len(ops)) in out.splitlines()[0],
              "exit %d %s; rows %s" % (rc, err.strip(), rows))

        # run: generated inputs of each input's type and shape
        rnd = random.Random(name)
        args = []
        for k, t in enumerate(ins):
            f = os.path.join(tmp, "%s.in%d" % (tag, k))
            with open(f, "wb") as fp:
                fp.write(bytes(rnd.randrange(256) for _ in range(nbytes(t))))
            args += ["-i", f]
        oargs = []
        for k in range(len(outs)):
            oargs += ["-o", os.path.join(tmp, "%s.out%d" % (tag, k))]
        trace = os.path.join(tmp, "%s.trace.json" % tag)
        rc, out, err = tool(binary, "run", path, *args, *oargs, "--json", "--trace", trace)
        if refused:
            check(tag + "_run_refused", rc == 2 and reason in err,
                  "exit %d, stderr %r, expected 2 and %r" % (rc, err.strip(), reason))
        else:
            ok, why = rc == 0, "exit %d %s" % (rc, err.strip())
            if ok:
                res = json.loads(out)["outputs"]
                ok = len(res) == len(outs)
                for k, t in enumerate(outs):
                    if not ok:
                        break
                    size = os.path.getsize(os.path.join(tmp, "%s.out%d" % (tag, k)))
                    ok = res[k]["bytes"] == nbytes(t) == size and res[k]["shape"] == t[1]
                    why = "output %d: %s, file %d bytes, tensor %s (%d bytes)" % (
                        k, res[k], size, t, nbytes(t))
            check(tag + "_run", ok, why)
            if ok and rep:
                check(tag + "_report_matches_run", *plan_vs_run(rep, trace))

        # diff: NPU path against the CPU reference path
        rc, out, err = tool(binary, "diff", path, *args, "--json")
        if refused:
            # diff checks operator by operator: its reason names one
            check(tag + "_diff_refused", rc == 2 and path in err and "operator" in err,
                  "exit %d, stderr %r" % (rc, err.strip()))
        else:
            try:
                d = json.loads(out)
                nl, first = len(d["layers"]), d["first_differing_layer"]
            except (ValueError, KeyError) as e:
                nl, first = -1, "JSON: %s" % e
            if want == "exact":
                check(tag + "_diff", rc == 0 and nl == len(ops) and first is None,
                      "exit %d %s; %d layers of %d, first differing %s" %
                      (rc, err.strip(), nl, len(ops), first))
            else:
                check(tag + "_diff", rc in (0, 1) and nl == len(ops),
                      "exit %d %s; %d layers of %d" % (rc, err.strip(), nl, len(ops)))

        # compile, then run from the artifact: byte-identical outputs
        art = os.path.join(tmp, tag + ".e1a")
        rc, out, err = tool(binary, "compile", path, "-o", art)
        if refused:
            check(tag + "_compile_refused", rc == 2 and path in err and "operator" in err
                  and not os.path.exists(art),
                  "exit %d, stderr %r" % (rc, err.strip()))
            continue
        ok, why = rc == 0, "compile: exit %d %s" % (rc, err.strip())
        if ok:
            aargs = []
            for k in range(len(outs)):
                aargs += ["-o", os.path.join(tmp, "%s.art%d" % (tag, k))]
            rc, out, err = tool(binary, "run", art, *args, *aargs)
            ok, why = rc == 0, "run of the artifact: exit %d %s" % (rc, err.strip())
            for k in range(len(outs)):
                if not ok:
                    break
                a = open(os.path.join(tmp, "%s.art%d" % (tag, k)), "rb").read()
                b = open(os.path.join(tmp, "%s.out%d" % (tag, k)), "rb").read()
                ok, why = a == b, "output %d differs from the model's run" % k
        check(tag + "_compile_run", ok, why)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


main()
