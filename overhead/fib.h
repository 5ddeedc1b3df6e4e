/* SPDX-License-Identifier: GPL-2.0 */
/* test_overhead's fib_table_lookup event (fib.c) */
#ifndef __OVERHEAD_FIB_H
#define __OVERHEAD_FIB_H

#include <linux/types.h>

struct cpu_list;
struct outcome;
struct overhead_event;
struct run_settings;

/* once per run, in the parent: the network namespace of the run's own */
void fib_prepare(void);
/* a worker's receiver, filled, and its sender */
int fib_setup(void **state);
void fib_run(void *state, __u64 count);

/*
 * How many fib_table_lookup calls one datagram makes on this kernel,
 * counted on the first of @row's CPUs, once a run: into the run's
 * struct fib_count (overhead.h)
 */
int count_fib_lookups(const struct run_settings *rs,
		      const struct bench_row *row,
		      const struct overhead_event *ev, struct outcome *out);

#endif /* __OVERHEAD_FIB_H */
