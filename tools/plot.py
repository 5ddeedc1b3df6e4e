#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Pictures of the tools' --json results (Debian's python3-matplotlib).

  tools/plot.py [-o DIR] [--format svg|png] FILE.json...

Each picture is named after its file: A.json gives A-overhead.<fmt>
from test_overhead's file: the overhead in ns per event
of each mode, grouped by event, as bars with their uncertainty as error
bars; from map_perf_test's, A-curve-<param>.<fmt> for each parameter
that varies across its rows (entries, key_size, cpus, record_size,
wakeup): one line per test, attach method and the other parameters, with
error bars: ns per map operation (its syscall's cost taken out), or for
cpus (--scale) the events per second of each CPU; from map_perf_test
--memory's, A-memory.<fmt>: bytes per element over entries, a line per
map kind by its memory cgroup's charge, dashed by memlock. Only rows with a
figure (verified, undisturbed) are drawn; the others are named on stderr.
The files written are printed one per line. Exit 2 on a file that is not
one of the tools' --json, 1 when nothing could be drawn.
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

# text stays text in SVG: the series can be read back by name
plt.rcParams["svg.fonttype"] = "none"
plt.rcParams["svg.hashsalt"] = "bpf-overhead"

STEM = "plot"
CURVE_PARAMS = ("entries", "key_size", "cpus", "record_size", "wakeup")
LOG_X = {"entries", "record_size"}


def die(msg):
    print("plot.py: " + msg, file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        die("%s: not readable JSON (%s)" % (path, e))
    if not isinstance(doc, dict) or doc.get("schema") != "bpf-bench/1" or \
       not isinstance(doc.get("results"), list):
        die("%s: not a --json file of these tools (schema bpf-bench/1)" % path)
    return doc


def has_figure(row):
    return row.get("status") == "ok" and row.get("mean") is not None


def note_missing(rows, what):
    for r in rows:
        if not has_figure(r):
            print("plot.py: %s: %s %s %s: %s, not drawn" %
                  (what, r.get("name"), r.get("variant"),
                   r.get("params") or "", r.get("status")), file=sys.stderr)


def save(fig, outdir, name, fmt):
    """The picture whole or not at all: into a file beside it, renamed
    over it once written, as the programs write their --json files"""
    path = os.path.join(outdir, "%s-%s.%s" % (STEM, name, fmt))
    tmp = os.path.join(outdir, ".%s-%s.%s.tmp.%d" % (STEM, name, fmt, os.getpid()))
    try:
        fig.savefig(tmp, format=fmt, bbox_inches="tight")
        os.replace(tmp, path)
    except OSError as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        print("plot.py: cannot write %s: %s" % (path, e.strerror), file=sys.stderr)
        sys.exit(1)
    finally:
        plt.close(fig)
    print(path)
    return path


def overhead_bars(doc, outdir, fmt):
    """Modes grouped by event: ns of overhead per event, ± uncertainty."""
    rows = [r for r in doc["results"] if r.get("name") != "base"]
    note_missing(rows, "test_overhead")
    rows = [r for r in rows if has_figure(r) and r.get("overhead_ns")]
    if not rows:
        return []
    events = sorted({r["variant"] for r in rows})
    modes = []
    for r in rows:
        if r["name"] not in modes:
            modes.append(r["name"])
    width = 0.8 / len(modes)
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(events)), 4.5))
    for i, mode in enumerate(modes):
        xs, ys, es = [], [], []
        for j, ev in enumerate(events):
            for r in rows:
                if r["name"] == mode and r["variant"] == ev:
                    xs.append(j + (i - (len(modes) - 1) / 2) * width)
                    ys.append(r["overhead_ns"]["value"])
                    # ci95 since the units (2026-12); older files:
                    # uncertainty
                    ov = r["overhead_ns"]
                    es.append(ov.get("ci95", ov.get("uncertainty")) or 0)
        bars = ax.bar(xs, ys, width, yerr=es, capsize=3, label=mode)
        for patch in bars.patches:
            patch.set_gid("series:" + mode)
    ax.set_xticks(range(len(events)))
    ax.set_xticklabels(events, rotation=20, ha="right")
    ax.set_ylabel("overhead, ns per event")
    ax.set_title("test_overhead on %s" % doc["context"].get("kernel_release"))
    ax.axhline(0, color="black", linewidth=0.5)
    ax.legend(fontsize="small")
    return [save(fig, outdir, "overhead", fmt)]


def params_of(row):
    return row.get("params") or {}


def y_of(row, x):
    """The curve's value and its error: per-CPU rate for cpus, ns/op else."""
    if x == "cpus" and row.get("rate_per_cpu"):
        return row["rate_per_cpu"]["mean"], row["rate_per_cpu"]["stddev"]
    nsop = row.get("ns_per_op")
    if nsop and nsop.get("value") is not None:
        return nsop["value"], nsop.get("uncertainty") or 0
    return None


def series_label(row, x):
    others = ",".join("%s=%s" % (k, v) for k, v in params_of(row).items()
                      if k != x)
    label = "%s %s" % (row["name"], row["variant"])
    return label + (" [%s]" % others if others else "")


def curves(doc, outdir, fmt):
    """One figure per parameter that varies: a line per series."""
    rows = [r for r in doc["results"]
            if r.get("name") != "base" and "memory" not in r]
    note_missing([r for r in rows if params_of(r)], "map_perf_test")
    written = []
    for x in CURVE_PARAMS:
        series = {}
        for r in rows:
            if x not in params_of(r) or not has_figure(r):
                continue
            y = y_of(r, x)
            if y is None:
                continue
            series.setdefault(series_label(r, x), []).append(
                (params_of(r)[x], y[0], y[1]))
        series = {k: sorted(v) for k, v in series.items() if len(v) > 1}
        if not series:
            continue
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for label, pts in sorted(series.items()):
            line = ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                               yerr=[p[2] for p in pts], marker="o",
                               capsize=3, label=label)
            line[0].set_gid("series:" + label)
        if x != "wakeup" and x not in LOG_X:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if x in LOG_X:
            ax.set_xscale("log", base=2 if x == "record_size" else 10)
        ax.set_xlabel(x + (" (-1: adaptive, 0: poll)" if x == "wakeup"
                           else ""))
        ax.set_ylabel("events/s per CPU" if x == "cpus"
                      else "ns per map operation")
        ax.set_title("map_perf_test over %s, %s" %
                     (x, doc["context"].get("kernel_release")))
        ax.legend(fontsize="x-small")
        written.append(save(fig, outdir, "curve-" + x, fmt))
    return written


def memory_curve(doc, outdir, fmt):
    """--memory: bytes per element over entries, memcg solid, memlock dashed."""
    rows = [r for r in doc["results"] if "memory" in r]
    for r in rows:
        if r.get("status") != "ok" or not r.get("memory"):
            print("plot.py: map_perf_test: %s %s %s: %s, not drawn" %
                  (r.get("name"), json.dumps(params_of(r)), r.get("status"),
                   r.get("reason")), file=sys.stderr)
    series = {}
    for r in rows:
        m = r.get("memory")
        if r.get("status") == "ok" and m and "entries" in params_of(r):
            series.setdefault(r["name"], []).append(
                (params_of(r)["entries"], m["bytes_per_element"],
                 m["memlock_per_element"]))
    series = {k: sorted(v) for k, v in series.items() if len(v) > 1}
    if not series:
        return []
    fig, ax = plt.subplots(figsize=(10, 5))
    # fourteen kinds: twenty colours, not the ten the cycle repeats
    colours = plt.get_cmap("tab20").colors
    for i, (name, pts) in enumerate(sorted(series.items())):
        xs = [p[0] for p in pts]
        (line,) = ax.plot(xs, [p[1] for p in pts], marker="o",
                          color=colours[i % len(colours)],
                          label=name + " memcg")
        line.set_gid("series:" + name + " memcg")
        (dash,) = ax.plot(xs, [p[2] for p in pts], linestyle="--",
                          color=line.get_color(), label=name + " memlock")
        dash.set_gid("series:" + name + " memlock")
    ax.set_xscale("log", base=10)
    ax.set_yscale("log", base=10)
    ax.set_xlabel("entries")
    ax.set_ylabel("bytes per element")
    ax.set_title("map_perf_test --memory, %s" %
                 doc["context"].get("kernel_release"))
    ax.legend(fontsize="x-small", loc="center left",
              bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    return [save(fig, outdir, "memory", fmt)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", default="build/plots",
                    help="directory for the pictures (default build/plots)")
    ap.add_argument("--format", default="svg", choices=("svg", "png"))
    ap.add_argument("files", nargs="+", metavar="FILE.json")
    args = ap.parse_args()
    global STEM
    docs = [load(f) for f in args.files]
    os.makedirs(args.output, exist_ok=True)
    written = []
    for path, doc in zip(args.files, docs):
        STEM = os.path.splitext(os.path.basename(path))[0]
        if doc.get("tool") == "test_overhead":
            written += overhead_bars(doc, args.output, args.format)
        elif doc.get("tool") == "map_perf_test":
            written += curves(doc, args.output, args.format)
            written += memory_curve(doc, args.output, args.format)
        else:
            die("tool %r: test_overhead or map_perf_test" % doc.get("tool"))
    if not written:
        print("plot.py: nothing to draw: no verified figures with an overhead or a curve",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
