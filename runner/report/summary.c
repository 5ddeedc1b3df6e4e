// SPDX-License-Identifier: GPL-2.0
/*
 * The summary table a family prints of its rows: each row's line (name,
 * variant, figure ± interval, share of its base, verdict, marks, with
 * -v its rate), the table fitted to the terminal, the short form to
 * paste, and the libbpf the run's header names. Apart from the row's
 * figures (bench_row_summary.c) and its notes (bench_notes.c), which
 * the JSON writes too: this is the text a reader sees.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <bpf/libbpf_version.h>
#include "kernel/kernel.h"
#include "core/core.h"
#include "rows/rows.h"
#include "report/report.h"

/*
 * The CPU a reason names ("... on CPU 1 ...", "CPU 0: ..."): every check
 * that fails a row on one CPU says so in those words. -1 for none.
 */
static int reason_cpu(const char *reason)
{
	const char *p;

	for (p = strstr(reason, "CPU "); p; p = strstr(p + 1, "CPU "))
		if ((p == reason || !word_char(p[-1])) && p[4] >= '0' &&
		    p[4] <= '9')
			return atoi(p + 4);
	return -1;
}

void row_verdict(const struct run_settings *rs, const struct bench_row *row,
		 bool checked, char *buf, size_t len)
{
	int cpu;

	switch (row->out.status) {
	case ST_OK:
		/* a test fault may have changed what the checks saw */
		snprintf(buf, len, "%s", !checked ? "ok" :
			 run_fault(rs)->kind ? "unverified" : "verified");
		break;
	case ST_FAILED:
		cpu = reason_cpu(row->out.reason);
		if (cpu >= 0)
			snprintf(buf, len, "FAILED CPU %d", cpu);
		else
			snprintf(buf, len, "FAILED");
		break;
	default:
		snprintf(buf, len, "%s", status_name(row->out.status));
	}
}

int summary_row(const struct run_settings *rs, struct table *t,
		const struct bench_row *row, const char *name,
		const char *variant, bool checked, row_figure_fn figure,
		struct row_summary *s)
{
	char a[64], b[64];
	struct row_figure f;
	int i = table_add_row(t);

	table_set(t, i, SUMMARY_NAME, "%s", name);
	table_set(t, i, SUMMARY_VARIANT, "%s", variant);
	row_verdict(rs, row, checked, a, sizeof(a));
	table_set(t, i, SUMMARY_VERDICT, "%s", a);
	if (!row_has_figure(row)) {
		table_set(t, i, SUMMARY_FIGURE, "-");
		return -1;
	}
	row_summarize(row, s);
	figure(row, s, &f);
	format_estimate(f.value, f.ci95, f.sign, a, sizeof(a), b, sizeof(b));
	table_set(t, i, SUMMARY_FIGURE, "%s", a);
	table_set(t, i, SUMMARY_CI, "%s", b);
	format_share(f.share_pct, a, sizeof(a));
	/* -v: the share's interval, to the share's own decimals */
	if (rs->verbosity > 1 && isfinite(f.share_pct) &&
	    isfinite(s->share.ci95))
		snprintf(a + strlen(a), sizeof(a) - strlen(a), " ± %.*f",
			 fabs(f.share_pct) < 9.95 ? 1 : 0, s->share.ci95);
	/* a row whose base has no figure has no overhead either */
	table_set(t, i, SUMMARY_SHARE, "%s", !s->has_overhead && row->base &&
		  row->base != row ? "no base" : a);
	row_marks(row, s, a, sizeof(a));
	table_set(t, i, SUMMARY_NOTES, "%s", a);
	if (rs->verbosity > 1) {
		table_set(t, i, SUMMARY_RATE, "%.3fM", s->rate.mean / 1e6);
		table_set(t, i, SUMMARY_RATE_SD, "± %.3fM",
			  s->rate.stddev / 1e6);
	}
	return i;
}

/* a line of text to paste: on two, "name :" then the rest, when too wide */
static void short_line(const char *name, int pad, const char *rest)
{
	int cols = text_cols(name);

	if (cols + 3 + text_cols(rest) > PASTE_WIDTH)
		printf("%s :\n    %s\n", name, rest);
	else
		printf("%s%*s : %s\n", name, pad > cols ? pad - cols : 0, "",
		       rest);
}

/* names wider than this are not padded to the others' width */
#define SHORT_NAME_PAD	30

void print_short(const struct run_settings *rs, const struct bench_rows *rows,
		 row_figure_fn figure)
{
	char name[256], rest[256], value[64], share[32];
	struct row_summary s;
	struct row_figure f;
	int i, pad = 0, cols;

	for (i = 0; i < rows->nr; i++) {
		if (rows->row[i].out.status == ST_SKIPPED)
			continue;
		format_row_name(&rows->row[i], name, sizeof(name));
		cols = text_cols(name);
		if (cols > pad && cols <= SHORT_NAME_PAD)
			pad = cols;
	}
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (row->out.status == ST_SKIPPED)
			continue;
		format_row_name(row, name, sizeof(name));
		if (!row_has_figure(row)) {
			row_verdict(rs, row, false, value, sizeof(value));
			snprintf(rest, sizeof(rest), "%s, no figure", value);
			short_line(name, pad, rest);
			continue;
		}
		row_summarize(row, &s);
		figure(row, &s, &f);
		format_estimate(f.value, f.ci95, f.sign, value, sizeof(value),
				NULL, 0);
		format_share(f.share_pct, share, sizeof(share));
		snprintf(rest, sizeof(rest), isfinite(f.share_pct) ?
			 "%s %s (%s of base)" : "%s %s", value, f.unit, share);
		short_line(name, pad, rest);
	}
}

void print_table(struct table *t, bool verbose)
{
	int width = table_width(verbose);
	char dropped[256];

	if (table_print(t, stdout, 2, width, NAMES_WHOLE)) {
		table_dropped(t, 2, width, NAMES_WHOLE, dropped,
			      sizeof(dropped));
		printf_folded("  (left out to fit %d columns: %s)", width,
			      dropped);
	}
}

/* one string the families print as it is (bench.h): asked once, kept */
const char *libbpf_version_text(void)
{
	char *text = probe_cache.libbpf_version;
	size_t len = sizeof(probe_cache.libbpf_version);
	unsigned int major = libbpf_major_version();
	unsigned int minor = libbpf_minor_version();

	if (text[0])
		return text;
	if (major == LIBBPF_MAJOR_VERSION && minor == LIBBPF_MINOR_VERSION)
		snprintf(text, len, "%u.%u", major, minor);
	else
		snprintf(text, len, "%u.%u (built against %u.%u)",
			 major, minor, LIBBPF_MAJOR_VERSION,
			 LIBBPF_MINOR_VERSION);
	return text;
}
