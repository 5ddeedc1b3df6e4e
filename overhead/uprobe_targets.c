// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe targets, each starting with the instruction it is named after.
 * nop and ret are assembly, so no compiler can change their first
 * instruction. push is the frame setup a compiler emits first in a
 * non-leaf function with frame pointers: on x86-64 it is that C function
 * (built with -fno-omit-frame-pointer); on arm64 it is written out, since
 * flags such as -mbranch-protection put a paciasp or bti before the stp.
 * uprobe_target_check() reads each first instruction back, so a build that
 * moved one fails its event instead of measuring something else;
 * uprobe_nop_check() does the same for a USDT probe site, a nop.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "uprobe_targets.h"

/* what uprobe_push calls, so that it is not a leaf; weak: never inlined */
__attribute__((weak, noinline)) void uprobe_opaque(void)
{
}

#if defined(__x86_64__)

/* each on a 16-byte line of its own: every copy alike */
#define X86_FUNC(name, body)						\
	".globl " #name "\n.type " #name ", @function\n.p2align 4\n"	\
	#name ":\n" body ".size " #name ", .-" #name "\n"
#define X86_COPY(k, sfx)						\
	X86_FUNC(uprobe_nop##sfx, "\tnop\n\tret\n")			\
	X86_FUNC(uprobe_ret##sfx, "\tret\n")

asm(".text\n" UPROBE_FOR_EACH_COPY(X86_COPY));

/* non-leaf, so the frame pointer stays; weak, so it is never inlined */
#define PUSH_COPY(k, sfx)						\
__attribute__((weak, noinline)) int uprobe_push##sfx(void)		\
{									\
	uprobe_opaque();						\
	return 1;							\
}
UPROBE_FOR_EACH_COPY(PUSH_COPY)

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

#define ARM64_FUNC(name, body)						\
	".globl " #name "\n.type " #name ", %function\n.p2align 4\n"	\
	#name ":\n" body ".size " #name ", .-" #name "\n"
/* what gcc -O2 -fno-omit-frame-pointer makes of the x86-64 C version */
#define ARM64_PUSH_BODY							\
	"\tstp x29, x30, [sp, #-16]!\n"					\
	"\tmov x29, sp\n"						\
	"\tbl uprobe_opaque\n"						\
	"\tmov w0, #1\n"						\
	"\tldp x29, x30, [sp], #16\n"					\
	"\tret\n"
#define ARM64_COPY(k, sfx)						\
	ARM64_FUNC(uprobe_nop##sfx, "\tnop\n\tret\n")			\
	ARM64_FUNC(uprobe_ret##sfx, "\tret\n")				\
	ARM64_FUNC(uprobe_push##sfx, ARM64_PUSH_BODY)

asm(".text\n" UPROBE_FOR_EACH_COPY(ARM64_COPY));

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
#define PLAIN_COPY(k, sfx)						\
void uprobe_nop##sfx(void)						\
{									\
}									\
int uprobe_push##sfx(void)						\
{									\
	uprobe_opaque();						\
	return 1;							\
}									\
void uprobe_ret##sfx(void)						\
{									\
}
UPROBE_FOR_EACH_COPY(PLAIN_COPY)

#endif

static const char *const target_names[NR_UPROBE_TARGETS] = {
	[UPROBE_NOP] = "uprobe_nop",
	[UPROBE_PUSH] = "uprobe_push",
	[UPROBE_RET] = "uprobe_ret",
};

#define COPY_FUNCS(k, sfx)						\
	[k] = { uprobe_nop##sfx, (void (*)(void))uprobe_push##sfx,	\
		uprobe_ret##sfx },
static void (*const copies[UPROBE_COPIES + 1][NR_UPROBE_TARGETS])(void) = {
	UPROBE_FOR_EACH_COPY(COPY_FUNCS)
};

void (*uprobe_target_func(int which, int copy))(void)
{
	if (which < 0 || which >= NR_UPROBE_TARGETS || copy < 0 ||
	    copy > UPROBE_BASE_COPY)
		return NULL;
	return copies[copy][which];
}

const char *uprobe_target_name(int which, int copy, char *buf, size_t len)
{
	if (which < 0 || which >= NR_UPROBE_TARGETS)
		snprintf(buf, len, "?");
	else if (copy == UPROBE_BASE_COPY)
		snprintf(buf, len, "%s_base", target_names[which]);
	else if (copy)
		snprintf(buf, len, "%s_%d", target_names[which], copy);
	else
		snprintf(buf, len, "%s", target_names[which]);
	return buf;
}

#ifdef INSN_SIZE
/*
 * Why @what, starting with @first, is not @want: a breakpoint there is
 * another uprobe's, anything else the build's doing.
 */
static enum uprobe_target_state not_expected(const char *what, uint32_t first,
					     const char *want, char *why,
					     size_t len)
{
	if (IS_BREAKPOINT(first)) {
		snprintf(why, len,
			 "%s starts with a breakpoint (" INSN_FMT "): another uprobe is attached here",
			 what, first);
		return UPROBE_TARGET_BUSY;
	}
	snprintf(why, len, "%s starts with " INSN_FMT ", not %s: check the build flags",
		 what, first, want);
	return UPROBE_TARGET_WRONG;
}
#endif

#if defined(__x86_64__)
/*
 * 0x90, or a longer nop as assemblers pad with: 0f 1f /0 (nopw, nopl),
 * or 0x90, after any 0x66 (operand size) and 0x2e (cs) prefixes. Not
 * f3 90: that is pause.
 */
static bool is_nop(const uint8_t *p, size_t size)
{
	size_t i = 0;

	while (i < size && i < NOP_MAX_BYTES - 3 &&
	       (p[i] == 0x66 || p[i] == 0x2e))
		i++;
	if (i < size && p[i] == 0x90)
		return true;
	return i + 2 < size && p[i] == 0x0f && p[i + 1] == 0x1f &&
	       !(p[i + 2] & 0x38);	/* ModRM reg field 0 */
}
#elif defined(__aarch64__)
static bool is_nop(const uint8_t *p, size_t size)
{
	uint32_t insn;

	if (size < INSN_SIZE)
		return false;
	memcpy(&insn, p, INSN_SIZE);
	return insn == expected[UPROBE_NOP].insn;
}
#endif

enum uprobe_target_state uprobe_nop_check(const void *site, size_t size,
					  const char *what, char *why,
					  size_t len)
{
#ifdef INSN_SIZE
	uint32_t first = 0;

	if (size && is_nop(site, size))
		return UPROBE_TARGET_OK;
	memcpy(&first, site, size < INSN_SIZE ? size : INSN_SIZE);
	return not_expected(what, first, "a nop", why, len);
#else
	(void)site;
	(void)size;
	snprintf(why, len, "%s: probe sites are checked on x86-64 and arm64 only",
		 what);
	return UPROBE_TARGET_NONE;
#endif
}

enum uprobe_target_state uprobe_target_check(int which, int copy, char *why,
					     size_t len)
{
	void (*func)(void) = uprobe_target_func(which, copy);
	char name[48];
	uint32_t first = 0;
#ifdef INSN_SIZE
	char want[64];
#endif

	if (!func) {
		snprintf(why, len, "no uprobe target %d, copy %d", which, copy);
		return UPROBE_TARGET_NONE;
	}
	uprobe_target_name(which, copy, name, sizeof(name));
#ifdef INSN_SIZE
	/* little-endian both: the low bytes hold x86's one-byte opcode */
	memcpy(&first, (const void *)func, INSN_SIZE);
	if (first == expected[which].insn)
		return UPROBE_TARGET_OK;
	snprintf(want, sizeof(want), "%s (" INSN_FMT ")", expected[which].name,
		 expected[which].insn);
	return not_expected(name, first, want, why, len);
#else
	(void)first;
	snprintf(why, len, "%s: uprobe targets exist on x86-64 and arm64 only",
		 name);
	return UPROBE_TARGET_NONE;
#endif
}
