// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's option values: map sizes, the sweeps' lists and the
 * ring buffers' wake-ups. The options themselves are map_perf_test_user.c's.
 */
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "maps/map_perf.h"

/* "0" keeps every map's size; a list sizes the maps, row by row */
int parse_entries(struct sweep *e, const char *s, const char *what,
		  bool list)
{
	__u64 v;

	if (e->given) {
		pr_err("give the map size once: num_map_entries or -E");
		return -1;
	}
	e->given = true;
	if (!parse_u64(s, 0, 0, &v))
		return 0;	/* 0: keep sizes, as upstream */
	if (!list && !parse_u64(s, 1, MAX_MAP_ENTRIES, &v)) {
		e->v[e->nr++] = v;
		return 0;
	}
	if (list && !parse_u64_list(s, 1, MAX_MAP_ENTRIES, e->v, MAX_SWEEP,
				    &e->nr))
		return 0;
	pr_err("bad %s '%s': %s1 to %u%s", what, printable(s),
	       list ? "a list of sizes from " : "0 (keep each map's size) or ",
	       MAX_MAP_ENTRIES, list ? " (at most 32), or 0 to keep sizes" : "");
	return -1;
}

int parse_sweep(const char *s, const char *what, __u64 min, __u64 max,
		__u64 step, struct sweep *sw)
{
	int i;

	if (sw->given) {
		pr_err("give %s once", what);
		return -1;
	}
	sw->given = true;
	if (parse_u64_list(s, min, max, sw->v, MAX_SWEEP, &sw->nr))
		goto bad;
	for (i = 0; i < sw->nr; i++)
		if (sw->v[i] % step)
			goto bad;
	return 0;
bad:
	pr_err("bad %s '%s': a list of %llu to %llu%s, at most %d values",
	       what, printable(s), min, max,
	       step > 1 ? " in steps of 8" : "", MAX_SWEEP);
	return -1;
}

/* "poll", "every", "adaptive" or N: the order given, each once */
int parse_wakeup(struct sweep *sw, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	__u64 v;
	int i;

	if (!copy || sw->given) {
		pr_err("give --wakeup once");
		free(copy);
		return -1;
	}
	sw->given = true;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "poll"))
			v = WAKEUP_POLL;
		else if (!strcmp(tok, "every"))
			v = WAKEUP_EVERY;
		else if (!strcmp(tok, "adaptive"))
			v = WAKEUP_ADAPTIVE;
		else if (parse_u64(tok, 1, 1u << 20, &v))
			goto bad;
		for (i = 0; i < sw->nr; i++)
			if (sw->v[i] == v)
				goto bad;
		if (sw->nr == MAX_SWEEP)
			goto bad;
		sw->v[sw->nr++] = v;
	}
	if (!sw->nr)
		goto bad;
	free(copy);
	return 0;
bad:
	pr_err("bad --wakeup '%s': a list of every, poll, adaptive or N (1 to 1048576: every Nth record), each once",
	       printable(arg));
	free(copy);
	return -1;
}
