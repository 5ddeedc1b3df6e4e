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
 * Each comes in UPROBE_COPIES copies, the same code at other addresses
 * (uprobe_nop, uprobe_nop_1, ...), so that each row hooks a copy of its
 * own and its uprobe may stay on it through the whole run; and in a
 * twin, uprobe_nop_base, that nothing hooks, which its base calls.
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
	NR_UPROBE_TARGETS,
};

/* copies of each target; copy UPROBE_BASE_COPY is the base's twin */
#define UPROBE_COPIES		16
#define UPROBE_BASE_COPY	UPROBE_COPIES

/* X(copy, suffix) for each copy and the twin: "", _1 ... _15, _base */
#define UPROBE_FOR_EACH_COPY(X)						\
	X(0, ) X(1, _1) X(2, _2) X(3, _3) X(4, _4) X(5, _5) X(6, _6)	\
	X(7, _7) X(8, _8) X(9, _9) X(10, _10) X(11, _11) X(12, _12)	\
	X(13, _13) X(14, _14) X(15, _15) X(UPROBE_BASE_COPY, _base)

enum uprobe_target_state {
	UPROBE_TARGET_OK,
	UPROBE_TARGET_BUSY,	/* a breakpoint: another uprobe is attached */
	UPROBE_TARGET_WRONG,	/* another instruction: the build moved it */
	UPROBE_TARGET_NONE,	/* no targets for this architecture */
};

#define UPROBE_DECLARE_COPY(k, sfx)					\
	void uprobe_nop##sfx(void);					\
	int uprobe_push##sfx(void);					\
	void uprobe_ret##sfx(void);
UPROBE_FOR_EACH_COPY(UPROBE_DECLARE_COPY)

/* copy @copy of target @which, or its twin (UPROBE_BASE_COPY); NULL: none */
void (*uprobe_target_func(int which, int copy))(void);
/* its symbol: "uprobe_nop", "uprobe_nop_3", "uprobe_nop_base" */
const char *uprobe_target_name(int which, int copy, char *buf, size_t len);

/*
 * Compares the first instruction of copy @copy of target @which with the
 * one it is named after; unless it is that one, says why in @why (@len
 * bytes).
 */
enum uprobe_target_state uprobe_target_check(int which, int copy, char *why,
					     size_t len);

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
