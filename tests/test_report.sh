#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sampling and results, through --json: -r, the adaptive default, warm-up,
# duration, --json -, and --compare end to end on real runs. Never an
# absolute rate.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./test_overhead
L=$T_TMP/list.json
jrun $BIN --list --json "$L"
SEL='l["name"] in ("base", "raw_tp") and l["variant"] == "getpgid"'

# --- -r 3 -w 1: exactly 3 counted units; the warm-up unit is not counted
run_json_fig rep True -n 5000 -r 3 -w 1 -m base,raw_tp -e getpgid
rows_checked rep "$L" "$SEL" --repeat 3 --count 5000 --tag "-r 3 -w 1"
jexpect "-r 3 -w 1: context repeat 3, warmup 1, count 5000" "$T_TMP/rep.json" \
	'c["repeat"] == 3 and c["warmup"] == 1 and c["count"] == 5000 and c["duration_s"] is None'
# raw_tp: 3 units of one sample each; base: the two base samples of each
jexpect "-r 3 -w 1: ok rows' events are their 3 units' worth, not 4 (a base's, twice that)" "$T_TMP/rep.json" \
	'all((r["events"] == (6 if r["name"] == "base" else 3) * 5000 * '"$NCPU"' if r["status"] == "ok" else r["events"] <= 6 * 5000 * '"$NCPU"') for r in R if ran(r))'
jexpect "-r 3 -w 1: each session's warm-up unit ran, uncounted: raw_tp ran 3 units, and one more a session" "$T_TMP/rep.json" \
	'all(r["samples_run"] == r["sessions"] + 3 + r["disturbed_retries"] and r["units"]["n"] == 3 for r in R if r["name"] == "raw_tp" and r["status"] == "ok")'
fig_expect "-r 3: ok rows' statistics are of their samples" rep True \
	'all(len(r["outliers"]) == len(r["samples"]) and r["min"] <= r["mean"] <= r["max"] and r["ci95"] is not None for r in R if r["status"] == "ok")'
jexpect "JSON context is complete" "$T_TMP/rep.json" \
	'all(k in c for k in ("kernel_release", "kernel_build", "cpu_model", "online_cpus", "cpus_used", "libbpf_version", "count", "duration_s", "repeat", "warmup", "timestamp", "precision", "min_units", "max_units", "row_budget_s", "body")) and d["schema"] == "bpf-bench/1" and d["tool"] == "test_overhead"'
expect "-r 3 -w 1: exit status fits the rows (rc=$RC)" exit_matches rep

# --- the default: 4 to 16 units, until the figure is known within 3%
# (an overhead within 1 ns), or the row's half second is spent
run_json_fig adapt True -n 5000 -m base,raw_tp -e getpgid
rows_checked adapt "$L" "$SEL" --tag default
jexpect "default: precision 0.03, 4 to 16 units, a 0.5 s budget" "$T_TMP/adapt.json" \
	'c["precision"] == 0.03 and c["repeat"] is None and c["min_units"] == 4 and c["max_units"] == 16 and c["row_budget_s"] == 0.5'
fig_expect "default: raw_tp has 4 to 16 units, and says why it stopped" adapt True \
	'all(4 <= r["units"]["n"] <= 16 or r["stop"] == "budget" for r in R if r["status"] == "ok" and r["name"] == "raw_tp") and all(r["stop"] in ("precise", "budget", "max-units", "with its rows") for r in R if r["status"] == "ok")'
fig_expect "default: a row that stopped precise is within 3% (1 ns for an overhead); else it says so" adapt True \
	'all(r["units"]["ci95"] <= max(0.03 * abs(r["units"]["mean"]), 1 if r["units"]["quantity"] == "overhead_ns" else 0) * 1.0001 for r in R if r["status"] == "ok" and r["stop"] == "precise") and all(r["precise"] == (r["stop"] == "precise") for r in R if r["status"] == "ok")'

# --- units: a row's sample between two of its base's, each unit's figure
# the row's ns per event less its base samples' mean. SCHED_FIFO on one
# CPU, as pace-change's below: the checks read raw_tp's row when it is
# ok, and a busy machine's preemption left them none to read
BIN=chrt run_json units -f 1 ./test_overhead -c 1 -n 5000 -r 4 -m base,raw_tp -e getpgid
jexpect "units: raw_tp's units are its ns per event less its base's, in rounds 0 to 3" "$T_TMP/units.json" \
	'all(u["quantity"] == "overhead_ns" and u["rounds"] == [0, 1, 2, 3] and all(abs(v - (n - b)) < 1e-6 for v, n, b in zip(u["values"], u["ns"], u["base_ns"])) for u in (r["units"] for r in rows(name="raw_tp", status="ok")))'
jexpect "units: the overhead is the units' mean, its ci95 Student's t over them" "$T_TMP/units.json" \
	'all(abs(r["overhead_ns"]["value"] - sum(r["units"]["values"]) / 4) < 1e-6 and abs(r["overhead_ns"]["ci95"] - 3.182446 * (sum((v - r["overhead_ns"]["value"]) ** 2 for v in r["units"]["values"]) / 3) ** 0.5 / 2) < 1e-3 for r in rows(name="raw_tp", status="ok"))'
# the share of the base: each unit's overhead over its own base samples,
# then averaged as the overhead is, over each round's units, then over the
# rounds (4 of them, Student's t at 3 degrees of freedom)
jexpect "units: the share is each unit's overhead over its own base, in %" "$T_TMP/units.json" \
	'all(len(u["shares"]) == 4 and all(abs(s - 100 * v / b) < 1e-6 for s, v, b in zip(u["shares"], u["values"], u["base_ns"])) for u in (r["units"] for r in rows(name="raw_tp", status="ok")))'
jexpect "units: the share's value is the mean of its rounds' means, its ci95 Student's t over them" "$T_TMP/units.json" \
	'all((lambda u, o: (lambda m: o["observations"] == len(m) == 4 and o["units"] == 4 and abs(o["value"] - sum(m) / len(m)) < 1e-6 and abs(o["ci95"] - 3.182446 * (sum((x - sum(m) / len(m)) ** 2 for x in m) / 3) ** 0.5 / 2) < 1e-3)([sum(s for s, k in zip(u["shares"], u["rounds"]) if k == g) / u["rounds"].count(g) for g in sorted(set(u["rounds"]))]))(r["units"], r["overhead_share"]) for r in rows(name="raw_tp", status="ok"))'

# --- a round's units are one observation; -r N gives N rounds, one unit
# a session, so N observations: a row without a base, whose programs stay
# attached through its units, too (it once put them all in one round:
# one observation, no interval). One observation (-r 1) has no interval:
# "± -" in the summary, null in the JSON, never a nan. (SCHED_FIFO, so
# that a busy machine disturbs none, as test_faults.sh's)
BIN=chrt run_json_fig obs 'r["name"] == "raw_tp"' -f 1 ./test_overhead -c 1 -n 5000 -r 3 -m raw_tp -e getpgid
fig_expect "-r 3, no base, attached through its units: 3 rounds, 3 observations, an interval" obs 'r["name"] == "raw_tp"' \
	'all(r["units"]["rounds"] == [0, 1, 2] and r["units"]["observations"] == 3 and r["units"]["n"] == 3 and r["units"]["ci95"] is not None and r["sessions"] == 3 for r in rows(name="raw_tp", status="ok"))'
jexpect "-r 4: overhead_ns has its units and observations, 4 each" "$T_TMP/units.json" \
	'all(r["overhead_ns"]["units"] == r["units"]["n"] == 4 and r["overhead_ns"]["observations"] == r["units"]["observations"] == 4 for r in rows(name="raw_tp", status="ok"))'
BIN=chrt run_json_fig one 'r["name"] == "raw_tp"' -f 1 ./test_overhead -c 1 -n 5000 -r 1 -m base,raw_tp -e getpgid
fig_expect "-r 1: one observation, no interval: null in the JSON" one 'r["name"] == "raw_tp"' \
	'all(r["units"]["observations"] == 1 and r["units"]["ci95"] is None and r["overhead_ns"]["ci95"] is None and r["overhead_share"]["ci95"] is None and r["overhead_share"]["value"] is not None for r in rows(name="raw_tp", status="ok"))' &&
	expect "-r 1: no interval: '± -' in the summary" grep -qE '^ +raw_tp +getpgid +[+-][0-9.]+ ± - .* (ok|verified)( |$)' "$T_TMP/one.out"
expect "-r 1: no nan or inf anywhere in the output" not_grep -iwE 'nan|-?inf' "$T_TMP/one.out" "$T_TMP/one.err"

# --- a budget spent short of --precision: the row says so
run_json short -n 5000 --budget 0.001 --max-units 16 -m base,raw_tp -e getpgid
jexpect "--budget 0.001: raw_tp stops at the budget, not precise, after 2 units (an interval's least)" "$T_TMP/short.json" \
	'all(r["stop"] == "budget" and r["precise"] is False and r["units"]["n"] == 2 and r["units"]["ci95"] is not None for r in rows(name="raw_tp", status="ok"))'

# --- an overhead below zero is said: the test fault slow-base runs each
# base sample's loop twice, so the row looks cheaper than its base. On
# task_rename (a prctl of about 250 ns: the base's loop twice costs far
# more than raw_tp's program, with the watcher's run-time stats on it);
# on getpgid (60 ns) the two came out even.
BENCH_TEST_FAULT=slow-base BIN=$TESTING/test_overhead run_json_fig below 'r["name"] == "raw_tp"' -n 5000 -r 4 -m base,raw_tp -e task_rename
fig_expect "slow-base: raw_tp below its base, flagged (below_base), its interval under zero" below 'r["name"] == "raw_tp"' \
	'all(r["below_base"] is True and r["overhead_ns"]["value"] + r["overhead_ns"]["ci95"] < 0 for r in rows(name="raw_tp", status="ok"))' &&
	expect "slow-base: the summary's legend counts the row below its base" \
		grep -qE "^(Notes:| {6}) < +1 row measured faster than the base" "$T_TMP/below.out"
jexpect "no fault: raw_tp not below its base" "$T_TMP/units.json" \
	'all(r["below_base"] is False for r in rows(name="raw_tp", status="ok"))'

# --- a unit whose base samples ran at different paces is disturbed: the
# test fault pace-change runs each unit's second base sample's loop
# twice; the unit is run again, and the row ends disturbed, no figure.
# The row's reason is its last try's: of some 45, one may have been
# preempted as well; SCHED_FIFO on one CPU (-c 1), so that a busy
# machine's tasks preempt none.
BENCH_TEST_FAULT=pace-change BIN=chrt run_json pace -f 1 "$TESTING/test_overhead" -c 1 -n 5000 -r 2 -m base,raw_tp -e task_rename
jexpect "pace-change: raw_tp disturbed, its units run again, the two paces said, no figure ($(jget "$T_TMP/pace.json" '(lambda r: "%s: %s, %s units disturbed" % (r["status"], r["reason"], r["disturbed_units"]))(row("raw_tp", "task_rename"))'))" "$T_TMP/pace.json" \
	'(lambda r: r["status"] == "disturbed" and ("pace changed within a unit" in r["reason"] or r["disturbed_units"] > 10) and r["disturbed_units"] >= 2 and nofig(r))(row("raw_tp", "task_rename"))'
expect "pace-change: exit 3, a disturbed row (rc=$RC)" test "$RC" -eq 3
# map_perf_test's units run again in the same session: each try
# attaches anew to the same loaded programs, whose counts it must read
# from zero again, not from the last try's (a failed row, not disturbed)
BENCH_TEST_FAULT=pace-change BIN=chrt run_json mpace -f 1 "$TESTING/map_perf_test" -c 1 -n 500 -r 2 -a raw_tp -t hash_lookup,array_lookup
jexpect "map pace-change: each row disturbed, its units tried again in one session, none failed ($(jget "$T_TMP/mpace.json" '[(r["status"], r["reason"], r["sessions"], r["attempts"]) for r in R if r["name"] != "base"]'))" "$T_TMP/mpace.json" \
	'len([r for r in R if r["name"] != "base"]) == 2 and all(r["status"] == "disturbed" and r["attempts"] > r["sessions"] and nofig(r) for r in R if r["name"] != "base")'
jexpect "no fault: no unit of raw_tp disturbed by its pace" "$T_TMP/units.json" \
	'not any("pace" in (r["reason"] or "") for r in R)'

# --- a base sample that reaches the row's programs fails the row: the
# test fault base-hooked has base call the copy uprobe's row hooks
BENCH_TEST_FAULT=base-hooked BIN=$TESTING/test_overhead run_json hooked -n 2000 -r 2 -m base,uprobe -e uprobe-nop
jexpect "base-hooked: uprobe uprobe-nop failed, its base sample's hits named" "$T_TMP/hooked.json" \
	'(lambda r: r["status"] == "failed" and "in a base sample" in r["reason"])(row("uprobe", "uprobe-nop"))'

# --- the kernel's BPF run-time stats on (a BPF_ENABLE_STATS fd held by
# another process, which the sysctl does not show) are said: every program
# run paid for their clock reads. Unwatched runs: the tests' watcher holds
# such an fd itself.
if [ "$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null)" = 0 ]; then
	run_capture statsoff $BIN -q -n 5000 -r 2 -m base,raw_tp -e getpgid --json "$T_TMP/statsoff.json"
	run_capture statson python3 -c '
import os, subprocess, sys
sys.path.insert(0, sys.argv[1])
import watch_bpf
fd = watch_bpf.enable_stats()
if fd < 0:
	sys.exit(77)
sys.exit(subprocess.call(sys.argv[2:]))' "$TESTS" $BIN -n 5000 -r 2 -m base,raw_tp -e getpgid --json "$T_TMP/statson.json"
	if [ "$RC" = 77 ]; then
		skip "BPF run-time stats: BPF_ENABLE_STATS refused here"
	else
		jexpect "stats held on by another process: raw_tp's runs timed are counted (bpf_stats_runs)" "$T_TMP/statson.json" \
			'all(r["bpf_stats_runs"] >= r["events"] for r in rows(name="raw_tp") if ran(r)) and any(ran(r) for r in rows(name="raw_tp"))'
		# a note of a row with a figure: a disturbed row has none
		if J "$T_TMP/statson.json" 'row("raw_tp", "getpgid")["status"] == "ok"'; then
			expect "stats held on: the summary says so" \
				grep -q "ran with the kernel's BPF run-time stats on" "$T_TMP/statson.out"
		else
			skip "stats held on: the summary says so: raw_tp getpgid has no figure on this busy machine ($(jget "$T_TMP/statson.json" 'row("raw_tp", "getpgid")["reason"]'))"
		fi
		jexpect "stats off: raw_tp's runs timed: none" "$T_TMP/statsoff.json" \
			'all(r["bpf_stats_runs"] == 0 for r in rows(name="raw_tp") if ran(r))'
	fi
else
	skip "BPF run-time stats: kernel.bpf_stats_enabled is on here"
fi

# --- -d: each sample runs for a time
run_json dur -d 0.05 -r 1 -m base,raw_tp -e getpgid
jexpect "-d 0.05: duration_s 0.05, count null" "$T_TMP/dur.json" \
	'c["duration_s"] == 0.05 and c["count"] is None'
rows_checked dur "$L" "$SEL" --repeat 1 --tag "-d 0.05"

# --- --json -: stdout is the JSON alone
run_bg jout -n 2000 -r 1 -m base,raw_tp -e getpgid --json -
run_end jout
jexpect "--json -: stdout is the JSON alone, every row in it" "$T_TMP/jout.out" \
	'len(R) == 2 and d["tool"] == "test_overhead"'

# --- --compare, end to end: two real runs, pooled, A/A, then a slower copy
# (two rows against one base: the base's rounds hold two units each,
# which the compare takes as one)
run_json ca -n 5000 -r 3 -m base,raw_tp,tp_btf -e getpgid
run_json cb -n 5000 -r 3 -m base,raw_tp,tp_btf -e getpgid
run_capture cmp $BIN --compare "$T_TMP/ca.json" "$T_TMP/cb.json" --json "$T_TMP/cmp.json"
expect "--compare of two real runs: exit 0 (rc=$RC)" test "$RC" -eq 0
# its_units SIDE FILE: each compared row's SIDE is the units of FILE's
# row, a round's units as one (their mean)
its_units() {
	J "$T_TMP/cmp.json" 'all(s["n"] == len(u) and abs(s["mean"] - sum(u) / len(u)) < 1e-9 * abs(s["mean"]) for r in R for s in [r["'"$1"'"]] for u in [[sum(v for v, k in zip(f["units"]["values"], f["units"]["rounds"]) if k == g) / f["units"]["rounds"].count(g) for f in json.load(open("'"$2"'"))["results"] if (f["name"], f["variant"]) == (r["name"], r["variant"]) for g in sorted(set(f["units"]["rounds"]), key=f["units"]["rounds"].index)]])'
}
jexpect "--compare of two real runs: a row for each that ran ok in both" "$T_TMP/cmp.json" \
	'sorted((r["name"], r["variant"]) for r in R) == sorted((f["name"], f["variant"]) for f in json.load(open("'"$T_TMP/ca.json"'"))["results"] if f["status"] == "ok" and f["name"] + f["variant"] in [g["name"] + g["variant"] for g in json.load(open("'"$T_TMP/cb.json"'"))["results"] if g["status"] == "ok"])'
expect "... A's n and mean: run A's units" its_units a "$T_TMP/ca.json"
expect "... B's n and mean: run B's units" its_units b "$T_TMP/cb.json"
jexpect "... the quantities the runs wrote: overhead_ns for raw_tp, ns_per_event for base" "$T_TMP/cmp.json" \
	'all(r["quantity"] == ("ns_per_event" if r["name"] == "base" else "overhead_ns") for r in R)'

# both runs pooled against one of them
run_capture pool $BIN --compare "$T_TMP/ca.json" "$T_TMP/cb.json" -- "$T_TMP/ca.json" \
	--json "$T_TMP/pool.json"
expect "--compare A B -- A: exit 0 (rc=$RC)" test "$RC" -eq 0
jexpect "... A pools both runs' units" "$T_TMP/pool.json" \
	'all(r["a"]["files"] == 2 and r["a"]["n"] == r["b"]["n"] + [x for x in json.load(open("'"$T_TMP/cmp.json"'"))["rows"] if x["name"] == r["name"]][0]["b"]["n"] for r in R)'

# A/A: a run against a copy of itself draws no verdict
cp "$T_TMP/ca.json" "$T_TMP/ca_copy.json"
run_capture aa $BIN --compare "$T_TMP/ca.json" "$T_TMP/ca_copy.json" --json "$T_TMP/aa.json"
jexpect "--compare of a real run against its copy: no verdict, delta 0 (rc=$RC)" "$T_TMP/aa.json" \
	'all(r["verdict"] in ("no significant change", "cannot tell") and r["delta"] == 0 for r in R) and d["summary"]["slower"] + d["summary"]["faster"] == 0'

# cmp_json NAME A B ARGS...: --compare of $T_TMP/A.json and B.json, its
# JSON in $T_TMP/NAME.cmp.json
cmp_json() {
	local name=$1 a=$2 b=$3

	shift 3
	run_capture "$name" $BIN --compare "$T_TMP/$a.json" "$T_TMP/$b.json" "$@" \
		--json "$T_TMP/$name.cmp.json"
}

# B: every unit of A's rows but the bases 10% higher (then the bases
# too), made steady first (a busy machine can make a real row's units
# spread enough that 10% is within them, and this tests --compare, not
# the machine): A's rows that ran, disturbed ones too, with units made
# here around their own mean
python3 - "$T_TMP/ca.json" "$T_TMP/steady.json" "$T_TMP/slow.json" "$T_TMP/slowall.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = [r for r in d["results"] if r["status"] in ("ok", "disturbed")]
for r in ok:
	u = r.get("units") or {"quantity": "ns_per_event", "values": [50.0]}
	m = abs(sum(u["values"]) / len(u["values"])) or 50.0
	r["status"], r["reason"] = "ok", None
	r["units"] = {"quantity": u["quantity"], "values": [m * 0.99, m, m * 1.01]}
json.dump(d, open(sys.argv[2], "w"))
for r in ok:
	if r["name"] != "base":
		r["units"]["values"] = [x * 1.1 for x in r["units"]["values"]]
json.dump(d, open(sys.argv[3], "w"))
for r in ok:
	if r["name"] == "base":
		r["units"]["values"] = [x * 1.1 for x in r["units"]["values"]]
json.dump(d, open(sys.argv[4], "w"))
PY
if J "$T_TMP/ca.json" 'any(ran(r) and r["name"] != "base" for r in R)'; then
	run_capture slow $BIN --compare "$T_TMP/steady.json" "$T_TMP/slow.json" \
		--fail-on-regression 5 --json "$T_TMP/slow.cmp.json"
	expect "--compare with a copy 10% slower, --fail-on-regression 5: exit 1 (rc=$RC)" test "$RC" -eq 1
	jexpect "--compare with a copy 10% slower: every row slower by 10%, the bases unchanged" "$T_TMP/slow.cmp.json" \
		'R and all((r["verdict"] == "slower" and abs(r["delta_pct"] - 10) < 1e-6 and r["regression"]) if r["name"] != "base" else r["delta"] == 0 for r in R)'
	cmp_json slowall steady slowall
	jexpect "--compare with a copy 10% slower, the bases too: twice their shift widens the threshold (7 + 2 x 10%), no verdict" "$T_TMP/slowall.cmp.json" \
		'R and d["base_shift"]["rows"] == 1 and abs(d["base_shift"]["median_pct"] - 10) < 1e-6 and all(r["verdict"] == "no significant change" and r["within_threshold"] and abs(r["threshold_pct"] - 27) < 1e-6 for r in R)'
	cmp_json slowall0 steady slowall --threshold 0
	jexpect "--compare --threshold 0 with a copy 10% slower, the bases too: every row slower" "$T_TMP/slowall0.cmp.json" \
		'R and all(r["verdict"] == "slower" for r in R)'
	run_capture slow0 $BIN --compare "$T_TMP/steady.json" "$T_TMP/slow.json"
	expect "--compare without --fail-on-regression: exit 0 (rc=$RC)" test "$RC" -eq 0
	# 4% higher, tightly: significant, but within the 7% threshold
	python3 - "$T_TMP/steady.json" "$T_TMP/tight.json" "$T_TMP/tight4.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
	if r.get("units"):
		m = r["units"]["values"][1]
		r["units"]["values"] = [m * 0.999, m, m * 1.001]
json.dump(d, open(sys.argv[2], "w"))
for r in d["results"]:
	if r.get("units"):
		r["units"]["values"] = [x * 1.04 for x in r["units"]["values"]]
json.dump(d, open(sys.argv[3], "w"))
PY
	cmp_json thr tight tight4
	jexpect "--compare with a copy 4% slower, p tiny: no change, within the 7% threshold" "$T_TMP/thr.cmp.json" \
		'R and d["threshold_pct"] == 7 and all(r["verdict"] == "no significant change" and r["within_threshold"] and r["p"] < 0.001 for r in R)'
	cmp_json thr0 tight tight4 --threshold 0
	jexpect "--compare --threshold 0 with a copy 4% slower: slower, for each row that clears 1 ns" "$T_TMP/thr0.cmp.json" \
		'R and all((r["verdict"] == "slower") == (r["delta"] > 1) and not r["within_threshold"] or r["delta"] <= 1 for r in R)'
else
	fail "--compare with a slower copy: no row of run A ran"
fi
run_capture cmpmissing $BIN --compare "$T_TMP/ca.json" /nonexistent.json
expect "--compare with a missing file: exit 2, one line (rc=$RC)" \
	test "$RC" -eq 2 -a "$(wc -l <"$T_TMP/cmpmissing.err")" -eq 1

# --- bad values of the sampling options
bad_arg "-r 0" -r 0
bad_arg "--json followed by an option, not a file" --json --attach-time
bad_arg "-r 201" -r 201
bad_arg "-w -1" -w -1
bad_arg "-d 0" -d 0
bad_arg "-d x" -d x
bad_arg "--precision 0" --precision 0
bad_arg "--max-units 1" --max-units 1
bad_arg "--budget 0" --budget 0
bad_arg "-r 3 --max-units 5" -r 3 --max-units 5
bad_arg "-r 3 --budget 1" -r 3 --budget 1
bad_arg "--lock-wait -1" --lock-wait -1
bad_arg "--compare with one file" --compare "$T_TMP/ca.json"
bad_arg "--compare with three files and no --" --compare "$T_TMP/ca.json" "$T_TMP/ca.json" "$T_TMP/cb.json"
bad_arg "--compare A --" --compare "$T_TMP/ca.json" --
bad_arg "--ignore-param without --compare" --ignore-param progs
bad_arg "--fail-on-regression without --compare" --fail-on-regression 5
bad_arg "--threshold without --compare" --threshold 5
bad_arg "--threshold -1" --compare "$T_TMP/ca.json" "$T_TMP/ca.json" --threshold -1
bad_arg "--fail-on-regression x" --compare "$T_TMP/ca.json" "$T_TMP/ca.json" --fail-on-regression x

finish
