#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_overhead's statistics and results files on real runs: repeats and
# warm-up, duration, --json (parsed by python3), --prog-stats, --compare.
# Never an absolute rate.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./test_overhead
N=20000
NCPU=$(nproc)

# jq-like checks with python3: py FILE EXPR, true when EXPR holds for d
py() {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}
rows_named() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(' '.join(r['name'] + '/' + r['variant'] + '/' + r['status'] for r in d['results']))" "$1"; }

# --- repeats, warm-up, JSON
J=$T_TMP/a.json
run_capture rep $BIN -n $N -r 3 -w 1 -m base,raw_tp,tp_btf,kprobe -e task_rename,getpgid --json "$J"
expect "-r 3 -w 1 --json: exit 0 (rc=$RC)" test "$RC" -eq 0
expect "JSON parses" py "$J" True
expect "JSON schema and tool" py "$J" 'd["schema"] == "bpf-bench/1" and d["tool"] == "test_overhead"'
expect "JSON context is complete" py "$J" 'all(k in d["context"] for k in ("kernel_release", "kernel_build", "cpu_model", "online_cpus", "cpus_used", "libbpf_version", "attach_method", "count", "duration_s", "repeat", "warmup", "timestamp"))'
expect "JSON context: repeat 3, warmup 1, count $N" py "$J" 'd["context"]["repeat"] == 3 and d["context"]["warmup"] == 1 and d["context"]["count"] == '$N
expect "JSON: 8 rows, the selected ones" test "$(rows_named "$J" | wc -w)" -eq 8
expect "JSON: every ok row has 3 samples and 3 outlier flags" py "$J" 'all(len(r["samples"]) == 3 and len(r["outliers"]) == 3 for r in d["results"] if r["status"] == "ok")'
expect "JSON: mean lies between min and max" py "$J" 'all(r["min"] <= r["mean"] <= r["max"] for r in d["results"] if r["status"] == "ok")'
expect "JSON: ok program rows have hits >= events" py "$J" 'all(r["hits"] >= r["events"] > 0 for r in d["results"] if r["status"] == "ok" and r["name"] != "base")'
expect "JSON: overhead against base with an uncertainty" py "$J" 'all(r["overhead_ns"]["uncertainty"] >= 0 for r in d["results"] if r["status"] == "ok" and r["name"] != "base")'
expect "JSON: 3 samples of events" py "$J" 'all(r["events"] == 3 * '$N' * '$NCPU' for r in d["results"] if r["status"] == "ok")'
if grep -qE '^  kprobe +task_rename +skipped' "$T_TMP/rep.out"; then
	expect "JSON: a skipped row has its reason" py "$J" 'any(r["status"] == "skipped" and r["reason"] and "samples" not in r for r in d["results"] if r["name"] == "kprobe")'
fi
# warm-up rounds run but print nothing: 3 rounds of lines, not 4
lines=$(grep -cE '^getpgid:[0-9]+: [0-9]+ events per sec$' "$T_TMP/rep.out")
ok=$(grep -cE '^  \S+ +getpgid +ok ' "$T_TMP/rep.out")
expect "warm-up not printed: $lines lines = 3 x $ok x $NCPU" test "$lines" -eq $((3 * ok * NCPU))
# rounds interleave the modes: BASE comes back after RAW_TRACEPOINT
expect "rounds interleave the modes" test "$(grep -E '^(BASE|w/RAW_TRACEPOINT)$' "$T_TMP/rep.out" | tr '\n' ' ')" = \
	"BASE w/RAW_TRACEPOINT BASE w/RAW_TRACEPOINT BASE w/RAW_TRACEPOINT "
expect "summary shows mean ± sd" grep -qE '^  raw_tp +getpgid +ok +[0-9.]+M ± [0-9.]+ ' "$T_TMP/rep.out"
expect "no progress line when stderr is not a terminal" test -z "$(grep -F '[1/' "$T_TMP/rep.err")"

# --json - holds stdout alone
run_capture jsonout $BIN -n $N -r 2 -m base,raw_tp -e getpgid --json -
expect "--json -: stdout is JSON alone" py "$T_TMP/jsonout.out" 'len(d["results"]) == 2'

# a failed row is written too: a worker killed mid-run
kill_a_worker killed -m raw_tp -e task_rename -n 2000000000 -r 1 --json "$T_TMP/f.json"
expect "killed worker with --json: exit 1" test "$RC" -eq 1
expect "JSON: the failed row with its reason" py "$T_TMP/f.json" 'd["results"][0]["status"] == "failed" and "died" in d["results"][0]["reason"]'

# --- duration: each sample runs for a time, still verified
run_capture dur $BIN -d 0.1 -r 2 -m base,raw_tp -e getpgid --json "$T_TMP/d.json"
expect "-d 0.1: exit 0" test "$RC" -eq 0
expect "-d 0.1: raw_tp verified" grep -qE '^  raw_tp +getpgid +ok ' "$T_TMP/dur.out"
expect "-d 0.1: JSON says duration_s 0.1, count null" py "$T_TMP/d.json" 'd["context"]["duration_s"] == 0.1 and d["context"]["count"] is None'

# --- in-kernel cost: positive ns per run, sysctl as it was
before=$(sysctl -n kernel.bpf_stats_enabled)
run_capture ps $BIN -n $N -r 1 -m base,raw_tp -e getpgid --prog-stats --json "$T_TMP/p.json"
expect "--prog-stats: exit 0" test "$RC" -eq 0
expect "--prog-stats: raw_tp body ns per run > 0" py "$T_TMP/p.json" '[r for r in d["results"] if r["name"] == "raw_tp"][0]["prog_ns_per_run"] > 0'
expect "--prog-stats: the stats' own clock cost is measured" py "$T_TMP/p.json" '[r for r in d["results"] if r["name"] == "raw_tp"][0]["prog_stats_clock_ns"] > 0'
expect "--prog-stats: summary splits body and attach" grep -qE '^  raw_tp +getpgid +ok .* body [0-9.]+ \+ attach -?[0-9.]+' "$T_TMP/ps.out"
expect "--prog-stats: kernel.bpf_stats_enabled still $before" test "$(sysctl -n kernel.bpf_stats_enabled)" = "$before"

# --- compare: a file with itself, and with a slowed-down copy
run_capture same $BIN --compare "$J" "$J"
expect "compare A A: exit 0" test "$RC" -eq 0
ok_rows=$(py "$J" True && python3 -c "import json; print(sum(r['status'] == 'ok' for r in json.load(open('$J'))['results']))")
expect "compare A A: every ok row 'no significant change'" \
	test "$(grep -c 'no significant change' "$T_TMP/same.out")" -eq "$ok_rows"
# The halved row gets steady samples of its own first: a real row can be
# noisy enough on a loaded machine that even half its rate is within the
# noise, and this is a test of --compare, not of the machine.
python3 - "$J" "$T_TMP/steady.json" "$T_TMP/slow.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["results"] if r["status"] == "ok" and
	r["name"] == "raw_tp" and r["variant"] == "getpgid"]
for r in rows:
	r["samples"] = [10.0e6, 10.1e6, 9.9e6]
json.dump(d, open(sys.argv[2], "w"))
for r in rows:
	r["samples"] = [s / 2 for s in r["samples"]]
json.dump(d, open(sys.argv[3], "w"))
EOF
run_capture slow $BIN --compare "$T_TMP/steady.json" "$T_TMP/slow.json" --fail-on-regression 10
expect "compare with a halved row: exit 1 with --fail-on-regression 10 (rc=$RC)" test "$RC" -eq 1
expect "compare: the halved row is slower" grep -qE '^  raw_tp +getpgid .*slower' "$T_TMP/slow.out"
run_capture slow0 $BIN --compare "$T_TMP/steady.json" "$T_TMP/slow.json"
expect "compare without --fail-on-regression: exit 0" test "$RC" -eq 0
run_capture badjson $BIN --compare "$J" /nonexistent.json
expect "compare with a missing file: exit 2" test "$RC" -eq 2

# --- bad values: exit 2, one line
bad_arg "-r 0" -r 0
bad_arg "-r 101" -r 101
bad_arg "-w -1" -w -1
bad_arg "-d 0" -d 0
bad_arg "-d x" -d x
bad_arg "--compare with one file" --compare "$J"
bad_arg "--fail-on-regression without --compare" --fail-on-regression 5
bad_arg "--fail-on-regression x" --compare "$J" "$J" --fail-on-regression x

finish
