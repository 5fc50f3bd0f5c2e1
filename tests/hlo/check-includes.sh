#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-includes.sh [DIR]: the lib/hlo include graph has no cycle. Each
# file's functions are declared in its own header (hlo.h holds data only),
# so a file includes the headers of the files it calls and the include
# graph is the call graph: a cycle there means two files call each other
# (the error and work-budget helpers once lived in hlo_run.c, which calls
# the parser, the evaluator and the NPU code, which called them back).
# Nodes are modules: hlo_x.c and hlo_x.h are one. Prints the layers, or
# the cycle, and "N passed, M failed".
dir=${1:-lib/hlo}
python3 - "$dir" <<'PY'
import os, re, sys

d = sys.argv[1]
edges = {}
for f in sorted(os.listdir(d)):
    if not f.endswith(('.c', '.h')):
        continue
    mod = f[:-2]
    edges.setdefault(mod, set())
    for line in open(os.path.join(d, f)):
        m = re.match(r'\s*#\s*include\s+"([^"]+)\.h"', line)
        if m and os.path.exists(os.path.join(d, m.group(1) + '.h')) and m.group(1) != mod:
            edges[mod].add(m.group(1))
            edges.setdefault(m.group(1), set())

state, stack, cycle = {}, [], None

def visit(n):
    global cycle
    state[n] = 1
    stack.append(n)
    for m in sorted(edges[n]):
        if cycle:
            return
        if state.get(m) == 1:
            cycle = stack[stack.index(m):] + [m]
            return
        if not state.get(m):
            visit(m)
    stack.pop()
    state[n] = 2

for n in sorted(edges):
    if not state.get(n) and not cycle:
        visit(n)
if cycle:
    print("  FAIL  %s include graph has a cycle: %s" % (d, " -> ".join(cycle)))
    print("0 passed, 1 failed")
    sys.exit(1)
level = {}

def lv(n):
    if n not in level:
        level[n] = 1 + max([lv(m) for m in edges[n]] + [-1])
    return level[n]

for n in edges:
    lv(n)
for k in range(max(level.values()) + 1):
    print("  layer %d: %s" % (k, " ".join(sorted(n for n in level if level[n] == k))))
print("  PASS  %s include graph: %d modules, no cycle" % (d, len(edges)))
print("1 passed, 0 failed")
PY
