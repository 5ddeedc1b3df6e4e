#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The report of tools/repro.sh: reads the --json files it left in DIR.

    tools/repro.py DIR RUNS

Per program and row: over the runs, the median of the row's figure, its
coefficient of variation, and how many runs' 95% intervals hold that
median, for test_overhead's overheads also as a share of their base;
then the A/A compares' false verdicts, the sensitivity pairs' verdicts
(by the verdict given, and for overhead rows by the ns and by the share of
the base), the wall times and where they went. Reports; asserts nothing.
"""
import json
import os
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def params_text(row):
    p = row.get("params") or {}
    return ",".join("%s=%s" % kv for kv in sorted(p.items()))


def figure(doc, row):
    """The row's figure and its 95% half-interval, in the unit the tool
    shows it: map_perf_test's ns per operation, test_overhead's overhead
    (ns per event without a base)."""
    if row.get("status") != "ok":
        return None
    nsop = row.get("ns_per_op")
    if doc.get("tool") == "map_perf_test" and nsop:
        return nsop.get("value"), nsop.get("ci95")
    units = row.get("units")
    if units:
        return units.get("mean"), units.get("ci95")
    return None


def share_figure(doc, row):
    """An overhead row's overhead as a share of its paired base (%), and
    its 95% half-interval; None for base rows and map_perf_test"""
    if row.get("status") != "ok":
        return None
    share = row.get("overhead_share")
    if not share:
        return None
    return share.get("value"), share.get("ci95")


def rows_over_runs(docs, figure=figure):
    """{(name, variant, params): [(value, half), ...]} in run order"""
    out = {}
    for doc in docs:
        if not doc:
            continue
        for row in doc.get("results", []):
            f = figure(doc, row)
            if f is None or f[0] is None:
                continue
            key = (row["name"], row["variant"], params_text(row))
            out.setdefault(key, []).append(f)
    return out


def print_rows(title, docs, runs, figure=figure):
    """one line a row; then how many rows were calibrated in at least
    8 of 10 of their runs (the issue's target), as a count"""
    rows = rows_over_runs(docs, figure)
    if not rows:
        return
    well = 0
    print("== %s: %d runs" % (title, sum(1 for d in docs if d)))
    print("  %-28s %-17s %4s %12s %7s %11s %10s" %
          ("row", "variant", "runs", "median", "CV", "calibrated", "median ±"))
    for (name, variant, params), figs in rows.items():
        values = [v for v, _ in figs]
        med = statistics.median(values)
        mean = statistics.mean(values)
        cv = (statistics.stdev(values) / abs(mean)
              if len(values) > 1 and mean else float("nan"))
        halves = [h for _, h in figs if h is not None]
        held = sum(1 for v, h in figs
                   if h is not None and v - h <= med <= v + h)
        well += 10 * held >= 8 * len(figs)
        label = name + (" [%s]" % params if params else "")
        print("  %-28s %-17s %4d %12.2f %6.1f%% %6d of %-2d %10.2f" %
              (label, variant, len(values), med, 100 * cv, held, len(figs),
               statistics.median(halves) if halves else float("nan")))
    print("  calibrated in at least 8 of 10 runs: %d of %d rows" %
          (well, len(rows)))


# the stops short of --precision (the rows' "stop")
SHORT = ("budget", "max-units")


def print_stops(docs, title):
    """per run, the rows with a figure that stopped short of --precision
    (its budget, --max-units) of those that stopped on their own (a base
    row fed by others stops with them): the median over the runs"""
    short, own = [], []
    for doc in docs:
        if not doc:
            continue
        rows = [r for r in doc.get("results", [])
                if r.get("status") == "ok" and r.get("stop") != "with its rows"]
        own.append(len(rows))
        short.append(sum(1 for r in rows if r.get("stop") in SHORT))
    if own:
        print("== %s: rows stopped short of --precision: median %g of %g "
              "(%d-%d), %d runs" % (title, statistics.median(short),
                                     statistics.median(own), min(short),
                                     max(short), len(own)))


def ns_verdict(doc, r):
    """the verdict on a row's ns: the one given, or for an overhead row
    judged on its share, as the compare draws it from the ns' p, delta
    and threshold (its figures stay the ns')"""
    if r.get("verdict_on") != "overhead_share":
        return r.get("verdict")
    p, delta, a = r.get("p"), r.get("delta"), (r.get("a") or {}).get("mean")
    if p is None or delta is None or a is None:
        return "cannot tell"
    within = max(doc.get("threshold_ns", 1.0),
                 r.get("threshold_pct", 0) / 100 * abs(a))
    if not p < doc.get("alpha", 0.05) or abs(delta) <= within:
        return "no significant change"
    return "slower" if delta > 0 else "faster"


def verdicts(path):
    """[(name, variant, the verdict, the share's verdict or None, the
    verdict on the ns)]"""
    doc = load(path)
    if not doc:
        return None
    return [(r.get("name"), r.get("variant"), r.get("verdict"),
             (r.get("share") or {}).get("verdict"), ns_verdict(doc, r))
            for r in doc.get("rows", [])]


def aa_line(what, flagged, compared):
    pct = 100.0 * flagged / compared if compared else float("nan")
    return "%s: %d of %d rows called faster or slower (%.1f%%)" % (
        what, flagged, compared, pct)


def print_aa(out, prefix, title):
    """every faster or slower of two runs of one build is false: by the
    verdict the compare gave (an overhead row's on its share of the base
    where it has one), and over those rows by the ns and by the share"""
    flagged = compared = files = 0
    s_flagged = s_compared = ns_flagged = 0
    names = sorted(n for n in os.listdir(out)
                   if n.startswith(prefix) and n.endswith(".json"))
    examples = []
    for n in names:
        v = verdicts(os.path.join(out, n))
        if v is None:
            continue
        files += 1
        for name, variant, verdict, share, ns in v:
            compared += 1
            if verdict in ("faster", "slower"):
                flagged += 1
                examples.append("%s %s %s" % (name, variant, verdict))
            if share is None:
                continue
            s_compared += 1
            s_flagged += share in ("faster", "slower")
            ns_flagged += ns in ("faster", "slower")
    print("== A/A %s: %d compares, %s" %
          (title, files, aa_line("the verdict", flagged, compared)))
    for e in examples[:10]:
        print("   ", e)
    if s_compared:
        print("   overhead rows, %s; %s" %
              (aa_line("on the ns", ns_flagged, s_compared),
               aa_line("on the share of the base", s_flagged, s_compared)))


def print_sensitivity(out, runs):
    per_row = {}
    for i in range(1, runs + 1):
        v = verdicts(os.path.join(out, "sens.%d.json" % i))
        for name, variant, verdict, share, ns in v or []:
            if name == "base":
                continue
            per_row.setdefault((name, variant), []).append((ns, share))
    print("== sensitivity: --progs 1 against --progs 2, %d pairs" % runs)
    for (name, variant), vs in sorted(per_row.items()):
        print("  %-12s %-12s slower in %d of %d on the ns (the share of the base: %d)" %
              (name, variant, sum(v == "slower" for v, _ in vs), len(vs),
               sum(s == "slower" for _, s in vs)))


def print_times(out, prefix, title):
    times = []
    for n in sorted(os.listdir(out)):
        if n.startswith(prefix) and n.endswith(".time"):
            with open(os.path.join(out, n)) as f:
                times.append(float(f.read()))
    if times:
        print("== %s: wall time median %.1f s (%.1f-%.1f), %d runs" %
              (title, statistics.median(times), min(times), max(times),
               len(times)))


# the phases of a row's sessions (time_ns), as the report names them
PHASES = (("fork", "forking workers"), ("quiet", "waits for quiet"),
          ("attach", "attach"), ("detach", "detach"),
          ("run", "the go and results"), ("reads", "count reads"),
          ("checks", "checks"), ("stop", "stopping workers"),
          ("other", "other, in sessions"))


def run_time(out, name):
    try:
        with open(os.path.join(out, name + ".time")) as f:
            return float(f.read()) * 1e9
    except (OSError, ValueError):
        return None


def time_shares(doc, wall):
    """{part: share of the run's wall time} from the rows' time_ns"""
    tot = {}
    for row in doc.get("results", []):
        for k, v in (row.get("time_ns") or {}).items():
            # the rows' detaches at the end run side by side: the
            # longest is their wall time
            tot[k] = max(tot.get(k, 0), v) if k == "detach_at_end" else \
                tot.get(k, 0) + v
    if not tot or not wall:
        return None
    shares = {k: v / wall for k, v in tot.items()}
    shares["samples"] = tot.get("loops_counted", 0) / wall
    shares["samples_of_sessions"] = (tot.get("loops_counted", 0) /
                                     tot["sessions"] if tot.get("sessions")
                                     else float("nan"))
    shares["loops_uncounted"] = (tot.get("loops", 0) -
                                 tot.get("loops_counted", 0)) / wall
    # the run's own time, from the lock on; before it, the wait for
    # another run and the program's start
    run = (doc.get("context") or {}).get("run_ns") or wall
    shares["waiting"] = 1 - run / wall
    shares["outside"] = (run - tot.get("sessions", 0) - tot.get("load", 0) -
                         tot.get("detach_at_end", 0)) / wall
    return shares


def print_time_shares(out, prefix, title, runs):
    """where each default run's time went: the share in the samples its
    figures came from, the rest by phase (medians over the runs)"""
    per = []
    for i in range(1, runs + 1):
        doc = load(os.path.join(out, "%s.%d.json" % (prefix, i)))
        wall = run_time(out, "%s.%d" % (prefix, i))
        sh = time_shares(doc, wall) if doc else None
        if sh:
            per.append(sh)
    if not per:
        return

    def med(k):
        return 100 * statistics.median(p.get(k, 0) for p in per)

    print("== %s: where a run's wall time goes, median of %d runs" %
          (title, len(per)))
    print("  in the samples its figures came from: %.1f%% of the run "
          "(%.1f%%-%.1f%%), %.1f%% of the rows' sessions (target >= 60%%)" %
          (med("samples"), 100 * min(p["samples"] for p in per),
           100 * max(p["samples"] for p in per), med("samples_of_sessions")))
    parts = [("loops_uncounted", "samples that gave no figure")]
    parts += PHASES
    parts += [("load", "loading programs"),
              ("detach_at_end", "detach at the end"),
              ("outside", "the rest of the run"),
              ("waiting", "the lock and start")]
    print("  " + ", ".join("%s %.1f%%" % (label, med(k)) for k, label in parts))
    print("  (retried samples and units took %.1f%%, inside the above)" %
          med("retries"))


def stats_on(docs):
    """runs during which someone held the kernel's BPF run-time stats on:
    their programs' runs each paid for two clock reads more"""
    return sum(1 for d in docs if d and any(
        (r.get("bpf_stats_runs") or 0) > 0 for r in d.get("results", [])))


def main():
    out, runs = sys.argv[1], int(sys.argv[2])

    def docs(prefix):
        return [load(os.path.join(out, "%s.%d.json" % (prefix, i)))
                for i in range(1, runs + 1)]

    tainted = sum(stats_on(docs(p)) for p in ("to", "c1", "mp", "p1", "p2"))
    if tainted:
        print("!! %d run(s) ran with the kernel's BPF run-time stats on (another "
              "process's BPF_ENABLE_STATS, or kernel.bpf_stats_enabled): their "
              "overheads hold the stats' clock reads; rerun on a quiet machine"
              % tainted)
    print_rows("./test_overhead", docs("to"), runs)
    print_rows("./test_overhead -c 1 -m base,tracepoint,raw_tp", docs("c1"),
               runs)
    print_rows("./test_overhead, each overhead as a share of its base (%)",
               docs("to"), runs, share_figure)
    print_rows("./test_overhead -c 1, as a share of the base (%)", docs("c1"),
               runs, share_figure)
    if any(docs("mp")):
        print_rows("./map_perf_test (ns/op)", docs("mp"), runs)
    print_aa(out, "aa-to.", "./test_overhead")
    if any(docs("mp")):
        print_aa(out, "aa-mp.", "./map_perf_test")
    print_sensitivity(out, runs)
    print_stops(docs("to"), "./test_overhead")
    if any(docs("mp")):
        print_stops(docs("mp"), "./map_perf_test")
    print_times(out, "to.", "./test_overhead")
    print_times(out, "mp.", "./map_perf_test")
    print_time_shares(out, "to", "./test_overhead", runs)
    if any(docs("mp")):
        print_time_shares(out, "mp", "./map_perf_test", runs)


if __name__ == "__main__":
    main()
