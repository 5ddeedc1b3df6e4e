/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User functions for uprobes to hook, each starting with the instruction it
 * is named after, for x86-64 and arm64: the kernel emulates, simulates or
 * single-steps each kind differently.
 *
 *   uprobe_nop   nop; ret
 *   uprobe_push  the frame setup of a non-leaf function with frame pointers:
 *                push %rbp (x86-64), stp x29, x30, [sp, #-16]! (arm64)
 *   uprobe_ret   ret
 *
 * Each has a twin, uprobe_nop_base and so on, the same code at another
 * address, that no uprobe hooks: a base sample calls it while the row's
 * uprobe stays on the other, so that the row's programs need not be
 * detached for every base sample (see struct bench_row's base_unhooked).
 *
 * Elsewhere they exist only to keep the build whole, and
 * uprobe_target_check() says UPROBE_TARGET_NONE.
 */
#ifndef __UPROBE_TARGETS_H
#define __UPROBE_TARGETS_H

#include <stddef.h>

enum uprobe_target {
	UPROBE_NOP,
	UPROBE_PUSH,
	UPROBE_RET,
	UPROBE_NOP_BASE,
	UPROBE_PUSH_BASE,
	UPROBE_RET_BASE,
	NR_UPROBE_TARGETS,
};

enum uprobe_target_state {
	UPROBE_TARGET_OK,
	UPROBE_TARGET_BUSY,	/* a breakpoint: another uprobe is attached */
	UPROBE_TARGET_WRONG,	/* another instruction: the build moved it */
	UPROBE_TARGET_NONE,	/* no targets for this architecture */
};

void uprobe_nop(void);
int uprobe_push(void);
void uprobe_ret(void);
void uprobe_nop_base(void);
int uprobe_push_base(void);
void uprobe_ret_base(void);

/*
 * Compares the first instruction of target @which with the one it is named
 * after; unless it is that one, says why in @why (@len bytes).
 */
enum uprobe_target_state uprobe_target_check(int which, char *why, size_t len);

/* the most bytes a nop takes: x86-64's longest instruction */
#define NOP_MAX_BYTES	15

/*
 * Whether the code at @site, of which @size bytes may be read, starts
 * with a nop, as a USDT probe site must: on x86-64 0x90 or one of the
 * longer forms (0x66 and 0x2e prefixes, 0f 1f /0), on arm64 0xd503201f.
 * Unless it does, says why in @why (@len bytes), naming the site @what;
 * a breakpoint there is another uprobe (UPROBE_TARGET_BUSY).
 */
enum uprobe_target_state uprobe_nop_check(const void *site, size_t size,
					  const char *what, char *why,
					  size_t len);

#endif /* __UPROBE_TARGETS_H */
