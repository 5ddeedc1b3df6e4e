// SPDX-License-Identifier: GPL-2.0
/*
 * What is reported of the samples: each row's summary (mean ± stddev,
 * noise, outliers, overhead against its base with its uncertainty), the
 * notes beside it, and the --json file, written with jansson.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <jansson.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/libbpf_version.h>
#include "bench_cmdline.h"
#include "bench_cpus.h"
#include "bench_json.h"
#include "bench_kernel.h"
#include "bench_msg.h"
#include "bench_row.h"
#include "bench_skips.h"
#include "bench_workers.h"
#include "bench_attach.h"
#include "bench_compare.h"
#include "bench_profile.h"
#include "bench_report.h"
#include "bench_table.h"
#include "bench_util.h"
#include "bench_verify.h"

/* the JSON's "version" */
#define TOOL_VERSION	"2.0"
/* a median absolute deviation of fewer samples says little */
#define MIN_OUTLIER_SAMPLES	5
/* foreign hits above this share of all hits make a row noisy */
#define FOREIGN_NOISY		0.01

/* ---- summaries ---- */

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

/* ---- a row's caveats: a mark each in the table, a sentence in -v, JSON ---- */

/*
 * The marks, in the order of the notes and of the legend, each with what
 * the legend says of the rows that have it: "16 rows" comes first
 */
enum mark_id {
	MARK_BELOW, MARK_BUDGET, MARK_MAX_UNITS, MARK_STATS, MARK_NOISY,
	MARK_OUTLIERS, MARK_FOREIGN, MARK_KERNEL_SKIPPED, MARK_RETRIED,
	MARK_SETTLE, MARK_PROG_STATS, MARK_HOOK, NR_MARKS
};

_Static_assert(NR_MARKS <= ROW_NOTES_MAX, "a row's notes fit ROW_NOTES_MAX");

static const char mark_char[NR_MARKS] = {
	[MARK_BELOW] = '<', [MARK_BUDGET] = 'b', [MARK_MAX_UNITS] = 'm',
	[MARK_STATS] = 's', [MARK_NOISY] = 'n', [MARK_OUTLIERS] = 'o',
	[MARK_FOREIGN] = 'f', [MARK_KERNEL_SKIPPED] = 'k',
	[MARK_RETRIED] = 'r', [MARK_SETTLE] = 'w', [MARK_PROG_STATS] = 'p',
	[MARK_HOOK] = 'h',
};

/* sets note @id of @notes (@nr so far, room for NR_MARKS) */
static void note(struct row_note *notes, int *nr, enum mark_id id,
		 const char *fmt, ...)
{
	va_list ap;

	notes[*nr].mark = mark_char[id];
	va_start(ap, fmt);
	vsnprintf(notes[*nr].text, sizeof(notes[*nr].text), fmt, ap);
	va_end(ap);
	(*nr)++;
}

int row_note_list(const struct bench_row *row, const struct row_summary *s,
		  struct row_note notes[ROW_NOTES_MAX])
{
	const struct row_state *st = row->state;
	int again = st->retries + st->base_retries, nr = 0;

	if (s->below_base)
		note(notes, &nr, MARK_BELOW,
		     "faster than base by %.1f ± %.1f ns: the measurement is biased",
		     -s->overhead.value, s->overhead.ci95);
	if (s->imprecise)
		note(notes, &nr, st->stop == STOP_BUDGET ? MARK_BUDGET :
		     MARK_MAX_UNITS,
		     "stopped short of --precision (%s) after %d units",
		     row_stop_name(st->stop), st->nr_units);
	if (st->stats_runs)
		note(notes, &nr, MARK_STATS,
		     "the kernel's BPF run-time stats were on: %llu of its runs timed, each dearer by two clock reads",
		     st->stats_runs);
	if (stats_noisy(&s->ns))
		note(notes, &nr, MARK_NOISY, "noisy (CV of ns/event %.1f%%)",
		     100 * s->ns.cv);
	if (s->outliers)
		note(notes, &nr, MARK_OUTLIERS, "%d outlier%s", s->outliers,
		     s->outliers > 1 ? "s" : "");
	if (s->foreign_share > FOREIGN_NOISY)
		note(notes, &nr, MARK_FOREIGN,
		     "noisy: %.1f%% of the loops' hits were other processes'",
		     100 * s->foreign_share);
	if (st->kernel_skipped)
		note(notes, &nr, MARK_KERNEL_SKIPPED,
		     "the kernel skipped the program for %llu event(s) of the %llu runs it says it skipped in the loops: re-entry from an interrupt",
		     st->kernel_skipped, st->kernel_skips);
	if (again)
		note(notes, &nr, MARK_RETRIED,
		     "%d disturbed unit%s or sample%s run again", again,
		     again > 1 ? "s" : "", again > 1 ? "s" : "");
	if (row_settle_capped(row))
		note(notes, &nr, MARK_SETTLE,
		     "the kernel threads on its CPUs were still busy at the go of %d of %d samples (after %.0f ms)",
		     row_settle_capped(row), st->nr, SETTLE_MAX_NS / 1e6);
	if (st->prog_out.status != ST_OK)
		note(notes, &nr, MARK_PROG_STATS, "no prog stats: %s",
		     st->prog_out.reason);
	if (row->others[0])
		note(notes, &nr, MARK_HOOK, "other programs on the hook: %s",
		     row->others);
	return nr;
}

void row_notes(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len)
{
	struct row_note notes[ROW_NOTES_MAX];
	size_t off = 0;
	int i, nr;

	buf[0] = '\0';
	nr = row_note_list(row, s, notes);
	for (i = 0; i < nr && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
				notes[i].text);
}

void row_marks(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len)
{
	struct row_note notes[ROW_NOTES_MAX];
	int i, nr;

	nr = row_note_list(row, s, notes);
	for (i = 0; i < nr && (size_t)i + 1 < len; i++)
		buf[i] = notes[i].mark;
	buf[i] = '\0';
}

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

/* how many rows of the table (ok, with a figure) have each mark */
static void count_marks(const struct bench_rows *rows, int *count)
{
	struct row_note notes[ROW_NOTES_MAX];
	struct row_summary s;
	int i, k, m, nr;

	memset(count, 0, NR_MARKS * sizeof(*count));
	for (i = 0; i < rows->nr; i++) {
		if (!row_has_figure(&rows->row[i]))
			continue;
		row_summarize(&rows->row[i], &s);
		nr = row_note_list(&rows->row[i], &s, notes);
		for (k = 0; k < nr; k++)
			for (m = 0; m < NR_MARKS; m++)
				count[m] += notes[k].mark == mark_char[m];
	}
}

/* the legend's words for mark @m, after "16 rows " */
static void legend_text(const struct run_settings *rs, enum mark_id m,
			char *buf, size_t len)
{
	switch (m) {
	case MARK_BELOW:
		snprintf(buf, len, "measured faster than the base: a biased figure, never a cheaper program");
		break;
	case MARK_BUDGET:
		snprintf(buf, len, "stopped at the row budget (%g s) before ±%g%%: --budget buys more",
			 rs->row_budget_ns / 1e9, 100 * rs->precision);
		break;
	case MARK_MAX_UNITS:
		snprintf(buf, len, "stopped at %d units before ±%g%%: --max-units buys more",
			 rs->max_units, 100 * rs->precision);
		break;
	case MARK_STATS:
		snprintf(buf, len, "ran with the kernel's BPF run-time stats on: their clock reads are in the figure");
		break;
	case MARK_NOISY:
		snprintf(buf, len, "varied by more than %g%% (CV of ns per event) from sample to sample",
			 100 * NOISY_CV);
		break;
	case MARK_OUTLIERS:
		snprintf(buf, len, "had outlying samples, kept in the figure");
		break;
	case MARK_FOREIGN:
		snprintf(buf, len, "had more than %g%% of the loops' hits from other processes, never counted as ours",
			 100 * FOREIGN_NOISY);
		break;
	case MARK_KERNEL_SKIPPED:
		snprintf(buf, len, "had program runs the kernel skipped, nested in an interrupt (Excused, below)");
		break;
	case MARK_RETRIED:
		snprintf(buf, len, "had disturbed units or samples, run again");
		break;
	case MARK_SETTLE:
		snprintf(buf, len, "had a go after %.0f ms of waiting for busy kernel threads on their CPUs",
			 SETTLE_MAX_NS / 1e6);
		break;
	case MARK_PROG_STATS:
		snprintf(buf, len, "got no --prog-stats figure");
		break;
	case MARK_HOOK:
		snprintf(buf, len, "shared the hook with other BPF programs");
		break;
	default:
		buf[0] = '\0';
	}
}

void print_legend(const struct run_settings *rs, const struct bench_rows *rows)
{
	int count[NR_MARKS], m, said = 0;
	char text[256];

	count_marks(rows, count);
	for (m = 0; m < NR_MARKS; m++) {
		if (!count[m])
			continue;
		legend_text(rs, m, text, sizeof(text));
		printf_folded("%-6s %c %3d row%s %s", said++ ? "" : "Notes:",
			      mark_char[m], count[m], count[m] > 1 ? "s" : "",
			      text);
	}
	if (said && rs->verbosity < 2)
		printf_folded("%-6s   -v gives each row's notes in full, --json too",
			      "");
}

void print_reasons(const struct bench_rows *rows)
{
	char name[256];
	int i;

	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (row->out.status != ST_DISTURBED &&
		    row->out.status != ST_FAILED)
			continue;
		format_row_name(row, name, sizeof(name));
		printf_folded("%s: %s: %s", name, status_name(row->out.status),
			      row->out.reason);
	}
}

void print_row_notes(const struct bench_rows *rows,
		     void (*more)(const struct bench_row *row, char *buf,
				  size_t len))
{
	char name[256], notes[REASON_LEN + 512], extra[512];
	struct row_summary s;
	bool any = false;
	size_t n;
	int i;

	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (!row_has_figure(row))
			continue;
		row_summarize(row, &s);
		row_notes(row, &s, notes, sizeof(notes));
		extra[0] = '\0';
		if (more)
			more(row, extra, sizeof(extra));
		if (!notes[0] && !extra[0])
			continue;
		n = strlen(notes);
		if (extra[0])
			snprintf(notes + n, sizeof(notes) - n, "%s%s",
				 n ? ", " : "", extra);
		if (!any)
			printf("Each row's notes:\n");
		any = true;
		format_row_name(row, name, sizeof(name));
		printf_folded("  %s: %s", name, notes);
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

/* ---- runs the kernel skipped, excused ---- */

void excused_line(const struct bench_rows *rows, char *buf, size_t len)
{
	__u64 excused = 0, events = 0;
	int i, nr = 0;

	buf[0] = '\0';
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (!row->state->kernel_skipped)
			continue;
		excused += row->state->kernel_skipped;
		events += row->state->events * (row->hits_per_event ?: 1);
		nr++;
	}
	if (nr)
		snprintf(buf, len,
			 "Excused: the kernel skipped %llu of the %llu program runs the events make, in %d row%s (nested in an interrupt's run): those runs' cost is not in the figures",
			 excused, events, nr, nr > 1 ? "s" : "");
}

void print_excused(const struct bench_rows *rows)
{
	char line[256];

	excused_line(rows, line, sizeof(line));
	if (line[0])
		printf_folded("%s", line);
}

/* ---- --json ---- */

#define CPU_MODEL_LEN	128

/* /proc/cpuinfo's "model name\t: text": the text into @model, 1 */
static int model_name_line(char *line, void *model)
{
	char *colon = strchr(line, ':');

	if (strncmp(line, "model name", 10) || !colon)
		return 0;
	snprintf(model, CPU_MODEL_LEN, "%s", colon + 1 + strspn(colon + 1, " "));
	return 1;
}

static void cpu_model(char *buf)
{
	if (for_each_line("/proc/cpuinfo", model_name_line, buf) != 1)
		snprintf(buf, CPU_MODEL_LEN, "unknown");
}

const char *libbpf_version_text(void)
{
	static char text[48];
	unsigned int major = libbpf_major_version();
	unsigned int minor = libbpf_minor_version();

	if (major == LIBBPF_MAJOR_VERSION && minor == LIBBPF_MINOR_VERSION)
		snprintf(text, sizeof(text), "%u.%u", major, minor);
	else
		snprintf(text, sizeof(text), "%u.%u (built against %u.%u)",
			 major, minor, LIBBPF_MAJOR_VERSION,
			 LIBBPF_MINOR_VERSION);
	return text;
}

/* an int that -1 leaves unknown */
static json_t *known_int(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* what changes a program's cost besides its code */
static void jit_json(json_t *c)
{
	struct bpf_jit_state j;

	bpf_jit_read(&j);
	json_object_update_new(c, json_pack("{s:o, s:o, s:o, s:o}",
		"bpf_jit_enable", known_int(j.enable),
		"bpf_jit_harden", known_int(j.harden),
		"bpf_jit_kallsyms", known_int(j.kallsyms),
		"bpf_jit_always_on", j.always_on < 0 ? json_null() :
				     json_boolean(j.always_on)));
}

/* when the run got the lock: the context's run_ns counts from there */
static __u64 run_started_ns;

void report_run_started(void)
{
	run_started_ns = now_ns();
}

static json_t *context_json(const struct bench_family *fam)
{
	char model[CPU_MODEL_LEN], cpus[1024], version[32], stamp[32];
	const struct run_settings *rs = &bench_rs;
	struct cpu_list usable = {};
	struct utsname uts;
	time_t now = time(NULL);
	json_t *c;

	uname(&uts);
	cpu_model(model);
	format_cpus(&rs->cpus, cpus, sizeof(cpus));
	snprintf(version, sizeof(version), "%u.%u", libbpf_major_version(),
		 libbpf_minor_version());
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	usable_cpus(&usable);

	c = json_pack("{s:s, s:s, s:s, s:o, s:i, s:s, s:s, s:n, s:o, s:o, s:o,"
		      " s:i, s:i, s:o, s:o, s:i, s:s}",
		      "kernel_release", uts.release,
		      "kernel_build", uts.version,
		      "machine", uts.machine,
		      "cpu_model", json_text(model),
		      "online_cpus", usable.nr,
		      "cpus_used", cpus,
		      "libbpf_version", version,
		      "attach_method",
		      /* -d makes a count meaningless: null says so */
		      "count", rs->count && !rs->duration ?
			       json_integer(rs->count) : json_null(),
		      "duration_s", rs->duration ?
				    json_real(rs->duration) : json_null(),
		      "repeat", rs->repeat ?
				json_integer(rs->repeat) : json_null(),
		      "min_units", rs->repeat ?: rs->min_units,
		      "max_units", rs->repeat ?: rs->max_units,
		      "precision", rs->repeat ?
				   json_null() : json_real(rs->precision),
		      "row_budget_s", rs->repeat ?
				   json_null() : json_real(rs->row_budget_ns / 1e9),
		      "warmup", rs->warmup,
		      "timestamp", stamp);
	cpu_list_free(&usable);
	/* the run's own time, its wait for the lock aside: the rows' time_ns
	 * and what else it did (probes, loads, --prog-stats) */
	json_object_set_new(c, "run_ns", run_started_ns ?
			    json_integer(now_ns() - run_started_ns) :
			    json_null());
	jit_json(c);
	if (fam->json_context)
		fam->json_context(rs, c);
	return c;
}

/* a JSON array of @n values of @x, each made by @make (json_integer, ...) */
#define json_array_of(x, n, make) ({					\
	json_t *a_ = json_array();					\
	int i_;								\
									\
	for (i_ = 0; i_ < (n); i_++)					\
		json_array_append_new(a_, make((x)[i_]));		\
	a_;								\
})

static json_t *samples_json(const double *x, int n)
{
	return json_array_of(x, n, json_number);
}

/*
 * The row's units: each its figure (overhead, or ns per event without a
 * base), the row's and its base's ns per event in it, its round, its
 * count of events per worker, and whether it ran again for a disturbed
 * one; their mean and interval over the rounds' means, @observations
 */
static json_t *units_json(const struct bench_row *row,
			  const struct row_summary *s)
{
	const struct row_state *st = row->state;

	double share[MAX_UNITS];

	stats_shares(st->unit, st->unit_base_ns, st->nr_units, share);
	return json_pack("{s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"quantity", st->paired ? "overhead_ns" : "ns_per_event",
		"n", st->nr_units,
		"observations", s->units.n,
		"mean", json_number(s->units.mean),
		"ci95", json_number(s->ci95),
		"values", samples_json(st->unit, st->nr_units),
		"ns", samples_json(st->unit_ns, st->nr_units),
		"base_ns", st->paired ?
			samples_json(st->unit_base_ns, st->nr_units) :
			json_null(),
		/* each unit's overhead over its own base, in % */
		"shares", st->paired ? samples_json(share, st->nr_units) :
			json_null(),
		"rounds", json_array_of(st->unit_round, st->nr_units,
					 json_integer),
		"counts", json_array_of(st->unit_count, st->nr_units,
					 json_integer),
		"retries", json_array_of(st->unit_retry, st->nr_units,
					  json_boolean));
}

static void stats_json(json_t *o, const struct bench_row *row,
		       const struct row_summary *s)
{
	const struct row_state *st = row->state;
	bool flags[MAX_SAMPLES] = {}, has = s->has_overhead;
	json_t *outliers = json_array();
	int i;

	if (st->nr >= MIN_OUTLIER_SAMPLES)
		stats_outliers(st->rate, st->nr, flags);
	for (i = 0; i < st->nr; i++)
		json_array_append_new(outliers, json_boolean(flags[i]));
	json_object_update_new(o, json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b,"
		" s:{s:o, s:o, s:o, s:o}, s:o, s:o, s:o, s:o, s:o, s:b, s:b}",
		"samples", samples_json(st->rate, st->nr),
		"outliers", outliers,
		"mean", json_number(s->rate.mean),
		"stddev", json_number(s->rate.stddev),
		"min", json_number(s->rate.min),
		"max", json_number(s->rate.max),
		"cv", json_number(s->rate.cv),
		"ci95", json_number(stats_ci_half(&s->rate, 0.05)),
		"noisy", stats_noisy(&s->ns) ||
			 s->foreign_share > FOREIGN_NOISY,
		"ns_per_event",
			"mean", json_number(s->ns.mean),
			"stddev", json_number(s->ns.stddev),
			"cv", json_number(s->ns.cv),
			"samples", samples_json(st->ns, st->nr),
		"units", units_json(row, s),
		"overhead_ns", has ? json_pack("{s:o, s:o, s:i, s:i}",
			"value", json_number(s->overhead.value),
			"ci95", json_number(s->overhead.ci95),
			"units", s->nr_units,
			"observations", s->overhead.n) :
			json_null(),
		"overhead_share", has ? json_pack("{s:o, s:o, s:i, s:i}",
			"value", json_number(s->share.value),
			"ci95", json_number(s->share.ci95),
			"units", s->nr_units,
			"observations", s->share.n) :
			json_null(),
		"overhead_pct", has ? json_number(s->overhead.pct) : json_null(),
		"ratio_to_base", has ? json_number(s->ratio) : json_null(),
		"precise", st->stop == STOP_PRECISE,
		"below_base", s->below_base));
}

/*
 * Each worker's CPU, its events and its own hits inside its loops, over
 * the counted samples: what the runner checked, CPU by CPU
 */
static json_t *per_cpu_json(const struct bench_row *row)
{
	const struct row_state *st = row->state;
	json_t *a = json_array();
	int w;

	for (w = 0; w < row->cpus->nr && st->worker_events; w++)
		json_array_append_new(a, json_pack("{s:i, s:I, s:I}",
			"cpu", row->cpus->cpu[w],
			"events", (json_int_t)st->worker_events[w],
			"hits_window", (json_int_t)st->worker_hits_window[w]));
	return a;
}

/*
 * How long its programs stayed attached: around its row samples alone
 * (its hits outside the workers' loops are none of its events'), through
 * its sessions' units, or from its first session to the end of the run;
 * null: never attached
 */
static json_t *attached_for_json(const struct row_state *st)
{
	static const char *const names[] = {
		[ATTACHED_SAMPLES] = "samples",
		[ATTACHED_SESSION] = "session",
		[ATTACHED_RUN] = "run",
	};

	return st->attached_for == ATTACHED_NEVER ? json_null() :
	       json_string(names[st->attached_for]);
}

/*
 * The summary's marks of a row with a figure ("bnr") and each one's
 * sentence: "notes": [{"mark": "b", "text": "stopped short of ..."}]
 */
static void notes_json(json_t *o, const struct bench_row *row,
		       const struct row_summary *s)
{
	struct row_note notes[ROW_NOTES_MAX];
	json_t *a = json_array();
	char marks[NR_MARKS + 1];
	int i, nr = s ? row_note_list(row, s, notes) : 0;

	for (i = 0; i < nr; i++) {
		marks[i] = notes[i].mark;
		json_array_append_new(a, json_pack("{s:s#, s:o}",
			"mark", &notes[i].mark, (int)1,
			"text", json_text(notes[i].text)));
	}
	marks[nr] = '\0';
	json_object_set_new(o, "marks", json_string(marks));
	json_object_set_new(o, "notes", a);
}

static void counts_json(json_t *o, const struct bench_family *fam,
			const struct bench_row *row)
{
	const struct row_state *st = row->state;

	json_object_set_new(o, "events", json_integer(st->events));
	if (!row->runs_prog) {
		json_object_set_new(o, "hits", json_null());
		return;
	}
	json_object_set_new(o, "per_cpu", per_cpu_json(row));
	json_object_set_new(o, "attached_for", attached_for_json(st));
	json_object_update_new(o, json_pack(
		"{s:I, s:I, s:I, s:I, s:o, s:i, s:I, s:I, s:I, s:I, s:i, s:i,"
		" s:o, s:o, s:o, s:o, s:o, s:o, s:o*}",
		"hits", (json_int_t)st->hits,
		/* the verified ones: inside the workers' loops, on their CPUs */
		"hits_window", (json_int_t)st->hits_window,
		"hits_outside", (json_int_t)(st->hits - st->hits_window),
		"runs_counted", (json_int_t)row->runs_counted,
		"prog_ids", json_array_of(st->prog_ids, st->nr_prog_ids,
					    json_integer),
		/* a row loaded afresh each session has each load's ids */
		"loads", st->loads,
		"foreign_hits", (json_int_t)st->foreign,
		"kernel_skipped", (json_int_t)st->kernel_skipped,
		"kernel_skips", (json_int_t)st->kernel_skips,
		/* runs the kernel's BPF run-time stats timed (someone's on) */
		"bpf_stats_runs", (json_int_t)st->stats_runs,
		"hits_per_event", (int)row->hits_per_event,
		"programs", row->nr_counters,
		"attach_ns", json_number(row_attach_median(row)),
		"detach_ns", json_number(row_detach_median(row)),
		"prog_ns_per_run", json_number(st->prog_ns),
		"prog_stats_clock_ns", json_number(st->prog_clock_ns),
		/* the runs beside the hits they counted: a dilution shows */
		"prog_runs", st->prog_runs ?
			     json_integer(st->prog_runs) : json_null(),
		"prog_hits", st->prog_runs ?
			     json_integer(st->prog_hits) : json_null(),
		"prog_stats_reason", st->prog_out.status == ST_OK ? NULL :
				     json_text(st->prog_out.reason)));
}

/*
 * Where the row's time went: its sessions' (spent_ns) by phase, the rest
 * of them "other"; beside them, outside the sessions, its programs'
 * loads and its detach at the run's end. "loops_counted" is the part of
 * "loops" its figures came from; "retries" the time of the samples and
 * units run again, which the phases hold too.
 */
static json_t *time_json(const struct bench_row *row)
{
	static const char *const names[NR_PHASES] = {
		[PHASE_FORK] = "fork", [PHASE_ATTACH] = "attach",
		[PHASE_DETACH] = "detach", [PHASE_QUIET] = "quiet",
		[PHASE_LOOPS] = "loops", [PHASE_RUN] = "run",
		[PHASE_READS] = "reads", [PHASE_CHECKS] = "checks",
		[PHASE_STOP] = "stop",
	};
	const struct row_state *st = row->state;
	__u64 phases = 0;
	json_t *o;
	int i;

	o = json_pack("{s:I}", "sessions", (json_int_t)st->spent_ns);
	for (i = 0; i < NR_PHASES; i++) {
		json_object_set_new(o, names[i],
				    json_integer(st->phase_ns[i]));
		phases += st->phase_ns[i];
	}
	json_object_update_new(o, json_pack("{s:I, s:I, s:I, s:I, s:I}",
		"other", (json_int_t)(st->spent_ns > phases ?
				      st->spent_ns - phases : 0),
		"loops_counted", (json_int_t)st->loops_counted_ns,
		"retries", (json_int_t)st->retry_ns,
		"load", (json_int_t)st->load_ns,
		"detach_at_end", (json_int_t)st->detach_end_ns));
	return o;
}

json_t *params_json(const struct bench_row *row)
{
	json_t *params = json_object();
	int i;

	for (i = 0; i < row->nr_params; i++)
		json_object_set_new(params, row->params[i].key,
				    json_integer(row->params[i].value));
	return params;
}

json_t *row_json(const struct bench_family *fam,
			const struct bench_rows *rows,
			const struct bench_row *row)
{
	const struct row_state *st = row->state;
	bool figure = row_has_figure(row);
	struct row_summary s;
	char cpus[1024];
	json_t *o;

	format_cpus(row->cpus, cpus, sizeof(cpus));
	o = json_pack("{s:s, s:s, s:o*, s:s, s:o, s:s, s:s, s:i}",
		      "name", row->name,
		      "variant", row->variant,
		      "params", row->nr_params ? params_json(row) : NULL,
		      "status", status_json(row->out.status),
		      "reason", figure ? json_null() :
					 json_text(row->out.reason),
		      "unit", "events/s",
		      /* fewer than the run's with --scale, or consumers */
		      "cpus", cpus,
		      "workers", row->cpus->nr);
	if (figure) {
		row_summarize(row, &s);
		stats_json(o, row, &s);
	}
	notes_json(o, row, figure ? &s : NULL);
	json_object_update_new(o, json_pack(
		"{s:s, s:b, s:i, s:i, s:i, s:i, s:I, s:i, s:i, s:I, s:o, s:i, s:I, s:s?}",
		"stop", row_stop_name(st->stop),
		/* a base row whose samples came from its rows' units */
		"fed", st->fed,
		"samples_run", st->samples_run,
		"sessions", st->sessions,
		"attempts", st->attempts,
		"disturbed_units", st->disturbed_units,
		"spent_ns", (json_int_t)st->spent_ns,
		"disturbed_retries", st->retries,
		"base_retries", st->base_retries,
		"retry_ns", (json_int_t)st->retry_ns,
		/* how long the kernel took to go quiet before the go */
		"settle_ns", json_number(row_median(st->settle_ns, st->nr)),
		/* samples released after the longest wait, not into quiet */
		"settle_capped", row_settle_capped(row),
		/* the host's steal on the workers' CPUs in counted samples */
		"steal_ns", (json_int_t)st->steal_ns,
		"other_links", row->others[0] ? row->others : NULL));
	json_object_set_new(o, "time_ns", time_json(row));
	counts_json(o, fam, row);
	if (bench_rs.profile)
		json_object_set_new(o, "profile", profile_json(row));
	if (fam->json_row)
		fam->json_row(rows, row, o);
	return o;
}

int write_results(const struct bench_family *fam,
		  const struct bench_rows *rows, FILE *f)
{
	json_t *root, *results = json_array();
	int i, err;

	for (i = 0; i < rows->nr; i++)
		json_array_append_new(results, row_json(fam, rows, &rows->row[i]));
	root = json_pack("{s:s, s:s, s:s, s:o, s:o}",
			 "schema", BENCH_SCHEMA,
			 "tool", fam->name,
			 "version", TOOL_VERSION,
			 "context", context_json(fam),
			 "results", results);
	err = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			 JSON_REAL_PRECISION(17)) ? -EIO : 0;
	if (!err && fputc('\n', f) == EOF)
		err = -EIO;
	json_decref(root);
	return err;
}

