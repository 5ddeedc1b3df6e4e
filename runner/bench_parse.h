/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parsers of numbers and lists: bench_parse.c. Those a family calls
 * (parse_u64(), parse_name_list(), parse_u64_list(), ...) are in bench.h.
 */
#ifndef __BENCH_PARSE_H
#define __BENCH_PARSE_H

#include "bench.h"

/* a decimal fraction in [min, max] */
int parse_double(const char *s, double min, double max, double *out);

#endif /* __BENCH_PARSE_H */
