/* SPDX-License-Identifier: GPL-2.0 */
/* The runner's writers of results and tables: see bench_report.c. */
#ifndef __BENCH_REPORT_H
#define __BENCH_REPORT_H

#include <stdio.h>
#include "bench.h"

/* the --json results file of a run */
int write_results(const struct bench_family *fam,
		  const struct bench_rows *rows, FILE *f);
/* --list's tables as JSON */
int write_list(const struct bench_family *fam, const struct bench_rows *all,
	       FILE *f);

struct json_t;
/* a JSON array of the config options in @needs (NULL-ended), and @extra */
struct json_t *needs_json(const char *const *needs, int nr, const char *extra);
/* --list's tables as text */
void print_list(const struct bench_family *fam, const struct bench_rows *all);
/*
 * The libbpf these binaries run, "1.4", for a run's header; a dynamic
 * build meeting another libbpf than its headers' says both.
 */
const char *libbpf_version_text(void);

#endif /* __BENCH_REPORT_H */
