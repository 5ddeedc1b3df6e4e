#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every check the tools make has a test that makes it fail: delete the
# check, and the test that names it must fail. Copies the tree to a
# scratch directory, then for each mutation below: takes the check out,
# rebuilds (make's programs and the test build, whose faults the tests
# inject), runs the test file (or the one section of it that holds the
# check: T_SECTIONS, see tests/lib.sh) until the named check reports, and
# calls the mutation killed when that check fails. The same check must
# pass on the tree as it is (a check that fails, or skips, anyway kills
# nothing). One line per mutation, then "mutation check: N of M mutants
# killed, in S s"; exit 1 when any survived or could not be tried.
#
#   tests/mutation-check.sh [NAME...]    (default: every mutation)
#   tests/mutation-check.sh --apply      only whether each still applies
#
# CI runs it after make check (.ci/run). A test file's section runs in a
# session of its own, bounded to MUTANT_TIMEOUT seconds (180).
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD
# python3 itself, not a shim in PATH (pyenv's costs 0.1 s a call)
PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
python3() { "${PYTHON:-/usr/bin/python3}" "$@"; }
SCRATCH=$(mktemp -d /tmp/mutation-check.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT

# name | function | the code, exactly, inside it | what replaces it |
# test file[:section] | check (ERE)
# Each check that kills a mutant comes as early in its test file (or
# section) as can be: it runs until that check reports. The unit checks
# (test_stats.sh, stats_test's) come first of all.
MUTATIONS=$(cat <<'EOF'
shortfall|sample_verify|if (w >= 0 \&\& wc.short_by > s->kernel_skips[c]) {|if (0) {|test_faults.sh:percpu|miss-cpu=0: raw_tp getpgid failed naming CPU 0
shortfall-half|window_count|need = k * r->events;|need = k * r->events / 2;|test_faults.sh:missodd|miss-odd: every raw_tp row failed
window-not-cpu|window_count|win = sample_in_loop(s, nr, w, c, false);|win = sample_hits((struct sample *)s, c)[r->cpu];|test_stats.sh|verify: hits outside the loops never cover a shortfall in them
window-end-read|worker_run|read_hits(a, 1);|;|test_faults.sh:shipped|shipped test_overhead, BENCH_TEST_FAULT=uncounted: raw_tp getpgid verified
window-in-all|sample_verify|if (wc.in > total) {|if (0) {|test_stats.sh|verify: more in the loops than in all is no count of ours
foreign-unchecked|window_count|if (extra > interrupt_allowance(r, k)) {|if (0) {|test_stats.sh|verify: twice the events in the loops: the wrong hook
foreign-unchecked-run|window_count|if (extra > interrupt_allowance(r, k)) {|if (0) {|test_faults.sh:missodd|extra-odd: raw_tp getpgid failed, its hits beyond the events
foreign-wall-time|foreign_allowance|2 * k * (__u64)(off / per_event)|2 * k * (__u64)(r->elapsed_ns / per_event)|test_stats.sh|verify: other tasks' runs beyond the other tasks' time
foreign-beyond-time|window_count|} else if (extra + foreign > foreign_allowance(r, k)) {|} else if (0) {|test_stats.sh|verify: other tasks' runs beyond the other tasks' time
foreign-per-event|interrupt_allowance|k * r->events / 1000 + 16|k * r->events + 16|test_stats.sh|verify: the worker's own hits beyond its events and interrupts
foreign-shown|sample_verify|s->foreign = wc.beyond;|s->foreign = 0;|test_stats.sh|verify: hits beyond the events, in the loop and outside
kernel-skips-double|sample_verify|wc.short_by > s->kernel_skips[c]|wc.short_by > 2 * s->kernel_skips[c]|test_stats.sh|verify: the kernel's skips counted, but too few
excused-cap|sample_judge_disturbed|if (s->excused_share > MAX_EXCUSED_SHARE) {|if (0) {|test_stats.sh|excused: 3 of 2000: more than a thousandth, disturbed
excused-said|excused_line|if (nr)|if (0)|test_stats.sh|excused: the summary says how many runs were excused
own-apart|count_hit|if (current_tgid(&slot->cfg) != slot->tgid) {|if (0) {|test_faults.sh:missrare|miss-rare, another task's getpgid bursts on CPU 0
own-apart-verify|window_count|win = sample_in_loop(s, nr, w, c, false);|win = sample_in_loop(s, nr, w, c, false) + sample_in_loop(s, nr, w, c, true);|test_stats.sh|verify: other tasks' runs never cover a shortfall
own-pidns|current_tgid|if (!cfg->use_pidns)|if (1)|test_faults.sh:pidns|pid namespace: test_overhead's raw_tp and tracepoint rows verified
disturbed-unpinned|sample_judge_moved|if (r->unpinned) {|if (0) {|test_stats.sh|disturbed: affinity changed under it
disturbed-end-cpu|sample_judge_moved|if (r->end_cpu != r->cpu) {|if (0) {|test_stats.sh|disturbed: ending on another CPU
disturbed-migrated|sample_judge_moved|if (r->migrations) {|if (0) {|test_stats.sh|disturbed: moved off its CPU and back in its loop
disturbed-migrated-run|sample_judge_moved|if (r->migrations) {|if (0) {|test_faults.sh:disturbed|a worker moved to CPU 1 and back in every sample
disturbed-repin|sample_judge_moved|if (r->repin_err) {|if (0) {|test_stats.sh|disturbed: cannot be pinned again
migrations-name|sched_nr_migrations|(p[sizeof(key) - 1] != ' ' \&\& p[sizeof(key) - 1] != ':'))|0)|test_stats.sh|migrations: se.nr_migrations, not a longer name
disturbed-slept|sample_judge_disturbed|if (r->nvcsw) {|if (0) {|test_faults.sh:disturbed|a 10 ms stop in every sample
disturbed-share|sample_judge_disturbed|share < MIN_CPU_SHARE \|\||0 \|\||test_stats.sh|disturbed: 96% of the wall time is not
disturbed-run-delay|sample_judge_disturbed|r->run_delay_ns > MAX_DELAY_SHARE * r->elapsed_ns|0|test_stats.sh|disturbed: 4% of run-queue delay is not
disturbed-busy|sample_judge_disturbed|if (share < MIN_CPU_SHARE \|\||if (0 \&\&|test_faults.sh|a busy loop on the worker's CPU
settle-bound-elsewhere|settle_counts|return CPU_COUNT(\&both) > 0;|return true;|test_stats.sh|settle: one bound to another CPU does not
settle-wrap|settle_delta|after < before ? 0 : after - before|after - before|test_stats.sh|settle: a thread's time never wraps
settle-capped|row_settle_capped|n += st->settle_ns[i] >= SETTLE_MAX_NS;|;|test_stats.sh|settle: 1 of 3 samples waited the cap
label-noisy-ns|row_notes|if (stats_noisy(\&s->ns))|if (stats_noisy(\&s->rate))|test_stats.sh|labels: noisy is the CV of ns/event
label-hits-window|format_hits|st->hits_window,|st->hits,|test_stats.sh|labels: hits/expected are the loops' hits
sample-retry|sample_tries|for (tries = 0; tries < SAMPLE_TRIES; tries++) {|for (tries = 0; tries < 1; tries++) {|test_faults.sh:retry|one sample stopped 10 ms: run again alone
unseen-cause|time_taken_by|r->run_delay_ns >= unseen)|1)|test_stats.sh|disturbed: 96% without a wait
disturbed-steal|sample_judge_disturbed|if (r->steal_ns > MAX_STEAL_SHARE * r->elapsed_ns) {|if (0) {|test_stats.sh|disturbed: the host's steal above 3%
steal-field|proc_stat_steal|*ticks = v[7];|*ticks = v[6];|test_stats.sh|steal: CPU 1's is its line's 8th field
worker-died|reap_dead_workers|if (WIFSIGNALED(status)) {|if (0) {|test_map_perf.sh:signals|dead worker: hash_prealloc failed, 'died' in the reason
worker-stopped|workers_stuck|now - w->stopped_since[i] > STOPPED_LIMIT_NS|0|test_faults.sh:stopped|worker stopped for good: exit 1 within
worker-stalled|workers_stuck|now - w->stalled_since[i] > STALLED_LIMIT_NS|0|test_faults.sh:cgroup|worker given no CPU time: the row failed within
sample-deadline|workers_stuck|deadline_ns \&\& now > deadline_ns|0|test_faults.sh:cgroup|worker given 1% of a CPU: the sample failed past its deadline
no-figure-unless-ok|row_has_figure|return row->out.status == ST_OK \&\& row->state->nr > 0;|return row->state->nr > 0;|test_faults.sh:later|a worker killed after a unit was counted: the row failed
exit-disturbed|exit_status|if (disturbed)|if (0)|test_faults.sh:disturbed|a 10 ms stop in every sample: exit 3
exit-failed|exit_status|if (failed)|if (0)|test_map_perf.sh:faults|wrong-key: exit 1, a row failed though another ran
map-update-fails|maps/verify.c:verify|else if (c->update_fails)|else if (0)|test_map_perf.sh:sizes|-E 1 hash_prealloc: failed
map-hits-all|maps/verify.c:verify|else if (r->hits == HITS_ALL \&\& c->found < c->lookups)|else if (0)|test_map_perf.sh:faults|wrong-key: hash_lookup raw_tp failed
map-hits-none|maps/verify.c:verify|else if (r->hits == HITS_NONE \&\& c->found)|else if (0)|test_map_perf.sh:faults|fill-all: hash_lookup raw_tp --miss failed
map-hits-kept|maps/verify.c:verify|else if (r->hits == HITS_KEPT \&\& c->found < min_found)|else if (0)|test_map_perf.sh:faults|wrong-key: lru_hash_lookup raw_tp failed
map-ops-counted|maps/verify.c:verify|else if (c->ops != c->calls * r->test->ops)|else if (0)|test_map_perf.sh:faults|short-ops: hash_prealloc raw_tp failed
lru-kept-at-fill|fill_lru_hash_lookup|read_kept_keys(fd, nr_windows, r->lru_kept);|;|test_map_perf.sh:faults|empty-map: lru_hash_lookup raw_tp failed
records-kept|verify_records|if (!records_kept(r, s, n))|if (0)|test_map_families.sh|drop-all: every ring and perf buffer row FAILED
profile-tid-filter|take_sample|if (!is_worker(k, r->tid)) {|if (0) {|test_stats.sh|profile: another task's sample on a worker's CPU is not the worker's
profile-hidden|profile_symbols_at|if (!ks->nonzero) {|if (0) {|test_stats.sh|profile: kallsyms with its addresses hidden: skipped, said
profile-text-only|text_symbol|(type != 't' \&\& type != 'T'))|0)|test_stats.sh|profile: addresses named by the text symbol at or before them
from-worker|from_worker|return tgid \&\& tgid == worker_tgid[cpu];|return true;|test_map_perf.sh:hog|with another process's getpgid: hash_lookup's hits are exactly its events
fib-once|count_fib_lookups|if (!err \&\& least < FIB_CALIBRATION) {|if (0) {|test_faults.sh:missodd|miss-odd: fib_table_lookup's calibration failed, less than once
fib-whole|count_fib_lookups|least % FIB_CALIBRATION > FIB_SLACK|0|test_faults.sh:missodd|extra-odd: fib_table_lookup's calibration failed, no whole number
queue-sum|verify_empty|if (r->c.sum) {|if (0) {|test_map_perf.sh:faults|extra-push: queue_push_pop raw_tp failed
stack-left|verify_empty|if (left)|if (0)|test_map_perf.sh:faults|extra-push: stack_push_pop raw_tp failed
sys-map-value|sys_map_check|if (value != sys_value(k)) {|if (0) {|test_map_perf.sh:faults|wrong-value: sys_hash_update failed
sys-lookup-value|lookup_one|\&\& v == sys_value(k);|;|test_map_perf.sh:faults|wrong-value: sys_hash_lookup failed
sys-dump-value|dump|if (k >= w->ctx.entries \|\| w->values[i] != sys_value(k))|if (k >= w->ctx.entries)|test_map_perf.sh|wrong-value: batch_hash_lookup failed
usdt-site|usdt_site_ok|return free_of_breakpoints(usdt_site_check,|return true; free_of_breakpoints(usdt_site_check,|test_modes.sh|USDT site not a nop: usdt failed
compare-fault|load_file|ret = refuse_fault(f, context);|ret = 0;|test_faults.sh:shipped|--compare uncounted shipped
compare-alpha|stats_verdict|if (!(w->p < alpha))|if (!(w->p < 1))|test_stats.sh|3 ns shift in units spread 7.9 ns, beyond the threshold: no significant change
uprobe-copies|copies_ok|return target_ok((int)ev, copy, out) \&\&|return 1 \|\||test_faults.sh:uprobes|another uprobe on uprobe_nop
compare-direction|stats_verdict|higher == higher_is_faster ? V_FASTER : V_SLOWER|V_FASTER|test_stats.sh|units 5 ns higher: slower
compare-delta-alone|measure_entry|e->v = stats_verdict(\&e->st_a, \&e->st_b, COMPARE_ALPHA, false, \&e->w);|stats_verdict(\&e->st_a, \&e->st_b, COMPARE_ALPHA, false, \&e->w); e->v = e->st_b.mean > e->st_a.mean ? V_SLOWER : e->st_b.mean < e->st_a.mean ? V_FASTER : V_NO_CHANGE;|test_stats.sh|3 ns shift in units spread 7.9 ns, beyond the threshold: no significant change
compare-threshold|decide|!(e->delta_pct <= fail_pct)|!(e->delta_pct <= 0)|test_stats.sh|--fail-on-regression 25: 22.7% slower passes
compare-insignificant|decide|e->v == V_SLOWER \&\&||test_stats.sh|--fail-on-regression 0: insignificant slowdown passes
compare-pool-first|pool_group|pool_add(\&g->pool, \&r->units);|if (!g->nr_pooled) pool_add(\&g->pool, \&r->units);|test_stats.sh|A's units pooled from the two files that have it ok
compare-quantity|pair_entry|if (!e->why \&\& strcmp(e->a->quantity, e->b->quantity))|if (0)|test_stats.sh|overhead_ns in A, ns_per_event in B: not compared, both named
compare-by-run|measure_entry|e->by_run = e->a->runs.n >= 2 \&\& e->b->runs.n >= 2;|e->by_run = false;|test_stats.sh|two files of A and three of B: a run an observation
compare-base-shift|threshold_for|pct += SHIFT_WEIGHT * fabs(c->base_shift_pct);|;|test_stats.sh|single runs: kprobe 13% dearer is within
compare-shift-weight|threshold_for|pct += SHIFT_WEIGHT * fabs(c->base_shift_pct);|pct += fabs(c->base_shift_pct);|test_stats.sh|single runs: kprobe 13% dearer is within
compare-ignore-param|row_params|if (!is_ignored(ig, key))|if (1)|test_stats.sh|--ignore-param progs: --progs 1 against --progs 2 are one row, slower
compare-total-size|budget_read|if (b->before + b->read > COMPARE_MAX_TOTAL_SIZE) {|if (0) {|test_stats.sh|nine 15 MiB files: exit 2, one line, more than 128 MiB in all
usdt-unreadable|usdt_site_ok|if (err == -EACCES \|\| err == -EPERM) {|if (0) {|test_faults.sh:caps|capabilities only, its own file unreadable
units-base-hits|base_sample_run|if (!hits)|if (1)|test_report.sh|base-hooked: uprobe uprobe-nop failed, its base sample's hits named
units-below-base|row_summarize|s->below_base = s->overhead.value + s->overhead.ci95 < 0;|s->below_base = false;|test_report.sh|slow-base: raw_tp below its base, flagged
unit-pace|pace_changed|return apart > PACE_FLOOR_NS \&\& apart > PACE_CHANGE_SHARE * (a + b) / 2;|return false;|test_report.sh|pace-change: raw_tp disturbed, its units
units-base-mean|unit_record|row_add_unit(row, row_ns - base_ns, row_ns, base_ns, info);|row_add_unit(row, row_ns - u->base[0].ns_per_event, row_ns, base_ns, info);|test_report.sh|units: raw_tp's units are its ns per event less its base's
units-t-interval|units_precise|return stats_ci_half(\&st, 0.05) <= want;|return st.stddev <= want;|test_stats.sh|enough: not while it is wide
units-min-two|units_enough|return n >= 2 \&\& spent_ns >= 2 * rs->row_budget_ns ?|return spent_ns >= 2 * rs->row_budget_ns ?|test_stats.sh|enough: never under two units, whatever the budget
units-budget|units_enough|return spent_ns >= rs->row_budget_ns ? STOP_BUDGET : STOP_NOT;|return STOP_NOT;|test_stats.sh|enough: stops short when its budget is spent
units-floor|units_precise|if (overhead \&\& want < MIN_PRECISION_NS)|if (0)|test_stats.sh|enough: an overhead known to 1 ns, though not to 3%
units-rounds|units_precise|nr = stats_cluster_means(unit, round, n < MAX_UNITS ? n : MAX_UNITS,|nr = n; memcpy(mean, unit, n * sizeof(*unit)); (void)stats_cluster_means(unit, round, n < MAX_UNITS ? n : MAX_UNITS,|test_stats.sh|precise: a round's units are one observation
units-retries-ceiling|units_mostly_disturbed|return 2 * disturbed > attempts;|return false;|test_stats.sh|disturbed: most units disturbed leave no figure
compare-rounds|pool_values|round[i] = json_array_size(rounds) == n \&\& json_is_number(r) ?|round[i] = 0 \&\& json_is_number(r) ?|test_report.sh|A's n and mean: run A's units
compare-threshold-pct|decide|if (e->v != V_NO_CHANGE \&\&|if (0 \&\&|test_report.sh|--compare with a copy 4% slower, p tiny: no change
stats-runs|read_kernel_skips|s->stats_runs = info.run_cnt - s->stats_runs;|s->stats_runs = 0;|test_report.sh|stats held on by another process: raw_tp's runs timed are counted
row-judged|row_sample_run|		sample_judge_disturbed(s);|		;|test_faults.sh:pause|SIGSTOP . SIGCONT 0.6 s in a sample
stdout-failed|flush_output|} else if (fflush(stdout) \|\| ferror(stdout)) {|} else if (0) {|test_faults.sh:outputs|stdout on /dev/full: exit 1 with a message
privileges|check_privileges|if (has_cap(data, CAP_SYS_ADMIN) \|\||if (1 \|\||test_faults.sh:caps|no privileges: exit 1, one line naming CAP_BPF
tracefs-mount|ensure_tracefs|if (mount("nodev", path, "tracefs", 0, NULL)) {|if (1) {|test_faults.sh:tracefs|tracefs missing: the run mounted it, says so
every-program|sample_verify|for (c = 0; c < nr; c++) {|for (c = 0; c < 1; c++) {|test_modes.sh|miss-one: each row FAILED, the 4-program row on program 4
jit-read-first|bench_main|bpf_jit_read(\&(struct bpf_jit_state){});|;|test_overhead.sh|full: the JIT's settings, as the kernel says them
nothing-measured|exit_status|if (!ok) {|if (0) {|test_overhead.sh|only skipped rows: exit 1
ktap-exit-failed|ktap_exit_status|if (rows->row[i].out.status == ST_FAILED)|if (0)|test_ktap.sh:exit|fail: exit 1: kselftest's for these rows
ktap-exit-skip|ktap_exit_status|return ok ? 0 : EXIT_KSFT_SKIP;|return 0;|test_ktap.sh:exit|every row skipped .*: exit 4
ktap-skip-reason|write_ktap|"ok %d %s # SKIP %s|"ok %d %s # SKIP %.0s|test_ktap.sh:format|to: each test point has its row's name, status, reason or figure
memory-charge|check|if (m->total < m->bound) {|if (0) {|test_map_memory.sh:fault|memcg-outside: every row FAILED
memory-filled|check|if (m->filled < m->entries \&\&|if (0 \&\&|test_map_memory.sh:fault|short-fill: FAILED
EOF
)

# the checker of run_until: reads a test's lines until one of each
# check (ERE, argv) has come, prints those
UNTIL='import re, sys
checks = sys.argv[1:]
got = [""] * len(checks)
for line in sys.stdin:
	line = line.rstrip("\n")
	m = re.match(r"(not )?ok - (.*)", line)
	if not m:
		continue
	for i, c in enumerate(checks):
		if not got[i] and re.search(c, m.group(2)):
			got[i] = line
	if all(got):
		break
print("\n".join(got))'

# run_until DIR TEST[:SECTION] CHECK...: runs DIR/tests/TEST (its
# SECTION alone) until a line of each CHECK has reported; prints those
# lines, one per CHECK in order ("" for one that never did). The test runs
# in a session of its own, ended with SIGTERM once it has said enough:
# its runs clean up after it.
run_until() {
	local dir=$1 test=${2%%:*} section= pid fifo
	[[ $2 == *:* ]] && section=${2#*:}
	shift 2
	fifo=$(mktemp -u "$SCRATCH/fifo.XXXXXX")
	mkfifo "$fifo"
	T_SECTIONS=$section setsid timeout -k 10 "${MUTANT_TIMEOUT:-180}" \
		bash "$dir/tests/$test" >"$fifo" 2>&1 &
	pid=$!
	python3 -c "$UNTIL" "$@" <"$fifo"
	kill -TERM -- -"$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$fifo"
}

# mutate DIR FUNC OLD NEW: OLD, which must be there once inside the body
# of the function FUNC ("file.c:FUNC" where two files define one), becomes
# NEW. The function is looked up in every source file of DIR (and of its
# maps/; "maps/file.c:FUNC" names one there), so that the
# mutation survives code moved between files or renamed around it; a
# function not found, or OLD not found once in it, is said and the
# mutation counts as invalid, never as killed.
mutate() {
	python3 - "$1" "$2" "$3" "$4" <<'PY'
import glob, os, re, sys
root, func, old, new = sys.argv[1:]
# the top's sources and its folders' (overhead/ ...), never build/'s
files = sorted(f for f in glob.glob(os.path.join(root, "*.[ch]")) +
	       glob.glob(os.path.join(root, "*", "*.[ch]"))
	       if not os.path.relpath(f, root).startswith("build" + os.sep))
if ":" in func:
	name, func = func.split(":")
	files = [os.path.join(root, name)]
# a definition: a line starting with a type, the name, the parameters (on
# one line or more), and the body's brace alone on the next line
head = re.compile(r"^[A-Za-z_][^;{}\n]*\b%s\([^;{}]*\)\s*\n\{\n" %
		  re.escape(func), re.M)
found = []
for path in files:
	try:
		s = open(path).read()
	except OSError:
		continue
	for m in head.finditer(s):
		end = s.find("\n}\n", m.end())
		if end >= 0:
			found.append((path, s, m.end(), end))
if len(found) != 1:
	sys.exit("function %s defined %d times in %s" %
		 (func, len(found), ", ".join(sorted(set(
		  os.path.basename(f[0]) for f in found))) or "no file"))
path, s, start, end = found[0]
n = s.count(old, start, end)
if n != 1:
	sys.exit("%s: '%s' found %d times in %s()" %
		 (os.path.basename(path), old, n, func))
at = s.index(old, start, end)
if not os.environ.get("DRY_RUN"):
	open(path, "w").write(s[:at] + new + s[at + len(old):])
PY
}

# whether a mutation applies to the sources, changing nothing: a mutation that
# no longer applies is said at once, before an hour of runs
applies() {
	DRY_RUN=1 mutate "$TOP" "$@"
}

apply_only=0
if [ "$1" = --apply ]; then
	apply_only=1
	shift
fi
start=$(date +%s)
killed=0
survived=0
invalid=0
total=0
declare -A bad
# read without -r: \| and \& in the table are a | and an & in the code
while IFS='|' read name func old new test check; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
		continue
	fi
	total=$((total + 1))
	if ! err=$(applies "$func" "$old" "$new" 2>&1); then
		echo "INVALID  $name: does not apply: $err"
		bad[$name]=1
		invalid=$((invalid + 1))
	fi
done <<<"$MUTATIONS"
for n in "$@"; do
	grep -q "^$n|" <<<"$MUTATIONS" && continue
	echo "INVALID  $n: no such mutation"
	invalid=$((invalid + 1))
	total=$((total + 1))
done

if [ "$apply_only" = 1 ]; then
	echo "mutation check: $((total - invalid)) of $total mutants apply"
	[ "$invalid" -eq 0 ]
	exit
fi

base=$SCRATCH/base
mkdir -p "$base"
git ls-files -z | xargs -0 cp --parents -t "$base"
# the build, but vmtest's kernels and the static build: no test here
# boots a guest
mkdir -p "$base/build"
for f in build/*; do
	case $f in build/vmtest | build/static | build/arm64 | build/libbpf) continue ;; esac
	cp -a "$f" "$base/build/"
done
make -C "$base" -s -j2 all testing >/dev/null 2>&1 || { echo "the tree does not build"; exit 1; }

# the tree as it is: each test (and section) once, until all the checks
# its mutants name have reported
declare -A checks baseline
while IFS='|' read name func old new test check; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
		continue
	fi
	[ -z "${bad[$name]}" ] || continue
	checks[$test]+="$check"$'\n'
done <<<"$MUTATIONS"
for test in "${!checks[@]}"; do
	mapfile -t cs <<<"${checks[$test]%$'\n'}"
	mapfile -t lines < <(run_until "$base" "$test" "${cs[@]}")
	for i in "${!cs[@]}"; do
		baseline["$test|${cs[i]}"]=${lines[i]}
	done
done
echo "baselines: $(($(date +%s) - start)) s"

while IFS='|' read name func old new test check; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
		continue
	fi
	[ -z "${bad[$name]}" ] || continue
	t0=$(date +%s)
	case ${baseline["$test|$check"]} in
	"ok - # SKIP"*)
		echo "INVALID  $name: '$check' skips on the tree as it is: ${baseline["$test|$check"]}"
		invalid=$((invalid + 1))
		continue ;;
	"ok - "*) ;;
	*)
		echo "INVALID  $name: '$check' does not pass on the tree as it is: ${baseline["$test|$check"]:-never reported}"
		invalid=$((invalid + 1))
		continue ;;
	esac
	dir=$SCRATCH/$name
	cp -a "$base" "$dir"
	if ! err=$(mutate "$dir" "$func" "$old" "$new" 2>&1); then
		echo "INVALID  $name: does not apply: $err"
		invalid=$((invalid + 1))
		rm -rf "$dir"
		continue
	fi
	if ! make -C "$dir" -s -j2 all testing >/dev/null 2>&1; then
		echo "INVALID  $name: the mutant does not build"
		invalid=$((invalid + 1))
		rm -rf "$dir"
		continue
	fi
	line=$(run_until "$dir" "$test" "$check")
	rm -rf "$dir"
	case $line in
	"not ok - "*)
		echo "killed   $name ($(($(date +%s) - t0)) s): ${line#not ok - }"
		killed=$((killed + 1)) ;;
	*)
		echo "SURVIVED $name ($(($(date +%s) - t0)) s): ${line:-'$check' never reported}"
		survived=$((survived + 1)) ;;
	esac
done <<<"$MUTATIONS"
msg="mutation check: $killed of $total mutants killed, in $(($(date +%s) - start)) s"
[ "$killed" -eq "$total" ] || msg="$msg ($survived survived, $invalid invalid)"
echo "$msg"
[ "$killed" -eq "$total" ]
