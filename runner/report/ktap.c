// SPDX-License-Identifier: GPL-2.0
/*
 * --ktap: the rows as KTAP version 1, as kselftest prints a test's, one
 * test point a row with its figure or its reason and the "# Totals"
 * line; or, for a run that ended before its rows, the whole test skipped
 * or bailed out. A row's figure is read from the row's own JSON, so the
 * two never tell different numbers; apart from the JSON writer because
 * KTAP is a format with its own rules for what a line may hold.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>
#include "report/report.h"
#include "core/core.h"
#include "rows/rows.h"

/*
 * A KTAP description or reason on one line: no newline or control byte
 * (a line of its own would be an unknown line), and in a description no
 * '#', which would start the directive
 */
static void ktap_clean(char *s, bool description)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (description && *s == '#'))
			*s = ' ';
}

/* a number of @o's object @key, NAN where it is none */
static double json_get_number(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/*
 * The figure of a row whose figure is no cost per event: --memory's
 * bytes per element, --attach-time's attach and detach; false for others
 */
static bool ktap_other_figure(json_t *o, char *buf, size_t len)
{
	json_t *mem = json_object_get(o, "memory");
	char a[24], b[24];
	double funcs;

	if (json_is_object(mem)) {
		snprintf(buf, len, "%s bytes/element charged, memlock %s bytes/element",
			 format_or_dash(a, sizeof(a), 1,
				json_get_number(mem, "bytes_per_element")),
			 format_or_dash(b, sizeof(b), 1,
				json_get_number(mem, "memlock_per_element")));
		return true;
	}
	funcs = json_get_number(o, "functions");
	if (!isfinite(funcs))
		return false;
	snprintf(buf, len, "attach %s ms, detach %s ms on %.0f functions",
		 format_or_dash(a, sizeof(a), 2,
				json_get_number(o, "attach_ns") / 1e6),
		 format_or_dash(b, sizeof(b), 2,
				json_get_number(o, "detach_ns") / 1e6),
		 funcs);
	return true;
}

/* the figure the JSON gives the row, as words: "overhead 33.7 ± 4.0 ns/event" */
static void ktap_figure(json_t *o, char *buf, size_t len)
{
	json_t *op = json_object_get(o, "ns_per_op");
	json_t *oh = json_object_get(o, "overhead_ns");
	json_t *fig = json_object_get(o, "units"), *value, *ci;
	const char *what = "", *unit = "ns/event";
	int prec = 1;
	size_t off;

	if (ktap_other_figure(o, buf, len))
		return;
	if (json_is_object(op)) {
		fig = op;
		unit = "ns/op";
		prec = 2;
	} else if (json_is_object(oh)) {
		fig = oh;
		what = "overhead ";
	}
	value = json_object_get(fig, json_is_object(op) || json_is_object(oh) ?
				"value" : "mean");
	ci = json_object_get(fig, "ci95");
	if (!json_is_number(value)) {
		snprintf(buf, len, "no figure");
		return;
	}
	off = snprintf(buf, len, "%s%.*f", what, prec,
		       json_number_value(value));
	if (json_is_number(ci) && off < len)
		off += snprintf(buf + off, len - off, " ± %.*f", prec,
				json_number_value(ci));
	if (off < len)
		snprintf(buf + off, len - off, " %s", unit);
}

void write_ktap(const struct bench_family *fam,
		const struct run_settings *rs,
		const struct bench_rows *rows, FILE *f)
{
	int i, pass = 0, fail = 0, skip = 0;
	char name[256], reason[REASON_LEN], figure[128];

	fprintf(f, "KTAP version 1\n1..%d\n", rows->nr);
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];
		json_t *o;

		format_row_name(row, name, sizeof(name));
		ktap_clean(name, true);
		snprintf(reason, sizeof(reason), "%s", row->out.reason);
		ktap_clean(reason, false);
		switch (row->out.status) {
		case ST_OK:
			/* the JSON's own figure: one source for both */
			o = row_json(fam, rs, rows, row);
			ktap_figure(o, figure, sizeof(figure));
			json_decref(o);
			fprintf(f, "# %s: %s\nok %d %s\n", name, figure,
				i + 1, name);
			pass++;
			break;
		case ST_SKIPPED:
			fprintf(f, "ok %d %s # SKIP %s\n", i + 1, name, reason);
			skip++;
			break;
		case ST_DISTURBED:
			/* the machine's doing: no figure, and no fault */
			fprintf(f, "ok %d %s # SKIP disturbed: %s\n", i + 1,
				name, reason);
			skip++;
			break;
		case ST_FAILED:
			fprintf(f, "# %s: FAILED: %s\nnot ok %d %s\n", name,
				reason, i + 1, name);
			fail++;
			break;
		}
	}
	fprintf(f, "# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
		pass, fail, skip);
}

void write_ktap_early(FILE *f, bool skip, const char *reason)
{
	char why[256];

	snprintf(why, sizeof(why), "%s", reason && *reason ? reason :
		 "ended before any row ran");
	ktap_clean(why, false);
	/* kselftest.h's ksft_exit_skip() and ksft_exit_fail_msg() */
	if (skip)
		fprintf(f, "KTAP version 1\n1..0 # SKIP %s\n", why);
	else
		fprintf(f, "KTAP version 1\nBail out! %s\n"
			"# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0\n",
			why);
}
