#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# map_perf_test's other map families on the host kernel: bloom filters,
# queue and stack, task storage, ring and perf buffers with their consumer,
# map operations through the bpf syscall, and the curves (--entries,
# --key-size, --scale). Everything is asserted through --json, for rows
# that ended ok or disturbed alike (a busy machine disturbs samples; the
# counts of a disturbed row are still verified); never a rate. Each run is
# watched: its programs, links, maps and workers must be gone after it.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./map_perf_test
PY=/usr/bin/python3
NCPU=$(nproc)

if [ ! -x $BIN ] || [ ! -x $PY ]; then
	fail "map_perf_test is built and python3 is there"
	finish
	exit
fi
# every row and what upstream calls its test, for upstream.py
L=$T_TMP/list.json
set_up "--list --json" jrun $BIN --list --json "$L"

# jrows FILE PYEXPR: PYEXPR holds for every measured row of FILE (ok or
# disturbed), with r the row, d the file and cpus(S) the CPUs of a list;
# and there is such a row
jrows() {
	$PY - "$1" "$2" <<'EOF'
import json, sys
def cpus(s):
    return [c for p in s.split(",") for c in
            range(int(p.split("-")[0]), int(p.split("-")[-1]) + 1)]
d = json.load(open(sys.argv[1]))
rows = [r for r in d["results"] if r["name"] != "base" and
        r["status"] in ("ok", "disturbed")]
bad = [r for r in rows if not eval("(" + sys.argv[2] + ")")]
for r in bad:
    print("  row:", r["name"], r["variant"], r.get("params"), file=sys.stderr)
sys.exit(0 if rows and not bad else 1)
EOF
}

# jcheck FILE PYEXPR: PYEXPR holds, with d the file
jcheck() {
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$2"
}

# no_failure NAME FILE: no row failed; every row ended ok, disturbed or
# skipped with a reason; a skip when no row but base ones ran at all
no_failure() {
	if J "$2" 'any(ran(r) for r in R if r["name"] != "base")'; then
		jexpect "$1" "$2" 'all(r["status"] != "failed" and
			(r["status"] != "skipped" or r["reason"]) for r in R)'
	else
		skip "$1: no row ran"
	fi
}

# --- bloom, queue, stack, task storage: the programs' counts
F=$T_TMP/fam.json
# (-v: the newer tests' upstream-style lines, which a default run leaves out)
run_json fam -v -r 1 -n 2000 -t bloom_lookup,bloom_update,queue_push_pop,stack_push_pop,task_storage
expect "families: exit 0 or 3 (rc=$RC)" test "$RC" -eq 0 -o "$RC" -eq 3
no_failure "families: no row failed" "$F"
expect "families: each row's program ran for every syscall" \
	jrows "$F" 'r["hits"] >= r["events"] > 0'
expect "bloom_lookup: no false negative, false positives counted" \
	jrows "$F" 'r["name"] != "bloom_lookup" or (r["found"] == r["lookups"] > 0 and
		0 <= r["false_positives"] <= r["negative_lookups"] == r["lookups"])'
expect "queue/stack: every pop found a value" \
	jrows "$F" '"push_pop" not in r["name"] or r["found"] == r["lookups"] > 0'
expect "task_storage: every get found the task's storage" \
	jrows "$F" 'r["name"] != "task_storage" or r["found"] == r["lookups"] > 0'
expect "families: one row per test" jcheck "$F" \
	'sorted(r["name"] for r in d["results"] if r["name"] != "base") ==
	 sorted(["bloom_lookup", "bloom_update", "queue_push_pop", "stack_push_pop", "task_storage"])'
checks_from python3 "$TESTS/upstream.py" "$T_TMP/fam.out" "$F" "$L" "families -v" --all

# --- ring and perf buffers: every record produced is consumed or dropped
if [ "$NCPU" -lt 2 ]; then
	skip "one CPU: the buffers' consumer needs a CPU of its own"
else
	F=$T_TMP/ring.json
	run_json ring -v -r 1 -n 1000 -t ringbuf_reserve,ringbuf_output,perfbuf_output \
		--wakeup every,poll,8,adaptive --record-size 16,128
	expect "buffers: exit 0 or 3 (rc=$RC)" test "$RC" -eq 0 -o "$RC" -eq 3
	no_failure "buffers: no row failed" "$F"
	# ring buffer: 4 wake-ups x 2 sizes each; perf buffer: no adaptive
	expect "buffers: one row per wake-up and record size" jcheck "$F" \
		'sorted((r["name"], r["params"]["wakeup"], r["params"]["record_size"])
			for r in d["results"] if r["name"] != "base") ==
		 sorted((n, w, s) for n in ("ringbuf_reserve", "ringbuf_output", "perfbuf_output")
			for w in (1, 0, 8, -1) for s in (16, 128)
			if not (n == "perfbuf_output" and w == -1))'
	expect "buffers: produced = consumed + dropped" \
		jrows "$F" 'r["records"]["produced"] == r["records"]["consumed"] + r["records"]["dropped"]'
	# records add up over every verified sample, disturbed ones run again too
	# 16: the programs' own number (map_perf_test.h's), not the run's
	# word for it: the run's context must say the same
	expect "buffers: 16 records tried per syscall, as the context says" \
		jrows "$F" 'd["context"]["records_per_call"] == 16 and
			r["records"]["produced"] % 16 == 0 and
			r["records"]["produced"] >= 16 * r["hits"] and
			r["hits"] >= r["events"] > 0'
	expect "buffers: the producers leave the consumer its CPU" \
		jrows "$F" 'r["consumer_cpu"] == '"$((NCPU - 1))"' and r["consumer_cpu"] not in cpus(r["cpus"]) and
			r["workers"] == '"$((NCPU - 1))"' and r["events"] % r["workers"] == 0'
	checks_from python3 "$TESTS/upstream.py" "$T_TMP/ring.out" "$F" "$L" "buffers -v" --all

	# records dropped that an empty buffer had room for fail the row,
	# all of them dropped (the test build's drop-all) included; the
	# bound is the buffer's size and the events', not the counts'
	need_testing
	BENCH_TEST_FAULT=drop-all BIN=$TESTING/map_perf_test run_json dropall -r 1 -n 2000 \
		-t ringbuf_reserve,ringbuf_output,perfbuf_output --wakeup 8 --record-size 16,4096
	expect "drop-all: exit 1 (rc=$RC)" test "$RC" -eq 1
	expect "drop-all: every ring and perf buffer row FAILED, fewer consumed than an empty buffer takes" \
		jcheck "$T_TMP/dropall.json" \
		'sorted((r["name"], r["params"]["record_size"]) for r in d["results"]
			if r["name"] != "base" and r["status"] == "failed" and
			"were consumed, fewer than the" in r["reason"]) ==
		 sorted((n, s) for n in ("ringbuf_reserve", "ringbuf_output", "perfbuf_output")
			for s in (16, 4096))'

	# a consumer polling without sleep, then SIGINT once the producers'
	# program is in (after the base row): nothing stays behind, the ring
	# buffer neither
	check_interrupt INT 130 -a raw_tp -r 1 -n 2000000 -t ringbuf_reserve --wakeup poll
	# (27: BPF_MAP_TYPE_RINGBUF; the watcher records each map's type)
	expect "SIGINT mid-run: the ring buffer was among the maps checked ($(awk '$1 == "map" { printf "%s:%s ", $2, $3 }' "$T_TMP/sigINT.ids"))" \
		awk '$1 == "map" && $3 == 27 { found = 1 } END { exit !found }' "$T_TMP/sigINT.ids"

	run_json ring1 -c 1 -r 1 -n 1000 -t ringbuf_output
	expect "buffers on one CPU: skipped, saying the consumer needs a CPU" jcheck "$T_TMP/ring1.json" \
		'[r for r in d["results"] if r["name"] != "base"] and
		 all(r["status"] == "skipped" and "consumer" in r["reason"]
		     for r in d["results"] if r["name"] != "base")'
fi

# --- the bpf syscall: single elements and batches, contents compared
F=$T_TMP/sys.json
run_json sys -v -r 1 -n 2000 -t sys_hash_lookup,sys_hash_update,sys_hash_delete,sys_array_lookup,sys_array_update,batch_hash_lookup,batch_hash_update,batch_array_lookup,batch_array_update \
	--entries 64,512 --key-size 8
expect "syscall ops: exit 0 or 3 (rc=$RC)" test "$RC" -eq 0 -o "$RC" -eq 3
no_failure "syscall ops: no row failed" "$F"
expect "syscall ops: one row per test and size" jcheck "$F" \
	'len(d["results"]) == 18 and all(r["params"]["entries"] in (64, 512) for r in d["results"])'
expect "syscall ops: every call checked, every worker's count" \
	jrows "$F" 'r["hits"] >= r["events"] > 0 and r["programs"] == 1'
expect "syscall ops: maps of the size and key size asked" \
	jrows "$F" 'r["entries"] == r["params"]["entries"] and
		r["key_size"] == (8 if "hash" in r["name"] else 4)'
expect "batch ops: events are the elements of whole dumps" \
	jrows "$F" '"batch" not in r["name"] or r["events"] % r["params"]["entries"] == 0'
checks_from python3 "$TESTS/upstream.py" "$T_TMP/sys.out" "$F" "$L" "syscall ops -v" --all

# --- curves: one row per point, each with its own CPUs
F=$T_TMP/sweep.json
run_json_fig sweep 'r["name"] != "base"' -r 1 -n 1000 -t hash_lookup,lpm_kmalloc --entries 100,1000 \
	--key-size 4,16 --scale
expect "sweep: exit 0 or 3 (rc=$RC)" test "$RC" -eq 0 -o "$RC" -eq 3
no_failure "sweep: no row failed" "$F"
expect "sweep: a row per entries x key size x CPU count (LPM: 16 only)" jcheck "$F" \
	'sorted((r["name"], r["params"]["entries"], r["params"]["key_size"], r["params"]["cpus"])
		for r in d["results"] if r["name"] != "base") ==
	 sorted((n, e, k, c) for n in ("hash_lookup", "lpm_kmalloc") for e in (100, 1000)
		for k in (4, 16) for c in range(1, '"$NCPU"' + 1)
		if not (n == "lpm_kmalloc" and k == 4))'
expect "sweep: each row ran on its own CPU count" \
	jrows "$F" 'r["events"] == 1000 * r["params"]["cpus"] == 1000 * r["workers"] and
		len(cpus(r["cpus"])) == r["workers"] and r["entries"] == r["params"]["entries"]'
expect "sweep: a base row for each CPU count" jcheck "$F" \
	'sorted(r["params"]["cpus"] for r in d["results"] if r["name"] == "base") ==
	 sorted(list(range(1, '"$NCPU"' + 1)) * 2)'
checks_from python3 "$TESTS/upstream.py" "$T_TMP/sweep.out" "$F" "$L" sweep
expect "sweep: the LPM key size left out is said" grep -q 'key-size 4: lpm_kmalloc' "$T_TMP/sweep.err"

# --- the rate per CPU, against what the run did not compute: the kernel's
# count of the workers' calls (run_cnt of the row's program, on getppid's
# tracepoint, which nothing else calls in a loop) over -d's seconds and
# the point's CPU count. A worker's loop runs at least -d and at most a
# chunk of calls longer, so for a row of one sample (none run again) each
# worker's rate is at most its calls / d: the rate per CPU is at most
# run_cnt / (cpus x d), and well above 0.8 of it.
D=0.2
run_json_fig rate 'r["name"] != "base"' -r 1 -d $D -a tracepoint -t array_lookup --scale
rate_sel='r["name"] == "array_lookup" and fig(r) and r["disturbed_retries"] == 0'
if fig_guard "--scale: the rate per CPU of each point" rate 'r["name"] == "array_lookup"'; then
	jexpect "--scale: the rate per CPU is the kernel's count of the calls over $D s and the point's CPUs" "$T_TMP/rate.json" \
		'all(r["cpus"] == ("0" if r["params"]["cpus"] == 1 else "0-%d" % (r["params"]["cpus"] - 1)) and
		     0.8 * kruns(r) / (r["params"]["cpus"] * '$D') <= r["rate_per_cpu"]["mean"] <= kruns(r) / (r["params"]["cpus"] * '$D')
		     for r in R if '"$rate_sel"')'
fi

# --- bad sweep values: one line, exit 2
bad_arg "--entries x" --entries x
bad_arg "--entries 0,5" --entries 0,5
bad_arg "--entries too many" --entries "$(seq -s, 1 33)"
bad_arg "--key-size 3" --key-size 3
bad_arg "--key-size 300" --key-size 300
bad_arg "--key-size 8,8" --key-size 8,8
bad_arg "--record-size 20" --record-size 20
bad_arg "--record-size 8" --record-size 8
bad_arg "--wakeup never" --wakeup never
bad_arg "--wakeup every,1" --wakeup every,1
bad_arg "--wakeup empty" --wakeup ,
bad_arg "--scale with --list" --list --scale
# a selection the options leave no measured row: refused before it runs
bad_arg "-t lpm_kmalloc --key-size 4 (no row but the base)" -t lpm_kmalloc --key-size 4 -a raw_tp
expect "-t lpm_kmalloc --key-size 4: the line says the keys' size leaves no row" \
	grep -q 'nothing to measure: -t lpm_kmalloc: --key-size 4 .*5 bytes' "$T_TMP/bad.err"
bad_arg "-t perfbuf_output --wakeup adaptive (no row but the base)" -t perfbuf_output --wakeup adaptive
expect "-t perfbuf_output --wakeup adaptive: the line says a perf buffer has no adaptive wake-ups" \
	grep -q 'nothing to measure: -t perfbuf_output: --wakeup adaptive' "$T_TMP/bad.err"

# --- the fault (the test build's): programs and workers that miss events
# make FAILED rows
F=$T_TMP/fault.json
need_testing
BENCH_TEST_FAULT=miss-odd BIN=$TESTING/map_perf_test run_json fault -r 1 -n 2000 \
	-t bloom_lookup,bloom_update,queue_push_pop,stack_push_pop,task_storage,ringbuf_reserve,ringbuf_output,perfbuf_output,sys_hash_lookup,batch_array_lookup \
	--wakeup 8
expect "miss-odd: exit 1 (rc=$RC)" test "$RC" -eq 1
expect "miss-odd: every new test FAILED with the CPU's count" jcheck "$F" \
	'[r for r in d["results"] if r["name"] != "base" and r["status"] != "skipped"] and
	 all(r["status"] == "failed" and "hits on CPU" in r["reason"]
	     for r in d["results"] if r["name"] != "base" and r["status"] != "skipped")'

# --- --list: the new tests, their flags, no program for syscall rows
expect "--list: every new test, syscall rows with no program" jcheck "$L" \
	'{r["name"] for r in d["rows"]} >= {"bloom_lookup", "ringbuf_reserve", "perfbuf_output",
		"batch_hash_lookup"} and all(r["program"] is None
		for r in d["rows"] if r["variant"] == "syscall")'

finish
