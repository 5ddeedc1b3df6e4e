// SPDX-License-Identifier: GPL-2.0
/* JSON writer and reader for results files; see bench_json.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bench_json.h"

/* ---- writer ---- */

struct json_writer {
	FILE *out;
	int depth;
	bool sep;	/* the current container has a value: comma first */
	bool named;	/* a name was written: its value follows on the line */
	bool broken;	/* an end without a start, or a name without a value */
};

struct json_writer *jsonw_new(FILE *f)
{
	struct json_writer *w = calloc(1, sizeof(*w));

	if (w)
		w->out = f;
	return w;
}

int jsonw_destroy(struct json_writer *w)
{
	int err = 0;

	if (!w)
		return 0;
	if (w->depth || w->named || w->broken)
		err = -EINVAL;
	else if (fflush(w->out) || ferror(w->out))
		err = -EIO;
	free(w);
	return err;
}

static void jsonw_newline(struct json_writer *w)
{
	int i;

	putc('\n', w->out);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* before a value or a name: the comma, then the line it goes on */
static void jsonw_before(struct json_writer *w)
{
	if (w->named) {
		w->named = false;
		return;
	}
	if (w->sep)
		putc(',', w->out);
	if (w->depth > 0)
		jsonw_newline(w);
}

static void jsonw_after(struct json_writer *w)
{
	w->sep = true;
	/* a document ends with a newline, for shells and for cat */
	if (w->depth == 0)
		putc('\n', w->out);
}

static void jsonw_begin(struct json_writer *w, int c)
{
	jsonw_before(w);
	putc(c, w->out);
	w->depth++;
	w->sep = false;
}

static void jsonw_end(struct json_writer *w, int c)
{
	if (w->depth == 0 || w->named) {
		w->broken = true;
		return;
	}
	w->depth--;
	/* an empty container stays on one line: {} and [] */
	if (w->sep)
		jsonw_newline(w);
	putc(c, w->out);
	jsonw_after(w);
}

void jsonw_start_object(struct json_writer *w)
{
	jsonw_begin(w, '{');
}

void jsonw_end_object(struct json_writer *w)
{
	jsonw_end(w, '}');
}

void jsonw_start_array(struct json_writer *w)
{
	jsonw_begin(w, '[');
}

void jsonw_end_array(struct json_writer *w)
{
	jsonw_end(w, ']');
}

/* length of the valid UTF-8 sequence at @s, 0 when it is not one */
static int utf8_len(const unsigned char *s)
{
	unsigned int cp, min;
	int len, i;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	/* stops at the terminating NUL too: it is no continuation byte */
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are not UTF-8 */
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static void jsonw_quoted(struct json_writer *w, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int len;

	putc('"', w->out);
	while (*s) {
		switch (*s) {
		case '"':
			fputs("\\\"", w->out);
			break;
		case '\\':
			fputs("\\\\", w->out);
			break;
		case '\b':
			fputs("\\b", w->out);
			break;
		case '\f':
			fputs("\\f", w->out);
			break;
		case '\n':
			fputs("\\n", w->out);
			break;
		case '\r':
			fputs("\\r", w->out);
			break;
		case '\t':
			fputs("\\t", w->out);
			break;
		default:
			if (*s < 0x20) {
				fprintf(w->out, "\\u%04x", *s);
				break;
			}
			len = utf8_len(s);
			if (!len) {
				/* a JSON text must be Unicode: say what was lost */
				fputs("\\ufffd", w->out);
				break;
			}
			fwrite(s, 1, len, w->out);
			s += len - 1;
		}
		s++;
	}
	putc('"', w->out);
}

void jsonw_name(struct json_writer *w, const char *name)
{
	if (w->named)
		w->broken = true;
	jsonw_before(w);
	jsonw_quoted(w, name);
	fputs(": ", w->out);
	w->named = true;
}

void jsonw_string(struct json_writer *w, const char *s)
{
	if (!s) {
		jsonw_null(w);
		return;
	}
	jsonw_before(w);
	jsonw_quoted(w, s);
	jsonw_after(w);
}

static void jsonw_printf(struct json_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void jsonw_printf(struct json_writer *w, const char *fmt, ...)
{
	va_list ap;

	jsonw_before(w);
	va_start(ap, fmt);
	vfprintf(w->out, fmt, ap);
	va_end(ap);
	jsonw_after(w);
}

/*
 * %.17g always reads back as the same double but prints 0.1 as
 * 0.10000000000000001; the shortest precision that reads back exactly
 * keeps both the figures readable and every sample bit-exact.
 */
void jsonw_double(struct json_writer *w, double v)
{
	char buf[32], *c;
	int prec;

	if (!isfinite(v)) {
		jsonw_null(w);
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* a caller's setlocale() must not turn the point into a comma */
	c = strchr(buf, ',');
	if (c)
		*c = '.';
	jsonw_printf(w, "%s", buf);
}

void jsonw_uint(struct json_writer *w, unsigned long long v)
{
	jsonw_printf(w, "%llu", v);
}

void jsonw_int(struct json_writer *w, long long v)
{
	jsonw_printf(w, "%lld", v);
}

void jsonw_bool(struct json_writer *w, bool v)
{
	jsonw_printf(w, "%s", v ? "true" : "false");
}

void jsonw_null(struct json_writer *w)
{
	jsonw_printf(w, "null");
}

void jsonw_string_field(struct json_writer *w, const char *name, const char *s)
{
	jsonw_name(w, name);
	jsonw_string(w, s);
}

void jsonw_double_field(struct json_writer *w, const char *name, double v)
{
	jsonw_name(w, name);
	jsonw_double(w, v);
}

void jsonw_uint_field(struct json_writer *w, const char *name,
		      unsigned long long v)
{
	jsonw_name(w, name);
	jsonw_uint(w, v);
}

void jsonw_int_field(struct json_writer *w, const char *name, long long v)
{
	jsonw_name(w, name);
	jsonw_int(w, v);
}

void jsonw_bool_field(struct json_writer *w, const char *name, bool v)
{
	jsonw_name(w, name);
	jsonw_bool(w, v);
}

void jsonw_null_field(struct json_writer *w, const char *name)
{
	jsonw_name(w, name);
	jsonw_null(w);
}

/* ---- reader ---- */

struct parser {
	const char *text;
	size_t len;
	size_t pos;
	int depth;
	int err;		/* 0, -EINVAL or -ENOMEM: the first one wins */
	char *msg;
	size_t msg_len;
};

static void *parse_fail(struct parser *p, int err, const char *what)
{
	int line = 1, col = 1;
	size_t i;

	if (p->err)
		return NULL;
	p->err = err;
	if (err == -ENOMEM) {
		snprintf(p->msg, p->msg_len, "out of memory");
		return NULL;
	}
	for (i = 0; i < p->pos && i < p->len; i++) {
		if (p->text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(p->msg, p->msg_len, "line %d, column %d: %s", line, col, what);
	return NULL;
}

static int peek(const struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1;
}

static void skip_ws(struct parser *p)
{
	int c;

	while ((c = peek(p)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		p->pos++;
}

/* parse_fail() for functions that return an error number */
static int parse_bad(struct parser *p, const char *what)
{
	parse_fail(p, -EINVAL, what);
	return -EINVAL;
}

static struct json_value *new_value(struct parser *p, enum json_type type)
{
	struct json_value *v = calloc(1, sizeof(*v));

	if (!v)
		return parse_fail(p, -ENOMEM, NULL);
	v->type = type;
	return v;
}

static struct json_value *parse_value(struct parser *p);

static int hex4(const char *s, unsigned int *out)
{
	unsigned int v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -EINVAL;
	}
	*out = v;
	return 0;
}

static char *put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		*o++ = cp;
	} else if (cp < 0x800) {
		*o++ = 0xc0 | cp >> 6;
		*o++ = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		*o++ = 0xe0 | cp >> 12;
		*o++ = 0x80 | (cp >> 6 & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	} else {
		*o++ = 0xf0 | cp >> 18;
		*o++ = 0x80 | (cp >> 12 & 0x3f);
		*o++ = 0x80 | (cp >> 6 & 0x3f);
		*o++ = 0x80 | (cp & 0x3f);
	}
	return o;
}

/* \uXXXX at p->pos (after the backslash and 'u'), surrogate pairs joined */
static int parse_u_escape(struct parser *p, unsigned int *cp)
{
	unsigned int lo;

	if (p->len - p->pos < 4 || hex4(p->text + p->pos, cp))
		return parse_bad(p, "bad \\u escape");
	p->pos += 4;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return parse_bad(p, "lone low surrogate");
	if (*cp >= 0xd800 && *cp <= 0xdbff) {
		if (p->len - p->pos < 6 || p->text[p->pos] != '\\' ||
		    p->text[p->pos + 1] != 'u' ||
		    hex4(p->text + p->pos + 2, &lo) ||
		    lo < 0xdc00 || lo > 0xdfff)
			return parse_bad(p, "lone high surrogate");
		p->pos += 6;
		*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	/* values are C strings: an embedded NUL would cut them short */
	if (*cp == 0)
		return parse_bad(p, "\\u0000 is not supported");
	return 0;
}

static int parse_escape(struct parser *p, char **o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	unsigned int cp;
	const char *e;
	int c = peek(p);

	p->pos++;
	if (c == 'u') {
		if (parse_u_escape(p, &cp))
			return -EINVAL;
		*o = put_utf8(*o, cp);
		return 0;
	}
	e = c > 0 ? strchr(from, c) : NULL;
	if (!e) {
		p->pos--;
		return parse_bad(p, "bad escape in string");
	}
	*(*o)++ = to[e - from];
	return 0;
}

/* a string at p->pos (its opening quote), decoded into a new buffer */
static char *parse_string(struct parser *p)
{
	size_t end = p->pos + 1;
	char *buf, *o;
	int c;

	/* the decoded string is never longer than its escaped form */
	while (end < p->len && p->text[end] != '"')
		end += p->text[end] == '\\' ? 2 : 1;
	if (end >= p->len)
		return parse_fail(p, -EINVAL, "unterminated string");
	buf = malloc(end - p->pos);
	if (!buf)
		return parse_fail(p, -ENOMEM, NULL);

	o = buf;
	p->pos++;
	while ((c = peek(p)) != '"') {
		if (c < 0x20) {
			free(buf);
			return parse_fail(p, -EINVAL, "control character in string");
		}
		p->pos++;
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		if (parse_escape(p, &o)) {
			free(buf);
			return NULL;
		}
	}
	p->pos++;
	*o = '\0';
	return buf;
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool skip_digits(struct parser *p)
{
	size_t start = p->pos;

	while (is_digit(peek(p)))
		p->pos++;
	return p->pos > start;
}

/* the JSON grammar first: strtod alone would take "0x10", "inf", " 1" */
static struct json_value *parse_number(struct parser *p)
{
	size_t start = p->pos;
	struct json_value *v;
	char *span;

	if (peek(p) == '-')
		p->pos++;
	if (peek(p) == '0')
		p->pos++;
	else if (!skip_digits(p))
		return parse_fail(p, -EINVAL, "invalid number");
	if (peek(p) == '.') {
		p->pos++;
		if (!skip_digits(p))
			return parse_fail(p, -EINVAL, "invalid number");
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		p->pos++;
		if (peek(p) == '+' || peek(p) == '-')
			p->pos++;
		if (!skip_digits(p))
			return parse_fail(p, -EINVAL, "invalid number");
	}

	span = strndup(p->text + start, p->pos - start);
	if (!span)
		return parse_fail(p, -ENOMEM, NULL);
	v = new_value(p, JSON_NUMBER);
	if (v)
		v->number = strtod(span, NULL);
	free(span);
	if (v && isinf(v->number)) {
		free(v);
		p->pos = start;
		return parse_fail(p, -EINVAL, "number out of range");
	}
	return v;
}

static struct json_value *parse_literal(struct parser *p)
{
	static const struct {
		const char *word;
		enum json_type type;
		bool boolean;
	} lits[] = {
		{ "true", JSON_BOOL, true },
		{ "false", JSON_BOOL, false },
		{ "null", JSON_NULL, false },
	};
	struct json_value *v;
	size_t i, n;

	for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		n = strlen(lits[i].word);
		if (p->len - p->pos < n ||
		    memcmp(p->text + p->pos, lits[i].word, n))
			continue;
		v = new_value(p, lits[i].type);
		if (v) {
			v->boolean = lits[i].boolean;
			p->pos += n;
		}
		return v;
	}
	return parse_fail(p, -EINVAL, "unexpected character");
}

/* a member's name and colon, or NULL */
static char *parse_key(struct parser *p)
{
	char *key;

	skip_ws(p);
	if (peek(p) != '"')
		return parse_fail(p, -EINVAL, "expected a string as member name");
	key = parse_string(p);
	if (!key)
		return NULL;
	skip_ws(p);
	if (peek(p) != ':') {
		free(key);
		return parse_fail(p, -EINVAL, "expected ':'");
	}
	p->pos++;
	return key;
}

/* an array or object at p->pos; @close is ']' or '}' */
static struct json_value *parse_container(struct parser *p,
					  enum json_type type, int close)
{
	struct json_value *v, *child, **tail;
	char *key = NULL;

	if (++p->depth > JSON_MAX_DEPTH)
		return parse_fail(p, -EINVAL, "nested too deeply");
	v = new_value(p, type);
	if (!v)
		return NULL;
	tail = &v->first;
	p->pos++;
	skip_ws(p);
	if (peek(p) == close)
		goto done;
	for (;;) {
		if (type == JSON_OBJECT) {
			key = parse_key(p);
			if (!key)
				goto fail;
		}
		child = parse_value(p);
		if (!child)
			goto fail;
		child->key = key;
		key = NULL;
		*tail = child;
		tail = &child->next;
		v->nr++;
		skip_ws(p);
		if (peek(p) == close)
			goto done;
		if (peek(p) != ',') {
			parse_fail(p, -EINVAL, close == ']' ?
				   "expected ',' or ']'" : "expected ',' or '}'");
			goto fail;
		}
		p->pos++;
	}
done:
	p->pos++;
	p->depth--;
	return v;
fail:
	free(key);
	json_free(v);
	return NULL;
}

static struct json_value *parse_value(struct parser *p)
{
	struct json_value *v;
	char *s;
	int c;

	skip_ws(p);
	c = peek(p);
	switch (c) {
	case '{':
		return parse_container(p, JSON_OBJECT, '}');
	case '[':
		return parse_container(p, JSON_ARRAY, ']');
	case '"':
		s = parse_string(p);
		if (!s)
			return NULL;
		v = new_value(p, JSON_STRING);
		if (!v)
			free(s);
		else
			v->string = s;
		return v;
	case -1:
		return parse_fail(p, -EINVAL, "unexpected end of input");
	default:
		if (c == '-' || is_digit(c))
			return parse_number(p);
		return parse_literal(p);
	}
}

static int parse_text(const char *text, size_t len, struct json_value **out,
		      char *msg, size_t msg_len)
{
	struct parser p = {
		.text = text, .len = len, .msg = msg, .msg_len = msg_len,
	};
	struct json_value *root;

	root = parse_value(&p);
	if (root) {
		skip_ws(&p);
		if (p.pos < p.len)
			parse_fail(&p, -EINVAL, "trailing characters after the value");
	}
	if (p.err) {
		json_free(root);
		return p.err;
	}
	*out = root;
	return 0;
}

struct json_value *json_parse(const char *text, size_t len,
			      char *err, size_t err_len)
{
	struct json_value *root = NULL;

	parse_text(text, len, &root, err, err_len);
	return root;
}

/* the whole stream into a new buffer, at most JSON_MAX_FILE_SIZE bytes */
static int read_all(FILE *f, char **out, size_t *len)
{
	size_t size = 0, cap = 0, n;
	char *buf = NULL, *tmp;

	for (;;) {
		if (size == cap) {
			if (cap >= JSON_MAX_FILE_SIZE) {
				free(buf);
				return -EFBIG;
			}
			cap = cap ? cap * 2 : 4096;
			tmp = realloc(buf, cap);
			if (!tmp) {
				free(buf);
				return -ENOMEM;
			}
			buf = tmp;
		}
		n = fread(buf + size, 1, cap - size, f);
		size += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		return errno ? -errno : -EIO;
	}
	*out = buf;
	*len = size;
	return 0;
}

int json_parse_file(const char *path, struct json_value **out,
		    char *err, size_t err_len)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	*out = NULL;
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		goto report;
	}
	errno = 0;
	ret = read_all(f, &text, &len);
	fclose(f);
	if (ret)
		goto report;
	ret = parse_text(text, len, out, err, err_len);
	free(text);
	return ret;
report:
	if (ret == -EFBIG)
		snprintf(err, err_len, "larger than %d MiB",
			 JSON_MAX_FILE_SIZE >> 20);
	else
		snprintf(err, err_len, "%s", strerror(-ret));
	return ret;
}

void json_free(struct json_value *v)
{
	struct json_value *next;

	/* siblings in a loop; depth is bounded by the parser */
	while (v) {
		next = v->next;
		json_free(v->first);
		if (v->type == JSON_STRING)
			free(v->string);
		free(v->key);
		free(v);
		v = next;
	}
}

const struct json_value *json_get(const struct json_value *obj,
				  const char *key)
{
	const struct json_value *child, *found = NULL;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	json_for_each(child, obj)
		if (!strcmp(child->key, key))
			found = child;
	return found;
}

const char *json_get_string(const struct json_value *obj, const char *key)
{
	const struct json_value *v = json_get(obj, key);

	return v && v->type == JSON_STRING ? v->string : NULL;
}

bool json_get_number(const struct json_value *obj, const char *key,
		     double *out)
{
	const struct json_value *v = json_get(obj, key);

	if (!v || v->type != JSON_NUMBER)
		return false;
	*out = v->number;
	return true;
}

const char *json_type_name(enum json_type type)
{
	static const char *const names[] = {
		[JSON_NULL] = "null", [JSON_BOOL] = "boolean",
		[JSON_NUMBER] = "number", [JSON_STRING] = "string",
		[JSON_ARRAY] = "array", [JSON_OBJECT] = "object",
	};

	return type <= JSON_OBJECT ? names[type] : "?";
}
