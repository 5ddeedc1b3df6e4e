/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_CLI_H
#define __RUNNER_CLI_H

#include <getopt.h>
#include <stdio.h>
#include "bench.h"
#include "compare/compare.h"

/*
 * The command line: cli/cmdline.c, with --list. The parsers a
 * family calls (parse_u64(), parse_name_list(), bench_cpus_arg(), ...)
 * are in bench.h; the pure ones are core/util.c's.
 */

#define EXIT_USAGE	2

/*
 * The ways a program runs. Each option applies to some of them and is
 * refused, in one line, by the others: the table is the options' @ways
 * (--list --json has it, as "options"); bench.h's IN_* are their bits.
 */
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

/*
 * What the command line says beyond the run's settings: main's, filled
 * by parse_options(), passed to check_options() and select_cpus(), and
 * by check_options() to the family's parse_args(), which hands it to
 * bench_cpus_arg(), bench_count_arg() and bench_positional_as()
 */
struct cmdline {
	/* the run's settings it fills: main's, which passes them on as @rs */
	struct run_settings *rs;
	/* --compare, --fail-on-regression, --ignore-param, --threshold */
	struct compare_args compare;
	const char *cpus_arg;		/* -c, or a positional argument */
	bool count_given;		/* -n, or a positional argument */
	/* --format: refused where nothing is printed as it asks */
	bool format_given;
	/* --precision, --max-units or --budget, which -r makes meaningless */
	const char *adaptive_option;
	/* the options given, and positional arguments that stand for one */
	struct given *given;
	int nr_given, max_given;
	const struct bench_family *fam;
	/* --help: the usage printed on stdout, nothing else to do */
	bool help;
};

/*
 * The options: the family's into its @ctx (through its parse_option()),
 * the common ones into @rs, which keeps @ctx, and @cl, which keeps @rs
 * for the calls after it; --help prints the usage on stdout and sets
 * @cl->help, whose status is stdout's. 0, or -1 said.
 */
int parse_options(const struct bench_family *fam, void *ctx,
		  struct run_settings *rs, struct cmdline *cl, int argc,
		  char **argv);
/*
 * Options that contradict each other, or that do not apply to the way
 * of running the command line selects (each option's @ways); then the
 * family's positional arguments. 0, or -1 said.
 */
int check_options(const struct bench_family *fam, struct cmdline *cl,
		  int argc, char **argv);
/* cl->rs->cpus from -c (or the family's argument): 0, or an exit status */
int select_cpus(struct cmdline *cl);
/*
 * BENCH_TEST_FAULT into @rs->fault (the test build's only,
 * cli/test_fault.c): 0 or -1
 */
int read_fault(struct run_settings *rs);

/* --list's output; list_kind(), which a family's list_row calls: bench.h */

/* --list's tables as JSON */
int write_list(const struct bench_family *fam, const struct bench_rows *all,
	       FILE *f);
/* --list's tables as text */
void print_list(const struct bench_family *fam, const struct bench_rows *all);

#endif /* __RUNNER_CLI_H */
