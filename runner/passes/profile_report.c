// SPDX-License-Identifier: GPL-2.0
/*
 * What --profile says: a row's profile as JSON, and its table after the
 * summary. The samples give shares of time, never a figure: the sampling
 * costs time of its own. A symbol's ns per event is its share of the
 * row's measured ns per event (its units' mean, from samples never
 * profiled), and its extra ns that less its share of the base's: summed
 * over every symbol, the extra ns are the row's overhead. Apart from the
 * taking and naming of the samples (bench_profile_clock.c,
 * bench_profile_ksyms.c): only this file reads the row's figures.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>
#include "passes/passes.h"
#include "kernel/kernel.h"
#include "core/core.h"
#include "rows/rows.h"

/* ---- what it says ---- */

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
