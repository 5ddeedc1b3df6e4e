// SPDX-License-Identifier: GPL-2.0
/*
 * Rows: added to a run's table, given their parameters, and named as
 * every output names them ("raw_tp task_rename [progs=4]"). A leaf: the
 * families, the report and the profile all name rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rows/rows.h"

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
