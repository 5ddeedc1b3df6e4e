// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test: how fast BPF programs operate on each map type. Every
 * worker repeats one syscall on its own CPU; a BPF program attached to that
 * syscall does the test's map work, for the workers' processes only, and
 * counts what it did. A figure is shown only when those counts prove the
 * work was done: the program ran once per syscall on every worker's CPU,
 * lookups found what they should, updates succeeded. The same syscall
 * with nothing attached is measured too, so that a map operation's cost
 * is shown without the syscall's.
 *
 * This file is the family: its attach methods, its options and the
 * callbacks that glue them and its tests (maps/tests.c) to the runner
 * (cli/main.c), which does the rest. Each kind of test fills, verifies
 * and reports in maps/, one job a file (maps/map_perf.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "maps/map_perf.h"
#include "maps/memory.h"

#define MAX_COUNT	10000000000ull

/* ---- attach methods ---- */

/*
 * -a auto tries them in this order: upstream's kprobes first, then the
 * syscall's function, then sys_enter. A syscall tracepoint is perf's own
 * hook on sys_enter, the syscall picked by a bitmap: raw_tp is the same
 * hook with the pick in the program, and comes first. Its link also
 * detaches at once, where closing a tracepoint's perf event waits for
 * the tracepoint's RCU grace periods (78 ms on a 2-CPU VM, for every
 * sample of every row). -a tracepoint still runs the tracepoints.
 */
const struct attach_method methods[NR_METHODS] = {
	{ "kprobe", &kind_ksyscall },
	{ "fentry", &kind_fentry },
	{ "raw_tp", &kind_raw_tp },
	{ "tracepoint", &kind_tracepoint },
};

/* ---- options ---- */

enum {
	OPT_MISS = 0x200,
	OPT_KEY_SIZE,
	OPT_SCALE,
	OPT_WAKEUP,
	OPT_RECORD_SIZE,
	OPT_MEMORY,
};

static const struct bench_option options[] = {
	{ "tests", 't', "LIST", "tests to run, comma-separated (default: all)",
	  IN_RUN | IN_LIST },
	{ "entries", 'E', "LIST",
	  "map sizes: each test with a map to size runs at\n"
	  "each, e.g. 1000,10000,100000 (0: keep sizes)", IN_RUN | IN_OWN },
	{ "key-size", OPT_KEY_SIZE, "LIST",
	  "key sizes in bytes (4 to 256) for the hash and\n"
	  "LPM tests, each run at each (LPM: 5 or more)", IN_RUN },
	{ "scale", OPT_SCALE, NULL,
	  "run each test on 1, 2, ... all the selected CPUs\n"
	  "and report the rate per CPU at each count", IN_RUN },
	{ "wakeup", OPT_WAKEUP, "LIST",
	  "ring/perf buffer wake-ups: every (each record),\n"
	  "poll (none: the consumer polls), N (every Nth\n"
	  "record), adaptive (ring buffer: the kernel's\n"
	  "default) (default: adaptive for the ring buffer,\n"
	  "every for the perf buffer, libbpf's defaults)", IN_RUN },
	{ "record-size", OPT_RECORD_SIZE, "LIST",
	  "ring/perf buffer record sizes in bytes, 16 to\n"
	  "4096 in steps of 8 (default 64)", IN_RUN },
	{ "attach", 'a', "LIST",
	  "how the programs see the syscalls: kprobe (ksyscall,\n"
	  "as upstream), fentry, raw_tp (sys_enter),\n"
	  "tracepoint (sys_enter_<name>), a list of them, all,\n"
	  "or auto (default): the first of them that works here",
	  IN_RUN | IN_LIST },
	{ "memory", OPT_MEMORY, "LIST",
	  "no speed: the memory each map kind is charged,\n"
	  "filled to each --entries size (default 1000,65536),\n"
	  "per element, from a memory cgroup of its own, beside\n"
	  "memlock; all, or kinds comma-separated (--list)",
	  IN_OWN | IN_LIST_OWN },
	{ "miss", OPT_MISS, NULL,
	  "look up absent keys on purpose (lpm_kmalloc,\n"
	  "hash_lookup, lru_hash_lookup): every lookup must miss",
	  IN_RUN | IN_LIST },
	{}
};

/* the runner's options --memory takes: it has no workers, no samples */
static const char *const memory_takes[] = {
	"json", "ktap", "lock-wait", NULL
};

static int parse_methods(struct map_options *opt, const char *s)
{
	const char *names[NR_METHODS];
	int i;

	opt->methods_given = strcmp(s, "auto");
	if (!opt->methods_given)
		return 0;
	if (!strcmp(s, "all")) {
		for (i = 0; i < NR_METHODS; i++)
			opt->method_on[i] = true;
		return 0;
	}
	for (i = 0; i < NR_METHODS; i++)
		names[i] = methods[i].name;
	return parse_name_list(s, "attach method", names, NR_METHODS,
			       opt->method_on);
}

static int parse_option(void *ctx, int key, const char *arg)
{
	struct map_options *opt = &((struct map_ctx *)ctx)->opt;
	const char *test_names[NR_TESTS];
	int t;

	switch (key) {
	case 't':
		for (t = 0; t < NR_TESTS; t++)
			test_names[t] = tests[t].name;
		opt->tests_given = true;
		return parse_name_list(arg, "test", test_names, NR_TESTS,
				       opt->test_on);
	case 'E':
		return parse_entries(&opt->entries, arg, "map entries", true);
	case OPT_KEY_SIZE:
		return parse_sweep(arg, "--key-size", 4, MAX_KEY_SIZE, 1,
				   &opt->key_size);
	case OPT_SCALE:
		opt->scale = true;
		return 0;
	case OPT_WAKEUP:
		return parse_wakeup(&opt->wakeup, arg);
	case OPT_RECORD_SIZE:
		return parse_sweep(arg, "--record-size", MIN_RECORD_SIZE,
				   MAX_RECORD_SIZE, 8, &opt->record_size);
	case 'a':
		return parse_methods(opt, arg);
	case OPT_MISS:
		opt->miss = true;
		return 0;
	case OPT_MEMORY:
		return parse_memory_kinds(opt, arg);
	}
	return -1;
}

/* the positional arguments, upstream's order; each given once */
static int parse_args(void *ctx, struct cmdline *cl, int argc, char **argv)
{
	struct map_options *opt = &((struct map_ctx *)ctx)->opt;
	int t;

	if (argc > 4) {
		pr_err("too many arguments (see --help)");
		return -1;
	}
	if (argc > 0 && parse_u64(argv[0], 1, ~0ull, &opt->flags)) {
		pr_err("bad test_flags '%s': a non-zero number such as 0x180",
		       printable(argv[0]));
		return -1;
	}
	if (opt->flags >> NR_TESTS) {
		pr_err("test_flags 0x%llx: bits 0x%llx select nothing (see --help)",
		       opt->flags, opt->flags & ~((1ull << NR_TESTS) - 1));
		return -1;
	}
	if ((argc > 1 && bench_cpus_arg(cl, argv[1], "nr_cpus")) ||
	    (argc > 2 && parse_entries(&opt->entries, argv[2],
					   "num_map_entries", false)) ||
	    (argc > 3 && bench_count_arg(cl, argv[3], MAX_COUNT, "max_cnt")))
		return -1;
	if (argc > 2)
		bench_positional_as(cl, 'E', "num_map_entries");
	/* the options' ways are the runner's table; test_flags are tests */
	if (opt->memory && opt->flags) {
		pr_err("test_flags do not apply to --memory, only to a run and --list");
		return -1;
	}
	if (opt->memory && !memory_rows_possible(opt)) {
		pr_err("nothing selected: task_storage runs at --entries up to %d only",
		       MEM_MAX_TASKS);
		return -1;
	}
	for (t = 0; opt->miss && opt->tests_given && t < NR_TESTS; t++) {
		if (opt->test_on[t] && !tests[t].miss) {
			pr_err("--miss applies to lpm_kmalloc, hash_lookup and lru_hash_lookup, not %s",
			       tests[t].name);
			return -1;
		}
	}
	/* a usage error, said before the lock, privileges or any probe */
	for (t = 0; t < NR_TESTS && !test_selected(opt, t); t++)
		;
	if (t == NR_TESTS) {
		pr_err("nothing selected: test_flags, -t and --miss leave no test");
		return -1;
	}
	/* a selection whose every row the options leave out, but its base */
	if (!opt->memory && !rows_possible(opt))
		return -1;
	return 0;
}

/*
 * --list: every test with its bit, syscall and help, the bits free (a
 * test's bit is its number, so a new test takes the first), and the
 * attach methods: what the manual's tables (make docs) and the shell's
 * completion are made from
 */
static void list_doc(json_t *root)
{
	json_t *a = json_array();
	int t;

	for (t = 0; t < NR_TESTS; t++)
		json_array_append_new(a, json_pack("{s:s, s:i, s:s?, s:s}",
			"name", tests[t].name, "bit", t,
			"syscall", tests[t].syscall, "help", tests[t].help));
	json_object_set_new(root, "tests", a);
	a = json_array();
	for (t = NR_TESTS; t < 64; t++)
		json_array_append_new(a, json_integer(t));
	json_object_set_new(root, "free_bits", a);
	a = json_array();
	for (t = 0; t < NR_METHODS; t++)
		json_array_append_new(a, json_pack("{s:s}", "name",
						   methods[t].name));
	json_object_set_new(root, "methods", a);
	list_memory_doc(root);
}

static void usage_tables(FILE *f)
{
	int t;

	fprintf(f,
"\ntest_flags (upstream-compatible; default: all): bit 1<<N selects test N:\n");
	for (t = 0; t < NR_TESTS; t++)
		fprintf(f, "  %2d  0x%07llx  %-26s %s, %u %s\n", t, 1ull << t,
			tests[t].name, tests[t].syscall ?: "its own bpf() calls",
			tests[t].ops, tests[t].unit ?: tests[t].ops > 1 ?
			"map ops" : "map op");
	fprintf(f, "nr_cpus: as -c N; num_map_entries: as -E; max_cnt: as -n.\n");
	fprintf(f,
"\nOutput: upstream's lines (\"<cpu>:<test> <N> events per sec\" per worker,\n"
"its median over the samples) for upstream's tests, bits 0-10; for every test\n"
"when test_flags is given or with -v. Then the summary: a row per test and\n"
"method, and the skipped rows, one line per reason (--json has each row).\n"
"  ns/op      ns per map operation, the syscall's own cost (its base row)\n"
"             taken out (syscall rows: the bpf() call's whole cost per op)\n"
"  map ops/s  operations per second with the syscall's cost in (ring and\n"
"             perf buffers: records produced)\n"
"  hits       the share of lookups that found their key\n"
"  calls/syscalls  the workers' program runs (or checked bpf() results)\n"
"             inside their loops against the syscalls made\n"
"  [..]       the row's parameters (wakeup -1: adaptive, 0: poll, N: every\n"
"             Nth record)\n"
"  consumed   the consumer's records per second while they flowed, on its\n"
"             own CPU\n"
"  prog       --prog-stats: ns inside the program per run, by the kernel's\n"
"             run-time stats in a pass of their own, less their clock reads\n"
"             (measured on an empty program)\n");
}

/* ---- rows ---- */

static int setup(const struct run_settings *rs, struct bench_rows *rows)
{
	struct map_ctx *mc = map_ctx(rs);
	const struct map_options *opt = &mc->opt;
	struct outcome none = {};
	bool listing = rs->list;
	int t, m, i, err, picked = -1;

	if (rs->cpus.nr > MAP_MAX_CPUS) {
		pr_err("%d CPUs: map_perf_test covers %d", rs->cpus.nr,
		       MAP_MAX_CPUS);
		return -E2BIG;
	}
	if (opt->memory)
		return add_memory_rows(rs, rows, listing);
	make_prefixes(mc, &rs->cpus);
	/* a listing probes nothing: auto lists every method */
	if (!listing && !opt->methods_given)
		picked = mc->auto_picked = pick_method(rs, &none);
	if (!listing)
		note_skipped_sizes(opt);
	/* base rows first: every test's overhead is against one */
	err = add_base_rows(rs, rows, listing);
	for (m = 0; !err && m < NR_METHODS; m++) {
		bool on = opt->methods_given ? opt->method_on[m] :
			  listing || m == picked;

		for (t = 0; !err && on && t < NR_TESTS; t++)
			if (test_selected(opt, t) && tests[t].kind->shape != SHAPE_SYSCALL)
				err = add_test_rows(rs, rows, t, m, NULL,
						    listing);
	}
	/* no method works: every test says why, as a row of its own */
	for (t = 0; !err && !listing && picked < 0 && !opt->methods_given &&
	     t < NR_TESTS; t++)
		if (test_selected(opt, t) && tests[t].kind->shape != SHAPE_SYSCALL)
			err = add_test_rows(rs, rows, t, -1, &none, true);
	/* no program, no method: once */
	for (t = 0; !err && t < NR_TESTS; t++)
		if (test_selected(opt, t) && tests[t].kind->shape == SHAPE_SYSCALL)
			err = add_test_rows(rs, rows, t, -1, NULL, listing);
	if (err)
		return err;
	if (rows->nr == 0) {
		pr_err("nothing selected: test_flags, -t and --miss leave no test");
		return -EINVAL;
	}
	/* the rows are all in: point each test at its syscall's base */
	for (i = 0; i < rows->nr; i++) {
		struct map_row *r = rows->row[i].priv;

		if (r && r->test->kind->shape != SHAPE_SYSCALL)
			rows->row[i].base = base_row(rs, rows, r->test - tests,
						     rows->row[i].cpus);
	}
	return 0;
}

/* ---- every row ---- */

static int open_row(const struct run_settings *rs, struct bench_row *row,
		    struct outcome *out)
{
	struct map_row *r = row->priv;
	int err;

	if (row->measured_in_open)
		return open_memory(rs, row, out);
	if (nr_cpus_possible() > MAP_PERF_MAX_CPUS) {
		outcome_set(out, ST_FAILED,
			    "%d possible CPUs: the worker table covers %d",
			    nr_cpus_possible(), MAP_PERF_MAX_CPUS);
		return -E2BIG;
	}
	/* a refusal an earlier row found holds here: nothing to load */
	if (r->method && attach_refused(row, r->method->kind, out))
		return -EOPNOTSUPP;
	r->pc = calloc(nr_cpus_possible(), sizeof(*r->pc));
	r->taken = calloc(nr_cpus_possible(), sizeof(*r->taken));
	if (!r->pc || !r->taken) {
		outcome_set(out, ST_FAILED, "out of memory");
		return -ENOMEM;
	}
	if (r->test->kind->shape == SHAPE_SYSCALL) {
		err = open_sys(rs, row, out);
		if (err)
			close_sys(r);
		return err;
	}
	err = open_test(rs, row, r, out);
	if (!err)
		err = fill_map(rs, r, out);
	if (!err && has_consumer(r->test))
		err = open_consumer(rs, r, out);
	/* ours attach only inside samples: any link there now is another's */
	if (!err)
		other_links_on(r->hooked, row->others, sizeof(row->others));
	if (err) {
		map_perf_test_kern__destroy(r->skel);
		r->skel = NULL;
	}
	return err;
}

static int zero_counters(struct map_row *r)
{
	size_t size = sizeof(struct map_perf_counters) * nr_cpus_possible();
	__u32 key = r->test - tests;
	void *zeros = calloc(1, size);
	int err;

	if (!zeros)
		return -ENOMEM;
	err = bpf_map__update_elem(r->skel->maps.counters, &key, sizeof(key),
				   zeros, size, BPF_ANY);
	free(zeros);
	return err;
}

static int attach_row(struct bench_row *row,
		      const struct bench_workers *workers, struct outcome *out)
{
	struct map_row *r = row->priv;
	int i, err;

	if (r->test->kind->shape == SHAPE_SYSCALL) {
		memset(r->sys.slots, 0,
		       sizeof(struct sys_slot) * nr_cpus_possible());
		return 0;
	}
	/* the programs act for these processes only, each on its CPU */
	memset(r->skel->bss->worker_tgid, 0,
	       sizeof(r->skel->bss->worker_tgid));
	memset(r->skel->bss->call_slots, 0,
	       sizeof(r->skel->bss->call_slots));
	for (i = 0; i < workers->nr; i++)
		r->skel->bss->worker_tgid[workers->cpu[i]] = workers->pid[i];
	err = zero_counters(r);
	if (err) {
		outcome_set(out, ST_FAILED, "zeroing the counters: %s",
			    strerror(-err));
		return err;
	}
	memset(r->taken, 0, sizeof(*r->taken) * nr_cpus_possible());
	/* draining before the first record can come */
	if (r->consumer &&
	    consumer_start(r->consumer, r->set.consumer_cpu, out))
		return -1;
	r->link = attach_link(row, r->method->kind, r->prog, &r->test->target,
			      r->hooked, out);
	return r->link ? 0 : -ENOENT;
}

static void detach_row(struct bench_row *row)
{
	struct map_row *r = row->priv;

	bpf_link__destroy(r->link);
	r->link = NULL;
	/* nothing produces now: the consumer takes the rest and stops */
	consumer_stop(r->consumer);
}

/* @now becomes what was added since @taken, which becomes @now */
static void take_since(struct map_perf_counters *now,
		       struct map_perf_counters *taken)
{
	__u64 *n = (__u64 *)now, *t = (__u64 *)taken, v;
	size_t i;

	_Static_assert(sizeof(*now) % sizeof(__u64) == 0,
		       "struct map_perf_counters holds __u64 counts only");
	for (i = 0; i < sizeof(*now) / sizeof(__u64); i++) {
		v = n[i];
		n[i] = v - t[i];
		t[i] = v;
	}
}

/*
 * A buffer's consumer still running (more samples of the unit to come,
 * the programs attached): it drains this sample's records and stops, its
 * counts this sample's, and starts again for the next
 */
static int take_consumer(struct map_row *r, struct sample *s)
{
	if (!consumer_running(r->consumer))
		return 0;
	consumer_stop(r->consumer);
	return consumer_start(r->consumer, r->set.consumer_cpu, &s->out);
}

/*
 * The counters per CPU, what this sample added (its unit's earlier ones
 * were judged already): calls into s->hits, the sums into r->c
 */
static int collect(struct bench_row *row, struct sample *s)
{
	struct map_row *r = row->priv;
	int ncpu = s->nr_cpus, cpu, err;
	struct map_perf_counters *v = r->pc;
	__u32 key = r->test - tests;

	if (r->test->kind->shape == SHAPE_SYSCALL) {
		collect_sys(r, s);
		return 0;
	}
	memset(&r->last[s->place], 0, sizeof(r->last[s->place]));
	if (take_consumer(r, s))
		return -1;
	err = bpf_map__lookup_elem(r->skel->maps.counters, &key, sizeof(key),
				   v, ncpu * sizeof(*v), 0);
	memset(&r->c, 0, sizeof(r->c));
	for (cpu = 0; !err && cpu < ncpu; cpu++) {
		v[cpu].calls = r->skel->bss->call_slots[cpu].calls;
		take_since(&v[cpu], &r->taken[cpu]);
		sample_hits(s, 0)[cpu] = v[cpu].calls;
		r->c.calls += v[cpu].calls;
		r->c.lookups += v[cpu].lookups;
		r->c.found += v[cpu].found;
		r->c.updates += v[cpu].updates;
		r->c.update_fails += v[cpu].update_fails;
		r->c.foreign += v[cpu].foreign;
		r->c.negatives += v[cpu].negatives;
		r->c.false_pos += v[cpu].false_pos;
		r->c.dropped += v[cpu].dropped;
		r->c.sum += v[cpu].sum;
		r->c.ops += v[cpu].ops;
	}
	/* a run from another process is counted as foreign, not a call */
	row->runs_counted += r->c.calls + r->c.foreign;
	if (err)
		outcome_set(&s->out, ST_FAILED, "cannot read the counters: %s",
			    strerror(-err));
	return err;
}

/*
 * A sample that counts (not a warm-up, not one run again): its totals
 * join the row's, as the runner's events and hits do.
 */
static void count(const struct bench_row *row, const struct sample *s)
{
	struct map_row *r = row->priv;
	struct map_totals *t = &r->total, *l = &r->last[s->place];

	t->ops += l->ops;
	t->lookups += l->lookups;
	t->found += l->found;
	t->negatives += l->negatives;
	t->false_pos += l->false_pos;
	t->produced += l->produced;
	t->consumed += l->consumed;
	t->dropped += l->dropped;
	t->lost += l->lost;
	t->consume_ns += l->consume_ns;
	t->consumer_cpu_ns += l->consumer_cpu_ns;
	memset(l, 0, sizeof(*l));
}

static const volatile __u64 *hit_slot(const struct bench_row *row,
				      int counter, int cpu)
{
	const struct map_row *r = row->priv;

	if (r->test->kind->shape == SHAPE_SYSCALL)
		return &r->sys.slots[cpu].ok;
	return &r->skel->bss->call_slots[cpu].calls;
}

static int prog_fds(const struct bench_row *row, int *fds, int max)
{
	const struct map_row *r = row->priv;

	/* --memory's rows load no program */
	if (row->measured_in_open || r->test->kind->shape == SHAPE_SYSCALL)
		return 0;
	fds[0] = bpf_program__fd(r->prog);
	return 1;
}

static void close_row(struct bench_row *row)
{
	struct map_row *r = row->priv;

	if (row->measured_in_open)
		return;		/* open_memory() removed its cgroup */
	consumer_free(r->consumer);
	r->consumer = NULL;
	close_sys(r);
	bpf_link__destroy(r->link);
	map_perf_test_kern__destroy(r->skel);
	free(r->pc);
	free(r->taken);
	r->pc = NULL;
	r->taken = NULL;
	free(r->lru_kept);
	r->lru_kept = NULL;
	r->link = NULL;
	r->skel = NULL;
}

static const struct bench_family map_perf_family = {
	.name = "map_perf_test",
	.args = "[test_flags] [nr_cpus] [num_map_entries] [max_cnt]",
	.about = "Speed of BPF map operations, done by a BPF program on each worker's\n"
		 "syscalls, verified by the program's own counts on every worker's CPU.\n",
	.options = options,
	.own_way = OPT_MEMORY,
	.own_way_takes = memory_takes,
	.parse_option = parse_option,
	.parse_args = parse_args,
	.usage_tables = usage_tables,
	.setup = setup,
	.list_row = list_row,
	.list_doc = list_doc,
	.paced = true,
	.open = open_row,
	.attach = attach_row,
	.detach = detach_row,
	.collect = collect,
	.verify = verify,
	.count = count,
	.hit_slot = hit_slot,
	.prog_fds = prog_fds,
	.close = close_row,
	.print_upstream = print_upstream,
	.print_summary = print_summary,
	.json_context = json_context,
	.json_row = json_row,
};

/*
 * Every row keeps its object open until the end of the run, so that
 * --prog-stats can come back to it: with every method and map kind that is more
 * than a thousand fds (maps, programs, BTF, a consumer's perf events), past
 * the usual soft limit. The hard limit is what the machine allows.
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	struct map_ctx ctx = { .auto_picked = -1 };

	raise_fd_limit();
	return bench_main(&map_perf_family, &ctx, argc, argv);
}
