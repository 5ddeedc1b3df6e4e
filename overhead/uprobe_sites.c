// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's site checks: a copied event's row runs only when its
 * copy of the uprobe target, or of the USDT probe site, and the twin its
 * base calls are as built and hooked by nobody else.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "uprobe_sites.h"

/*
 * The uprobe events' targets (uprobe_targets.c) and the USDT probe site:
 * before each row the first instruction is checked. A breakpoint there is
 * another tool's uprobe, which would also fire: skipped. Any other wrong
 * instruction is the build's fault.
 *
 * A breakpoint may still be one of ours for a moment: a detached uprobe's
 * perf event is released, and its breakpoint removed, when the last
 * reference to its file goes, and whoever read our /proc/PID/fd just then
 * (lsof, bpftool, the tests' watcher) may drop that reference after our
 * close() returned: measured, 20 to 40 ms later under load. So a
 * breakpoint is looked at again for up to a second before it is another's.
 */
#define TARGET_BUSY_TRIES	50
#define TARGET_BUSY_WAIT_US	20000

static bool target_state_ok(enum uprobe_target_state state, const char *why,
			    struct outcome *out)
{
	switch (state) {
	case UPROBE_TARGET_OK:
		return true;
	case UPROBE_TARGET_WRONG:
		outcome_set(out, ST_FAILED, "%s", why);
		break;
	default:
		outcome_set(out, ST_SKIPPED, "%s", why);
	}
	return false;
}

/* @check(@arg), looked at again while a breakpoint is there (see above) */
static bool free_of_breakpoints(enum uprobe_target_state (*check)(const void *arg,
								 char *why,
								 size_t len),
				const void *arg, struct outcome *out)
{
	enum uprobe_target_state st;
	char why[160];
	int tries = 0;

	while ((st = check(arg, why, sizeof(why))) == UPROBE_TARGET_BUSY &&
	       ++tries < TARGET_BUSY_TRIES)
		usleep(TARGET_BUSY_WAIT_US);
	return target_state_ok(st, why, out);
}

/* @arg: the target and its copy */
static enum uprobe_target_state target_check(const void *arg, char *why,
					     size_t len)
{
	const int *t = arg;

	return uprobe_target_check(t[0], t[1], why, len);
}

static bool target_ok(int which, int copy, struct outcome *out)
{
	int arg[2] = { which, copy };

	return free_of_breakpoints(target_check, arg, out);
}
/* the main program's load bias: a PIE's note holds link-time addresses */
static int main_bias(struct dl_phdr_info *info, size_t size, void *data)
{
	*(ElfW(Addr) *)data = info->dlpi_addr;
	return 1;	/* the first object is the program itself */
}

/*
 * The probe's note must be in the binary, its site still a nop: a
 * breakpoint there is another uprobe, which would fire too (skipped);
 * anything else, a build or an address gone wrong (failed).
 */
#ifdef HAVE_SDT
/* the site is inside its run function: the bytes after it are code too */
static enum uprobe_target_state usdt_site_check(const void *site, char *why,
						size_t len)
{
	return uprobe_nop_check(site, NOP_MAX_BYTES,
				"a USDT probe site of test_overhead", why, len);
}
#endif

#ifdef HAVE_SDT
/* the note of test_overhead:@name in this program, its site a nop */
static bool usdt_site_ok(const char *name, struct outcome *out)
{
	ElfW(Addr) bias = 0;
	__u64 pc;
	int nr, err;

	err = usdt_note_find(SELF_EXE, "test_overhead", name, &pc, &nr);
	if (err == -EACCES || err == -EPERM) {
		/* an executable without read: nothing can place a USDT probe */
		outcome_set(out, ST_SKIPPED,
			    "this program's own file cannot be read (%s: %s): libbpf reads its USDT note",
			    SELF_EXE, strerror(-err));
		return false;
	}
	if (err) {
		outcome_set(out, ST_FAILED,
			    "no USDT note test_overhead:%s in this program's file (%s): %s",
			    name, SELF_EXE, strerror(-err));
		return false;
	}
	dl_iterate_phdr(main_bias, &bias);
	return free_of_breakpoints(usdt_site_check,
				   (const void *)(uintptr_t)(pc + bias), out);
}
#endif

/* the USDT site of @copy; false with @out saying why when it is unfit */
static bool usdt_copy_ok(int copy, struct outcome *out)
{
#ifdef HAVE_SDT
	char name[32];

	return usdt_site_ok(copy_name(COPIED_USDT, copy, name, sizeof(name)),
			    out);
#else
	outcome_set(out, ST_SKIPPED,
		    "built without <sys/sdt.h> (systemtap-sdt-dev): no USDT probe here");
	return false;
#endif
}

/*
 * The row's copy of the function or site, and the twin its base calls:
 * another's uprobe on either would fire too (skipped), a wrong first
 * instruction is the build's (failed)
 */
bool copies_ok(enum copied_event ev, int copy, struct outcome *out)
{
	if (ev == COPIED_USDT)
		return usdt_copy_ok(copy, out) &&
		       usdt_copy_ok(UPROBE_BASE_COPY, out);
	return target_ok((int)ev, copy, out) &&
	       target_ok((int)ev, UPROBE_BASE_COPY, out);
}
