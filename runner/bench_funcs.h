/* SPDX-License-Identifier: GPL-2.0 */
/* Many kernel functions at once: bench_funcs.c. */
#ifndef __BENCH_FUNCS_H
#define __BENCH_FUNCS_H

#include "bench.h"

/*
 * The first @nr functions of available_filter_functions that are in no
 * module, listed once there and in kallsyms, and not on the kprobe
 * blacklist: what many-function attach modes hook. -errno with @out
 * saying why when there are not enough.
 */
int traceable_functions(int nr, const char ***syms, struct outcome *out);

#endif /* __BENCH_FUNCS_H */
