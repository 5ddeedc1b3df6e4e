// SPDX-License-Identifier: GPL-2.0
/*
 * The command line parsed: the runner's options and the family's into
 * the run's settings and the state main passes on (struct cmdline), the
 * checks of what they ask together, and the CPUs. The options' table and
 * --help are bench_options.c's, where each applies bench_ways.c's; the
 * parsing of what users type (numbers, CPU lists, name lists) is
 * bench_parse.c's and bench_cpus.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "core/core.h"
#include "kernel/kernel.h"
#include "rows/rows.h"

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

/*
 * getopt leaves a bad short option in optopt, a long one in argv: "-x"
 * is written in @shortopt
 */
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

static void add_given(struct cmdline *cl, int key, const char *as)
{
	const struct bench_option *o = find_option(cl->fam, key);

	if (!o || cl->nr_given == cl->max_given)
		return;
	cl->given[cl->nr_given++] = (struct given){ o, is_common_option(o),
						    as };
}

void bench_positional_as(struct cmdline *cl, int key, const char *what)
{
	add_given(cl, key, what);
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
	while (!ret && (c = getopt_long(argc, argv, shortopts, longopts,
					NULL)) != -1) {
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
			break;
		}
		/* checked against the way of running once all are read */
		add_given(cl, c, NULL);
		ret = parse_common(cl, c, optarg, argc, argv);
		if (ret == 1)
			ret = fam->parse_option(ctx, c, optarg);
		if (ret == -2) {
			pr_err("bad value '%s' for %s (see --help)",
			       printable(optarg),
			       option_name(fam, c, name, sizeof(name)));
			ret = -1;
		}
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
