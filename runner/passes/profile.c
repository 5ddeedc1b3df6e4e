// SPDX-License-Identifier: GPL-2.0
/*
 * --profile: where a row's time goes, sampled by a clock, the samples
 * named, and what is said of them. The machines here have no PMU, so the
 * clock is the kernel's software one (this file alone speaks
 * perf_event_open()): an hrtimer on each worker's CPU that samples the
 * running task's instruction pointer. Only the workers' samples count;
 * user-space ones are one symbol, "[user]". Documentation/profile.rst
 * says what the clock cannot see.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "passes/passes.h"
#include "kernel/kernel.h"
#include "core/core.h"
#include "rows/rows.h"

/* ring pages per CPU (a power of two): 2 MiB, some 8 s of 24-byte samples at 10 kHz */
#define RING_PAGES	512

/* ---- the clocks ---- */

static int perf_event_open(struct perf_event_attr *attr, int cpu)
{
	return syscall(__NR_perf_event_open, attr, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

static const char *perf_refusal(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return "perf_event_open refused (kernel.perf_event_paranoid, or CAP_PERFMON missing)";
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return "this kernel has no software CPU clock event";
	default:
		return "perf_event_open failed";
	}
}

int profiler_open(struct profiler *p, const struct cpu_list *cpus,
		  struct outcome *out)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = PROFILE_PERIOD_NS,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
		.disabled = 1,
	};
	long page = sysconf(_SC_PAGESIZE);
	int i, err;

	memset(p, 0, sizeof(*p));
	p->cpu = calloc(cpus->nr, sizeof(*p->cpu));
	p->fd = calloc(cpus->nr, sizeof(*p->fd));
	p->ring = calloc(cpus->nr, sizeof(*p->ring));
	p->ring_len = (size_t)(RING_PAGES + 1) * page;
	if (!p->cpu || !p->fd || !p->ring) {
		outcome_set(out, ST_FAILED, "out of memory");
		goto fail;
	}
	for (i = 0; i < cpus->nr; i++) {
		p->cpu[i] = cpus->cpu[i];
		p->fd[i] = perf_event_open(&attr, cpus->cpu[i]);
		if (p->fd[i] < 0) {
			err = errno;
			outcome_set(out, ST_SKIPPED, "%s: %s on CPU %d",
				    perf_refusal(err), strerror(err),
				    cpus->cpu[i]);
			goto fail;
		}
		p->nr = i + 1;
		p->ring[i] = mmap(NULL, p->ring_len, PROT_READ | PROT_WRITE,
				  MAP_SHARED, p->fd[i], 0);
		if (p->ring[i] == MAP_FAILED) {
			p->ring[i] = NULL;
			outcome_set(out, ST_SKIPPED,
				    "the perf ring of CPU %d cannot be mapped: %s",
				    cpus->cpu[i], strerror(errno));
			goto fail;
		}
	}
	return 0;
fail:
	profiler_close(p);
	return -1;
}

void profiler_close(struct profiler *p)
{
	int i;

	for (i = 0; i < p->nr; i++) {
		if (p->ring[i])
			munmap(p->ring[i], p->ring_len);
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	}
	free(p->cpu);
	free(p->fd);
	free(p->ring);
	memset(p, 0, sizeof(*p));
}

void profiler_start(struct profiler *p)
{
	int i;

	for (i = 0; i < p->nr; i++)
		ioctl(p->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

/* ---- reading the rings ---- */

struct sample_rec {
	struct perf_event_header header;
	__u64 ip;
	__u32 pid, tid;
};

struct lost_rec {
	struct perf_event_header header;
	__u64 id, lost;
};

/* where a ring's records go: one CPU's, for one arm */
struct ring_sink {
	struct row_profile *prof;
	enum profile_arm arm;
	const pid_t *tids;
	int nr;
	bool keep;		/* an undisturbed sample, a CPU of the row's */
};

static bool is_worker(const struct ring_sink *k, __u32 tid)
{
	int i;

	for (i = 0; i < k->nr; i++)
		if ((__u32)k->tids[i] == tid)
			return true;
	return false;
}

static void keep_ip(struct row_profile *prof, enum profile_arm arm, __u64 ip)
{
	__u64 *grown;

	if (prof->nr_ip[arm] == prof->cap_ip[arm]) {
		size_t cap = prof->cap_ip[arm] ? 2 * prof->cap_ip[arm] : 4096;

		grown = realloc(prof->ip[arm], cap * sizeof(*grown));
		if (!grown)
			return;
		prof->ip[arm] = grown;
		prof->cap_ip[arm] = cap;
	}
	prof->ip[arm][prof->nr_ip[arm]++] = ip;
}

static void take_sample(const struct ring_sink *k, const struct sample_rec *r)
{
	struct row_profile *prof = k->prof;
	__u16 mode = r->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (!k->keep)
		return;
	if (!is_worker(k, r->tid)) {
		if (r->pid)
			prof->other[k->arm]++;
		else
			prof->idle[k->arm]++;
		return;
	}
	prof->samples[k->arm]++;
	if (mode == PERF_RECORD_MISC_USER)
		prof->user[k->arm]++;
	else
		keep_ip(prof, k->arm, r->ip);
}

static void take_record(const struct ring_sink *k, const void *rec)
{
	const struct perf_event_header *h = rec;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (h->size >= sizeof(struct sample_rec))
			take_sample(k, rec);
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(struct lost_rec))
			k->prof->lost += ((const struct lost_rec *)rec)->lost;
		break;
	case PERF_RECORD_THROTTLE:
		k->prof->throttled++;
		break;
	}
}

void profile_take(struct row_profile *prof, enum profile_arm arm,
		  const pid_t *tids, int nr, const void *rec)
{
	struct ring_sink k = { prof, arm, tids, nr, true };

	take_record(&k, rec);
}

/* a ring's records from its tail to its head, which may wrap */
static void ring_drain(struct perf_event_mmap_page *meta,
		       const struct ring_sink *k)
{
	char *data = (char *)meta + meta->data_offset;
	__u64 size = meta->data_size;
	__u64 head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = meta->data_tail, off, n, i;
	struct perf_event_header h;
	__u64 rec[32];

	while (tail + sizeof(h) <= head) {
		off = tail % size;
		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof(h))
			break;		/* garbled: drop the rest */
		n = h.size < sizeof(rec) ? h.size : sizeof(rec);
		for (i = 0; i < n; i++)
			((char *)rec)[i] = data[(off + i) % size];
		take_record(k, rec);
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
}

void profiler_stop(struct profiler *p, struct row_profile *prof,
		   enum profile_arm arm, const pid_t *tids, int nr,
		   const struct cpu_list *cpus, bool keep)
{
	struct ring_sink k = { prof, arm, tids, nr, false };
	int i;

	for (i = 0; i < p->nr; i++)
		ioctl(p->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < p->nr; i++) {
		k.keep = keep && cpu_list_has(cpus, p->cpu[i]);
		ring_drain(p->ring[i], &k);
	}
}

/*
 * ---- kallsyms ----
 *
 * Read while the row's programs are attached, so that their JIT images
 * (bpf_prog_<tag>_<name>) and trampolines (bpf_trampoline_<key>) are in it
 */

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
	/* an offset until the names stop moving: see profile_symbols_at() */
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

/*
 * ---- what it says: a row's profile as JSON, its table ----
 *
 * The samples give shares of time, never a figure (the sampling costs
 * time of its own): a symbol's ns per event is its share of the row's
 * measured ns per event, its extra ns that less its share of the base's.
 * Summed over every symbol, the extra ns are the row's overhead.
 */

/* the row's figures the shares are of: its units' means */
struct profile_ns {
	double row, base, overhead;	/* base and overhead NAN: no base */
};

static void profile_ns(const struct bench_row *row,
		       const struct row_profile *prof, struct profile_ns *ns)
{
	const struct row_state *st = row->state;
	struct sample_stats s;

	/* no unit: NAN */
	stats_compute(st->unit_ns, st->nr_units, &s);
	ns->row = s.mean;
	ns->base = NAN;
	if (st->paired && prof->has_base) {
		stats_compute(st->unit_base_ns, st->nr_units, &s);
		ns->base = s.mean;
	}
	ns->overhead = ns->row - ns->base;
}

/* ns per event of symbol @i in the row, less its ns in the base */
static double symbol_extra(const struct row_profile *prof, int i,
			   const struct profile_ns *ns)
{
	return profile_share(prof, i, ARM_ROW) * ns->row -
	       profile_share(prof, i, ARM_BASE) * ns->base;
}

struct rank_ctx {
	const struct row_profile *prof;
	const struct profile_ns *ns;
};

/* by extra ns either way, the most first; ties in the symbols' order */
static int by_extra(const void *pa, const void *pb, void *ctx)
{
	const struct rank_ctx *c = ctx;
	int a = *(const int *)pa, b = *(const int *)pb;
	double x = fabs(symbol_extra(c->prof, a, c->ns));
	double y = fabs(symbol_extra(c->prof, b, c->ns));

	return (x < y) - (x > y) ?: a - b;
}

/* the order symbols are shown in: by extra ns, or by share without base */
static int *ranked(const struct row_profile *prof, const struct profile_ns *ns)
{
	struct rank_ctx c = { prof, ns };
	int *idx = calloc(prof->nr_sym ?: 1, sizeof(*idx));
	int i;

	if (!idx)
		return NULL;
	for (i = 0; i < prof->nr_sym; i++)
		idx[i] = i;
	if (isnan(ns->base))
		return idx;	/* already by samples */
	qsort_r(idx, prof->nr_sym, sizeof(*idx), by_extra, &c);
	return idx;
}

static json_t *symbol_json(const struct row_profile *prof, int i,
			   const struct profile_ns *ns)
{
	const struct profile_symbol *s = &prof->sym[i];
	double share = profile_share(prof, i, ARM_ROW);
	double base_share = profile_share(prof, i, ARM_BASE);
	double extra = symbol_extra(prof, i, ns);
	bool base = !isnan(ns->base);

	return json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"name", s->name,
		"samples", (json_int_t)s->samples[ARM_ROW],
		"share", json_number(share),
		"ns_per_event", json_number(share * ns->row),
		"base_samples", base ? json_integer(s->samples[ARM_BASE]) :
				json_null(),
		"base_share", base ? json_number(base_share) : json_null(),
		"base_ns_per_event", json_number(base_share * ns->base),
		"extra_ns", json_number(extra),
		"extra_share", json_number(extra / ns->overhead));
}

/* the extra ns the first PROFILE_TOP symbols of @idx explain */
static double explained_ns(const struct row_profile *prof, const int *idx,
			   const struct profile_ns *ns)
{
	double sum = 0;
	int i;

	for (i = 0; i < prof->nr_sym && i < PROFILE_TOP; i++)
		sum += symbol_extra(prof, idx[i], ns);
	return sum;
}

static void profile_json_body(json_t *o, const struct row_profile *prof,
			      const struct profile_ns *ns)
{
	json_t *syms = json_array();
	int *idx = ranked(prof, ns), i;
	bool base = !isnan(ns->base);
	double explained = base && idx ? explained_ns(prof, idx, ns) : NAN;

	for (i = 0; idx && i < prof->nr_sym && i < PROFILE_JSON_TOP; i++)
		json_array_append_new(syms, symbol_json(prof, idx[i], ns));
	json_object_update_new(o, json_pack(
		"{s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"samples", (json_int_t)prof->samples[ARM_ROW],
		"user_samples", (json_int_t)prof->user[ARM_ROW],
		"other_samples", (json_int_t)prof->other[ARM_ROW],
		"idle_samples", (json_int_t)prof->idle[ARM_ROW],
		"base_samples", base ? json_integer(prof->samples[ARM_BASE]) :
				json_null(),
		"base_user_samples", base ? json_integer(prof->user[ARM_BASE]) :
				     json_null(),
		"base_other_samples", base ?
			json_integer(prof->other[ARM_BASE]) : json_null(),
		"ns_per_event", json_number(ns->row),
		"base_ns_per_event", json_number(ns->base),
		"overhead_ns", json_number(ns->overhead),
		"explained_ns", json_number(explained),
		"explained_share", json_number(explained / ns->overhead),
		"symbols", syms));
	free(idx);
}

json_t *profile_json(const struct bench_row *row)
{
	const struct row_profile *prof = row->state->profile;
	struct profile_ns ns;
	json_t *o;

	if (!prof)
		return json_null();
	o = json_pack("{s:s, s:o, s:s, s:I, s:i, s:i, s:o, s:I, s:I, s:o}",
		"status", status_json(prof->out.status),
		"reason", prof->out.status == ST_OK ? json_null() :
			  json_text(prof->out.reason),
		"clock", "cpu-clock",
		"period_ns", (json_int_t)PROFILE_PERIOD_NS,
		"units", prof->units,
		"dropped_samples", prof->dropped,
		"last_dropped", prof->dropped ?
			json_text(prof->last_dropped.reason) :
			json_null(),
		"lost", (json_int_t)prof->lost,
		"throttled", (json_int_t)prof->throttled,
		"base", prof->has_base ?
			json_pack("{s:s, s:s}", "name", row->base->name,
				  "variant", row->base->variant) :
			json_null());
	if (prof->out.status != ST_OK)
		return o;
	profile_ns(row, prof, &ns);
	profile_json_body(o, prof, &ns);
	return o;
}

static void print_counts(const struct row_profile *prof,
			 const struct profile_ns *ns)
{
	__u64 seen = prof->samples[ARM_ROW] + prof->other[ARM_ROW];

	printf("    %llu samples of the workers",
	       (unsigned long long)prof->samples[ARM_ROW]);
	if (!isnan(ns->base))
		printf(" (base %llu)",
		       (unsigned long long)prof->samples[ARM_BASE]);
	printf(" in %d unit(s), other tasks %.1f%% of the busy time", prof->units,
	       seen ? 100.0 * prof->other[ARM_ROW] / seen : 0);
	if (prof->lost)
		printf(", %llu lost", (unsigned long long)prof->lost);
	if (prof->throttled)
		printf(", throttled %llu time(s)",
		       (unsigned long long)prof->throttled);
	printf("\n");
	if (prof->dropped)
		printf("    %d disturbed sample(s) left out, the last: %s\n",
		       prof->dropped, prof->last_dropped.reason);
}

static void print_with_base(const struct row_profile *prof, const int *idx,
			    const struct profile_ns *ns)
{
	double extra, sum;
	int i;

	printf("    %-44s %7s %7s %9s %8s\n", "symbol", "row %", "base %",
	       "extra ns", "of ovh");
	for (i = 0; i < prof->nr_sym && i < PROFILE_TOP; i++) {
		extra = symbol_extra(prof, idx[i], ns);
		printf("    %-44.44s %7.1f %7.1f %+9.1f %7.1f%%\n",
		       prof->sym[idx[i]].name,
		       100 * profile_share(prof, idx[i], ARM_ROW),
		       100 * profile_share(prof, idx[i], ARM_BASE), extra,
		       100 * extra / ns->overhead);
	}
	sum = explained_ns(prof, idx, ns);
	printf("    %-44s %7s %7s %+9.1f %7.1f%%  of %.1f ns overhead\n",
	       "these symbols", "", "", sum, 100 * sum / ns->overhead,
	       ns->overhead);
}

static void print_alone(const struct row_profile *prof, const int *idx,
			const struct profile_ns *ns)
{
	int i;

	printf("    %-44s %7s %9s\n", "symbol", "share %", "ns/event");
	for (i = 0; i < prof->nr_sym && i < PROFILE_TOP; i++)
		printf("    %-44.44s %7.1f %9.1f\n", prof->sym[idx[i]].name,
		       100 * profile_share(prof, idx[i], ARM_ROW),
		       profile_share(prof, idx[i], ARM_ROW) * ns->row);
}

static void print_profile(const struct bench_row *row)
{
	const struct row_profile *prof = row->state->profile;
	char title[192], base[192];
	struct profile_ns ns;
	int *idx;

	format_row_name(row, title, sizeof(title));
	if (prof->out.status != ST_OK) {
		printf("  %s: profile %s: %s\n", title,
		       status_json(prof->out.status), prof->out.reason);
		return;
	}
	profile_ns(row, prof, &ns);
	if (isnan(ns.base)) {
		printf("  %s: %.1f ns/event\n", title, ns.row);
	} else {
		format_row_name(row->base, base, sizeof(base));
		printf("  %s: %.1f ns/event against %s: %.1f\n", title, ns.row,
		       base, ns.base);
	}
	print_counts(prof, &ns);
	idx = ranked(prof, &ns);
	if (!idx)
		return;
	if (isnan(ns.base))
		print_alone(prof, idx, &ns);
	else
		print_with_base(prof, idx, &ns);
	free(idx);
}

/*
 * JITed programs unnamed in kallsyms: their time goes to a neighbour. The
 * kernel lists BPF's symbols with bpf_jit_kallsyms 1 and bpf_jit_harden 0
 * alone (bpf_jit_kallsyms_enabled())
 */
static void print_jit_kallsyms(void)
{
	struct bpf_jit_state j;

	bpf_jit_read(&j);
	if (j.kallsyms == 0 || j.harden > 0)
		printf("net.core.bpf_jit_kallsyms %d, bpf_jit_harden %d: BPF programs have no symbol, their samples go to the symbol before them\n",
		       j.kallsyms, j.harden);
}

void print_profiles(const struct bench_rows *rows)
{
	bool any = false;
	int i;

	for (i = 0; i < rows->nr; i++) {
		if (!rows->row[i].state->profile)
			continue;
		if (!any) {
			printf("\nProfile: the workers' CPUs sampled every %llu µs of CPU time (software clock),\n"
			       "in units of their own, apart from the figures; ns are shares of the figures above\n",
			       PROFILE_PERIOD_NS / 1000);
			print_jit_kallsyms();
			any = true;
		}
		print_profile(&rows->row[i]);
	}
}
