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
# session of its own, bounded to MUTANT_TIMEOUT seconds (180). The
# mutants are built ahead, a few at a time, while the tests run.
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
context-fault|runner/report/results_json.c:context_json|if (run_fault(rs)->kind)|if (0)|test_faults.sh:percpu|miss-cpu=0: raw_tp getpgid failed naming CPU 0, no figure
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
row-policy-reload|row_policy_wrong|if (row->reload \&\& row->links == LINKS_PER_RUN)|if (0)|test_stats.sh|row policy: a reload with links per run refused
settle-bound-elsewhere|settle_counts|return CPU_COUNT(\&both) > 0;|return true;|test_stats.sh|settle: one bound to another CPU does not
settle-wrap|settle_delta|after < before ? 0 : after - before|after - before|test_stats.sh|settle: a thread's time never wraps
settle-capped|row_settle_capped|n += st->settle_ns[i] >= SETTLE_MAX_NS;|;|test_stats.sh|settle: 1 of 3 samples waited the cap
label-noisy-ns|row_note_list|if (stats_noisy(\&s->ns))|if (stats_noisy(\&s->rate))|test_stats.sh|labels: noisy is the CV of ns/event
glance-fit|layout|if (!width \|\| total <= width \|\| !drop_one(t, l))|if (!width \|\| total <= width \|\| 1)|test_glance.sh:layout|test_overhead-cmp-v80: no line wider than 80 columns
glance-fold|fold_text|if (words \&\& col + 1 + cols > width)|if (0)|test_glance.sh:layout|test_overhead-cmp-80: no line wider than 80 columns
glance-legend|print_legend|marks[m].c, count[m], count[m] > 1 ? "s" : "",|marks[m].c, count[m] + 1, count[m] > 1 ? "s" : "",|test_glance.sh:layout|test_overhead-100: the legend counts the rows of each mark
glance-marks|row_marks|buf[i] = notes[i].mark;|buf[i] = 'n';|test_glance.sh:layout|test_overhead-100: each row's notes column has its marks
glance-cpu|reason_cpu|return atoi(p + 4);|return -1;|test_glance.sh:failed|failed: each row's verdict .verified, FAILED and its CPU
label-hits-window|format_hits|st->hits_window,|st->hits,|test_stats.sh|labels: hits/expected are the loops' hits
retry-budget-disturbed|note_disturbed_unit|st->disturbed_unit_ns = took;|;|test_faults.sh:disturbed|a 10 ms stop in every sample
sample-retry|sample_tries|for (tries = 0; tries < SAMPLE_TRIES; tries++) {|for (tries = 0; tries < 1; tries++) {|test_faults.sh:retry|one sample stopped 10 ms: run again alone
unseen-cause|time_taken_by|r->run_delay_ns >= unseen)|1)|test_stats.sh|disturbed: 96% without a wait
disturbed-steal|sample_judge_disturbed|if (r->steal_ns > MAX_STEAL_SHARE * r->elapsed_ns) {|if (0) {|test_stats.sh|disturbed: the host's steal above 3%
steal-field|proc_stat_steal|*ticks = v[7];|*ticks = v[6];|test_stats.sh|steal: CPU 1's is its line's 8th field
worker-died|reap_dead_workers|if (WIFSIGNALED(status)) {|if (0) {|test_map_perf.sh:signals|dead worker: hash_prealloc failed, 'died' in the reason
worker-stopped|task_stuck|now - t->stopped_since > STOPPED_LIMIT_NS|0|test_faults.sh:stopped|worker stopped for good: exit 1 within
worker-stalled|task_stuck|now - t->stalled_since > STALLED_LIMIT_NS|0|test_faults.sh:cgroup|worker given no CPU time: the row failed within
sample-deadline|task_stuck|deadline_ns \&\& now > deadline_ns|0|test_faults.sh:cgroup|worker given 1% of a CPU: the sample failed past its deadline
no-figure-unless-ok|row_has_figure|return row->out.status == ST_OK \&\& row->state->nr > 0;|return row->state->nr > 0;|test_faults.sh:later|a worker killed after a unit was counted: the row failed
exit-disturbed|exit_status|if (disturbed)|if (0)|test_faults.sh:disturbed|a 10 ms stop in every sample: exit 3
exit-failed|exit_status|if (failed)|if (0)|test_map_perf.sh:faults|wrong-key: exit 1, a row failed though another ran
map-update-fails|maps/verify.c:verify|else if (c->update_fails)|else if (0)|test_map_perf.sh:sizes|-E 1 hash_prealloc: failed
map-hits-all|maps/verify.c:verify|else if (r->hits == HITS_ALL \&\& c->found < c->lookups)|else if (0)|test_map_perf.sh:faults|wrong-key: hash_lookup raw_tp failed
map-hits-none|maps/verify.c:verify|else if (r->hits == HITS_NONE \&\& c->found)|else if (0)|test_map_perf.sh:faults|fill-all: hash_lookup raw_tp --miss failed
map-hits-kept|maps/verify.c:verify|else if (r->hits == HITS_KEPT \&\& c->found < min_found)|else if (0)|test_map_perf.sh:faults|wrong-key: lru_hash_lookup raw_tp failed
map-ops-counted|maps/verify.c:verify|else if (c->ops != c->calls * r->test->ops)|else if (0)|test_map_perf.sh:faults|short-ops: hash_prealloc raw_tp failed
map-nothing-to-measure|map_perf_test_user.c:parse_args|if (!opt->memory \&\& !rows_possible(opt))|if (0)|test_map_families.sh|bad argument -t lpm_kmalloc --key-size 4 .no row but the base.:
map-counts-since|map_perf_test_user.c:collect|take_since(\&v[cpu], \&r->taken[cpu]);|;|test_map_perf.sh:units|several samples a unit: each row ran, its hits its loops' alone
map-taken-reset|map_perf_test_user.c:attach_row|memset(r->taken, 0, sizeof(*r->taken) * nr_cpus_possible());|;|test_report.sh|map pace-change: each row disturbed, its units tried again in one session
map-consumer-per-sample|take_consumer|if (!consumer_running(r->consumer))|if (1)|test_map_perf.sh:units|several samples a unit: ringbuf_reserve ran, its records its events'
map-totals-by-place|map_perf_test_user.c:count|*l = \&r->last[s->place];|*l = \&r->last[1];|test_map_perf.sh:units|several samples a unit: the map operations are the events'
repeat-one-a-session|session_units|if (rs->repeat)|if (0)|test_report.sh|-r 3, no base, attached through its units: 3 rounds, 3 observations
summary-ci-dash|format_or_dash|if (isfinite(v))|if (1)|test_stats.sh|format_or_dash: no figure is '-'
ktap-memory-figure|ktap_other_figure|if (json_is_object(mem)) {|if (0) {|test_ktap.sh:format|mem: each test point has its row's name, status, reason or figure
inv-non-finite|tests/invariants.py:non_finite|elif number(v) and not finite(v):|elif False:|test_invariants.sh|a NaN: exit 1
inv-non-finite-token|tests/invariants.py:finite|return number(v) and not isinstance(v, NonFinite) and math.isfinite(v)|return number(v) and not isinstance(v, NonFinite)|test_invariants.sh|an infinity: exit 1
inv-hits-short|tests/invariants.py:hits|if r["hits_window"] + skipped < k * r["events"]:|if False:|test_invariants.sh|in-window hits short of the events, in all: exit 1
inv-hits-short-cpu|tests/invariants.py:hits|if c["hits_window"] + skipped < k * c["events"]:|if False:|test_invariants.sh|in-window hits short on one CPU, made up on another: exit 1
inv-hits-outside|tests/invariants.py:outside|if r.get("attached_for") == "samples" and r.get("hits_outside"):|if False:|test_invariants.sh|hits outside the loops, attached around the samples alone: exit 1
inv-counts-hits|tests/invariants.py:counts|if r["hits"] != r["hits_window"] + r["hits_outside"]:|if False:|test_invariants.sh|hits not hits_window [+] hits_outside: exit 1
inv-counts-units|tests/invariants.py:counts|if u.get(k) is not None and len(u[k]) != n:|if False:|test_invariants.sh|a units array shorter than units.n: exit 1
inv-counts-cpu|tests/invariants.py:counts|if per and sum(c["events"] for c in per) != r["events"]:|if False:|test_invariants.sh|per_cpu's events not the row's: exit 1
inv-counts-rounds|tests/invariants.py:counts|u["observations"] != len(set(rounds)):|False:|test_invariants.sh|observations not the rounds the units ran in: exit 1
inv-no-interval|tests/invariants.py:interval|if isinstance(o, dict) and not finite(o.get("ci95")):|if False:|test_invariants.sh|an ok row of 2 observations without an interval: exit 1
inv-share|tests/invariants.py:share|if not isinstance(o, dict) or not finite(o.get("value")):|if False:|test_invariants.sh|an ok overhead row without its share of the base: exit 1
inv-not-ok-figure|tests/invariants.py:not_ok_figure|if there:|if False:|test_invariants.sh|a figure on a disturbed row: exit 1
inv-exit-status|tests/invariants.py:exit_status|if rc == want:|if True:|test_invariants.sh|a disturbed row, exit 0: exit 1
inv-exit-failed|tests/invariants.py:run|want = 1 if "failed" in st else 3 if "disturbed" in st else \\|want = 3 if "disturbed" in st else \\|test_invariants.sh|a failed row beside a measured one, exit 0: exit 1
inv-compare-counts|tests/invariants.py:compare|if k in s and s[k] != v:|if False:|test_invariants.sh|a compare's summary not its rows: exit 1
inv-compare-share|tests/invariants.py:compare|if on_share and r.get("verdict") != sh.get("verdict"):|if False:|test_invariants.sh|a compare row on its share, the share's own verdict another: exit 1
inv-unreadable|tests/invariants.py:file|self.bad(where, None, "unreadable", str(e)[:200])|pass|test_invariants.sh|a file cut short: exit 1
lru-kept-at-fill|fill_lru_hash_lookup|read_kept_keys(fd, nr_windows, r->lru_kept);|;|test_map_perf.sh:faults|empty-map: lru_hash_lookup raw_tp failed
records-kept|verify_records|if (!records_kept(r, s, n))|if (0)|test_map_families.sh|drop-all: every ring and perf buffer row FAILED
profile-tid-filter|take_sample|if (!is_worker(k, r->tid)) {|if (0) {|test_stats.sh|profile: another task's sample on a worker's CPU is not the worker's
profile-hidden|profile_symbols_at|if (!ks->nonzero) {|if (0) {|test_stats.sh|profile: kallsyms with its addresses hidden: skipped, said
profile-text-only|text_symbol|(type != 't' \&\& type != 'T'))|0)|test_stats.sh|profile: addresses named by the text symbol at or before them
from-worker|from_worker|return tgid \&\& tgid == worker_tgid[cpu];|return true;|test_map_perf.sh:hog|with another process's getpgid: hash_lookup's hits are exactly its events
fib-once|count_fib_lookups|if (!err \&\& least < FIB_CALIBRATION) {|if (0) {|test_faults.sh:missodd|miss-odd: fib_table_lookup's calibration failed, less than once
fib-whole|count_fib_lookups|least % FIB_CALIBRATION > FIB_SLACK|0|test_faults.sh:missodd|extra-odd: fib_table_lookup's calibration failed, no whole number
bare-call-shares|overhead/json.c:json_row|json_object_set_new(units, "shares", json_null());|;|test_overhead.sh|uprobe over its base: no share of a bare call, nor in its units
bare-call-compare|overhead/json.c:json_row|json_object_set_new(units, "shares", json_null());|;|test_overhead.sh|--compare: a uprobe judged on its overhead's ns, not a share of a bare call
queue-sum|verify_empty|if (r->c.sum) {|if (0) {|test_map_perf.sh:faults|extra-push: queue_push_pop raw_tp failed
stack-left|verify_empty|if (left)|if (0)|test_map_perf.sh:faults|extra-push: stack_push_pop raw_tp failed
sys-map-value|sys_map_check|if (value != sys_value(k)) {|if (0) {|test_map_perf.sh:faults|wrong-value: sys_hash_update failed
sys-lookup-value|lookup_one|\&\& v == sys_value(k);|;|test_map_perf.sh:faults|wrong-value: sys_hash_lookup failed
sys-dump-value|dump|if (k >= w->ctx.entries \|\| w->values[i] != sys_value(k))|if (k >= w->ctx.entries)|test_map_perf.sh|wrong-value: batch_hash_lookup failed
usdt-site|usdt_site_ok|return free_of_breakpoints(usdt_site_check,|return true; free_of_breakpoints(usdt_site_check,|test_modes.sh|USDT site not a nop: usdt failed
compare-fault|load_file|ret = refuse_fault(f, context);|ret = 0;|test_faults.sh:shipped|--compare uncounted shipped
compare-alpha|stats_verdict|if (!(w->p < alpha))|if (!(w->p < 1))|test_stats.sh|3 ns shift in a base row's units spread 7.9 ns, beyond the threshold: no significant change
uprobe-copies|copies_ok|return target_ok((int)ev, copy, out) \&\&|return 1 \|\||test_faults.sh:uprobes|another uprobe on uprobe_nop
compare-direction|stats_verdict|higher == higher_is_faster ? V_FASTER : V_SLOWER|V_FASTER|test_stats.sh|units 5 ns higher: slower
compare-delta-alone|runner/compare/compare.c:measure|ch->v = stats_verdict(\&ch->st_a, \&ch->st_b, COMPARE_ALPHA, false, \&ch->w);|stats_verdict(\&ch->st_a, \&ch->st_b, COMPARE_ALPHA, false, \&ch->w); ch->v = ch->st_b.mean > ch->st_a.mean ? V_SLOWER : ch->st_b.mean < ch->st_a.mean ? V_FASTER : V_NO_CHANGE;|test_stats.sh|3 ns shift in a base row's units spread 7.9 ns, beyond the threshold: no significant change
compare-share-delta-alone|measure_share|if (sh->v != V_NO_CHANGE \&\&|sh->v = sh->st_b.mean > sh->st_a.mean ? V_SLOWER : sh->st_b.mean < sh->st_a.mean ? V_FASTER : V_NO_CHANGE; if (sh->v != V_NO_CHANGE \&\&|test_stats.sh|3 ns shift in an overhead's units spread 7.9 ns, its share alike: no significant change
compare-threshold|decide|!(pct <= fail_pct)|!(pct <= 0)|test_stats.sh|--fail-on-regression 25: 22.7% slower passes
compare-insignificant|decide|j->v == V_SLOWER \&\&||test_stats.sh|--fail-on-regression 0: insignificant slowdown passes
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
share-own-base|stats_shares|share[i] = base_ns[i] > 0 ? 100 * unit[i] / base_ns[i] : NAN;|share[i] = base_ns[i] > 0 ? 100 * unit[i] / base_ns[0] : NAN;|test_report.sh|units: the share is each unit's overhead over its own base
share-from-means|row_summarize|stats_overhead(mean, nr, 0, \&s->share);|stats_overhead(mean, nr, 0, \&s->share); s->share.value = s->overhead.pct;|test_report.sh|units: the share's value is the mean of its rounds' means
compare-share-rounds|row_shares|pool_values(shares, rounds, \&r->shares);|pool_values(shares, NULL, \&r->shares);|test_stats.sh|share: A's share the mean of its 4 rounds' means
compare-share-verdict|judged_on_share|return e->has_share \&\& !strcmp(e->a->quantity, "overhead_ns");|return false;|test_stats.sh|share: ns 10% slower, the share the same: no significant change, on the share
compare-share-floor|measure_share|!(fabs(e->ns.delta) > COMPARE_FLOOR_NS))) {|0)) {|test_stats.sh|share: 25% higher, the ns the same .within 1 ns., --threshold 0: no significant change
units-t-interval|units_precise|return stats_ci_half(\&st, 0.05) <= want;|return st.stddev <= want;|test_stats.sh|enough: not while it is wide
units-min-two|units_enough|return n >= 2 \&\& spent_ns >= 2 * rs->row_budget_ns ?|return spent_ns >= 2 * rs->row_budget_ns ?|test_stats.sh|enough: never under two units, whatever the budget
units-budget|units_enough|return spent_ns >= rs->row_budget_ns ? STOP_BUDGET : STOP_NOT;|return STOP_NOT;|test_stats.sh|enough: stops short when its budget is spent
units-floor|units_precise|if (overhead \&\& want < MIN_PRECISION_NS)|if (0)|test_stats.sh|enough: an overhead known to 1 ns, though not to 3%
units-rounds|units_precise|nr = stats_cluster_means(unit, round, n < MAX_UNITS ? n : MAX_UNITS,|nr = n; memcpy(mean, unit, n * sizeof(*unit)); (void)stats_cluster_means(unit, round, n < MAX_UNITS ? n : MAX_UNITS,|test_stats.sh|precise: a round's units are one observation
units-retries-ceiling|units_mostly_disturbed|return 2 * disturbed > attempts;|return false;|test_stats.sh|disturbed: most units disturbed leave no figure
compare-rounds|pool_values|round[i] = json_array_size(rounds) == n \&\& json_is_number(r) ?|round[i] = 0 \&\& json_is_number(r) ?|test_report.sh|A's n and mean: run A's units
compare-threshold-pct|decide|if (e->ns.v != V_NO_CHANGE \&\&|if (0 \&\&|test_report.sh|--compare with a copy 4% slower, p tiny: no change
stats-runs|read_kernel_skips|s->stats_runs = info.run_cnt - s->stats_runs;|s->stats_runs = 0;|test_report.sh|stats held on by another process: raw_tp's runs timed are counted
row-judged|row_sample_run|		sample_judge_disturbed(s);|		;|test_faults.sh:pause|SIGSTOP . SIGCONT 0.6 s in a sample
stdout-failed|flush_stdout|if (fflush(stdout) \|\| ferror(stdout)) {|if (0) {|test_faults.sh:outputs|stdout on /dev/full: exit 1 with a message
privileges|check_privileges|if (has_cap(data, CAP_SYS_ADMIN) \|\||if (1 \|\||test_faults.sh:caps|no privileges: exit 1, one line naming CAP_BPF
tracefs-mount|ensure_tracefs|if (mount("nodev", path, "tracefs", 0, NULL)) {|if (1) {|test_faults.sh:tracefs|tracefs missing: the run mounted it, says so
every-program|sample_verify|for (c = 0; c < nr; c++) {|for (c = 0; c < 1; c++) {|test_modes.sh|miss-one: each row FAILED, the 4-program row on program 4
jit-read-first|bench_main|bpf_jit_read(\&(struct bpf_jit_state){});|;|test_overhead.sh|full: the JIT's settings, as the kernel says them
nothing-measured|exit_status|if (!ok) {|if (0) {|test_overhead.sh|only skipped rows: exit 1
ktap-exit-failed|ktap_exit_status|if (rows->row[i].out.status == ST_FAILED)|if (0)|test_ktap.sh:exit|fail: exit 1: kselftest's for these rows
ktap-exit-skip|ktap_exit_status|return ok ? 0 : EXIT_KSFT_SKIP;|return 0;|test_ktap.sh:exit|every row skipped .*: exit 4
ktap-skip-reason|write_ktap|"ok %d %s # SKIP %s|"ok %d %s # SKIP %.0s|test_ktap.sh:format|to: each test point has its row's name, status, reason or figure
json-tmp|output_open|err = open_tmp(o, \&st, exists);|o->f = fopen(o->target, "w"); err = o->f ? 0 : -errno;|test_outputs.sh:keep|lock busy: exit 1, the previous --json file kept
json-tmp-unlink|output_discard|unlink(o->tmp);|;|test_outputs.sh:keep|lock busy: exit 1, the previous --json file kept, nothing beside it
json-incomplete|finish|} else if (!complete) {|} else if (0) {|test_outputs.sh:keep|SIGTERM mid-run: exit 143, the previous file kept
json-signal-unlink|on_signal|unlink(sig_state.unlink_path);|;|test_outputs.sh:keep|SIGTERM while writing .*: exit 143, the previous --json file kept, nothing beside it
json-stale|remove_stale|if (!pid \|\| pid == getpid() \|\| !kill(pid, 0) \|\| errno != ESRCH)|if (1)|test_outputs.sh:keep|a completed run: the killed run's file removed, and named
json-mode|open_tmp|fchmod(fd, st->st_mode \& 07777);|;|test_outputs.sh:keep|a completed run: exit 0 or 3, the file its results, mode 640 kept
json-device|output_open|} else if (S_ISCHR(st.st_mode) \|\| S_ISFIFO(st.st_mode)) {|} else if (0) {|test_outputs.sh:keep|--json to a null device: exit 0, the device still there
json-link|find_target|if (!*exists \|\| !S_ISLNK(st->st_mode)) {|if (1) {|test_outputs.sh:keep|--json LINK: the link stays
json-link-dangling|find_target|*exists = !lstat(cur, st);|*exists = !stat(cur, st);|test_outputs.sh:paths|--json DANGLING-LINK: the link stays, its target made
json-link-protected|find_target|if (stat(path, st) \&\& errno != ENOENT)|if (0)|test_outputs.sh:paths|--json another user's link in a sticky directory
json-empty|parse_common|if (!arg[0]) {|if (0) {|test_outputs.sh:paths|--json '': exit 2
json-slash|output_open|o->target[strlen(o->target) - 1] == '/')) {|0)) {|test_outputs.sh:paths|--json NAME/: exit 1 before anything runs
json-dir|output_open|if (!exists \|\| S_ISREG(st.st_mode)) {|if (!exists \|\| !S_ISCHR(st.st_mode)) {|test_outputs.sh:paths|--json DIRECTORY: exit 1 before anything runs
json-fifo-wait|open_in_place|O_WRONLY \| O_NONBLOCK \| O_NOCTTY|O_WRONLY \| O_NOCTTY|test_outputs.sh:paths|--json FIFO nobody reads: exit 1 at once
lock-nofollow|lock_open|const int how = O_NOFOLLOW \| O_NONBLOCK \| O_CLOEXEC;|const int how = O_NONBLOCK \| O_CLOEXEC;|test_outputs.sh:lock|lock a symlink: exit 1
lock-nonblock|lock_open|const int how = O_NOFOLLOW \| O_NONBLOCK \| O_CLOEXEC;|const int how = O_NOFOLLOW \| O_CLOEXEC;|test_outputs.sh:lock|lock another user's FIFO, fs.protected_fifos=1: exit 1 at once
lock-regular|lock_open|if (S_ISREG(st.st_mode))|if (1)|test_outputs.sh:lock|lock a FIFO: exit 1
lock-holder-escaped|lock_holder|printable(tool), pid|tool, pid|test_outputs.sh:lock|lock held, its holder's text with controls
stdout-closed|flush_stdout|if (out->stdout_closed \&\& used) {|if (0) {|test_outputs.sh:status|--list --json - to a closed stdout: exit 1
compare-stdout|runner/cli/main.c:run_compare|if (flush_stdout(out, true))|if (0)|test_outputs.sh:status|--compare to /dev/full: exit 1
compare-json-open|bench_compare_to|if (!ret \&\& args->json \&\& open_json(out, args->json, json))|if (!ret \&\& args->json \&\& open_json(out, args->json, json) \&\& 0)|test_outputs.sh:status|--compare --json in a missing directory: exit 1
options-ways|check_ways|if (ways \& 1u << way)|if (1)|test_outputs.sh:options|bad argument --memory with -r, -w, -d
options-own-way|given_ways|if (g->common \&\& own_way_takes(fam, g->o->name))|if (0)|test_outputs.sh:options|test_overhead: each of [0-9]+ options refused
options-positional|check_options|return check_ways(fam, way, cl->given + options, cl->nr_given - options);|return 0;|test_outputs.sh:options|bad argument --list with nr_cpus
compare-values-range|check_numbers|if (!isfinite(x) \|\| fabs(x) > bound)|if (!isfinite(x))|test_outputs.sh:compare|--compare, units.values .1e308
compare-rounds-range|check_units|if (!json_is_number(v) \|\| !(x >= 0 \&\& x <= ROUND_MAX) \|\||if (!json_is_number(v) \|\||test_outputs.sh:compare|--compare, units.rounds .1e300
compare-rounds-integral|check_units|    x != floor(x))|    0)|test_outputs.sh:compare|--compare, units.rounds .0.5
compare-rounds-length|check_units|json_array_size(rounds) != json_array_size(values))|0)|test_outputs.sh:compare|--compare, fewer rounds than values
compare-pool-finite|runner/compare/compare.c:measure|if (!pool_finite(\&ch->st_a) \|\| !pool_finite(\&ch->st_b)) {|if (0) {|test_stats.sh|compare: units of 1e308, 1e308, -1e308, 1e308 pool past a double: cannot tell
compare-empty-units|poolable|if (!r->ok \|\| !r->quantity \|\| !r->units.n)|if (!r->ok \|\| !r->quantity)|test_stats.sh|no unit on a side .units.values ...: not compared, no units
compare-same-run|refuse_twice|if (same_run(\&s->files[i], f)) {|if (0) {|test_stats.sh|a copy of B's run given as another run of B is refused
ktap-early|end_early|write_ktap_early(stdout, cannot_run, bench_last_error());|;|test_ktap.sh:early|busy: exit 4 .*KTAP that says skip
ktap-early-skip|end_early|status = cannot_run ? EXIT_KSFT_SKIP :|status = cannot_run ? 1 :|test_ktap.sh:early|busy: exit 4
ktap-usage-fail|end_early|status == EXIT_USAGE ? 1 : status;|status;|test_ktap.sh:early|usage: exit 1
ktap-asked|parse_options|if (c == OPT_KTAP)|if (0)|test_ktap.sh:early|usage4: exit 1
lock-busy|bench_lock|err = -EBUSY;|err = -EAGAIN;|test_ktap.sh:early|busy: exit 4
privileges-skip|bench_main|return end_early(\&out, 1, true);|return end_early(\&out, 1, false);|test_ktap.sh:early|nopriv: exit 4
memory-charge|check|if (m->total < m->bound) {|if (0) {|test_map_memory.sh:fault|memcg-outside: every row FAILED
memory-filled|check|if (m->filled < m->entries \&\&|if (0 \&\&|test_map_memory.sh:fault|short-fill: FAILED
memory-churn-added|churn|if (!err \&\& added < m->entries) {|if (0) {|test_map_memory.sh:fault|short-churn: hash and lru_hash FAILED, 999 of 1000 put back
memory-churn-delete|delete_keys|if (!bpf_map_delete_elem(fd, key)) {|if (!bpf_map_delete_elem(fd, key) \|\| 1) {|test_map_memory.sh:fault|stray-delete: hash FAILED, the churn's failed delete named
memory-churn-lru-only|delete_keys|if (err == -ENOENT \&\& is_lru(k))|if (err == -ENOENT)|test_map_memory.sh:fault|stray-delete: hash FAILED, the churn's failed delete named
session-start-signal|row_session|return bench_interrupted() ? -EINTR : 0;|return 0;|test_matrix.sh:sigstart|sigstart: ended in
stats-start-signal|stats_sample|return bench_interrupted() ? -EINTR : 0;|return 0;|test_matrix.sh:sigstats|SIGTERM while --prog-stats' workers set up: nothing printed
own-write-pipe|own_write_failed|si->si_code == SI_USER \&\& si->si_pid == getpid();|0;|test_outputs.sh:broken|stdout a pipe whose reader is gone: exit 1
own-write-xfsz|own_write_failed|(sig == SIGPIPE \|\| sig == SIGXFSZ) \&\& si \&\&|sig == SIGPIPE \&\& si \&\&|test_outputs.sh:broken|--json past RLIMIT_FSIZE: exit 1
own-write-sender|own_write_failed|si->si_pid == getpid();|1;|test_matrix.sh:hostile-signals|hs-map-measure-PIPE-early: ended in
rt-signals-end|ends_run|if (sig >= SIGRTMIN \&\& sig <= SIGRTMAX)|if (0)|test_matrix.sh:hostile-signals|hs-to-ktap-RTMIN-printing: ended in
signal-name-rt|signal_name|n = sig - SIGRTMIN;|n = sig;|test_matrix.sh:hostile-signals|hs-to-ktap-RTMIN-printing: ended in
child-signal-defaults|child_defaults|child_signal_actions();|;|test_faults.sh:childsig|a worker sent SIGUSR1 dies of it
stdout-keeps-json|runner/cli/main.c:run|err = -EIO;|ret = 1;|test_outputs.sh:broken|stdout full, --json FILE: exit 1, one line, the previous --json kept
list-stdout-once|run_list|else if (flush_stdout(out, to_stdout))|if (flush_stdout(out, to_stdout))|test_outputs.sh:broken|--list --json - to /dev/full: exit 1, one line
help-flushed|bench_main|return flush_stdout(\&out, true);|return 0;|test_outputs.sh:broken|./test_overhead --help to /dev/full: exit 1
run-error-not-signal|exit_run_failed|if (bench_interrupted())|if (1)|test_faults.sh:nomem|no-memory: exit 1, the error said as one
worker-frozen|held_by|return task_frozen(pid);|return NULL;|test_matrix.sh:frozen|frozen: ended in
worker-frozen-v1|task_frozen|if (task_cgroup_dir(pid, "freezer", dir, sizeof(dir)))|if (1)|test_matrix.sh:frozen1|frozen1: ended in
worker-thaw|child_kill|thaw_out(pid);|;|test_matrix.sh:frozen1|frozen1: ended in
consumer-why-kept|consumer_failed|if (c->taken_err != -ETIMEDOUT \|\| !c->taken_why[0])|if (c->taken_err != -ETIMEDOUT \|\| !c->why[0])|test_matrix.sh:kinds|consumer-frozen1-unit: ended in
worker-asleep|task_stuck|if (progress) {|if (progress \|\| ps.state == 'S') {|test_matrix.sh:asleep|asleep: ended in
first-deadline|pool_run|deadline_ns = first_deadline_ns(pool, count);|deadline_ns = ~0ull / 2;|test_matrix.sh:endless|endless: ended in
creator-watched|hear|task_stuck(\&watch, c->pid, deadline, why, sizeof(why))|0|test_matrix.sh:creator|creator: ended in
creator-died|hear|creator_died(c);|;|test_matrix.sh:creatorkill|creatorkill: ended in
creator-abandon|creator_exit|memcg_abandon(\&m->cg);|;|test_matrix.sh:killed|killed: ended in
stale-removed|memcg_create|remove_stale_cgroups(cg->parent);|;|test_matrix.sh:killed|a killed run's --memory cgroup: removed by the next run
consumer-timed|consumer_stop|if (!joined_within(c, STOP_WAIT_NS)) {|if (pthread_join(c->thread, NULL)) {|test_matrix.sh:kinds|consumer-frozen1: ended in
consumer-thawed|consumer_stop|thaw_out(tid);|;|test_matrix.sh:kinds|consumer-frozen1: ended in
pool-stopped|pool_run|if (!pool->go) {|if (0) {|test_stats.sh|pool: a stopped pool runs nothing
cycle-cpus-cmdline|parse_cpus|if (parse_u64(s, 1, allowed->nr, \&n))|if (parse_u64(s, 1, allowed->nr, \&n) \|\| (!n \&\& bench_count_arg(NULL, s, 1, "CPUs")))|test_layers.sh|runner: no cycle between runner objects
layers-need-up|parse_cpus|if (parse_u64(s, 1, allowed->nr, \&n))|if (parse_u64(s, 1, allowed->nr, \&n) \|\| (!n \&\& bench_count_arg(NULL, s, 1, "CPUs")))|test_layers.sh|runner: no folder's object needs a higher one's symbol
layers-include-up|runner/core/msg.c:|#include <string.h>|#include "cli/cli.h"|test_layers.sh|runner: no folder includes a higher one's header
global-unlisted|printable|char *buf = msg.quoted[msg.next++ \& 1];|static unsigned int next; char *buf = msg.quoted[next++ \& 1];|test_layers.sh|runner: writable file-scope variables only those listed with why
family-global-unlisted|overhead/json.c:json_context|const struct overhead_ctx *oc = overhead_ctx(rs);|static const struct overhead_ctx *oc; oc = overhead_ctx(rs);|test_layers.sh|families: writable file-scope variables only those listed with why
pool-well|worker_well|if (read_proc_state(pid, \&ps) \|\| (ps.state != 'S' \&\& ps.state != 'R') \|\||if (read_proc_state(pid, \&ps) \|\||test_stats.sh|pool: a kept pool is well as forked
kept-pool-well|session_start|pool_well(\&rp->pool)) {|1) {|test_faults.sh:kept|a kept worker stopped between sessions: both rows ran
fleet-origin|tools/bench-fleet.py:kcidb_main|if not ORIGIN_RE.match(args.origin):|if False:|test_fleet.sh:kcidb|bench-fleet kcidb --origin My-CI: exit 2
fleet-disturbed-figure|tools/bench-fleet.py:figure|if row.get("status") != "ok":|if False:|test_fleet.sh:kcidb|the report: one test a row, ok DONE
fleet-names|tools/bench-fleet.py:parts|return [PART_BAD.sub("_", str(p)) or "_" for p in ps]|return [str(p) or "_" for p in ps]|test_fleet.sh:lava|names: test_overhead.uprobe_s.uprobe-push
fleet-names-unique|tools/bench-fleet.py:case_names|names.append(n if seen[n] == 1 else "%s-%d" % (n, seen[n]))|names.append(n)|test_fleet.sh:lava|names: two rows that would share one
fleet-schema|tools/bench-fleet.py:load|doc.get("schema") != "bpf-bench/1" or|False or|test_fleet.sh:kcidb|bench-fleet kcidb on other.json, no run's --json: exit 2
fleet-reason|tools/bench-fleet.py:lava_report|if why:|if False:|test_fleet.sh:lava|a FAILED row .miss-odd.: fail, no measurement, its reason printed before
kcidb-required|tests/kcidb.py:required|if k not in o:|if False:|test_fleet.sh:kcidb|KCIDB v5.3 rules: a test without its build_id fails
kcidb-pattern|tests/kcidb.py:value|elif not kind.match(v):|elif False:|test_fleet.sh:kcidb|KCIDB v5.3 rules: an id of an upper-case origin fails
kcidb-status|tests/kcidb.py:value|if v not in STATUSES:|if False:|test_fleet.sh:kcidb|KCIDB v5.3 rules: a status not in the enum
kcidb-id-origin|tests/kcidb.py:links|if o["id"].split(":", 1)[0] != o.get("origin"):|if False:|test_fleet.sh:kcidb|KCIDB v5.3 rules: an id of another origin fails
kcidb-link|tests/kcidb.py:links|if isinstance(o, dict) and key in o and o[key] not in ids[parent]:|if False:|test_fleet.sh:kcidb|KCIDB v5.3 rules: a test of a build not in the report fails
kcidb-done-number|tests/kcidb.py:links|if isinstance(t, dict) and t.get("status") == "DONE" and "number" not in t:|if False:|test_fleet.sh:kcidb|KCIDB v5.3 rules: DONE without its number fails
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
	local dir=$1 test=${2%%:*} section='' pid fifo
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

# mutate DIR FUNC OLD NEW: the mutation made in DIR (tests/mutate.py
# says how a function is found), or said and non-zero when it does not
# apply
mutate() {
	python3 "$TOP/tests/mutate.py" "$@"
}

# the mutations asked (all, or those named), each as tests/mutate.py
# --dry-run reads them: name, function, old and new, each ended by a NUL
asked() {
	local name func old new test check

	# read without -r: \| and \& in the table are a | and an & in the code
	while IFS='|' read name func old new test check; do
		[ -n "$name" ] || continue
		if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
			continue
		fi
		printf '%s\0%s\0%s\0%s\0' "$name" "$func" "$old" "$new"
	done <<<"$MUTATIONS"
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
# named again at the end: a log's tail says which
missed=
declare -A bad
# whether each applies, changing nothing: one that no longer does is
# said at once, before an hour of runs
total=$(asked "$@" | tr -cd '\0' | wc -c)
total=$((total / 4))
while IFS= read -r line; do
	name=${line%%: *}
	echo "INVALID  $name: does not apply: ${line#*: }"
	bad[$name]=1
	missed="$missed $name"
	invalid=$((invalid + 1))
done < <(asked "$@" | python3 "$TOP/tests/mutate.py" --dry-run "$TOP")
for n in "$@"; do
	grep -q "^$n|" <<<"$MUTATIONS" && continue
	echo "INVALID  $n: no such mutation"
	missed="$missed $n"
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

# the mutants to try, in the table's order: N (name), F (function),
# O (old), W (new), T (test[:section]), C (check)
N=() F=() O=() W=() T=() C=()
while IFS='|' read name func old new test check; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
		continue
	fi
	[ -z "${bad[$name]}" ] || continue
	N+=("$name") F+=("$func") O+=("$old") W+=("$new") T+=("$test") C+=("$check")
done <<<"$MUTATIONS"

# prepare I: mutant I made in a copy of the built tree, $SCRATCH/NAME,
# and built there (make rebuilds only what its change touches: the copy
# keeps the objects and their times); then $SCRATCH/NAME.ready says
# "ok" or why it cannot be tried
prepare() {
	local dir=$SCRATCH/${N[$1]} why=ok err

	cp -a "$base" "$dir"
	if ! err=$(mutate "$dir" "${F[$1]}" "${O[$1]}" "${W[$1]}" 2>&1); then
		why="does not apply: $err"
	elif ! make -C "$dir" -s -j2 all testing >/dev/null 2>&1; then
		why="the mutant does not build"
	fi
	[ "$why" = ok ] || rm -rf "$dir"
	echo "$why" >"$dir.why" && mv "$dir.why" "$dir.ready"
}

# builder: prepares each mutant in turn, at most AHEAD of them ready and
# not yet taken, while the tests run: the builds take the CPU time the
# tests leave idle (SCHED_IDLE: a build never takes a CPU a test's run
# wants, which would disturb its rows), instead of a build's seconds
# between one mutant's test and the next
AHEAD=3
builder() {
	local i ready

	trap 'exit 0' TERM
	chrt -i -p 0 "$BASHPID" >/dev/null 2>&1
	for i in "${!N[@]}"; do
		while :; do
			ready=("$SCRATCH"/*.ready)
			[ -e "${ready[0]}" ] && [ "${#ready[@]}" -ge "$AHEAD" ] || break
			sleep 0.2
		done
		prepare "$i"
	done
}
builder &
BUILDER=$!
# (a build in progress ends before the builder does: its TERM waits);
# ended by a signal, the script still ends its builder and removes its
# copies
trap 'kill "$BUILDER" 2>/dev/null; wait "$BUILDER"; rm -rf "$SCRATCH"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# taken I: waits for mutant I's preparation; prints its verdict
taken() {
	local f=$SCRATCH/${N[$1]}.ready

	while [ ! -e "$f" ]; do
		if ! kill -0 "$BUILDER" 2>/dev/null; then
			[ -e "$f" ] || { echo "never prepared"; return; }
			break
		fi
		sleep 0.1
	done
	cat "$f"
	rm -f "$f"
}

# the tree as it is: each test (and section) once, until all the checks
# its mutants name have reported
declare -A checks baseline
for i in "${!N[@]}"; do
	checks[${T[i]}]+="${C[i]}"$'\n'
done
for test in "${!checks[@]}"; do
	mapfile -t cs <<<"${checks[$test]%$'\n'}"
	mapfile -t lines < <(run_until "$base" "$test" "${cs[@]}")
	for i in "${!cs[@]}"; do
		baseline["$test|${cs[i]}"]=${lines[i]}
	done
done
echo "baselines: $(($(date +%s) - start)) s"

for i in "${!N[@]}"; do
	name=${N[i]} test=${T[i]} check=${C[i]}
	t0=$(date +%s)
	why=$(taken "$i")
	dir=$SCRATCH/$name
	case ${baseline["$test|$check"]} in
	"ok - # SKIP"*)
		echo "INVALID  $name: '$check' skips on the tree as it is: ${baseline["$test|$check"]}"
		missed="$missed $name"
		invalid=$((invalid + 1))
		rm -rf "$dir"
		continue ;;
	"ok - "*) ;;
	*)
		echo "INVALID  $name: '$check' does not pass on the tree as it is: ${baseline["$test|$check"]:-never reported}"
		missed="$missed $name"
		invalid=$((invalid + 1))
		rm -rf "$dir"
		continue ;;
	esac
	if [ "$why" != ok ]; then
		echo "INVALID  $name: $why"
		missed="$missed $name"
		invalid=$((invalid + 1))
		continue
	fi
	line=$(run_until "$dir" "$test" "$check")
	# a fault aimed by the machine's timing (a stop meant for the row's
	# sample that lands in a base sample) can miss once: a mutant that
	# survives is tried once more, and survives only twice
	[[ $line == "not ok - "* ]] || line=$(run_until "$dir" "$test" "$check")
	rm -rf "$dir"
	case $line in
	"not ok - "*)
		echo "killed   $name ($(($(date +%s) - t0)) s): ${line#not ok - }"
		killed=$((killed + 1)) ;;
	*)
		echo "SURVIVED $name ($(($(date +%s) - t0)) s): ${line:-'$check' never reported}"
		missed="$missed $name"
		survived=$((survived + 1)) ;;
	esac
done
msg="mutation check: $killed of $total mutants killed, in $(($(date +%s) - start)) s"
[ "$killed" -eq "$total" ] || msg="$msg ($survived survived, $invalid invalid:$missed)"
echo "$msg"
[ "$killed" -eq "$total" ]
