#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# map_perf_test --memory on the host kernel, through --json: a row per
# map kind and size, each charged at least its elements' own bytes in a
# memory cgroup of its own, memlock beside, the churn where keys can be
# deleted; what cannot run skipped with its reason; two runs agree
# within the stated tolerance; the test fault memcg-outside fails every
# row; the row's cgroup and tasks are gone after every exit, SIGINT and
# SIGTERM included; bad input exits 2 with one line.
# In sections (tests/lib.sh): T_SECTIONS="a b" runs only those.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./map_perf_test
TBIN=$TESTING/map_perf_test
L=$T_TMP/list.json
# two runs' bytes per element agree within this share (Documentation/
# map_perf_test.rst: a page in 1000 elements of the smallest map), or a
# page per CPU, whichever is more: the kernel charges its objects a page
# at a time through per-CPU stocks, and keeps a drained stock's leftover
# bytes charged as a page (an array of 4096: 36864 bytes, then 45056, in
# 2 of about 30 runs on a busy 2-CPU machine)
TOLERANCE=0.02
SLACK=$(($(getconf PAGESIZE) * $(nproc)))

run_capture list $BIN --list --memory all --json "$L"
KINDS=$(jget "$L" '" ".join(k["name"] for k in d["memory_kinds"])')
expect "--list --memory all: a row per kind, each in memory_kinds" \
	J "$L" 'len(R) == len(d["memory_kinds"]) > 10 and all(r["variant"] == "memory" for r in R)'

# the cgroups the run NAME made are gone: by its JSON's paths, and by its pid
cgroups_gone() {
	local left
	left=$(find /sys/fs/cgroup -maxdepth 8 -type d -name "map_perf_test-memory.$2.*" 2>/dev/null)
	[ -z "$left" ] || { echo "# left: $left"; return 1; }
	[ ! -f "$T_TMP/$1.json" ] || python3 -c 'import json, os, sys
R = json.load(open(sys.argv[1]))["results"]
sys.exit(any(os.path.exists(r["memory"]["cgroup_path"]) for r in R if r["memory"]))' "$T_TMP/$1.json"
}

# --- every kind at 1000 elements: measured and checked, or skipped with a reason
sec_rows() {
	run_json rows --memory all --entries 1000
	expect "--memory all: exit 0 (rc=$RC)" test "$RC" -eq 0
	jexpect "a row for every kind, at 1000 elements" "$T_TMP/rows.json" \
		'sorted(r["name"] for r in R) == sorted("'"$KINDS"'".split()) and all(r["params"]["entries"] == 1000 for r in R)'
	jexpect "every row ok, or skipped with its reason" "$T_TMP/rows.json" \
		'all(r["status"] == "ok" or (r["status"] == "skipped" and r["reason"]) for r in R)'
	jexpect "each ok row charged at least its elements' own bytes" "$T_TMP/rows.json" \
		'all(r["memory"]["memcg_bytes"] >= r["memory"]["check_bytes"] > 0 for r in R if r["status"] == "ok")'
	jexpect "bytes per element is the charge over the elements" "$T_TMP/rows.json" \
		'all(abs(r["memory"]["bytes_per_element"] * 1000 - r["memory"]["memcg_bytes"]) < 1 for r in R if r["status"] == "ok")'
	jexpect "every element put in (LRU: evicting as it fills)" "$T_TMP/rows.json" \
		'all(r["memory"]["filled"] == 1000 for r in R if r["status"] == "ok" and not r["name"].startswith("lru"))'
	jexpect "memlock read from fdinfo beside it" "$T_TMP/rows.json" \
		'all(r["memory"]["memlock_bytes"] > 0 for r in R if r["status"] == "ok")'
	jexpect "the hash kinds and the LPM trie churned, the others not" "$T_TMP/rows.json" \
		'all((r["memory"]["churn"] is not None) == (r["name"].split("_nopre")[0] in ("hash", "percpu_hash", "lru_hash", "lru_percpu_hash", "lpm_trie")) for r in R if r["status"] == "ok")'
	jexpect "a churn counted: every key deleted and put back, 10 times (LRU: less what it evicted)" "$T_TMP/rows.json" \
		'all(c["cycles"] == 10 and c["added"] == 10000 and (c["deleted"] == 10000 or r["name"].startswith("lru") and 0 < c["deleted"] <= 10000) for r in R for c in [r["memory"]["churn"]] if r["status"] == "ok" and c)'
	jexpect "a preallocated map is charged whole at creation" "$T_TMP/rows.json" \
		'all(r["memory"]["created_bytes"] == r["memory"]["memcg_bytes"] for r in R if r["status"] == "ok" and r["name"] in ("hash", "array", "queue", "ringbuf"))'
	expect "the rows' cgroups are gone" cgroups_gone rows "$PID"
}

# --- sizes: a row per --entries value; task storage up to 1024 tasks
sec_sizes() {
	run_json sizes --memory hash_nopre,task_storage --entries 100,2000
	expect "--entries 100,2000: exit 0 (rc=$RC)" test "$RC" -eq 0
	jexpect "hash_nopre at both sizes, task_storage at 100 only" "$T_TMP/sizes.json" \
		'sorted((r["name"], r["params"]["entries"]) for r in R) == [("hash_nopre", 100), ("hash_nopre", 2000), ("task_storage", 100)]'
	expect "the size task_storage leaves out is said" \
		grep -q 'entries 2000: task_storage forks a task per element, at most 1024' "$T_TMP/sizes.err"
	expect "the rows' cgroups are gone" cgroups_gone sizes "$PID"
}

# --- two runs agree within TOLERANCE, the fill's figures
sec_repeat() {
	run_json rep1 --memory hash,hash_nopre,percpu_hash_nopre,lpm_trie,array,ringbuf --entries 4096
	run_json rep2 --memory hash,hash_nopre,percpu_hash_nopre,lpm_trie,array,ringbuf --entries 4096
	expect "two runs: every row ok in both" python3 -c '
import json, sys
for f in sys.argv[1:]:
	for r in json.load(open(f))["results"]:
		if r["status"] != "ok":
			print("# %s: %s %s: %s" % (f, r["name"], r["status"], r.get("reason")))
			sys.exit(1)' "$T_TMP/rep1.json" "$T_TMP/rep2.json"
	expect "two runs: bytes per element within $TOLERANCE of each other, or $SLACK bytes" python3 -c '
import json, sys
a, b = (json.load(open(f))["results"] for f in sys.argv[1:3])
tol, slack = float(sys.argv[3]), int(sys.argv[4])
bad = ["# %s %s %d bytes (created %d), then %s %d (created %d)" % (x["name"],
	x["status"], x["memory"]["memcg_bytes"], x["memory"]["created_bytes"],
	y["status"], y["memory"]["memcg_bytes"], y["memory"]["created_bytes"])
	for x, y in zip(a, b) if abs(x["memory"]["memcg_bytes"] - y["memory"]["memcg_bytes"]) >
	max(tol * x["memory"]["memcg_bytes"], slack)]
print("\n".join(bad))
sys.exit(1 if bad or len(a) != len(b) or not a else 0)' "$T_TMP/rep1.json" "$T_TMP/rep2.json" "$TOLERANCE" "$SLACK"
}

# --- the check bites: maps made outside the cgroup fail every row
sec_fault() {
	need_testing || return
	BENCH_TEST_FAULT=memcg-outside BIN=$TBIN run_json outside --memory hash,array,queue --entries 1000
	expect "memcg-outside: exit 1 (rc=$RC)" test "$RC" -eq 1
	jexpect "memcg-outside: every row FAILED, not charged where it was measured" "$T_TMP/outside.json" \
		'len(R) == 3 and all(r["status"] == "failed" and "not charged there" in r["reason"] for r in R)'
	expect "memcg-outside: the rows' cgroups are gone" cgroups_gone outside "$PID"
	BENCH_TEST_FAULT=short-fill BIN=$TBIN run_json short --memory hash --entries 1000
	expect "short-fill: exit 1 (rc=$RC)" test "$RC" -eq 1
	jexpect "short-fill: FAILED, the fill short of an element" "$T_TMP/short.json" \
		'len(R) == 1 and R[0]["status"] == "failed" and "put 999 of 1000" in R[0]["reason"]'
	# the churn verified: short-churn leaves cycle 1's last add out,
	# stray-delete deletes key 1000, never put in, in place of 999
	BENCH_TEST_FAULT=short-churn BIN=$TBIN run_json churn --memory hash,lru_hash,array --entries 1000
	expect "short-churn: exit 1 (rc=$RC)" test "$RC" -eq 1
	jexpect "short-churn: hash and lru_hash FAILED, 999 of 1000 put back, no churn figure" "$T_TMP/churn.json" \
		'[(r["name"], r["status"], r["reason"], r["memory"]["churn"]) for r in R if r["name"] != "array"] == [(n, "failed", "in the churn: put 999 of 1000 elements back in (cycle 1 of 10)", None) for n in ("hash", "lru_hash")]'
	jexpect "short-churn: array, which does not churn, measured" "$T_TMP/churn.json" \
		'[r["status"] for r in R if r["name"] == "array"] == ["ok"]'
	expect "short-churn: the table shows no churn figure for a FAILED row" \
		eval '! grep -E "^  (lru_)?hash .*\([+-][0-9.]+%\)" "$T_TMP/churn.out"'
	BENCH_TEST_FAULT=stray-delete BIN=$TBIN run_json stray --memory hash --entries 1000
	expect "stray-delete: exit 1 (rc=$RC)" test "$RC" -eq 1
	jexpect "stray-delete: hash FAILED, the churn's failed delete named, no churn figure" "$T_TMP/stray.json" \
		'[(r["status"], r["reason"], r["memory"]["churn"]) for r in R] == [("failed", "in the churn: deleting key 1000 (cycle 1 of 10): No such file or directory", None)]'
	expect "short-churn: the rows' cgroups are gone" cgroups_gone churn "$PID"
}

# --- a signal mid-run: nothing left, the cgroup, the tasks, the maps
signalled() {
	local name=$1 sig=$2 want=$3
	run_bg "$name" --memory task_storage,hash_nopre,lpm_trie --entries 1000,65536
	set_up "$sig: the run started" started "$name" || return
	sleep 0.6
	kill -"$sig" "$PID"
	run_end "$name"
	cleanup_checked "$name"
	expect "$sig: exit $want (rc=$RC)" test "$RC" -eq "$want"
	expect "$sig: no cgroup of the run left" cgroups_gone "$name" "$PID"
}

sec_signals() {
	signalled sigint INT 130
	signalled sigterm TERM 143
}

# --- bad input: one line, exit 2, before anything runs
sec_usage() {
	bad_arg "--memory bogus" --memory bogus
	bad_arg "--memory with -t" --memory all -t hash_lookup
	bad_arg "--memory task_storage --entries 5000" --memory task_storage --entries 5000
}

sections rows sizes repeat fault signals usage
finish
