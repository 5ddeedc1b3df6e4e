#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/plot.py: pictures of --json files. Made from files written here
# (known series) and from real runs of both tools; each picture must be a
# valid PNG or SVG holding exactly the series its figures make.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
PY=/usr/bin/python3
PLOT=tools/plot.py

if ! $PY -c 'import matplotlib' 2>/dev/null; then
	fail "python3-matplotlib is installed (tools/install-deps.sh)"
	finish
	exit
fi

# is_png FILE: the PNG signature and an IHDR chunk
is_png() {
	[ "$(head -c 16 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a0000000d49484452 ]
}

# svg_series FILE: the series' names, sorted, one per line (SVG must parse)
svg_series() {
	$PY -c 'import sys, xml.etree.ElementTree as ET
ids = {e.get("id")[7:] for e in ET.parse(sys.argv[1]).iter()
       if (e.get("id") or "").startswith("series:")}
print("\n".join(sorted(ids)))' "$1"
}

# want_series JSON X: the series a curve over X of JSON must have (rows
# with a figure, two points or more), as plot.py names them
want_series() {
	$PY -c 'import json, sys, collections
d = json.load(open(sys.argv[1])); x = sys.argv[2]; n = collections.Counter()
for r in d["results"]:
    p = r.get("params") or {}
    if r["name"] == "base" or x not in p or r["status"] != "ok":
        continue
    o = ",".join("%s=%s" % (k, v) for k, v in p.items() if k != x)
    n["%s %s" % (r["name"], r["variant"]) + (" [%s]" % o if o else "")] += 1
print("\n".join(sorted(k for k, c in n.items() if c > 1)))' "$1" "$2"
}

# --- files of known contents
cat >"$T_TMP/ov.json" <<'EOF'
{"schema": "bpf-bench/1", "tool": "test_overhead", "context": {"kernel_release": "test"},
 "results": [
  {"name": "base", "variant": "getpgid", "status": "ok", "mean": 5e6, "overhead_ns": null},
  {"name": "raw_tp", "variant": "getpgid", "status": "ok", "mean": 4e6,
   "overhead_ns": {"value": 50.0, "uncertainty": 3.0}},
  {"name": "tracepoint", "variant": "getpgid", "status": "ok", "mean": 3e6,
   "overhead_ns": {"value": 130.0, "uncertainty": 5.0}},
  {"name": "tracepoint", "variant": "task_rename", "status": "ok", "mean": 2e6,
   "overhead_ns": {"value": 90.0, "uncertainty": 4.0}},
  {"name": "kprobe", "variant": "getpgid", "status": "skipped", "reason": "no kprobes"}
 ]}
EOF
cat >"$T_TMP/maps.json" <<'EOF'
{"schema": "bpf-bench/1", "tool": "map_perf_test", "context": {"kernel_release": "test"},
 "results": [
  {"name": "hash_lookup", "variant": "raw_tp", "params": {"entries": 100}, "status": "ok",
   "mean": 1e6, "ns_per_op": {"value": 20.0, "uncertainty": 1.0}, "rate_per_cpu": {"mean": 5e5, "stddev": 1e3}},
  {"name": "hash_lookup", "variant": "raw_tp", "params": {"entries": 10000}, "status": "ok",
   "mean": 9e5, "ns_per_op": {"value": 25.0, "uncertainty": 1.5}, "rate_per_cpu": {"mean": 4e5, "stddev": 1e3}},
  {"name": "hash_lookup", "variant": "raw_tp", "params": {"entries": 100000}, "status": "disturbed",
   "reason": "worker slept"},
  {"name": "sys_hash_lookup", "variant": "syscall", "params": {"entries": 100}, "status": "ok",
   "mean": 1e6, "ns_per_op": {"value": 900.0, "uncertainty": 9.0}},
  {"name": "sys_hash_lookup", "variant": "syscall", "params": {"entries": 10000}, "status": "ok",
   "mean": 9e5, "ns_per_op": {"value": 990.0, "uncertainty": 9.0}}
 ]}
EOF
run_capture known $PY $PLOT -o "$T_TMP/out" "$T_TMP/ov.json" "$T_TMP/maps.json"
expect "known files: exit 0 (rc=$RC)" test "$RC" -eq 0
expect "known files: the pictures written are named" test "$(cat "$T_TMP/known.out")" = \
	"$T_TMP/out/ov-overhead.svg
$T_TMP/out/maps-curve-entries.svg"
expect "overhead bars: one series per mode with a figure" \
	test "$(svg_series "$T_TMP/out/ov-overhead.svg" | tr '\n' ' ')" = "raw_tp tracepoint "
expect "overhead bars: the events are labels" grep -q '>task_rename<' "$T_TMP/out/ov-overhead.svg"
expect "curve: one series per test with two points or more" \
	test "$(svg_series "$T_TMP/out/maps-curve-entries.svg" | tr '\n' '|')" = "hash_lookup raw_tp|sys_hash_lookup syscall|"
expect "curve: the disturbed point is named, not drawn" \
	grep -q 'hash_lookup raw_tp .*100000.*disturbed, not drawn' "$T_TMP/known.err"
cat >"$T_TMP/mem.json" <<'EOF'
{"schema": "bpf-bench/1", "tool": "map_perf_test", "context": {"kernel_release": "test"},
 "results": [
  {"name": "hash", "variant": "memory", "params": {"entries": 1000}, "status": "ok",
   "memory": {"bytes_per_element": 86.0, "memlock_per_element": 81.5}},
  {"name": "hash", "variant": "memory", "params": {"entries": 65536}, "status": "ok",
   "memory": {"bytes_per_element": 80.1, "memlock_per_element": 80.0}},
  {"name": "array", "variant": "memory", "params": {"entries": 1000}, "status": "failed",
   "reason": "not charged there", "memory": {"bytes_per_element": 0.0, "memlock_per_element": 8.3}}
 ]}
EOF
run_capture mem $PY $PLOT -o "$T_TMP/out" "$T_TMP/mem.json"
expect "--memory: one picture, exit 0 (rc=$RC)" test "$RC" -eq 0 -a "$(cat "$T_TMP/mem.out")" = "$T_TMP/out/mem-memory.svg"
expect "--memory: memcg and memlock lines of each kind with two points or more" \
	test "$(svg_series "$T_TMP/out/mem-memory.svg" | tr '\n' '|')" = "hash memcg|hash memlock|"
expect "--memory: the failed row is named, not drawn" grep -q 'array .*failed.*not drawn' "$T_TMP/mem.err"
run_capture png $PY $PLOT --format png -o "$T_TMP/png" "$T_TMP/maps.json"
expect "--format png: a PNG" is_png "$T_TMP/png/maps-curve-entries.png"

# --- bad input: one line, exit 2; nothing to draw: exit 1
echo 'not json' >"$T_TMP/bad.json"
run_capture bad $PY $PLOT -o "$T_TMP/out" "$T_TMP/bad.json"
expect "not JSON: exit 2, one line (rc=$RC)" test "$RC" -eq 2 -a "$(wc -l <"$T_TMP/bad.err")" -eq 1
echo '{"schema": "other/1", "results": []}' >"$T_TMP/other.json"
run_capture other $PY $PLOT -o "$T_TMP/out" "$T_TMP/other.json"
expect "another schema: exit 2, one line (rc=$RC)" test "$RC" -eq 2 -a "$(wc -l <"$T_TMP/other.err")" -eq 1
echo '{"schema": "bpf-bench/1", "tool": "map_perf_test", "context": {}, "results": []}' >"$T_TMP/none.json"
run_capture none $PY $PLOT -o "$T_TMP/out" "$T_TMP/none.json"
expect "no figure: exit 1 (rc=$RC)" test "$RC" -eq 1
run_capture noarg make -s plot
expect "make plot without JSON: refused, saying how" \
	test "$RC" -ne 0 -a -n "$(grep 'JSON=' "$T_TMP/noarg.err")"

# --- real runs: a curve from map_perf_test, bars from test_overhead
# real_run NAME X CMD...: runs CMD (up to 3 times while the machine
# disturbs every point) until the file has a series over X to draw
# (watched: nothing of the run may stay behind, tests/lib.sh)
real_run() {
	local name=$1 x=$2
	shift 2
	for _ in 1 2 3; do
		BIN=$1 run_json "$name" "${@:2}"
		[ -n "$(want_series "$T_TMP/$name.json" "$x")" ] && return 0
	done
	return 1
}

if [ ! -x ./map_perf_test ] || [ ! -x ./test_overhead ]; then
	fail "both programs are built"
elif real_run realmaps entries ./map_perf_test -r 1 -n 2000 \
	-t sys_array_lookup,sys_hash_lookup --entries 100,1000; then
	run_capture plotmaps $PY $PLOT -o "$T_TMP/real" "$T_TMP/realmaps.json"
	expect "real map curve: drawn (rc=$RC)" test "$RC" -eq 0
	expect "real map curve: the series of its verified rows" test \
		"$(svg_series "$T_TMP/real/realmaps-curve-entries.svg")" = \
		"$(want_series "$T_TMP/realmaps.json" entries)"
	run_capture plotpng make -s plot JSON="$T_TMP/realmaps.json" PLOTDIR="$T_TMP/realpng"
	expect "make plot: the SVG of a real run" \
		test -s "$T_TMP/realpng/realmaps-curve-entries.svg"
elif [ "$QUIET" = 1 ]; then
	fail "real map curve: every point of three map_perf_test runs was disturbed"
else
	skip "every point of three map_perf_test runs was disturbed: no curve to draw"
fi

# want_bars JSON: the modes with an overhead figure, sorted
want_bars() {
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("\n".join(sorted({r["name"] for r in d["results"] if r["name"] != "base"
      and r["status"] == "ok" and r.get("overhead_ns")})))' "$1"
}

if [ -x ./test_overhead ]; then
	for _ in 1 2 3; do
		BIN=./test_overhead run_json realov -r 2 -n 20000 -m base,raw_tp,tracepoint \
			-e getpgid
		[ -n "$(want_bars "$T_TMP/realov.json")" ] && break
	done
	if [ -n "$(want_bars "$T_TMP/realov.json")" ]; then
		run_capture plotov $PY $PLOT --format png -o "$T_TMP/real" "$T_TMP/realov.json"
		expect "real overhead bars: a PNG (rc=$RC)" is_png "$T_TMP/real/realov-overhead.png"
		run_capture plotovs $PY $PLOT -o "$T_TMP/real" "$T_TMP/realov.json"
		expect "real overhead bars: a series per mode with a figure" test \
			"$(svg_series "$T_TMP/real/realov-overhead.svg")" = "$(want_bars "$T_TMP/realov.json")"
	elif [ "$QUIET" = 1 ]; then
		fail "real overhead bars: every overhead of three test_overhead runs was disturbed"
	else
		skip "every overhead of three test_overhead runs was disturbed: no bars to draw"
	fi
fi

finish
