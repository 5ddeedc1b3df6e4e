// SPDX-License-Identifier: GPL-2.0
/*
 * Many kernel functions at once, for the modes that hook them: those of
 * available_filter_functions that kprobes may hook and name alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "kernel/kernel.h"
#include "core/core.h"

struct func_entry {
	char *name;
	int order;
};

static int cmp_func_name(const void *a, const void *b)
{
	return strcmp(((const struct func_entry *)a)->name,
		      ((const struct func_entry *)b)->name);
}

static int cmp_func_order(const void *a, const void *b)
{
	return ((const struct func_entry *)a)->order -
	       ((const struct func_entry *)b)->order;
}

/* a list of the kernel's functions, growing as its file is read */
struct func_list {
	struct func_entry *l;
	int n, cap;
};

static int func_list_add(struct func_list *fl, const char *name)
{
	struct func_entry *grown;
	int cap = fl->cap ? 2 * fl->cap : 1024;

	if (fl->n == fl->cap) {
		grown = realloc(fl->l, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		fl->l = grown;
		fl->cap = cap;
	}
	fl->l[fl->n].name = strdup(name);
	if (!fl->l[fl->n].name)
		return -ENOMEM;
	fl->l[fl->n].order = fl->n;
	fl->n++;
	return 0;
}

/* the kprobe blacklist's "start-end name" */
static int blacklist_line(char *line, void *fl)
{
	char sym[256];

	return sscanf(line, "%*s %255s", sym) == 1 ? func_list_add(fl, sym) : 0;
}

/*
 * Text symbols of the kernel (no module's): a name listed twice is two
 * functions, which kprobes refuse to choose between (EADDRNOTAVAIL).
 */
static int kernel_text_line(char *line, void *fl)
{
	char sym[256];

	if (strchr(line, '[') || !text_symbol(line, sym))
		return 0;
	return func_list_add(fl, sym);
}

/* "name [module]": module functions come and go */
static int filter_function_line(char *line, void *fl)
{
	char sym[256];

	if (strchr(line, '[') || sscanf(line, "%255s", sym) != 1 ||
	    strchr(sym, '.'))
		return 0;
	return func_list_add(fl, sym);
}

static void free_funcs(struct func_entry *l, int n)
{
	while (n--)
		free(l[n].name);
	free(l);
}

/*
 * The names @parse takes from the lines of @path, sorted, each with its
 * line's order. -errno, and an empty list, when @path cannot be read.
 */
static int read_funcs(const char *path, line_fn parse,
		      struct func_entry **list, int *nr)
{
	struct func_list fl = {};
	int err;

	err = for_each_line(path, parse, &fl);
	if (err) {
		free_funcs(fl.l, fl.n);
		fl.l = NULL;
		fl.n = 0;
	}
	qsort(fl.l, fl.n, sizeof(*fl.l), cmp_func_name);
	*list = fl.l;
	*nr = fl.n;
	return err;
}

/* how often @e's name is in the sorted @l */
static int times_listed(const struct func_entry *e,
			const struct func_entry *l, int n)
{
	const struct func_entry *p = bsearch(e, l, n, sizeof(*l),
					     cmp_func_name);
	const struct func_entry *q;
	int times = 0;

	if (!p)
		return 0;
	while (p > l && !strcmp(p[-1].name, e->name))
		p--;
	for (q = p; q < l + n && !strcmp(q->name, e->name); q++)
		times++;
	return times;
}

/* the functions of available_filter_functions outside modules, sorted */
static int read_filter_functions(struct func_entry **list, int *nr,
				 struct outcome *out)
{
	char path[256];
	int err;

	*list = NULL;
	*nr = 0;
	if (tracefs_path("available_filter_functions", path, sizeof(path)))
		err = read_funcs(path, filter_function_line, list, nr);
	else
		err = -errno;
	if (err == -ENOMEM)
		outcome_set(out, ST_FAILED, "reading %s: %s", path,
			    strerror(-err));
	else if (err)
		outcome_set(out, ST_SKIPPED,
			    "cannot read tracefs available_filter_functions: %s%s",
			    strerror(-err), tracefs_mounted() ? "" :
			    " (tracefs is not mounted)");
	return err;
}

int traceable_functions(int want, const char ***syms, struct outcome *out)
{
	struct func_entry *l, *bl, *ks;
	int n, nbl, nks, i, j, kept = 0, order, err;
	const char **s;
	char *name;

	err = read_filter_functions(&l, &n, out);
	if (err)
		return err;
	/* a list the kernel does not show leaves its check out */
	read_funcs("/sys/kernel/debug/kprobes/blacklist", blacklist_line,
		   &bl, &nbl);
	read_funcs("/proc/kallsyms", kernel_text_line, &ks, &nks);
	/* a name listed twice is two static functions: neither is chosen */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(l[i].name, l[j].name); j++)
			;
		if (j - i > 1 ||
		    bsearch(&l[i], bl, nbl, sizeof(*bl), cmp_func_name) ||
		    (nks && times_listed(&l[i], ks, nks) != 1))
			continue;
		name = l[i].name;
		order = l[i].order;
		l[i].name = NULL;	/* moved, never freed twice */
		l[kept].name = name;
		l[kept++].order = order;
	}
	for (i = kept; i < n; i++)
		free(l[i].name);
	free_funcs(bl, nbl);
	free_funcs(ks, nks);
	qsort(l, kept, sizeof(*l), cmp_func_order);
	if (kept < want) {
		outcome_set(out, ST_SKIPPED,
			    "only %d traceable functions listed once in available_filter_functions",
			    kept);
		free_funcs(l, kept);
		return -ENOENT;
	}
	s = calloc(want, sizeof(*s));
	if (!s) {
		free_funcs(l, kept);
		return -ENOMEM;
	}
	for (i = 0; i < want; i++)
		s[i] = l[i].name;
	for (; i < kept; i++)
		free(l[i].name);
	free(l);
	*syms = s;
	return 0;
}
