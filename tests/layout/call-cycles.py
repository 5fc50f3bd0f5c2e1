#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""call-cycles.py [ROOT]: the project's C files as a graph, A -> B when A
calls (or names) a function that B defines and exports, and every circle
in it (a strongly connected set of two or more files). A circle means two
files that cannot be read, tested or moved one without the other; the
layout wants one direction: tools/delegate -> lib -> shared hardware code
<- kernel.

Definitions: a line at column 0 that is not static, declares no
prototype (no ';' before the body) and names `func(`. Uses: the name as a
word in another file of the same program. Test sources, the QEMU device
and generated files are not part of the layout.

Prints each circle and "N passed, M failed" (one check per directory
group); exits 1 when a circle exists in any group. --self-test: the
detector finds a circle it is given and none in a chain.
"""
import os
import re
import sys

GROUPS = ["kernel", "hw", "lib", "delegate", "ort-ep", "tools", "model", "include"]
SKIP = ("tests/", "model/qemu/", "build", ".git/")
DEF = re.compile(r"^(?!static\b)(?!typedef\b)(?!extern\b)[A-Za-z_][\w \*]*?\b([a-z_][a-z0-9_]*)\s*\(")
WORD = re.compile(r"\b[a-z_][a-z0-9_]*\b")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def c_files(root):
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = sorted(x for x in dirs if not (rel + "/" + x + "/").lstrip("./").startswith(SKIP)
                         and not x.startswith("build"))
        for f in sorted(files):
            if f.endswith(".c"):
                p = os.path.relpath(os.path.join(d, f), root)
                if not p.startswith(SKIP):
                    yield p


def definitions(text):
    """exported function names defined in text"""
    out = set()
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = DEF.match(line)
        if not m or line.rstrip().endswith(";"):
            continue
        # the body follows before any ';' (a prototype has none)
        rest = "\n".join(lines[i:i + 12])
        b, s = rest.find("{"), rest.find(";")
        if b >= 0 and (s < 0 or b < s):
            out.add(m.group(1))
    return out


def graph(files):
    """files: {path: text} -> {path: set(path)}"""
    clean = {p: STRING.sub('""', COMMENT.sub(" ", t)) for p, t in files.items()}
    owner = {}
    for p, t in clean.items():
        for name in definitions(t):
            owner.setdefault(name, set()).add(p)
    g = {p: set() for p in files}
    for p, t in clean.items():
        mine = definitions(t)
        for w in set(WORD.findall(t)) - mine:
            for q in owner.get(w, ()):
                if q != p and q.split("/")[0] == p.split("/")[0]:
                    g[p].add(q)
    return g


def circles(g):
    """strongly connected components of two or more nodes (Tarjan)"""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def edges_in(g, comp):
    s = set(comp)
    return [(a, b) for a in comp for b in sorted(g[a]) if b in s]


def self_test():
    ring = {"kernel/a.c": "int a(void)\n{\n\treturn b();\n}\n",
            "kernel/b.c": "int b(void)\n{\n\treturn a();\n}\n"}
    chain = {"lib/a.c": "int a(void)\n{\n\treturn b();\n}\n",
             "lib/b.c": "int b(void)\n{\n\treturn 0; /* a() */\n}\n",
             "lib/c.c": "static int a(void);\nint c(void)\n{\n\treturn b();\n}\n"}
    ok = circles(graph(ring)) == [["kernel/a.c", "kernel/b.c"]] and not circles(graph(chain))
    print(("  PASS" if ok else "  FAIL") + "  call-cycles: self-test (a circle found, a chain has none)")
    return ok


def main():
    if sys.argv[1:2] == ["--self-test"]:
        return 0 if self_test() else 1
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = {}
    for p in c_files(root):
        with open(os.path.join(root, p), encoding="utf-8", errors="replace") as f:
            files[p] = f.read()
    g = graph(files)
    found = circles(g)
    passed = failed = 0
    for grp in GROUPS:
        mine = [c for c in found if c[0].startswith(grp + "/")]
        if not mine:
            passed += 1
            print("  PASS  call-cycles: %s/ has no circle" % grp)
            continue
        failed += 1
        for c in mine:
            print("  FAIL  call-cycles: %s/: circle of %d files:" % (grp, len(c)))
            for a, b in edges_in(g, c):
                print("          %s -> %s" % (a, b))
    st = self_test()
    passed += st
    failed += not st
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
