/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_COMPARE_H
#define __RUNNER_COMPARE_H

#include <string.h>
#include <sys/types.h>
#include <jansson.h>
#include "report/report.h"
#include "rows/rows.h"	/* MAX_SAMPLES, MAX_UNITS: what a results file may hold */
#include "stats/stats.h"

/*
 * A/B comparison of results files: per row, the units of every file of a
 * side pooled, both sides' means, the difference and a Welch's t-test
 * verdict. The schema written is at the top of compare/print.c.
 */

/* the "schema" of what --compare --json writes */
#define COMPARE_SCHEMA		"bpf-bench-compare/1"
/*
 * Runs of one build differ by more than each run's interval says (make
 * repro): a change within this many ns, or --threshold percent of A's
 * figure, is no change, however significant
 */
#define COMPARE_FLOOR_NS	1.0
#define COMPARE_THRESHOLD_PCT	7.0
/* confidence of compare verdicts: 1 - alpha */
#define COMPARE_ALPHA		0.05

/* what a results file, from anywhere, may hold: more is refused */
#define JSON_MAX_FILE_SIZE	(16 << 20)
/* all the files of one compare together */
#define COMPARE_MAX_TOTAL_SIZE	(128 << 20)
#define COMPARE_MAX_ROWS	100000
/* members of one row's "params" */
#define COMPARE_MAX_PARAMS	64
/* the parse may allocate this many times the bytes read, plus the slack */
#define COMPARE_MEM_FACTOR	32
#define COMPARE_MEM_SLACK	(1 << 20)
/* files of one side */
#define COMPARE_MAX_FILES	64

enum compare_side { SIDE_A, SIDE_B };

/* what the command line asks of a compare */
struct compare_args {
	const char *files[2][COMPARE_MAX_FILES];	/* [SIDE_A], [SIDE_B] */
	int nr_files[2];
	/* params left out of a row's identity (--ignore-param) */
	const char *ignore[COMPARE_MAX_PARAMS];
	int nr_ignore;
	double fail_on_regression;	/* percent; < 0: off */
	/* a change within max(COMPARE_FLOOR_NS, this % of A) is none */
	double threshold_pct;
	const char *json;		/* the verdicts as JSON: a path, "-" */
	bool paste;			/* --format short: a table to paste */
};

/*
 * The files of --compare: @first, then the words of @argv from *@next on
 * that are no option ("A B", or "A1 A2 ... -- B1 B2 ..."), *@next moved
 * past them. -1 with one pr_err() line when they are not of that form.
 */
int compare_parse_files(struct compare_args *c, const char *first, int argc,
			char **argv, int *next);
/* --ignore-param KEY[,KEY...]; -1 with one pr_err() line */
int compare_parse_ignore(struct compare_args *c, const char *list);

/* what a compare returns besides 0 and -errno (see bench_compare()) */
#define COMPARE_REGRESSION	1
#define COMPARE_NOT_WRITTEN	1

struct output_file;
/*
 * Prints the comparison of side A (before) with side B (after) to stdout,
 * with @c->json as JSON into @json too, opened here ("-": stdout, instead
 * of the table), which the caller puts in place or discards. Returns 0;
 * COMPARE_REGRESSION for a row significantly slower by more than
 * @c->fail_on_regression percent; COMPARE_NOT_WRITTEN when the JSON could
 * not be written (said); -errno with one pr_err() line for a bad input.
 */
int bench_compare(const struct compare_args *c, struct output_file *json);
/* the same, printing to @out */
int bench_compare_to(FILE *out, const struct compare_args *c,
		     struct output_file *json);

/* what the compare's three files (and tests/stats_test.c) share */

/* what Welch's test needs of a row's units, and of a side's pool */
struct pool {
	int n;
	double mean;
	double m2;		/* sum of squared deviations from the mean */
};

/* one results[] entry: what the compare keeps of it */
struct row {
	const char *name;	/* into @text, once loaded */
	const char *variant;
	const char *params;	/* canonical "k=v,...", less ignored keys */
	const char *status;
	const char *reason;	/* may be NULL */
	const char *quantity;	/* of its units; NULL: none */
	char *text;		/* holds the strings above */
	char *params_buf;	/* while loading: params when not "" */
	int index;		/* in results[] */
	int file;		/* in its side */
	bool ok;
	struct pool units;
	/* its units' shares of their bases (overhead rows), when it has them */
	bool has_shares;
	struct pool shares;
	int nr_dups;		/* later rows of its file, same identity */
};

struct bench_file {
	const char *path;
	json_t *context;	/* the members kept, and "tool" */
	struct row *rows;	/* in file order */
	int nr;
	dev_t dev;		/* of a regular file; 0 otherwise */
	ino_t ino;
};

/* the rows of one identity on one side: one a file, in file order */
struct group {
	struct row **rows;	/* into its side's @sorted */
	int nr;
	const char *quantity;	/* of the pooled rows; NULL: none pooled */
	bool mixed;		/* pooled rows of two quantities */
	int nr_pooled;
	struct pool pool;	/* a round of a file an observation */
	struct pool runs;	/* a file an observation: its rounds' mean */
	/* the shares of the base, pooled alike: every pooled row had them */
	int nr_shares;
	struct pool share_pool, share_runs;
};

struct side {
	const char *label;	/* "A", "B" */
	struct bench_file files[COMPARE_MAX_FILES];
	int nr_files;
	struct row **sorted;	/* every file's rows by identity, dups out */
	int nr_sorted;
	struct group *groups;	/* by identity */
	int nr_groups;
};

/* why an identity got no verdict */
enum why {
	WHY_NONE,
	WHY_ONLY_A,
	WHY_ONLY_B,
	WHY_NOT_OK,		/* no file of a side has it ok */
	WHY_NO_UNITS,		/* ok, before units were, or none in it */
	WHY_UNKNOWN_QUANTITY,	/* units of no cost known here */
	WHY_QUANTITY_MIXED,	/* a side's files disagree on the quantity */
	WHY_QUANTITY_DIFFERS,	/* the sides do */
};

/*
 * One figure's change from A to B (a row's ns, or an overhead row's share
 * of its base, in %): both pools as Welch's test reads them, B - A with
 * its 95% interval, and the verdict at COMPARE_ALPHA
 */
struct change {
	struct sample_stats st_a, st_b;	/* n, mean, stddev of the pools */
	double ci95_a, ci95_b;
	double delta, delta_ci95;	/* B - A */
	double delta_pct;		/* of A's; NAN when it is <= 0 */
	struct welch w;
	enum verdict v;
	bool within_threshold;		/* significant, but within: none */
};

/* an identity, on both sides or one */
struct entry {
	const struct group *a, *b;
	enum why why;
	bool by_run;			/* a file an observation, or a round */
	struct change ns;
	/* both sides' pooled rows had shares: see judged_on_share() */
	bool has_share;
	struct change share;
	bool on_share;			/* the verdict is the share's */
	double threshold_pct;		/* this row's: see threshold_for() */
	bool regression;
};

/* the change a row's verdict rests on */
static inline const struct change *judged(const struct entry *e)
{
	return e->on_share ? &e->share : &e->ns;
}

/* a context member that differs between two files */
struct ctx_diff {
	const char *key;
	const char *within;	/* a side's label; NULL: between the sides */
	bool expected;		/* a kernel's, between the sides */
	const struct bench_file *f[2];
	const char *side[2];
};

struct compare {
	const struct compare_args *args;
	struct side side[2];
	size_t read;		/* bytes of every file read so far */
	struct ctx_diff *diffs;	/* of the files' contexts */
	int nr_diffs;
	struct entry *entries;	/* compared ones first, in A's order */
	int nr_entries;
	int nr_compared;
	int nr_verdicts[3];	/* by enum verdict, of the decidable */
	int nr_cannot_tell;
	int nr_regressions;
	/* the base rows' median change from A to B, in %; over @nr_bases */
	int nr_bases;
	double base_shift_pct;
};

/* bytes of text shown of a name, and of a reason or params */
#define NAME_SHOWN	64
#define LONG_SHOWN	200

/* "name" and "variant [params]", shown: how every line names a row */
struct label {
	char name[NAME_SHOWN];
	char variant[NAME_SHOWN + LONG_SHOWN + 4];
};

/* bytes of a side's state, and of a reason made of both */
#define STATE_LEN	(2 * NAME_SHOWN + LONG_SHOWN + 64)
#define REASON_LEN_MAX	(2 * STATE_LEN + 16)

/* compare/read.c */
int load_sides(struct compare *c);
void free_side(struct side *s);
int find_context_diffs(struct compare *c);
const char *get_string(const json_t *obj, const char *key);
const char *shown(char *buf, size_t size, const char *s);
/* @l filled for @r, returned */
const struct label *row_shown(const struct row *r, struct label *l);
bool poolable(const struct row *r);
/* the count, mean and spread of @values, a round's mean one of them */
void pool_values(const json_t *values, const json_t *rounds,
		 struct pool *p);

/* compare/compare.c: the sides indexed, then matched and judged */
int index_side(struct side *s);
int match_sides(struct compare *c);

/* between single runs the threshold grows by this many base rows' shifts */
#define SHIFT_WEIGHT	2

/* compare/print.c */
void print_compare(FILE *out, const struct compare *c);
int open_json(FILE *out, const char *path, struct output_file *f);
int write_json(struct output_file *f, const struct compare *c);

#endif /* __RUNNER_COMPARE_H */
