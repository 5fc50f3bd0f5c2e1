#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of a libe1npu timeline trace (lib/trace.c) for tests/tools/
trace-test.sh:

  trace-check.py TRACE.json [--wrapper N] [--dp N] [--layers N] [--need-dp]

The file parses as JSON with {"traceEvents": [...]} and "otherData" saying
how the host and the device clocks relate; every "X" event has pid, tid,
ts and dur (microseconds, >= 0); the spans of one track (pid, tid) do not
overlap; the device spans' dur are their cycles / device_clock_mhz; the
per-engine sums of the device spans' cycles equal --wrapper / --dp (the
perf counters of the same run, given by the caller); --layers: that many
TFLite layer spans, each with op, MACs, cycles, engine and reason.
"""
import json
import sys


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def main():
    path = sys.argv[1]
    opts = sys.argv[2:]
    want = {}
    i = 0
    while i < len(opts):
        if opts[i] == "--need-dp":
            want["need-dp"] = True
            i += 1
        else:
            want[opts[i][2:]] = int(opts[i + 1])
            i += 2
    d = json.load(open(path))
    ev = d["traceEvents"]
    od = d["otherData"]
    for k in ("host_clock", "device_clock", "device_clock_mhz"):
        if k not in od:
            fail("otherData has no %s" % k)
    mhz = od["device_clock_mhz"]
    names = {}
    for e in ev:
        if e["ph"] == "M" and e["name"] in ("process_name", "thread_name"):
            names[(e["pid"], e.get("tid", 0), e["name"])] = e["args"]["name"]
    tracks = {}
    for e in ev:
        if e["ph"] != "X":
            continue
        for k in ("pid", "tid", "ts", "dur", "name"):
            if k not in e:
                fail("event without %s: %s" % (k, e))
        if e["ts"] < 0 or e["dur"] < 0:
            fail("negative time: %s" % e)
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)
    # integer nanoseconds: ts and dur are printed to 3 decimals of a us
    for key, spans in tracks.items():
        if (key[0], key[1], "thread_name") not in names:
            fail("track %s has no thread_name" % (key,))
        end = -1
        for e in spans:  # in file order, which is time order per track
            s = round(e["ts"] * 1000)
            if s < end:
                fail("track %s (%s): span %s starts at %d ns, before the previous end %d" %
                     (key, names[(key[0], key[1], "thread_name")], e["name"], s, end))
            end = s + round(e["dur"] * 1000)
    sums = {"wrapper": 0, "datapath": 0}
    for key, spans in tracks.items():
        tname = names[(key[0], key[1], "thread_name")]
        if key[0] != 2:
            continue
        for e in spans:
            c = e["args"]["cycles"]
            if e["args"]["engine"] != tname:
                fail("device span on track %s says engine %s" % (tname, e["args"]["engine"]))
            if round(e["dur"] * 1000) != round(c * 1000 / mhz):
                fail("device span %s: dur %s us for %d cycles at %d MHz" % (e["name"], e["dur"], c, mhz))
            sums[tname] += c
    if "wrapper" in want and sums["wrapper"] != want["wrapper"]:
        fail("wrapper spans: %d cycles, the perf counters %d" % (sums["wrapper"], want["wrapper"]))
    if "dp" in want and sums["datapath"] != want["dp"]:
        fail("datapath spans: %d cycles, the perf counters %d" % (sums["datapath"], want["dp"]))
    if od.get("wrapper_cycles") != sums["wrapper"] or od.get("dp_cycles") != sums["datapath"]:
        fail("otherData's cycle sums differ from the spans'")
    if want.get("need-dp") and not sums["datapath"]:
        fail("no datapath span")
    layers = [e for e in tracks.get((1, 1), [])]
    if "layers" in want and len(layers) != want["layers"]:
        fail("%d layer spans, expected %d" % (len(layers), want["layers"]))
    for e in layers:
        for k in ("op", "macs", "wrapper_cycles", "dp_cycles", "engine", "reason", "why"):
            if k not in e["args"]:
                fail("layer span %s without args.%s" % (e["name"], k))
    host_sub = tracks.get((1, 3), [])
    if len(tracks.get((1, 4), [])) != len(host_sub):
        fail("%d submit spans, %d wait spans" % (len(host_sub), len(tracks.get((1, 4), []))))
    print("PASS trace %s: %d spans on %d tracks, wrapper %d and datapath %d cycles, "
          "%d layers, %d submits" % (path, sum(len(v) for v in tracks.values()), len(tracks),
                                     sums["wrapper"], sums["datapath"], len(layers), len(host_sub)))


main()
