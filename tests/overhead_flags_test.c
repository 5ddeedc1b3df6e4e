// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's test_flags: each mode with a bit pair claims its bit
 * (task_rename) and the next one up (fib_table_lookup), each event with a
 * bit of its own claims that one; no two may claim the same bit. And
 * each id of OVERHEAD_MODES and OVERHEAD_EVENTS has its entry. The tables
 * are the program's own (overhead/modes.c, overhead/events.c, linked in),
 * as is its source, compiled in here, its main() renamed.
 */
#define main test_overhead_main
#include "test_overhead_user.c"
#undef main
#include "tests/flags.h"

int main(void)
{
	struct flag_claim c[2 * NR_MODES + NR_EVENTS];
	const char *mode_names[NR_MODES], *event_names[NR_EVENTS];
	int m, e, nr = 0, failed;

	for (m = 0; m < NR_MODES; m++) {
		if (!modes[m].flag)
			continue;
		c[nr++] = (struct flag_claim){ modes[m].flag << PAIR_LOW,
					       "mode", modes[m].name, "" };
		c[nr++] = (struct flag_claim){ modes[m].flag << PAIR_HIGH,
					       "mode", modes[m].name,
					       " (fib)" };
	}
	for (e = 0; e < NR_EVENTS; e++)
		if (events[e].flag > PAIR_HIGH)
			c[nr++] = (struct flag_claim){ events[e].flag, "event",
						       events[e].trigger.name,
						       "" };
	for (m = 0; m < NR_MODES; m++)
		mode_names[m] = modes[m].name;
	for (e = 0; e < NR_EVENTS; e++)
		event_names[e] = events[e].trigger.name;
	failed = check_named("test_overhead", "mode", mode_names, NR_MODES);
	failed += check_named("test_overhead", "event", event_names,
			      NR_EVENTS);
	failed += check_claims("test_overhead", c, nr);
	return failed ? 1 : 0;
}
