/* SPDX-License-Identifier: GPL-2.0 */
/* --ktap's output: bench_ktap.c. */
#ifndef __BENCH_KTAP_H
#define __BENCH_KTAP_H

#include <stdbool.h>
#include <stdio.h>
#include "bench.h"

/*
 * --ktap: KTAP version 1, one test point per row with its figure or
 * reason, and kselftest's "# Totals" line
 */
void write_ktap(const struct bench_family *fam,
		const struct run_settings *rs,
		const struct bench_rows *rows, FILE *f);
/*
 * --ktap of a run that ended before its rows' test points: the whole
 * test skipped ("1..0 # SKIP reason": the machine cannot run it now), or
 * "Bail out! reason" (a failure), as kselftest.h ends a test early
 */
void write_ktap_early(FILE *f, bool skip, const char *reason);

#endif /* __BENCH_KTAP_H */
