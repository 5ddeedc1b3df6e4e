// SPDX-License-Identifier: GPL-2.0
/*
 * --list: every row a family could run, with what it needs of the kernel
 * and of libbpf and what the family says of it, as JSON (--list --json)
 * or one line a row, and the options' ways of running. Apart from the
 * results: it runs nothing and has no figure, only rows' definitions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "attach/attach.h"
#include "cli/cli.h"
#include "compare/compare.h"
#include "core/core.h"
#include "report/report.h"

static json_t *needs_json(const char *const *needs, int nr, const char *extra)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < nr && needs[i]; i++)
		json_array_append_new(a, json_string(needs[i]));
	if (extra)
		json_array_append_new(a, json_string(extra));
	return a;
}

void list_kind(json_t *o, const struct attach_kind *kind,
	       const char *extra_need)
{
	int nr = sizeof(kind->needs) / sizeof(kind->needs[0]);

	json_object_set_new(o, "needs", needs_json(kind->needs, nr, extra_need));
	if (kind->lacks)
		json_object_set_new(o, "lacks", json_string(kind->lacks));
	if (kind->may_lack)
		json_object_set_new(o, "may_lack", json_string(kind->may_lack));
	if (kind->trampoline)
		json_object_set_new(o, "trampoline", json_true());
}

/* --list's document: every row, and what the family says of each */
static json_t *list_json(const struct bench_family *fam,
			 const struct bench_rows *all)
{
	json_t *rows = json_array(), *o;
	int i;

	for (i = 0; i < all->nr; i++) {
		const struct bench_row *row = &all->row[i];

		o = json_pack("{s:s, s:s, s:o*, s:I}",
			      "name", row->name,
			      "variant", row->variant,
			      "params", row->nr_params ?
					params_json(row) : NULL,
			      "count", (json_int_t)row->count);
		/* its samples shortened to the machine's pace, or its own */
		json_object_set_new(o, "paced",
				    json_boolean(fam->paced && !row->unpaced));
		if (fam->list_row)
			fam->list_row(row, o);
		json_array_append_new(rows, o);
	}
	o = json_pack("{s:s, s:s, s:b, s:o}",
		      "schema", BENCH_SCHEMA,
		      "tool", fam->name,
		      "paced", fam->paced,
		      "rows", rows);
	if (o && fam->list_doc)
		fam->list_doc(o);
	/* which options apply to which way of running */
	if (o)
		json_object_set_new(o, "options", options_json(fam));
	return o;
}

/*
 * --list's last line: the free bits' numbers, in runs, each with its
 * value: "free test_flags bits: 38-63 (0x4000000000-0x8000000000000000)"
 */
static void print_free_bits(json_t *bits)
{
	size_t i, n = json_array_size(bits);
	const char *sep = "";
	json_int_t first, last;

	printf("free test_flags bits:");
	for (i = 0; i < n; i++, sep = ",") {
		first = last = json_integer_value(json_array_get(bits, i));
		while (i + 1 < n &&
		       json_integer_value(json_array_get(bits, i + 1)) == last + 1)
			last = json_integer_value(json_array_get(bits, ++i));
		printf("%s %lld", sep, (long long)first);
		if (last != first)
			printf("-%lld", (long long)last);
		printf(" (%#llx", 1ull << first);
		if (last != first)
			printf("-%#llx", 1ull << last);
		printf(")");
	}
	printf("%s\n", n ? "" : " none");
}

int write_list(const struct bench_family *fam, const struct bench_rows *all,
	       FILE *f)
{
	json_t *root = list_json(fam, all);
	int err;

	err = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ?
	      -EIO : 0;
	if (!err && fputc('\n', f) == EOF)
		err = -EIO;
	json_decref(root);
	return err;
}

/* each row of --list on one line: its name, variant and what it needs */
void print_list(const struct bench_family *fam, const struct bench_rows *all)
{
	json_t *root = list_json(fam, all), *rows, *row, *v;
	const char *key;
	size_t i;

	rows = json_object_get(root, "rows");
	json_array_foreach(rows, i, row) {
		printf("%-12s %-18s", json_string_value(json_object_get(row, "name")),
		       json_string_value(json_object_get(row, "variant")));
		json_object_foreach(row, key, v) {
			if (!strcmp(key, "name") || !strcmp(key, "variant"))
				continue;
			if (json_is_array(v) && !json_array_size(v))
				continue;
			char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

			printf(" %s=%s", key, text ? text : "?");
			free(text);
		}
		printf("\n");
	}
	rows = json_object_get(root, "free_bits");
	if (rows)
		print_free_bits(rows);
	json_decref(root);
}
