// SPDX-License-Identifier: GPL-2.0
/* Samples, their summary, the common options and the --json file. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include "bench_compare.h"
#include "bench_json.h"
#include "bench_report.h"

/* ---- options ---- */

void run_settings_init(struct run_settings *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->repeat = DEFAULT_REPEAT;
	rs->fail_on_regression = -1;
}

static int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno || !(v >= min && v <= max))
		return -EINVAL;
	*out = v;
	return 0;
}

/* getopt leaves a bad short option in optopt, a long one in argv */
static const char *offending_option(char **argv)
{
	static char shortopt[3] = "-";

	if (!optopt || !strncmp(argv[optind - 1], "--", 2))
		return argv[optind - 1];
	shortopt[1] = optopt;
	return shortopt;
}

static const char *option_name(int c)
{
	switch (c) {
	case 'r':
		return "-r/--repeat";
	case 'w':
		return "-w/--warmup";
	case 'd':
		return "-d/--duration";
	default:
		return "--fail-on-regression";
	}
}

int parse_common_option(int c, const char *arg, int argc, char **argv,
			struct run_settings *rs)
{
	__u64 n;

	switch (c) {
	case 'r':
		if (parse_u64(arg, 1, MAX_REPEAT, &n))
			goto bad;
		rs->repeat = n;
		return 1;
	case 'w':
		if (parse_u64(arg, 0, MAX_REPEAT, &n))
			goto bad;
		rs->warmup = n;
		return 1;
	case 'd':
		if (parse_double(arg, 0.001, 3600, &rs->duration))
			goto bad;
		return 1;
	case OPT_JSON:
		rs->json = arg;
		return 1;
	case OPT_PROG_STATS:
		rs->prog_stats = true;
		return 1;
	case OPT_COMPARE:
		/* the second file is the next word */
		if (optind >= argc) {
			pr_err("--compare needs two files: --compare A.json B.json");
			return -1;
		}
		rs->compare[0] = arg;
		rs->compare[1] = argv[optind++];
		return 1;
	case OPT_FAIL_ON_REGRESSION:
		if (parse_double(arg, 0, 1e6, &rs->fail_on_regression))
			goto bad;
		return 1;
	case 'q':
		verbosity = 0;
		return 1;
	case 'v':
		verbosity = 2;
		return 1;
	case ':':
		pr_err("option %s needs a value (see --help)",
		       offending_option(argv));
		return -1;
	case '?':
		pr_err("unknown option %s (see --help)",
		       offending_option(argv));
		return -1;
	default:
		return 0;
	}
bad:
	pr_err("bad value '%s' for %s (see --help)", arg, option_name(c));
	return -1;
}

int check_common_options(const struct run_settings *rs, int argc)
{
	if (rs->fail_on_regression >= 0 && !rs->compare[0]) {
		pr_err("--fail-on-regression goes with --compare");
		return -1;
	}
	if (rs->compare[0] && optind < argc) {
		pr_err("--compare takes two files and nothing else");
		return -1;
	}
	return 0;
}

int run_compare(const struct run_settings *rs)
{
	int err;

	err = bench_compare(rs->compare[0], rs->compare[1],
			    rs->fail_on_regression);
	if (err < 0)
		return EXIT_USAGE;
	return err;
}

/* ---- rows ---- */

/* a median absolute deviation of fewer samples says little */
#define MIN_OUTLIER_SAMPLES 5

void row_init(struct bench_row *row, const char *name, const char *variant,
	      const char *unit)
{
	memset(row, 0, sizeof(*row));
	row->name = name;
	row->variant = variant;
	row->unit = unit;
	row->prog_ns = NAN;
	row->prog_clock_ns = NAN;
}

double row_prog_body(const struct bench_row *row)
{
	if (isnan(row->prog_clock_ns))
		return row->prog_ns;
	/* a body within the clock's own jitter is nothing measurable */
	return fmax(row->prog_ns - row->prog_clock_ns, 0);
}

int prog_stats_pass(struct bench_row *rows, int nr, stats_sample_fn sample,
		    void *ctx)
{
	struct measurement m;
	struct outcome why;
	double clock = NAN;
	int i, fd, err = 0;

	fd = prog_stats_enable(&why);
	/* without it the body keeps the clock reads, and JSON says null */
	if (fd >= 0 && prog_stats_clock_cost(&clock))
		clock = NAN;
	for (i = 0; i < nr; i++) {
		struct bench_row *row = &rows[i];

		if (!row_runnable(row) || !row->counts_hits)
			continue;
		if (fd < 0) {
			row->prog_out = why;
			continue;
		}
		err = sample(ctx, i, &m);
		if (err)
			break;
		if (m.out.status != ST_OK) {
			row->prog_out = m.out;
			continue;
		}
		row->prog_ns = m.prog_ns;
		row->prog_clock_ns = clock;
	}
	if (fd >= 0)
		close(fd);
	return err;
}

void row_record(struct bench_row *row, const struct measurement *m)
{
	if (m->out.status != ST_OK) {
		/* one failed sample fails the row: it shows no rate */
		row->out = m->out;
		return;
	}
	if (row->nr >= MAX_REPEAT)
		return;
	row->rate[row->nr] = m->rate;
	row->ns[row->nr] = m->ns_per_event;
	row->nr++;
	row->events += m->events;
	row->hits += m->hits;
	if (!isnan(m->prog_ns))
		row->prog_ns = m->prog_ns;
}

bool row_runnable(const struct bench_row *row)
{
	return row->selected && row->out.status == ST_OK;
}

void row_summarize(const struct bench_row *row, struct row_summary *s)
{
	struct row_summary base;
	bool flags[MAX_REPEAT];

	memset(s, 0, sizeof(*s));
	stats_compute(row->rate, row->nr, &s->rate);
	stats_compute(row->ns, row->nr, &s->ns);
	s->outliers = row->nr >= MIN_OUTLIER_SAMPLES ?
		      stats_outliers(row->rate, row->nr, flags)
				  : 0;
	if (!row->base || row->base == row || row->base->nr == 0 ||
	    row->base->out.status != ST_OK)
		return;
	stats_compute(row->base->ns, row->base->nr, &base.ns);
	stats_overhead(&s->ns, &base.ns, &s->overhead);
	s->has_overhead = true;
}

void row_notes(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if (stats_noisy(&s->rate))
		off += snprintf(buf + off, len - off, "noisy (CV %.1f%%)",
				100 * s->rate.cv);
	if (s->outliers && off < len)
		off += snprintf(buf + off, len - off, "%s%d outlier%s",
				off ? ", " : "", s->outliers,
				s->outliers > 1 ? "s" : "");
	if (row->prog_out.status == ST_SKIPPED && off < len)
		snprintf(buf + off, len - off, "%sno prog stats: %s",
			 off ? ", " : "", row->prog_out.reason);
}

/* ---- progress ---- */

static bool progress_shown;

void progress(int done, int total, const struct bench_row *row, int round,
	      int rounds)
{
	if (verbosity < 1 || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K[%d/%d] %s %s, round %d/%d", done + 1, total,
		row->name, row->variant, round + 1, rounds);
	fflush(stderr);
	progress_shown = true;
}

void progress_end(void)
{
	if (!progress_shown)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	progress_shown = false;
}

/* ---- --json ---- */

static void cpu_model(char *buf, size_t len)
{
	char line[256], *colon;
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(colon = strchr(line, ':')))
			continue;
		snprintf(buf, len, "%s", colon + 2);
		buf[strcspn(buf, "\n")] = '\0';
		break;
	}
	fclose(f);
}

static void write_context(struct json_writer *w, const struct run_context *ctx)
{
	char model[128], cpus[256], version[32], stamp[32];
	struct cpu_list online;
	struct utsname uts;
	time_t now = time(NULL);

	uname(&uts);
	cpu_model(model, sizeof(model));
	format_cpus(ctx->cpus, cpus, sizeof(cpus));
	snprintf(version, sizeof(version), "%u.%u", libbpf_major_version(),
		 libbpf_minor_version());
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (online_cpus(&online))
		online.nr = 0;

	jsonw_name(w, "context");
	jsonw_start_object(w);
	jsonw_string_field(w, "kernel_release", uts.release);
	jsonw_string_field(w, "kernel_build", uts.version);
	jsonw_string_field(w, "machine", uts.machine);
	jsonw_string_field(w, "cpu_model", model);
	jsonw_int_field(w, "online_cpus", online.nr);
	jsonw_string_field(w, "cpus_used", cpus);
	jsonw_string_field(w, "libbpf_version", version);
	jsonw_string_field(w, "attach_method", ctx->attach_method);
	if (ctx->count)
		jsonw_uint_field(w, "count", ctx->count);
	else
		jsonw_null_field(w, "count");
	if (ctx->rs->duration)
		jsonw_double_field(w, "duration_s", ctx->rs->duration);
	else
		jsonw_null_field(w, "duration_s");
	jsonw_int_field(w, "repeat", ctx->rs->repeat);
	jsonw_int_field(w, "warmup", ctx->rs->warmup);
	jsonw_string_field(w, "timestamp", stamp);
	jsonw_end_object(w);
}

static void write_samples(struct json_writer *w, const char *name,
			  const double *x, int n)
{
	int i;

	jsonw_name(w, name);
	jsonw_start_array(w);
	for (i = 0; i < n; i++)
		jsonw_double(w, x[i]);
	jsonw_end_array(w);
}

static void write_stats(struct json_writer *w, const struct bench_row *row,
			const struct row_summary *s)
{
	bool flags[MAX_REPEAT] = {};
	int i;

	write_samples(w, "samples", row->rate, row->nr);
	if (row->nr >= MIN_OUTLIER_SAMPLES)
		stats_outliers(row->rate, row->nr, flags);
	jsonw_name(w, "outliers");
	jsonw_start_array(w);
	for (i = 0; i < row->nr; i++)
		jsonw_bool(w, flags[i]);
	jsonw_end_array(w);
	jsonw_double_field(w, "mean", s->rate.mean);
	jsonw_double_field(w, "stddev", s->rate.stddev);
	jsonw_double_field(w, "min", s->rate.min);
	jsonw_double_field(w, "max", s->rate.max);
	jsonw_double_field(w, "cv", s->rate.cv);
	jsonw_bool_field(w, "noisy", stats_noisy(&s->rate));
	jsonw_name(w, "ns_per_event");
	jsonw_start_object(w);
	jsonw_double_field(w, "mean", s->ns.mean);
	jsonw_double_field(w, "stddev", s->ns.stddev);
	write_samples(w, "samples", row->ns, row->nr);
	jsonw_end_object(w);
	if (s->has_overhead) {
		jsonw_name(w, "overhead_ns");
		jsonw_start_object(w);
		jsonw_double_field(w, "value", s->overhead.value);
		jsonw_double_field(w, "uncertainty", s->overhead.uncertainty);
		jsonw_end_object(w);
		jsonw_double_field(w, "overhead_pct", s->overhead.pct);
	} else {
		jsonw_null_field(w, "overhead_ns");
		jsonw_null_field(w, "overhead_pct");
	}
}

static void write_row(struct json_writer *w, const struct bench_row *row)
{
	static const char *const status[] = {
		[ST_OK] = "ok", [ST_SKIPPED] = "skipped", [ST_FAILED] = "failed",
	};
	struct row_summary s;
	bool ok = row->out.status == ST_OK && row->nr > 0;

	jsonw_start_object(w);
	jsonw_string_field(w, "name", row->name);
	jsonw_string_field(w, "variant", row->variant);
	jsonw_string_field(w, "status", status[row->out.status]);
	jsonw_string_field(w, "reason", ok ? NULL : row->out.reason);
	jsonw_string_field(w, "unit", row->unit);
	if (ok) {
		row_summarize(row, &s);
		write_stats(w, row, &s);
	}
	if (ok && row->counts_hits) {
		jsonw_uint_field(w, "hits", row->hits);
		jsonw_uint_field(w, "events", row->events);
	} else {
		jsonw_null_field(w, "hits");
		jsonw_uint_field(w, "events", row->events);
	}
	jsonw_double_field(w, "prog_ns_per_run", row->prog_ns);
	jsonw_double_field(w, "prog_stats_clock_ns", row->prog_clock_ns);
	if (row->prog_out.status != ST_OK)
		jsonw_string_field(w, "prog_stats_reason", row->prog_out.reason);
	jsonw_end_object(w);
}

int write_json(const struct run_context *ctx, const struct bench_row *rows,
	       int nr)
{
	bool to_stdout = !strcmp(ctx->rs->json, "-");
	struct json_writer *w;
	FILE *f;
	int i, err;

	fflush(stdout);
	f = to_stdout ? stdout : fopen(ctx->rs->json, "w");
	if (!f) {
		err = -errno;
		pr_err("cannot write %s: %s", ctx->rs->json, strerror(errno));
		return err;
	}
	w = jsonw_new(f);
	if (!w) {
		err = -ENOMEM;
		goto close;
	}
	jsonw_start_object(w);
	jsonw_string_field(w, "schema", BENCH_SCHEMA);
	jsonw_string_field(w, "tool", ctx->tool);
	jsonw_string_field(w, "version", TOOL_VERSION);
	write_context(w, ctx);
	jsonw_name(w, "results");
	jsonw_start_array(w);
	for (i = 0; i < nr; i++)
		if (rows[i].selected)
			write_row(w, &rows[i]);
	jsonw_end_array(w);
	jsonw_end_object(w);
	err = jsonw_destroy(w);
close:
	if (to_stdout)
		err = fflush(stdout) ? -errno : err;
	else if (fclose(f) && !err)
		err = -errno;
	if (err)
		pr_err("writing %s failed: %s", ctx->rs->json, strerror(-err));
	return err;
}

/* ---- the start and the end of a run ---- */

bool json_on_stdout(const struct run_settings *rs)
{
	return rs->json && !strcmp(rs->json, "-");
}

int bench_setup(void)
{
	if (check_privileges())
		return -EPERM;
	install_signal_handlers();
	ensure_tracefs();
	return 0;
}

int bench_finish(const struct run_context *ctx, const struct bench_row *rows,
		 int nr)
{
	struct run_context c = *ctx;
	int i, nr_ok = 0, nr_failed = 0;

	for (i = 0; i < nr; i++) {
		if (!rows[i].selected)
			continue;
		nr_ok += rows[i].out.status == ST_OK;
		nr_failed += rows[i].out.status == ST_FAILED;
	}
	/* -d makes the count meaningless: the file says so with null */
	if (c.rs->duration)
		c.count = 0;
	if (c.rs->json && write_json(&c, rows, nr))
		nr_failed++;
	if (!nr_ok && !nr_failed)
		pr_err("nothing could be measured on this kernel");
	return nr_failed || !nr_ok ? 1 : 0;
}

int bench_exit_interrupted(void)
{
	int sig = bench_interrupted();

	progress_end();
	pr_err("interrupted by %s; everything detached", strsignal(sig));
	return 128 + sig;
}
