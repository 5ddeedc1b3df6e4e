#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's side by side with upstream: reads what tools/bench.sh left.

    tools/upstream_ratio.py DIR SETS

DIR holds, for each set N, ours.N.json (./test_overhead -m
base,tracepoint,raw_tp -e task_rename --json) and upstream.N.txt (the
kernel's samples/bpf test_overhead 81: its base, tracepoint and raw_tp
modes on task_rename, one line per worker). Per set, each side's
tracepoint and raw_tp overhead on task_rename and their ratio; then the
ratios' median and spread over the sets, and each side's run-to-run CV.
Upstream's overhead is its workers' mean ns per event in the mode less
that in its base, of the same run. Reports; asserts nothing.
"""
import json
import re
import statistics
import sys

HEADERS = {"BASE": "base", "w/TRACEPOINT": "tracepoint",
           "w/RAW_TRACEPOINT": "raw_tp"}
MODES = ("tracepoint", "raw_tp")


def upstream_ns(path):
    """{mode: its workers' mean ns per event} of upstream's output"""
    per, mode = {}, None
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return {}
    for line in lines:
        line = line.strip()
        if line in HEADERS:
            mode = HEADERS[line]
        m = re.match(r"task_rename:\d+: (\d+) events per sec", line)
        if m and mode and int(m.group(1)) > 0:
            per.setdefault(mode, []).append(1e9 / int(m.group(1)))
    return {k: statistics.mean(v) for k, v in per.items()}


def ours_ns(path):
    """{mode: its overhead in ns} of our run's rows that have one"""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return {}
    out = {}
    for r in doc.get("results", []):
        o = r.get("overhead_ns")
        if r["variant"] == "task_rename" and r["status"] == "ok" and o:
            out[r["name"]] = o["value"]
    return out


def spread(v):
    if not v:
        return "no set with both figures"
    if len(v) == 1:
        return "%.2f, 1 set" % v[0]
    q = statistics.quantiles(v, n=4, method="inclusive")
    return "median %.2f, quartiles %.2f-%.2f, range %.2f-%.2f, %d sets" % (
        statistics.median(v), q[0], q[2], min(v), max(v), len(v))


def cv(v):
    if len(v) < 2 or not statistics.mean(v):
        return float("nan")
    return 100 * statistics.stdev(v) / abs(statistics.mean(v))


def fmt(x):
    return "-" if x is None else "%.1f" % x


def main():
    out, sets = sys.argv[1], int(sys.argv[2])
    ratios = {m: [] for m in MODES}
    theirs = {m: [] for m in MODES}
    mine = {m: [] for m in MODES}
    for n in range(1, sets + 1):
        up = upstream_ns("%s/upstream.%d.txt" % (out, n))
        ours = ours_ns("%s/ours.%d.json" % (out, n))
        words = []
        for mode in MODES:
            u = up[mode] - up["base"] if mode in up and "base" in up else None
            o = ours.get(mode)
            if u is not None:
                theirs[mode].append(u)
            if o is not None:
                mine[mode].append(o)
            ratio = ""
            if u and o is not None:
                ratios[mode].append(o / u)
                ratio = ": %.2f" % (o / u)
            words.append("%s %s/%s ns%s" % (mode, fmt(o), fmt(u), ratio))
        print("  set %d: ours/upstream %s (upstream's base %s ns)" %
              (n, ", ".join(words), fmt(up.get("base"))))
    for mode in MODES:
        print("  %s: ours/upstream %s (target 0.85-1.15)" %
              (mode, spread(ratios[mode])))
        print("      the overhead's run-to-run CV: ours %.1f%%, upstream's %.1f%%"
              % (cv(mine[mode]), cv(theirs[mode])))


if __name__ == "__main__":
    main()
