// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's upstream lines: what samples/bpf's test_overhead
 * printed, a header per mode and each worker's rate per event, for
 * upstream's own rows (or every row, asked in upstream's words or with
 * -v); the skipped rows said once per reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"
#include "overhead.h"

/* the row's mode, as an index of modes[] */
static int row_overhead_mode(const struct bench_row *row)
{
	return ((const struct overhead_row *)row->priv)->mode - modes;
}

/* the mode's header in upstream's lines: "w/KPROBE" */
static const char *row_header(const struct bench_row *row)
{
	return ((const struct overhead_row *)row->priv)->mode->header;
}

/* upstream's test_flags: its eight modes on task_rename and fib_table_lookup */
#define UPSTREAM_FLAGS	0xffffull

/* upstream's own rows, the ones its test_flags select: all it printed */
bool upstream_row(const struct overhead_row *r)
{
	return flag_of(r->mode, r->ev) & UPSTREAM_FLAGS;
}

/*
 * Whose lines upstream's section has: upstream's own rows; every row
 * when the run was asked in upstream's words (test_flags given) or with
 * -v. The other rows' figures per worker are in --json.
 */
static bool upstream_line(const struct run_settings *rs,
			  const struct bench_row *row)
{
	return overhead_opts(rs)->flags || rs->verbosity > 1 || upstream_row(row->priv);
}

/*
 * A group's rows of one mode, under its header: "task_rename, getpgid:
 * skipped: <reason>", printed at the first of them.
 */
static void print_skipped_in_mode(const struct bench_rows *rows,
				  const int *gof, int i)
{
	const struct overhead_row *r = rows->row[i].priv;
	char events[512], label[ROW_LABEL_LEN];
	size_t off = 0;
	int j;

	events[0] = '\0';
	for (j = i; j < rows->nr && off < sizeof(events); j++) {
		const struct overhead_row *o = rows->row[j].priv;

		if (gof[j] == gof[i] && o->mode == r->mode)
			off += snprintf(events + off, sizeof(events) - off,
					"%s%s", off ? ", " : "",
					row_label(&rows->row[j], label));
	}
	printf_folded("%s: %s: %s", events, status_name(ST_SKIPPED),
		      rows->row[i].out.reason);
}

/*
 * Which groups have every row of each of their modes in the section:
 * those are said once, in place of their modes' headers.
 */
static void whole_groups(const struct bench_rows *rows, const int *gof,
			 int nr, bool *whole)
{
	bool *has = calloc((size_t)nr * NR_MODES ?: 1, sizeof(*has));
	int i, k, m;

	/* without memory, each mode says its skips under its header */
	for (k = 0; k < nr; k++)
		whole[k] = has != NULL;
	for (i = 0; has && i < rows->nr; i++)
		if (gof[i] >= 0)
			has[gof[i] * NR_MODES + row_overhead_mode(&rows->row[i])] = true;
	for (i = 0; has && i < rows->nr; i++) {
		if (gof[i] == -2)
			continue;	/* not in the section */
		m = row_overhead_mode(&rows->row[i]);
		for (k = 0; k < nr; k++)
			if (has[k * NR_MODES + m] && gof[i] != k)
				whole[k] = false;
	}
	free(has);
}

/* each row's skip group in @gof: -1 none, -2 not in upstream's lines */
static void group_rows(const struct bench_rows *rows, const bool *in,
		       const struct skip_group *g, int nr, int *gof)
{
	int i, k;

	for (i = 0; i < rows->nr; i++) {
		gof[i] = in[i] ? -1 : -2;
		for (k = 0; in[i] && k < nr && gof[i] < 0; k++)
			if (skip_group_has(rows, &g[k], row_mode, i))
				gof[i] = k;
	}
}

/* a row of its own in upstream's lines: its status, or each worker's rate */
static void print_upstream_row(const struct bench_row *row)
{
	char label[ROW_LABEL_LEN];
	int w;

	row_label(row, label);
	if (!row_has_figure(row)) {
		printf_folded("%s: %s: %s", label,
			      status_name(row->out.status), row->out.reason);
		return;
	}
	/* the median of each worker's samples: a sum is the run's rate */
	for (w = 0; w < row->cpus->nr; w++)
		printf("%s:%d: %.0f events per sec\n", label,
		       row->cpus->cpu[w], worker_median_rate(row, w));
}

/*
 * upstream's lines: per mode, its header and one line per worker. The
 * skipped rows are said once per reason: a reason every row of some
 * modes shares replaces their headers ("w/FENTRY, w/FEXIT: skipped:
 * refused by this kernel (EPERM at load)").
 */
void print_upstream(const struct run_settings *rs,
		    const struct bench_rows *rows)
{
	const struct attach_mode *mode = NULL;
	const struct attach_mode **said_in = NULL;
	struct skip_group *g = NULL;
	bool *in, *whole = NULL, *said = NULL;
	int *gof = NULL;
	char label[256];
	int i, k, nr;

	/* the events of --attach-time rows only prove the attachment */
	if (overhead_opts(rs)->attach_time)
		return;
	in = calloc(rows->nr ?: 1, sizeof(*in));
	gof = calloc(rows->nr ?: 1, sizeof(*gof));
	for (i = 0; in && i < rows->nr; i++)
		in[i] = upstream_line(rs, &rows->row[i]);
	nr = in && gof ? skip_groups(rows, in, row_mode, &g) : -ENOMEM;
	if (nr > 0) {
		whole = calloc(nr, sizeof(*whole));
		said = calloc(nr, sizeof(*said));
		said_in = calloc(nr, sizeof(*said_in));
	}
	if (nr < 0 || (nr > 0 && (!whole || !said || !said_in))) {
		pr_err("out of memory: upstream's lines left out");
		goto out;
	}
	group_rows(rows, in, g, nr, gof);
	whole_groups(rows, gof, nr, whole);
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];
		const struct overhead_row *r = row->priv;

		k = gof[i];
		if (k == -2)
			continue;
		if (k >= 0 && whole[k]) {
			if (!said[k]) {
				skip_group_label(rows, in, &g[k], row_mode,
						 row_header, label,
						 sizeof(label));
				printf_folded("%s: %s: %s", label,
					      status_name(ST_SKIPPED),
					      skip_group_reason(rows, &g[k]));
			}
			said[k] = true;
			continue;
		}
		if (r->mode != mode)
			printf("%s\n", r->mode->header);
		mode = r->mode;
		if (k >= 0) {
			if (said_in[k] != mode)
				print_skipped_in_mode(rows, gof, i);
			said_in[k] = mode;
			continue;
		}
		print_upstream_row(row);
	}
out:
	free(said_in);
	free(said);
	free(whole);
	free(g);
	free(gof);
	free(in);
}
