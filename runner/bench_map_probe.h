/* SPDX-License-Identifier: GPL-2.0 */
/* Whether this kernel creates a map: bench_map_probe.c. */
#ifndef __BENCH_MAP_PROBE_H
#define __BENCH_MAP_PROBE_H

#include "bench.h"

struct bpf_map;

/* before load: can this kernel create @map as defined (type, flags)? */
int probe_map(struct bpf_map *map, struct outcome *out);

#endif /* __BENCH_MAP_PROBE_H */
