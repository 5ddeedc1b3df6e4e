/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's BPF run-time stats, for --prog-stats: bench_prog_stats.c. */
#ifndef __BENCH_PROG_STATS_H
#define __BENCH_PROG_STATS_H

#include "bench.h"

/* on while the returned fd is open; never through the sysctl */
int prog_stats_enable(struct outcome *out);
int prog_run_totals(int fd, __u64 *run_time_ns, __u64 *run_cnt);
/* the stats' own clock reads per run, measured on an empty program */
int prog_stats_clock_cost(double *ns);

#endif /* __BENCH_PROG_STATS_H */
