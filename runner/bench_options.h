/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line's parts between themselves: the runner's options
 * (bench_options.c: their table, --help, getopt's tables) and the ways
 * of running each applies to (bench_ways.c), for the parser
 * (bench_cmdline.c).
 */
#ifndef __BENCH_OPTIONS_H
#define __BENCH_OPTIONS_H

#include <getopt.h>
#include <stdio.h>
#include "bench.h"

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

/* the options every family takes, after the family's own */
extern const struct bench_option common_options[];

/* the usage, the family's options and the common ones, to @f */
void usage(const struct bench_family *fam, FILE *f);
/* getopt_long()'s tables of both: 0, or -ENOMEM */
int getopt_tables(const struct bench_family *fam,
		  struct option **longopts, char *shortopts, size_t len);
/* the option of @key, the family's first; NULL if none has it */
const struct bench_option *find_option(const struct bench_family *fam,
				       int key);
/* whether @o is one of common_options[] */
bool is_common_option(const struct bench_option *o);

/* an option given, or a positional argument that stands for one */
struct given {
	const struct bench_option *o;
	bool common;		/* one of common_options[] */
	const char *as;		/* a positional argument's name; NULL */
};

/*
 * bench_ways.c: the first of @given (@nr of them) that does not apply to
 * @way is refused, one line naming it: 0, or -1
 */
int check_ways(const struct bench_family *fam, enum bench_way way,
	       const struct given *given, int nr);

#endif /* __BENCH_OPTIONS_H */
