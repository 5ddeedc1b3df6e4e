// SPDX-License-Identifier: GPL-2.0
/*
 * Compares results files: the runs of side A (before) with those of side
 * B (after): here the command line's files, and the compare run from
 * them. Its parts, one job a file, share compare.h:
 *
 *   compare_read.c	reading the results files, bounded (the schema
 *			read)
 *   compare_rows.c	a file's rows: their names, status and params
 *   compare_units.c	the rows' numbers checked before they are pooled
 *   compare_context.c	the files' contexts: kept, where they differ
 *   compare_text.c	a file's text made safe to print, what is said of
 *			rows not compared
 *   compare_pool.c	rows matched across files, units pooled by round,
 *			Welch's test and the verdict (the method)
 *   compare_print.c	the table and the summary lines
 *   compare_json.c	--json (the schema written)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "core/core.h"
#include "compare/compare.h"

/* ---- the command line ---- */

#define FILES_USAGE	"--compare A.json B.json, or --compare A1.json A2.json ... -- B1.json ..."

/* a word that ends --compare's files: an option, but not the "--" */
static bool is_option(const char *s)
{
	return s[0] == '-' && strcmp(s, "--");
}

/* @words, split at their "--" when there is one */
static int split_files(struct compare_args *c, const char **words, int nr)
{
	int i, sep = -1, side = SIDE_A;

	for (i = 0; i < nr; i++) {
		if (strcmp(words[i], "--"))
			continue;
		if (sep >= 0) {
			pr_err("--compare takes one -- between A's files and B's: " FILES_USAGE);
			return -1;
		}
		sep = i;
	}
	if (sep < 0 && nr != 2) {
		pr_err(nr < 2 ? "--compare needs two files: " FILES_USAGE :
		       "--compare with more than two files needs -- between A's and B's: " FILES_USAGE);
		return -1;
	}
	if (sep == 0 || sep == nr - 1) {
		pr_err("--compare needs a file on each side of --: " FILES_USAGE);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		if (i == sep || (sep < 0 && i == 1)) {
			side = SIDE_B;
			if (i == sep)
				continue;
		}
		if (c->nr_files[side] == COMPARE_MAX_FILES) {
			pr_err("--compare takes at most %d files a side",
			       COMPARE_MAX_FILES);
			return -1;
		}
		c->files[side][c->nr_files[side]++] = words[i];
	}
	return 0;
}

int compare_parse_files(struct compare_args *c, const char *first, int argc,
			char **argv, int *next)
{
	const char *words[2 * COMPARE_MAX_FILES + 2];
	int nr = 0;

	if (c->nr_files[SIDE_A]) {
		pr_err("give --compare once: " FILES_USAGE);
		return -1;
	}
	if (is_option(first)) {
		pr_err("--compare needs files, not '%s': " FILES_USAGE,
		       printable(first));
		return -1;
	}
	words[nr++] = first;
	while (*next < argc && !is_option(argv[*next])) {
		if (nr == ARRAY_SIZE(words)) {
			pr_err("--compare takes at most %d files a side",
			       COMPARE_MAX_FILES);
			return -1;
		}
		words[nr++] = argv[(*next)++];
	}
	return split_files(c, words, nr);
}

int compare_parse_ignore(struct compare_args *c, const char *list)
{
	const char *s = list, *comma;
	size_t len;

	do {
		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		if (!len) {
			pr_err("bad --ignore-param '%s': KEY[,KEY...], no key empty",
			       printable(list));
			return -1;
		}
		if (c->nr_ignore == COMPARE_MAX_PARAMS) {
			pr_err("--ignore-param: at most %d keys",
			       COMPARE_MAX_PARAMS);
			return -1;
		}
		/* kept until the program ends, as the command line is */
		c->ignore[c->nr_ignore] = strndup(s, len);
		if (!c->ignore[c->nr_ignore]) {
			pr_err("out of memory");
			return -1;
		}
		c->nr_ignore++;
		s = comma + 1;
	} while (comma);
	return 0;
}

/* ---- the compare ---- */

static int check_args(const struct compare_args *args)
{
	int i;

	for (i = SIDE_A; i <= SIDE_B; i++)
		if (args->nr_files[i] < 1 ||
		    args->nr_files[i] > COMPARE_MAX_FILES) {
			pr_err("--compare needs 1 to %d files a side",
			       COMPARE_MAX_FILES);
			return -EINVAL;
		}
	if (args->nr_ignore < 0 || args->nr_ignore > COMPARE_MAX_PARAMS) {
		pr_err("--ignore-param: at most %d keys", COMPARE_MAX_PARAMS);
		return -EINVAL;
	}
	return 0;
}

static int load(struct compare *c)
{
	struct ignored ig;
	int ret;

	sort_ignored(c->args, &ig);
	ret = load_side(c, SIDE_A, &ig);
	if (!ret)
		ret = load_side(c, SIDE_B, &ig);
	if (!ret)
		ret = index_side(&c->side[SIDE_A]);
	if (!ret)
		ret = index_side(&c->side[SIDE_B]);
	return ret;
}

int bench_compare_to(FILE *out, const struct compare_args *args,
		     struct output_file *json)
{
	struct compare *c;
	int ret;

	memset(json, 0, sizeof(*json));
	ret = check_args(args);
	if (ret)
		return ret;
	/* two sides of COMPARE_MAX_FILES files: off the stack */
	c = calloc(1, sizeof(*c));
	if (!c) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	c->args = args;
	ret = load(c);
	if (!ret)
		ret = match_sides(c);
	if (!ret)
		ret = find_context_diffs(c);
	if (!ret && args->json && open_json(out, args->json, json))
		ret = COMPARE_NOT_WRITTEN;
	if (ret)
		goto cleanup;
	if (json->f != out)
		print_compare(out, c);
	/* verdicts that cannot be written are no bad input: 1, not 2 */
	if (json->f && write_json(json, c))
		ret = COMPARE_NOT_WRITTEN;
	else if (c->nr_regressions)
		ret = COMPARE_REGRESSION;
cleanup:
	free_side(&c->side[SIDE_A]);
	free_side(&c->side[SIDE_B]);
	free(c->entries);
	free(c->diffs);
	free(c);
	return ret;
}

int bench_compare(const struct compare_args *args, struct output_file *json)
{
	return bench_compare_to(stdout, args, json);
}
