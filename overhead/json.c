// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's part of the results file (--json) and of --list
 * --json: the run's context, each row's own fields.
 */
#include <math.h>
#include <jansson.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "overhead.h"

void json_context(const struct run_settings *rs, json_t *ctx)
{
	const struct overhead_ctx *oc = overhead_ctx(rs);

	json_object_set_new(ctx, "body",
			    json_string(body_names[oc->opt.body]));
	json_object_set_new(ctx, "fib_lookups_per_datagram",
			    oc->fib.lookups ? json_integer(oc->fib.lookups) :
			    json_null());
}

/* the group's fit, the same in each of its rows with a figure: null without one */
static json_t *fit_json(const struct bench_rows *rows,
			const struct bench_row *row)
{
	struct line_fit fit;
	json_t *o;
	int nr;

	if (progs_fit(rows, row, &fit, &nr))
		return json_null();
	o = json_object();
	json_object_set_new(o, "value", json_number(fit.slope));
	json_object_set_new(o, "uncertainty", json_number(fit.slope_unc));
	json_object_set_new(o, "points", json_integer(fit.n));
	return o;
}

void json_row(const struct bench_rows *rows, const struct bench_row *row,
	      json_t *o)
{
	const struct overhead_row *r = row->priv;
	double attach = row_attach_median(row);
	json_t *units;

	json_object_set_new(o, "hooked", r->hooked ? json_string(r->hooked) :
			    json_null());
	/*
	 * A bare call's few ns make a percentage meaningless: its units'
	 * shares too, or --compare would judge the row on them (a base of
	 * 1.5 ns that ran 0.2 ns faster made an unchanged uprobe 16% "slower")
	 */
	if (r->ev->base_is_call) {
		json_object_set_new(o, "overhead_pct", json_null());
		json_object_set_new(o, "overhead_share", json_null());
		units = json_object_get(o, "units");
		if (json_is_object(units))
			json_object_set_new(units, "shares", json_null());
	}
	/* figures: of a row that has one */
	if (row_param(row, "progs"))
		json_object_set_new(o, "marginal_ns_per_prog",
				    row_has_figure(row) ? fit_json(rows, row) :
				    json_null());
	if (r->nr_funcs) {
		json_object_set_new(o, "functions", json_integer(r->nr_funcs));
		json_object_set_new(o, "attach_ns_per_function",
				    row_has_figure(row) ?
				    json_number(attach / r->nr_funcs) :
				    json_null());
		/* the events only proved the attachment: no event cost */
		json_object_set_new(o, "overhead_ns", json_null());
		json_object_set_new(o, "overhead_pct", json_null());
		json_object_set_new(o, "overhead_share", json_null());
		/* its attach and detach are its figures */
		if (!row_has_figure(row)) {
			json_object_set_new(o, "attach_ns", json_null());
			json_object_set_new(o, "detach_ns", json_null());
		}
	}
}

void list_row(const struct bench_row *row, json_t *o)
{
	const struct overhead_row *r = row->priv;
	const struct attach_kind *kind = r->mode->kind;
	size_t off = r->ev->prog[r->mode - modes] ?: r->mode->count_prog;
	void *skel;

	json_object_set_new(o, "flag", json_integer(flag_of(r->mode, r->ev)));
	json_object_set_new(o, "header", json_string(r->mode->header));
	json_object_set_new(o, "upstream", json_boolean(upstream_row(r)));
	if (!kind)
		return;
	/* fmod_ret may change an LSM hook or an injectable function */
	list_kind(o, kind, kind != &kind_fmod_ret ? NULL :
		  r->ev->target.lsm_hook ? "SECURITY" :
		  "FUNCTION_ERROR_INJECTION");
	if (r->ev->tp_may_lack && kind->tracepoint)
		json_object_set_new(o, "may_lack", json_string(r->ev->tp_may_lack));
	/* opening needs no privileges: it only reads the ELF */
	skel = r->mode->skel->open();
	if (!skel)
		return;
	json_object_set_new(o, "program",
			    json_string(bpf_program__name(skel_prog(skel, off))));
	r->mode->skel->destroy(skel);
}
