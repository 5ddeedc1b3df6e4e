// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's summary: the table of every row that ran, its figures
 * against its base, the --progs fits, and --attach-time's own table.
 */
#include <math.h>
#include <stdio.h>
#include <sys/utsname.h>
#include "bench.h"
#include "bench_report.h"
#include "overhead.h"
#include "fib.h"

/* "task_rename", or "task_rename[progs=4]": one word, as parsers want */
const char *row_label(const struct bench_row *row)
{
	static char buf[96];
	char params[64];

	format_params(row, params, sizeof(params));
	snprintf(buf, sizeof(buf), "%s%s", row->variant,
		 params[0] ? params + 1 : "");
	return buf;
}

/* a row's mode, as the runner groups skipped rows by */
const char *row_mode(const struct bench_row *row)
{
	return row->name;
}

static void format_overhead(const struct bench_row *row,
			    const struct row_summary *s, char *overhead,
			    size_t olen, char *ratio, size_t rlen)
{
	char ci[24];

	snprintf(overhead, olen, "%s", row->base == row ? "-" : "(no base)");
	snprintf(ratio, rlen, "-");
	if (!s->has_overhead)
		return;
	snprintf(overhead, olen, "%+.1f ± %s", s->overhead.value,
		 format_or_dash(ci, sizeof(ci), 1, s->overhead.ci95));
	snprintf(ratio, rlen, "%.2fx", s->ratio);
}

static void print_row(const struct bench_row *row)
{
	char overhead[48], ratio[24], hits[48] = "-", body[64] = "";
	char notes[REASON_LEN + 128];
	struct row_summary s;

	printf("  %-15s %-17s %-9s ", row->name, row_label(row),
	       status_name(row->out.status));
	if (!row_has_figure(row)) {
		printf("%s\n", row->out.reason);
		return;
	}
	row_summarize(row, &s);
	format_overhead(row, &s, overhead, sizeof(overhead), ratio,
			sizeof(ratio));
	if (row->runs_prog)
		format_hits(row, hits, sizeof(hits));
	if (!isnan(row_prog_ns(row)))
		snprintf(body, sizeof(body), s.has_overhead ?
			 "  body %.1f + attach %.1f" : "  body %.1f",
			 row_prog_body(row),
			 s.overhead.value - row_prog_body(row));
	row_notes(row, &s, notes, sizeof(notes));
	printf("%8.3fM ± %-7.3f %9.1f %16s %8s %21s%s%s%s\n",
	       s.rate.mean / 1e6, s.rate.stddev / 1e6, s.ns.mean, overhead,
	       ratio, hits, body, notes[0] ? "  " : "", notes);
}

/* the runner's medians over samples, of every program the row attaches */
static void print_attach_times(const struct bench_rows *rows)
{
	bool any = false;
	int i;

	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (!row->runs_prog || !row_has_figure(row))
			continue;
		if (!any)
			printf("\nAttach and detach, µs, median over samples (outside the timed loop):\n");
		any = true;
		printf("  %-15s %-24s attach %9.1f  detach %9.1f\n", row->name,
		       row_label(row), row_attach_median(row) / 1e3,
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
	char cpus[256], samples[96], jit[128];
	struct utsname uts;
	int i;

	uname(&uts);
	format_cpus(&rs->cpus, cpus, sizeof(cpus));
	if (rs->repeat)
		snprintf(samples, sizeof(samples), "%d unit(s) a row",
			 rs->repeat);
	else
		snprintf(samples, sizeof(samples),
			 "%d to %d units a row, until the overhead is known to ±%g%%",
			 rs->min_units, rs->max_units, 100 * rs->precision);
	printf("\nSummary: %d worker(s) on CPU %s, %s%s, kernel %s, libbpf %s\n",
	       rs->cpus.nr, cpus, samples,
	       rs->warmup ? " after warm-up" : "", uts.release,
	       libbpf_version_text());
	printf("Programs: %s (--body %s)%s\n", body_help[opt.body],
	       body_names[opt.body], run_fault(rs)->kind ?
	       "; UNVERIFIED: a test fault is injected" : "");
	format_bpf_jit(jit, sizeof(jit));
	printf("JIT: %s\n", jit);
	if (opt.attach_time) {
		print_attach_time(rows);
		return;
	}
	printf("  %-15s %-17s %-9s %-19s %9s %16s %8s %21s\n", "mode", "event",
	       "status", "events/s mean ± sd", "ns/event", "overhead ns ± 95%",
	       "x base", "hits/expected");
	/* the rows this kernel cannot run follow, said once per reason */
	for (i = 0; i < rows->nr; i++)
		if (rows->row[i].out.status != ST_SKIPPED)
			print_row(&rows->row[i]);
	if (opt.nr_progs)
		print_fits(rows);
	print_row_counts(rows);
	print_skip_groups(rows, row_mode);
	print_excused(rows);
	if (fib_lookups && rs->verbosity > 0)
		printf("fib_table_lookup: hits checked against %u lookup(s) per datagram, counted on this kernel\n",
		       fib_lookups);
	if (rs->verbosity > 1)
		print_attach_times(rows);
}
