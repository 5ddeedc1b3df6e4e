// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's triggers: the loops every worker repeats an event in,
 * one call a pass: every kernel event's but those whose trigger is a
 * job of its own (fib_table_lookup's, in fib.c; kernel-batch's, in
 * testrun.c), and the uprobe and USDT events' calls of their copies, a
 * loop per copy (copy_triggers).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>
#include "bench.h"
#include "rename_names.h"
#include "triggers.h"
#ifdef HAVE_SDT
#include <sys/sdt.h>
#endif

void rename_run(void *state, __u64 count)
{
	static const char names[2][16] = RENAME_NAMES;
	__u64 i;

	for (i = 0; i < count; i++)
		prctl(PR_SET_NAME, names[i & 1]);
}

void getpgid_run(void *state, __u64 count)
{
	__u64 i;

	for (i = 0; i < count; i++)
		getpgid(0);
}

int urandom_setup(void **state)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	*state = (void *)(long)fd;
	return 0;
}

void urandom_run(void *state, __u64 count)
{
	int fd = (long)state;
	char buf[4];
	__u64 i;

	for (i = 0; i < count; i++)
		(void)!read(fd, buf, sizeof(buf));
}

/*
 * signal_generate: kill(2) of SIGURG, which the worker ignores, to itself:
 * the kernel checks the permission, generates the signal, fires
 * signal:signal_generate, and drops it. No handler runs, nothing stays
 * pending.
 */
int kill_setup(void **state)
{
	*state = (void *)(long)getpid();
	return 0;
}

void kill_run(void *state, __u64 count)
{
	pid_t self = (long)state;
	__u64 i;

	for (i = 0; i < count; i++)
		kill(self, SIGURG);
}

#define CALL_LOOP(name)							\
void name##_run(void *state, __u64 count)				\
{									\
	__u64 i;							\
									\
	for (i = 0; i < count; i++)					\
		name();							\
}

/*
 * usdt-nop: a USDT probe point of this program. The probe site is a nop
 * with an ELF note naming it; base runs the bare site, usdt the uprobe
 * libbpf puts there. Like the uprobe targets it comes in copies, one
 * site each: test_overhead:nop, nop_1, ... and nop_base.
 */
#ifdef HAVE_SDT
#define USDT_LOOP(sfx)							\
void usdt_nop##sfx##_run(void *state, __u64 count)			\
{									\
	__u64 i;							\
									\
	for (i = 0; i < count; i++)					\
		STAP_PROBE(test_overhead, nop##sfx);			\
}
#else
#define USDT_LOOP(sfx)							\
void usdt_nop##sfx##_run(void *state, __u64 count)			\
{									\
}
#endif

#define COPY_LOOPS(k, sfx)						\
	CALL_LOOP(uprobe_nop##sfx)					\
	CALL_LOOP(uprobe_push##sfx)					\
	CALL_LOOP(uprobe_ret##sfx)					\
	USDT_LOOP(sfx)
UPROBE_FOR_EACH_COPY(COPY_LOOPS)

#define COPY_TRIGGERS(k, sfx)						\
	[k] = {								\
		[COPIED_NOP] = { .name = "uprobe-nop",			\
				 .run = uprobe_nop##sfx##_run },	\
		[COPIED_PUSH] = { .name = "uprobe-push",		\
				  .run = uprobe_push##sfx##_run },	\
		[COPIED_RET] = { .name = "uprobe-ret",			\
				 .run = uprobe_ret##sfx##_run },	\
		[COPIED_USDT] = { .name = "usdt-nop",			\
				  .run = usdt_nop##sfx##_run },		\
	},
const struct trigger copy_triggers[UPROBE_COPIES + 1][NR_COPIED] = {
	UPROBE_FOR_EACH_COPY(COPY_TRIGGERS)
};

/* a copy's symbol, or USDT probe name: "uprobe_nop_3", "nop_3", "nop_base" */
const char *copy_name(enum copied_event ev, int copy, char *buf,
		      size_t len)
{
	if (ev != COPIED_USDT)
		return uprobe_target_name((int)ev, copy, buf, len);
	if (copy == UPROBE_BASE_COPY)
		snprintf(buf, len, "nop_base");
	else if (copy)
		snprintf(buf, len, "nop_%d", copy);
	else
		snprintf(buf, len, "nop");
	return buf;
}
