/* SPDX-License-Identifier: GPL-2.0 */
/* test_overhead's checks of the uprobe targets and USDT sites (uprobe_sites.c) */
#ifndef __OVERHEAD_UPROBE_SITES_H
#define __OVERHEAD_UPROBE_SITES_H

#include <stdbool.h>
#include "triggers.h"

struct outcome;

/*
 * Whether copy @copy of @ev's function or probe site, and the twin its
 * base calls, can be hooked: false with @out saying why (skipped for
 * another's uprobe there, failed for a wrong instruction)
 */
bool copies_ok(enum copied_event ev, int copy, struct outcome *out);

#endif /* __OVERHEAD_UPROBE_SITES_H */
