// SPDX-License-Identifier: GPL-2.0
/*
 * Compares two results files. The schema, "bpf-bench/1", as written by
 * test_overhead and map_perf_test with --json:
 *
 * {
 *   "schema": "bpf-bench/1",
 *   "tool": "test_overhead",		(or "map_perf_test")
 *   "version": "...",
 *   "context": {
 *     "kernel_release": "...",		uname -r
 *     "kernel_build": "...",		uname -v
 *     "cpu_model": "...",
 *     "online_cpus": 2,
 *     "cpus_used": "0-1",
 *     "libbpf_version": "1.1",
 *     "attach_method": null | "kprobe",
 *     "count": 1000000 | null,		events per worker
 *     "duration_s": null | 5,		instead of a count
 *     "repeat": 5,
 *     "warmup": 1,
 *     "timestamp": "2026-11-30T05:10:00Z",
 *     "fault": "miss-odd"		only from the test build's
 *					BENCH_TEST_FAULT: refused
 *   },
 *   "results": [ {
 *     "name": "kprobe", "variant": "task_rename",
 *     "params": { "progs": 4 },	optional: numbers and strings
 *     "status": "ok" | "skipped" | "failed" | "disturbed",
 *     "reason": null | "...",
 *     "unit": "events/s",
 *     "samples": [ 3.6e6, ... ],	one per counted repeat
 *     "outliers": [ false, ... ],	flagged, never dropped
 *     "mean": ..., "stddev": ..., "min": ..., "max": ..., "cv": ...,
 *     "ns_per_event": { "mean": ..., "stddev": ... },
 *     "overhead_ns": { "value": ..., "uncertainty": ... } | null,
 *     "overhead_pct": ... | null,
 *     "hits": ..., "events": ...,
 *     "prog_ns_per_run": ... | null
 *   }, ... ]
 * }
 *
 * A row is identified by (name, variant, params): the same test with
 * another map size or program count is another row. Params compare as
 * sorted "key=value" pairs, so their order in the file does not matter.
 * When an identity appears twice in a file the first row counts and the
 * duplicate is noted. "disturbed" is a run the tool itself distrusts:
 * like "skipped" and "failed" it is listed, never given a verdict.
 *
 * What the compare requires: "schema", the "context" object without a
 * "fault" (a run with a test fault may show unverified rows as ok), the
 * "results" array, each row's "name", "variant" and "status", and for an
 * "ok" row a "unit" that is a rate (".../s") and a non-empty "samples"
 * array of numbers. Everything a verdict rests on comes from the samples,
 * never from the summary figures beside them.
 *
 * The files may come from anywhere, so reading them is bounded: at most
 * JSON_MAX_FILE_SIZE bytes, COMPARE_MAX_ROWS rows, MAX_SAMPLES samples a
 * row, and jansson may allocate at most COMPARE_MEM_FACTOR times what it
 * has read. A key twice in one object is refused: a file that says two
 * things at once is not one to draw verdicts from. Every string from a
 * file is escaped before it is printed (see shown()).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bench.h"
#include "bench_compare.h"
#include "bench_stats.h"
#include "bench_util.h"

struct row {
	const char *name;	/* strings point into the file's tree */
	const char *variant;
	const char *params;	/* canonical "k=v,..."; "" when none */
	char *params_buf;	/* what params points to when not "" */
	const char *status;
	const char *reason;	/* may be NULL */
	const char *unit;	/* may be NULL when not ok */
	int index;		/* in results[] */
	bool ok;
	struct sample_stats st;
	const struct row *match;	/* the same identity in the other file */
	const struct row *first;	/* the row this one duplicates */
	int nr_dups;		/* later rows with this one's identity */
};

struct bench_file {
	const char *path;
	json_t *root;
	json_t *context;
	struct row *rows;	/* in file order, for printing */
	struct row **sorted;	/* by identity, duplicates left out */
	int nr;
	int nr_sorted;
};

/* context fields that make two runs measure different things */
static const char *const context_mismatch[] = {
	"cpu_model", "online_cpus", "cpus_used", "attach_method",
	"count", "duration_s",
};
/* context fields expected to differ when the point is comparing kernels */
static const char *const context_kernel[] = {
	"kernel_release", "kernel_build",
};

/* ---- text from a file, made safe to print ---- */

/* bytes of text shown of a name, and of a reason or params */
#define NAME_SHOWN	64
#define LONG_SHOWN	200

/* the code point of the UTF-8 sequence at @s and its length; 0 if bad */
static int utf8_decode(const unsigned char *s, unsigned int *cp)
{
	unsigned int min;
	int len, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, *cp = s[0] & 0x1f, min = 0x80;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, *cp = s[0] & 0x0f, min = 0x800;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, *cp = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	/* a NUL is no continuation byte, so this stops at the end too */
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/*
 * What a terminal acts on instead of showing: C0 and C1 controls (C1's
 * U+009B is a CSI on some terminals), DEL, and the line separators and
 * bidirectional overrides that let text display as something else.
 */
static bool unsafe_cp(unsigned int cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	       (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* the next piece of @s as shown, into @piece; returns its length */
static int shown_piece(const unsigned char *s, char *piece, int *used)
{
	unsigned int cp;
	int len, i;

	len = utf8_decode(s, &cp);
	if (len && !unsafe_cp(cp)) {
		memcpy(piece, s, len);
		*used = len;
		return len;
	}
	/* every byte of it, so nothing is hidden and nothing acted on */
	len = len ? len : 1;
	for (i = 0; i < len; i++)
		sprintf(piece + 4 * i, "\\x%02x", s[i]);
	*used = len;
	return 4 * len;
}

/*
 * @s escaped into @buf for printing: a crafted name cannot end a line,
 * start a fake one or send a terminal escape. Bytes that are unsafe or
 * not UTF-8 become \xNN; text longer than @size ends in "...".
 */
static const char *shown(char *buf, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, cut = 0;
	char piece[16];
	int n, used;

	while (*p) {
		n = shown_piece(p, piece, &used);
		if (o + n > size - 1) {
			memcpy(buf + cut, "...", 4);
			return buf;
		}
		memcpy(buf + o, piece, n);
		o += n;
		p += used;
		if (o + 4 <= size)
			cut = o;
	}
	buf[o] = '\0';
	return buf;
}

/* "name" and "variant [params]", shown: how every line names a row */
struct label {
	char name[NAME_SHOWN];
	char variant[NAME_SHOWN + LONG_SHOWN + 4];
};

static const struct label *row_label(const struct row *r, struct label *l)
{
	char params[LONG_SHOWN];
	size_t n;

	shown(l->name, sizeof(l->name), r->name);
	shown(l->variant, NAME_SHOWN, r->variant);
	if (r->params && r->params[0]) {
		n = strlen(l->variant);
		snprintf(l->variant + n, sizeof(l->variant) - n, " [%s]",
			 shown(params, sizeof(params), r->params));
	}
	return l;
}

/* ---- loading ---- */

/*
 * What the parse of one file has read and allocated. jansson's allocator
 * is global and takes no argument, so the budget is too; the compare
 * loads one file at a time, on one thread.
 */
struct load_budget {
	FILE *f;
	size_t read;
	size_t allocated;
	bool too_big;		/* more than JSON_MAX_FILE_SIZE bytes */
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

/* jansson's reader: fails past JSON_MAX_FILE_SIZE, however it grew */
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

/*
 * The size is checked on the open file, before jansson sees a byte; the
 * reader enforces it again for what stat cannot tell (pipes, growth).
 */
static int parse_file(struct bench_file *f)
{
	struct load_budget b = { 0 };
	json_free_t free_fn;
	json_error_t jerr;
	struct stat st;
	int ret = 0;

	b.f = fopen(f->path, "r");
	if (!b.f || fstat(fileno(b.f), &st)) {
		ret = -errno;
		pr_err("%s: %s", f->path, strerror(-ret));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		pr_err("%s: %s", f->path, strerror(EISDIR));
		goto out;
	}
	if (S_ISREG(st.st_mode) && st.st_size > JSON_MAX_FILE_SIZE) {
		ret = -EFBIG;
		pr_err("%s: %lld bytes, larger than %d MiB: refused", f->path,
		       (long long)st.st_size, JSON_MAX_FILE_SIZE >> 20);
		goto out;
	}

	json_get_alloc_funcs(&b.malloc_fn, &free_fn);
	budget = &b;
	json_set_alloc_funcs(budget_malloc, free_fn);
	f->root = json_load_callback(budget_read, &b,
				     JSON_REJECT_DUPLICATES |
				     JSON_DECODE_INT_AS_REAL, &jerr);
	json_set_alloc_funcs(b.malloc_fn, free_fn);
	budget = NULL;
	if (!f->root)
		ret = report_parse_error(f, &b, &jerr);
out:
	if (b.f)
		fclose(b.f);
	return ret;
}

static bool is_rate(const char *unit)
{
	size_t len = unit ? strlen(unit) : 0;

	return len > 2 && !strcmp(unit + len - 2, "/s");
}

static const char *get_string(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* one results[] entry's complaint: the row, and what is wrong with it */
static int row_error(const struct bench_file *f, const struct row *r,
		     const char *why)
{
	struct label l;

	if (r->name && r->variant)
		pr_err("%s: results[%d] (%s %s): %s", f->path, r->index,
		       row_label(r, &l)->name, l.variant, why);
	else
		pr_err("%s: results[%d]: %s", f->path, r->index, why);
	return -EINVAL;
}

static int row_samples(const struct bench_file *f, struct row *r,
		       const json_t *samples)
{
	double x[MAX_SAMPLES];
	char why[64];
	size_t i, n;

	n = json_array_size(samples);
	if (n > MAX_SAMPLES) {
		snprintf(why, sizeof(why), "%zu samples, at most %d", n,
			 MAX_SAMPLES);
		return row_error(f, r, why);
	}
	if (!r->ok)
		return 0;
	if (!n)
		return row_error(f, r, "an ok row needs a non-empty \"samples\" array of numbers");
	for (i = 0; i < n; i++) {
		if (!json_is_number(json_array_get(samples, i)))
			return row_error(f, r, "an ok row needs a non-empty \"samples\" array of numbers");
		x[i] = json_number_value(json_array_get(samples, i));
	}
	stats_compute(x, n, &r->st);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * ',', '=' and '\' inside a key or a string value get a backslash, so
 * that { "a": "1,b=2" } and { "a": 1, "b": 2 } stay different rows.
 */
static char *put_param_text(char *o, const char *s)
{
	for (; *s; s++) {
		if (*s == ',' || *s == '=' || *s == '\\')
			*o++ = '\\';
		*o++ = *s;
	}
	return o;
}

/*
 * A number as the identity has it: %.17g reads back exactly. Integers,
 * what params nearly always are, print the same through %lld at a
 * fraction of the cost, and -0 becomes the 0 anyone choosing it meant.
 */
static char *put_param_number(char *o, double v)
{
	if (fabs(v) < 1e17 && v == (double)(long long)v)
		return o + sprintf(o, "%lld", (long long)v);
	return o + sprintf(o, "%.17g", v);
}

/* room for every member escaped, a number's %.17g, '=' and ',' */
static size_t params_room(json_t *params)
{
	const char *key;
	json_t *v;
	size_t room = 1;

	json_object_foreach(params, key, v) {
		room += 2 * strlen(key) + 2;
		room += json_is_string(v) ? 2 * json_string_length(v) : 32;
	}
	return room;
}

static int params_write(json_t *params, const char **keys, size_t n,
			char **out)
{
	char *buf, *o;
	json_t *v;
	size_t i;

	buf = malloc(params_room(params));
	if (!buf)
		return -ENOMEM;
	o = buf;
	for (i = 0; i < n; i++) {
		v = json_object_get(params, keys[i]);
		if (i)
			*o++ = ',';
		o = put_param_text(o, keys[i]);
		*o++ = '=';
		if (json_is_string(v))
			o = put_param_text(o, json_string_value(v));
		else
			o = put_param_number(o, json_number_value(v));
	}
	*o = '\0';
	*out = buf;
	return 0;
}

/* the canonical text of "params": its members sorted by key */
static int row_params(const struct bench_file *f, struct row *r,
		      json_t *params)
{
	const char **keys = NULL, *key;
	size_t i = 0, n;
	char why[64];
	json_t *v;
	int err;

	r->params = "";
	n = json_object_size(params);
	if (!n)
		return 0;
	if (n > COMPARE_MAX_PARAMS) {
		snprintf(why, sizeof(why), "%zu \"params\", at most %d", n,
			 COMPARE_MAX_PARAMS);
		return row_error(f, r, why);
	}
	keys = malloc(n * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	json_object_foreach(params, key, v) {
		if (!json_is_number(v) && !json_is_string(v)) {
			err = row_error(f, r, "\"params\" members must be numbers or strings");
			goto out;
		}
		keys[i++] = key;
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	err = params_write(params, keys, n, &r->params_buf);
	if (!err)
		r->params = r->params_buf;
out:
	free(keys);
	return err;
}

static int check_status(const struct bench_file *f, struct row *r)
{
	static const char *const statuses[] = {
		"ok", "skipped", "failed", "disturbed",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(statuses); i++)
		if (!strcmp(r->status, statuses[i]))
			break;
	if (i == ARRAY_SIZE(statuses))
		return row_error(f, r, "status is none of ok, skipped, failed, disturbed");
	r->ok = i == 0;
	if (r->ok && !is_rate(r->unit))
		return row_error(f, r, "an ok row needs a rate \"unit\" such as \"events/s\"");
	return 0;
}

/* one results[] entry */
static int load_row(const struct bench_file *f, const json_t *v,
		    struct row *r)
{
	json_t *params;
	int err;

	if (!json_is_object(v))
		return row_error(f, r, "not an object");
	r->name = get_string(v, "name");
	r->variant = get_string(v, "variant");
	r->status = get_string(v, "status");
	r->reason = get_string(v, "reason");
	r->unit = get_string(v, "unit");
	if (!r->name || !r->variant || !r->status)
		return row_error(f, r, "needs string \"name\", \"variant\" and \"status\"");
	params = json_object_get(v, "params");
	if (params && !json_is_object(params) && !json_is_null(params))
		return row_error(f, r, "\"params\" must be an object");
	err = row_params(f, r, params);
	if (!err)
		err = check_status(f, r);
	if (!err)
		err = row_samples(f, r, json_object_get(v, "samples"));
	return err;
}

static void free_rows(struct bench_file *f)
{
	int i;

	if (f->rows)
		for (i = 0; i < f->nr; i++)
			free(f->rows[i].params_buf);
	free(f->rows);
	free(f->sorted);
}

static int load_rows(struct bench_file *f, const json_t *results)
{
	size_t n = json_array_size(results);
	int i, err;

	if (n > COMPARE_MAX_ROWS) {
		pr_err("%s: %zu results rows, at most %d", f->path, n,
		       COMPARE_MAX_ROWS);
		return -EFBIG;
	}
	f->rows = calloc(n ? n : 1, sizeof(*f->rows));
	f->sorted = calloc(n ? n : 1, sizeof(*f->sorted));
	if (!f->rows || !f->sorted) {
		pr_err("%s: out of memory", f->path);
		return -ENOMEM;
	}
	f->nr = n;
	for (i = 0; i < f->nr; i++) {
		f->rows[i].index = i;
		err = load_row(f, json_array_get(results, i), &f->rows[i]);
		if (err == -ENOMEM)
			pr_err("%s: out of memory", f->path);
		if (err)
			return err;
	}
	return 0;
}

static int cmp_identity(const struct row *a, const struct row *b)
{
	int d = strcmp(a->name, b->name);

	if (!d)
		d = strcmp(a->variant, b->variant);
	if (!d)
		d = strcmp(a->params, b->params);
	return d;
}

/* by identity, then by position: the first of equal rows leads */
static int cmp_sort(const void *pa, const void *pb)
{
	const struct row *a = *(const struct row *const *)pa;
	const struct row *b = *(const struct row *const *)pb;
	int d = cmp_identity(a, b);

	return d ? d : a->index - b->index;
}

/* sorts the rows by identity; a later row of a known identity is a dup */
static void index_rows(struct bench_file *f)
{
	struct row *r, *first = NULL;
	int i;

	for (i = 0; i < f->nr; i++)
		f->sorted[i] = &f->rows[i];
	qsort(f->sorted, f->nr, sizeof(*f->sorted), cmp_sort);
	for (i = 0; i < f->nr; i++) {
		r = f->sorted[i];
		if (first && !cmp_identity(first, r)) {
			r->first = first;
			first->nr_dups++;
			continue;
		}
		first = r;
		f->sorted[f->nr_sorted++] = r;
	}
}

/*
 * A run made with a test fault (the test build's BENCH_TEST_FAULT) says so
 * in context.fault: its rows may be "ok" with nothing verified, so no
 * verdict is drawn from it.
 */
static int refuse_fault(const struct bench_file *f)
{
	const json_t *fault = json_object_get(f->context, "fault");
	const char *name = json_string_value(fault);
	char shown_fault[NAME_SHOWN];

	if (!fault || json_is_null(fault))
		return 0;
	if (name)
		pr_err("%s: made with the test fault '%s' (context.fault): its figures are not to be trusted",
		       f->path, shown(shown_fault, sizeof(shown_fault), name));
	else
		pr_err("%s: context.fault is set: made with a test fault, its figures are not to be trusted",
		       f->path);
	return -EINVAL;
}

static int load_file(struct bench_file *f)
{
	const char *schema;
	char shown_schema[NAME_SHOWN];
	json_t *results;
	int ret;

	ret = parse_file(f);
	if (ret)
		return ret;
	schema = get_string(f->root, "schema");
	if (!schema || strcmp(schema, BENCH_SCHEMA)) {
		pr_err("%s: not a results file: \"schema\" is %s%s%s, expected \"%s\"",
		       f->path, schema ? "\"" : "",
		       schema ? shown(shown_schema, sizeof(shown_schema), schema)
			      : "missing",
		       schema ? "\"" : "", BENCH_SCHEMA);
		return -EINVAL;
	}
	f->context = json_object_get(f->root, "context");
	results = json_object_get(f->root, "results");
	if (!json_is_object(f->context) || !json_is_array(results)) {
		pr_err("%s: needs a \"context\" object and a \"results\" array",
		       f->path);
		return -EINVAL;
	}
	ret = refuse_fault(f);
	if (!ret)
		ret = load_rows(f, results);
	if (!ret)
		index_rows(f);
	return ret;
}

static void free_file(struct bench_file *f)
{
	free_rows(f);
	json_decref(f->root);
}

/* both sorted, so one pass pairs every identity: O(n log n) in all */
static void match_rows(struct bench_file *a, struct bench_file *b)
{
	int i = 0, j = 0, d;

	while (i < a->nr_sorted && j < b->nr_sorted) {
		d = cmp_identity(a->sorted[i], b->sorted[j]);
		if (d < 0) {
			i++;
		} else if (d > 0) {
			j++;
		} else {
			a->sorted[i]->match = b->sorted[j];
			b->sorted[j]->match = a->sorted[i];
			i++;
			j++;
		}
	}
}

/* ---- printing ---- */

/* a context value as text, for equality and for display */
static const char *value_text(const json_t *v, char *buf, size_t len)
{
	if (!v)
		return "(missing)";
	switch (json_typeof(v)) {
	case JSON_NULL:
		return "null";
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	case JSON_INTEGER:
	case JSON_REAL:
		snprintf(buf, len, "%.15g", json_number_value(v));
		return buf;
	case JSON_STRING:
		return shown(buf, len, json_string_value(v));
	case JSON_ARRAY:
		return "array";
	default:
		return "object";
	}
}

/* prints "@prefix: key: A x, B y" when the two differ */
static void diff_field(FILE *out, const char *prefix, const char *key,
		       const json_t *a, const json_t *b)
{
	char buf_a[NAME_SHOWN], buf_b[NAME_SHOWN];
	const char *ta = value_text(a, buf_a, sizeof(buf_a));
	const char *tb = value_text(b, buf_b, sizeof(buf_b));

	if (strcmp(ta, tb))
		fprintf(out, "%s: %s: A %s, B %s\n", prefix, key, ta, tb);
}

static void diff_context(FILE *out, const struct bench_file *a,
			 const struct bench_file *b)
{
	size_t i;

	diff_field(out, "context differs", "tool",
		   json_object_get(a->root, "tool"),
		   json_object_get(b->root, "tool"));
	for (i = 0; i < ARRAY_SIZE(context_mismatch); i++)
		diff_field(out, "context differs", context_mismatch[i],
			   json_object_get(a->context, context_mismatch[i]),
			   json_object_get(b->context, context_mismatch[i]));
	for (i = 0; i < ARRAY_SIZE(context_kernel); i++)
		diff_field(out, "kernel differs (expected when comparing kernels)",
			   context_kernel[i],
			   json_object_get(a->context, context_kernel[i]),
			   json_object_get(b->context, context_kernel[i]));
}

/* a string of @obj, shown, or "?" */
static const char *field_text(const json_t *obj, const char *key, char *buf,
			      size_t len)
{
	const char *s = get_string(obj, key);

	return s ? shown(buf, len, s) : "?";
}

static void print_header(FILE *out, const char *label,
			 const struct bench_file *f)
{
	char tool[NAME_SHOWN], kernel[NAME_SHOWN], when[NAME_SHOWN];

	fprintf(out, "%s: %s (%s, kernel %s, %s)\n", label, f->path,
		field_text(f->root, "tool", tool, sizeof(tool)),
		field_text(f->context, "kernel_release", kernel, sizeof(kernel)),
		field_text(f->context, "timestamp", when, sizeof(when)));
}

#define CELL_WIDTH	19

/* "3.612 ± 0.021", in millions */
static void mean_sd(char *buf, size_t len, const struct sample_stats *s)
{
	snprintf(buf, len, "%.3f ± %.3f", s->mean / 1e6, s->stddev / 1e6);
}

/* compares one row; true when it is a regression beyond @fail_pct */
static bool compare_row(FILE *out, const struct row *a, const struct row *b,
			double fail_pct)
{
	struct welch w;
	char p[16], cell_a[48], cell_b[48];
	struct label l;
	enum verdict v;
	double delta;

	v = stats_verdict(&a->st, &b->st, COMPARE_ALPHA, true, &w);
	delta = a->st.mean != 0 ? 100 * (b->st.mean - a->st.mean) / a->st.mean
				: NAN;
	if (!w.decidable)
		snprintf(p, sizeof(p), "-");
	else if (w.p < 1e-4)
		snprintf(p, sizeof(p), "<0.0001");
	else
		snprintf(p, sizeof(p), "%.4f", w.p);

	mean_sd(cell_a, sizeof(cell_a), &a->st);
	mean_sd(cell_b, sizeof(cell_b), &b->st);
	row_label(a, &l);
	/* widths count bytes: one more for the two bytes of "±" */
	fprintf(out, "  %-11s %-13s %*s %*s %+8.2f%% %8s  %s", l.name,
		l.variant, CELL_WIDTH + 1, cell_a, CELL_WIDTH + 1, cell_b,
		delta, p, verdict_name(v));
	if (!w.decidable)
		fprintf(out, " (fewer than 2 samples: cannot tell)");
	else if (stats_noisy(&a->st) || stats_noisy(&b->st))
		fprintf(out, " (noisy: CV > %.0f%%)", NOISY_CV * 100);
	fputc('\n', out);
	return fail_pct >= 0 && v == V_SLOWER && -delta > fail_pct;
}

static bool comparable(const struct row *a, const struct row *b)
{
	return a->ok && b->ok && !strcmp(a->unit, b->unit);
}

/* the rows in both files and ok in both; returns how many regressed */
static int compare_rows(FILE *out, const struct bench_file *a,
			double fail_pct)
{
	int i, compared = 0, regressed = 0;
	const struct row *r;

	fprintf(out, "\n  %-11s %-13s %*s %*s %9s %8s  %s\n", "name",
		"variant", CELL_WIDTH, "A (M/s)", CELL_WIDTH, "B (M/s)",
		"delta", "p", "verdict");
	for (i = 0; i < a->nr; i++) {
		r = &a->rows[i];
		if (!r->match || !comparable(r, r->match))
			continue;
		regressed += compare_row(out, r, r->match, fail_pct);
		compared++;
	}
	if (!compared)
		fprintf(out, "  (no row is ok in both files)\n");
	return regressed;
}

static void print_status(FILE *out, const char *label, const struct row *r)
{
	char status[NAME_SHOWN], text[LONG_SHOWN];

	fprintf(out, "%s %s", label, shown(status, sizeof(status), r->status));
	if (!r->ok)
		fprintf(out, " (%s)", r->reason ?
			shown(text, sizeof(text), r->reason) : "no reason given");
	else
		fprintf(out, " in %s", shown(text, NAME_SHOWN, r->unit));
}

static void print_only_in(FILE *out, const char *label,
			  const struct bench_file *f)
{
	struct label l;
	int i;

	for (i = 0; i < f->nr; i++)
		if (!f->rows[i].match && !f->rows[i].first)
			fprintf(out, "only in %s (%s): %s %s\n", label, f->path,
				row_label(&f->rows[i], &l)->name, l.variant);
}

static void print_dups(FILE *out, const char *label,
		       const struct bench_file *f)
{
	const struct row *r;
	struct label l;
	int i;

	for (i = 0; i < f->nr; i++) {
		r = &f->rows[i];
		if (r->nr_dups)
			fprintf(out, "duplicate in %s (%s): %s %s: results[%d] kept, %d later row%s ignored\n",
				label, f->path, row_label(r, &l)->name,
				l.variant, r->index, r->nr_dups,
				r->nr_dups > 1 ? "s" : "");
	}
}

/* rows in both files that could not be compared, rows in one only */
static void print_unmatched(FILE *out, const struct bench_file *a,
			    const struct bench_file *b)
{
	const struct row *ra;
	struct label l;
	int i;

	for (i = 0; i < a->nr; i++) {
		ra = &a->rows[i];
		if (!ra->match || comparable(ra, ra->match))
			continue;
		fprintf(out, "not compared: %s %s: ", row_label(ra, &l)->name,
			l.variant);
		print_status(out, "A", ra);
		print_status(out, ", B", ra->match);
		fputc('\n', out);
	}
	print_only_in(out, "A", a);
	print_only_in(out, "B", b);
	print_dups(out, "A", a);
	print_dups(out, "B", b);
}

int bench_compare_to(FILE *out, const char *file_a, const char *file_b,
		     double fail_on_regression_pct)
{
	struct bench_file a = { .path = file_a }, b = { .path = file_b };
	int ret, regressed;

	ret = load_file(&a);
	if (ret)
		goto cleanup;
	ret = load_file(&b);
	if (ret)
		goto cleanup;
	match_rows(&a, &b);

	print_header(out, "A", &a);
	print_header(out, "B", &b);
	fprintf(out, "Welch's t-test at %.0f%% confidence; more events/s is faster\n",
		(1 - COMPARE_ALPHA) * 100);
	diff_context(out, &a, &b);
	regressed = compare_rows(out, &a, fail_on_regression_pct);
	print_unmatched(out, &a, &b);
	if (regressed) {
		fprintf(out, "regression: %d row(s) significantly slower by more than %g%%\n",
			regressed, fail_on_regression_pct);
		ret = 1;
	}
cleanup:
	free_file(&a);
	free_file(&b);
	return ret;
}

int bench_compare(const char *file_a, const char *file_b,
		  double fail_on_regression_pct)
{
	return bench_compare_to(stdout, file_a, file_b,
				fail_on_regression_pct);
}
