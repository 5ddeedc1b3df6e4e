// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the results files of a compare: each file opened, held to the
 * limits, parsed and its schema checked, and the one line that says why a
 * file is refused. Its rows are read by compare_rows.c, their numbers
 * checked by compare_units.c, its context kept by compare_context.c:
 * this file holds what bounds a file as a whole. The schema read, "bpf-bench/1", as written
 * by test_overhead and map_perf_test with --json (the members the compare
 * reads):
 *
 * {
 *   "schema": "bpf-bench/1",
 *   "tool": "test_overhead",		(or "map_perf_test")
 *   "context": {
 *     "kernel_release": "...",		uname -r
 *     "kernel_build": "...",		uname -v
 *     "cpu_model": "...", "online_cpus": 2, "cpus_used": "0-1",
 *     "attach_method": null | "kprobe",
 *     "count": 1000000 | null,		events per worker
 *     "duration_s": null | 5,		instead of a count
 *     "body": "count",			test_overhead's programs
 *     "timestamp": "2026-11-30T05:10:00Z",
 *     "fault": "miss-odd"		only from the test build's
 *					BENCH_TEST_FAULT: refused
 *   },
 *   "results": [ {
 *     "name": "kprobe", "variant": "task_rename",
 *     "params": { "progs": 4 },	optional: numbers and strings
 *     "status": "ok" | "skipped" | "failed" | "disturbed",
 *     "reason": null | "...",
 *     "samples": [ 3.6e6, ... ],	events/s, at most MAX_SAMPLES
 *     "units": {
 *       "quantity": "overhead_ns" | "ns_per_event",
 *       "values": [ 22.1, ... ],	one per unit, at most MAX_UNITS
 *       ...
 *     }, ...
 *   }, ... ]
 * }
 *
 * What the compare requires: "schema", the "context" object without a
 * "fault" (a run with a test fault may show unverified rows as ok), the
 * "results" array, each row's "name", "variant" and "status", and of an
 * "ok" row's "units", when there, a "quantity" string and a "values" array
 * of numbers. Everything a verdict rests on comes from the values, never
 * from the summary figures beside them.
 *
 * The files may come from anywhere, so reading them is bounded: at most
 * JSON_MAX_FILE_SIZE bytes each and COMPARE_MAX_TOTAL_SIZE in all,
 * COMPARE_MAX_FILES a side, COMPARE_MAX_ROWS rows, MAX_SAMPLES samples and
 * MAX_UNITS units a row, and jansson may allocate at most
 * COMPARE_MEM_FACTOR times what it has read of a file. A file's tree is
 * freed once its rows are read: what is kept of a row is its strings and
 * its units' count, mean and spread. A key twice in one object is
 * refused: a file that says two things at once is not one to draw
 * verdicts from. Every string from a file is escaped before it is printed
 * (see shown()).
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bench.h"
#include "core/core.h"
#include "compare/compare.h"

/* ---- loading ---- */

/*
 * What the parse of one file has read and allocated. jansson's allocator
 * is global and takes no argument, so the budget is too; the compare
 * loads one file at a time, on one thread.
 */
struct load_budget {
	FILE *f;
	size_t read;
	size_t before;		/* read of the compare's earlier files */
	size_t allocated;
	bool too_big;		/* more than JSON_MAX_FILE_SIZE bytes */
	bool too_big_total;	/* more than COMPARE_MAX_TOTAL_SIZE in all */
	bool over_budget;	/* more memory than its size allows */
	int read_err;
	json_malloc_t malloc_fn;
};

static struct load_budget *budget;

/*
 * A tree takes more memory than its text: 11 times for a plain results
 * file, 75 for "[{},{},...]". Allocation is held to a multiple of the
 * bytes read so far, so no file can ask for more than that.
 */
static void *budget_malloc(size_t size)
{
	size_t limit = COMPARE_MEM_FACTOR * budget->read + COMPARE_MEM_SLACK;

	if (size > limit || budget->allocated > limit - size) {
		budget->over_budget = true;
		return NULL;
	}
	budget->allocated += size;
	return budget->malloc_fn(size);
}

/* jansson's reader: fails past the limits, however the file grew */
static size_t budget_read(void *buf, size_t len, void *data)
{
	struct load_budget *b = data;
	size_t n;

	n = fread(buf, 1, len, b->f);
	if (!n && ferror(b->f)) {
		b->read_err = errno ? -errno : -EIO;
		return (size_t)-1;
	}
	b->read += n;
	if (b->read > JSON_MAX_FILE_SIZE) {
		b->too_big = true;
		return (size_t)-1;
	}
	if (b->before + b->read > COMPARE_MAX_TOTAL_SIZE) {
		b->too_big_total = true;
		return (size_t)-1;
	}
	return n;
}

static int report_parse_error(const struct bench_file *f,
			      const struct load_budget *b,
			      const json_error_t *jerr)
{
	char text[JSON_ERROR_TEXT_LENGTH * 4];

	if (b->too_big) {
		pr_err("%s: larger than %d MiB: refused", f->path,
		       JSON_MAX_FILE_SIZE >> 20);
		return -EFBIG;
	}
	if (b->too_big_total) {
		pr_err("%s: the files of the compare are larger than %d MiB together: refused",
		       f->path, COMPARE_MAX_TOTAL_SIZE >> 20);
		return -EFBIG;
	}
	if (b->over_budget) {
		pr_err("%s: needs more than %d times its size in memory to read: refused",
		       f->path, COMPARE_MEM_FACTOR);
		return -EFBIG;
	}
	if (b->read_err) {
		pr_err("%s: %s", f->path, strerror(-b->read_err));
		return b->read_err;
	}
	/* jansson quotes the file near the error: escape it too */
	pr_err("%s: line %d, column %d: %s", f->path, jerr->line, jerr->column,
	       shown(text, sizeof(text), jerr->text));
	return -EINVAL;
}

/* what stat says of the open file, before jansson sees a byte */
static int check_size(struct bench_file *f, FILE *file, size_t before)
{
	struct stat st;
	int err;

	if (fstat(fileno(file), &st)) {
		err = -errno;
		pr_err("%s: %s", f->path, strerror(-err));
		return err;
	}
	if (S_ISDIR(st.st_mode)) {
		pr_err("%s: %s", f->path, strerror(EISDIR));
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	if (st.st_size > JSON_MAX_FILE_SIZE) {
		pr_err("%s: %lld bytes, larger than %d MiB: refused", f->path,
		       (long long)st.st_size, JSON_MAX_FILE_SIZE >> 20);
		return -EFBIG;
	}
	if (before + st.st_size > COMPARE_MAX_TOTAL_SIZE) {
		pr_err("%s: the files of the compare are larger than %d MiB together: refused",
		       f->path, COMPARE_MAX_TOTAL_SIZE >> 20);
		return -EFBIG;
	}
	return 0;
}

/*
 * The size is checked on the open file, before jansson sees a byte; the
 * reader enforces it again for what stat cannot tell (pipes, growth).
 * Adds what was read to *@read.
 */
static int parse_file(struct bench_file *f, size_t *read, json_t **root)
{
	struct load_budget b = { .before = *read };
	json_free_t free_fn;
	json_error_t jerr;
	int ret;

	b.f = fopen(f->path, "r");
	if (!b.f) {
		ret = -errno;
		pr_err("%s: %s", f->path, strerror(-ret));
		return ret;
	}
	ret = check_size(f, b.f, *read);
	if (ret)
		goto out;

	json_get_alloc_funcs(&b.malloc_fn, &free_fn);
	budget = &b;
	json_set_alloc_funcs(budget_malloc, free_fn);
	*root = json_load_callback(budget_read, &b,
				   JSON_REJECT_DUPLICATES |
				   JSON_DECODE_INT_AS_REAL, &jerr);
	json_set_alloc_funcs(b.malloc_fn, free_fn);
	budget = NULL;
	*read += b.read;
	if (!*root)
		ret = report_parse_error(f, &b, &jerr);
out:
	fclose(b.f);
	return ret;
}

static int load_file(struct bench_file *f, int file, size_t *read,
		     const struct ignored *ig)
{
	char shown_schema[NAME_SHOWN];
	json_t *root = NULL, *context, *results;
	const char *schema;
	int ret;

	ret = parse_file(f, read, &root);
	if (ret)
		goto out;
	schema = get_string(root, "schema");
	if (!schema || strcmp(schema, BENCH_SCHEMA)) {
		pr_err("%s: not a results file: \"schema\" is %s%s%s, expected \"%s\"",
		       f->path, schema ? "\"" : "",
		       schema ? shown(shown_schema, sizeof(shown_schema), schema)
			      : "missing",
		       schema ? "\"" : "", BENCH_SCHEMA);
		ret = -EINVAL;
		goto out;
	}
	context = json_object_get(root, "context");
	results = json_object_get(root, "results");
	if (!json_is_object(context) || !json_is_array(results)) {
		pr_err("%s: needs a \"context\" object and a \"results\" array",
		       f->path);
		ret = -EINVAL;
		goto out;
	}
	ret = refuse_fault(f, context);
	if (!ret)
		ret = load_rows(f, results, file, ig);
	if (!ret)
		ret = keep_context(f, root, context);
out:
	json_decref(root);
	return ret;
}

void free_file(struct bench_file *f)
{
	free_rows(f);
	json_decref(f->context);
	f->context = NULL;
}

static bool same_pool(const struct pool *a, const struct pool *b)
{
	return a->n == b->n && a->mean == b->mean && a->m2 == b->m2;
}

/*
 * Whether two files hold one run, whatever their paths (a copy, a pipe
 * of it, one written anew with another timestamp): the same rows in the
 * same order with the same units and shares, to the last bit of their
 * count, mean and spread, and some units among them. A unit is a timing:
 * two runs do not agree on every one, while a context (a timestamp to
 * the second, a host, a kernel) is what two runs of one machine share.
 */
static bool same_run(const struct bench_file *a, const struct bench_file *b)
{
	const struct row *x, *y;
	bool units = false;
	int i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++) {
		x = &a->rows[i];
		y = &b->rows[i];
		if (strcmp(x->name, y->name) || strcmp(x->variant, y->variant) ||
		    strcmp(x->params, y->params) ||
		    strcmp(x->status, y->status) ||
		    !x->quantity != !y->quantity ||
		    (x->quantity && strcmp(x->quantity, y->quantity)) ||
		    !same_pool(&x->units, &y->units) ||
		    x->has_shares != y->has_shares ||
		    !same_pool(&x->shares, &y->shares))
			return false;
		units |= x->units.n > 0;
	}
	return units;
}

/*
 * One run given twice on a side would count its units twice: the same
 * file, or another holding the same run
 */
static int refuse_twice(const struct side *s, int file)
{
	const struct bench_file *f = &s->files[file];
	int i;

	for (i = 0; i < file; i++) {
		if ((f->dev || f->ino) && s->files[i].dev == f->dev &&
		    s->files[i].ino == f->ino) {
			pr_err("%s: given twice for %s (as %s): its units would count twice",
			       f->path, s->label, s->files[i].path);
			return -EINVAL;
		}
		if (same_run(&s->files[i], f)) {
			pr_err("%s: the run of %s given twice for %s: its units would count twice",
			       f->path, s->files[i].path, s->label);
			return -EINVAL;
		}
	}
	return 0;
}

int load_side(struct compare *c, enum compare_side which,
	      const struct ignored *ig)
{
	struct side *s = &c->side[which];
	int i, ret;

	s->label = which == SIDE_A ? "A" : "B";
	s->nr_files = c->args->nr_files[which];
	for (i = 0; i < s->nr_files; i++) {
		s->files[i].path = c->args->files[which][i];
		ret = load_file(&s->files[i], i, &c->read, ig);
		if (!ret)
			ret = refuse_twice(s, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* its files, and the index compare_pool.c's index_side() made of them */
void free_side(struct side *s)
{
	int i;

	for (i = 0; i < s->nr_files; i++)
		free_file(&s->files[i]);
	free(s->sorted);
	free(s->groups);
}
