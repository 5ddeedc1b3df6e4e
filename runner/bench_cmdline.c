// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: the runner's options and the family's, --help, the
 * checks of what they ask together, the CPUs and the test build's
 * BENCH_TEST_FAULT. The parsing of what users type (numbers, CPU lists,
 * name lists) is bench_parse.c's and bench_cpus.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_cmdline.h"
#include "bench_cpus.h"
#include "bench_kernel.h"
#include "bench_msg.h"
#include "bench_parse.h"
#include "bench_util.h"

/*
 * A row is measured in units until the 95% interval of its figure is
 * within 3% of it (1 ns at least), after 4 units (fewer leave Student's t
 * too wide to say much), or until it has taken 16 units or half a
 * second: see bench_sampler.c.
 */
#define DEFAULT_MIN_UNITS	4
#define DEFAULT_MAX_UNITS	16
#define DEFAULT_PRECISION	0.03
#define DEFAULT_ROW_BUDGET	0.5
#define DEFAULT_LOCK_WAIT	600

/* ---- options ---- */

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

static const struct bench_option common_options[] = {
	{ "cpus", 'c', "N|LIST",
	  "N: the first N usable CPUs; or a list like 0,2-3\n"
	  "(default: every CPU this process may use), one worker each",
	  IN_RUN },
	{ "count", 'n', "N", "events per worker and sample (default: the row's\n"
	  "own, paced to about 3 ms)", IN_RUN },
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
/* --compare, --fail-on-regression, --ignore-param */
struct compare_args compare_args = {
	.fail_on_regression = -1,
	.threshold_pct = COMPARE_THRESHOLD_PCT,
};
/* --format: refused where nothing is printed as it asks */
static bool format_given;

int bench_cpus_arg(const char *s, const char *what)
{
	if (cpus_arg) {
		pr_err("give the CPUs once: %s or -c", what);
		return -1;
	}
	cpus_arg = s;
	bench_positional_as('c', what);
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
	bench_positional_as('n', what);
	return 0;
}

/* --precision, --max-units or --budget, which -r makes meaningless */
static const char *adaptive_option;

/* an option given, or a positional argument that stands for one */
struct given {
	const struct bench_option *o;
	bool common;		/* one of common_options[] */
	const char *as;		/* a positional argument's name; NULL */
};
static struct given *given;
static int nr_given, max_given;

static void add_given(const struct bench_family *fam, int key, const char *as)
{
	const struct bench_option *o = find_option(fam, key);

	if (!o || nr_given == max_given)
		return;
	given[nr_given++] = (struct given){ o, o >= common_options &&
		o < common_options + ARRAY_SIZE(common_options), as };
}

static const struct bench_family *parsing;

void bench_positional_as(int key, const char *what)
{
	add_given(parsing, key, what);
}

static int parse_common(const struct bench_family *fam, int c,
			const char *arg, int argc, char **argv)
{
	struct run_settings *rs = &bench_rs;
	double budget;
	__u64 n;
	int err = 0;

	switch (c) {
	case 'c':
		return bench_cpus_arg(arg, "num_cpu");
	case 'n':
		return bench_count_arg(arg, 10000000000ull, "count");
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
		adaptive_option = "--max-units";
		break;
	case OPT_BUDGET:
		err = parse_double(arg, 0.001, 3600, &budget);
		rs->row_budget_ns = budget * 1e9;
		adaptive_option = "--budget";
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
		/* "--json --attach-time" would write to a file of that name */
		if (arg[0] == '-' && arg[1])
			return -2;
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
		return compare_parse_files(&compare_args, arg, argc, argv,
					   &optind);
	case OPT_FAIL_ON_REGRESSION:
		err = parse_double(arg, 0, 1e6,
				   &compare_args.fail_on_regression);
		return err ? -2 : 0;
	case OPT_IGNORE_PARAM:
		return compare_parse_ignore(&compare_args, arg);
	case OPT_THRESHOLD:
		err = parse_double(arg, 0, 1000, &compare_args.threshold_pct);
		return err ? -2 : 0;
	case 'f':
		if (!strcmp(arg, "short"))
			rs->paste = true;
		else if (strcmp(arg, "table"))
			return -2;
		format_given = true;
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

int parse_options(const struct bench_family *fam, int argc, char **argv)
{
	struct run_settings *rs = &bench_rs;
	struct option *longopts;
	char shortopts[128];
	int c, ret = 0;

	rs->min_units = DEFAULT_MIN_UNITS;
	rs->max_units = DEFAULT_MAX_UNITS;
	rs->precision = DEFAULT_PRECISION;
	rs->row_budget_ns = DEFAULT_ROW_BUDGET * 1e9;
	rs->lock_wait = DEFAULT_LOCK_WAIT;
	parsing = fam;
	max_given = argc + 4;
	given = calloc(max_given, sizeof(*given));
	if (!given ||
	    getopt_tables(fam, &longopts, shortopts, sizeof(shortopts)))
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
		/* checked against the way of running once all are read */
		add_given(fam, c, NULL);
		ret = parse_common(fam, c, optarg, argc, argv);
		if (ret == 1)
			ret = fam->parse_option(c, optarg);
		if (ret == -2) {
			pr_err("bad value '%s' for %s (see --help)",
			       printable(optarg), option_name(fam, c));
			ret = -1;
		}
	}
	rs->verbosity = verbosity;
	free(longopts);
	return ret;
}

/* ---- the ways of running, and the options each takes ---- */

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

static bool own_way_given(const struct bench_family *fam)
{
	int i;

	for (i = 0; fam->own_way && i < nr_given; i++)
		if (given[i].o->key == fam->own_way)
			return true;
	return false;
}

/* --compare first, then --list, the family's own way, or a run */
static enum bench_way selected_way(const struct bench_family *fam)
{
	bool own = own_way_given(fam);

	if (compare_args.nr_files[SIDE_A])
		return WAY_COMPARE;
	if (bench_rs.list)
		return own ? WAY_LIST_OWN : WAY_LIST;
	return own ? WAY_OWN : WAY_RUN;
}

/*
 * A way's name: "a run" ("run" in JSON), "--memory" (the family's own
 * way's option), "--list", "--list --memory", "--compare"
 */
static const char *way_name(const struct bench_family *fam,
			    enum bench_way way, bool json, char *buf,
			    size_t len)
{
	const struct bench_option *own = find_option(fam, fam->own_way);
	const char *own_name = own ? own->name : "?";

	switch (way) {
	case WAY_RUN:
		snprintf(buf, len, "%s", json ? "run" : "a run");
		break;
	case WAY_OWN:
		snprintf(buf, len, "--%s", own_name);
		break;
	case WAY_LIST:
		snprintf(buf, len, "--list");
		break;
	case WAY_LIST_OWN:
		snprintf(buf, len, "--list --%s", own_name);
		break;
	default:
		snprintf(buf, len, "--compare");
		break;
	}
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

/*
 * The options and positional arguments from @from on that mean nothing
 * in the way the command line selects are refused: one line naming it.
 */
static int check_ways(const struct bench_family *fam, int from)
{
	enum bench_way way = selected_way(fam);
	char where[64], applies[256], name[64];
	const struct given *g;
	unsigned int ways;

	for (g = given + from; g < given + nr_given; g++) {
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

json_t *options_json(const struct bench_family *fam)
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

/* options that contradict each other, or that the way of running ignores */
int check_options(const struct bench_family *fam, int argc, char **argv)
{
	struct run_settings *rs = &bench_rs;
	struct compare_args *cmp = &compare_args;
	int options = nr_given;

	if (check_ways(fam, 0))
		return -1;
	if (cmp->nr_files[SIDE_A]) {
		if (optind < argc) {
			pr_err("--compare takes files and options, not '%s'",
			       printable(argv[optind]));
			return -1;
		}
		cmp->json = rs->json;
		cmp->paste = rs->paste;
		if (format_given && rs->json && !strcmp(rs->json, "-")) {
			pr_err("--json - writes the verdicts to stdout: --format goes without it");
			return -1;
		}
		return 0;
	}
	if (format_given && (rs->ktap || (rs->json && !strcmp(rs->json, "-")))) {
		pr_err("--format goes with a run's summary or --compare: not with %s",
		       rs->ktap ? "--ktap" : "--json -");
		return -1;
	}
	if (rs->ktap && rs->json && !strcmp(rs->json, "-")) {
		pr_err("--ktap writes to stdout: give --json a file, not -");
		return -1;
	}
	if (rs->duration && count_given) {
		pr_err("give a count (-n) or a duration (-d), not both");
		return -1;
	}
	if (rs->repeat && adaptive_option) {
		pr_err("-r gives the number of units: %s goes without it",
		       adaptive_option);
		return -1;
	}
	/* the positional arguments, and where those that stand for options apply */
	if (fam->parse_args(argc - optind, argv + optind))
		return -1;
	return check_ways(fam, options);
}

int select_cpus(void)
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

#ifdef BENCH_TESTING
/* BENCH_TEST_FAULT's names: bench_faults.h's table */
#define FAULT_NAME(kind, nr, name)	{ name, BENCH_FAULT_##kind },
static const struct {
	const char *name;	/* ending in '=': a CPU follows */
	enum test_fault_kind kind;
} fault_names[] = {
	BENCH_FAULTS(FAULT_NAME)
};
#undef FAULT_NAME

/* whether @s names fault @i, and its CPU into *@cpu where it takes one */
static bool fault_named(const char *s, size_t i, __u64 *cpu)
{
	const char *name = fault_names[i].name;
	size_t n = strlen(name);

	if (name[n - 1] != '=')
		return !strcmp(s, name);
	return !strncmp(s, name, n) && !parse_u64(s + n, 0, 8191, cpu);
}

/* "miss-odd, miss-cpu=N, ... or miss-rare": the names, for an error */
static void fault_list(char *buf, size_t len)
{
	size_t i, nr = ARRAY_SIZE(fault_names), off = 0;
	const char *name;

	for (i = 0; i < nr && off < len; i++) {
		name = fault_names[i].name;
		off += snprintf(buf + off, len - off, "%s%s%s",
				!i ? "" : i + 1 < nr ? ", " : " or ", name,
				name[strlen(name) - 1] == '=' ? "N" : "");
	}
}

/* BENCH_TEST_FAULT: the tests' way to make programs miss events */
int read_fault(void)
{
	struct test_fault *fault = &bench_rs.fault;
	const char *s = getenv("BENCH_TEST_FAULT");
	char names[256];
	__u64 cpu = 0;
	size_t i;

	if (!s || !*s)
		return 0;
	fault->name = s;
	for (i = 0; i < ARRAY_SIZE(fault_names); i++) {
		if (fault_named(s, i, &cpu)) {
			fault->kind = fault_names[i].kind;
			fault->cpu = cpu;
		}
	}
	if (fault->kind == BENCH_FAULT_NONE) {
		fault_list(names, sizeof(names));
		pr_err("BENCH_TEST_FAULT='%s': %s", printable(s), names);
		return -1;
	}
	pr_note("test fault '%s' injected: no figure of this run is to be trusted",
		s);
	return 0;
}
#else
/* what make builds: no test faults, whatever the environment holds */
int read_fault(void)
{
	return 0;
}
#endif
