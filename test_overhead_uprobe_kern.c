// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe and uretprobe on user functions of test_overhead itself, each
 * starting with a different instruction (nop, push %rbp, ret): the kernel
 * emulates or single-steps each differently. The runner attaches by symbol.
 */
#include "overhead_kern.h"

/* libbpf 1.1 has no BPF_UPROBE: BPF_KPROBE reads the same registers */
#define UPROBE_PAIR(target)						\
SEC("uprobe")								\
int BPF_KPROBE(uprobe_##target)						\
{									\
	count_hit();							\
	return 0;							\
}									\
									\
SEC("uretprobe")							\
int BPF_KRETPROBE(uretprobe_##target)					\
{									\
	count_hit();							\
	return 0;							\
}

UPROBE_PAIR(uprobe_nop)
UPROBE_PAIR(uprobe_push)
UPROBE_PAIR(uprobe_ret)

char _license[] SEC("license") = "GPL";
