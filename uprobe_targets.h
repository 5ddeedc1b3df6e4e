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
 * Elsewhere they exist only to keep the build whole, and
 * uprobe_target_check() says UPROBE_TARGET_NONE.
 */
#ifndef __UPROBE_TARGETS_H
#define __UPROBE_TARGETS_H

#include <stdbool.h>
#include <stddef.h>

enum uprobe_target {
	UPROBE_NOP,
	UPROBE_PUSH,
	UPROBE_RET,
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

/*
 * Compares the first instruction of target @which with the one it is named
 * after; unless it is that one, says why in @why (@len bytes).
 */
enum uprobe_target_state uprobe_target_check(int which, char *why, size_t len);

static inline bool uprobe_target_ok(int which, char *why, size_t len)
{
	return uprobe_target_check(which, why, len) == UPROBE_TARGET_OK;
}

#endif /* __UPROBE_TARGETS_H */
