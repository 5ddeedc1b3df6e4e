#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make repro RUNS=N: how far a figure of these tools can be trusted, from
# the tools themselves, in one go on this machine. Reports; asserts
# nothing (tests never assert a rate):
#
#   1. N default runs of each program, one after the other, and N runs of
#      test_overhead's tracepoint and raw_tp rows on one CPU (-c 1). Per
#      row, over the runs: the median of its figure (the overhead, or ns
#      per event without a base; map_perf_test's ns per operation), its
#      coefficient of variation, and its calibration, the share of runs
#      whose 95% interval holds the median of all runs (about 95% is what
#      an honest interval gives).
#   2. N/2 A/A compares, run 1 against run 2 and so on: two runs of one
#      build differ by chance alone, so every faster or slower verdict is
#      a false one (about 5% is what 95% confidence promises).
#   3. Sensitivity: N pairs of runs of -m raw_tp,tracepoint on getpgid
#      and task_rename with --progs 1 and with --progs 2 (one more program
#      on the hook), compared as the same rows: each pair's compare should
#      say slower.
#   4. The wall time of each default run, and where it went (the rows'
#      time_ns and the context's run_ns): the share in the samples the
#      figures came from, and the rest by phase (forking workers, waits
#      for quiet, attach and detach, ...), medians over the runs.
#
# RUNS=N (default 10); REPRO_DIR=dir keeps every --json file there (else
# a temporary directory, removed at the end); REPRO_SKIP_MAPS=1 leaves
# map_perf_test out.
set -u
cd "$(dirname "$0")/.." || exit 1
RUNS=${RUNS:-10}
if [ -n "${REPRO_DIR:-}" ]; then
	OUT=$REPRO_DIR
	mkdir -p "$OUT" || exit 1
else
	OUT=$(mktemp -d)
	trap 'rm -rf "$OUT"' EXIT
fi
TO=./test_overhead
MP=./map_perf_test
[ -x "$TO" ] && [ -x "$MP" ] || { echo "repro: build first (make)" >&2; exit 1; }

# run NAME CMD...: CMD --json OUT/NAME.json; its wall time in OUT/NAME.time
run() {
	local name=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	"$@" -q --json "$OUT/$name.json" >/dev/null 2>"$OUT/$name.err"
	echo $? >"$OUT/$name.rc"
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }' >"$OUT/$name.time"
}

# compare NAME A B [ARGS...]: the --compare verdicts of A against B
compare() {
	local name=$1 a=$2 b=$3
	shift 3
	"$TO" --compare "$OUT/$a.json" "$OUT/$b.json" "$@" \
		--json "$OUT/$name.json" >"$OUT/$name.txt" 2>&1
}

echo "repro: $RUNS runs of each, into $OUT" >&2
for i in $(seq "$RUNS"); do
	echo "repro: round $i of $RUNS" >&2
	run "to.$i" "$TO"
	[ -n "${REPRO_SKIP_MAPS:-}" ] || run "mp.$i" "$MP"
	run "c1.$i" "$TO" -c 1 -m base,tracepoint,raw_tp -e task_rename,getpgid
	run "p1.$i" "$TO" -m base,raw_tp,tracepoint -e getpgid,task_rename --progs 1
	run "p2.$i" "$TO" -m base,raw_tp,tracepoint -e getpgid,task_rename --progs 2
done
for i in $(seq 1 2 "$((RUNS - 1))"); do
	compare "aa-to.$i" "to.$i" "to.$((i + 1))"
	[ -n "${REPRO_SKIP_MAPS:-}" ] || compare "aa-mp.$i" "mp.$i" "mp.$((i + 1))"
done
for i in $(seq "$RUNS"); do
	compare "sens.$i" "p1.$i" "p2.$i" --ignore-param progs
done
python3 tools/repro.py "$OUT" "$RUNS"
