// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's probe of what test_overhead's count is made of
 * (tools/count_cost.c): the count itself, overhead_kern.h's, beside
 * programs that each do one part of it, on raw_tp task_rename. None of
 * them counts a hit but the count: the probe's user side checks it.
 */
#include "overhead_kern.h"

/* what every program pays: nothing of the count */
SEC("?raw_tp")
int empty(void *ctx)
{
	return 0;
}

/* the count's helper calls alone: its CPU, its task; no memory */
SEC("?raw_tp")
int helpers(void *ctx)
{
	__u32 cpu = bpf_get_smp_processor_id();

	/* never true (no task 0 renames itself): the calls stay */
	if ((bpf_get_current_pid_tgid() >> 32) == 0 && cpu == 0)
		slots[0].seen++;
	return 0;
}

/*
 * what every program does besides its count: its configuration read
 * from the CPU's slot, the line's first touch in the event
 */
SEC("?raw_tp")
int configured(void *ctx)
{
	/* never true: the probe runs --body count */
	if (reads(false))
		slots[0].seen++;
	return 0;
}

/* a program of test_overhead's, raw_tp_rename: its configuration, then
 * the count */
SEC("?raw_tp")
int count(void *ctx)
{
	if (reads(false))
		slots[0].seen++;
	count_hit();
	return 0;
}
