// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's output: upstream's lines, the summary, the JSON and
 * --list's rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "maps/map_perf.h"
#include "maps/memory.h"

/* the unit of upstream's line, and how many of it one event makes */
static const char *line_unit(const struct map_test *t, unsigned int *mult)
{
	if (t->unit) {
		*mult = t->ops;
		return t->unit;
	}
	*mult = t->per_lookup ? t->ops : 1;
	return t->per_lookup ? "lookups" : "events";
}

/* a row's mode, as the runner groups skipped rows by: its method */
static const char *row_method(const struct bench_row *row)
{
	return row->variant;
}

/* upstream's eleven tests, all it ever printed */
static bool upstream_test(const struct map_test *t)
{
	return t - tests <= LRU_HASH_LOOKUP;
}

/*
 * Whose lines upstream's section has: upstream's tests; every row when
 * test_flags is given (upstream's words) or with -v. The other rows'
 * figures per worker are in --json.
 */
static bool upstream_line(const struct run_settings *rs,
			  const struct bench_row *row)
{
	const struct map_row *r = row->priv;

	/* --memory's rows have the summary alone */
	return r && !row->measured_in_open &&
	       (map_opts(rs)->flags || rs->verbosity > 1 ||
		upstream_test(r->test));
}

/*
 * upstream's line for each worker: the median of its samples. Skipped
 * rows are said once per reason, where the first of them comes.
 */
void print_upstream(const struct run_settings *rs,
		    const struct bench_rows *rows)
{
	struct skip_group *g = NULL;
	bool *in, *said = NULL;
	char params[96], label[256];
	unsigned int mult;
	const char *unit;
	int i, k, w, nr;

	in = calloc(rows->nr ?: 1, sizeof(*in));
	for (i = 0; in && i < rows->nr; i++)
		in[i] = upstream_line(rs, &rows->row[i]);
	nr = in ? skip_groups(rows, in, row_method, &g) : -ENOMEM;
	said = nr > 0 ? calloc(nr, sizeof(*said)) : NULL;
	if (nr < 0 || (nr > 0 && !said)) {
		pr_err("out of memory: upstream's lines left out");
		goto out;
	}
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];
		const struct map_row *r = row->priv;

		if (!in[i])
			continue;	/* base rows have no upstream line */
		format_params(row, params, sizeof(params));
		for (k = 0; row->out.status == ST_SKIPPED && k < nr; k++)
			if (skip_group_has(rows, &g[k], row_method, i))
				break;
		if (row->out.status == ST_SKIPPED && k < nr) {
			if (said[k])
				continue;
			said[k] = true;
			if (g[k].nr > 1) {
				skip_group_label(rows, in, &g[k], row_method,
						 NULL, label, sizeof(label));
				printf_folded("%s: %s: %s", label,
					      status_name(ST_SKIPPED),
					      skip_group_reason(rows, &g[k]));
				continue;
			}
		}
		if (!row_has_figure(row)) {
			printf_folded("%s%s: %s: %s", r->test->name, params,
				      status_name(row->out.status),
				      row->out.reason);
			continue;
		}
		unit = line_unit(r->test, &mult);
		for (w = 0; w < row->cpus->nr; w++)
			printf("%d:%s %.0f %s per sec%s\n", row->cpus->cpu[w],
			       r->test->line, worker_median_rate(row, w) * mult,
			       unit, params);
	}
out:
	free(said);
	free(g);
	free(in);
}

/* the consumer's rate while records flowed, and its CPU per record */
static double consumer_rate(const struct map_row *r)
{
	return r->total.consume_ns > 0 ? r->total.consumed * 1e9 / r->total.consume_ns : NAN;
}

static double consumer_ns_per_record(const struct map_row *r)
{
	return r->total.consumed ? r->total.consumer_cpu_ns / r->total.consumed : NAN;
}

/* -v: what a row of the other map kinds adds to its notes */
static void kind_notes(const struct bench_row *row, char *buf, size_t len)
{
	const struct map_row *r = row->priv;

	buf[0] = '\0';
	/* what the kind measures: for a row with a figure alone */
	if (r && r->test->kind->notes && row_has_figure(row))
		r->test->kind->notes(r, buf, len, 0);
}

/* bloom filters: how often an absent key hit */
void notes_bloom(const struct map_row *r, char *buf, size_t len,
		 size_t off)
{
	if (r->total.negatives && off < len)
		snprintf(buf + off, len - off,
			 "%sfalse positives %.2f%% of %llu",
			 off ? ", " : "",
			 100.0 * r->total.false_pos / r->total.negatives,
			 r->total.negatives);
}

/* ring and perf buffers: the consumer's rate and cost, the drops */
void notes_records(const struct map_row *r, char *buf, size_t len,
		   size_t off)
{
	char rate[24], cpu[24];

	if (r->total.produced && off < len)
		snprintf(buf + off, len - off,
			 "%sconsumed %sM/s (%s ns CPU per record), dropped %llu of %llu",
			 off ? ", " : "",
			 format_or_dash(rate, sizeof(rate), 3,
					consumer_rate(r) / 1e6),
			 format_or_dash(cpu, sizeof(cpu), 0,
					consumer_ns_per_record(r)),
			 r->total.dropped, r->total.produced);
}

/*
 * The summary's columns: the runner's (bench.h; a row is its test
 * and params, and its attach method or a base's syscall), then -v's map
 * ops/s, hits, entries and calls, --prog-stats' ns per run, each dropped
 * before the runner's on a narrow terminal
 */
enum {
	COL_OPS = NR_SUMMARY_COLS, COL_HITS, COL_ENTRIES, COL_CALLS, COL_PROG,
	NR_COLS
};

static const struct table_col columns[NR_COLS] = {
	SUMMARY_COLUMNS("test", "attach", "ns/op ± 95%", "syscalls/s ± sd"),
	/* -v */
	[COL_OPS] = { "map ops/s", .drop = 9 },
	[COL_HITS] = { "hits", .drop = 6 },
	[COL_ENTRIES] = { "entries", .drop = 7 },
	[COL_CALLS] = { "calls/syscalls", .drop = 8 },
	/* --prog-stats */
	[COL_PROG] = { "prog ns/run", .drop = 5 },
};

/*
 * The figure: ns per map operation, the syscall's own cost (its base)
 * taken out, or a bpf() call's own; a base's ns per syscall
 */
static void row_figure(const struct bench_row *row,
		       const struct row_summary *s, struct row_figure *f)
{
	const struct map_row *r = row->priv;

	*f = (struct row_figure){ s->units.mean, s->ci95, false, NAN,
				  "ns/syscall" };
	if (!r)
		return;
	f->unit = "ns/op";
	if (!s->has_overhead && r->test->kind->shape != SHAPE_SYSCALL) {
		f->value = f->ci95 = NAN;	/* the JSON's null ns_per_op */
		return;
	}
	f->value /= r->test->ops;
	f->ci95 /= r->test->ops;
	if (s->has_overhead)
		f->share_pct = s->share.value;
}

static void add_row(const struct run_settings *rs, struct table *t,
		    const struct bench_row *row)
{
	const struct map_row *r = row->priv;
	char name[128], calls[48];
	struct row_summary s;
	int i;

	format_params(row, calls, sizeof(calls));
	snprintf(name, sizeof(name), "%s%s", row->name, calls);
	i = summary_row(rs, t, row, name, row->variant, r != NULL, row_figure,
			&s);
	if (i < 0)
		return;
	if (!isnan(row_prog_ns(row)))
		table_set(t, i, COL_PROG, "%.1f", row_prog_body(row));
	if (rs->verbosity < 2 || !r)
		return;
	table_set(t, i, COL_OPS, "%.3fM", s.rate.mean * r->test->ops / 1e6);
	if (r->total.lookups)
		table_set(t, i, COL_HITS, "%.3f",
			  (double)r->total.found / r->total.lookups);
	table_set(t, i, COL_ENTRIES, "%u", r->entries);
	format_hits(row, calls, sizeof(calls));
	table_set(t, i, COL_CALLS, "%s", calls);
}

/* "entries 100,1000, ": a swept parameter's values, into @buf */
static size_t sweep_text(const char *what, const struct sweep *sw, char *buf,
			 size_t len)
{
	size_t off = 0;
	int i;

	if (!sw->nr || !len)
		return 0;
	off += snprintf(buf + off, len - off, "%s ", what);
	for (i = 0; i < sw->nr && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%llu", i ? "," : "",
				sw->v[i]);
	if (off < len)
		off += snprintf(buf + off, len - off, ", ");
	return off < len ? off : len - 1;
}

void print_summary(const struct run_settings *rs,
		   const struct bench_rows *rows)
{
	const struct map_options *opt = map_opts(rs);
	char cpus[256], jit[128], head[512];
	struct utsname uts;
	struct table t;
	size_t off;
	int i;

	if (opt->memory) {
		print_memory_summary(rs, rows);
		print_skip_groups(rows, row_method);
		return;
	}
	if (rs->paste) {
		print_short(rs, rows, row_figure);
		return;
	}
	uname(&uts);
	format_cpus(&rs->cpus, cpus, sizeof(cpus));
	off = snprintf(head, sizeof(head), "\nSummary: %d worker(s) on CPU %s, ",
		       rs->cpus.nr, cpus);
	if (opt->entries.nr == 1)
		off += snprintf(head + off, sizeof(head) - off,
				"maps resized to %llu entries, ",
				opt->entries.v[0]);
	else
		off += sweep_text("entries", &opt->entries, head + off,
				  sizeof(head) - off);
	off += sweep_text("key sizes", &opt->key_size, head + off,
			  sizeof(head) - off);
	if (opt->scale && off < sizeof(head))
		off += snprintf(head + off, sizeof(head) - off,
				"scaled over 1..%d CPUs, ", rs->cpus.nr);
	if (off < sizeof(head))
		snprintf(head + off, sizeof(head) - off, "%s%skernel %s, libbpf %s",
			 opt->miss ? "--miss, " : "",
			 run_fault(rs)->kind ? "UNVERIFIED (a test fault is injected), " : "",
			 uts.release, libbpf_version_text());
	printf_folded("%s", head);
	format_bpf_jit(jit, sizeof(jit));
	printf_folded("JIT: %s", jit);
	printf_folded("Figures: ns per map operation, its syscall's cost (its base row's) taken out");
	/* the rows this kernel cannot run follow, said once per reason */
	table_init(&t, columns, NR_COLS);
	for (i = 0; i < rows->nr; i++)
		if (rows->row[i].out.status != ST_SKIPPED)
			add_row(rs, &t, &rows->row[i]);
	print_table(&t, rs->verbosity > 1);
	table_free(&t);
	print_legend(rs, rows);
	print_reasons(rows);
	if (rs->verbosity > 1)
		print_row_notes(rows, kind_notes);
	print_skip_groups(rows, row_method);
	print_excused(rows);
}

static json_t *sweep_json(const struct sweep *sw)
{
	json_t *a;
	int i;

	if (!sw->nr)
		return json_null();
	if (sw->nr == 1)
		return json_integer(sw->v[0]);
	a = json_array();
	for (i = 0; i < sw->nr; i++)
		json_array_append_new(a, json_integer(sw->v[i]));
	return a;
}

/* the method every test row uses, or -1 when rows differ */
static int context_method(const struct map_ctx *mc)
{
	int m, one = -1;

	if (!mc->opt.methods_given)
		return mc->auto_picked;
	for (m = 0; m < NR_METHODS; m++) {
		if (!mc->opt.method_on[m])
			continue;
		if (one >= 0)
			return -1;
		one = m;
	}
	return one;
}

void json_context(const struct run_settings *rs, json_t *ctx)
{
	const struct map_options *opt = map_opts(rs);
	int method = context_method(map_ctx(rs));

	json_object_set_new(ctx, "entries", sweep_json(&opt->entries));
	json_object_set_new(ctx, "key_size", sweep_json(&opt->key_size));
	json_object_set_new(ctx, "scale", json_boolean(opt->scale));
	json_object_set_new(ctx, "records_per_call",
			    json_integer(RECORDS_PER_CALL));
	json_object_set_new(ctx, "miss", json_boolean(opt->miss));
	/* what auto picked, or the one method -a named; null for several */
	json_object_set_new(ctx, "attach_method", method >= 0 ?
			    json_string(methods[method].name) : json_null());
}

/* what the other map kinds add: records, false positives, key sizes */
static void json_kind(const struct bench_row *row, const struct map_row *r,
		      json_t *o)
{
	if (r->test->kind->json)
		r->test->kind->json(r, row_has_figure(row), o);
}

/* the bpf() calls' keys, as the map made for them has them */
void json_sys(const struct map_row *r, bool figure, json_t *o)
{
	json_object_set_new(o, "key_size", json_integer(r->sys.key_size));
}

void json_bloom(const struct map_row *r, bool figure, json_t *o)
{
	json_object_set_new(o, "negative_lookups",
			    json_integer(r->total.negatives));
	json_object_set_new(o, "false_positives",
			    json_integer(r->total.false_pos));
}

/*
 * ring and perf buffers: where the records went, and the consumer; its
 * rate and cost are figures: null on a row without one
 */
void json_records(const struct map_row *r, bool figure, json_t *o)
{
	json_t *rec = json_object();

	json_object_set_new(rec, "produced", json_integer(r->total.produced));
	json_object_set_new(rec, "consumed", json_integer(r->total.consumed));
	json_object_set_new(rec, "dropped", json_integer(r->total.dropped));
	json_object_set_new(rec, "lost_reported", json_integer(r->total.lost));
	json_object_set_new(o, "records", rec);
	json_object_set_new(o, "consumer_cpu",
			    json_integer(r->set.consumer_cpu));
	json_object_set_new(o, "consumer_rate",
			    json_number(figure ? consumer_rate(r) : NAN));
	json_object_set_new(o, "consumer_ns_per_record",
			    json_number(figure ? consumer_ns_per_record(r) :
					NAN));
}

void json_row(const struct bench_rows *rows, const struct bench_row *row,
	      json_t *o)
{
	const struct map_row *r = row->priv;
	struct row_summary s;
	json_t *nsop, *per;

	if (row->measured_in_open) {
		json_memory_row(row, o);
		return;
	}
	if (row_has_figure(row)) {
		/* each worker's share: what --scale's curve is made of */
		row_summarize(row, &s);
		per = json_object();
		json_object_set_new(per, "mean",
				    json_number(s.rate.mean / row->cpus->nr));
		json_object_set_new(per, "stddev",
				    json_number(s.rate.stddev / row->cpus->nr));
		json_object_set_new(o, "rate_per_cpu", per);
	}
	if (!r)
		return;
	json_object_set_new(o, "attach_method", r->method ?
			    json_string(r->method->name) : json_null());
	json_object_set_new(o, "ops_per_event", json_integer(r->test->ops));
	/* the programs' own count; bpf() rows' calls are checked apart */
	json_object_set_new(o, "ops_counted",
			    r->test->kind->shape == SHAPE_SYSCALL ?
			    json_null() : json_integer(r->total.ops));
	json_object_set_new(o, "lookups", json_integer(r->total.lookups));
	json_object_set_new(o, "found", json_integer(r->total.found));
	json_object_set_new(o, "entries", json_integer(r->entries));
	json_kind(row, r, o);
	if (!row_has_figure(row))
		return;
	if (!s.has_overhead && r->test->kind->shape != SHAPE_SYSCALL) {
		json_object_set_new(o, "ns_per_op", json_null());
		return;
	}
	nsop = json_object();
	json_object_set_new(nsop, "value", json_number(s.units.mean / r->test->ops));
	json_object_set_new(nsop, "ci95", json_number(s.ci95 / r->test->ops));
	json_object_set_new(nsop, "units", json_integer(s.nr_units));
	json_object_set_new(nsop, "observations", json_integer(s.units.n));
	json_object_set_new(o, "ns_per_op", nsop);
}

void list_row(const struct bench_row *row, json_t *o)
{
	const struct map_row *r = row->priv;
	struct map_perf_test_kern *skel;
	unsigned int mult;

	if (!r)
		return;		/* a base row: nothing attached */
	if (row->measured_in_open) {
		list_memory_row(row, o);
		return;
	}
	json_object_set_new(o, "flag", json_integer(1ull << (r->test - tests)));
	json_object_set_new(o, "line", json_string(r->test->line));
	json_object_set_new(o, "unit", json_string(line_unit(r->test, &mult)));
	json_object_set_new(o, "upstream", json_boolean(upstream_test(r->test)));
	if (!r->method) {
		/* bpf() calls of the workers': no program, no attach */
		json_object_set_new(o, "program", json_null());
		return;
	}
	list_kind(o, r->method->kind, NULL);
	/* opening needs no privileges: it only reads the ELF */
	skel = map_perf_test_kern__open();
	if (!skel)
		return;
	json_object_set_new(o, "program", json_string(bpf_program__name(
		skel_prog(skel, r->test->prog[r->method - methods]))));
	map_perf_test_kern__destroy(skel);
}
