/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_overhead's triggers (triggers.c): what the events' table points
 * at, and the copies of the uprobe and USDT events' functions and sites.
 */
#ifndef __OVERHEAD_TRIGGERS_H
#define __OVERHEAD_TRIGGERS_H

#include <stddef.h>
#include <linux/types.h>
#include "bench.h"
#include "uprobe_targets.h"

/* the USDT probe sites are there only with <sys/sdt.h> */
#if __has_include(<sys/sdt.h>)
#define HAVE_SDT 1
#endif

void rename_run(void *state, __u64 count);
void getpgid_run(void *state, __u64 count);
int urandom_setup(void **state);
void urandom_run(void *state, __u64 count);
int kill_setup(void **state);
void kill_run(void *state, __u64 count);

/* each copy's loops: uprobe_nop_run, uprobe_nop_1_run, ... usdt_nop_base_run */
#define COPY_LOOPS_DECLARE(k, sfx)					\
	void uprobe_nop##sfx##_run(void *state, __u64 count);		\
	void uprobe_push##sfx##_run(void *state, __u64 count);		\
	void uprobe_ret##sfx##_run(void *state, __u64 count);		\
	void usdt_nop##sfx##_run(void *state, __u64 count);
UPROBE_FOR_EACH_COPY(COPY_LOOPS_DECLARE)

/*
 * The events whose function (or probe site) comes in copies: each row
 * makes its calls to a copy of its own, so that its programs may stay
 * attached through the run and fire for no other row's events, and its
 * base calls the twin, which nothing hooks.
 */
enum copied_event {
	COPIED_NOP = UPROBE_NOP,
	COPIED_PUSH = UPROBE_PUSH,
	COPIED_RET = UPROBE_RET,
	COPIED_USDT = NR_UPROBE_TARGETS,
	NR_COPIED
};

/* each copy's triggers, by copy and event; the twin's last */
extern const struct trigger copy_triggers[UPROBE_COPIES + 1][NR_COPIED];

/* a copy's symbol, or USDT probe name: "uprobe_nop_3", "nop_3", "nop_base" */
const char *copy_name(enum copied_event ev, int copy, char *buf,
		      size_t len);

#endif /* __OVERHEAD_TRIGGERS_H */
