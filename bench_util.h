/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers the runner, both programs and the unit tests share, kept
 * out of bench.h: nothing here is part of the family API.
 */
#ifndef __BENCH_UTIL_H
#define __BENCH_UTIL_H

/* elements in the array @a (an array, never a pointer) */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* __BENCH_UTIL_H */
