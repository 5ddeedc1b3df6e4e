// SPDX-License-Identifier: GPL-2.0
/*
 * The --json results file of a run (Documentation/results.rst): every
 * figure, for tools and for --compare, where the table picks a few for a
 * reader. And --ktap, whose figures are read from the rows' JSON.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>
#include <sys/utsname.h>
#include "core/core.h"
#include "kernel/kernel.h"
#include "passes/passes.h"
#include "report/report.h"
#include "rows/rows.h"
#include "workers/workers.h"

/* the JSON's "version" */
#define TOOL_VERSION	"2.0"

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

static json_t *context_json(const struct bench_family *fam,
			    const struct run_settings *rs, __u64 started_ns)
{
	char model[CPU_MODEL_LEN], cpus[1024], version[32], stamp[32];
	struct cpu_list usable = {};
	struct utsname uts;
	time_t now = time(NULL);
	json_t *c;

	uname(&uts);
	if (for_each_line("/proc/cpuinfo", model_name_line, model) != 1)
		snprintf(model, sizeof(model), "unknown");
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
	json_object_set_new(c, "run_ns", started_ns ?
			    json_integer(now_ns() - started_ns) :
			    json_null());
	jit_json(c);
	if (fam->json_context)
		fam->json_context(rs, c);
	/* the test build's fault, last */
	if (run_fault(rs)->kind)
		json_object_set_new(c, "fault",
				    json_string(run_fault(rs)->name));
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

#define samples_json(x, n)	json_array_of(x, n, json_number)

/* the row's units, their mean and interval over the rounds' means */
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

/* an overhead (ns or share of the base) over @units units; null without a base */
static json_t *overhead_json(bool has, const struct overhead *o, int units)
{
	if (!has)
		return json_null();
	return json_pack("{s:o, s:o, s:i, s:i}",
			 "value", json_number(o->value),
			 "ci95", json_number(o->ci95),
			 "units", units,
			 "observations", o->n);
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
		"overhead_ns", overhead_json(has, &s->overhead, s->nr_units),
		"overhead_share", overhead_json(has, &s->share, s->nr_units),
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

/* how long its programs stayed attached; null: never attached */
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
	char marks[ROW_NOTES_MAX + 1];
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

static void counts_json(json_t *o, const struct bench_row *row)
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
 * Where the row's time went: its sessions' by phase, the rest "other";
 * beside them, outside the sessions, its loads and its detach at the end
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

/* one row's object of that file: --ktap reads its figure there */
static json_t *row_json(const struct bench_family *fam,
			const struct run_settings *rs,
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
	counts_json(o, row);
	if (rs->profile)
		json_object_set_new(o, "profile", profile_json(row));
	if (fam->json_row)
		fam->json_row(rows, row, o);
	return o;
}

int write_results(const struct bench_family *fam,
		  const struct run_settings *rs,
		  const struct bench_rows *rows, __u64 started_ns, FILE *f)
{
	json_t *root, *results = json_array();
	int i, err;

	for (i = 0; i < rows->nr; i++)
		json_array_append_new(results,
				      row_json(fam, rs, rows, &rows->row[i]));
	root = json_pack("{s:s, s:s, s:s, s:o, s:o}",
			 "schema", BENCH_SCHEMA,
			 "tool", fam->name,
			 "version", TOOL_VERSION,
			 "context", context_json(fam, rs, started_ns),
			 "results", results);
	err = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			 JSON_REAL_PRECISION(17)) ? -EIO : 0;
	if (!err && fputc('\n', f) == EOF)
		err = -EIO;
	json_decref(root);
	return err;
}

/* ---- --ktap: a row's figure read from its JSON, one source ---- */

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
