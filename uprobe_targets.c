// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe targets, each starting with the instruction it is named after.
 * nop and ret are assembly, so no compiler can change their first
 * instruction. push is the frame setup a compiler emits first in a
 * non-leaf function with frame pointers: on x86-64 it is that C function
 * (built with -fno-omit-frame-pointer); on arm64 it is written out, since
 * flags such as -mbranch-protection put a paciasp or bti before the stp.
 * uprobe_target_check() reads each first instruction back, so a build that
 * moved one fails its event instead of measuring something else.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "uprobe_targets.h"

/* what uprobe_push calls, so that it is not a leaf; weak: never inlined */
__attribute__((weak, noinline)) void uprobe_opaque(void)
{
}

#if defined(__x86_64__)

asm(".text\n"
    ".globl uprobe_nop\n.type uprobe_nop, @function\n"
    "uprobe_nop:\n\tnop\n\tret\n.size uprobe_nop, .-uprobe_nop\n"
    ".globl uprobe_ret\n.type uprobe_ret, @function\n"
    "uprobe_ret:\n\tret\n.size uprobe_ret, .-uprobe_ret\n");

/* non-leaf, so the frame pointer stays; weak, so it is never inlined */
__attribute__((weak, noinline)) int uprobe_push(void)
{
	uprobe_opaque();
	return 1;
}

#define INSN_SIZE	1
#define INSN_FMT	"0x%02x"
#define IS_BREAKPOINT(insn)	((insn) == 0xcc)	/* int3 */
static const struct {
	uint32_t insn;
	const char *name;
} expected[NR_UPROBE_TARGETS] = {
	[UPROBE_NOP] = { 0x90, "nop" },
	[UPROBE_PUSH] = { 0x55, "push %rbp" },
	[UPROBE_RET] = { 0xc3, "ret" },
};

#elif defined(__aarch64__)

asm(".text\n"
    ".globl uprobe_nop\n.type uprobe_nop, %function\n.p2align 2\n"
    "uprobe_nop:\n\tnop\n\tret\n.size uprobe_nop, .-uprobe_nop\n"
    ".globl uprobe_ret\n.type uprobe_ret, %function\n.p2align 2\n"
    "uprobe_ret:\n\tret\n.size uprobe_ret, .-uprobe_ret\n"
    /* what gcc -O2 -fno-omit-frame-pointer makes of the x86-64 C version */
    ".globl uprobe_push\n.type uprobe_push, %function\n.p2align 2\n"
    "uprobe_push:\n"
    "\tstp x29, x30, [sp, #-16]!\n"
    "\tmov x29, sp\n"
    "\tbl uprobe_opaque\n"
    "\tmov w0, #1\n"
    "\tldp x29, x30, [sp], #16\n"
    "\tret\n"
    ".size uprobe_push, .-uprobe_push\n");

#define INSN_SIZE	4
#define INSN_FMT	"0x%08x"
/* BRK #imm16, what uprobes (imm 0x005) and kprobes (0x004) write */
#define IS_BREAKPOINT(insn)	(((insn) & 0xffe0001f) == 0xd4200000)
static const struct {
	uint32_t insn;
	const char *name;
} expected[NR_UPROBE_TARGETS] = {
	[UPROBE_NOP] = { 0xd503201f, "nop" },
	[UPROBE_PUSH] = { 0xa9bf7bfd, "stp x29, x30, [sp, #-16]!" },
	[UPROBE_RET] = { 0xd65f03c0, "ret" },
};

#else

/* elsewhere the events are skipped; these only keep the build whole */
void uprobe_nop(void)
{
}

int uprobe_push(void)
{
	uprobe_opaque();
	return 1;
}

void uprobe_ret(void)
{
}

#endif

static const char *const target_names[NR_UPROBE_TARGETS] = {
	[UPROBE_NOP] = "uprobe_nop",
	[UPROBE_PUSH] = "uprobe_push",
	[UPROBE_RET] = "uprobe_ret",
};

enum uprobe_target_state uprobe_target_check(int which, char *why, size_t len)
{
	const void *func;
	uint32_t first = 0;

	switch (which) {
	case UPROBE_NOP:
		func = (const void *)uprobe_nop;
		break;
	case UPROBE_PUSH:
		func = (const void *)uprobe_push;
		break;
	case UPROBE_RET:
		func = (const void *)uprobe_ret;
		break;
	default:
		snprintf(why, len, "no uprobe target %d", which);
		return UPROBE_TARGET_NONE;
	}
#ifdef INSN_SIZE
	/* little-endian both: the low bytes hold x86's one-byte opcode */
	memcpy(&first, func, INSN_SIZE);
	if (first == expected[which].insn)
		return UPROBE_TARGET_OK;
	if (IS_BREAKPOINT(first)) {
		snprintf(why, len,
			 "%s starts with a breakpoint (" INSN_FMT "): another uprobe is attached here",
			 target_names[which], first);
		return UPROBE_TARGET_BUSY;
	}
	snprintf(why, len,
		 "%s starts with " INSN_FMT ", not %s (" INSN_FMT "): check the build flags",
		 target_names[which], first, expected[which].name,
		 expected[which].insn);
	return UPROBE_TARGET_WRONG;
#else
	(void)func;
	(void)first;
	snprintf(why, len, "%s: uprobe targets exist on x86-64 and arm64 only",
		 target_names[which]);
	return UPROBE_TARGET_NONE;
#endif
}
