// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: the runner's options, the ways of running each
 * applies to, the parsing, and --list.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "core/core.h"
#include "kernel/kernel.h"
#include "rows/rows.h"
#include "attach/attach.h"
#include "compare/compare.h"
#include "report/report.h"

/* the keys of the runner's options without a short one */
enum {
	OPT_JSON = 0x100,
	OPT_PROG_STATS,
	OPT_COMPARE,
	OPT_FAIL_ON_REGRESSION,
	OPT_IGNORE_PARAM,
	OPT_THRESHOLD,
	OPT_LIST,
	OPT_PRECISION,
	OPT_MAX_UNITS,
	OPT_BUDGET,
	OPT_LOCK_WAIT,
	OPT_KTAP,
	OPT_PROFILE,
	OPT_FORMAT,
};

/* an option given, or a positional argument that stands for one */
struct given {
	const struct bench_option *o;
	bool common;		/* one of common_options[] */
	const char *as;		/* a positional argument's name; NULL */
};

/* the options every family takes, after the family's own */
static const struct bench_option common_options[] = {
	{ "cpus", 'c', "N|LIST",
	  "N: the first N usable CPUs; or a list like 0,2-3\n"
	  "(default: every CPU this process may use), one worker each",
	  IN_RUN },
	{ "count", 'n', "N", "events per worker and sample (default: the row's\n"
	  "own, paced to 3 ms, or more where its unit's\n"
	  "attach, detach and waits cost more)", IN_RUN },
	{ "repeat", 'r', "N", "exactly N units per row: a row's sample between\n"
	  "two of its base's (default: 4 to --max-units,\n"
	  "until --precision is met)", IN_RUN },
	{ "precision", OPT_PRECISION, "PCT",
	  "stop sampling a row once the 95% interval of its\n"
	  "overhead (of its ns per event, without a base) is\n"
	  "within +-PCT% of it, or 1 ns (default 3)", IN_RUN },
	{ "max-units", OPT_MAX_UNITS, "N",
	  "at most N units per row (default 16)", IN_RUN },
	{ "budget", OPT_BUDGET, "S",
	  "at most S seconds per row short of --precision\n"
	  "(default 0.5)", IN_RUN },
	{ "warmup", 'w', "N", "units each session runs first, not counted\n"
	  "(default 0)", IN_RUN },
	{ "duration", 'd', "S", "seconds per sample instead of a count",
	  IN_RUN },
	{ "json", OPT_JSON, "FILE", "every figure and sample as JSON (- for stdout);\n"
	  "FILE is replaced only when the run completes",
	  IN_RUN | IN_LIST | IN_LIST_OWN | IN_COMPARE },
	{ "ktap", OPT_KTAP, NULL,
	  "the results as KTAP on stdout instead of the\n"
	  "summary, one test point per row, and kselftest's\n"
	  "exit status: 0 pass, 1 fail, 4 skip", IN_RUN },
	{ "prog-stats", OPT_PROG_STATS, NULL,
	  "an extra pass with the kernel's BPF run-time\n"
	  "stats: ns inside the program per run", IN_RUN },
	{ "profile", OPT_PROFILE, NULL,
	  "an extra pass that samples the workers' CPUs\n"
	  "(software clock): each row's top kernel symbols\n"
	  "beside its base's, the overhead's ns in each", IN_RUN },
	{ "list", OPT_LIST, NULL,
	  "print the rows the other options select and what\n"
	  "each needs of the kernel (with --json, as JSON);\n"
	  "runs nothing, needs no privileges", IN_LIST | IN_LIST_OWN },
	{ "compare", OPT_COMPARE, "A B",
	  "compare --json files, A B or A1 A2 ... -- B1 B2 ...\n"
	  "(each side's runs pooled): nothing is run; with\n"
	  "--json FILE, the verdicts as JSON", IN_COMPARE },
	{ "fail-on-regression", OPT_FAIL_ON_REGRESSION, "PCT",
	  "with --compare: exit 1 when a row is\n"
	  "significantly slower by more than PCT percent", IN_COMPARE },
	{ "threshold", OPT_THRESHOLD, "PCT",
	  "with --compare: a change within PCT% of A's\n"
	  "figure, or 1 ns, is no change, however\n"
	  "significant (default 7: single runs of one build\n"
	  "differ by that on a shared machine); between\n"
	  "single runs, plus the base rows' shift; 0: the\n"
	  "test alone", IN_COMPARE },
	{ "ignore-param", OPT_IGNORE_PARAM, "KEY[,KEY]",
	  "with --compare: match rows ignoring these params\n"
	  "(--ignore-param progs: a --progs 1 run against\n"
	  "a --progs 2 one)", IN_COMPARE },
	{ "lock-wait", OPT_LOCK_WAIT, "S",
	  "wait up to S seconds for another run of these\n"
	  "tools to finish (default 600; 0: do not wait)", IN_RUN },
	{ "format", 'f', "FMT",
	  "table: the summary's table (default); short: one\n"
	  "line a row, to paste into a commit message (with\n"
	  "--compare, a table of at most 72 columns)", IN_RUN | IN_COMPARE },
	{ "quiet", 'q', NULL, "only the summary", IN_ANY },
	{ "verbose", 'v', NULL, "libbpf's messages too", IN_ANY },
	{ "help", 'h', NULL, "this text", IN_ANY },
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

/* the usage, the family's options and the common ones, to @f */
static void usage(const struct bench_family *fam, FILE *f)
{
	const struct bench_option *o;

	fprintf(f, "Usage: %s [options] %s\n"
		"       %s --compare A.json B.json [--fail-on-regression PCT]\n"
		"         [--ignore-param KEY[,KEY...]] [--json FILE]\n"
		"       %s --compare A1.json A2.json ... -- B1.json B2.json ...\n"
		"       %s --list [--json FILE]\n%s\n",
		fam->name, fam->args, fam->name, fam->name, fam->name,
		fam->about);
	for (o = fam->options; o && o->name; o++)
		print_option(f, o);
	for (o = common_options; o->name; o++)
		print_option(f, o);
	if (fam->usage_tables)
		fam->usage_tables(f);
	fprintf(f,
"\nExit status: 0 when every selected row ran verified and undisturbed or\n"
"was skipped for a reason the kernel gives; 1 when one failed or none could\n"
"run, or an output could not be written (any way of running); 2 on bad\n"
"input: a usage error, an option that does not apply to the way of running,\n"
"an unreadable --compare file; 3 when rows were disturbed (stopped,\n"
"throttled or moved workers) but none failed; 128+signal when interrupted.\n"
"--compare: 0, or 1 for a regression beyond --fail-on-regression. --ktap:\n"
"kselftest's, 0 pass, 1 a row failed or a usage error, 4 (skip) nothing\n"
"measured or the run cannot start here; 128+signal stays.\n");
}

/* getopt's tables of the family's options and the common ones: 0, -ENOMEM */
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

/* the option of @key, the family's first; NULL if none has it */
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

/* whether @o is one of common_options[] */
static bool is_common_option(const struct bench_option *o)
{
	return o >= common_options &&
	       o < common_options + ARRAY_SIZE(common_options);
}

/* ---- the ways of running ---- */

static bool own_way_takes(const struct bench_family *fam, const char *name)
{
	const char *const *n;

	for (n = fam->own_way_takes; n && *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

/* where @g applies: its table's ways, and the own way's for the runner's */
static unsigned int given_ways(const struct bench_family *fam,
			       const struct given *g)
{
	unsigned int ways = g->o->ways;

	if (g->common && own_way_takes(fam, g->o->name))
		ways |= IN_OWN;
	return ways;
}

/* "a run" ("run" in JSON), "--memory" (the own way's), "--list", ... */
static const char *way_name(const struct bench_family *fam,
			    enum bench_way way, bool json, char *buf,
			    size_t len)
{
	const struct bench_option *own = find_option(fam, fam->own_way);

	if (way == WAY_RUN)
		return json ? "run" : "a run";
	if (way == WAY_LIST || way == WAY_COMPARE)
		return way == WAY_LIST ? "--list" : "--compare";
	snprintf(buf, len, "%s--%s", way == WAY_LIST_OWN ? "--list " : "",
		 own ? own->name : "?");
	return buf;
}

/* the ways of @ways this family has, by name: "a run and --memory" */
static void ways_text(const struct bench_family *fam, unsigned int ways,
		      char *buf, size_t len)
{
	int w, n = 0, nr = 0;
	char name[64];
	size_t off = 0;

	if (!fam->own_way)
		ways &= ~(IN_OWN | IN_LIST_OWN);
	for (w = 0; w < NR_WAYS; w++)
		nr += !!(ways & 1u << w);
	buf[0] = '\0';
	for (w = 0; w < NR_WAYS && off < len; w++) {
		if (!(ways & 1u << w))
			continue;
		n++;
		off += snprintf(buf + off, len - off, "%s%s",
				n == 1 ? "" : n == nr ? " and " : ", ",
				way_name(fam, w, false, name, sizeof(name)));
	}
}

/* the first of @given that means nothing in @way refused, in one line */
static int check_ways(const struct bench_family *fam, enum bench_way way,
		      const struct given *given, int nr)
{
	char where[64], applies[256], name[64];
	const struct given *g;
	unsigned int ways;

	for (g = given; g < given + nr; g++) {
		ways = given_ways(fam, g);
		if (ways & 1u << way)
			continue;
		ways_text(fam, ways, applies, sizeof(applies));
		snprintf(name, sizeof(name), "%s%s", g->as ? "" : "--",
			 g->as ?: g->o->name);
		pr_err("%s does not apply to %s, only to %s", name,
		       way_name(fam, way, false, where, sizeof(where)),
		       applies);
		return -1;
	}
	return 0;
}

/* --list --json's "options": [ { "name", "short", "ways": [...] }, ... ] */
static json_t *options_json(const struct bench_family *fam)
{
	const struct bench_option *o;
	json_t *a = json_array(), *ways;
	struct given g;
	char name[64];
	int pass, w;

	for (pass = 0; pass < 2; pass++)
		for (o = pass ? common_options : fam->options; o && o->name;
		     o++) {
			g = (struct given){ o, pass, NULL };
			ways = json_array();
			for (w = 0; w < NR_WAYS; w++)
				if ((fam->own_way ||
				     (w != WAY_OWN && w != WAY_LIST_OWN)) &&
				    given_ways(fam, &g) & 1u << w)
					json_array_append_new(ways, json_string(
						way_name(fam, w, true, name,
							 sizeof(name))));
			json_array_append_new(a, json_pack("{s:s, s:o, s:o}",
				"name", o->name,
				"short", o->key < 0x100 ?
					 json_sprintf("%c", o->key) :
					 json_null(),
				"ways", ways));
		}
	return a;
}

/* ---- the command line parsed ---- */

/* 4 units at least: fewer leave Student's t too wide to say much */
#define DEFAULT_MIN_UNITS	4
#define DEFAULT_MAX_UNITS	16
#define DEFAULT_PRECISION	0.03
#define DEFAULT_ROW_BUDGET	0.5
#define DEFAULT_LOCK_WAIT	600

/* getopt leaves a bad short option in optopt, a long one in argv */
static const char *offending_option(char **argv, char shortopt[3])
{
	if (!optopt || !strncmp(argv[optind - 1], "--", 2))
		return printable(argv[optind - 1]);
	shortopt[0] = '-';
	shortopt[1] = optopt;
	shortopt[2] = '\0';
	return shortopt;
}

/* "--name" of the option @key, in @buf */
static const char *option_name(const struct bench_family *fam, int key,
			       char *buf, size_t len)
{
	const struct bench_option *o = find_option(fam, key);

	snprintf(buf, len, "--%s", o ? o->name : "?");
	return buf;
}

int bench_cpus_arg(struct cmdline *cl, const char *s, const char *what)
{
	if (cl->cpus_arg) {
		pr_err("give the CPUs once: %s or -c", what);
		return -1;
	}
	cl->cpus_arg = s;
	bench_positional_as(cl, 'c', what);
	return 0;
}

int bench_count_arg(struct cmdline *cl, const char *s, __u64 max,
		    const char *what)
{
	if (cl->count_given) {
		pr_err("give the count once: %s or -n", what);
		return -1;
	}
	if (parse_u64(s, 1, max, &cl->rs->count)) {
		pr_err("bad %s '%s': 1 to %llu", what, printable(s), max);
		return -1;
	}
	cl->count_given = true;
	bench_positional_as(cl, 'n', what);
	return 0;
}

void bench_positional_as(struct cmdline *cl, int key, const char *what)
{
	const struct bench_option *o = find_option(cl->fam, key);

	if (!o || cl->nr_given == cl->max_given)
		return;
	cl->given[cl->nr_given++] = (struct given){ o, is_common_option(o),
						    what };
}

static int parse_common(struct cmdline *cl, int c, const char *arg,
			int argc, char **argv)
{
	struct run_settings *rs = cl->rs;
	double budget;
	__u64 n;
	int err = 0;

	switch (c) {
	case 'c':
		return bench_cpus_arg(cl, arg, "num_cpu");
	case 'n':
		return bench_count_arg(cl, arg, 10000000000ull, "count");
	case 'r':
		err = parse_u64(arg, 1, MAX_UNITS, &n);
		rs->repeat = n;
		break;
	case 'w':
		err = parse_u64(arg, 0, MAX_UNITS, &n);
		rs->warmup = n;
		break;
	case OPT_MAX_UNITS:
		err = parse_u64(arg, 2, MAX_UNITS, &n);
		rs->max_units = n;
		if (rs->min_units > rs->max_units)
			rs->min_units = rs->max_units;
		cl->adaptive_option = "--max-units";
		break;
	case OPT_BUDGET:
		err = parse_double(arg, 0.001, 3600, &budget);
		rs->row_budget_ns = budget * 1e9;
		cl->adaptive_option = "--budget";
		break;
	case OPT_PRECISION:
		err = parse_double(arg, 0.01, 100, &rs->precision);
		rs->precision /= 100;
		cl->adaptive_option = "--precision";
		break;
	case 'd':
		err = parse_double(arg, 0.001, 3600, &rs->duration);
		break;
	case OPT_JSON:
		/* "--json --attach-time" would write to a file of that name */
		if (arg[0] == '-' && arg[1])
			return -2;
		/* "" names no file: said before anything runs */
		if (!arg[0]) {
			pr_err("bad value '' for --json: an empty file name (- for stdout)");
			return -1;
		}
		rs->json = arg;
		break;
	case OPT_PROG_STATS:
		rs->prog_stats = true;
		break;
	case OPT_KTAP:
		rs->ktap = true;
		break;
	case OPT_PROFILE:
		rs->profile = true;
		break;
	case OPT_LIST:
		rs->list = true;
		return 0;
	case OPT_LOCK_WAIT:
		err = parse_double(arg, 0, 86400, &rs->lock_wait);
		break;
	case OPT_COMPARE:
		/* the files are the words after it that are no option */
		return compare_parse_files(&cl->compare, arg, argc, argv,
					   &optind);
	case OPT_FAIL_ON_REGRESSION:
		err = parse_double(arg, 0, 1e6,
				   &cl->compare.fail_on_regression);
		return err ? -2 : 0;
	case OPT_IGNORE_PARAM:
		return compare_parse_ignore(&cl->compare, arg);
	case OPT_THRESHOLD:
		err = parse_double(arg, 0, 1000, &cl->compare.threshold_pct);
		return err ? -2 : 0;
	case 'f':
		if (!strcmp(arg, "short"))
			rs->paste = true;
		else if (strcmp(arg, "table"))
			return -2;
		cl->format_given = true;
		return 0;
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

int parse_options(const struct bench_family *fam, void *ctx,
		  struct run_settings *rs, struct cmdline *cl, int argc,
		  char **argv)
{
	struct option *longopts;
	char shortopts[128], name[64];
	int c, ret = 0;

	*rs = (struct run_settings){
		.min_units = DEFAULT_MIN_UNITS,
		.max_units = DEFAULT_MAX_UNITS,
		.precision = DEFAULT_PRECISION,
		.row_budget_ns = DEFAULT_ROW_BUDGET * 1e9,
		.lock_wait = DEFAULT_LOCK_WAIT,
		.ctx = ctx,
	};
	*cl = (struct cmdline){
		.rs = rs,
		.compare = {
			.fail_on_regression = -1,
			.threshold_pct = COMPARE_THRESHOLD_PCT,
		},
		.fam = fam,
		.max_given = argc + 4,
	};
	cl->given = calloc(cl->max_given, sizeof(*cl->given));
	if (!cl->given ||
	    getopt_tables(fam, &longopts, shortopts, sizeof(shortopts)))
		return -1;
	opterr = 0;	/* one line of ours instead of getopt's */
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		/* past the first error only --ktap: it says the error */
		if (ret) {
			if (c == OPT_KTAP)
				rs->ktap = true;
			continue;
		}
		if (c == 'h') {
			usage(fam, stdout);
			cl->help = true;
			break;
		}
		if (c == ':' || c == '?') {
			pr_err("%s %s (see --help)", c == ':' ?
			       "missing value for option" : "unknown option",
			       offending_option(argv, name));
			ret = -1;
			continue;
		}
		/* checked against the way of running once all are read */
		bench_positional_as(cl, c, NULL);
		ret = parse_common(cl, c, optarg, argc, argv);
		if (ret == 1)
			ret = fam->parse_option(ctx, c, optarg);
		if (ret == -2) {
			pr_err("bad value '%s' for %s (see --help)",
			       printable(optarg),
			       option_name(fam, c, name, sizeof(name)));
			ret = -1;
		}
		/* a value refused that looks like an option: "--json --ktap" */
		if (ret && optarg == argv[optind - 1] && optarg[0] == '-')
			optind--;
	}
	rs->verbosity = verbosity;
	free(longopts);
	return ret;
}

/* ---- what the options ask together ---- */

static bool own_way_given(const struct cmdline *cl)
{
	int i;

	for (i = 0; cl->fam->own_way && i < cl->nr_given; i++)
		if (cl->given[i].o->key == cl->fam->own_way)
			return true;
	return false;
}

/* --compare first, then --list, the family's own way, or a run */
static enum bench_way selected_way(const struct cmdline *cl)
{
	bool own = own_way_given(cl);

	if (cl->compare.nr_files[SIDE_A])
		return WAY_COMPARE;
	if (cl->rs->list)
		return own ? WAY_LIST_OWN : WAY_LIST;
	return own ? WAY_OWN : WAY_RUN;
}

/* options that contradict each other, or that the way of running ignores */
int check_options(const struct bench_family *fam, struct cmdline *cl,
		  int argc, char **argv)
{
	struct run_settings *rs = cl->rs;
	struct compare_args *cmp = &cl->compare;
	int options = cl->nr_given;
	enum bench_way way;

	if (check_ways(fam, selected_way(cl), cl->given, cl->nr_given))
		return -1;
	if (cmp->nr_files[SIDE_A]) {
		if (optind < argc) {
			pr_err("--compare takes files and options, not '%s'",
			       printable(argv[optind]));
			return -1;
		}
		cmp->json = rs->json;
		cmp->paste = rs->paste;
		if (cl->format_given && rs->json && !strcmp(rs->json, "-")) {
			pr_err("--json - writes the verdicts to stdout: --format goes without it");
			return -1;
		}
		return 0;
	}
	if (cl->format_given && (rs->ktap || (rs->json && !strcmp(rs->json, "-")))) {
		pr_err("--format goes with a run's summary or --compare: not with %s",
		       rs->ktap ? "--ktap" : "--json -");
		return -1;
	}
	if (rs->ktap && rs->json && !strcmp(rs->json, "-")) {
		pr_err("--ktap writes to stdout: give --json a file, not -");
		return -1;
	}
	if (rs->duration && cl->count_given) {
		pr_err("give a count (-n) or a duration (-d), not both");
		return -1;
	}
	if (rs->repeat && cl->adaptive_option) {
		pr_err("-r gives the number of units: %s goes without it",
		       cl->adaptive_option);
		return -1;
	}
	/* the positional arguments, and where those that stand for options apply */
	if (!fam->parse_args && optind < argc) {
		pr_err("too many arguments (see --help)");
		return -1;
	}
	if (fam->parse_args &&
	    fam->parse_args(rs->ctx, cl, argc - optind, argv + optind))
		return -1;
	way = selected_way(cl);
	return check_ways(fam, way, cl->given + options, cl->nr_given - options);
}

int select_cpus(struct cmdline *cl)
{
	struct cpu_list usable = {};
	int err;

	err = usable_cpus(&usable);
	if (err) {
		pr_err("cannot tell which CPUs this process may use: %s",
		       strerror(-err));
		return 1;
	}
	if (!cl->cpus_arg) {
		cl->rs->cpus = usable;
		return 0;
	}
	err = parse_cpus(cl->cpus_arg, &usable, &cl->rs->cpus);
	if (err) {
		char list[1024];

		format_cpus(&usable, list, sizeof(list));
		pr_err("bad CPUs '%s': a count from 1 to %d, or a list of CPUs among %s (online, and allowed by this process's affinity and cpuset)",
		       printable(cl->cpus_arg), usable.nr, list);
	}
	cpu_list_free(&usable);
	return err ? EXIT_USAGE : 0;
}

/* ---- --list: the rows' definitions, runs nothing ---- */

static json_t *needs_json(const char *const *needs, int nr, const char *extra)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < nr && needs[i]; i++)
		json_array_append_new(a, json_string(needs[i]));
	if (extra)
		json_array_append_new(a, json_string(extra));
	return a;
}

void list_kind(json_t *o, const struct attach_kind *kind,
	       const char *extra_need)
{
	int nr = sizeof(kind->needs) / sizeof(kind->needs[0]);

	json_object_set_new(o, "needs", needs_json(kind->needs, nr, extra_need));
	if (kind->lacks)
		json_object_set_new(o, "lacks", json_string(kind->lacks));
	if (kind->may_lack)
		json_object_set_new(o, "may_lack", json_string(kind->may_lack));
	if (kind->trampoline)
		json_object_set_new(o, "trampoline", json_true());
}

/* --list's document: every row, and what the family says of each */
static json_t *list_json(const struct bench_family *fam,
			 const struct bench_rows *all)
{
	json_t *rows = json_array(), *o;
	int i;

	for (i = 0; i < all->nr; i++) {
		const struct bench_row *row = &all->row[i];

		o = json_pack("{s:s, s:s, s:o*, s:I}",
			      "name", row->name,
			      "variant", row->variant,
			      "params", row->nr_params ?
					params_json(row) : NULL,
			      "count", (json_int_t)row->count);
		/* its samples shortened to the machine's pace, or its own */
		json_object_set_new(o, "paced",
				    json_boolean(fam->paced && !row->unpaced));
		if (fam->list_row)
			fam->list_row(row, o);
		json_array_append_new(rows, o);
	}
	o = json_pack("{s:s, s:s, s:b, s:o}",
		      "schema", BENCH_SCHEMA,
		      "tool", fam->name,
		      "paced", fam->paced,
		      "rows", rows);
	if (o && fam->list_doc)
		fam->list_doc(o);
	/* which options apply to which way of running */
	if (o)
		json_object_set_new(o, "options", options_json(fam));
	return o;
}

/* "free test_flags bits: 38-63 (0x4000000000-0x8000000000000000)" */
static void print_free_bits(json_t *bits)
{
	size_t i, n = json_array_size(bits);
	const char *sep = "";
	json_int_t first, last;

	printf("free test_flags bits:");
	for (i = 0; i < n; i++, sep = ",") {
		first = last = json_integer_value(json_array_get(bits, i));
		while (i + 1 < n &&
		       json_integer_value(json_array_get(bits, i + 1)) == last + 1)
			last = json_integer_value(json_array_get(bits, ++i));
		printf("%s %lld", sep, (long long)first);
		if (last != first)
			printf("-%lld", (long long)last);
		printf(" (%#llx", 1ull << first);
		if (last != first)
			printf("-%#llx", 1ull << last);
		printf(")");
	}
	printf("%s\n", n ? "" : " none");
}

int write_list(const struct bench_family *fam, const struct bench_rows *all,
	       FILE *f)
{
	json_t *root = list_json(fam, all);
	int err;

	err = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ?
	      -EIO : 0;
	if (!err && fputc('\n', f) == EOF)
		err = -EIO;
	json_decref(root);
	return err;
}

/* each row of --list on one line: its name, variant and what it needs */
void print_list(const struct bench_family *fam, const struct bench_rows *all)
{
	json_t *root = list_json(fam, all), *rows, *row, *v;
	const char *key;
	size_t i;

	rows = json_object_get(root, "rows");
	json_array_foreach(rows, i, row) {
		printf("%-12s %-18s", json_string_value(json_object_get(row, "name")),
		       json_string_value(json_object_get(row, "variant")));
		json_object_foreach(row, key, v) {
			if (!strcmp(key, "name") || !strcmp(key, "variant"))
				continue;
			if (json_is_array(v) && !json_array_size(v))
				continue;
			char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

			printf(" %s=%s", key, text ? text : "?");
			free(text);
		}
		printf("\n");
	}
	rows = json_object_get(root, "free_bits");
	if (rows)
		print_free_bits(rows);
	json_decref(root);
}
