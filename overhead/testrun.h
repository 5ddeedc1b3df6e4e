/* SPDX-License-Identifier: GPL-2.0 */
/* test_overhead's BPF_PROG_TEST_RUN driver (testrun.c) */
#ifndef __OVERHEAD_TESTRUN_H
#define __OVERHEAD_TESTRUN_H

#include <stdbool.h>
#include <linux/types.h>

struct outcome;

/*
 * kernel-batch: BPF_PROG_TEST_RUN of a driver program that calls
 * bpf_get_numa_node_id() KERNEL_BATCH times per run, the programs under
 * test on that function: the syscall's cost is shared by the batch.
 */
#define KERNEL_BATCH 100

int batch_setup(void **state);
void batch_run(void *state, __u64 count);
/* whether the kernel can test-run the driver: asked once, for every row */
bool batch_ok(struct outcome *out);

#endif /* __OVERHEAD_TESTRUN_H */
