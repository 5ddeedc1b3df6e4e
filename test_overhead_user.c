// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead: what each way of attaching a BPF program to a kernel event
 * costs per event. Every worker repeats an event on its own CPU, first with
 * nothing attached (base), then with a program attached in each mode; the
 * program counts its hits per CPU, and a figure is shown only when, on
 * every worker's CPU, the hits cover every event that worker made.
 *
 * This file is the family: its options, and the callbacks that glue its
 * tables to the runner (cli/main.c). Their parts are in overhead/, one
 * job per file: the tables of modes and events (modes.c, events.c), the
 * triggers, fib, the uprobe and USDT site checks, the test-run driver,
 * the programs of a row, and the output (upstream's lines, the summary,
 * the --progs fit, JSON).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "test_overhead.h"
#include "overhead.h"
#include "triggers.h"
#include "fib.h"
#include "uprobe_sites.h"

/* ---- the tables: overhead/modes.c, overhead/events.c ---- */

/*
 * The event named @name: code that needs a particular event (the bit
 * pairs' task_rename and fib_table_lookup) asks for it by name, never by
 * its place in the table.
 */
static const struct overhead_event *event_named(const char *name)
{
	int e;

	for (e = 0; e < NR_EVENTS; e++)
		if (!strcmp(events[e].trigger.name, name))
			return &events[e];
	return NULL;
}

bool mode_applies(const struct attach_mode *mode,
		  const struct overhead_event *ev)
{
	if (!mode->kind)
		return true;
	/* user-space modes and events belong to each other alone */
	if (mode->kind->user !=
	    (ev->target.ufunc || ev->target.usdt_provider))
		return false;
	return mode->kind->applies(&ev->target);
}

/* the test_flags bit of @mode and @ev, 0 when none */
__u64 flag_of(const struct attach_mode *mode,
	      const struct overhead_event *ev)
{
	if (!mode_applies(mode, ev))
		return 0;
	if (ev->flag > PAIR_HIGH)
		return ev->flag;
	return mode->flag << ev->flag;
}

/* ---- options ---- */

enum {
	OPT_BODY = 0x200,
	OPT_PROGS,
	OPT_ATTACH_TIME,
};

/* --attach-time: how many kernel functions one program is attached to */
static const int attach_time_funcs[] = { 100, 1000 };
#define NR_ATTACH_TIME	2

const char *const body_names[] = {
	[BODY_COUNT] = "count",
	[BODY_READS] = "reads",
	[BODY_UPSTREAM] = "upstream",
};

const char *const body_help[] = {
	[BODY_COUNT] = "the hit count alone: the attach cost",
	[BODY_READS] = "upstream's reads of the renamed task in every mode",
	[BODY_UPSTREAM] = "upstream's programs: the reads in kprobe only",
};
#define NR_BODIES	((int)ARRAY_SIZE(body_help))

static const struct bench_option options[] = {
	{ "modes", 'm', "LIST", "modes to run, comma-separated (default: all)",
	  IN_RUN | IN_OWN | IN_LIST | IN_LIST_OWN },
	{ "events", 'e', "LIST", "events to run, comma-separated (default: all)",
	  IN_RUN | IN_OWN | IN_LIST | IN_LIST_OWN },
	{ "body", OPT_BODY, "BODY",
	  "what each program does besides counting its hit:\n"
	  "count (default), reads or upstream (see below)", IN_RUN },
	{ "progs", OPT_PROGS, "LIST",
	  "N instances of each mode's program on the same\n"
	  "hook, a row for each N of the list (e.g.\n"
	  "1,2,4,8,16; at most 256), each program verified,\n"
	  "and the cost per added program", IN_RUN | IN_LIST },
	{ "attach-time", OPT_ATTACH_TIME, NULL,
	  "instead of event costs: the time to attach one\n"
	  "program to 100 and to 1000 kernel functions and\n"
	  "detach it (kprobe, kretprobe: a link each;\n"
	  "kprobe_multi, kretprobe_multi: one link)", IN_OWN | IN_LIST_OWN },
	{}
};

/* the runner's options --attach-time takes: its rows are sampled too */
static const char *const attach_time_takes[] = {
	"cpus", "count", "repeat", "precision", "max-units", "budget",
	"warmup", "duration", "json", "ktap", "lock-wait", NULL
};

static int parse_names(const char *list, const char *what, int nr,
		       const char *(*name)(int i), bool *mask)
{
	const char *names[(int)NR_MODES > (int)NR_EVENTS ? NR_MODES : NR_EVENTS];
	int i;

	for (i = 0; i < nr; i++)
		names[i] = name(i);
	return parse_name_list(list, what, names, nr, mask);
}

static const char *mode_name(int i)
{
	return modes[i].name;
}

static const char *event_name(int i)
{
	return events[i].trigger.name;
}

static int parse_option(void *ctx, int key, const char *arg)
{
	struct overhead_opts *opt = &((struct overhead_ctx *)ctx)->opt;
	int i;

	switch (key) {
	case 'm':
		opt->modes_given = true;
		return parse_names(arg, "mode", NR_MODES, mode_name,
				   opt->mode_on);
	case 'e':
		opt->events_given = true;
		return parse_names(arg, "event", NR_EVENTS, event_name,
				   opt->event_on);
	case OPT_BODY:
		i = name_index(arg, body_names, NR_BODIES);
		if (i < 0) {
			pr_err("unknown body '%s': count, reads or upstream",
			       printable(arg));
			return -1;
		}
		opt->body = i;
		return 0;
	case OPT_PROGS:
		if (parse_u64_list(arg, 1, PROGS_MAX, opt->progs, PROGS_COUNTS,
				   &opt->nr_progs)) {
			pr_err("bad --progs '%s': up to %d different counts from 1 to %d, such as 1,2,4,8,16",
			       printable(arg), PROGS_COUNTS, PROGS_MAX);
			return -1;
		}
		return 0;
	case OPT_ATTACH_TIME:
		opt->attach_time = true;
		return 0;
	}
	return -1;
}

static __u64 all_flags(void)
{
	__u64 all = 0;
	int m, e;

	for (m = 0; m < NR_MODES; m++)
		for (e = 0; e < NR_EVENTS; e++)
			all |= flag_of(&modes[m], &events[e]);
	return all;
}

/* whether test_flags, -m and -e select the row of mode @m and event @e */
static bool row_selected(const struct overhead_opts *opt, int m, int e)
{
	if (!opt->mode_on[m] || !opt->event_on[e] ||
	    !mode_applies(&modes[m], &events[e]))
		return false;
	return !opt->flags || (opt->flags & flag_of(&modes[m], &events[e]));
}

static bool any_row_selected(const struct overhead_opts *opt)
{
	int m, e;

	for (m = 0; m < NR_MODES; m++)
		for (e = 0; e < NR_EVENTS; e++)
			if (row_selected(opt, m, e))
				return true;
	return false;
}

static int parse_args(void *ctx, struct cmdline *cl, int argc, char **argv)
{
	struct overhead_opts *opt = &((struct overhead_ctx *)ctx)->opt;
	__u64 unknown;
	int m, e;

	if (argc > 2) {
		pr_err("too many arguments (see --help)");
		return -1;
	}
	if (argc > 0 && parse_u64(argv[0], 1, ~0ull, &opt->flags)) {
		pr_err("bad test_flags '%s': a non-zero number such as 0x15",
		       printable(argv[0]));
		return -1;
	}
	unknown = opt->flags & ~all_flags();
	if (unknown) {
		pr_err("test_flags 0x%llx: bits 0x%llx select nothing (see --help)",
		       opt->flags, unknown);
		return -1;
	}
	/* -m or -e not given: every mode, or every event */
	for (m = 0; m < NR_MODES; m++)
		opt->mode_on[m] |= !opt->modes_given;
	for (e = 0; e < NR_EVENTS; e++)
		opt->event_on[e] |= !opt->events_given;
	/* a usage error, said before the lock, privileges or any probe */
	if (!any_row_selected(opt)) {
		pr_err("nothing selected: test_flags, -m and -e leave no row");
		return -1;
	}
	return argc > 1 ? bench_cpus_arg(cl, argv[1], "num_cpu") : 0;
}

/*
 * The test_flags bits taken: each mode's pair, both of them even when the
 * mode has no fib_table_lookup row (fmod_ret, lsm, lsm.s: the high bit
 * selects nothing, and is no other entry's), and each event's own bit.
 */
static __u64 taken_flags(void)
{
	__u64 taken = 0;
	int m, e;

	for (m = 0; m < NR_MODES; m++)
		taken |= modes[m].flag << PAIR_LOW | modes[m].flag << PAIR_HIGH;
	for (e = 0; e < NR_EVENTS; e++)
		if (events[e].flag > PAIR_HIGH)
			taken |= events[e].flag;
	return taken;
}

static json_t *flag_json(__u64 flag)
{
	return flag ? json_integer(flag) : json_null();
}

/*
 * --list: the modes and events with their bits and help, the bodies, and
 * the bits free for a new one. What the manual's tables (make docs) and
 * the shell's completion are made from.
 */
static void list_doc(json_t *root)
{
	const struct overhead_event *rename = event_named("task_rename");
	const struct overhead_event *fib = event_named("fib_table_lookup");
	json_t *a = json_array(), *o;
	__u64 taken = taken_flags();
	int m, e, bit;

	for (m = 0; m < NR_MODES; m++) {
		o = json_pack("{s:s, s:s, s:s}", "name", modes[m].name,
			      "header", modes[m].header, "help", modes[m].help);
		/* the pair's bits; one that selects no row is null there */
		if (modes[m].flag)
			json_object_set_new(o, "bits", json_pack("[o, o]",
				flag_json(flag_of(&modes[m], rename)),
				flag_json(flag_of(&modes[m], fib))));
		if (modes[m].flag)
			json_object_set_new(o, "takes", json_pack("[I, I]",
				(json_int_t)(modes[m].flag << PAIR_LOW),
				(json_int_t)(modes[m].flag << PAIR_HIGH)));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "modes", a);
	a = json_array();
	for (e = 0; e < NR_EVENTS; e++) {
		o = json_pack("{s:s, s:s}", "name", events[e].trigger.name,
			      "help", events[e].help);
		if (events[e].flag > PAIR_HIGH)
			json_object_set_new(o, "bit", json_integer(events[e].flag));
		else
			json_object_set_new(o, "pair", json_string(
				events[e].flag == PAIR_LOW ? "low" : "high"));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "events", a);
	a = json_array();
	for (m = 0; m < NR_BODIES; m++)
		json_array_append_new(a, json_pack("{s:s, s:s}", "name",
			body_names[m], "help", body_help[m]));
	json_object_set_new(root, "bodies", a);
	a = json_array();
	for (bit = 0; bit < 64; bit++)
		if (!(taken & 1ull << bit))
			json_array_append_new(a, json_integer(bit));
	json_object_set_new(root, "free_bits", a);
}

static void usage_tables(FILE *f)
{
	const struct overhead_event *rename = event_named("task_rename");
	const struct overhead_event *fib = event_named("fib_table_lookup");
	int m, e;

	fprintf(f, "\nEvents:\n");
	for (e = 0; e < NR_EVENTS; e++)
		print_help_item(f, events[e].trigger.name, events[e].help);
	fprintf(f, "\nModes:\n");
	for (m = 0; m < NR_MODES; m++)
		print_help_item(f, modes[m].name, modes[m].help);
	fprintf(f, "\nBodies (--body):\n");
	for (m = 0; m < NR_BODIES; m++)
		print_help_item(f, body_names[m], body_help[m]);
	fprintf(f,
"\ntest_flags (upstream-compatible; default: all): for each mode, the low\n"
"bit selects task_rename, the high bit fib_table_lookup; a mode without\n"
"fib_table_lookup takes its high bit too, in (), which selects nothing:\n");
	for (m = 0; m < NR_MODES; m++) {
		__u64 low = flag_of(&modes[m], rename);
		__u64 high = flag_of(&modes[m], fib);

		char unused[24];

		if (!low && !high)
			continue;
		fprintf(f, "  %#-14llx", low);
		snprintf(unused, sizeof(unused), "(%#llx)",
			 modes[m].flag << PAIR_HIGH);
		if (high)
			fprintf(f, "%#-16llx", high);
		else
			fprintf(f, "%-16s", unused);
		fprintf(f, "%s\n", modes[m].name);
	}
	fprintf(f, "and one bit for each other event, in every mode that applies:\n");
	for (e = 0; e < NR_EVENTS; e++)
		if (events[e].flag > PAIR_HIGH)
			fprintf(f, "  %#-30llx%s\n", events[e].flag,
				events[e].trigger.name);
	fprintf(f, "num_cpu: as -c N. Flags, -m and -e combine: a row runs when all\n"
		"three select it. --list names the bits still free.\n");
	fprintf(f,
"\nOutput: upstream's lines (a header per mode, \"<event>:<cpu>: <N> events per\n"
"sec\" per worker, its median over the samples) for upstream's rows, the ones\n"
"its test_flags bits 0x1-0x8000 select; for every row when test_flags is given\n"
"or with -v. Then the summary: a row per mode and event that ran, and the\n"
"skipped rows, one line per reason (--json and --list give each row its own).\n"
"  events/s   all workers together, mean ± sd over the row's samples\n"
"  ns/event   the mean over workers of each one's time per event\n"
"  overhead   ns per event above base's, with the program's body named above\n"
"             the table (--body); ± is sqrt(sd_row² + sd_base²)\n"
"  x base     ns per event against base's\n"
"  hits/expected  the first program's hits inside the workers' loops, for\n"
"             the workers, against what their events make (each worker's\n"
"             CPU is checked on its own)\n"
"  [progs=N]  N instances of the program on one hook, each verified; the cost\n"
"             per added program is the slope of ns/event against N, ± what the\n"
"             rows' spreads (or, from three rows, their scatter) allow\n"
"  body/attach  --prog-stats: ns inside the program per run, by the kernel's\n"
"             run-time stats in a pass of their own, less their clock reads\n"
"             (measured on an empty program); attach: the rest of the overhead\n"
"fib_table_lookup's hits are checked against the lookups one datagram makes,\n"
"counted on the running kernel by raw_tp over 1000 datagrams. -v adds the\n"
"attach and detach times (also in --json: attach_ns, detach_ns).\n");
}

/* ---- rows ---- */

/* the event every --attach-time row runs: its function is hooked first */
#define EV_RENAME	"task_rename"

/*
 * A copied event's row calls a copy of its own, and stays attached to it
 * through the run: no other row's events reach its programs. Base calls
 * the twin, so the rows' programs need not be detached for it either.
 */
static void give_copy(const struct run_settings *rs, struct bench_row *row,
		      struct overhead_row *r, bool base)
{
	enum copied_event ev = r->ev->copy_of;

	r->copy = base ? UPROBE_BASE_COPY :
		  overhead_ctx(rs)->copies_used[ev]++;
	/* the test fault base-hooked: base calls the first row's copy */
	if (base && run_fault(rs)->kind == BENCH_FAULT_BASE_HOOKED)
		r->copy = 0;
	if (!base && r->copy >= UPROBE_COPIES) {
		outcome_set(&row->out, ST_SKIPPED,
			    "more %s rows than the %d copies of its function",
			    r->ev->trigger.name, UPROBE_COPIES);
		return;
	}
	row->trigger = &copy_triggers[r->copy][ev];
	copy_name(ev, r->copy, r->copy_name, sizeof(r->copy_name));
	if (ev == COPIED_USDT)
		r->target.usdt_name = r->copy_name;
	else
		r->target.ufunc = r->copy_name;
	row->links = LINKS_PER_RUN;
}

static struct bench_row *add_row(struct bench_rows *rows,
				 const struct run_settings *rs, int m, int e)
{
	struct overhead_row *priv = calloc(1, sizeof(*priv));
	struct bench_row *row;

	row = priv ? bench_add_row(rows, modes[m].name,
				   events[e].trigger.name) : NULL;
	if (!row) {
		free(priv);
		return NULL;
	}
	row->cpus = &rs->cpus;
	row->trigger = &events[e].trigger;
	row->count = m == MODE_BASE && events[e].base_count ?
		     events[e].base_count : events[e].count;
	row->runs_prog = modes[m].kind;
	/* a sample costs its events, not an attach and a detach */
	row->links = LINKS_PER_SESSION;
	priv->mode = &modes[m];
	priv->ev = &events[e];
	priv->target = events[e].target;
	row->priv = priv;
	if (events[e].copied)
		give_copy(rs, row, priv, m == MODE_BASE);
	return row;
}

/*
 * --attach-time: rows of the modes that attach to many functions, for
 * task_rename, whose function is hooked first so that the hits still
 * prove the attachment fired.
 */
static int add_attach_time_rows(struct bench_rows *rows,
				const struct run_settings *rs, int m, int e)
{
	const struct attach_kind *kind = modes[m].kind;
	struct bench_row *row;
	int k;

	if (!kind || !kind->attach_syms || &events[e] != event_named(EV_RENAME))
		return 0;
	for (k = 0; k < NR_ATTACH_TIME; k++) {
		row = add_row(rows, rs, m, e);
		if (!row)
			return -ENOMEM;
		row_add_param(row, "functions", attach_time_funcs[k]);
		/* the figure is the attaching: once per sample */
		row->links = LINKS_PER_SAMPLE;
		/* every function hooked counts into the same slots */
		row->fires_elsewhere = true;
		((struct overhead_row *)row->priv)->nr_funcs =
			attach_time_funcs[k];
		/* the events only prove the attachment: a few suffice */
		row->count = 10000;
	}
	return 0;
}

/* one row, or with --progs one per count, each program counted */
static int add_rows(struct bench_rows *rows, const struct run_settings *rs,
		    int m, int e)
{
	const struct overhead_opts *opt = overhead_opts(rs);
	int k, nr = opt->nr_progs && modes[m].kind ? opt->nr_progs : 1;
	struct bench_row *row;

	if (opt->attach_time)
		return add_attach_time_rows(rows, rs, m, e);
	for (k = 0; k < nr; k++) {
		row = add_row(rows, rs, m, e);
		if (!row)
			return -ENOMEM;
		if (!opt->nr_progs || !modes[m].kind)
			continue;
		row->nr_counters = opt->progs[k];
		row_add_param(row, "progs", opt->progs[k]);
	}
	return 0;
}

static int setup(const struct run_settings *rs, struct bench_rows *rows)
{
	const struct overhead_opts *opt = overhead_opts(rs);
	struct bench_row *base[NR_EVENTS] = {};
	struct overhead_row *priv, *first[NR_MODES][NR_EVENTS] = {};
	int m, e, i;

	for (m = 0; m < NR_MODES; m++) {
		for (e = 0; e < NR_EVENTS; e++) {
			if (!row_selected(opt, m, e))
				continue;
			if (add_rows(rows, rs, m, e))
				return -ENOMEM;
		}
	}
	if (!rows->nr) {
		pr_err(opt->attach_time ?
		       "nothing selected: --attach-time runs kprobe, kretprobe, kprobe_multi and kretprobe_multi on task_rename" :
		       "nothing selected: test_flags, -m and -e leave no row");
		return -EINVAL;
	}
	/* bases, and each hook's first row, are known once every row is in place */
	for (i = 0; i < rows->nr; i++) {
		priv = rows->row[i].priv;
		e = priv->ev - events;
		m = priv->mode - modes;
		if (!first[m][e])
			first[m][e] = priv;
		priv->cap = &first[m][e]->own_cap;
		if (priv->mode == &modes[MODE_BASE])
			base[e] = &rows->row[i];
		rows->row[i].base = base[e];
		if (!rs->list && priv->ev->prepare)
			priv->ev->prepare();
	}
	return 0;
}

/* ---- one row's programs ---- */

static int open_row(const struct run_settings *rs, struct bench_row *row,
		    struct outcome *out)
{
	struct overhead_row *r = row->priv;
	int cap = r->cap->progs;
	int i, err;

	if (nr_cpus_possible() > OVERHEAD_MAX_CPUS) {
		outcome_set(out, ST_FAILED,
			    "%d possible CPUs: the hit slots cover %d",
			    nr_cpus_possible(), OVERHEAD_MAX_CPUS);
		return -E2BIG;
	}
	if (cap && row->nr_counters > cap) {
		*out = r->cap->why;
		return -E2BIG;
	}
	/* a refusal an earlier row found holds here: nothing to load */
	if (attach_refused(row, r->mode->kind, out))
		return -EOPNOTSUPP;
	if (r->ev->usable && !r->ev->usable(out))
		return -ENOENT;
	if (r->ev->copied && !copies_ok(r->ev->copy_of, r->copy, out))
		return -ENOENT;
	if (r->ev->calibrated) {
		err = count_fib_lookups(rs, row, r->ev, out);
		if (err)
			return err;
		row->hits_per_event = overhead_ctx(rs)->fib.lookups;
	}
	r->inst = calloc(row->nr_counters, sizeof(*r->inst));
	if (!r->inst)
		return -ENOMEM;
	for (i = 0; i < row->nr_counters; i++) {
		err = open_instance(rs, row, i, out);
		if (!err && !i && r->nr_funcs)
			err = open_funcs(r, out);
		if (err) {
			destroy_instances(row);
			return err;
		}
	}
	/* ours attach only in the row's sessions: any link now is another's */
	other_links_on(r->hooked, row->others, sizeof(row->others));
	return 0;
}

/* E2BIG past the first program: the kernel's cap on one hook */
static void progs_capped(struct bench_row *row, int attached,
			 struct outcome *out)
{
	struct overhead_row *r = row->priv;

	r->cap->progs = attached;
	outcome_set(out, ST_SKIPPED,
		    "the kernel takes at most %d %s programs on %s (E2BIG for program %d)",
		    attached, r->mode->name, r->hooked, attached + 1);
	r->cap->why = *out;
}

static int attach_row(struct bench_row *row,
		      const struct bench_workers *workers, struct outcome *out)
{
	struct overhead_row *r = row->priv;
	const struct overhead_skel *sk = r->mode->skel;
	int i, err;

	for (i = 0; i < row->nr_counters; i++) {
		struct prog_instance *pi = &r->inst[i];

		/* nothing fires yet: no program updates them meanwhile */
		slots_reset(sk->slots(pi->skel), &pi->cfg, workers->cpu,
			    workers->pid, workers->nr);
		memset(pi->taken, 0, sizeof(pi->taken));
		memset(pi->taken_foreign, 0, sizeof(pi->taken_foreign));
		if (r->nr_funcs) {
			err = attach_link_syms(row, r->mode->kind, pi->prog,
					       r->funcs, r->nr_funcs, r->links,
					       out);
			r->nr_links = err > 0 ? err : 0;
			return err < 0 ? err : 0;
		}
		pi->link = attach_link(row, r->mode->kind, pi->prog,
				       &r->target, r->hooked, out);
		if (pi->link)
			continue;
		err = -errno ?: -EINVAL;
		if (err == -E2BIG && i > 0)
			progs_capped(row, i, out);
		return err;
	}
	return 0;
}

static const struct bench_family overhead_family = {
	.name = "test_overhead",
	.args = "[test_flags] [num_cpu]",
	.about = "Per-event cost of each way to attach a BPF program, verified on every\n"
		 "worker's CPU by the program's own hit count.\n",
	.options = options,
	.own_way = OPT_ATTACH_TIME,
	.own_way_takes = attach_time_takes,
	.paced = true,
	.parse_option = parse_option,
	.parse_args = parse_args,
	.usage_tables = usage_tables,
	.setup = setup,
	.list_row = list_row,
	.list_doc = list_doc,
	.open = open_row,
	.attach = attach_row,
	.detach = detach_row,
	.collect = collect,
	.hit_slot = hit_slot,
	.foreign_slot = foreign_slot,
	.workers = new_workers,
	.prog_fds = prog_fds,
	.close = close_row,
	.print_upstream = print_upstream,
	.print_summary = print_summary,
	.json_context = json_context,
	.json_row = json_row,
};

int main(int argc, char **argv)
{
	struct overhead_ctx ctx = {};

	return bench_main(&overhead_family, &ctx, argc, argv);
}
