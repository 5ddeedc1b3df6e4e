#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# map_perf_test on the host kernel: real runs with small counts. Checks the
# programs' counts, upstream's selections and lines, --miss, resizing, each
# attach method, the tgid filter, repeats, --json, --prog-stats, --compare,
# bad arguments, exit codes and cleanup; never an absolute rate.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./map_perf_test
N=2000
# one sample per test unless a check is about repeats: quick
NCPU=$(nproc)
TESTS="hash_prealloc percpu_hash_prealloc hash_kmalloc percpu_hash_kmalloc
lru_hash_prealloc nocommon_lru_hash_prealloc lpm_kmalloc hash_lookup
array_lookup inner_lru_hash_prealloc lru_hash_lookup"
# upstream's line of each test, as in samples/bpf/map_perf_test_user.c
declare -A LINE=(
	[hash_prealloc]="hash_map_perf pre-alloc [0-9]+ events"
	[percpu_hash_prealloc]="percpu_hash_map_perf pre-alloc [0-9]+ events"
	[hash_kmalloc]="hash_map_perf kmalloc [0-9]+ events"
	[percpu_hash_kmalloc]="percpu_hash_map_perf kmalloc [0-9]+ events"
	[lru_hash_prealloc]="lru_hash_map_perf pre-alloc [0-9]+ events"
	[nocommon_lru_hash_prealloc]="nocommon_lru_hash_map_perf pre-alloc [0-9]+ events"
	[lpm_kmalloc]="lpm_perf kmalloc [0-9]+ events"
	[hash_lookup]="hash_lookup [0-9]+ lookups"
	[array_lookup]="array_lookup [0-9]+ lookups"
	[inner_lru_hash_prealloc]="inner_lru_hash_map_perf pre-alloc [0-9]+ events"
	[lru_hash_lookup]="lru_hash_lookup_perf pre-alloc [0-9]+ events"
)

if [ ! -x $BIN ]; then
	fail "map_perf_test is built"
	finish
	exit
fi

# Summary rows: test attach status events/s-mean ± sd ops/s ns/op hits
# entries calls, then notes
# row TEST FILE: the summary row of TEST
row() { awk -v t="$1" '$1 == t && $3 ~ /^(ok|skipped|FAILED)$/' "$2"; }
field() { row "$1" "$3" | awk -v f="$2" '{ print $f }'; }
nrows() { grep -cE '^  \S+ +\S+ +(ok|skipped|FAILED)( |$)' "$1"; }

# ok_row TEST FILE: verified, with the program run for every syscall
ok_row() {
	local r
	r=$(row "$1" "$2")
	[ "$(awk '{ print $3 }' <<<"$r")" = ok ] || return 1
	awk '{ split($11, c, "/"); exit !($5 == "±" && c[1] + 0 >= c[2] + 0 && c[2] > 0) }' <<<"$r"
}

# skip_row TEST FILE: skipped, with a reason
skip_row() {
	local r
	r=$(row "$1" "$2")
	[ "$(awk '{ print $3 }' <<<"$r")" = skipped ] &&
		[ -n "$(awk '{ $1 = $2 = $3 = ""; print }' <<<"$r" | tr -d ' ')" ]
}

# upstream_lines TEST FILE: one upstream line per worker
upstream_lines() {
	test "$(grep -cE "^[0-9]+:${LINE[$1]} per sec$" "$2")" -eq "$NCPU"
}

# json_true FILE EXPR: the Python expression EXPR holds, d the parsed FILE
json_true() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
c = d["context"]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}
# json_rows FILE / summary_rows FILE: "test method status reason?" each
json_rows() {
	python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
	print(r["name"], r["variant"], r["status"], "reason" if r["reason"] else "-")' "$1"
}
summary_rows() {
	awk '$3 ~ /^(ok|skipped|FAILED)$/ {
		print $1, $2, tolower($3), ($3 == "ok" ? "-" : (NF > 3 ? "reason" : "-")) }' "$1"
}
# verdicts FILE WORD: compare rows whose verdict is WORD
verdicts() { grep -cE "^  .*  $2( \(|\$)" "$1"; }
HAVE_PY=0
command -v python3 >/dev/null && HAVE_PY=1


# --- every test, verified, with auto attach
run_capture full $BIN -r 1 -n $N
expect "full run exits 0 (rc=$RC)" test "$RC" -eq 0
expect "11 summary rows (got $(nrows "$T_TMP/full.out"))" test "$(nrows "$T_TMP/full.out")" -eq 11
for t in $TESTS; do
	expect "$t verified" ok_row $t "$T_TMP/full.out"
	expect "$t: upstream's line for each worker" upstream_lines $t "$T_TMP/full.out"
done
for t in lpm_kmalloc hash_lookup array_lookup lru_hash_lookup hash_prealloc; do
	expect "$t: every lookup hit" test "$(field $t 9 "$T_TMP/full.out")" = 1.000
done
method=$(field hash_prealloc 2 "$T_TMP/full.out")
expect "auto's method ($method) is in the header" \
	grep -qE "attach by $method \(auto\)" "$T_TMP/full.out"
expect "one method for every row" \
	test "$(awk '$3 ~ /^(ok|skipped|FAILED)$/ { print $2 }' "$T_TMP/full.out" | sort -u)" = "$method"
if [ "$method" != kprobe ]; then
	expect "auto says why kprobe was not used" \
		grep -qE '^auto attach tried: kprobe (skipped|FAILED): .+' "$T_TMP/full.out"
fi

# --- upstream's selections: bit 7 hash_lookup, bit 8 array_lookup
run_capture sel128 $BIN -r 1 128 $NCPU 0 $N
expect "128: exit 0 (rc=$RC)" test "$RC" -eq 0
expect "128: hash_lookup only" test "$(nrows "$T_TMP/sel128.out")" -eq 1
expect "128: hash_lookup verified" ok_row hash_lookup "$T_TMP/sel128.out"
expect "128: only hash_lookup lines" test "$(grep -cE '^[0-9]+:' "$T_TMP/sel128.out")" -eq "$NCPU"
expect "128: upstream's hash_lookup lines" upstream_lines hash_lookup "$T_TMP/sel128.out"

run_capture sel256 $BIN -r 1 -n $N 256
expect "256: exit 0 (rc=$RC)" test "$RC" -eq 0
expect "256: array_lookup only" test "$(nrows "$T_TMP/sel256.out")" -eq 1
expect "256: array_lookup verified" ok_row array_lookup "$T_TMP/sel256.out"
expect "256: upstream's array_lookup lines" upstream_lines array_lookup "$T_TMP/sel256.out"

run_capture named $BIN -r 1 -n $N -t lpm_kmalloc,inner_lru_hash_prealloc -c 1 -q
expect "-t two tests -c 1 -q: exit 0" test "$RC" -eq 0
expect "-t: exactly two rows" test "$(nrows "$T_TMP/named.out")" -eq 2
expect "-c 1: one worker's syscalls" test "$(field lpm_kmalloc 11 "$T_TMP/named.out")" = "$N/$N"
expect "-q: no per-worker lines" test -z "$(grep -E '^[0-9]+:' "$T_TMP/named.out")"

# --- --miss: absent keys on purpose, verified as misses
run_capture miss $BIN -r 1 -n $N --miss -t hash_lookup,lpm_kmalloc,lru_hash_lookup
expect "--miss: exit 0 (rc=$RC)" test "$RC" -eq 0
for t in hash_lookup lpm_kmalloc lru_hash_lookup; do
	expect "--miss: $t verified" ok_row $t "$T_TMP/miss.out"
	expect "--miss: $t hit ratio 0" test "$(field $t 9 "$T_TMP/miss.out")" = 0.000
done

# --- num_map_entries resizes the maps, as the kernel reports them
run_capture resize $BIN -r 1 0x7c1 $NCPU 77 $N -v
expect "num_map_entries 77: exit 0 (rc=$RC)" test "$RC" -eq 0
for t in hash_prealloc lpm_kmalloc hash_lookup array_lookup lru_hash_lookup; do
	expect "num_map_entries 77: $t verified" ok_row $t "$T_TMP/resize.out"
	expect "num_map_entries 77: $t map has 77 entries" test "$(field $t 10 "$T_TMP/resize.out")" = 77
done
expect "num_map_entries 77: inner LRU maps have 77 entries" \
	test "$(field inner_lru_hash_prealloc 10 "$T_TMP/resize.out")" = 77
expect "-v: the map's size is said" \
	grep -q 'hash_lookup: hash_map has max_entries 77' "$T_TMP/resize.err"
run_capture resizeE $BIN -r 1 -n $N -E 5000 -t hash_kmalloc,nocommon_lru_hash_prealloc -q
expect "-E 5000: hash_kmalloc has 5000 entries" test "$(field hash_kmalloc 10 "$T_TMP/resizeE.out")" = 5000
expect "-E 5000: nocommon_lru_hash_prealloc verified" ok_row nocommon_lru_hash_prealloc "$T_TMP/resizeE.out"

# a hash map smaller than the workers' keys: failed updates are reported
if [ "$NCPU" -gt 1 ]; then
	run_capture tiny $BIN -r 1 -n 20000 -E 1 -t hash_prealloc -q --json "$T_TMP/tiny.json"
	expect "-E 1 hash_prealloc: exit 1 (rc=$RC)" test "$RC" -eq 1
	expect "-E 1 hash_prealloc: FAILED with the updates that failed" \
		grep -qE '^  hash_prealloc +\S+ +FAILED +[0-9]+ of [0-9]+ updates failed' "$T_TMP/tiny.out"
	[ $HAVE_PY -eq 1 ] &&
		expect "-E 1 --json: hash_prealloc is failed there too, with the reason" \
			json_true "$T_TMP/tiny.json" '[(r["name"], r["status"], "updates failed" in r["reason"]) for r in d["results"]] == [("hash_prealloc", "failed", True)]'
fi

# --- each forced method: verified, or skipped with the kernel's reason
kprobes_off=0
zcat /proc/config.gz 2>/dev/null | grep -q '^# CONFIG_KPROBES is not set' && kprobes_off=1
for m in kprobe fentry tracepoint raw_tp; do
	run_capture "m_$m" $BIN -r 1 -n 1000 -a $m --json "$T_TMP/m_$m.json"
	out=$T_TMP/m_$m.out
	expect "-a $m: 11 rows" test "$(nrows "$out")" -eq 11
	expect "-a $m: rows say $m" test "$(awk '$3 ~ /^(ok|skipped|FAILED)$/ { print $2 }' "$out" | sort -u)" = $m
	nok=0
	for t in $TESTS; do
		if ok_row $t "$out"; then
			nok=$((nok + 1))
		elif ! skip_row $t "$out"; then
			fail "-a $m $t: $(row $t "$out")"
		fi
	done
	if [ $nok -eq 11 ]; then
		pass "-a $m: every test verified"
		expect "-a $m: exit 0 (rc=$RC)" test "$RC" -eq 0
	elif [ $nok -eq 0 ]; then
		pass "-a $m: every test skipped with a reason:$(row hash_prealloc "$out" | awk '{ $1 = $2 = $3 = ""; print }')"
		expect "-a $m, nothing ran: exit 1 (rc=$RC)" test "$RC" -eq 1
	else
		expect "-a $m: partly skipped, exit 0 (rc=$RC)" test "$RC" -eq 0
	fi
	[ $HAVE_PY -eq 1 ] &&
		expect "-a $m --json: every row with the summary's status, a reason for each skip" \
			test "$(json_rows "$T_TMP/m_$m.json")" = "$(summary_rows "$out")"
done
# a method skipped on this kernel: its rows are skipped in the file too
skipped_m=
for m in kprobe fentry tracepoint raw_tp; do
	skip_row hash_prealloc "$T_TMP/m_$m.out" && skipped_m=$m && break
done
if [ $HAVE_PY -eq 0 ]; then
	skip "python3 missing: --json of skipped rows not read"
elif [ -n "$skipped_m" ]; then
	expect "-a $skipped_m skipped: JSON rows skipped with a reason, attach_method $skipped_m" \
		json_true "$T_TMP/m_$skipped_m.json" 'all(r["status"] == "skipped" and r["reason"] and "samples" not in r for r in d["results"] if r["name"] == "hash_prealloc") and c["attach_method"] == "'$skipped_m'"'
else
	skip "every attach method works here: no skipped row to write"
fi
if [ $kprobes_off -eq 1 ]; then
	expect "-a kprobe without CONFIG_KPROBES: that is the reason" \
		grep -qE '^  hash_prealloc +kprobe +skipped .*CONFIG_KPROBES' "$T_TMP/m_kprobe.out"
fi

# --- the tgid filter: another process's syscalls are not counted
if command -v python3 >/dev/null; then
	python3 -c 'import os
while True: os.getuid(); os.getpgid(0)' &
	hog=$!
	for m in tracepoint raw_tp; do
		run_capture "hog_$m" $BIN -r 1 -n 20000 -a $m -t hash_prealloc,hash_lookup -q
		for t in hash_prealloc hash_lookup; do
			calls=$(field $t 11 "$T_TMP/hog_$m.out")
			expect "$m $t with another process's syscalls: exactly ours counted ($calls)" \
				test "$calls" = "$((20000 * NCPU))/$((20000 * NCPU))"
		done
	done
	kill $hog
	wait $hog 2>/dev/null
else
	skip "python3 missing: tgid filter not tested"
fi

# --- repeats: rounds of every test, warm-up not counted, one file of it all
R=20000	# samples of about 10 ms
run_capture rep $BIN -n $R -r 3 -w 1 -t hash_lookup,array_lookup,lru_hash_prealloc \
	--json "$T_TMP/rep.json"
expect "-r 3 -w 1 --json: exit 0 (rc=$RC)" test "$RC" -eq 0
for t in hash_lookup array_lookup lru_hash_prealloc; do
	expect "-r 3: $t verified over the 3 counted rounds" \
		test "$(field $t 11 "$T_TMP/rep.out")" = "$((3 * R * NCPU))/$((3 * R * NCPU))"
done
expect "-r 3 -w 1: the summary says 3 samples after warm-up" \
	grep -q ', 3 sample(s) after warm-up, ' "$T_TMP/rep.out"
run_capture warm $BIN -n $N -r 2 -w 1 -t array_lookup
expect "-r 2 -w 1: per-worker lines of the 2 counted rounds only" \
	test "$(grep -cE '^[0-9]+:array_lookup [0-9]+ lookups per sec$' "$T_TMP/warm.out")" -eq $((2 * NCPU))
if [ $HAVE_PY -eq 1 ]; then
	expect "--json: python3's json reads it" json_true "$T_TMP/rep.json" True
	expect "--json: schema bpf-bench/1, tool map_perf_test" \
		json_true "$T_TMP/rep.json" 'd["schema"] == "bpf-bench/1" and d["tool"] == "map_perf_test"'
	expect "--json: context repeat 3, warmup 1, count $R, attach_method $method" \
		json_true "$T_TMP/rep.json" 'c["repeat"] == 3 and c["warmup"] == 1 and c["count"] == '$R' and c["duration_s"] is None and c["attach_method"] == "'$method'"'
	expect "--json: 3 ok rows, each with 3 samples and 3 outlier flags" \
		json_true "$T_TMP/rep.json" 'sorted(r["name"] for r in d["results"] if r["status"] == "ok" and r["variant"] == c["attach_method"] and len(r["samples"]) == 3 and len(r["outliers"]) == 3) == ["array_lookup", "hash_lookup", "lru_hash_prealloc"]'
	expect "--json: hits are program runs, events the syscalls of every counted round" \
		json_true "$T_TMP/rep.json" 'all(r["hits"] >= r["events"] == 3 * '$((R * NCPU))' for r in d["results"])'
	run_capture jstdout $BIN -n $N -r 1 -t array_lookup --json -
	expect "--json -: exit 0 (rc=$RC)" test "$RC" -eq 0
	expect "--json -: stdout is the JSON alone" python3 -c 'import json, sys
sys.exit(json.load(sys.stdin)["tool"] != "map_perf_test")' <"$T_TMP/jstdout.out"
else
	skip "python3 missing: --json not read"
fi

# --- -d: each sample runs for a time, verified all the same
run_capture dur $BIN -d 0.05 -r 1 -t hash_prealloc,lru_hash_lookup --json "$T_TMP/dur.json"
expect "-d 0.05: exit 0 (rc=$RC)" test "$RC" -eq 0
for t in hash_prealloc lru_hash_lookup; do
	expect "-d 0.05: $t verified" ok_row $t "$T_TMP/dur.out"
done
expect "-d 0.05: the summary says so" grep -q ', 0.05 s per worker and sample, ' "$T_TMP/dur.out"
[ $HAVE_PY -eq 1 ] &&
	expect "-d 0.05 --json: duration_s 0.05, count null" \
		json_true "$T_TMP/dur.json" 'c["duration_s"] == 0.05 and c["count"] is None'

# --- --prog-stats: the kernel's ns per program run, the sysctl untouched
stats_was=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null)
for m in raw_tp tracepoint; do
	run_capture ps $BIN -r 1 -n $N -a $m -t hash_lookup,array_lookup --prog-stats \
		--json "$T_TMP/ps.json"
	ok_row hash_lookup "$T_TMP/ps.out" && break
done
expect "--prog-stats -a $m: exit 0 (rc=$RC)" test "$RC" -eq 0
if grep -q 'no prog stats: .' "$T_TMP/ps.out"; then
	pass "--prog-stats: the kernel cannot, and says why:$(grep -o 'no prog stats: .*' "$T_TMP/ps.out" | head -n 1)"
else
	prog_ns=$(row hash_lookup "$T_TMP/ps.out" | sed -nE 's/.*  prog ([0-9.]+) ns\/run.*/\1/p')
	expect "--prog-stats -a $m: hash_lookup's program takes a positive time per run (${prog_ns:-none} ns)" \
		awk -v x="$prog_ns" 'BEGIN { exit !(x > 0) }'
	[ $HAVE_PY -eq 1 ] &&
		expect "--prog-stats --json: prog_ns_per_run positive in every row" \
			json_true "$T_TMP/ps.json" 'len(d["results"]) == 2 and all(r["prog_ns_per_run"] > 0 for r in d["results"])'
fi
expect "--prog-stats: kernel.bpf_stats_enabled still ${stats_was:-absent}" \
	test "$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null)" = "$stats_was"

# --- --compare: runs nothing, judges by Welch's t-test
if [ $HAVE_PY -eq 1 ] && [ -s "$T_TMP/rep.json" ]; then
	# A: the run with steady samples (a loaded machine can make a real
	# row so noisy that half its rate is within the noise, and this tests
	# --compare, not the machine); B: every sample of A halved
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ok = [r for r in d["results"] if r["status"] == "ok"]
for r in ok:
	r["samples"] = [1.00e6, 1.01e6, 0.99e6]
json.dump(d, open(sys.argv[2], "w"))
for r in ok:
	r["samples"] = [x / 2 for x in r["samples"]]
json.dump(d, open(sys.argv[3], "w"))' "$T_TMP/rep.json" "$T_TMP/steady.json" "$T_TMP/slow.json"
	# files any user can read: the compare needs no privileges
	chmod 755 "$T_TMP"
	chmod 644 "$T_TMP/rep.json" "$T_TMP/steady.json" "$T_TMP/slow.json"
	nobody=()
	command -v setpriv >/dev/null && nobody=(setpriv --reuid=65534 --regid=65534
		--clear-groups --inh-caps=-all --bounding-set=-all)
	run_capture cmpself "${nobody[@]}" $BIN --compare "$T_TMP/rep.json" "$T_TMP/rep.json"
	expect "--compare A A${nobody:+ unprivileged}: exit 0 (rc=$RC)" test "$RC" -eq 0
	expect "--compare A A: all 3 rows no significant change" \
		test "$(verdicts "$T_TMP/cmpself.out" 'no significant change')" -eq 3 -a \
		"$(verdicts "$T_TMP/cmpself.out" '(faster|slower)')" -eq 0
	run_capture cmpslow $BIN --compare "$T_TMP/steady.json" "$T_TMP/slow.json" \
		--fail-on-regression 10
	expect "--compare A B(halved) --fail-on-regression 10: exit 1 (rc=$RC)" test "$RC" -eq 1
	expect "--compare A B(halved): all 3 rows say slower ($(verdicts "$T_TMP/cmpslow.out" slower) of 3)" \
		test "$(verdicts "$T_TMP/cmpslow.out" slower)" -eq 3 -a \
		"$(verdicts "$T_TMP/cmpslow.out" faster)" -eq 0
	expect "--compare A B(halved): the regression is named" \
		grep -q '^regression: 3 row(s) significantly slower by more than 10%' "$T_TMP/cmpslow.out"
	run_capture cmpslow0 $BIN --compare "$T_TMP/steady.json" "$T_TMP/slow.json"
	expect "--compare A B(halved) without --fail-on-regression: exit 0 (rc=$RC)" test "$RC" -eq 0
else
	skip "python3 or -r 3's file missing: --compare not tested"
fi

# --- bad arguments: one line on stderr, nothing on stdout, exit 2
bad_arg "test_flags abc" abc
bad_arg "test_flags 0" 0
bad_arg "test_flags -1" -- -1
bad_arg "test_flags without a known test" 0x800
bad_arg "nr_cpus 0" 1 0
bad_arg "nr_cpus more than online" 1 $((NCPU + 1))
bad_arg "nr_cpus x" 1 x
bad_arg "num_map_entries x" 1 1 x
bad_arg "num_map_entries negative" 1 1 -5
bad_arg "num_map_entries huge" 1 1 99999999999
bad_arg "max_cnt 0" 1 1 0 0
bad_arg "max_cnt huge" 1 1 0 99999999999999999999
bad_arg "-c offline CPU" -c 4000
bad_arg "-c 0 CPUs" -c 0
bad_arg "-n 0" -n 0
bad_arg "-n -5" -n -5
bad_arg "-n 1e6" -n 1e6
bad_arg "-n huge" -n 99999999999999999999999
bad_arg "-E huge" -E 4294967296
bad_arg "-E x" -E x
bad_arg "-t unknown" -t hash
bad_arg "-t none" -t ,
bad_arg "-t and test_flags disjoint" -t hash_lookup 256
bad_arg "-a unknown" -a kprobes
bad_arg "unknown option" --frobnicate
bad_arg "option without value" -n
bad_arg "too many arguments" 1 1 0 1 1
bad_arg "nr_cpus and -c" -c 1 1 1
bad_arg "num_map_entries and -E" -E 5 1 1 5
bad_arg "max_cnt and -n" -n 5 1 1 0 5
bad_arg "-r 0" -r 0
bad_arg "-r 101" -r 101
bad_arg "-w -1" -w -1
bad_arg "-d 0" -d 0
bad_arg "-d x" -d x
bad_arg "--compare with one file" --compare "$T_TMP/rep.json"
bad_arg "--compare and test_flags" --compare "$T_TMP/rep.json" "$T_TMP/rep.json" 1
bad_arg "--compare of a missing file" --compare "$T_TMP/rep.json" /nonexistent.json
bad_arg "--fail-on-regression without --compare" --fail-on-regression 10
bad_arg "--fail-on-regression x" --compare "$T_TMP/rep.json" "$T_TMP/rep.json" --fail-on-regression x

# --- privileges: one line naming them, exit 1
check_unprivileged -n $N

# --- tracefs: mounted when missing, and said on stderr
check_tracefs_mount '^  lru_hash_prealloc +tracepoint +ok ' -r 1 -n $N -a tracepoint -t lru_hash_prealloc

# --- signals: workers killed, programs detached, 128+signal
for sig in INT:130 TERM:143; do
	check_interrupt ${sig%:*} ${sig#*:} raw_tp_hash_pre -r 1 -a raw_tp -t hash_prealloc -n 2000000000
done

# a worker that dies is reported and the run fails cleanly
kill_a_worker dead -r 1 -a raw_tp -t hash_prealloc -n 2000000000
expect "dead worker: exit 1 (rc=$RC)" test "$RC" -eq 1
expect "dead worker: reported" grep -q 'worker on CPU [0-9]* died: Killed' "$T_TMP/dead.err"
expect "dead worker: test FAILED, no rate" grep -qE '^  hash_prealloc +raw_tp +FAILED +a worker died' "$T_TMP/dead.out"
expect "dead worker: nothing stays loaded" gone raw_tp_hash_pre
sleep 0.2
expect "dead worker: the other workers are gone ($WORKERS)" none_alive $WORKERS
finish
