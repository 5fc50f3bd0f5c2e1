#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of a libe1npu timeline trace (lib/trace.c) for tests/tools/
trace-test.sh and tests/delegate's E1NPU_TRACE test:

  trace-check.py TRACE.json [--wrapper N] [--dp N] [--wrapper-macs N]
                 [--dp-macs N] [--bytes N] [--layers N] [--need-dp]
                 [--need-device] [--layer-sums] [--ops OP,OP,...]

Issue 23's list:
- the file parses as JSON: {"traceEvents": [...], "otherData": {...}}, and
  otherData says how the host and the device clocks relate (host_clock,
  device_clock, clock_relation, device_clock_mhz);
- every "X" event has pid, tid, ts, dur (microseconds, >= 0) and a named
  track; spans of one track (pid, tid) do not overlap; the host spans of a
  layer's command-buffer runs (lowering, submit, wait: args.layer) nest in
  that layer's span;
- host spans on pid 1 (the host clock), device spans on pid 2, one track
  per engine (wrapper, datapath), each with args op, macs, cycles,
  dma_bytes, engine (its track's) and reason; dur is cycles /
  device_clock_mhz;
- counter tracks ("C" events on pid 2) for utilization: "utilization (%
  busy)" with a wrapper and a datapath value in [0, 100] where each
  command-buffer run's device spans start, and "MACs per cycle";
- the per-engine sums of the device spans' cycles (and MACs) equal the
  perf counters of the same run, given by the caller (--wrapper/--dp,
  --wrapper-macs/--dp-macs), and their DMA bytes plus the CPU-fallback
  bytes of the wait spans equal its bytes_in + bytes_out (--bytes);
- --layers: that many TFLite layer spans, each with op, MACs, cycles,
  engine and reason; --ops: the layer spans' op names, in order;
  --layer-sums: every device cycle was a layer's (the layers' own
  wrapper_cycles and dp_cycles, from their perf counter deltas, add up to
  the device spans').
"""
import json
import sys


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def parse_opts(opts):
    want = {}
    i = 0
    while i < len(opts):
        if opts[i] in ("--need-dp", "--need-device", "--layer-sums"):
            want[opts[i][2:]] = True
            i += 1
        elif opts[i] == "--ops":
            want["ops"] = opts[i + 1].split(",") if opts[i + 1] else []
            i += 2
        else:
            want[opts[i][2:]] = int(opts[i + 1])
            i += 2
    return want


def main():
    path = sys.argv[1]
    want = parse_opts(sys.argv[2:])
    try:
        d = json.load(open(path))
    except ValueError as e:
        fail("%s does not parse as JSON: %s" % (path, e))
    ev = d["traceEvents"]
    od = d["otherData"]
    for k in ("host_clock", "device_clock", "clock_relation", "device_clock_mhz"):
        if k not in od:
            fail("otherData has no %s" % k)
    mhz = od["device_clock_mhz"]
    names = {}
    for e in ev:
        if e["ph"] == "M" and e["name"] in ("process_name", "thread_name"):
            names[(e["pid"], e.get("tid", 0), e["name"])] = e["args"]["name"]
    if not names.get((1, 0, "process_name"), "").startswith("host") or \
            not names.get((2, 0, "process_name"), "").startswith("device"):
        fail("pid 1 is not the host or pid 2 not the device: %s" % names)
    tracks = {}
    for e in ev:
        if e["ph"] != "X":
            continue
        for k in ("pid", "tid", "ts", "dur", "name"):
            if k not in e:
                fail("event without %s: %s" % (k, e))
        if e["ts"] < 0 or e["dur"] < 0:
            fail("negative time: %s" % e)
        if e["pid"] not in (1, 2):
            fail("span on neither the host nor the device: %s" % e)
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)
    # integer nanoseconds: ts and dur are printed to 3 decimals of a us
    ns = lambda x: round(x * 1000)  # noqa: E731
    for key, spans in tracks.items():
        if (key[0], key[1], "thread_name") not in names:
            fail("track %s has no thread_name" % (key,))
        end = -1
        for e in sorted(spans, key=lambda x: ns(x["ts"])):
            s = ns(e["ts"])
            if s < end:
                fail("track %s (%s): span %s starts at %d ns, before the previous end %d" %
                     (key, names[(key[0], key[1], "thread_name")], e["name"], s, end))
            end = s + ns(e["dur"])
    # nesting: a layer's lowering, submit and wait spans lie in its span
    layers = tracks.get((1, 1), [])
    by_layer = {}
    for e in layers:
        by_layer.setdefault(e["args"]["layer"], []).append(e)
    nested = 0
    for tid in (2, 3, 4):
        for e in tracks.get((1, tid), []):
            li = e["args"].get("layer", -1)
            if li < 0 or li not in by_layer:
                continue
            s, t = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
            if not any(ns(lay["ts"]) <= s and t <= ns(lay["ts"]) + ns(lay["dur"])
                       for lay in by_layer[li]):
                fail("%s span %s [%d, %d] ns is in no span of its layer %d" %
                     (e.get("cat"), e["name"], s, t, li))
            nested += 1
    sums = {"wrapper": 0, "datapath": 0}
    macs = {"wrapper": 0, "datapath": 0}
    dma = 0
    runs = {}  # a run's spans share its submit's host time
    for key, spans in tracks.items():
        tname = names[(key[0], key[1], "thread_name")]
        if key[0] != 2:
            continue
        if tname not in sums:
            fail("device track %s is not an engine" % tname)
        for e in spans:
            a = e["args"]
            for k in ("op", "macs", "cycles", "dma_bytes", "engine", "reason"):
                if k not in a:
                    fail("device span %s without args.%s" % (e["name"], k))
            if a["engine"] != tname:
                fail("device span on track %s says engine %s" % (tname, a["engine"]))
            if ns(e["dur"]) != round(a["cycles"] * 1000 / mhz):
                fail("device span %s: dur %s us for %d cycles at %d MHz" %
                     (e["name"], e["dur"], a["cycles"], mhz))
            sums[tname] += a["cycles"]
            macs[tname] += a["macs"]
            dma += a["dma_bytes"]
            r = runs.setdefault(a["host_submit_us"], ns(e["ts"]))
            runs[a["host_submit_us"]] = min(r, ns(e["ts"]))
    dma += sum(e["args"].get("cpu_bytes", 0) for e in tracks.get((1, 4), []))
    # counter tracks: utilization wherever a device span starts
    util = {}
    for e in ev:
        if e["ph"] != "C":
            continue
        if e["pid"] != 2 or set(e["args"]) != {"wrapper", "datapath"}:
            fail("counter event not per engine on the device: %s" % e)
        if e["name"] == "utilization (% busy)":
            if not all(0 <= v <= 100.0001 for v in e["args"].values()):
                fail("utilization out of [0, 100]: %s" % e)
            util[ns(e["ts"])] = e["args"]
        elif e["name"] != "MACs per cycle":
            fail("unknown counter %s" % e["name"])
    for s in runs.values():
        if s not in util:
            fail("no utilization counter where a run's device spans start (%d ns)" % s)
    for k, key in (("wrapper", "wrapper"), ("dp", "datapath")):
        if k in want and sums[key] != want[k]:
            fail("%s spans: %d cycles, the perf counters %d" % (key, sums[key], want[k]))
        if k + "-macs" in want and macs[key] != want[k + "-macs"]:
            fail("%s spans: %d MACs, the perf counters %d" % (key, macs[key], want[k + "-macs"]))
    if "bytes" in want and dma != want["bytes"]:
        fail("spans: %d DMA bytes, the perf counters %d" % (dma, want["bytes"]))
    if od.get("wrapper_cycles") != sums["wrapper"] or od.get("dp_cycles") != sums["datapath"]:
        fail("otherData's cycle sums differ from the spans'")
    if want.get("need-dp") and not sums["datapath"]:
        fail("no datapath span")
    if want.get("need-device") and not (sums["datapath"] or sums["wrapper"]):
        fail("no device span")
    if "layers" in want and len(layers) != want["layers"]:
        fail("%d layer spans, expected %d" % (len(layers), want["layers"]))
    if "ops" in want and [e["args"]["op"] for e in layers] != want["ops"]:
        fail("layer ops %s, expected %s" % ([e["args"]["op"] for e in layers], want["ops"]))
    for e in layers:
        for k in ("op", "macs", "wrapper_cycles", "dp_cycles", "engine", "reason", "why"):
            if k not in e["args"]:
                fail("layer span %s without args.%s" % (e["name"], k))
    if want.get("layer-sums"):
        for k, key in (("wrapper_cycles", "wrapper"), ("dp_cycles", "datapath")):
            lsum = sum(e["args"][k] for e in layers)
            if lsum != sums[key]:
                fail("layers' %s add up to %d, the %s spans to %d" % (k, lsum, key, sums[key]))
    host_sub = tracks.get((1, 3), [])
    if len(tracks.get((1, 4), [])) != len(host_sub):
        fail("%d submit spans, %d wait spans" % (len(host_sub), len(tracks.get((1, 4), []))))
    print("PASS trace %s: %d spans on %d tracks, wrapper %d and datapath %d cycles, "
          "%d DMA bytes, %d layers, %d submits, %d nested, %d utilization points" %
          (path, sum(len(v) for v in tracks.values()), len(tracks), sums["wrapper"],
           sums["datapath"], dma, len(layers), len(host_sub), nested, len(util)))


main()
