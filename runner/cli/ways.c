// SPDX-License-Identifier: GPL-2.0
/*
 * The ways of running (a run, the family's own, --list, --compare) and
 * the options each takes: an option or positional argument given where
 * it means nothing is refused, naming where it applies; and --list
 * --json's "options". Apart from the parsing (bench_cmdline.c), which
 * hands over what was given and the way it selects.
 */
#include <stdio.h>
#include <string.h>
#include <jansson.h>
#include "cli/cli.h"
#include "core/core.h"

static bool own_way_takes(const struct bench_family *fam, const char *name)
{
	const char *const *n;

	for (n = fam->own_way_takes; n && *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

/* where @g applies: its table's ways, and the own way's for the runner's */
static unsigned int given_ways(const struct bench_family *fam,
			       const struct given *g)
{
	unsigned int ways = g->o->ways;

	if (g->common && own_way_takes(fam, g->o->name))
		ways |= IN_OWN;
	return ways;
}


/*
 * A way's name: "a run" ("run" in JSON), "--memory" (the family's own
 * way's option), "--list", "--list --memory", "--compare"
 */
static const char *way_name(const struct bench_family *fam,
			    enum bench_way way, bool json, char *buf,
			    size_t len)
{
	const struct bench_option *own = find_option(fam, fam->own_way);
	const char *own_name = own ? own->name : "?";

	switch (way) {
	case WAY_RUN:
		snprintf(buf, len, "%s", json ? "run" : "a run");
		break;
	case WAY_OWN:
		snprintf(buf, len, "--%s", own_name);
		break;
	case WAY_LIST:
		snprintf(buf, len, "--list");
		break;
	case WAY_LIST_OWN:
		snprintf(buf, len, "--list --%s", own_name);
		break;
	default:
		snprintf(buf, len, "--compare");
		break;
	}
	return buf;
}

/* the ways of @ways this family has, by name: "a run and --memory" */
static void ways_text(const struct bench_family *fam, unsigned int ways,
		      char *buf, size_t len)
{
	int w, n = 0, nr = 0;
	char name[64];
	size_t off = 0;

	if (!fam->own_way)
		ways &= ~(IN_OWN | IN_LIST_OWN);
	for (w = 0; w < NR_WAYS; w++)
		nr += !!(ways & 1u << w);
	buf[0] = '\0';
	for (w = 0; w < NR_WAYS && off < len; w++) {
		if (!(ways & 1u << w))
			continue;
		n++;
		off += snprintf(buf + off, len - off, "%s%s",
				n == 1 ? "" : n == nr ? " and " : ", ",
				way_name(fam, w, false, name, sizeof(name)));
	}
}

/*
 * The options and positional arguments of @given that mean nothing in
 * @way, the way the command line selects, are refused: one line naming
 * it.
 */
int check_ways(const struct bench_family *fam, enum bench_way way,
	       const struct given *given, int nr)
{
	char where[64], applies[256], name[64];
	const struct given *g;
	unsigned int ways;

	for (g = given; g < given + nr; g++) {
		ways = given_ways(fam, g);
		if (ways & 1u << way)
			continue;
		ways_text(fam, ways, applies, sizeof(applies));
		snprintf(name, sizeof(name), "%s%s", g->as ? "" : "--",
			 g->as ?: g->o->name);
		pr_err("%s does not apply to %s, only to %s", name,
		       way_name(fam, way, false, where, sizeof(where)),
		       applies);
		return -1;
	}
	return 0;
}

json_t *options_json(const struct bench_family *fam)
{
	const struct bench_option *o;
	json_t *a = json_array(), *ways;
	struct given g;
	char name[64];
	int pass, w;

	for (pass = 0; pass < 2; pass++)
		for (o = pass ? common_options : fam->options; o && o->name;
		     o++) {
			g = (struct given){ o, pass, NULL };
			ways = json_array();
			for (w = 0; w < NR_WAYS; w++)
				if ((fam->own_way ||
				     (w != WAY_OWN && w != WAY_LIST_OWN)) &&
				    given_ways(fam, &g) & 1u << w)
					json_array_append_new(ways, json_string(
						way_name(fam, w, true, name,
							 sizeof(name))));
			json_array_append_new(a, json_pack("{s:s, s:o, s:o}",
				"name", o->name,
				"short", o->key < 0x100 ?
					 json_sprintf("%c", o->key) :
					 json_null(),
				"ways", ways));
		}
	return a;
}
