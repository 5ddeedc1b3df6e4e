// SPDX-License-Identifier: GPL-2.0
/*
 * A results row's numbers checked: the bounds of its arrays, and of an ok
 * row's units each value, round and share, before any is pooled (the
 * limits at the top of compare_read.c). Apart from the reading of the
 * row's strings (compare_rows.c) because a verdict rests on these
 * numbers alone: what lets one in is here, in one place.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "compare/compare.h"

/* one results[] entry's complaint: the row, and what is wrong with it */
int row_error(const struct bench_file *f, const struct row *r,
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
int check_bound(const struct bench_file *f, const struct row *r,
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
 * An overhead row's units' shares of their bases, in %, one per value:
 * pooled as the values are. None (a row without a base, a file written
 * before them, a base that is a bare call) is no error: no share to
 * compare. A share is the ratio of two figures within UNIT_MAX_NS, and
 * no base that measured anything is below 1e-3 ns: within UNIT_MAX_NS
 * times 1e5.
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
int row_units(const struct bench_file *f, struct row *r,
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
