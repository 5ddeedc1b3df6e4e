/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_CLI_H
#define __RUNNER_CLI_H

#include <getopt.h>
#include <stdio.h>
#include "bench.h"
#include "compare/compare.h"

#define EXIT_USAGE	2

/* the ways a program runs; an option given where it does not apply: refused */
enum bench_way {
	WAY_RUN,		/* the rows measured: the default */
	WAY_OWN,		/* the family's own way (@own_way: --memory) */
	WAY_LIST,		/* --list: the rows a run would measure */
	WAY_LIST_OWN,		/* --list with the family's own way */
	WAY_COMPARE,		/* --compare */
	NR_WAYS,
};

#define IN_COMPARE	(1u << WAY_COMPARE)
#define IN_ANY		((1u << NR_WAYS) - 1)
_Static_assert(IN_RUN == 1u << WAY_RUN && IN_OWN == 1u << WAY_OWN &&
	       IN_LIST == 1u << WAY_LIST && IN_LIST_OWN == 1u << WAY_LIST_OWN,
	       "bench.h's IN_* are the bits of enum bench_way");

struct given;

/* what the command line says beyond the run's settings (@rs, filled too) */
struct cmdline {
	struct run_settings *rs;
	/* --compare, --fail-on-regression, --ignore-param, --threshold */
	struct compare_args compare;
	const char *cpus_arg;		/* -c, or a positional argument */
	bool count_given;		/* -n, or a positional argument */
	bool format_given;		/* --format */
	/* --precision, --max-units or --budget, which -r makes meaningless */
	const char *adaptive_option;
	/* the options given, and the positional arguments that stand for one */
	struct given *given;
	int nr_given, max_given;
	const struct bench_family *fam;
	bool help;			/* --help: nothing else to do */
};

/*
 * The options, the family's through its parse_option() into @ctx, the
 * runner's into @rs and @cl; --help prints the usage and sets @cl->help.
 * 0, or -1 said.
 */
int parse_options(const struct bench_family *fam, void *ctx,
		  struct run_settings *rs, struct cmdline *cl, int argc,
		  char **argv);
/*
 * Options that contradict each other or do not apply to the way of
 * running selected; then the family's positional arguments. 0, or -1 said.
 */
int check_options(const struct bench_family *fam, struct cmdline *cl,
		  int argc, char **argv);
/* cl->rs->cpus from -c (or the family's argument): 0, or an exit status */
int select_cpus(struct cmdline *cl);
/* BENCH_TEST_FAULT into @rs->fault (the test build's only): 0 or -1 */
int read_fault(struct run_settings *rs);

/* --list's tables as JSON, or as text */
int write_list(const struct bench_family *fam, const struct bench_rows *all,
	       FILE *f);
void print_list(const struct bench_family *fam, const struct bench_rows *all);

#endif /* __RUNNER_CLI_H */
