#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A per-layer SVG bar chart of a model from `e1npu-tflite report --json`
(`make bench` draws MobileNetV2's; Documentation/lowering.md): per
operator, a bar of its modelled cycles coloured by where it runs (wrapper,
datapath, host), the MAC-bound ideal (MACs / MACS_PER_CYCLE) as a black
tick over it, a linear cycle axis with labelled ticks, the layers' indices
along the bottom, and a legend. Host operators have no modelled cycles:
their bar has height 0 and a mark under the axis. Python standard library
only.

  layer-chart.py REPORT.json OUT.svg [--macs-per-cycle N] [--title TEXT]

Prints the path it wrote. Each bar is <rect class="bar"> with data-layer,
data-op, data-engine and data-cycles; each tick <line class="ideal"> with
data-ideal (tests/bench/layer-chart-check.py reads them back).
"""
import json
import math
import sys
from xml.sax.saxutils import escape, quoteattr

COLOURS = {"wrapper": "#3b7dd8", "datapath": "#e08a1e", "host": "#7f7f7f",
           "refused": "#c0392b"}
W, H = 1100, 460
LEFT, RIGHT, TOP, BOTTOM = 80, 20, 50, 70


def nice_step(top, n=6):
    """A 1/2/5 x 10^k step giving about @n ticks up to @top."""
    raw = top / n
    k = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * k >= raw:
            return m * k
    return 10 * k


def main():
    args = sys.argv[1:]
    peak, title = 256, None
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--macs-per-cycle":
            peak = int(args[i + 1])
            i += 2
        elif args[i] == "--title":
            title = args[i + 1]
            i += 2
        else:
            pos.append(args[i])
            i += 1
    if len(pos) != 2 or peak < 1:
        sys.exit("usage: layer-chart.py REPORT.json OUT.svg [--macs-per-cycle N] [--title TEXT]")
    try:
        rep = json.load(open(pos[0]))
        ops = rep["operators"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit("layer-chart.py: %s: not an e1npu-tflite report --json: %s" % (pos[0], e))
    if not ops:
        sys.exit("layer-chart.py: %s: no operators" % pos[0])
    cyc = [o["modelled_cycles"] or 0 for o in ops]
    ideal = [o["macs"] / peak for o in ops]
    step = nice_step(max(max(cyc), max(ideal), 1))
    ymax = step * math.ceil(max(max(cyc), max(ideal), 1) / step)
    ph = H - TOP - BOTTOM
    pw = W - LEFT - RIGHT
    slot = pw / len(ops)
    bw = max(slot * 0.7, 1.0)

    def y(v):
        return TOP + ph - v * ph / ymax

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">' % (W, H, W, H),
           '<rect x="0" y="0" width="%d" height="%d" fill="white"/>' % (W, H)]
    name = title or "%s: modelled cycles per layer vs the MAC-bound ideal" % rep.get("model", "")
    out.append('<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>' % (
        LEFT, escape(name)))
    out.append('<text x="%d" y="38">total %d MACs, %d modelled cycles; ideal = MACs / %d '
               '(one MAC per processing element per cycle); device %s</text>' % (
                   LEFT, rep["totals"]["macs"], rep["totals"]["modelled_cycles"], peak,
                   escape(str(rep.get("device", "")))))
    # y axis, ticks and grid
    out.append('<g class="yaxis">')
    v = 0
    while v <= ymax:
        out.append('<line x1="%d" y1="%.2f" x2="%d" y2="%.2f" stroke="#ddd"/>' % (
            LEFT, y(v), W - RIGHT, y(v)))
        out.append('<text class="ytick" data-value="%d" x="%d" y="%.2f" text-anchor="end" '
                   'dominant-baseline="middle">%d</text>' % (v, LEFT - 6, y(v), v))
        v += step
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (
        LEFT, TOP, LEFT, TOP + ph))
    out.append('<text x="18" y="%d" transform="rotate(-90 18 %d)" text-anchor="middle">'
               'modelled cycles</text>' % (TOP + ph // 2, TOP + ph // 2))
    out.append('</g>')
    # bars, ideal ticks, host marks
    out.append('<g class="bars">')
    for i, o in enumerate(ops):
        x = LEFT + i * slot + (slot - bw) / 2
        eng = o["place"] if o["place"] in COLOURS else "host"
        h = cyc[i] * ph / ymax
        tip = "layer %d %s (%s): %d cycles, %d MACs, ideal %.0f" % (
            i, o["builtin"], eng, cyc[i], o["macs"], ideal[i])
        out.append('<rect class="bar" data-layer="%d" data-op=%s data-engine="%s" '
                   'data-cycles="%d" x="%.2f" y="%.2f" width="%.2f" height="%.4f" '
                   'fill="%s"><title>%s</title></rect>' % (
                       i, quoteattr(o["builtin"]), eng, cyc[i], x, TOP + ph - h, bw, h,
                       COLOURS[eng], escape(tip)))
        if o["macs"]:
            out.append('<line class="ideal" data-layer="%d" data-ideal="%.3f" x1="%.2f" '
                       'y1="%.2f" x2="%.2f" y2="%.2f" stroke="black" stroke-width="2"/>' % (
                           i, ideal[i], x - 1, y(ideal[i]), x + bw + 1, y(ideal[i])))
        if o["modelled_cycles"] is None:
            out.append('<rect class="hostmark" x="%.2f" y="%d" width="%.2f" height="4" '
                       'fill="%s"/>' % (x, TOP + ph + 2, bw, COLOURS[eng]))
        if len(ops) <= 40 or i % 5 == 0:
            out.append('<text x="%.2f" y="%d" text-anchor="middle" font-size="9">%d</text>' % (
                x + bw / 2, TOP + ph + 18, i))
    out.append('</g>')
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (
        LEFT, TOP + ph, W - RIGHT, TOP + ph))
    out.append('<text x="%d" y="%d" text-anchor="middle">layer (operator index)</text>' % (
        LEFT + pw // 2, TOP + ph + 36))
    # legend
    out.append('<g class="legend">')
    lx = LEFT
    ly = H - 16
    used = [e for e in COLOURS if any(o["place"] == e for o in ops)]
    for e in used:
        label = e + (" (no modelled cycles: mark under the axis)" if e == "host" else "")
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (
            lx, ly - 10, COLOURS[e]))
        out.append('<text x="%d" y="%d">%s</text>' % (lx + 16, ly, escape(label)))
        lx += 30 + 7 * len(label)
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black" stroke-width="2"/>' % (
        lx, ly - 4, lx + 14, ly - 4))
    out.append('<text x="%d" y="%d">MAC-bound ideal (MACs / %d)</text>' % (lx + 18, ly, peak))
    out.append('</g>')
    out.append('</svg>')
    try:
        with open(pos[1], "w") as f:
            f.write("\n".join(out) + "\n")
    except OSError as e:
        sys.exit("layer-chart.py: %s: %s" % (pos[1], e.strerror))
    print(pos[1])


main()
