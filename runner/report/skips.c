// SPDX-License-Identifier: GPL-2.0
/*
 * Skipped rows, by reason: the groups the summary says each reason once
 * for, their labels and lines, and a reason without its mode's name,
 * which the compare groups by too. A leaf beside the report, so that the
 * compare need not link the report to say what both sides skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "report/report.h"
#include "core/core.h"

void skip_reason(const char *reason, const char *mode, char *buf,
		 size_t len)
{
	size_t n = strlen(mode), off = 0;
	const char *p = reason;

	/* "fentry refused by ..." and "(kprobe_multi link: ...)": dropped */
	while (*p && off + 1 < len) {
		if ((p == reason || !word_char(p[-1])) &&
		    !strncmp(p, mode, n) && p[n] == ' ') {
			p += n + 1;
			continue;
		}
		buf[off++] = *p++;
	}
	buf[off] = '\0';
}

static void row_skip_reason(const struct bench_row *row, row_mode_fn mode,
			    char *buf, size_t len)
{
	skip_reason(row->out.reason, mode(row), buf, len);
}

bool skip_group_has(const struct bench_rows *rows, const struct skip_group *g,
		    row_mode_fn mode, int i)
{
	char reason[REASON_LEN];

	if (rows->row[i].out.status != ST_SKIPPED)
		return false;
	row_skip_reason(&rows->row[i], mode, reason, sizeof(reason));
	return !strcmp(reason, g->reason);
}

int skip_groups(const struct bench_rows *rows, const bool *in,
		row_mode_fn mode, struct skip_group **groups)
{
	struct skip_group *g = NULL, *grown;
	char reason[REASON_LEN];
	int i, k, nr = 0;

	for (i = 0; i < rows->nr; i++) {
		if (rows->row[i].out.status != ST_SKIPPED || (in && !in[i]))
			continue;
		row_skip_reason(&rows->row[i], mode, reason, sizeof(reason));
		for (k = 0; k < nr && strcmp(g[k].reason, reason); k++)
			;
		if (k == nr) {
			grown = realloc(g, (nr + 1) * sizeof(*g));
			if (!grown) {
				free(g);
				return -ENOMEM;
			}
			g = grown;
			g[nr].first = i;
			g[nr].nr = 0;
			g[nr].modes = false;
			snprintf(g[nr++].reason, REASON_LEN, "%s", reason);
		}
		g[k].nr++;
		if (strcmp(mode(&rows->row[i]), mode(&rows->row[g[k].first])))
			g[k].modes = true;
	}
	*groups = g;
	return nr;
}

const char *skip_group_reason(const struct bench_rows *rows,
			      const struct skip_group *g)
{
	/* "no tracepoint ..." of a tracepoint row keeps its word */
	return g->modes ? g->reason : rows->row[g->first].out.reason;
}

/* the row's column that is not its mode: an event, or a map test */
static const char *row_other(const struct bench_row *row, row_mode_fn mode)
{
	return mode(row) == row->name ? row->variant : row->name;
}

void skip_group_label(const struct bench_rows *rows, const bool *in,
		      const struct skip_group *g, row_mode_fn mode,
		      row_mode_fn mode_of, char *buf, size_t len)
{
	const struct bench_row *first = &rows->row[g->first];
	const char *other = row_other(first, mode), *seen[32];
	char params[64];
	int i, k, nr_seen = 0;
	size_t off = 0;

	if (g->nr == 1 && !mode_of) {
		format_params(first, params, sizeof(params));
		snprintf(buf, len, "%s %s%s", first->name, first->variant,
			 params);
		return;
	}
	buf[0] = '\0';
	for (i = g->first; i < rows->nr && off < len; i++) {
		const struct bench_row *row = &rows->row[i];

		if ((in && !in[i]) || !skip_group_has(rows, g, mode, i))
			continue;
		if (other && strcmp(row_other(row, mode), other))
			other = NULL;
		/* each mode once, where it first comes */
		for (k = 0; k < nr_seen && strcmp(seen[k], mode(row)); k++)
			;
		if (k < nr_seen)
			continue;
		if (nr_seen < 32)
			seen[nr_seen++] = mode(row);
		off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
				(mode_of ?: mode)(row));
	}
	if (other && off < len)
		off += snprintf(buf + off, len - off, " %s", other);
	if (g->nr > 1 && off < len)
		snprintf(buf + off, len - off, " (%d rows)", g->nr);
}

void print_skip_groups(const struct bench_rows *rows, row_mode_fn mode)
{
	struct skip_group *g;
	char label[256];
	int i, nr, skipped = 0;

	nr = skip_groups(rows, NULL, mode, &g);
	for (i = 0; i < nr; i++)
		skipped += g[i].nr;
	if (nr > 0)
		printf("Skipped (%d row%s; --json gives each its reason):\n",
		       skipped, skipped > 1 ? "s" : "");
	for (i = 0; i < nr; i++) {
		skip_group_label(rows, NULL, &g[i], mode, NULL, label,
				 sizeof(label));
		printf_folded("  %s: %s", label, skip_group_reason(rows, &g[i]));
	}
	if (nr > 0)
		free(g);
	else if (nr < 0)
		printf("Skipped: some rows (out of memory to list them; --json has them)\n");
}
