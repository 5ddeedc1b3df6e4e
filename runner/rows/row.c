// SPDX-License-Identifier: GPL-2.0
/*
 * Rows: added, given their parameters and named; a row's figures from its
 * samples, what the summary, the notes and the JSON all read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rows/rows.h"
#include "workers/workers.h"

struct bench_row *bench_add_row(struct bench_rows *rows, const char *name,
				const char *variant)
{
	struct bench_row *row, *grown;
	struct row_state *state;
	int i;

	if (rows->nr == rows->cap) {
		rows->cap = rows->cap ? 2 * rows->cap : 64;
		grown = realloc(rows->row, rows->cap * sizeof(*grown));
		if (!grown)
			return NULL;
		/* bases point into the array: move them along */
		for (i = 0; i < rows->nr; i++)
			if (grown[i].base)
				grown[i].base = grown + (grown[i].base - rows->row);
		rows->row = grown;
	}
	if (!rows->refused)
		rows->refused = calloc(1, sizeof(*rows->refused));
	state = calloc(1, sizeof(*state));
	if (!rows->refused || !state) {
		free(state);
		return NULL;
	}
	row = &rows->row[rows->nr++];
	memset(row, 0, sizeof(*row));
	row->name = name;
	row->variant = variant;
	row->nr_counters = 1;
	row->hits_per_event = 1;
	row->state = state;
	state->refused = rows->refused;
	state->prog_ns = NAN;
	state->prog_clock_ns = NAN;
	return row;
}

void row_add_param(struct bench_row *row, const char *key, long long value)
{
	if (row->nr_params < MAX_PARAMS)
		row->params[row->nr_params++] =
			(struct row_param){ key, value };
}

const struct row_param *row_param(const struct bench_row *row,
				  const char *key)
{
	int i;

	for (i = 0; i < row->nr_params; i++)
		if (!strcmp(row->params[i].key, key))
			return &row->params[i];
	return NULL;
}

void format_params(const struct bench_row *row, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < row->nr_params && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s=%lld",
				i ? "," : " [", row->params[i].key,
				row->params[i].value);
	if (row->nr_params && off < len)
		snprintf(buf + off, len - off, "]");
}

const char *row_policy_wrong(const struct bench_row *row)
{
	if (row->links > LINKS_PER_RUN)
		return "links: no enum row_links value";
	/* a reload closes the row between sessions: its links with it */
	if (row->reload && row->links == LINKS_PER_RUN)
		return "reload with LINKS_PER_RUN: its links cannot outlive a session";
	if (row->measured_in_open && !row->runs_prog)
		return "measured_in_open without runs_prog: open() would not be called";
	return NULL;
}

void format_row_name(const struct bench_row *row, char *buf, size_t len)
{
	char params[128];

	format_params(row, params, sizeof(params));
	snprintf(buf, len, "%s %s%s", row->name, row->variant, params);
}

bool row_has_figure(const struct bench_row *row)
{
	return row->out.status == ST_OK && row->state->nr > 0;
}

double worker_median_rate(const struct bench_row *row, int worker)
{
	const struct row_state *st = row->state;
	double x[MAX_SAMPLES];
	int i, nw = row->cpus->nr;

	for (i = 0; i < st->nr; i++)
		x[i] = st->worker_rate[i * nw + worker];
	return row_median(x, st->nr);
}

double row_attach_median(const struct bench_row *row)
{
	return row_median(row->state->attach_ns, row->state->nr_attach);
}

double row_detach_median(const struct bench_row *row)
{
	return row_median(row->state->detach_ns, row->state->nr_detach);
}

double row_prog_ns(const struct bench_row *row)
{
	return row->state->prog_ns;
}

double row_prog_body(const struct bench_row *row)
{
	const struct row_state *st = row->state;

	if (isnan(st->prog_clock_ns))
		return st->prog_ns;
	/* a body within the clock's own jitter is nothing measurable */
	return fmax(st->prog_ns - st->prog_clock_ns, 0);
}

static const char *const stop_names[] = {
	[STOP_NOT] = "none",
	[STOP_PRECISE] = "precise",
	[STOP_REPEAT] = "repeat",
	[STOP_MAX] = "max-units",
	[STOP_BUDGET] = "budget",
	[STOP_FED] = "with its rows",
};

const char *row_stop_name(enum row_stop stop)
{
	return stop_names[stop];
}

void row_summarize(const struct bench_row *row, struct row_summary *s)
{
	const struct row_state *st = row->state;
	struct sample_stats base_ns, ns;
	bool flags[MAX_SAMPLES];
	double mean[MAX_UNITS], share[MAX_UNITS];
	int nr;

	memset(s, 0, sizeof(*s));
	s->ratio = NAN;
	stats_compute(st->rate, st->nr, &s->rate);
	stats_compute(st->ns, st->nr, &s->ns);
	/* a round's units are one observation: their mean (see sampler) */
	nr = stats_cluster_means(st->unit, st->unit_round, st->nr_units,
				 mean);
	stats_compute(mean, nr, &s->units);
	s->ci95 = stats_ci_half(&s->units, 0.05);
	s->nr_units = st->nr_units;
	s->outliers = st->nr >= MIN_OUTLIER_SAMPLES ?
		      stats_outliers(st->rate, st->nr, flags) : 0;
	s->foreign_share = st->hits_window ?
			   (double)st->foreign / st->hits_window : 0;
	s->imprecise = st->stop == STOP_BUDGET || st->stop == STOP_MAX;
	if (!st->paired)
		return;
	stats_compute(st->unit_base_ns, st->nr_units, &base_ns);
	stats_compute(st->unit_ns, st->nr_units, &ns);
	stats_overhead(mean, nr, base_ns.mean, &s->overhead);
	s->has_overhead = true;
	s->ratio = ns.mean / base_ns.mean;
	/* each unit's share of its own base, its rounds' means averaged */
	stats_shares(st->unit, st->unit_base_ns, st->nr_units, share);
	nr = stats_cluster_means(share, st->unit_round, st->nr_units, mean);
	stats_overhead(mean, nr, 0, &s->share);
	s->below_base = s->overhead.value + s->overhead.ci95 < 0;
}

int row_settle_capped(const struct bench_row *row)
{
	const struct row_state *st = row->state;
	int i, n = 0;

	for (i = 0; i < st->nr; i++)
		n += st->settle_ns[i] >= SETTLE_MAX_NS;
	return n;
}

void format_hits(const struct bench_row *row, char *buf, size_t len)
{
	const struct row_state *st = row->state;

	snprintf(buf, len, "%llu/%llu", st->hits_window,
		 st->events * (row->hits_per_event ?: 1));
}

const char *format_or_dash(char *buf, size_t len, int prec, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", prec, v);
	else
		snprintf(buf, len, "-");
	return buf;
}

