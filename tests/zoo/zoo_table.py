#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The model zoo's table (Documentation/tflite.md, "The model zoo") from a
real run, and the zoo's bookkeeping check.

  zoo_table.py --check DIR META   every DIR/*.tflite (the models, in
      $(SHARED_DIR)/zoo) has a row in META/README.md and a line in
      META/expect.txt (tests/data/zoo; no row or line names a missing
      file); the models total at most 8 MiB. Exit 1 naming each problem.
  zoo_table.py DIR META LOG       the markdown table: per model its source
      and license (README.md), bytes, input/output types and quantization
      (zoo_info.py, read from the file), task, and the results of the
      "ZOO|..." lines test-delegate --expect printed into LOG.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zoo_info import describe  # noqa: E402

BUDGET = 8 << 20


def readme_rows(d):
    rows = {}
    for line in open(os.path.join(d, "README.md")):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].endswith(".tflite"):
            rows[cells[0]] = cells
    return rows


def expect_models(d):
    out = set()
    for line in open(os.path.join(d, "expect.txt")):
        line = line.strip()
        if line and not line.startswith("#"):
            out.add(line.split("|")[0].strip())
    return out


def check(d, meta):
    models = sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "*.tflite")))
    rows, exp = readme_rows(meta), expect_models(meta)
    bad = []
    for m in models:
        if m not in rows:
            bad.append("%s: no row in %s/README.md" % (m, meta))
        elif not rows[m][3] or not rows[m][4] or "github.com" not in rows[m][2]:
            bad.append("%s: README.md row lacks source URL, commit or license" % m)
        if m not in exp:
            bad.append("%s: no line in %s/expect.txt" % (m, meta))
    for m in sorted(set(rows) | exp):
        if m not in models:
            bad.append("%s: named in README.md or expect.txt but not in %s" % (m, d))
    total = sum(os.path.getsize(os.path.join(d, m)) for m in models)
    if total > BUDGET:
        bad.append("the zoo is %d bytes, over the %d-byte budget" % (total, BUDGET))
    for b in bad:
        print("zoo_table.py: " + b)
    print("zoo_table.py: %d models, %d bytes (budget %d), %d problems"
          % (len(models), total, BUDGET, len(bad)))
    return 1 if bad else 0


def table(d, meta, log):
    rows = readme_rows(meta)
    res = {}
    for line in open(log):
        if line.startswith("ZOO|"):
            f = line.rstrip("\n").split("|")
            res[f[1]] = f[2:]
    print("| model | source, license | bytes | in -> out | weights, quantization | task "
          "| interpreter vs TFLite 2.2 | delegate: delegated/nodes/partitions "
          "| delegate output vs TFLite 2.2 | with skip_ops=OP |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for p in sorted(glob.glob(os.path.join(d, "*.tflite"))):
        m = os.path.basename(p)
        i = describe(p)
        src = rows.get(m, ["", "", "?", "", "?"])
        repo = src[2].split("]")[0].lstrip("[")
        lic = src[4].split(" (")[0]
        r = res.get(m)
        if not r:
            print("| %s | %s, %s | %d | | | %s | (no result in the log) | | | |"
                  % (m, repo, lic, os.path.getsize(p), src[1]))
            continue
        nin, interp, dsum, dout, skop, ssum, sout = r
        intype, outtype = i["intypes"], i["outtypes"]
        print("| %s | %s, %s | %d | %s -> %s | %s, %s | %s | %s | %s | %s | %s |" % (
            m, repo, lic, os.path.getsize(p), intype, outtype, i["weights"], i["quant"],
            src[1], interp if interp.startswith("refused") else "%s on %s inputs" % (interp, nin),
            dsum, "exact on %s inputs" % nin if dout == "exact" else dout,
            "-" if skop == "-" else "%s: %s, %s" % (skop, ssum, sout)))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 4:
        table(sys.argv[1], sys.argv[2], sys.argv[3])
        sys.exit(0)
    print("usage: zoo_table.py --check DIR META | zoo_table.py DIR META LOG", file=sys.stderr)
    sys.exit(2)
