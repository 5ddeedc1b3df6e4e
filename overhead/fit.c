// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's --progs fit: what one more program on the same hook
 * costs, the slope of ns per event against the number of programs over a
 * mode and event's rows.
 */
#include <stdio.h>
#include "bench.h"
#include "overhead.h"

static bool same_group(const struct bench_row *a, const struct bench_row *b)
{
	const struct overhead_row *ra = a->priv, *rb = b->priv;

	return ra->mode == rb->mode && ra->ev == rb->ev &&
	       row_param(a, "progs") && row_param(b, "progs");
}

/*
 * ns per event against the number of programs, over the rows of @row's
 * mode and event that have a figure: the slope is what one more program
 * costs. @nr_rows: how many rows the group has.
 */
int progs_fit(const struct bench_rows *rows, const struct bench_row *row,
	      struct line_fit *fit, int *nr_rows)
{
	double x[PROGS_COUNTS], y[PROGS_COUNTS], sd[PROGS_COUNTS];
	struct row_summary s;
	int i, n = 0;

	*nr_rows = 0;
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *o = &rows->row[i];

		if (!same_group(row, o) || *nr_rows >= PROGS_COUNTS)
			continue;
		(*nr_rows)++;
		if (!row_has_figure(o))
			continue;
		row_summarize(o, &s);
		x[n] = o->nr_counters;
		y[n] = s.ns.mean;
		sd[n++] = s.ns.stddev;
	}
	return stats_line_fit(x, y, sd, n, fit);
}

void print_fits(const struct bench_rows *rows)
{
	struct line_fit fit;
	int i, nr;

	printf("\nCost per added program (least squares of ns/event over --progs):\n");
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		/* once per group, at its first row */
		if (!row_param(row, "progs") ||
		    (i > 0 && same_group(row, &rows->row[i - 1])))
			continue;
		printf("  %-15s %-17s ", row->name, row->variant);
		if (progs_fit(rows, row, &fit, &nr))
			printf("-  (%d of %d rows measured: a fit needs two)\n",
			       fit.n, nr);
		else
			printf("%+.2f ± %.2f ns/event/program  (%d of %d rows)\n",
			       fit.slope, fit.slope_unc, fit.n, nr);
	}
}
