#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the targets test_overhead is held to, as ratios and
# differences measured in one run, rounds alternating so drift hits every
# side alike. Reports; asserts nothing (tests never assert a rate).
#
#   1. base task_rename against the barest prctl loop (tools/bare_rename.c),
#      pinned the same way, on one CPU and on all: target >= 97%
#   2. what verification costs: the default body's tracepoint and raw_tp
#      overheads on task_rename beside those of the same programs with the
#      count compiled out (BENCH_TEST_FAULT=uncounted, which only the test
#      build has: make testing; never a user's figure), both sides run by
#      the test build, so that the count is all that differs:
#      target <= 5 ns
#   3. the wall time of a full default ./test_overhead, and its widest
#      row interval: target <= 10 s
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
COUNT=${COUNT:-1000000}
BARE=build/bare_rename
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O2 -Wall -o "$BARE" tools/bare_rename.c

# field FILE ROW VARIANT EXPR: EXPR of that row's JSON object r
field() {
	python3 - "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = next(r for r in d["results"] if r["name"] == sys.argv[2] and r["variant"] == sys.argv[3])
v = eval(sys.argv[4], {"r": r})
print("nan" if v is None else v)
EOF
}

# overheads NAME FAULT: a run of the task_rename rows by the test build,
# with FAULT if any
overheads() {
	BENCH_TEST_FAULT=$2 build/testing/test_overhead -q -r 3 -m base,tracepoint,raw_tp \
		-e task_rename --prog-stats --json "$TMP/$1.json" >/dev/null 2>&1 || true
}

# overhead NAME MODE: its overhead in ns, "float('nan')" when it has none
overhead() {
	field "$TMP/$1.json" "$2" task_rename \
		'r["overhead_ns"]["value"] if r.get("overhead_ns") else "float(\"nan\")"'
}

# body NAME MODE: ns inside the program per run, by the kernel's stats
body() {
	field "$TMP/$1.json" "$2" task_rename \
		'r["prog_ns_per_run"] if r.get("prog_ns_per_run") is not None else "float(\"nan\")"'
}

# mean VALUES...: the mean of those that are numbers (a round whose row
# was disturbed has none), "nan" when none is
mean() {
	python3 -c 'import sys, math; v = [float(x) for x in sys.argv[1:] if not math.isnan(float(x))]; print(sum(v) / len(v) if v else float("nan"))' "$@"
}

# base against bare on CPUS (a list): rounds alternating, side by side
base_vs_bare() {
	local cpus=$1 list ratios=() r base bare ratio
	list=$(echo "$cpus" | tr ' ' ',')
	# one CPU N as a range: -c N alone is a count of CPUs
	case $list in *[,-]*) ;; *) list=$list-$list ;; esac
	for r in $(seq "$ROUNDS"); do
		./test_overhead -q -r 1 -c "$list" -m base -e task_rename -n "$COUNT" \
			--json "$TMP/base.json" >/dev/null || true
		base=$(field "$TMP/base.json" base task_rename 'r.get("mean")')
		bare=$("$BARE" "$COUNT" $cpus)
		ratio=$(python3 -c "print($base / $bare if '$base' != 'nan' else 'nan')")
		printf '  CPUs %s, round %d: base %s/s  bare %s/s  base/bare %s\n' \
			"$list" "$r" "$base" "$bare" "$ratio"
		ratios+=("$ratio")
	done
	printf '  CPUs %s: base/bare mean %.3f (target >= 0.97)\n' "$list" \
		"$(mean "${ratios[@]}")"
}

echo "1. base against a bare prctl loop, $COUNT events per CPU, on one CPU and on all"
base_vs_bare 0
base_vs_bare "$(seq -s ' ' 0 $(($(nproc) - 1)))"

echo
echo "2. the count's cost: counted against uncounted programs, task_rename"
tp=() raw=() btp=() braw=()
for r in $(seq "$ROUNDS"); do
	overheads counted ""
	overheads uncounted uncounted
	t=$(python3 -c "print($(overhead counted tracepoint) - $(overhead uncounted tracepoint))")
	w=$(python3 -c "print($(overhead counted raw_tp) - $(overhead uncounted raw_tp))")
	bt=$(python3 -c "print($(body counted tracepoint) - $(body uncounted tracepoint))")
	bw=$(python3 -c "print($(body counted raw_tp) - $(body uncounted raw_tp))")
	printf '  round %d: overhead tracepoint %+.1f, raw_tp %+.1f ns; in the program tracepoint %+.1f, raw_tp %+.1f ns\n' \
		"$r" "$t" "$w" "$bt" "$bw"
	tp+=("$t") raw+=("$w") btp+=("$bt") braw+=("$bw")
done
printf '  the count costs, by overhead: tracepoint %.1f ns, raw_tp %.1f ns;\n' \
	"$(mean "${tp[@]}")" "$(mean "${raw[@]}")"
printf '  inside the program (--prog-stats): tracepoint %.1f ns, raw_tp %.1f ns (target <= 5 ns)\n' \
	"$(mean "${btp[@]}")" "$(mean "${braw[@]}")"

echo
echo "3. a full default run"
start=$(date +%s.%N)
./test_overhead -q --json "$TMP/full.json" >/dev/null 2>&1 || true
end=$(date +%s.%N)
python3 - "$TMP/full.json" "$start" "$end" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ok = [r for r in d["results"] if r["status"] == "ok"]
# each row's figure: its overhead, or its ns per event without a base
rel = [(r["units"]["ci95"] / abs(r["units"]["mean"]), r["name"], r["variant"])
       for r in ok if r.get("units") and r["units"].get("ci95") and r["units"]["mean"]]
widest = max(rel) if rel else (float("nan"), "-", "-")
states = {}
for r in d["results"]:
	states[r["status"]] = states.get(r["status"], 0) + 1
print("  wall time %.1f s (target <= 10 s); rows %s" % (float(sys.argv[3]) - float(sys.argv[2]), states))
print("  widest 95%% interval: +-%.2f%% of the row's figure (%s %s)" % (100 * widest[0], widest[1], widest[2]))
EOF
