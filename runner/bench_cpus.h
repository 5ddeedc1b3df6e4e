/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lists of CPUs: bench_cpus.c. struct cpu_list and format_cpus(), which
 * a family uses, are in bench.h.
 */
#ifndef __BENCH_CPUS_H
#define __BENCH_CPUS_H

#include <stdbool.h>
#include "bench.h"

/* "0,2-3": each CPU once; -EINVAL, -E2BIG */
int parse_cpu_ranges(const char *s, struct cpu_list *out);
/* "N" (the first N of @allowed) or a list, every CPU in @allowed */
int parse_cpus(const char *s, const struct cpu_list *allowed,
	       struct cpu_list *out);
bool cpu_list_has(const struct cpu_list *cpus, int cpu);
void cpu_list_free(struct cpu_list *cpus);

#endif /* __BENCH_CPUS_H */
