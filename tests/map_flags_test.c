// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's test_flags: test t is selected by bit 1 << t, as
 * upstream numbers them, so every entry of tests[] must be there (no
 * hole in the table) and fit in the 64 bits. The table is the program's
 * own (maps/tests.c, linked in), as is its source, compiled in here, its
 * main() renamed.
 */
#define main map_perf_test_main
#include "map_perf_test_user.c"
#undef main
#include "tests/flags.h"

int main(void)
{
	struct flag_claim c[NR_TESTS];
	const char *names[NR_TESTS];
	int t, failed;

	for (t = 0; t < NR_TESTS; t++) {
		c[t] = (struct flag_claim){ t < 64 ? 1ull << t : 0, "test",
					    tests[t].name ?: "(none)", "" };
		names[t] = tests[t].name;
	}
	failed = check_named("map_perf_test", "test", names, NR_TESTS);
	failed += check_claims("map_perf_test", c, NR_TESTS);
	return failed ? 1 : 0;
}
