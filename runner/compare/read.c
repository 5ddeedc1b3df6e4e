// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the results files of a compare, bounded: each file opened, held
 * to the limits, parsed and its schema checked; its rows' names, status
 * and the canonical text of their params (what rows are matched by, less
 * the keys --ignore-param names); their numbers checked before any is
 * pooled (what lets one in is in one place, here); its context kept; and
 * the file's text made safe to print.
 *
 * The schema read is "bpf-bench/1" (Documentation/results.rst), of which
 * the compare requires "schema", the "context" object without a "fault"
 * (a run with a test fault may show unverified rows as ok), the "results"
 * array, each row's "name", "variant" and "status" (ok, skipped, failed,
 * disturbed), its "params" when there (numbers and strings), and of an
 * "ok" row's "units", when there, a "quantity" string and a "values" array
 * of numbers, with "rounds" and "shares" arrays beside them when there.
 * Everything a verdict rests on comes from the values, never from the
 * summary figures beside them. Of the context it keeps what two runs must
 * share (context_keys[]) and the timestamp, for the headers.
 *
 * The files may come from anywhere, so reading them is bounded (the limits
 * are in compare.h), and a file's tree is freed once its rows are read:
 * what is kept of a row is its strings and its units' count, mean and
 * spread. A key twice in one object is refused: a file that says two
 * things at once is not one to draw verdicts from. Every string from a
 * file is escaped before it is printed (see shown()).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "core/core.h"
#include "compare/compare.h"

/* ---- text from a file, made safe to print ---- */

const char *get_string(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

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
const char *shown(char *buf, size_t size, const char *s)
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

const struct label *row_shown(const struct row *r, struct label *l)
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


/* both quantities the runner writes: costs, higher is slower */
static const char *const known_quantities[] = {
	"overhead_ns", "ns_per_event",
};

/* the count, mean and spread of @n values, in two passes */
void pool_values(const json_t *values, const json_t *rounds,
		 struct pool *p)
{
	size_t i, n = json_array_size(values);
	double x[MAX_UNITS], mean[MAX_UNITS], sum = 0, d;
	int round[MAX_UNITS], nr;

	memset(p, 0, sizeof(*p));
	if (!n)
		return;
	/*
	 * A round's units ran close in time and share what the machine did
	 * then: their mean is one observation. Without rounds, each unit is
	 * one. (check_units() let in only rounds that are ints.)
	 */
	for (i = 0; i < n; i++) {
		const json_t *r = json_array_get(rounds, i);

		x[i] = json_number_value(json_array_get(values, i));
		round[i] = json_array_size(rounds) == n && json_is_number(r) ?
			   (int)json_number_value(r) : -1 - (int)i;
	}
	nr = stats_cluster_means(x, round, n, mean);
	for (i = 0; i < (size_t)nr; i++)
		sum += mean[i];
	p->n = nr;
	p->mean = sum / nr;
	for (i = 0; i < (size_t)nr; i++) {
		d = mean[i] - p->mean;
		p->m2 += d * d;
	}
}

/*
 * a row a side's pool takes: ok, with units of a cost known here, and at
 * least one (pooled, none would be a run of 0 ns)
 */
bool poolable(const struct row *r)
{
	size_t i;

	if (!r->ok || !r->quantity || !r->units.n)
		return false;
	for (i = 0; i < ARRAY_SIZE(known_quantities); i++)
		if (!strcmp(r->quantity, known_quantities[i]))
			return true;
	return false;
}

/* one results[] entry's complaint: the row, and what is wrong with it */
static int row_error(const struct bench_file *f, const struct row *r,
		     const char *why)
{
	struct label l;

	if (r->name && r->variant)
		pr_err("%s: results[%d] (%s %s): %s", f->path, r->index,
		       row_shown(r, &l)->name, l.variant, why);
	else
		pr_err("%s: results[%d]: %s", f->path, r->index, why);
	return -EINVAL;
}

/* an array of the row's holds at most @max elements */
static int check_bound(const struct bench_file *f, const struct row *r,
		       const json_t *array, int max, const char *what)
{
	size_t n = json_array_size(array);
	char why[64];

	if (n <= (size_t)max)
		return 0;
	snprintf(why, sizeof(why), "%zu %s, at most %d", n, what, max);
	return row_error(f, r, why);
}

/*
 * A unit's figure is ns per event, or the difference of two: no sample
 * lasts longer than an hour (-d 3600), 3.6e12 ns, so no figure of one
 * event is beyond this, and sums and squares of MAX_UNITS of them a
 * side's files stay finite. A number past it is no result of these tools.
 */
#define UNIT_MAX_NS	1e13
/* a unit's round: the runner's round counter, an int */
#define ROUND_MAX	2147483647.0

/* units.@field[@i] of the row is refused: one line naming both */
static int unit_error(const struct bench_file *f, const struct row *r,
		      const char *field, size_t i, const json_t *v,
		      const char *what)
{
	char why[160];

	snprintf(why, sizeof(why), "units.%s[%zu] is %.17g: %s", field, i,
		 json_number_value(v), what);
	return row_error(f, r, why);
}

/*
 * Every entry of the units' array @key a number (else @not_number), finite
 * and within @bound (else @beyond, naming it)
 */
static int check_numbers(const struct bench_file *f, const struct row *r,
			 const json_t *arr, const char *key, double bound,
			 const char *not_number, const char *beyond)
{
	const json_t *v;
	double x;
	size_t i;

	for (i = 0; i < json_array_size(arr); i++) {
		v = json_array_get(arr, i);
		if (!json_is_number(v))
			return row_error(f, r, not_number);
		x = json_number_value(v);
		if (!isfinite(x) || fabs(x) > bound)
			return unit_error(f, r, key, i, v, beyond);
	}
	return 0;
}

/*
 * Every value a number within UNIT_MAX_NS; every round, when there are
 * rounds, an integer from 0 to ROUND_MAX, one per value
 */
static int check_units(const struct bench_file *f, const struct row *r,
		       const json_t *values, const json_t *rounds)
{
	static const char bad[] = "an ok row's \"units\" needs a \"quantity\" string and a \"values\" array of numbers";
	const json_t *v;
	double x;
	size_t i;
	int err;

	err = check_numbers(f, r, values, "values", UNIT_MAX_NS, bad,
			    "beyond 1e13 ns, longer than any sample");
	if (err)
		return err;
	if (!rounds || json_is_null(rounds))
		return 0;
	if (!json_is_array(rounds) ||
	    json_array_size(rounds) != json_array_size(values))
		return row_error(f, r, "\"units\" needs \"rounds\" as an array of one round per value, or none");
	for (i = 0; i < json_array_size(rounds); i++) {
		v = json_array_get(rounds, i);
		x = json_number_value(v);
		if (!json_is_number(v) || !(x >= 0 && x <= ROUND_MAX) ||
		    x != floor(x))
			return json_is_number(v) ?
			       unit_error(f, r, "rounds", i, v,
					  "a round is an integer from 0 to 2^31-1") :
			       row_error(f, r, "\"units\" needs \"rounds\" of numbers");
	}
	return 0;
}

/*
 * An overhead row's units' shares of their bases, in %, one per value,
 * pooled as the values are; none is no error. A share is the ratio of two
 * figures within UNIT_MAX_NS, and no base that measured anything is below
 * 1e-3 ns: within UNIT_MAX_NS times 1e5.
 */
static int row_shares(const struct bench_file *f, struct row *r,
		      const json_t *shares, const json_t *values,
		      const json_t *rounds)
{
	int err;

	if (!shares || json_is_null(shares))
		return 0;
	if (!json_is_array(shares) ||
	    json_array_size(shares) != json_array_size(values))
		return row_error(f, r, "\"units\" needs \"shares\" as an array of one share per value, or none");
	err = check_numbers(f, r, shares, "shares", 1e5 * UNIT_MAX_NS,
			    "\"units\" needs \"shares\" of numbers",
			    "beyond any ratio of two units");
	if (err)
		return err;
	pool_values(shares, rounds, &r->shares);
	r->has_shares = r->shares.n > 0;
	return 0;
}

/* a row's units: their count, mean and spread, and their quantity */
static int row_units(const struct bench_file *f, struct row *r,
		     const json_t *units)
{
	static const char bad[] = "an ok row's \"units\" needs a \"quantity\" string and a \"values\" array of numbers";
	const json_t *values, *rounds;
	int err;

	/* a file written before units were: listed, not pooled */
	if (!units || json_is_null(units))
		return 0;
	if (!json_is_object(units))
		return row_error(f, r, "\"units\" must be an object");
	values = json_object_get(units, "values");
	err = check_bound(f, r, values, MAX_UNITS, "units");
	if (err || !r->ok)
		return err;
	r->quantity = get_string(units, "quantity");
	if (!r->quantity || !json_is_array(values))
		return row_error(f, r, bad);
	rounds = json_object_get(units, "rounds");
	err = check_units(f, r, values, rounds);
	if (err)
		return err;
	pool_values(values, rounds, &r->units);
	return row_shares(f, r, json_object_get(units, "shares"), values,
			  rounds);
}

/* the keys --ignore-param names, sorted */
struct ignored {
	const char *keys[COMPARE_MAX_PARAMS];
	int nr;
};

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

static int load_rows(struct bench_file *f, const json_t *results,
		     int file, const struct ignored *ig)
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

/*
 * context fields that make two runs measure different things (the JIT's
 * settings change what a program costs: hardening blinds its constants);
 * the kernel's, the last NR_KERNEL_KEYS, are expected to differ when the
 * point is comparing kernels
 */
static const char *const context_keys[] = {
	"tool", "cpu_model", "online_cpus", "cpus_used", "attach_method",
	"count", "duration_s", "body", "bpf_jit_enable", "bpf_jit_harden",
	"bpf_jit_always_on", "kernel_release", "kernel_build",
};
#define NR_KEYS		((int)ARRAY_SIZE(context_keys))
#define NR_KERNEL_KEYS	2

/* a run made with a test fault, its rows "ok" unverified, gives no verdict */
static int refuse_fault(const struct bench_file *f, const json_t *context)
{
	const json_t *fault = json_object_get(context, "fault");
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

/*
 * A context member kept for the headers and the differences: a scalar as
 * it is (a string is no longer than the file was); an array or object,
 * which no runner writes there, by its kind alone
 */
static void keep_member(json_t *kept, const char *key, json_t *v)
{
	if (!v)
		return;
	if (json_is_array(v) || json_is_object(v))
		json_object_set_new(kept, key, json_string(
			json_is_array(v) ? "<array>" : "<object>"));
	else
		json_object_set_new(kept, key, json_deep_copy(v));
}

static int keep_context(struct bench_file *f, json_t *root,
			json_t *context)
{
	int i;

	f->context = json_object();
	if (!f->context) {
		pr_err("%s: out of memory", f->path);
		return -ENOMEM;
	}
	for (i = 0; i < NR_KEYS; i++)
		keep_member(f->context, context_keys[i],
			    json_object_get(context, context_keys[i]));
	keep_member(f->context, "timestamp",
		    json_object_get(context, "timestamp"));
	/* the tool is the file's, not its context's */
	json_object_del(f->context, "tool");
	keep_member(f->context, "tool", json_object_get(root, "tool"));
	return 0;
}

/* ---- the files' contexts: where they differ ---- */

static bool differs(const char *key, const struct bench_file *a,
		    const struct bench_file *b)
{
	const json_t *x = json_object_get(a->context, key);
	const json_t *y = json_object_get(b->context, key);

	return x && y ? !json_equal(x, y) : x != y;
}

/*
 * Every difference of the files' contexts, into @c: the sides' first
 * files, then each file of a side against its first (files pooled
 * together should be alike, kernels too)
 */
int find_context_diffs(struct compare *c)
{
	const struct side *a = &c->side[SIDE_A], *s;
	int files = a->nr_files + c->side[SIDE_B].nr_files;
	struct ctx_diff *d;
	const char *key;
	int i, k;

	d = c->diffs = calloc(NR_KEYS * (files + 1), sizeof(*c->diffs));
	if (!d) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	for (k = 0; k < NR_KEYS; k++) {
		key = context_keys[k];
		if (differs(key, &a->files[0], &c->side[SIDE_B].files[0]))
			*d++ = (struct ctx_diff){ key, NULL,
				k >= NR_KEYS - NR_KERNEL_KEYS,
				{ &a->files[0], &c->side[SIDE_B].files[0] },
				{ "A", "B" } };
	}
	for (s = c->side; s < c->side + 2; s++)
		for (k = 0; k < NR_KEYS; k++)
			for (i = 1; i < s->nr_files; i++) {
				key = context_keys[k];
				if (differs(key, &s->files[0], &s->files[i]))
					*d++ = (struct ctx_diff){ key,
						s->label, false,
						{ &s->files[0], &s->files[i] },
						{ s->label, s->label } };
			}
	c->nr_diffs = d - c->diffs;
	return 0;
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
 * The size is checked on the open file, and again by the reader for what
 * stat cannot tell (pipes, growth). Adds what was read to *@read.
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

static bool same_pool(const struct pool *a, const struct pool *b)
{
	return a->n == b->n && a->mean == b->mean && a->m2 == b->m2;
}

/*
 * Whether two files hold one run, whatever their paths: the same rows in
 * the same order with the same units and shares, to the last bit, and
 * some units among them. Units are timings, which no two runs share,
 * while a context (a timestamp, a host, a kernel) is what runs do share.
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

/* its files, and the index compare.c's index_side() made of them */
void free_side(struct side *s)
{
	struct bench_file *f;
	int i;

	for (f = s->files; f < s->files + s->nr_files; f++) {
		for (i = 0; f->rows && i < f->nr; i++) {
			free(f->rows[i].params_buf);
			free(f->rows[i].text);
		}
		free(f->rows);
		json_decref(f->context);
	}
	free(s->sorted);
	free(s->groups);
}

int load_sides(struct compare *c)
{
	struct ignored ig = { .nr = c->args->nr_ignore };
	struct side *s;
	int i, which, ret;

	memcpy(ig.keys, c->args->ignore, ig.nr * sizeof(*ig.keys));
	qsort(ig.keys, ig.nr, sizeof(*ig.keys), cmp_str);
	for (which = SIDE_A; which <= SIDE_B; which++) {
		s = &c->side[which];
		s->label = which == SIDE_A ? "A" : "B";
		s->nr_files = c->args->nr_files[which];
		for (i = 0; i < s->nr_files; i++) {
			s->files[i].path = c->args->files[which][i];
			ret = load_file(&s->files[i], i, &c->read, &ig);
			if (!ret)
				ret = refuse_twice(s, i);
			if (ret)
				return ret;
		}
	}
	return 0;
}
