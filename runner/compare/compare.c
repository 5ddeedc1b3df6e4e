// SPDX-License-Identifier: GPL-2.0
/*
 * Compares results files: the runs of side A (before) with those of side
 * B (after): the command line's files, the run of a compare, and its
 * method (Documentation/statistics.rst says it whole).
 *
 * A row's units are independent, its samples are not (a row's and its
 * base's move together), so verdicts are drawn from units: for each row
 * identity, the units of the row in every file of a side are pooled, those
 * of one round of one file as one (their mean: they ran close in time and
 * share what the machine did then), and Welch's t-test of B's pool
 * against A's decides, at 1 - COMPARE_ALPHA. Never the delta alone, nor a
 * difference within what runs of one build differ by (--threshold).
 *
 * A row is identified by (name, variant, params), less the params named
 * by --ignore-param; params compare as sorted "key=value" pairs. When an
 * identity appears twice in a file the first row counts and the duplicate
 * is noted. Only an "ok" row with units of a known quantity is pooled;
 * "disturbed" is a run the tool itself distrusts, listed, never pooled.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "core/core.h"
#include "compare/compare.h"

#define FILES_USAGE	"--compare A.json B.json, or --compare A1.json A2.json ... -- B1.json ..."

/* a word that ends --compare's files: an option, but not the "--" */
static bool is_option(const char *s)
{
	return s[0] == '-' && strcmp(s, "--");
}

/* @words, split at their "--" when there is one */
static int split_files(struct compare_args *c, const char **words, int nr)
{
	int i, sep = -1, side = SIDE_A;

	for (i = 0; i < nr; i++) {
		if (strcmp(words[i], "--"))
			continue;
		if (sep >= 0) {
			pr_err("--compare takes one -- between A's files and B's: " FILES_USAGE);
			return -1;
		}
		sep = i;
	}
	if (sep < 0 && nr != 2) {
		pr_err(nr < 2 ? "--compare needs two files: " FILES_USAGE :
		       "--compare with more than two files needs -- between A's and B's: " FILES_USAGE);
		return -1;
	}
	if (sep == 0 || sep == nr - 1) {
		pr_err("--compare needs a file on each side of --: " FILES_USAGE);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		if (i == sep || (sep < 0 && i == 1)) {
			side = SIDE_B;
			if (i == sep)
				continue;
		}
		if (c->nr_files[side] == COMPARE_MAX_FILES) {
			pr_err("--compare takes at most %d files a side",
			       COMPARE_MAX_FILES);
			return -1;
		}
		c->files[side][c->nr_files[side]++] = words[i];
	}
	return 0;
}

int compare_parse_files(struct compare_args *c, const char *first, int argc,
			char **argv, int *next)
{
	const char *words[2 * COMPARE_MAX_FILES + 2];
	int nr = 0;

	if (c->nr_files[SIDE_A]) {
		pr_err("give --compare once: " FILES_USAGE);
		return -1;
	}
	if (is_option(first)) {
		pr_err("--compare needs files, not '%s': " FILES_USAGE,
		       printable(first));
		return -1;
	}
	words[nr++] = first;
	while (*next < argc && !is_option(argv[*next])) {
		if (nr == ARRAY_SIZE(words)) {
			pr_err("--compare takes at most %d files a side",
			       COMPARE_MAX_FILES);
			return -1;
		}
		words[nr++] = argv[(*next)++];
	}
	return split_files(c, words, nr);
}

int compare_parse_ignore(struct compare_args *c, const char *list)
{
	const char *s = list, *comma;
	size_t len;

	do {
		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		if (!len) {
			pr_err("bad --ignore-param '%s': KEY[,KEY...], no key empty",
			       printable(list));
			return -1;
		}
		if (c->nr_ignore == COMPARE_MAX_PARAMS) {
			pr_err("--ignore-param: at most %d keys",
			       COMPARE_MAX_PARAMS);
			return -1;
		}
		/* kept until the program ends, as the command line is */
		c->ignore[c->nr_ignore] = strndup(s, len);
		if (!c->ignore[c->nr_ignore]) {
			pr_err("out of memory");
			return -1;
		}
		c->nr_ignore++;
		s = comma + 1;
	} while (comma);
	return 0;
}

/*
 * Adds @q to @p: the pool of both, as if its mean and spread were taken
 * over all their values (Chan, Golub and LeVeque's pairwise update).
 */
static void pool_add(struct pool *p, const struct pool *q)
{
	double d = q->mean - p->mean;
	int n = p->n + q->n;

	if (!q->n)
		return;
	if (!p->n) {
		*p = *q;
		return;
	}
	p->m2 += q->m2 + d * d * p->n / n * q->n;
	p->mean += d * q->n / n;
	p->n = n;
}

/* ---- sides: every file's rows, by identity ---- */

static int cmp_identity(const struct row *a, const struct row *b)
{
	int d = strcmp(a->name, b->name);

	if (!d)
		d = strcmp(a->variant, b->variant);
	if (!d)
		d = strcmp(a->params, b->params);
	return d;
}

/* by identity, then by file and position: the first of equal rows leads */
static int cmp_side_order(const void *pa, const void *pb)
{
	const struct row *a = *(const struct row *const *)pa;
	const struct row *b = *(const struct row *const *)pb;
	int d = cmp_identity(a, b);

	if (!d)
		d = a->file - b->file;
	return d ? d : a->index - b->index;
}

static void pool_group(struct group *g)
{
	const struct row *r;
	int i;

	for (i = 0; i < g->nr; i++) {
		r = g->rows[i];
		if (!poolable(r))
			continue;
		if (!g->quantity)
			g->quantity = r->quantity;
		else if (strcmp(g->quantity, r->quantity))
			g->mixed = true;
		pool_add(&g->pool, &r->units);
		pool_add(&g->runs, &(struct pool){ .n = 1,
						   .mean = r->units.mean });
		g->nr_pooled++;
		if (!r->has_shares)
			continue;
		pool_add(&g->share_pool, &r->shares);
		pool_add(&g->share_runs, &(struct pool){ .n = 1,
			.mean = r->shares.mean });
		g->nr_shares++;
	}
}

/*
 * Sorts every file's rows by identity: a later row of an identity its
 * file already had is a duplicate, left out; the rows of one identity
 * from the side's files make a group, pooled
 */
int index_side(struct side *s)
{
	struct row *r, *kept = NULL;
	struct group *g = NULL;
	size_t total = 0;
	int i, j, n = 0;

	for (i = 0; i < s->nr_files; i++)
		total += s->files[i].nr;
	s->sorted = calloc(total ? total : 1, sizeof(*s->sorted));
	s->groups = calloc(total ? total : 1, sizeof(*s->groups));
	if (!s->sorted || !s->groups) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < s->nr_files; i++)
		for (j = 0; j < s->files[i].nr; j++)
			s->sorted[n++] = &s->files[i].rows[j];
	qsort(s->sorted, n, sizeof(*s->sorted), cmp_side_order);
	for (i = 0; i < n; i++) {
		r = s->sorted[i];
		if (kept && kept->file == r->file && !cmp_identity(kept, r)) {
			kept->nr_dups++;
			continue;
		}
		if (!g || cmp_identity(g->rows[0], r)) {
			g = &s->groups[s->nr_groups++];
			g->rows = &s->sorted[s->nr_sorted];
		}
		s->sorted[s->nr_sorted++] = r;
		g->nr++;
		kept = r;
	}
	for (i = 0; i < s->nr_groups; i++)
		pool_group(&s->groups[i]);
	return 0;
}

/* what Welch's test reads of a pool: its count, mean and stddev */
static void pool_stats(const struct pool *p, struct sample_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->n = p->n;
	st->mean = p->n ? p->mean : NAN;
	st->stddev = p->n > 1 ? sqrt(p->m2 / (p->n - 1)) : p->n ? 0 : NAN;
	st->min = st->max = st->cv = st->median = st->mad = NAN;
}

/* whether @st's mean and spread are numbers a verdict can rest on */
static bool pool_finite(const struct sample_stats *st)
{
	return isfinite(st->mean) && isfinite(st->stddev);
}

/* why a side's group gives no pool to compare; WHY_NONE when it does */
static enum why side_why(const struct group *g)
{
	const struct row *r = g->rows[0];

	if (g->mixed)
		return WHY_QUANTITY_MIXED;
	if (g->nr_pooled)
		return WHY_NONE;
	if (!r->ok)
		return WHY_NOT_OK;
	return r->quantity && r->units.n ? WHY_UNKNOWN_QUANTITY : WHY_NO_UNITS;
}

/*
 * Half the 95% interval of B's mean less A's, at Welch's degrees of
 * freedom: it excludes zero exactly when p < alpha, the verdict's rule
 */
static double delta_ci(const struct sample_stats *a,
		       const struct sample_stats *b, const struct welch *w,
		       double alpha)
{
	double se = sqrt(a->stddev * a->stddev / a->n +
			 b->stddev * b->stddev / b->n);

	if (!w->decidable)
		return NAN;
	return se > 0 ? student_t_quantile(alpha, w->df) * se : 0;
}

/* @ch from the pools of A and B; no verdict from pools past a double */
static void measure(struct change *ch, const struct pool *a,
		    const struct pool *b)
{
	pool_stats(a, &ch->st_a);
	pool_stats(b, &ch->st_b);
	ch->ci95_a = stats_ci_half(&ch->st_a, COMPARE_ALPHA);
	ch->ci95_b = stats_ci_half(&ch->st_b, COMPARE_ALPHA);
	/* costs: B higher is slower */
	ch->v = stats_verdict(&ch->st_a, &ch->st_b, COMPARE_ALPHA, false, &ch->w);
	if (!pool_finite(&ch->st_a) || !pool_finite(&ch->st_b)) {
		ch->w.decidable = false;
		ch->v = V_NO_CHANGE;
	}
	ch->delta = ch->st_b.mean - ch->st_a.mean;
	ch->delta_ci95 = delta_ci(&ch->st_a, &ch->st_b, &ch->w, COMPARE_ALPHA);
	ch->delta_pct = ch->st_a.mean > 0 ?
			100 * ch->delta / ch->st_a.mean : NAN;
}

/*
 * Runs of one build differ by an offset of each run's own (make repro:
 * the machine's state while it ran), which a run's rounds share: where
 * both sides pool two runs or more, a run is the observation, its rounds'
 * mean, and the runs' spread holds their offsets. A single run a side has
 * only its rounds, and the threshold for the rest.
 */
static void measure_entry(struct entry *e)
{
	e->by_run = e->a->runs.n >= 2 && e->b->runs.n >= 2;
	measure(&e->ns, e->by_run ? &e->a->runs : &e->a->pool,
		e->by_run ? &e->b->runs : &e->b->pool);
}

/*
 * The share of the base's change, from the same observations as the
 * ns': only where every pooled row of both sides had its shares
 */
static void measure_share(struct entry *e)
{
	struct change *sh = &e->share;

	e->has_share = e->a->nr_shares && e->a->nr_shares == e->a->nr_pooled &&
		       e->b->nr_shares && e->b->nr_shares == e->b->nr_pooled;
	if (!e->has_share)
		return;
	measure(sh, e->by_run ? &e->a->share_runs : &e->a->share_pool,
		e->by_run ? &e->b->share_runs : &e->b->share_pool);
	/*
	 * The ns' threshold, base shift and all, of A's share (--threshold
	 * alone gave 15% false verdicts in A/A pairs); and the ns' floor on
	 * the ns' change: a base that moved under a steady overhead moves
	 * its share, not the overhead
	 */
	if (sh->v != V_NO_CHANGE &&
	    (fabs(sh->delta) <= e->threshold_pct / 100 * fabs(sh->st_a.mean) ||
	     !(fabs(e->ns.delta) > COMPARE_FLOOR_NS))) {
		sh->v = V_NO_CHANGE;
		sh->within_threshold = true;
	}
}

/*
 * The threshold a row's change must pass. A run's offset is mostly the
 * machine's speed, which moves every row of the run, and the overheads
 * about twice as much as the bases (statistics.rst, "What the offset
 * is"): between two single runs, a change no larger than SHIFT_WEIGHT
 * times the base rows' median shift is no change either. Pooled runs hold
 * their offsets in their spread; --threshold 0 asks for the test alone.
 */
static double threshold_for(const struct compare *c, const struct entry *e)
{
	double pct = c->args->threshold_pct;

	if (!e->by_run && pct > 0 && c->nr_bases)
		pct += SHIFT_WEIGHT * fabs(c->base_shift_pct);
	return pct;
}

/*
 * An overhead row is judged on its share of its base where both sides
 * have it: the share moves less with the machine's speed, which moves a
 * row and its base alike, at the same sensitivity (statistics.rst, "Why
 * the share"). A base row, and a file written before shares, keep the ns'.
 */
static bool judged_on_share(const struct entry *e)
{
	return e->has_share && !strcmp(e->a->quantity, "overhead_ns");
}

static void decide(struct compare *c, struct entry *e)
{
	double fail_pct = c->args->fail_on_regression;
	const struct change *j;
	double pct;

	e->threshold_pct = threshold_for(c, e);
	/*
	 * Runs of one build differ by more than each one's units can see
	 * (each run's own offset: the machine's state at the time, where
	 * its programs landed): a change within the threshold is none
	 */
	if (e->ns.v != V_NO_CHANGE &&
	    fabs(e->ns.delta) <= fmax(COMPARE_FLOOR_NS,
				      e->threshold_pct / 100 * fabs(e->ns.st_a.mean))) {
		e->ns.v = V_NO_CHANGE;
		e->ns.within_threshold = true;
	}
	measure_share(e);
	e->on_share = judged_on_share(e);
	j = judged(e);
	/* from a cost of zero or less, any significant rise is beyond PCT */
	pct = j->delta_pct;
	e->regression = fail_pct >= 0 && j->v == V_SLOWER &&
			!(pct <= fail_pct);
	c->nr_compared++;
	if (j->w.decidable)
		c->nr_verdicts[j->v]++;
	else
		c->nr_cannot_tell++;
	c->nr_regressions += e->regression;
}

/* why an identity cannot be compared; measured when it can */
static void pair_entry(struct entry *e)
{
	if (!e->a || !e->b) {
		e->why = e->a ? WHY_ONLY_A : WHY_ONLY_B;
		return;
	}
	e->why = side_why(e->a);
	if (!e->why)
		e->why = side_why(e->b);
	if (!e->why && strcmp(e->a->quantity, e->b->quantity))
		e->why = WHY_QUANTITY_DIFFERS;
	if (!e->why)
		measure_entry(e);
}

/*
 * How far the base rows moved from A to B: the machine's speed, which
 * moves the overheads too, or the kernel's own paths
 */
static void find_base_shift(struct compare *c)
{
	const struct entry *e;
	struct sample_stats st;
	double *pct;
	int n = 0;

	pct = calloc(c->nr_entries + 1, sizeof(*pct));
	if (!pct)
		return;
	for (e = c->entries; e < c->entries + c->nr_entries; e++)
		if (e->why == WHY_NONE && !isnan(e->ns.delta_pct) &&
		    !strcmp(e->a->rows[0]->name, "base"))
			pct[n++] = e->ns.delta_pct;
	stats_compute(pct, n, &st);	/* none: NAN */
	c->nr_bases = n;
	c->base_shift_pct = st.median;
	free(pct);
}

/* the order of the output: compared rows first, then as A's files have them */
static void entry_key(const struct entry *e, int key[4])
{
	const struct group *g = e->a ? e->a : e->b;

	key[0] = e->why != WHY_NONE;
	key[1] = !e->a;
	key[2] = g->rows[0]->file;
	key[3] = g->rows[0]->index;
}

static int cmp_entries(const void *pa, const void *pb)
{
	int a[4], b[4], i;

	entry_key(pa, a);
	entry_key(pb, b);
	for (i = 0; i < 4; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* both sides' groups are sorted, so one pass pairs every identity */
int match_sides(struct compare *c)
{
	const struct side *a = &c->side[SIDE_A], *b = &c->side[SIDE_B];
	struct entry *e;
	int i = 0, j = 0, d;

	c->entries = calloc(a->nr_groups + b->nr_groups + 1,
			    sizeof(*c->entries));
	if (!c->entries) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	while (i < a->nr_groups || j < b->nr_groups) {
		e = &c->entries[c->nr_entries++];
		if (i == a->nr_groups)
			d = 1;
		else if (j == b->nr_groups)
			d = -1;
		else
			d = cmp_identity(a->groups[i].rows[0],
					 b->groups[j].rows[0]);
		if (d <= 0)
			e->a = &a->groups[i++];
		if (d >= 0)
			e->b = &b->groups[j++];
		pair_entry(e);
	}
	find_base_shift(c);
	for (e = c->entries; e < c->entries + c->nr_entries; e++)
		if (e->why == WHY_NONE)
			decide(c, e);
	qsort(c->entries, c->nr_entries, sizeof(*c->entries), cmp_entries);
	return 0;
}


static int check_args(const struct compare_args *args)
{
	int i;

	for (i = SIDE_A; i <= SIDE_B; i++)
		if (args->nr_files[i] < 1 ||
		    args->nr_files[i] > COMPARE_MAX_FILES) {
			pr_err("--compare needs 1 to %d files a side",
			       COMPARE_MAX_FILES);
			return -EINVAL;
		}
	if (args->nr_ignore < 0 || args->nr_ignore > COMPARE_MAX_PARAMS) {
		pr_err("--ignore-param: at most %d keys", COMPARE_MAX_PARAMS);
		return -EINVAL;
	}
	return 0;
}

int bench_compare_to(FILE *out, const struct compare_args *args,
		     struct output_file *json)
{
	struct compare *c;
	int ret;

	memset(json, 0, sizeof(*json));
	ret = check_args(args);
	if (ret)
		return ret;
	/* two sides of COMPARE_MAX_FILES files: off the stack */
	c = calloc(1, sizeof(*c));
	if (!c) {
		pr_err("out of memory");
		return -ENOMEM;
	}
	c->args = args;
	ret = load_sides(c);
	if (!ret)
		ret = index_side(&c->side[SIDE_A]);
	if (!ret)
		ret = index_side(&c->side[SIDE_B]);
	if (!ret)
		ret = match_sides(c);
	if (!ret)
		ret = find_context_diffs(c);
	if (!ret && args->json && open_json(out, args->json, json))
		ret = COMPARE_NOT_WRITTEN;
	if (ret)
		goto cleanup;
	if (json->f != out)
		print_compare(out, c);
	/* verdicts that cannot be written are no bad input: 1, not 2 */
	if (json->f && write_json(json, c))
		ret = COMPARE_NOT_WRITTEN;
	else if (c->nr_regressions)
		ret = COMPARE_REGRESSION;
cleanup:
	free_side(&c->side[SIDE_A]);
	free_side(&c->side[SIDE_B]);
	free(c->entries);
	free(c->diffs);
	free(c);
	return ret;
}

int bench_compare(const struct compare_args *args, struct output_file *json)
{
	return bench_compare_to(stdout, args, json);
}
