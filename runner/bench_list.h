/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --list's output: bench_list.c. list_kind(), which a family's list_row
 * calls, is in bench_report.h.
 */
#ifndef __BENCH_LIST_H
#define __BENCH_LIST_H

#include <stdio.h>
#include "bench.h"

/* --list's tables as JSON */
int write_list(const struct bench_family *fam, const struct bench_rows *all,
	       FILE *f);
/* --list's tables as text */
void print_list(const struct bench_family *fam, const struct bench_rows *all);

#endif /* __BENCH_LIST_H */
