/* SPDX-License-Identifier: GPL-2.0 */
/* The ELF notes of USDT probes: bench_usdt.c. */
#ifndef __BENCH_USDT_H
#define __BENCH_USDT_H

#include <linux/types.h>

/*
 * The USDT probe @provider:@name in the ELF file @path: how many sites it
 * has, the first one's link-time address in @pc. -ENOENT when there is
 * none, -errno when the file cannot be read.
 */
int usdt_note_find(const char *path, const char *provider, const char *name,
		   __u64 *pc, int *nr);

#endif /* __BENCH_USDT_H */
