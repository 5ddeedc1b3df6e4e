// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's options: the table of those every family takes, --help
 * (the family's options, then these, then the family's tables) and
 * getopt's tables of both. Apart from the parsing (bench_cmdline.c) and
 * the checks of where each applies (bench_ways.c): what an option is
 * called and says of itself is here, nothing of what it does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

const struct bench_option common_options[] = {
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

void usage(const struct bench_family *fam, FILE *f)
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

/* getopt's tables from the family's options and the common ones */
int getopt_tables(const struct bench_family *fam,
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

const struct bench_option *find_option(const struct bench_family *fam,
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


bool is_common_option(const struct bench_option *o)
{
	return o >= common_options &&
	       o < common_options + ARRAY_SIZE(common_options);
}
