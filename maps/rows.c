// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's rows: a row per selected test, method and value of
 * each sweep, after the base rows the tests are measured against; and
 * the method -a auto picks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "maps/map_perf.h"

bool test_selected(const struct map_options *opt, int t)
{
	if (opt->tests_given && !opt->test_on[t])
		return false;
	if (opt->flags && !(opt->flags & (1ull << t)))
		return false;
	/* --miss alone keeps the tests it applies to */
	return !opt->miss || tests[t].miss;
}

/*
 * -a auto: the first method that loads array_lookup's program, the
 * lightest. A method that fails for a reason other than the kernel's
 * stops the search: a fallback must not hide a bug.
 */
int pick_method(const struct run_settings *rs, struct outcome *none)
{
	char why[4 * REASON_LEN];
	struct outcome out;
	struct map_row r;
	size_t off = 0;
	int m, err;

	why[0] = '\0';
	for (m = 0; m < NR_METHODS; m++) {
		memset(&r, 0, sizeof(r));
		memset(&out, 0, sizeof(out));
		r.test = &tests[ARRAY_LOOKUP];
		r.method = &methods[m];
		err = open_test(rs, NULL, &r, &out);
		map_perf_test_kern__destroy(r.skel);
		if (!err) {
			/* a line each, that a terminal need not wrap */
			if (why[0])
				pr_note("auto attach: using %s",
					methods[m].name);
			return m;
		}
		pr_note("auto attach: %s %s: %s", methods[m].name,
			status_name(out.status), out.reason);
		off += snprintf(why + off, off < sizeof(why) ? sizeof(why) - off : 0,
				"%s%s %s: %s", off ? "; " : "", methods[m].name,
				status_name(out.status), out.reason);
		if (out.status == ST_FAILED)
			break;
	}
	outcome_set(none, m < NR_METHODS ? ST_FAILED : ST_SKIPPED,
		    "no attach method works here: %.150s", why);
	return -1;
}

/*
 * The CPU lists rows run on: the first n of the selected CPUs, n = 1 ..
 * all (at most MAP_MAX_CPUS: setup() said so). They share the selected
 * list's array.
 */
void make_prefixes(struct map_ctx *mc, const struct cpu_list *selected)
{
	int n;

	for (n = 1; n <= selected->nr; n++)
		mc->prefix_cpus[n - 1] = (struct cpu_list){ n, selected->cpu };
}

/*
 * How many workers each row of @test has: every selected CPU, or with
 * --scale 1, 2, ... of them; a buffer's consumer takes the last CPU.
 * The counts in @nr (ascending); how many there are.
 */
static int worker_counts(const struct run_settings *rs,
			 const struct map_test *test, bool all, int *nr)
{
	int most = rs->cpus.nr - has_consumer(test), n, k = 0;

	if (all || most < 1)
		return 0;
	for (n = map_opts(rs)->scale ? 1 : most; n <= most; n++)
		nr[k++] = n;
	return k;
}

/* the syscall with nothing attached, once per syscall and worker count */
struct bench_row *base_row(const struct run_settings *rs,
			   struct bench_rows *rows, int t,
			   const struct cpu_list *cpus)
{
	struct bench_row *row;
	int i;

	for (i = 0; i < rows->nr; i++)
		if (!rows->row[i].runs_prog && rows->row[i].cpus == cpus &&
		    !strcmp(rows->row[i].variant, tests[t].syscall))
			return &rows->row[i];
	row = bench_add_row(rows, "base", tests[t].syscall);
	if (!row)
		return NULL;
	row->cpus = cpus;
	row->trigger = &tests[t].trigger;
	row->count = DEFAULT_COUNT;
	/* a buffer's producers leave the consumer a CPU: their base too */
	if (map_opts(rs)->scale || cpus->nr != rs->cpus.nr)
		row_add_param(row, "cpus", cpus->nr);
	return row;
}

/* the row's parameters, in JSON and --compare: what tells its curve */
static void add_params(const struct map_options *opt, struct bench_row *row,
		       const struct map_test *test,
		       const struct row_settings *set)
{
	if (set->entries)
		row_add_param(row, "entries", set->entries);
	if (set->key_size)
		row_add_param(row, "key_size", set->key_size);
	if (test->takes & TAKES_RECORDS) {
		/* adaptive as -1: the kernel's own choice, not a count */
		row_add_param(row, "wakeup", set->wakeup == WAKEUP_ADAPTIVE ?
			      -1 : (long long)set->wakeup);
		row_add_param(row, "record_size", set->record_size);
	}
	if (opt->scale)
		row_add_param(row, "cpus", row->cpus->nr);
}

static struct bench_row *add_test_row(const struct map_options *opt,
				      struct bench_rows *rows, int t, int m,
				      struct outcome *why,
				      const struct row_settings *set,
				      const struct cpu_list *cpus)
{
	const struct map_test *test = &tests[t];
	struct bench_row *row;
	struct map_row *r;

	r = calloc(1, sizeof(*r));
	row = bench_add_row(rows, test->name, test->kind->shape == SHAPE_SYSCALL ?
			    "syscall" : m >= 0 ? methods[m].name : "auto");
	if (!r || !row)
		return NULL;
	r->test = test;
	r->method = m >= 0 && test->kind->shape != SHAPE_SYSCALL ? &methods[m] : NULL;
	r->set = *set;
	r->sys_fd = -1;
	r->trig = test->trigger;
	r->lru_range = set->entries > LRU_LOOKUP_SPAN ? set->entries :
		       LRU_LOOKUP_SPAN;
	r->trig.arg = test->kind->shape == SHAPE_SYSCALL ? (void *)&r->sys :
		      (void *)&r->lru_range;
	if (test->kind->shape == SHAPE_SYSCALL && test->sys_op >= SYS_BATCH_LOOKUP)
		r->trig.events_per_call = set->entries ?: SYS_ENTRIES;
	row->priv = r;
	row->cpus = cpus;
	row->trigger = &r->trig;
	row->count = test->count ?: DEFAULT_COUNT;
	/*
	 * A wake-up every few records costs a wake-up of the consumer each
	 * (every record: 140 us a syscall here, against 4 us with one every
	 * 64): fewer syscalls a sample, for about as long a sample
	 */
	if (has_consumer(test) && set->wakeup != WAKEUP_ADAPTIVE &&
	    set->wakeup != WAKEUP_POLL && set->wakeup < RECORDS_PER_CALL)
		row->count = row->count * set->wakeup / RECORDS_PER_CALL;
	/*
	 * How a buffer's consumer keeps up depends on how long it runs:
	 * paced samples (0.01 s) gave these rows 13-54% below their own
	 * counts' (wakeup 64 and adaptive; 4 alternating runs of paced and
	 * unpaced builds, 2026-12-02), beyond their spread. The other rows
	 * agreed within it.
	 */
	row->unpaced = has_consumer(test);
	/*
	 * Where the kernel puts a map's memory changes its speed: one load
	 * of percpu_hash_kmalloc measured 36.5 ns/op, another 99.6, in runs
	 * 20 s apart. A map loaded afresh each session makes a run's figure
	 * an average over loads (52.6-54.5 in 4 runs), and its interval
	 * shows their spread.
	 */
	row->reload = true;
	row->runs_prog = true;
	add_params(opt, row, test, set);
	if (why && why->status != ST_OK)
		row->out = *why;
	return row;
}

/* a sweep's values, or the one default when it does not apply */
static const struct sweep *sweep_or(const struct sweep *sw, bool applies,
				    __u64 dflt, struct sweep *one)
{
	*one = (struct sweep){ .nr = 1, .v = { dflt } };
	return applies && sw->nr ? sw : one;
}

static const char KEY_SIZE_REFUSED[] = "--key-size below its keys' size";

/* whether a row of @test at @set can be made at all: NULL, or why not */
static const char *row_refused(const struct map_test *test,
			       const struct row_settings *set)
{
	/* the perf buffer's wake-ups are the perf event's: no adaptive */
	if (test->kind->shape == SHAPE_PERFBUF && set->wakeup == WAKEUP_ADAPTIVE)
		return "--wakeup adaptive: a perf buffer's wake-ups are its perf event's, never adaptive";
	if (set->key_size && set->key_size < test->min_key_size)
		return KEY_SIZE_REFUSED;
	return NULL;
}

/*
 * Whether the options leave any selected test a row to measure (a base
 * row alone measures nothing): false with one line saying why, the
 * last test's reason, before the lock or any probe.
 */
bool rows_possible(const struct map_options *opt)
{
	const struct map_test *test = NULL;
	struct row_settings set = {};
	const struct sweep *K, *W;
	struct sweep o1, o2;
	const char *why = NULL;
	int t, k, w;

	for (t = 0; t < NR_TESTS; t++) {
		if (!test_selected(opt, t))
			continue;
		test = &tests[t];
		K = sweep_or(&opt->key_size, test->takes & TAKES_KEY_SIZE, 0, &o1);
		W = sweep_or(&opt->wakeup, test->takes & TAKES_RECORDS,
			     WAKEUP_EVERY, &o2);
		for (k = 0; k < K->nr; k++)
			for (w = 0; w < W->nr; w++) {
				set.key_size = K->v[k];
				set.wakeup = W->v[w];
				why = row_refused(test, &set);
				if (!why)
					return true;
			}
	}
	if (!test || !why)
		return true;
	if (why == KEY_SIZE_REFUSED)
		pr_err("nothing to measure: -t %s: --key-size %u leaves it no row (its keys need %u bytes or more)",
		       test->name, set.key_size, test->min_key_size);
	else
		pr_err("nothing to measure: -t %s: %s", test->name, why);
	return false;
}

/* every row of test @t with method @m: one per value of each sweep */
int add_test_rows(const struct run_settings *rs,
		  struct bench_rows *rows, int t, int m,
		  struct outcome *why, bool all)
{
	const struct map_options *opt = map_opts(rs);
	struct cpu_list *prefix_cpus = map_ctx(rs)->prefix_cpus;
	const struct map_test *test = &tests[t];
	struct sweep o1, o2, o3, o4;
	const struct sweep *E, *K, *W, *R;
	struct row_settings set = { .consumer_cpu = -1 };
	struct outcome alone = {};
	int e, k, w, r, c, nc, nr[MAP_MAX_CPUS];

	E = sweep_or(&opt->entries, !all && test->takes & TAKES_ENTRIES, 0, &o1);
	K = sweep_or(&opt->key_size, !all && test->takes & TAKES_KEY_SIZE, 0,
		     &o2);
	/* each buffer's default as libbpf's user gets it; --wakeup sweeps */
	W = sweep_or(&opt->wakeup, !all && test->takes & TAKES_RECORDS,
		     test->kind->shape == SHAPE_PERFBUF ? WAKEUP_EVERY :
		     WAKEUP_ADAPTIVE, &o3);
	R = sweep_or(&opt->record_size, !all && test->takes & TAKES_RECORDS,
		     DEFAULT_RECORD_SIZE, &o4);
	nc = worker_counts(rs, test, all, nr);
	if (has_consumer(test) && !all && rs->cpus.nr < 2)
		outcome_set(&alone, ST_SKIPPED,
			    "one CPU selected: the consumer needs one of its own beside the producers' (-c 2 or more)");
	if (has_consumer(test) && rs->cpus.nr >= 2)
		set.consumer_cpu = rs->cpus.cpu[rs->cpus.nr - 1];
	if (!nc) {
		/* --list, or a row that says why it cannot run */
		set.wakeup = W->v[0];
		set.record_size = R->v[0];
		return add_test_row(opt, rows, t, m, alone.status ? &alone : why,
				    &set, &rs->cpus) ? 0 : -ENOMEM;
	}
	for (e = 0; e < E->nr; e++)
	for (k = 0; k < K->nr; k++)
	for (w = 0; w < W->nr; w++)
	for (r = 0; r < R->nr; r++)
	for (c = 0; c < nc; c++) {
		set.entries = E->v[e];
		set.key_size = K->v[k];
		set.wakeup = W->v[w];
		set.record_size = R->v[r];
		if (row_refused(test, &set))
			continue;
		if (!add_test_row(opt, rows, t, m, why, &set,
				  &prefix_cpus[nr[c] - 1]))
			return -ENOMEM;
	}
	return 0;
}

/* base rows first, for every worker count a test of a syscall uses */
int add_base_rows(const struct run_settings *rs,
		  struct bench_rows *rows, bool all)
{
	struct cpu_list *prefix_cpus = map_ctx(rs)->prefix_cpus;
	int t, c, nc, nr[MAP_MAX_CPUS];

	for (t = 0; t < NR_TESTS; t++) {
		if (!test_selected(map_opts(rs), t) ||
		    tests[t].kind->shape == SHAPE_SYSCALL)
			continue;
		nc = worker_counts(rs, &tests[t], all, nr);
		if (!nc && !base_row(rs, rows, t, &rs->cpus))
			return -ENOMEM;
		for (c = 0; c < nc; c++)
			if (!base_row(rs, rows, t, &prefix_cpus[nr[c] - 1]))
				return -ENOMEM;
	}
	return 0;
}

void note_skipped_sizes(const struct map_options *opt)
{
	int k, t;

	for (k = 0; k < opt->key_size.nr; k++)
		for (t = 0; t < NR_TESTS; t++)
			if (opt->key_size.v[k] < tests[t].min_key_size &&
			    test_selected(opt, t))
				pr_note("--key-size %llu: %s's keys need %u bytes or more; it runs at the other sizes",
					opt->key_size.v[k], tests[t].name,
					tests[t].min_key_size);
}
