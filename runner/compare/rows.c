// SPDX-License-Identifier: GPL-2.0
/*
 * A results file's rows read: each row's name, variant, status and the
 * canonical text of its "params" (what rows are matched by, with the keys
 * --ignore-param names left out), its strings kept once the file's tree
 * is freed. Apart from the file's reading (compare_read.c), which hands
 * over the "results" array, and from the checks of the rows' numbers
 * (compare_units.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "compare/compare.h"

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

static bool is_ignored(const struct ignored *ig, const char *key)
{
	return ig->nr && bsearch(&key, ig->keys, ig->nr, sizeof(*ig->keys),
				 cmp_str);
}

/*
 * The canonical text of "params": its members sorted by key, those
 * --ignore-param names left out
 */
static int row_params(const struct bench_file *f, struct row *r,
		      json_t *params, const struct ignored *ig)
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
		if (!is_ignored(ig, key))
			keys[i++] = key;
	}
	err = 0;
	if (!i)
		goto out;
	qsort(keys, i, sizeof(*keys), cmp_str);
	err = params_write(params, keys, i, &r->params_buf);
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
	return 0;
}

/* @s copied to @o, which moves past it; @s again when it is NULL */
static const char *keep(char **o, const char *s)
{
	const char *at = *o;
	size_t len;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	memcpy(*o, s, len);
	*o += len;
	return at;
}

static size_t text_len(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

/* the row's strings, out of the file's tree, which is freed after */
static int keep_text(struct row *r)
{
	char *o;

	r->text = malloc(text_len(r->name) + text_len(r->variant) +
			 text_len(r->params) + text_len(r->status) +
			 text_len(r->reason) + text_len(r->quantity));
	if (!r->text)
		return -ENOMEM;
	o = r->text;
	r->name = keep(&o, r->name);
	r->variant = keep(&o, r->variant);
	r->params = keep(&o, r->params);
	r->status = keep(&o, r->status);
	r->reason = keep(&o, r->reason);
	r->quantity = keep(&o, r->quantity);
	free(r->params_buf);
	r->params_buf = NULL;
	return 0;
}

/* one results[] entry */
static int load_row(const struct bench_file *f, const json_t *v,
		    struct row *r, const struct ignored *ig)
{
	json_t *params;
	int err;

	if (!json_is_object(v))
		return row_error(f, r, "not an object");
	r->name = get_string(v, "name");
	r->variant = get_string(v, "variant");
	r->status = get_string(v, "status");
	r->reason = get_string(v, "reason");
	if (!r->name || !r->variant || !r->status)
		return row_error(f, r, "needs string \"name\", \"variant\" and \"status\"");
	params = json_object_get(v, "params");
	if (params && !json_is_object(params) && !json_is_null(params))
		return row_error(f, r, "\"params\" must be an object");
	err = row_params(f, r, params, ig);
	if (!err)
		err = check_status(f, r);
	if (!err)
		err = check_bound(f, r, json_object_get(v, "samples"),
				  MAX_SAMPLES, "samples");
	if (!err)
		err = row_units(f, r, json_object_get(v, "units"));
	if (!err)
		err = keep_text(r);
	return err;
}

void free_rows(struct bench_file *f)
{
	int i;

	if (f->rows)
		for (i = 0; i < f->nr; i++) {
			free(f->rows[i].params_buf);
			free(f->rows[i].text);
		}
	free(f->rows);
	f->rows = NULL;
}

int load_rows(struct bench_file *f, const json_t *results, int file,
	      const struct ignored *ig)
{
	size_t n = json_array_size(results);
	int i, err;

	if (n > COMPARE_MAX_ROWS) {
		pr_err("%s: %zu results rows, at most %d", f->path, n,
		       COMPARE_MAX_ROWS);
		return -EFBIG;
	}
	f->rows = calloc(n ? n : 1, sizeof(*f->rows));
	if (!f->rows) {
		pr_err("%s: out of memory", f->path);
		return -ENOMEM;
	}
	f->nr = n;
	for (i = 0; i < f->nr; i++) {
		f->rows[i].index = i;
		f->rows[i].file = file;
		err = load_row(f, json_array_get(results, i), &f->rows[i], ig);
		if (err == -ENOMEM)
			pr_err("%s: out of memory", f->path);
		if (err)
			return err;
	}
	return 0;
}

void sort_ignored(const struct compare_args *args, struct ignored *ig)
{
	ig->nr = args->nr_ignore;
	memcpy(ig->keys, args->ignore, ig->nr * sizeof(*ig->keys));
	qsort(ig->keys, ig->nr, sizeof(*ig->keys), cmp_str);
}

