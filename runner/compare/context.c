// SPDX-License-Identifier: GPL-2.0
/*
 * The contexts of a compare's files: a file made with a test fault
 * refused, what is kept of each context for the headers, and where the
 * files' contexts differ (the differences the compare prints). Apart
 * from the reading of the files (compare_read.c): one table of the
 * context fields that matter, read both when a file is kept and when
 * the files are set side by side.
 */
#include <errno.h>
#include <stdlib.h>
#include "bench.h"
#include "compare/compare.h"

/*
 * context fields that make two runs measure different things: the JIT's
 * settings change what a program costs (hardening blinds its constants)
 */
static const char *const context_mismatch[] = {
	"tool", "cpu_model", "online_cpus", "cpus_used", "attach_method",
	"count", "duration_s", "body", "bpf_jit_enable", "bpf_jit_harden",
	"bpf_jit_always_on",
};
/* context fields expected to differ when the point is comparing kernels */
static const char *const context_kernel[] = {
	"kernel_release", "kernel_build",
};

/*
 * A run made with a test fault (the test build's BENCH_TEST_FAULT) says so
 * in context.fault: its rows may be "ok" with nothing verified, so no
 * verdict is drawn from it.
 */
int refuse_fault(const struct bench_file *f, const json_t *context)
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

int keep_context(struct bench_file *f, json_t *root, json_t *context)
{
	size_t i;

	f->context = json_object();
	if (!f->context) {
		pr_err("%s: out of memory", f->path);
		return -ENOMEM;
	}
	for (i = 0; i < ARRAY_SIZE(context_mismatch); i++)
		keep_member(f->context, context_mismatch[i],
			    json_object_get(context, context_mismatch[i]));
	for (i = 0; i < ARRAY_SIZE(context_kernel); i++)
		keep_member(f->context, context_kernel[i],
			    json_object_get(context, context_kernel[i]));
	keep_member(f->context, "timestamp",
		    json_object_get(context, "timestamp"));
	/* the tool is the file's, not its context's */
	json_object_del(f->context, "tool");
	keep_member(f->context, "tool", json_object_get(root, "tool"));
	return 0;
}

/* ---- the files' contexts: where they differ ---- */

static bool same_member(const json_t *a, const json_t *b)
{
	return a && b ? json_equal(a, b) : a == b;
}

static bool differs(const char *key, const struct bench_file *a,
		    const struct bench_file *b)
{
	return !same_member(json_object_get(a->context, key),
			    json_object_get(b->context, key));
}

static int nr_context_keys(void)
{
	return ARRAY_SIZE(context_mismatch) + ARRAY_SIZE(context_kernel);
}

static const char *context_key(int i, bool *kernel)
{
	int n = ARRAY_SIZE(context_mismatch);

	*kernel = i >= n;
	return i < n ? context_mismatch[i] : context_kernel[i - n];
}

/*
 * The differences: the sides' first files, then each file of a side
 * against its first (files pooled together should be alike, kernels too).
 * @d holds nr_context_keys() * (files + 1) of them. Returns how many.
 */
static int context_diffs(const struct compare *c, struct ctx_diff *d)
{
	const struct side *a = &c->side[SIDE_A], *s;
	const char *key;
	int i, k, n = 0;
	bool kernel;

	for (k = 0; k < nr_context_keys(); k++) {
		key = context_key(k, &kernel);
		if (differs(key, &a->files[0], &c->side[SIDE_B].files[0]))
			d[n++] = (struct ctx_diff){ key, NULL, kernel,
				{ &a->files[0], &c->side[SIDE_B].files[0] },
				{ "A", "B" } };
	}
	for (s = c->side; s < c->side + 2; s++)
		for (k = 0; k < nr_context_keys(); k++)
			for (i = 1; i < s->nr_files; i++) {
				key = context_key(k, &kernel);
				if (differs(key, &s->files[0], &s->files[i]))
					d[n++] = (struct ctx_diff){ key,
						s->label, false,
						{ &s->files[0], &s->files[i] },
						{ s->label, s->label } };
			}
	return n;
}

/* every difference of the files' contexts, into @c */
int find_context_diffs(struct compare *c)
{
	int files = c->side[SIDE_A].nr_files + c->side[SIDE_B].nr_files;

	c->diffs = calloc(nr_context_keys() * (files + 1), sizeof(*c->diffs));
	if (!c->diffs) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	c->nr_diffs = context_diffs(c, c->diffs);
	return 0;
}
