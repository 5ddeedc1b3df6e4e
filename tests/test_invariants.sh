#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/invariants.py, the checker tests/run.sh runs over every --json
# the tests' runs wrote: a results file that holds every invariant passes,
# and each invariant fails on a file doctored to break it alone, naming
# it. The files are made here (python3), from one shaped as a run's: a
# base row and a raw_tp row measured against it. Needs no root, no BPF.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

D=$T_TMP/docs
mkdir -p "$D"

# the doctored files: NAME.json, each one change from good.json
set_up "python3 writes a run's results and copies doctored to break one invariant each" \
	python3 - "$D" <<'EOF'
import copy, json, sys
d = sys.argv[1]
base = {"name": "base", "variant": "getpgid", "status": "ok", "reason": None,
	"unit": "events/s", "cpus": "0-1", "workers": 2,
	"samples": [1.6e6, 1.7e6, 1.65e6, 1.62e6], "outliers": [False] * 4,
	"mean": 1.64e6, "stddev": 4e4, "min": 1.6e6, "max": 1.7e6, "cv": 0.02,
	"ci95": 6e4, "noisy": False,
	"ns_per_event": {"mean": 1220.0, "stddev": 30.0, "cv": 0.02,
			 "samples": [1250.0, 1176.0, 1212.0, 1234.0]},
	"units": {"quantity": "ns_per_event", "n": 2, "observations": 2,
		  "mean": 1220.0, "ci95": 300.0, "values": [1213.0, 1223.0],
		  "ns": [1213.0, 1223.0], "base_ns": None, "rounds": [0, 1],
		  "counts": [1000, 1000], "retries": [False, False]},
	"overhead_ns": None, "overhead_share": None, "overhead_pct": None,
	"ratio_to_base": None,
	"precise": False, "below_base": False, "stop": "with its rows",
	"fed": True, "events": 8000, "hits": None}
row = {"name": "raw_tp", "variant": "getpgid", "status": "ok", "reason": None,
       "unit": "events/s", "cpus": "0-1", "workers": 2,
       "samples": [1.5e6, 1.52e6], "outliers": [False, False],
       "mean": 1.51e6, "stddev": 1.4e4, "min": 1.5e6, "max": 1.52e6,
       "cv": 0.01, "ci95": 1.3e5, "noisy": False,
       "ns_per_event": {"mean": 1325.0, "stddev": 9.0, "cv": 0.01,
			"samples": [1333.0, 1316.0]},
       "units": {"quantity": "overhead_ns", "n": 2, "observations": 2,
		 "mean": 106.5, "ci95": 40.0, "values": [120.0, 93.0],
		 "ns": [1333.0, 1316.0], "base_ns": [1213.0, 1223.0],
		 "shares": [9.89, 7.6], "rounds": [0, 1], "counts": [1000, 1000],
		 "retries": [False, False]},
       "overhead_ns": {"value": 106.5, "ci95": 40.0, "units": 2,
		       "observations": 2},
       "overhead_share": {"value": 8.75, "ci95": 29.1, "units": 2,
			  "observations": 2},
       "overhead_pct": 8.7, "ratio_to_base": 1.09, "precise": False,
       "below_base": False, "stop": "repeat", "fed": False,
       "events": 4000, "attached_for": "samples",
       "per_cpu": [{"cpu": 0, "events": 2000, "hits_window": 2000},
		   {"cpu": 1, "events": 2000, "hits_window": 2000}],
       "hits": 4000, "hits_window": 4000, "hits_outside": 0,
       "kernel_skipped": 0, "hits_per_event": 1, "programs": 1,
       "prog_ns_per_run": None}
good = {"schema": "bpf-bench/1", "tool": "test_overhead", "version": "2.0",
	"context": {"repeat": 2, "count": 1000},
	"results": [base, row]}


def write(name, doc):
	json.dump(doc, open("%s/%s.json" % (d, name), "w"))


def doctored(name, change):
	doc = copy.deepcopy(good)
	change(doc["results"][1], doc)
	write(name, doc)


write("good", good)
# a NaN, an infinity: no JSON spelling; Python's writer spells them so
doctored("nan", lambda r, doc: r.update(overhead_pct=float("nan")))
# (a number too large for a double: Python reads it as an infinity)
doctored("inf", lambda r, doc: r["ns_per_event"]["samples"].__setitem__(0, 12345.5))
text = open("%s/inf.json" % d).read().replace("12345.5", "1e999")
open("%s/inf.json" % d, "w").write(text)
# in-window hits short of the events: in all (no per_cpu), on one CPU
def short_total(r, doc):
	del r["per_cpu"]
	r.update(hits=3990, hits_window=3990)
doctored("short-total", short_total)
def short_cpu(r, doc):
	r["per_cpu"][0]["hits_window"] = 1990
	r["per_cpu"][1]["hits_window"] = 2010
doctored("short-cpu", short_cpu)
# short, but by what the kernel says it skipped: excused
def skipped(r, doc):
	r["per_cpu"][0]["hits_window"] = 1990
	r.update(hits=3990, hits_window=3990, kernel_skipped=10)
doctored("skipped", skipped)
doctored("outside", lambda r, doc: r.update(hits=4005, hits_outside=5))
# attached through its sessions: other calls of the worker's may count
doctored("outside-session", lambda r, doc: r.update(hits=4005, hits_outside=5,
						     attached_for="session"))
doctored("counts-hits", lambda r, doc: r.update(hits=4005))
doctored("counts-units", lambda r, doc: r["units"]["values"].pop())
# CPU 1's events alone: its hits_window still add up to the row's
doctored("counts-cpu", lambda r, doc: r["per_cpu"][1].update(events=2100))
doctored("counts-rounds", lambda r, doc: r["units"].update(rounds=[0, 0]))
doctored("no-interval", lambda r, doc: r["overhead_ns"].update(ci95=None))
# the share of the base: a finite one, with its interval, on an overhead
# row whose base is an operation of its own; none on any other row
doctored("share-null", lambda r, doc: r.update(overhead_share=None))
doctored("share-no-interval", lambda r, doc: r["overhead_share"].update(ci95=None))
doctored("share-bare-call", lambda r, doc: r.update(overhead_pct=None))
# nor units' shares there, which --compare would judge the row on
doctored("shares-bare-call", lambda r, doc: r.update(overhead_pct=None,
						     overhead_share=None))
def bare_call(r, doc):
	r.update(overhead_pct=None, overhead_share=None)
	r["units"]["shares"] = None
doctored("bare-call", bare_call)
doctored("share-counts", lambda r, doc: r["overhead_share"].update(observations=3))
def share_old(r, doc):
	r.pop("overhead_share")
	r["units"].pop("shares")
doctored("share-old", share_old)
# one observation has no interval
def one(r, doc):
	r["units"].update(rounds=[0, 0], observations=1, ci95=None)
	r["overhead_ns"].update(observations=1, ci95=None)
	r["overhead_share"].update(observations=1, ci95=None)
doctored("one-observation", one)
doctored("not-ok-figure", lambda r, doc: r.update(status="disturbed",
						   reason="a busy machine"))
def not_ok(r, doc):
	for k in ("samples", "outliers"):
		r[k] = []
	for k in ("mean", "stddev", "min", "max", "cv", "ci95", "ns_per_event",
		  "units", "overhead_ns", "overhead_share", "overhead_pct",
		  "ratio_to_base"):
		r.pop(k)
	r.update(status="disturbed", reason="a busy machine")
doctored("not-ok", not_ok)
# a failed row beside one measured
def failed(r, doc):
	ok = copy.deepcopy(r)
	ok["variant"] = "task_rename"
	doc["results"].append(ok)
	not_ok(r, doc)
	r.update(status="failed")
doctored("failed", failed)
# a compare whose summary is not its rows
cmp = {"schema": "bpf-bench-compare/1", "alpha": 0.05,
       "fail_on_regression_pct": 5,
       "summary": {"compared": 1, "slower": 1, "faster": 0, "no_change": 0,
		   "cannot_tell": 0, "not_compared": 0, "regressions": 1},
       "rows": [{"name": "raw_tp", "variant": "getpgid", "params": "",
		 "quantity": "overhead_ns", "observation": "round",
		 "a": {"files": 1, "n": 4, "mean": 100.0, "ci95": 2.0},
		 "b": {"files": 1, "n": 4, "mean": 120.0, "ci95": 2.0},
		 "delta": 20.0, "delta_ci95": 3.0, "delta_pct": 20.0,
		 "p": 0.0001, "verdict": "slower", "regression": True}],
       "not_compared": []}
write("cmp", cmp)
bad = copy.deepcopy(cmp)
bad["summary"]["slower"] = 0
write("cmp-counts", bad)
# an overhead row judged on its share: slower on it, though not on the ns
on_share = copy.deepcopy(cmp)
on_share["rows"][0].update(verdict_on="overhead_share", p=0.2, share={
	"a": {"n": 4, "mean": 30.0, "ci95": 1.0}, "b": {"n": 4, "mean": 36.0, "ci95": 1.0},
	"delta": 6.0, "delta_ci95": 1.5, "delta_pct": 20.0, "p": 0.0001, "verdict": "slower"})
write("cmp-share", on_share)
bad = copy.deepcopy(on_share)
bad["rows"][0]["share"]["verdict"] = "no significant change"
write("cmp-share-verdict", bad)
open("%s/cut.json" % d, "w").write(json.dumps(good)[:500])
open("%s/empty.json" % d, "w").write("")
EOF

# inv FILE...: tests/invariants.py on them, its output in $T_TMP/inv.out,
# $RC its status
inv() {
	python3 "$TESTS/invariants.py" "$@" >"$T_TMP/inv.out" 2>&1
	RC=$?
	echo "# $(tail -n 1 "$T_TMP/inv.out")"
}

# holds NAME FILE...: the checker passes them, and says how much it read
holds() {
	local name=$1
	shift
	inv "$@"
	expect "$name: exit 0, no violation ($(tail -n 1 "$T_TMP/inv.out"))" \
		eval '[ "$RC" -eq 0 ] && grep -qx "invariants: [0-9]* file(s), [0-9]* row(s) checked, 0 violation(s)" "$T_TMP/inv.out"'
}

# breaks NAME INVARIANT FILE...: the checker fails them, naming INVARIANT
breaks() {
	local name=$1 what=$2
	shift 2
	inv "$@"
	expect "$name: exit 1, '$what' named ($(grep -m1 'violated' "$T_TMP/inv.out" | cut -c1-200))" \
		eval '[ "$RC" -eq 1 ] && grep -q "^invariant violated: .*: $what: " "$T_TMP/inv.out"'
}

holds "a run's results that hold every invariant, exit 0" "$D/good.json:0"
expect "... it says how many files and rows it read" grep -qx "invariants: 1 file(s), 2 row(s) checked, 0 violation(s)" "$T_TMP/inv.out"
breaks "a NaN" non-finite "$D/nan.json"
breaks "an infinity" non-finite "$D/inf.json"
breaks "in-window hits short of the events, in all" hits-short "$D/short-total.json"
breaks "in-window hits short on one CPU, made up on another" hits-short "$D/short-cpu.json"
holds "hits short by what the kernel says it skipped" "$D/skipped.json"
breaks "hits outside the loops, attached around the samples alone" hits-outside "$D/outside.json"
holds "hits outside the loops, attached through the sessions" "$D/outside-session.json"
breaks "hits not hits_window + hits_outside" counts "$D/counts-hits.json"
breaks "a units array shorter than units.n" counts "$D/counts-units.json"
breaks "per_cpu's events not the row's" counts "$D/counts-cpu.json"
breaks "observations not the rounds the units ran in" counts "$D/counts-rounds.json"
breaks "an ok row of 2 observations without an interval" no-interval "$D/no-interval.json"
holds "an ok row of one observation, no interval" "$D/one-observation.json"
breaks "an ok overhead row without its share of the base" share "$D/share-null.json"
breaks "an ok row of 2 observations, its share without an interval" share "$D/share-no-interval.json"
breaks "a share on a row whose base is a bare call (overhead_pct null)" share "$D/share-bare-call.json"
breaks "units' shares on a row whose base is a bare call" share "$D/shares-bare-call.json"
holds "a row whose base is a bare call: no share, nor units' shares" "$D/bare-call.json"
breaks "a share of 3 observations on units of 2" counts "$D/share-counts.json"
holds "a file written before the share" "$D/share-old.json"
breaks "a figure on a disturbed row" not-ok-figure "$D/not-ok-figure.json"
holds "a disturbed row without a figure, exit 3" "$D/not-ok.json:3"
breaks "a disturbed row, exit 0" exit-status "$D/not-ok.json:0"
breaks "a failed row, exit 3" exit-status "$D/failed.json:3"
breaks "a failed row beside a measured one, exit 0" exit-status "$D/failed.json:0"
holds "a failed row beside a measured one, exit 1" "$D/failed.json:1"
breaks "every row ok, exit 3" exit-status "$D/good.json:3"
holds "a signal's status stands" "$D/good.json:143"
breaks "a compare's summary not its rows" counts "$D/cmp-counts.json"
holds "a compare with a regression under --fail-on-regression, exit 1" "$D/cmp.json:1"
holds "a compare row slower on its share, not on the ns, exit 1" "$D/cmp-share.json:1"
breaks "a compare row on its share, the share's own verdict another" counts "$D/cmp-share-verdict.json"
breaks "... exit 0" exit-status "$D/cmp.json:0"
breaks "a file cut short" unreadable "$D/cut.json:1"
breaks "no results, exit 0" unreadable "$D/empty.json:0"
holds "no results, exit 1 (refused)" "$D/empty.json:1"

# the manifest tests/lib.sh writes: a run's file, its status, its stderr;
# a write error said on stderr makes exit 1 right whatever the rows
printf 'writing the results to stdout failed: No space left on device\n' >"$D/full.err"
printf '%s\t1\t%s\ttest_x.sh:full.json\t./test_overhead\t--json\t-\n' "$D/good.json" "$D/full.err" >"$D/manifest"
printf '%s\t3\t-\ttest_x.sh:good.json\t./test_overhead\t--json\tgood.json\n' "$D/good.json" >>"$D/manifest"
inv --manifest "$D/manifest"
expect "manifest: a write error's exit 1 stands, exit 3 for ok rows does not, named by test and file" \
	eval '[ "$RC" -eq 1 ] && [ "$(grep -c violated "$T_TMP/inv.out")" -eq 1 ] && grep -q "^invariant violated: test_x.sh:good.json: exit-status: exit 3" "$T_TMP/inv.out"'
printf '%s\t4\t-\ttest_x.sh:ktap.json\t./test_overhead\t--ktap\t--json\tktap.json\n' "$D/not-ok.json" >"$D/manifest"
inv --manifest "$D/manifest"
expect "manifest: --ktap's exit 4 for nothing measured (a row disturbed) stands" test "$RC" -eq 0

# the hooks: keep_json keeps what a run's --json wrote, with its status
T_INVARIANTS=$T_TMP/kept
mkdir -p "$T_INVARIANTS"
run_capture kept sh -c 'cat "$1"' sh "$D/good.json" --json -
jrun sh -c 'cp "$1" "$2"' sh "$D/not-ok.json" "$T_TMP/w.json" --json "$T_TMP/w.json"
jrun sh -c 'exit 1' sh --json "$T_TMP/w.json"
expect "keep_json: run_capture's --json - (its stdout) and jrun's file kept, with their statuses; a file a run left as it was not kept" \
	eval '[ "$(cut -f2 "$T_INVARIANTS/manifest" | tr "\n" " ")" = "0 0 1 " ] && cmp -s "$(sed -n 1p "$T_INVARIANTS/manifest" | cut -f1)" "$D/good.json" && cmp -s "$(sed -n 2p "$T_INVARIANTS/manifest" | cut -f1)" "$D/not-ok.json" && [ ! -e "$(sed -n 3p "$T_INVARIANTS/manifest" | cut -f1)" ]'
T_INVARIANTS=

finish
