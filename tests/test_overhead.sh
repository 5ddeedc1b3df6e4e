#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_overhead on the host kernel, through --json: real runs with small
# counts. Every row that can run here is verified (hits cover events on
# each worker's CPU), every other row is skipped with the kernel's reason,
# the rows are the ones --list has for the selection, upstream's lines
# match the JSON, and nothing is left behind. Never an absolute rate.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./test_overhead
N=20000
L=$T_TMP/list.json

run_capture list $BIN --list --json "$L"
expect "--list --json: exit 0, rows with a flag each" \
	J "$L" 'len(R) > 0 and all(r["flag"] > 0 for r in R)'
# the rows the checks below take from --list are all there, and
# upstream's have upstream's bits and headers (tests/pinned.py)
checks_from python3 "$TESTS/pinned.py" "$L" test_overhead
# a reason to lack a tracepoint is said of the rows that hook it alone: a
# kprobe on urandom_read's function that may skip hides a broken kernel
jexpect "--list: urandom_read's tracepoint rows, and no other, may lack it" "$L" \
	'all(("left the kernel" in r.get("may_lack", "")) == (r["name"] in ("tracepoint", "raw_tp", "tp_btf")) for r in rows(variant="urandom_read"))'

# --- a full run: every row there is
run_json full -n $N -r 1
rows_checked full "$L" True --repeat 1 --count $N --tag full
expect "full: exit status fits the rows (rc=$RC)" exit_matches full
# fib_table_lookup's lookups per datagram, counted without the tool: the
# test's own datagrams, the kernel's run count of a program of its own
# (tests/fib_count.py), the tools' lock held meanwhile
if lpd=$(flock "$LOCK" python3 "$TESTS/fib_count.py" "$HOLD_HOOK" 2>"$T_TMP/fib.err"); then
	jexpect "full: fib_table_lookup rows' hits_per_event is the $lpd lookup(s) per datagram the kernel counted for the test's own" \
		"$T_TMP/full.json" 'c["fib_lookups_per_datagram"] == '"$lpd"' and all(r["hits_per_event"] == '"$lpd"' for r in rows(variant="fib_table_lookup") if ran(r) and r["name"] != "base")'
else
	fail "full: fib_table_lookup's lookups per datagram, counted by the test: $(head -c 300 "$T_TMP/fib.err")"
fi
checks_from python3 "$TESTS/upstream.py" "$T_TMP/full.out" "$T_TMP/full.json" "$L" "full -r 1"
jexpect "full: body count is the default" "$T_TMP/full.json" 'c["body"] == "count"'
# read before fib_table_lookup's rows take the run into a network
# namespace of its own, which has no net.core.bpf_jit_* of its own
jexpect "full: the JIT's settings, as the kernel says them, a fib row run" "$T_TMP/full.json" \
	"c['bpf_jit_enable'] == $(cat /proc/sys/net/core/bpf_jit_enable) and c['bpf_jit_harden'] == $(cat /proc/sys/net/core/bpf_jit_harden) and any(ran(r) for r in rows(variant='fib_table_lookup'))"

# --- -r 3: still one line per worker, the median of its samples; -v
# gives every row's lines, getpgid's too (by default upstream's rows only)
run_json r3 -v -n 5000 -r 3 -m base,raw_tp,tracepoint -e task_rename,getpgid
rows_checked r3 "$L" 'l["name"] in ("base", "raw_tp", "tracepoint") and l["variant"] in ("task_rename", "getpgid")' \
	--repeat 3 --count 5000 --tag "-r 3"
checks_from python3 "$TESTS/upstream.py" "$T_TMP/r3.out" "$T_TMP/r3.json" "$L" "-r 3 -v" --all
expect "-r 3: exit status fits the rows (rc=$RC)" exit_matches r3
# the host's steal on the workers' CPUs, read by each worker around its
# loop, is in every row, on every kernel: whole USER_HZ ticks
tick=$((1000000000 / $(getconf CLK_TCK)))
jexpect "-r 3: every row says the host's steal on its workers' CPUs (steal_ns), in ticks of $tick ns" "$T_TMP/r3.json" \
	'len(R) == 6 and all(isinstance(r.get("steal_ns"), int) and r["steal_ns"] >= 0 and r["steal_ns"] % '"$tick"' == 0 for r in R)'
# and how many samples went after the longest wait for quiet, not into it
jexpect "-r 3: every row says how many of its samples' waits for quiet hit the cap (settle_capped)" "$T_TMP/r3.json" \
	'len(R) == 6 and all(isinstance(r.get("settle_capped"), int) and 0 <= r["settle_capped"] <= 3 for r in R)'
# where each row's time went (time_ns): its sessions' phases hold no
# more than the sessions took, the samples its figure came from are
# loops it ran, a measured row's are some; the run's own time (run_ns)
# holds every row's sessions and loads
jexpect "-r 3: each row's time_ns: phases within its sessions, its figure's loops among its loops, some for a row with a figure" "$T_TMP/r3.json" \
	'len(R) == 6 and all(sum(r["time_ns"][k] for k in ("fork", "attach", "detach", "quiet", "loops", "run", "reads", "checks", "stop", "other")) == r["time_ns"]["sessions"] and 0 <= r["time_ns"]["loops_counted"] <= r["time_ns"]["loops"] and (r["status"] != "ok" or r["name"] == "base" or r["time_ns"]["loops_counted"] > 0) for r in R)'
jexpect "-r 3: the run's run_ns holds its rows' sessions and loads" "$T_TMP/r3.json" \
	'c["run_ns"] >= sum(r["time_ns"]["sessions"] + r["time_ns"]["load"] for r in R)'

# --- pacing: without -n, a row's first session starts with an uncounted
# unit of a 64th of its own count (--list's); then each sample runs
# what takes about 3 ms here (or more, by its unit's fixed cost), never
# more than the row's own count,
# never less than a 64th; -n is never paced (rows_checked --count
# above: events are exactly -r x -n x workers)
jexpect "--list --json: test_overhead paces, each row has its own count" "$L" \
	'd["paced"] is True and all(r["count"] > 0 for r in R)'
own=$(jget "$L" '[r["count"] for r in R if r["name"] == "raw_tp" and r["variant"] == "getpgid"][0]')
run_json paced -r 3 -m raw_tp -e getpgid
jexpect "paced: raw_tp getpgid's 3 units ran from a 64th to all of its own $own events a worker" "$T_TMP/paced.json" \
	'all(3 * ('"$own"' // 64) * r["workers"] <= r["events"] <= 3 * '"$own"' * r["workers"] and all('"$own"' // 64 <= n <= '"$own"' for n in (r.get("units") or {}).get("counts", [])) for r in rows(name="raw_tp") if ran(r))'
jexpect "paced: raw_tp getpgid's programs also counted an uncounted pacing unit of $own/64 events a worker, when ok" "$T_TMP/paced.json" \
	'all(r["runs_counted"] >= r["hits"] + ('"$own"' // 64) * r["workers"] and r["samples_run"] >= 4 for r in rows(name="raw_tp", status="ok"))'

# --- rounds: each round gives every row one session, so that a row's
# units are spread over the run (the progress lines on a terminal give
# the order); the base rows run in their rows' units, never alone. That
# order is an undisturbed run's: a raw_tp row's disturbed unit leaves its
# base to run alone in the next round (the tools being right on a busy
# machine). Then it is a skip under make check, and under make
# check-quiet the run is tried up to 3 times, then a failure.
# order_disturbed: both raw_tp rows ran, and one ended disturbed
order_disturbed() {
	J "$T_TMP/order.json" 'len(rows(name="raw_tp")) == 2 and all(r["status"] in ("ok", "disturbed") for r in rows(name="raw_tp")) and any(r["status"] == "disturbed" for r in rows(name="raw_tp"))'
}
for try in 1 2 3; do
	BIN=python3 run_bg order "$TESTS/ptyrun.py" "$T_TMP/order.tty" \
		./test_overhead -r 2 -n $N -m base,raw_tp -e getpgid,task_rename --json "$T_TMP/order.json"
	run_end order
	cleanup_checked order
	order_disturbed || break
	echo "# order: a raw_tp row disturbed (run $try): $(jget "$T_TMP/order.json" '"; ".join(r["reason"] or "" for r in rows(name="raw_tp") if r["status"] != "ok")[:200]')"
	[ "$QUIET" = 1 ] || break
done
if order_disturbed; then
	if [ "$QUIET" = 1 ]; then
		fail "order: a raw_tp row disturbed in each of 3 runs (rc=$RC)"
	else
		skip "order: a raw_tp row was disturbed on this busy machine (make check-quiet checks it)"
	fi
else
	expect "order: raw_tp task_rename and raw_tp getpgid in round 1, then both again in round 2 (rc=$RC)" \
		python3 -c '
import itertools, re, sys
seen = re.findall(r"\] (\S+ \S+), round (\d+)", open(sys.argv[1], errors="replace").read())
order = [k for k, _ in itertools.groupby(seen)]
sys.exit(order != [("raw_tp task_rename", "1"), ("raw_tp getpgid", "1"),
		   ("raw_tp task_rename", "2"), ("raw_tp getpgid", "2")])' "$T_TMP/order.tty"
	jexpect "order: each raw_tp row's units in rounds 0 and 1; each base row fed by them, 2 samples a unit" "$T_TMP/order.json" \
		'all(r["units"]["rounds"] == [0, 1] for r in rows(name="raw_tp", status="ok")) and all(r["fed"] and len(r["samples"]) == 2 * r["units"]["n"] for r in rows(name="base", status="ok"))'
fi

# --- selection: upstream's flags, -m, -e; rows derived from --list
run_json f41 -r 1 -n $N 0x41 1
rows_checked f41 "$L" 'l["flag"] & 0x41' --repeat 1 --count $N --tag "0x41 1"
jexpect "0x41 1: base and raw_tp task_rename, on one CPU" "$T_TMP/f41.json" \
	'sorted((r["name"], r["variant"]) for r in R) == [("base", "task_rename"), ("raw_tp", "task_rename")] and c["cpus_used"] in [str(i) for i in range(4096)]'
checks_from python3 "$TESTS/upstream.py" "$T_TMP/f41.out" "$T_TMP/f41.json" "$L" "0x41 1" --all
expect "0x41 1: exit status fits the rows (rc=$RC)" exit_matches f41

run_json getpgid -r 1 -n $N 0x10000
rows_checked getpgid "$L" 'l["flag"] & 0x10000' --repeat 1 --count $N --tag 0x10000
expect "0x10000: exit status fits the rows (rc=$RC)" exit_matches getpgid

run_json uprobes -r 1 -n $N -m uprobe,uretprobe -q
rows_checked uprobes "$L" 'l["name"] in ("uprobe", "uretprobe")' --repeat 1 --count $N --tag "-m uprobe,uretprobe"
expect "-q: nothing but the summary on stdout" \
	test -z "$(grep -E '^(w/|BASE$|uprobe-)' "$T_TMP/uprobes.out")"
# a uprobe's base is a bare call of a few ns: its overhead has no share
# of it, in the row or its units, and --compare judges the row on the ns
run_json ubase -r 2 -n $N -m base,uprobe -e uprobe-nop -q
jexpect "uprobe over its base: no share of a bare call, nor in its units" "$T_TMP/ubase.json" \
	'all(r["units"]["quantity"] == "overhead_ns" and r["overhead_share"] is None and r["units"]["shares"] is None for r in rows("uprobe", status="ok"))'
run_capture ucmp $BIN --compare "$T_TMP/ubase.json" "$T_TMP/ubase.json" --json "$T_TMP/ucmp.json"
jexpect "--compare: a uprobe judged on its overhead's ns, not a share of a bare call (rc=$RC)" "$T_TMP/ucmp.json" \
	'all(r["verdict_on"] == "overhead_ns" for r in rows("uprobe"))'

run_json nothing -r 1 -n $N -m kprobe,fentry -e task_rename
if J "$T_TMP/nothing.json" 'all(r["status"] == "skipped" for r in R)'; then
	expect "only skipped rows: exit 1 (rc=$RC)" test "$RC" -eq 1
	expect "only skipped rows: says nothing was measured" \
		grep -q 'nothing could be measured' "$T_TMP/nothing.err"
	checks_from python3 "$TESTS/upstream.py" "$T_TMP/nothing.out" "$T_TMP/nothing.json" "$L" "skips only"
else
	skip "kprobe or fentry runs on this kernel: no all-skipped selection"
fi

# the uprobe targets start with the instruction they are named after
if command -v objdump >/dev/null; then
	first_insn() {
		objdump -d --no-show-raw-insn "$BIN" |
			awk -v f="<$1>:" '$2 == f { getline; $1 = ""; print; exit }' |
			sed 's/^ *//; s/ *$//'
	}
	expect "uprobe_nop starts with nop" test "$(first_insn uprobe_nop)" = nop
	expect "uprobe_push starts with push %rbp" test "$(first_insn uprobe_push)" = "push %rbp"
	expect "uprobe_ret starts with ret" test "$(first_insn uprobe_ret)" = ret
else
	skip "objdump missing: uprobe targets not disassembled"
fi

# --- --body: what the programs do besides counting, in the context
for b in count reads upstream; do
	run_json "body_$b" -r 1 -n 5000 --body $b -m raw_tp -e task_rename
	jexpect "--body $b: context.body, raw_tp task_rename verified" "$T_TMP/body_$b.json" \
		'c["body"] == "'$b'" and verified(row("raw_tp", "task_rename"))'
done
# --- bad arguments: one line on stderr, nothing on stdout, exit 2
bad_arg "test_flags that select nothing" 0x80000000000
bad_arg "flags abc" abc
bad_arg "flags 0" 0
bad_arg "flags -1" -- -1
bad_arg "num_cpu 0" 1 0
bad_arg "num_cpu more than usable" 1 $((NCPU + 1))
bad_arg "-c offline CPU" -c 4000
bad_arg "-c bad range" -c 1-0
bad_arg "-c twice the same" -c 0,0
bad_arg "-n tab 5" -n $'\t5'
bad_arg "-n ' 5'" -n ' 5'
bad_arg "-n 1e6" -n 1e6
bad_arg "-n 0" -n 0
bad_arg "-n 0x0x5" -n 0x0x5
bad_arg "-n -5" -n -5
bad_arg "-n huge" -n 99999999999999999999999
bad_arg "-m with a newline" -m $'raw_tp\nbase'
bad_arg "-m unknown" -m kprobes
bad_arg "-e unknown" -e urandom
bad_arg "a mode that does not apply to the event" -m uprobe -e task_rename
bad_arg "--body unknown" --body all
bad_arg "-n 5 -d 1" -n 5 -d 1
bad_arg "--compare a b -n 5" --compare a b -n 5
bad_arg "--compare a b --list" --compare a b --list
bad_arg "--compare a b -m raw_tp" --compare a b -m raw_tp
bad_arg "--compare a b and a positional" --compare a b 1
bad_arg "--list with a run option" --list -n 5
bad_arg "unknown option" --frobnicate
bad_arg "unknown short option" -Z
bad_arg "option without value" -n
bad_arg "long option without value" --json
bad_arg "too many arguments" 1 1 1
bad_arg "num_cpu and -c" -c 1 1 1
run_json octal -r 1 -n 010 -m raw_tp -e getpgid -c 1
jexpect "-n 010 is ten: context.count 10, raw_tp getpgid verified" "$T_TMP/octal.json" \
	'c["count"] == 10 and verified(row("raw_tp", "getpgid"))'
run_capture nl $BIN -m $'raw_tp\nbase'
expect "a newline in a list is escaped in its one line" \
	grep -q 'raw_tp\\x0abase' "$T_TMP/nl.err"

# --- signals mid-run: 128+signal, said, nothing left
for sig in INT:130 TERM:143 HUP:129; do
	check_interrupt ${sig%:*} ${sig#*:} -m raw_tp -e task_rename -n 2000000000 -r 1
done

# --- a worker that dies fails its row, and the run
kill_a_worker dead -m raw_tp -e task_rename -n 2000000000 -r 1
expect "dead worker: exit 1 (rc=$RC)" test "$RC" -eq 1
jexpect "dead worker: raw_tp task_rename failed, no figure, 'died' in the reason" \
	"$T_TMP/dead.json" 'row("raw_tp", "task_rename")["status"] == "failed" and "died" in row("raw_tp", "task_rename")["reason"] and nofig(row("raw_tp", "task_rename"))'
cleanup_checked dead

finish
