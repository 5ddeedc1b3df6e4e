// SPDX-License-Identifier: GPL-2.0
/*
 * --profile's samples named: the kernel's addresses through
 * /proc/kallsyms, read while the row's programs are attached, so that
 * their JIT images (bpf_prog_<tag>_<name>) and trampolines
 * (bpf_trampoline_<key>) are in it; then each symbol's samples in the
 * row and in its base, one symbol a name. Apart from the clocks that take
 * the samples (bench_profile_clock.c) and from what is said of them
 * (bench_profile_report.c): a row's profile is made here, once its units
 * have run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "passes/passes.h"
#include "core/core.h"

/* ---- kallsyms ---- */

struct ksym {
	__u64 addr;
	const char *name;
};

struct ksyms {
	struct ksym *sym;
	int nr, cap;
	char *names;		/* every name, one after the other */
	size_t names_len, names_cap;
	bool nonzero;		/* an address that is not 0: not hidden */
};

static int ksyms_add(struct ksyms *ks, __u64 addr, const char *name)
{
	size_t len = strlen(name) + 1;
	void *grown;

	if (ks->nr == ks->cap) {
		ks->cap = ks->cap ? 2 * ks->cap : 65536;
		grown = realloc(ks->sym, ks->cap * sizeof(*ks->sym));
		if (!grown)
			return -ENOMEM;
		ks->sym = grown;
	}
	if (ks->names_len + len > ks->names_cap) {
		ks->names_cap = 2 * ks->names_cap + len + (1 << 20);
		grown = realloc(ks->names, ks->names_cap);
		if (!grown)
			return -ENOMEM;
		ks->names = grown;
	}
	memcpy(ks->names + ks->names_len, name, len);
	/* an offset until the names stop moving: see ksyms_load() */
	ks->sym[ks->nr++] = (struct ksym){ addr, (const char *)ks->names_len };
	ks->names_len += len;
	ks->nonzero |= addr != 0;
	return 0;
}

/* "address type name [module]": text symbols only, bpf's too */
static int kallsyms_line(char *line, void *ctx)
{
	char name[256];
	__u64 addr;

	if (!text_symbol(line, name) || sscanf(line, "%llx", &addr) != 1)
		return 0;
	return ksyms_add(ctx, addr, name);
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static void ksyms_free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->sym);
	free(ks->names);
	free(ks);
}

int profile_symbols_at(struct row_profile *prof, const char *path)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	int i, err;

	if (!ks) {
		outcome_set(&prof->out, ST_FAILED, "out of memory");
		return -1;
	}
	err = for_each_line(path, kallsyms_line, ks);
	if (err || !ks->nr) {
		outcome_set(&prof->out, ST_SKIPPED, "%s cannot be read: %s",
			    path, strerror(err ? -err : ENOENT));
		ksyms_free(ks);
		return -1;
	}
	if (!ks->nonzero) {
		outcome_set(&prof->out, ST_SKIPPED,
			    "%s hides the kernel's addresses (kernel.kptr_restrict=%d)",
			    path, read_sysctl_int("/proc/sys/kernel/kptr_restrict"));
		ksyms_free(ks);
		return -1;
	}
	for (i = 0; i < ks->nr; i++)
		ks->sym[i].name = ks->names + (size_t)ks->sym[i].name;
	qsort(ks->sym, ks->nr, sizeof(*ks->sym), cmp_ksym);
	ksyms_free(prof->ksyms);
	prof->ksyms = ks;
	return 0;
}

int profile_symbols(struct row_profile *prof)
{
	return profile_symbols_at(prof, "/proc/kallsyms");
}

/* the symbol at or before @addr: its index, or -1 below the first */
static int ksym_index(const struct ksyms *ks, __u64 addr)
{
	int lo = 0, hi = ks->nr - 1, mid, found = -1;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (ks->sym[mid].addr <= addr) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

/* ---- a row's profile ---- */

/* a sample's symbol (an index into kallsyms, -1 unknown) and arm */
struct named {
	int sym;
	enum profile_arm arm;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	return (x->sym > y->sym) - (x->sym < y->sym);
}

static struct profile_symbol *add_symbol(struct row_profile *prof,
					 const char *name)
{
	struct profile_symbol *grown, *s;

	grown = realloc(prof->sym, (prof->nr_sym + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	prof->sym = grown;
	s = &prof->sym[prof->nr_sym];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	if (!s->name)
		return NULL;
	prof->nr_sym++;
	return s;
}

static int cmp_symbol(const void *a, const void *b)
{
	const struct profile_symbol *x = a, *y = b;
	__u64 nx = x->samples[ARM_ROW] + x->samples[ARM_BASE];
	__u64 ny = y->samples[ARM_ROW] + y->samples[ARM_BASE];

	if (nx != ny)
		return nx < ny ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_symbol_name(const void *a, const void *b)
{
	const struct profile_symbol *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/*
 * Symbols of one name made one: copies of a program (--progs N) have one
 * name each, as do a module's static functions of one name
 */
static void merge_symbols(struct row_profile *prof)
{
	int i, n = 0, arm;

	qsort(prof->sym, prof->nr_sym, sizeof(*prof->sym), cmp_symbol_name);
	for (i = 0; i < prof->nr_sym; i++) {
		if (n && !strcmp(prof->sym[n - 1].name, prof->sym[i].name)) {
			for (arm = 0; arm < NR_ARMS; arm++)
				prof->sym[n - 1].samples[arm] +=
					prof->sym[i].samples[arm];
			free(prof->sym[i].name);
			continue;
		}
		prof->sym[n++] = prof->sym[i];
	}
	prof->nr_sym = n;
}

/* the kept addresses of both arms, by symbol */
static struct named *name_samples(const struct row_profile *prof, size_t *nr)
{
	size_t n = prof->nr_ip[ARM_ROW] + prof->nr_ip[ARM_BASE], k = 0, i;
	struct named *v = calloc(n ?: 1, sizeof(*v));
	int arm;

	if (!v)
		return NULL;
	for (arm = 0; arm < NR_ARMS; arm++)
		for (i = 0; i < prof->nr_ip[arm]; i++)
			v[k++] = (struct named){
				ksym_index(prof->ksyms, prof->ip[arm][i]), arm
			};
	qsort(v, n, sizeof(*v), cmp_named);
	*nr = n;
	return v;
}

static void drop_ips(struct row_profile *prof)
{
	int arm;

	for (arm = 0; arm < NR_ARMS; arm++) {
		free(prof->ip[arm]);
		prof->ip[arm] = NULL;
		prof->nr_ip[arm] = prof->cap_ip[arm] = 0;
	}
	ksyms_free(prof->ksyms);
	prof->ksyms = NULL;
}

void profile_finish(struct row_profile *prof)
{
	struct profile_symbol *s = NULL;
	struct named *v;
	size_t i, n;
	int arm;

	if (prof->out.status != ST_OK || !prof->ksyms)
		goto out;
	v = name_samples(prof, &n);
	if (!v) {
		outcome_set(&prof->out, ST_FAILED, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!i || v[i].sym != v[i - 1].sym)
			s = add_symbol(prof, v[i].sym < 0 ? "[unknown]" :
				       prof->ksyms->sym[v[i].sym].name);
		if (!s)
			break;
		s->samples[v[i].arm]++;
	}
	free(v);
	if (prof->user[ARM_ROW] + prof->user[ARM_BASE]) {
		s = add_symbol(prof, "[user]");
		for (arm = 0; s && arm < NR_ARMS; arm++)
			s->samples[arm] = prof->user[arm];
	}
	if (prof->nr_sym) {
		merge_symbols(prof);
		qsort(prof->sym, prof->nr_sym, sizeof(*prof->sym), cmp_symbol);
	}
	if (!prof->samples[ARM_ROW])
		outcome_set(&prof->out, ST_FAILED,
			    "no sample of the workers in %d profiled unit(s)",
			    prof->units);
out:
	drop_ips(prof);
}

void profile_free(struct row_profile *prof)
{
	int i;

	if (!prof)
		return;
	drop_ips(prof);
	for (i = 0; i < prof->nr_sym; i++)
		free(prof->sym[i].name);
	free(prof->sym);
	free(prof);
}

double profile_share(const struct row_profile *prof, int i,
		     enum profile_arm arm)
{
	return prof->samples[arm] ?
	       (double)prof->sym[i].samples[arm] / prof->samples[arm] : 0;
}
