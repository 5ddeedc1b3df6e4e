// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's summary: the table of every row that ran, its figures
 * against its base, the --progs fits, and --attach-time's own table.
 */
#include <math.h>
#include <stdio.h>
#include <sys/utsname.h>
#include "bench.h"
#include "overhead.h"

/* "task_rename", or "task_rename[progs=4]": one word, as parsers want */
const char *row_label(const struct bench_row *row, char l[ROW_LABEL_LEN])
{
	char params[64];

	format_params(row, params, sizeof(params));
	snprintf(l, ROW_LABEL_LEN, "%s%s", row->variant,
		 params[0] ? params + 1 : "");
	return l;
}

/* a row's mode, as the runner groups skipped rows by */
const char *row_mode(const struct bench_row *row)
{
	return row->name;
}

/*
 * The summary's columns: the runner's (bench.h), then -v's
 * ns/event and hits, --prog-stats' body and attach, each dropped before
 * the runner's on a narrow terminal
 */
enum { COL_NS = NR_SUMMARY_COLS, COL_HITS, COL_BODY, COL_ATTACH, NR_COLS };

static const struct table_col columns[NR_COLS] = {
	SUMMARY_COLUMNS("mode", "event", "ns/event ± 95%", "events/s ± sd"),
	/* -v */
	[COL_NS] = { "ns/event", .drop = 7 },
	[COL_HITS] = { "hits/expected", .drop = 8 },
	/* --prog-stats */
	[COL_BODY] = { "body ns", .drop = 6 },
	[COL_ATTACH] = { "attach ns", .drop = 5 },
};

/*
 * The figure: a base's ns per event, any other row's overhead over its
 * base, and its share of it unless the base is a bare call
 */
static void row_figure(const struct bench_row *row,
		       const struct row_summary *s, struct row_figure *f)
{
	const struct overhead_row *r = row->priv;

	*f = (struct row_figure){ s->units.mean, s->ci95, false, NAN,
				  "ns/event" };
	if (!s->has_overhead)
		return;
	f->value = s->overhead.value;
	f->ci95 = s->overhead.ci95;
	f->sign = true;
	/* json.c leaves overhead_pct and overhead_share null for these rows */
	if (!r->ev->base_is_call)
		f->share_pct = s->share.value;
}

static void add_row(const struct run_settings *rs, struct table *t,
		    const struct bench_row *row)
{
	char hits[48], label[ROW_LABEL_LEN];
	struct row_summary s;
	int i;

	i = summary_row(rs, t, row, row->name, row_label(row, label),
			row->runs_prog,
			row_figure, &s);
	if (i < 0)
		return;
	if (!isnan(row_prog_ns(row))) {
		table_set(t, i, COL_BODY, "%.1f", row_prog_body(row));
		if (s.has_overhead)
			table_set(t, i, COL_ATTACH, "%.1f",
				  s.overhead.value - row_prog_body(row));
	}
	if (rs->verbosity < 2)
		return;
	table_set(t, i, COL_NS, "%.1f", s.ns.mean);
	if (row->runs_prog) {
		format_hits(row, hits, sizeof(hits));
		table_set(t, i, COL_HITS, "%s", hits);
	}
}

/* the runner's medians over samples, of every program the row attaches */
static void print_attach_times(const struct bench_rows *rows)
{
	bool any = false;
	int i;

	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];
		char label[ROW_LABEL_LEN];

		if (!row->runs_prog || !row_has_figure(row))
			continue;
		if (!any)
			printf("\nAttach and detach, µs, median over samples (outside the timed loop):\n");
		any = true;
		printf("  %-15s %-24s attach %9.1f  detach %9.1f\n", row->name,
		       row_label(row, label), row_attach_median(row) / 1e3,
		       row_detach_median(row) / 1e3);
	}
}

/* --attach-time: attach and detach of one program on many functions */
static void print_attach_time_row(const struct bench_row *row)
{
	const struct overhead_row *r = row->priv;
	double attach, detach;
	char hits[48];

	printf("  %-15s %9d  %-9s ", row->name, r->nr_funcs,
	       status_name(row->out.status));
	if (!row_has_figure(row)) {
		printf("%s\n", row->out.reason);
		return;
	}
	attach = row_attach_median(row);
	detach = row_detach_median(row);
	printf("%10.2f %10.2f %12.2f %12.2f\n", attach / 1e6,
	       detach / 1e6, attach / 1e3 / r->nr_funcs,
	       detach / 1e3 / r->nr_funcs);
	format_hits(row, hits, sizeof(hits));
	printf("  %-15s %9s  %-9s hits/expected %s (the event's own function is the first)\n",
	       "", "", "", hits);
}

static void print_attach_time(const struct bench_rows *rows)
{
	int i;

	printf("Attach time: one program on N kernel functions from available_filter_functions\n"
	       "(the event's own first); medians over samples, outside the timed loop\n");
	printf("  %-15s %9s  %-9s %10s %10s %12s %12s\n", "mode", "functions",
	       "status", "attach ms", "detach ms", "attach µs/fn",
	       "detach µs/fn");
	for (i = 0; i < rows->nr; i++)
		print_attach_time_row(&rows->row[i]);
}

void print_summary(const struct run_settings *rs,
		   const struct bench_rows *rows)
{
	const struct overhead_ctx *oc = overhead_ctx(rs);
	const struct overhead_opts *opt = &oc->opt;
	char cpus[256], jit[128];
	struct utsname uts;
	struct table t;
	int i;

	if (rs->paste && !opt->attach_time) {
		print_short(rs, rows, row_figure);
		return;
	}
	uname(&uts);
	format_cpus(&rs->cpus, cpus, sizeof(cpus));
	printf_folded("\nSummary: %d worker(s) on CPU %s, kernel %s, libbpf %s",
		      rs->cpus.nr, cpus, uts.release, libbpf_version_text());
	if (rs->repeat)
		printf_folded("Units: %d a row%s", rs->repeat,
			      rs->warmup ? ", after warm-up" : "");
	else
		printf_folded("Units: %d to %d a row, until the overhead is known to ±%g%%, or %g s%s",
			      rs->min_units, rs->max_units, 100 * rs->precision,
			      rs->row_budget_ns / 1e9,
			      rs->warmup ? ", after warm-up" : "");
	printf_folded("Programs: %s (--body %s)%s", body_help[opt->body],
		      body_names[opt->body], run_fault(rs)->kind ?
		      "; UNVERIFIED: a test fault is injected" : "");
	format_bpf_jit(jit, sizeof(jit));
	printf_folded("JIT: %s", jit);
	if (opt->attach_time) {
		print_attach_time(rows);
		return;
	}
	printf_folded("Figures: a base row's ns per event, any other row's overhead over its base (+)");
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
		print_row_notes(rows, NULL);
	if (opt->nr_progs)
		print_fits(rows);
	print_skip_groups(rows, row_mode);
	print_excused(rows);
	if (oc->fib.lookups && rs->verbosity > 0)
		printf_folded("fib_table_lookup: hits checked against %u lookup(s) per datagram, counted on this kernel",
			      oc->fib.lookups);
	if (rs->verbosity > 1)
		print_attach_times(rows);
}
