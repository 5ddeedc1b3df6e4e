// SPDX-License-Identifier: GPL-2.0
/*
 * The runner: the command line, then each selected row's samples, back to
 * back, until it is known well enough, each sample verified per CPU and
 * judged undisturbed, then the family's lines and summary, the JSON file
 * and the exit status. A family gives rows and callbacks; nothing here
 * knows what a mode or a map is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "bench_runner.h"
#include "bench_util.h"
#include "bench_attach.h"
#include "bench_compare.h"
#include "bench_report.h"

/*
 * A row stops at 3 samples once its mean is known to 2%, at 5 otherwise:
 * no fewer samples than a fixed 5 gave where that is needed, and quiet
 * rows cost less. A sample of a perf-event or uprobe row costs 75 to
 * 150 ms besides its events here: detaching waits for RCU grace periods.
 */
#define DEFAULT_MIN_SAMPLES	3
#define DEFAULT_MAX_SAMPLES	5
#define DEFAULT_PRECISION	0.02
#define DEFAULT_LOCK_WAIT	600
/*
 * A disturbed sample is run again until the row has spent this much on
 * samples run again (or RETRY_BUDGET_SAMPLES of its samples' time, when
 * that is more): short interruptions are random, so a few more tries
 * usually find a clean moment. Each try is shorter, down to a quarter of
 * the row's events: a short loop is less likely to meet one.
 */
#define RETRY_BUDGET_NS		(2 * 1000000000ull)
#define RETRY_BUDGET_SAMPLES	5
#define MAX_SHRINK		2
/* what a sample's loop should take, whatever the machine's pace */
#define SAMPLE_TARGET_NS	20000000ull
/* a row's count is paced down to no less than this share of its own */
#define PACE_MIN_SHARE		16
/* exit status when rows were disturbed but none failed */
#define EXIT_DISTURBED		3

struct run_settings bench_rs;

/* ---- options ---- */

enum {
	OPT_JSON = 0x100,
	OPT_PROG_STATS,
	OPT_COMPARE,
	OPT_FAIL_ON_REGRESSION,
	OPT_LIST,
	OPT_PRECISION,
	OPT_MAX_SAMPLES,
	OPT_LOCK_WAIT,
};

static const struct bench_option common_options[] = {
	{ "cpus", 'c', "N|LIST",
	  "N: the first N usable CPUs; or a list like 0,2-3\n"
	  "(default: every CPU this process may use), one worker each",
	  USE_SELECT },
	{ "count", 'n', "N", "events per worker and sample (default: the row's\n"
	  "own, paced to about 0.02 s)", USE_RUN },
	{ "repeat", 'r', "N", "exactly N counted samples per row (default: 3 to\n"
	  "--max-samples, until --precision is met)", USE_RUN },
	{ "precision", OPT_PRECISION, "PCT",
	  "stop sampling a row once the 95% interval of its\n"
	  "mean is within +-PCT% (default 2)", USE_RUN },
	{ "max-samples", OPT_MAX_SAMPLES, "N",
	  "at most N samples per row (default 5)", USE_RUN },
	{ "warmup", 'w', "N", "samples each row runs first, not counted\n"
	  "(default 0)", USE_RUN },
	{ "duration", 'd', "S", "seconds per sample instead of a count",
	  USE_RUN },
	{ "json", OPT_JSON, "FILE", "every figure and sample as JSON (- for stdout)",
	  USE_ANY },
	{ "prog-stats", OPT_PROG_STATS, NULL,
	  "an extra pass with the kernel's BPF run-time\n"
	  "stats: ns inside the program per run", USE_RUN },
	{ "list", OPT_LIST, NULL,
	  "print the rows the other options select and what\n"
	  "each needs of the kernel (with --json, as JSON);\n"
	  "runs nothing, needs no privileges", USE_ANY },
	{ "compare", OPT_COMPARE, "A B", "compare two --json files: nothing is run",
	  USE_ANY },
	{ "fail-on-regression", OPT_FAIL_ON_REGRESSION, "PCT",
	  "with --compare: exit 1 when a row is\n"
	  "significantly slower by more than PCT percent", USE_ANY },
	{ "lock-wait", OPT_LOCK_WAIT, "S",
	  "wait up to S seconds for another run of these\n"
	  "tools to finish (default 600; 0: do not wait)", USE_RUN },
	{ "quiet", 'q', NULL, "only the summary", USE_ANY },
	{ "verbose", 'v', NULL, "libbpf's messages too", USE_ANY },
	{ "help", 'h', NULL, "this text", USE_ANY },
	{}
};

static int nr_options(const struct bench_option *o)
{
	int n = 0;

	while (o && o[n].name)
		n++;
	return n;
}

void print_help_item(FILE *f, const char *head, const char *help)
{
	const char *line, *nl;
	int len = fprintf(f, "  %s", head);

	for (line = help; line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (len >= 26) {
			fputc('\n', f);
			len = 0;
		}
		fprintf(f, "%*s%.*s\n", 26 - len, "",
			nl ? (int)(nl - line) : (int)strlen(line), line);
		len = 0;
	}
}

static void print_option(FILE *f, const struct bench_option *o)
{
	char head[48];

	if (o->key < 0x100)
		snprintf(head, sizeof(head), "-%c, --%s%s%s", o->key, o->name,
			 o->arg ? " " : "", o->arg ?: "");
	else
		snprintf(head, sizeof(head), "    --%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ?: "");
	print_help_item(f, head, o->help);
}

static void usage(const struct bench_family *fam, FILE *f)
{
	const struct bench_option *o;

	fprintf(f, "Usage: %s [options] %s\n"
		"       %s --compare A.json B.json [--fail-on-regression PCT]\n"
		"       %s --list [--json FILE]\n%s\n",
		fam->name, fam->args, fam->name, fam->name, fam->about);
	for (o = fam->options; o && o->name; o++)
		print_option(f, o);
	for (o = common_options; o->name; o++)
		print_option(f, o);
	fam->usage_tables(f);
	fprintf(f,
"\nExit status: 0 when every selected row ran verified and undisturbed or\n"
"was skipped for a reason the kernel gives; 1 when one failed or none could\n"
"run; 2 on a usage error; 3 when rows were disturbed (stopped, throttled or\n"
"moved workers) but none failed; 128+signal when interrupted. --compare:\n"
"0, or 1 for a regression beyond --fail-on-regression.\n");
}

/* getopt's tables from the family's options and the common ones */
static int getopt_tables(const struct bench_family *fam,
			 struct option **longopts, char *shortopts, size_t len)
{
	int nf = nr_options(fam->options), nc = nr_options(common_options);
	const struct bench_option *o;
	struct option *lo;
	size_t off = 1;
	int i;

	lo = calloc(nf + nc + 1, sizeof(*lo));
	if (!lo)
		return -ENOMEM;
	shortopts[0] = ':';	/* a missing value is ':', not '?' */
	for (i = 0; i < nf + nc; i++) {
		o = i < nf ? &fam->options[i] : &common_options[i - nf];
		lo[i] = (struct option){ o->name, o->arg ? required_argument :
					 no_argument, NULL, o->key };
		if (o->key >= 0x100 || off + 3 > len)
			continue;
		shortopts[off++] = o->key;
		if (o->arg)
			shortopts[off++] = ':';
	}
	shortopts[off] = '\0';
	*longopts = lo;
	return 0;
}

/* getopt leaves a bad short option in optopt, a long one in argv */
static const char *offending_option(char **argv)
{
	static char shortopt[3] = "-";

	if (!optopt || !strncmp(argv[optind - 1], "--", 2))
		return printable(argv[optind - 1]);
	shortopt[1] = optopt;
	return shortopt;
}

static const struct bench_option *find_option(const struct bench_family *fam,
					      int key)
{
	const struct bench_option *o;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (o = pass ? common_options : fam->options; o && o->name; o++)
			if (o->key == key)
				return o;
	return NULL;
}

static const char *option_name(const struct bench_family *fam, int key)
{
	static char name[64];
	const struct bench_option *o = find_option(fam, key);

	snprintf(name, sizeof(name), "--%s", o ? o->name : "?");
	return name;
}

static const char *cpus_arg;
static bool count_given;

int bench_cpus_arg(const char *s, const char *what)
{
	if (cpus_arg) {
		pr_err("give the CPUs once: %s or -c", what);
		return -1;
	}
	cpus_arg = s;
	return 0;
}

int bench_count_arg(const char *s, __u64 max, const char *what)
{
	if (count_given) {
		pr_err("give the count once: %s or -n", what);
		return -1;
	}
	if (parse_u64(s, 1, max, &bench_rs.count)) {
		pr_err("bad %s '%s': 1 to %llu", what, printable(s), max);
		return -1;
	}
	count_given = true;
	return 0;
}

/*
 * The first option given that only a run takes (refused by --list), and
 * the first that selects rows or runs (refused by --compare too).
 */
static const char *run_option, *select_option;
/* --precision or --max-samples, which -r makes meaningless */
static const char *adaptive_option;

static int parse_common(const struct bench_family *fam, int c,
			const char *arg, int argc, char **argv)
{
	struct run_settings *rs = &bench_rs;
	__u64 n;
	int err = 0;

	switch (c) {
	case 'c':
		return bench_cpus_arg(arg, "num_cpu");
	case 'n':
		return bench_count_arg(arg, 10000000000ull, "count");
	case 'r':
		err = parse_u64(arg, 1, MAX_SAMPLES, &n);
		rs->repeat = n;
		break;
	case 'w':
		err = parse_u64(arg, 0, MAX_SAMPLES, &n);
		rs->warmup = n;
		break;
	case OPT_MAX_SAMPLES:
		err = parse_u64(arg, DEFAULT_MIN_SAMPLES, MAX_SAMPLES, &n);
		rs->max_samples = n;
		adaptive_option = "--max-samples";
		break;
	case OPT_PRECISION:
		err = parse_double(arg, 0.01, 100, &rs->precision);
		rs->precision /= 100;
		adaptive_option = "--precision";
		break;
	case 'd':
		err = parse_double(arg, 0.001, 3600, &rs->duration);
		break;
	case OPT_JSON:
		rs->json = arg;
		break;
	case OPT_PROG_STATS:
		rs->prog_stats = true;
		break;
	case OPT_LIST:
		rs->list = true;
		return 0;
	case OPT_LOCK_WAIT:
		err = parse_double(arg, 0, 86400, &rs->lock_wait);
		break;
	case OPT_COMPARE:
		/* the second file is the next word */
		if (optind >= argc) {
			pr_err("--compare needs two files: --compare A.json B.json");
			return -1;
		}
		rs->compare[0] = arg;
		rs->compare[1] = argv[optind++];
		return 0;
	case OPT_FAIL_ON_REGRESSION:
		err = parse_double(arg, 0, 1e6, &rs->fail_on_regression);
		return err ? -2 : 0;
	case 'q':
		verbosity = 0;
		return 0;
	case 'v':
		verbosity = 2;
		return 0;
	default:
		return 1;	/* not a common option */
	}
	return err ? -2 : 0;
}

static int parse_options(const struct bench_family *fam, int argc,
			 char **argv)
{
	struct run_settings *rs = &bench_rs;
	const struct bench_option *o;
	struct option *longopts;
	char shortopts[128];
	int c, ret = 0;

	rs->min_samples = DEFAULT_MIN_SAMPLES;
	rs->max_samples = DEFAULT_MAX_SAMPLES;
	rs->precision = DEFAULT_PRECISION;
	rs->fail_on_regression = -1;
	rs->lock_wait = DEFAULT_LOCK_WAIT;
	if (getopt_tables(fam, &longopts, shortopts, sizeof(shortopts)))
		return -1;
	opterr = 0;	/* one line of ours instead of getopt's */
	while (!ret && (c = getopt_long(argc, argv, shortopts, longopts,
					NULL)) != -1) {
		if (c == 'h') {
			usage(fam, stdout);
			exit(0);
		}
		if (c == ':' || c == '?') {
			pr_err("%s %s (see --help)", c == ':' ?
			       "missing value for option" : "unknown option",
			       offending_option(argv));
			ret = -1;
			break;
		}
		/* what --compare and --list would ignore: refused there */
		o = find_option(fam, c);
		if (o && o->use != USE_ANY && !select_option)
			select_option = option_name(fam, c);
		if (o && o->use == USE_RUN && !run_option)
			run_option = option_name(fam, c);
		ret = parse_common(fam, c, optarg, argc, argv);
		if (ret == 1)
			ret = fam->parse_option(c, optarg);
		if (ret == -2) {
			pr_err("bad value '%s' for %s (see --help)",
			       printable(optarg), option_name(fam, c));
			ret = -1;
		}
	}
	free(longopts);
	return ret;
}

/* options that contradict each other, or that --compare would ignore */
static int check_options(const struct bench_family *fam, int argc,
			 char **argv)
{
	struct run_settings *rs = &bench_rs;

	if (rs->fail_on_regression >= 0 && !rs->compare[0]) {
		pr_err("--fail-on-regression goes with --compare");
		return -1;
	}
	if (rs->compare[0]) {
		if (select_option || rs->json || rs->list || optind < argc) {
			pr_err("--compare takes two files and no run options (%s)",
			       select_option ?: rs->json ? "--json" :
			       rs->list ? "--list" : printable(argv[optind]));
			return -1;
		}
		return 0;
	}
	if (rs->list && run_option) {
		pr_err("--list takes the options that select rows, and --json: not %s",
		       run_option);
		return -1;
	}
	if (rs->duration && count_given) {
		pr_err("give a count (-n) or a duration (-d), not both");
		return -1;
	}
	if (rs->repeat && adaptive_option) {
		pr_err("-r gives the number of samples: %s goes without it",
		       adaptive_option);
		return -1;
	}
	return fam->parse_args(argc - optind, argv + optind);
}

static int select_cpus(void)
{
	struct cpu_list usable = {};
	int err;

	err = usable_cpus(&usable);
	if (err) {
		pr_err("cannot tell which CPUs this process may use: %s",
		       strerror(-err));
		return 1;
	}
	if (!cpus_arg) {
		bench_rs.cpus = usable;
		return 0;
	}
	err = parse_cpus(cpus_arg, &usable, &bench_rs.cpus);
	if (err) {
		char list[1024];

		format_cpus(&usable, list, sizeof(list));
		pr_err("bad CPUs '%s': a count from 1 to %d, or a list of CPUs among %s (online, and allowed by this process's affinity and cpuset)",
		       printable(cpus_arg), usable.nr, list);
	}
	cpu_list_free(&usable);
	return err ? EXIT_USAGE : 0;
}

/* ---- one sample ---- */

static __u64 deadline_ns(const struct bench_row *row)
{
	__u64 expected = bench_rs.duration ? bench_rs.duration * 1e9 :
			 row->last_wall_ns;

	/* unknown the first time: the workers' watch still catches a hang */
	return expected ? 5000000000ull + 10 * expected : 0;
}

/* a buffer of at least @n elements of @size, kept from call to call */
static void *grow(void **buf, size_t *cap, size_t n, size_t size)
{
	if (n > *cap) {
		free(*buf);
		*cap = n;
		*buf = calloc(n, size);
		if (!*buf)
			*cap = 0;
	}
	if (*buf)
		memset(*buf, 0, n * size);
	return *buf;
}

static int sample_buffers(struct sample *s, const struct bench_family *fam,
			  const struct bench_row *row)
{
	static void *res, *hits, *skips, *window, *slots;
	static size_t res_nr, hits_nr, skips_nr, window_nr, slots_nr;
	size_t nr = row->nr_counters, workers = row->cpus->nr;

	memset(s, 0, sizeof(*s));
	s->res = grow(&res, &res_nr, workers, sizeof(*s->res));
	s->hits = grow(&hits, &hits_nr, nr * nr_cpus_possible(),
		       sizeof(*s->hits));
	s->kernel_skips = grow(&skips, &skips_nr, nr, sizeof(__u64));
	s->window = grow(&window, &window_nr, 2 * nr * workers, sizeof(__u64));
	s->slots = grow(&slots, &slots_nr, 2 * nr * workers,
			sizeof(*s->slots));
	if (!s->res || !s->hits || !s->kernel_skips || !s->window ||
	    !s->slots)
		return -ENOMEM;
	s->nr_workers = workers;
	s->nr_cpus = nr_cpus_possible();
	/* the layout hit_window() gives the workers */
	s->window_foreign = fam->foreign_slot && row->runs_prog;
	return 0;
}

/*
 * The runs the kernel skipped of each of the row's programs because the
 * program was already running on that CPU (an interrupt's event nested
 * in it): its recursion_misses. Called twice per sample: with @before
 * right before the workers are released (after settle(), which may wait
 * a quarter second), storing each program's total in @skips; then after
 * the last worker is done, replacing it with what was added since, so
 * that only skips during the loops can excuse a shortfall. Kernels
 * before 5.12 keep no such count; for kprobe programs it is kept from
 * 6.7.
 */
static void read_kernel_skips(const struct bench_family *fam,
			      const struct bench_row *row, __u64 *skips,
			      bool before)
{
	struct bpf_prog_info info;
	__u32 len;
	int fds[64], i, n;

	n = fam->prog_fds(row, fds, row->nr_counters < 64 ?
			  row->nr_counters : 64);
	for (i = 0; i < n; i++) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fds[i], &info, &len))
			continue;
		if (before)
			skips[i] = info.recursion_misses;
		else
			skips[i] = info.recursion_misses - skips[i];
	}
}

/*
 * What each worker reads around its loop: its CPU's slot of each
 * program, then, where the family counts them apart, of each program's
 * runs for other tasks (see struct sample's @window)
 */
static void hit_window(const struct bench_family *fam,
		       const struct bench_row *row, struct sample *s,
		       struct hit_window *win)
{
	int w, c, cpu, nr = row->nr_counters;
	int stride = fam->foreign_slot ? 2 * nr : nr;

	win->nr = row->runs_prog ? stride : 0;
	win->slot = s->slots;
	for (w = 0; w < s->nr_workers && win->nr; w++) {
		cpu = row->cpus->cpu[w];
		for (c = 0; c < nr; c++) {
			s->slots[w * stride + c] = fam->hit_slot(row, c, cpu);
			if (fam->foreign_slot)
				s->slots[w * stride + nr + c] =
					fam->foreign_slot(row, c, cpu);
		}
	}
}

/*
 * A row's own count is sized for a fast machine; on a slower one its
 * samples would run far longer than a figure needs (0.1-0.25 s on a
 * 2-vCPU cloud VM for 0.02 s wanted). A paced family's row starts with a
 * run of a PACE_MIN_SHARE-th of its count that is not counted (it warms
 * the row's links and workers up too); after it and each undisturbed
 * sample, the next one's count is set to take about SAMPLE_TARGET_NS at
 * the rate just seen: never more than the row's own count, never less
 * than a PACE_MIN_SHARE-th of it. A count or a duration the user gave is
 * never paced.
 */
static bool row_paced(const struct bench_family *fam)
{
	return fam->paced && !bench_rs.count && !bench_rs.duration;
}

static void row_pace(const struct bench_family *fam, struct bench_row *row,
		     __u64 count, __u64 wall)
{
	__u64 want, least = row->count / PACE_MIN_SHARE ?: 1;

	if (!row_paced(fam) || !wall)
		return;
	want = (double)count * SAMPLE_TARGET_NS / wall;
	if (want < least)
		want = least;
	row->paced_count = want < row->count ? want : row->count;
}

/* ---- a row's session ---- */

/*
 * A row's samples run back to back in one session: its workers are
 * forked once, and when the row's links stay (@links_stay) its programs
 * are attached before the first sample and detached after the last, so
 * that neither the forks nor the detaches' grace periods and deferred
 * frees are paid, or land on the workers' CPUs, once per sample. Each
 * sample is still verified on its own: the workers read the hit slots
 * around each loop, and the kernel's skips are read around each run.
 */
struct session {
	struct worker_pool pool;
	bool started;
	bool attached;
};

static void time_link(double *times, int *nr, __u64 ns)
{
	if (*nr < MAX_SAMPLES)
		times[(*nr)++] = ns;
}

static int session_start(const struct bench_family *fam,
			 struct bench_row *row, struct sample *s,
			 struct session *sess)
{
	struct hit_window win;

	if (!row->opened) {
		if (row->runs_prog && fam->open(&bench_rs, row, &s->out))
			return -1;
		row->opened = true;
	}
	hit_window(fam, row, s, &win);
	if (pool_start(&sess->pool, row->cpus, row->trigger,
		       bench_rs.duration * 1e9, &win, &s->out))
		return -1;
	sess->started = true;
	return 0;
}

/* 0, or -1 with @out saying why; detach is due either way */
static int session_attach(const struct bench_family *fam,
			  struct bench_row *row, struct session *sess,
			  struct outcome *out)
{
	struct bench_workers workers = {
		sess->pool.nr, sess->pool.cpu, sess->pool.pid
	};
	__u64 t0 = now_ns();
	int err;

	err = fam->attach(row, &workers, out);
	time_link(row->attach_ns, &row->nr_attach, now_ns() - t0);
	sess->attached = true;
	return err || bench_interrupted() ? -1 : 0;
}

static void session_detach(const struct bench_family *fam,
			   struct bench_row *row, struct session *sess)
{
	__u64 t0 = now_ns();

	if (!sess->attached)
		return;
	fam->detach(row);
	time_link(row->detach_ns, &row->nr_detach, now_ns() - t0);
	sess->attached = false;
}

/* detaches what is attached and stops the workers: on any way out */
static void session_end(const struct bench_family *fam,
			struct bench_row *row, struct session *sess)
{
	session_detach(fam, row, sess);
	if (sess->started)
		pool_stop(&sess->pool);
	sess->started = false;
}

/* ---- one sample ---- */

/*
 * The session's workers, started on the row's first sample, and its
 * programs attached when not already; the timed run; the programs
 * detached unless they stay; then the counts: verified per CPU inside the
 * workers' loops, then by the family.
 */
static void sample_run(const struct bench_family *fam, struct bench_row *row,
		       struct sample *s, int shrink, struct session *sess)
{
	/* what the user asked for is never shortened */
	__u64 count = bench_rs.count ?:
		      (row->paced_count ?: row->count) >> shrink ?: 1;
	__u64 wall = 0;
	int i, err;

	if (sample_buffers(s, fam, row)) {
		outcome_set(&s->out, ST_FAILED, "out of memory");
		return;
	}
	if (!sess->started && session_start(fam, row, s, sess))
		return;
	if (row->runs_prog && !sess->attached &&
	    session_attach(fam, row, sess, &s->out)) {
		session_end(fam, row, sess);
		return;
	}
	s->settle_ns = settle(row->cpus);
	if (row->runs_prog)
		read_kernel_skips(fam, row, s->kernel_skips, true);
	err = pool_run(&sess->pool, count, s->res, s->window,
		       deadline_ns(row), &s->out);
	if (row->runs_prog)
		read_kernel_skips(fam, row, s->kernel_skips, false);
	if (err) {
		session_end(fam, row, sess);
		return;
	}
	if (!row->links_stay)
		session_detach(fam, row, sess);
	sample_measure(s);
	for (i = 0; i < s->nr_workers; i++)
		if (s->res[i].elapsed_ns > wall)
			wall = s->res[i].elapsed_ns;
	row->last_wall_ns = wall;
	/* taken every sample: the next one's hits start here */
	err = row->runs_prog && fam->collect(row, s);
	s->unverified = sample_judge_moved(s);
	if (!err && !s->unverified && row->runs_prog &&
	    run_fault(&bench_rs)->kind != BENCH_FAULT_UNCOUNTED)
		sample_verify(row, s);
	if (row->runs_prog && s->out.status == ST_OK && fam->verify)
		fam->verify(row, s);
	if (s->out.status == ST_OK)
		sample_judge_disturbed(s);
	/* a disturbed sample's wall time is not the machine's pace */
	if (s->out.status == ST_OK)
		row_pace(fam, row, count, wall);
}

/* ---- the rows ---- */

static bool row_runnable(const struct bench_row *row)
{
	return row->out.status == ST_OK && !row->done;
}

static void row_record(struct bench_row *row, const struct sample *s)
{
	int i, n = row->nr, nw = s->nr_workers;

	row->rate[n] = s->rate;
	row->ns[n] = s->ns_per_event;
	row->settle_ns[n] = s->settle_ns;
	for (i = 0; i < nw; i++)
		row->worker_rate[n * nw + i] = s->res[i].events * 1e9 /
			(s->res[i].elapsed_ns ?: 1);
	row->nr++;
	row->done = enough_samples(row->rate, row->nr, &bench_rs);
}

/* the counts of a verified sample, kept even when it was disturbed */
static void row_count(struct bench_row *row, const struct sample *s)
{
	row->events += s->events;
	row->steal_ns += s->steal_ns;
	row->hits += s->counted;
	row->hits_window += s->in_window;
	row->foreign += s->foreign;
	row->kernel_skipped += s->skipped;
	row->kernel_skips += s->kernel_skips[0];
}

/* may a disturbed sample of @row be run again, @spent ns into retries? */
static bool retry_allowed(const struct bench_row *row, __u64 spent)
{
	__u64 budget = RETRY_BUDGET_SAMPLES * row->last_wall_ns;

	if (budget < RETRY_BUDGET_NS)
		budget = RETRY_BUDGET_NS;
	return row->retry_ns + spent < budget;
}

/*
 * A sample of @row, run again while disturbed, shorter each time, within
 * the row's budget; with @fd >= 0, the kernel's run-time totals of that
 * program are read into @t0 and @n0 right before each try, so that they
 * are the last one's. -EINTR when a signal ended it.
 */
static int sample_retried(const struct bench_family *fam,
			  struct bench_row *row, struct sample *s, int fd,
			  __u64 *t0, __u64 *n0, struct session *sess)
{
	__u64 start, spent = 0;
	int tries;

	for (tries = 0;; tries++) {
		if (fd >= 0 && prog_run_totals(fd, t0, n0))
			*t0 = *n0 = 0;
		start = now_ns();
		sample_run(fam, row, s, tries < MAX_SHRINK ? tries : MAX_SHRINK,
			   sess);
		if (tries)
			spent += now_ns() - start;
		if (bench_interrupted())
			return -EINTR;
		if (s->out.status != ST_DISTURBED || !retry_allowed(row, spent))
			break;
		row->retries++;
	}
	row->retry_ns += spent;
	return 0;
}

/*
 * One sample of @row, run again while disturbed, shorter each time,
 * within the row's budget: a counted one becomes a figure; any that
 * failed or stayed disturbed ends the row.
 */
static int row_sample(const struct bench_family *fam, struct bench_row *row,
		      bool counted, struct session *sess)
{
	struct sample s;

	if (sample_retried(fam, row, &s, -1, NULL, NULL, sess))
		return -EINTR;
	if (s.out.status == ST_DISTURBED && !counted)
		return 0;	/* a warm-up figure is thrown away anyway */
	if (counted && !s.unverified &&
	    (s.out.status == ST_OK || s.out.status == ST_DISTURBED)) {
		row_count(row, &s);
		if (fam->count && row->runs_prog)
			fam->count(row, &s);
	}
	if (s.out.status != ST_OK)
		row->out = s.out;
	else if (counted)
		row_record(row, &s);
	return 0;
}

static int alloc_worker_rates(struct bench_rows *rows)
{
	int i;

	for (i = 0; i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];

		row->worker_rate = calloc((size_t)MAX_SAMPLES * row->cpus->nr,
					  sizeof(double));
		if (!row->worker_rate)
			return -ENOMEM;
	}
	return 0;
}

/*
 * One session of @row's samples (see struct session): the pacing run (see
 * row_pace(); in the row's first session only) and -w samples first, that
 * count only for skips and failures, then counted ones until the row is
 * known well enough, or has @upto counted samples.
 */
static int row_session(const struct bench_family *fam, struct bench_row *row,
		       int index, int total, int upto)
{
	struct session sess = {};
	int n, uncounted = bench_rs.warmup, err = 0;

	if (row_paced(fam) && !row->paced_count) {
		row->paced_count = row->count / PACE_MIN_SHARE ?: 1;
		uncounted++;
	}
	for (n = 0; !err && row_runnable(row) && row->nr < upto; n++) {
		progress(index, total, row, n);
		err = row_sample(fam, row, n >= uncounted, &sess);
	}
	session_end(fam, row, &sess);
	return err;
}

static bool is_base(const struct bench_rows *rows, int i)
{
	int j;

	for (j = 0; j < rows->nr; j++)
		if (j != i && rows->row[j].base == &rows->row[i])
			return true;
	return false;
}

/*
 * Each row in one session, but a base row in two: the first half of its
 * samples before the rows measured against it, the rest after them, so
 * that the machine's drift over those rows moves the base's mean as much
 * as theirs (and, when it is large, shows in the base's spread).
 */
static int run_rows(const struct bench_family *fam, struct bench_rows *rows)
{
	int first = ((bench_rs.repeat ?: bench_rs.min_samples) + 1) / 2;
	bool *ran = calloc(rows->nr, sizeof(*ran));
	int i, j, err = 0;

	if (!ran)
		return -ENOMEM;
	for (i = 0; !err && i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];

		if (ran[i])
			continue;
		ran[i] = true;
		if (!is_base(rows, i)) {
			err = row_session(fam, row, i, rows->nr, MAX_SAMPLES);
			continue;
		}
		err = row_session(fam, row, i, rows->nr, first);
		for (j = 0; !err && j < rows->nr; j++) {
			if (ran[j] || rows->row[j].base != row)
				continue;
			ran[j] = true;
			err = row_session(fam, &rows->row[j], j, rows->nr,
					  MAX_SAMPLES);
		}
		if (!err)
			err = row_session(fam, row, i, rows->nr, MAX_SAMPLES);
	}
	free(ran);
	progress_end();
	return err;
}

/* ---- --prog-stats ---- */

/*
 * One more sample of a row with the kernel's run-time stats on: the
 * program's ns per run, refused when it ran for much more than it
 * counted (other processes' events it filtered out dilute the mean).
 */
static int stats_sample(const struct bench_family *fam, struct bench_row *row,
			double clock)
{
	struct session sess = {};
	__u64 t0 = 0, n0 = 0, t1, n1;
	struct sample s;
	int fd, err;

	/* a row verified by its own counts, with no program to time */
	if (fam->prog_fds(row, &fd, 1) < 1) {
		outcome_set(&row->prog_out, ST_SKIPPED,
			    "no BPF program runs in this row");
		return 0;
	}
	/* an undisturbed sample only, found within the row's budget */
	err = sample_retried(fam, row, &s, fd, &t0, &n0, &sess);
	/* detached first: the stats then hold every run of the sample's */
	session_end(fam, row, &sess);
	if (err)
		return -EINTR;
	if (s.out.status != ST_OK) {
		row->prog_out = s.out;
		return 0;
	}
	if (prog_run_totals(fd, &t1, &n1) || n1 == n0) {
		outcome_set(&row->prog_out, ST_FAILED,
			    "the kernel's run-time stats counted no runs");
		return 0;
	}
	row->prog_runs = n1 - n0;
	row->prog_hits = s.counted;
	/* uncounted programs (the bench's reference) have no hits to compare */
	if (run_fault(&bench_rs)->kind != BENCH_FAULT_UNCOUNTED &&
	    row->prog_runs > s.counted + s.counted / 100 + 100) {
		outcome_set(&row->prog_out, ST_SKIPPED,
			    "diluted: %llu runs for %llu counted hits (other events filtered inside)",
			    row->prog_runs, s.counted);
		return 0;
	}
	row->prog_ns = (double)(t1 - t0) / row->prog_runs;
	row->prog_clock_ns = clock;
	return 0;
}

static int prog_stats_pass(const struct bench_family *fam,
			   struct bench_rows *rows)
{
	struct outcome why = {};
	double clock = NAN;
	int i, fd, err = 0;

	fd = prog_stats_enable(&why);
	/* without it the body keeps the clock reads, and JSON says null */
	if (fd >= 0 && prog_stats_clock_cost(&clock))
		clock = NAN;
	for (i = 0; !err && i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];

		if (!row_has_figure(row) || !row->runs_prog)
			continue;
		if (fd < 0)
			row->prog_out = why;
		else
			err = stats_sample(fam, row, clock);
	}
	if (fd >= 0)
		close(fd);
	return err;
}

/* ---- the end ---- */

static void close_rows(const struct bench_family *fam, struct bench_rows *rows)
{
	int i;

	for (i = 0; i < rows->nr; i++) {
		if (rows->row[i].opened && rows->row[i].runs_prog)
			fam->close(&rows->row[i]);
		free(rows->row[i].worker_rate);
	}
	free(rows->row);
	rows->row = NULL;
	rows->nr = 0;
}

static int exit_interrupted(void)
{
	int sig = bench_interrupted();

	progress_end();
	pr_err("interrupted by %s; everything detached", strsignal(sig));
	return 128 + sig;
}

static int exit_status(const struct bench_rows *rows)
{
	int i, ok = 0, failed = 0, disturbed = 0, progs = 0;

	for (i = 0; i < rows->nr; i++)
		progs += rows->row[i].runs_prog;
	for (i = 0; i < rows->nr; i++) {
		/* bases alone are no measurement when programs were asked for */
		ok += rows->row[i].out.status == ST_OK &&
		      (rows->row[i].runs_prog || !progs);
		failed += rows->row[i].out.status == ST_FAILED;
		disturbed += rows->row[i].out.status == ST_DISTURBED;
	}
	if (failed)
		return 1;
	if (disturbed)
		return EXIT_DISTURBED;
	if (!ok) {
		pr_err("nothing could be measured on this kernel");
		return 1;
	}
	return 0;
}

/* stdout was closed when we started: /dev/null stands in its place */
static bool stdout_closed;

/*
 * A closed fd 1 or 2 would be taken by the next open(), and the summary
 * written into a BPF object or the lock file: hold them with /dev/null.
 */
static void hold_std_fds(void)
{
	int fd;

	for (fd = 1; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", O_WRONLY) != fd)
			continue;	/* nothing better to do */
		if (fd == 1)
			stdout_closed = true;
	}
}

/* stdout and the JSON file: everything written, or 1 after saying why */
static int flush_output(FILE *json)
{
	int err = 0;

	if (stdout_closed && json != stdout) {
		pr_err("stdout is closed: the results could not be written there");
		err = 1;
	} else if (fflush(stdout) || ferror(stdout)) {
		pr_err("writing the results to stdout failed: %s",
		       strerror(errno ?: EIO));
		err = 1;
	}
	if (json && json != stdout && (fflush(json) || ferror(json) ||
				       fclose(json))) {
		pr_err("writing %s failed: %s", bench_rs.json,
		       strerror(errno ?: EIO));
		err = 1;
	}
	return err;
}

/* --json FILE is opened before the run: a bad path must not cost one */
static FILE *open_json(void)
{
	FILE *f;

	if (!bench_rs.json)
		return NULL;
	if (!strcmp(bench_rs.json, "-"))
		return stdout;
	f = fopen(bench_rs.json, "w");
	if (!f)
		pr_err("cannot write %s: %s", printable(bench_rs.json),
		       strerror(errno));
	return f;
}

static int run_list(const struct bench_family *fam)
{
	struct bench_rows all = {};
	FILE *json;
	int err;

	err = fam->setup(&bench_rs, &all);
	if (err)
		return 1;
	json = open_json();
	if (bench_rs.json && !json)
		return 1;
	err = json ? write_list(fam, &all, json) : 0;
	if (!json)
		print_list(fam, &all);
	close_rows(fam, &all);
	return err || flush_output(json) ? 1 : 0;
}

static int run(const struct bench_family *fam, FILE *json)
{
	struct bench_rows rows = {};
	int ret;

	if (fam->setup(&bench_rs, &rows) || alloc_worker_rates(&rows)) {
		ret = 1;
		goto out;
	}
	warn_cpu_quota(bench_rs.cpus.nr);
	if (run_rows(fam, &rows) ||
	    (bench_rs.prog_stats && prog_stats_pass(fam, &rows))) {
		ret = exit_interrupted();
		goto out;
	}
	bench_writing_results();
	if (json != stdout) {
		if (verbosity > 0)
			fam->print_upstream(&rows);
		fam->print_summary(&bench_rs, &rows);
	}
	if (json && write_results(fam, &rows, json))
		pr_err("writing %s failed", bench_rs.json);
	ret = exit_status(&rows);
	if (flush_output(json))
		ret = 1;
	json = NULL;
	/* a signal while the results were written still ends the run so */
	if (bench_interrupted())
		ret = exit_interrupted();
out:
	if (json && json != stdout)
		fclose(json);
	close_rows(fam, &rows);
	return ret;
}

#ifdef BENCH_TESTING
/* BENCH_TEST_FAULT's names, but for miss-cpu=N */
static const struct {
	const char *name;
	enum test_fault_kind kind;
} fault_names[] = {
	{ "miss-odd", BENCH_FAULT_MISS_ODD },
	{ "uncounted", BENCH_FAULT_UNCOUNTED },
	{ "miss-one", BENCH_FAULT_MISS_ONE },
	{ "wrong-key", BENCH_FAULT_WRONG_KEY },
	{ "fill-all", BENCH_FAULT_FILL_ALL },
	{ "drop-all", BENCH_FAULT_DROP_ALL },
	{ "empty-map", BENCH_FAULT_EMPTY_MAP },
	{ "extra-odd", BENCH_FAULT_EXTRA_ODD },
	{ "wrong-value", BENCH_FAULT_WRONG_VALUE },
	{ "extra-push", BENCH_FAULT_EXTRA_PUSH },
	{ "miss-rare", BENCH_FAULT_MISS_RARE },
};

/* BENCH_TEST_FAULT: the tests' way to make programs miss events */
static int read_fault(void)
{
	struct test_fault *fault = &bench_rs.fault;
	const char *s = getenv("BENCH_TEST_FAULT");
	size_t i;
	__u64 cpu;

	if (!s || !*s)
		return 0;
	fault->name = s;
	for (i = 0; i < ARRAY_SIZE(fault_names); i++)
		if (!strcmp(s, fault_names[i].name))
			fault->kind = fault_names[i].kind;
	if (!strncmp(s, "miss-cpu=", 9) && !parse_u64(s + 9, 0, 8191, &cpu)) {
		fault->kind = BENCH_FAULT_MISS_CPU;
		fault->cpu = cpu;
	}
	if (fault->kind == BENCH_FAULT_NONE) {
		pr_err("BENCH_TEST_FAULT='%s': miss-odd, miss-cpu=N, uncounted, miss-one, wrong-key, fill-all, drop-all, empty-map, extra-odd, wrong-value, extra-push or miss-rare",
		       printable(s));
		return -1;
	}
	pr_note("test fault '%s' injected: no figure of this run is to be trusted",
		s);
	return 0;
}
#else
/* what make builds: no test faults, whatever the environment holds */
static int read_fault(void)
{
	return 0;
}
#endif

int bench_main(const struct bench_family *fam, int argc, char **argv)
{
	FILE *json;
	int err;

	hold_std_fds();
	bench_init(fam->name);
	if (parse_options(fam, argc, argv) || check_options(fam, argc, argv))
		return EXIT_USAGE;
	if (bench_rs.compare[0]) {
		err = bench_compare(bench_rs.compare[0], bench_rs.compare[1],
				    bench_rs.fail_on_regression);
		return err < 0 ? EXIT_USAGE : err;
	}
	if (bench_rs.list)
		return run_list(fam);
	if (read_fault())
		return EXIT_USAGE;
	err = select_cpus();
	if (err)
		return err;
	if (check_privileges())
		return 1;
	install_signal_handlers();
	json = open_json();
	if (bench_rs.json && !json)
		return 1;
	if (bench_lock(fam->name, bench_rs.lock_wait)) {
		if (json && json != stdout)
			fclose(json);
		return bench_interrupted() ? exit_interrupted() : 1;
	}
	ensure_tracefs();
	return run(fam, json);
}
