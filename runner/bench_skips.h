/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Skipped rows by reason: bench_skips.c. The groups a family's summary
 * uses (skip_groups(), print_skip_groups(), ...) are in bench.h.
 */
#ifndef __BENCH_SKIPS_H
#define __BENCH_SKIPS_H

#include <stddef.h>

/* @reason without @mode's name where it names it: the group's key */
void skip_reason(const char *reason, const char *mode, char *buf,
		 size_t len);

#endif /* __BENCH_SKIPS_H */
