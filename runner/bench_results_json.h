/* SPDX-License-Identifier: GPL-2.0 */
/* The --json results file of a run: bench_results_json.c. */
#ifndef __BENCH_RESULTS_JSON_H
#define __BENCH_RESULTS_JSON_H

#include <stdio.h>
#include "bench.h"

/*
 * the --json results file of a run; @started_ns: when it got the lock,
 * which the context's run_ns counts from (0: null, not known)
 */
int write_results(const struct bench_family *fam,
		  const struct run_settings *rs,
		  const struct bench_rows *rows, __u64 started_ns, FILE *f);
struct json_t;
/* one row's object of that file: --ktap reads its figure there */
struct json_t *row_json(const struct bench_family *fam,
			const struct run_settings *rs,
			const struct bench_rows *rows,
			const struct bench_row *row);
/* a row's parameters as an object, for --list's rows too */
struct json_t *params_json(const struct bench_row *row);

#endif /* __BENCH_RESULTS_JSON_H */
