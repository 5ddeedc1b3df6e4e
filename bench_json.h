/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON for results files: a streaming writer in the manner of bpftool's
 * json_writer (pretty-printed, two-space indent, commas placed by the
 * writer), and a small reader that parses a whole file into a tree.
 */
#ifndef __BENCH_JSON_H
#define __BENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- writer ---- */

struct json_writer;

/* NULL on allocation failure */
struct json_writer *jsonw_new(FILE *f);
/*
 * Frees the writer, not the stream. -EINVAL when an object or array was
 * left open, -EIO when the stream reports an error; the caller still
 * checks fclose() of a file it opened.
 */
int jsonw_destroy(struct json_writer *w);

void jsonw_start_object(struct json_writer *w);
void jsonw_end_object(struct json_writer *w);
void jsonw_start_array(struct json_writer *w);
void jsonw_end_array(struct json_writer *w);
/* the member name; the next value or start_* is its value */
void jsonw_name(struct json_writer *w, const char *name);

/* NULL writes null; invalid UTF-8 bytes become U+FFFD */
void jsonw_string(struct json_writer *w, const char *s);
/* shortest of %.15g..%.17g that reads back exactly; NAN/inf write null */
void jsonw_double(struct json_writer *w, double v);
void jsonw_uint(struct json_writer *w, unsigned long long v);
void jsonw_int(struct json_writer *w, long long v);
void jsonw_bool(struct json_writer *w, bool v);
void jsonw_null(struct json_writer *w);

void jsonw_string_field(struct json_writer *w, const char *name, const char *s);
void jsonw_double_field(struct json_writer *w, const char *name, double v);
void jsonw_uint_field(struct json_writer *w, const char *name,
		      unsigned long long v);
void jsonw_int_field(struct json_writer *w, const char *name, long long v);
void jsonw_bool_field(struct json_writer *w, const char *name, bool v);
void jsonw_null_field(struct json_writer *w, const char *name);

/* ---- reader ---- */

/* nesting deeper than this is refused, so recursion stays bounded */
#define JSON_MAX_DEPTH		64
/* larger files are refused with -EFBIG */
#define JSON_MAX_FILE_SIZE	(64 << 20)
#define JSON_ERR_LEN		160

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_value {
	enum json_type type;
	char *key;			/* member name inside an object */
	union {
		bool boolean;
		double number;
		char *string;		/* NUL-terminated UTF-8 */
	};
	/* outside the union: a scalar has no children, never garbage ones */
	struct json_value *first;	/* elements or members */
	int nr;
	struct json_value *next;	/* the following element or member */
};

/*
 * Parses @len bytes. NULL on error, with "line L, column C: what" in @err
 * (-ENOMEM is reported as "out of memory").
 */
struct json_value *json_parse(const char *text, size_t len,
			      char *err, size_t err_len);
/*
 * Reads and parses a whole file. -errno when it cannot be read, -EINVAL
 * when it is not JSON; @err says why in either case.
 */
int json_parse_file(const char *path, struct json_value **out,
		    char *err, size_t err_len);
void json_free(struct json_value *v);

/* the member @key of an object (the last one, as Python's json does) */
const struct json_value *json_get(const struct json_value *obj,
				  const char *key);
/* the member's string, or NULL when missing or not a string */
const char *json_get_string(const struct json_value *obj, const char *key);
/* false when missing or not a number */
bool json_get_number(const struct json_value *obj, const char *key,
		     double *out);
const char *json_type_name(enum json_type type);

#define json_for_each(child, parent) \
	for ((child) = (parent)->first; (child); (child) = (child)->next)

#endif /* __BENCH_JSON_H */
