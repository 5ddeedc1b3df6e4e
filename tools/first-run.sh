#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What a new user sees: N consecutive default runs of each program, as
# they come (make first-run RUNS=10). For each run: its exit status, its
# lines of output (stdout and stderr), its wall time, its rows: how many
# the kernel supports (not skipped), how many got a figure (ok), and
# which ended disturbed or failed, with why; and its widest line, with
# how many are wider than 100 columns (the summaries keep within 100).
# Then the --compare of each program's first two runs: its widest line
# and those over 100 columns, and with -f short over 72. Then the medians, and the
# wall times of upstream's own invocations, ./test_overhead 1 and
# ./map_perf_test 128, beside the anchor: what upstream's own
# "./test_overhead 1" does (tools/upstream_base.c). Reports; asserts
# nothing.
set -u
cd "$(dirname "$0")/.." || exit 1
RUNS=${RUNS:-10}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# widths FILE LIMIT: "widest N, M over LIMIT columns" of FILE's lines
widths() {
	python3 - "$1" "$2" <<'EOF'
import sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
cols = [len(l.rstrip()) for l in lines] or [0]
print("widest %d, %d over %s columns" % (max(cols), sum(c > int(sys.argv[2]) for c in cols),
					 sys.argv[2]))
EOF
}

# one run: "rc lines seconds supported ok widest over100" and the rows
# that missed; the run's results in $TMP/run.json
run_once() {
	local name=$1 json=$TMP/run.json t0 t1 rc
	shift
	t0=$(date +%s.%N)
	"$@" --json "$json" >"$TMP/out" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	python3 - "$json" "$rc" "$(wc -l <"$TMP/out")" "$t0" "$t1" "$TMP/out" <<'EOF'
import json, sys
path, rc, lines, t0, t1, out = sys.argv[1:]
try:
    rows = json.load(open(path))["results"]
except (OSError, ValueError):
    rows = []
supported = [r for r in rows if r["status"] != "skipped"]
ok = [r for r in supported if r["status"] == "ok"]
cols = [len(l.rstrip()) for l in open(out, encoding="utf-8", errors="replace")] or [0]
print(rc, lines, "%.2f" % (float(t1) - float(t0)), len(supported), len(ok),
      max(cols), sum(c > 100 for c in cols))
for r in supported:
    if r["status"] != "ok":
        print("#   %s %s %s: %s" % (r["name"], r["variant"], r["status"],
                                    r.get("reason", "")))
EOF
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

summarize() {
	local name=$1 file=$2
	echo "$name: $(grep -vc '^#' "$file") runs;" \
	     "all rows with a figure in $(awk '!/^#/ && $4 == $5' "$file" | wc -l);" \
	     "exit 0 in $(awk '!/^#/ && $1 == 0' "$file" | wc -l);" \
	     "median $(grep -v '^#' "$file" | awk '{ print $3 }' | median) s," \
	     "$(grep -v '^#' "$file" | awk '{ print $2 }' | median) lines;" \
	     "$(awk '!/^#/ && $7 > 0' "$file" | wc -l) with lines over 100 columns"
}

for prog in test_overhead map_perf_test; do
	echo "== ./$prog, $RUNS default runs: rc lines seconds supported ok widest over100"
	: >"$TMP/$prog.runs"
	for i in $(seq "$RUNS"); do
		run_once "$prog" "./$prog" | tee -a "$TMP/$prog.runs"
		[ "$i" -gt 2 ] || cp "$TMP/run.json" "$TMP/$prog-$i.json" 2>/dev/null
	done
	summarize "./$prog" "$TMP/$prog.runs"
	if [ -s "$TMP/$prog-2.json" ]; then
		./$prog --compare "$TMP/$prog-1.json" "$TMP/$prog-2.json" >"$TMP/cmp" 2>&1
		echo "./$prog --compare of runs 1 and 2: $(widths "$TMP/cmp" 100)"
		./$prog --compare "$TMP/$prog-1.json" "$TMP/$prog-2.json" -f short >"$TMP/cmp" 2>&1
		echo "./$prog --compare -f short of runs 1 and 2: $(widths "$TMP/cmp" 72)"
	fi
done

for cmd in "./test_overhead 1" "./map_perf_test 128"; do
	echo "== $cmd, $RUNS runs: rc lines seconds supported ok"
	: >"$TMP/upstream.runs"
	for i in $(seq "$RUNS"); do
		# shellcheck disable=SC2086
		run_once "$cmd" $cmd | tee -a "$TMP/upstream.runs"
	done
	summarize "$cmd" "$TMP/upstream.runs"
done

cc -O2 -o "$TMP/upstream_base" tools/upstream_base.c || exit 1
echo "== upstream's ./test_overhead 1 (tools/upstream_base.c), $RUNS runs: seconds"
for i in $(seq "$RUNS"); do
	t0=$(date +%s.%N)
	"$TMP/upstream_base" >/dev/null
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }'
done | tee "$TMP/anchor.runs"
echo "upstream's ./test_overhead 1: median $(median <"$TMP/anchor.runs") s"
