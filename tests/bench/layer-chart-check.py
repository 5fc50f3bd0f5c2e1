#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks tests/bench/layer-chart.py's SVG against the report it was drawn
from, reading the picture as a reader would:

  layer-chart-check.py REPORT.json CHART.svg MACS_PER_CYCLE

The file parses as XML (an <svg> root); it has one bar per operator of the
report, in order, coloured by where the operator runs (its data-engine is
the report's place, and bars of one place share a colour, different from
the others'); the cycle axis is read from its labelled ticks (value -> y,
linear), and against it each bar's top and height show the operator's
modelled cycles (0 for a host operator) and each ideal tick its MACs /
MACS_PER_CYCLE, to a tenth of a pixel; the legend names every place
shown.
"""
import json
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def fail(msg):
    print("FAIL layer_chart: " + msg)
    sys.exit(1)


def main():
    rep = json.load(open(sys.argv[1]))
    peak = int(sys.argv[3])
    try:
        root = ET.parse(sys.argv[2]).getroot()
    except ET.ParseError as e:
        fail("%s is not XML: %s" % (sys.argv[2], e))
    if root.tag != NS + "svg":
        fail("root element %s, not svg" % root.tag)
    ops = rep["operators"]
    bars = [e for e in root.iter(NS + "rect") if e.get("class") == "bar"]
    if len(bars) != len(ops):
        fail("%d bars for %d operators" % (len(bars), len(ops)))
    ticks = sorted((float(t.get("data-value")), float(t.get("y")))
                   for t in root.iter(NS + "text") if t.get("class") == "ytick")
    if len(ticks) < 2 or ticks[0][0] != 0:
        fail("no cycle axis with a 0 tick and another: %s" % ticks)
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]
    for v, yy in ticks:  # a linear axis
        if abs(y0 + (v - v0) * (y1 - y0) / (v1 - v0) - yy) > 0.05:
            fail("tick %g at y %g is off the axis' line" % (v, yy))

    def y_of(v):
        return y0 + v * (y1 - y0) / v1

    colour = {}
    for i, (b, o) in enumerate(zip(bars, ops)):
        cyc = o["modelled_cycles"] or 0
        if int(b.get("data-layer")) != i or b.get("data-op") != o["builtin"]:
            fail("bar %d is layer %s %s, the report's %d %s" % (
                i, b.get("data-layer"), b.get("data-op"), i, o["builtin"]))
        if b.get("data-engine") != o["place"]:
            fail("bar %d engine %s, the report's %s" % (i, b.get("data-engine"), o["place"]))
        top, h = float(b.get("y")), float(b.get("height"))
        if abs(top - y_of(cyc)) > 0.1 or abs(top + h - y0) > 0.1:
            fail("bar %d (%d cycles): top %g height %g, the axis puts it at %g..%g" % (
                i, cyc, top, h, y_of(cyc), y0))
        colour.setdefault(o["place"], set()).add(b.get("fill"))
    for place, fills in colour.items():
        others = set().union(*(f for p, f in colour.items() if p != place))
        if len(fills) != 1 or fills & others:
            fail("place %s drawn in %s (others %s)" % (place, fills, others))
    ideals = {int(e.get("data-layer")): e for e in root.iter(NS + "line")
              if e.get("class") == "ideal"}
    for i, o in enumerate(ops):
        if not o["macs"]:
            continue
        e = ideals.get(i)
        if e is None or abs(float(e.get("y1")) - y_of(o["macs"] / peak)) > 0.1:
            fail("layer %d: ideal %s, expected MACs/%d = %g" % (
                i, None if e is None else e.get("y1"), peak, o["macs"] / peak))
    legend = " ".join(t.text or "" for g in root.iter(NS + "g") if g.get("class") == "legend"
                      for t in g.iter(NS + "text"))
    for place in colour:
        if place not in legend:
            fail("legend without %s: %s" % (place, legend))
    print("PASS layer_chart %s: %d bars (%s), %d ideal ticks, axis 0..%g" % (
        sys.argv[2], len(bars), ", ".join("%s %d" % (p, sum(o["place"] == p for o in ops))
                                          for p in sorted(colour)), len(ideals), v1))


main()
