// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe and uretprobe on user functions of test_overhead itself; the
 * runner attaches them by symbol.
 */
#include "overhead_kern.h"

/* libbpf 1.1 has no BPF_UPROBE: BPF_KPROBE reads the same registers */
SEC("?uprobe")
int BPF_KPROBE(uprobe_count)
{
	count_hit();
	return 0;
}

SEC("?uretprobe")
int BPF_KRETPROBE(uretprobe_count)
{
	count_hit();
	return 0;
}

/* sleepable: may fault user memory in; the hit count is the same */
SEC("?uprobe.s")
int BPF_KPROBE(uprobe_s_count)
{
	count_hit();
	return 0;
}

/* libbpf 1.3's uprobe.multi; older ones leave it unknown and unloaded */
SEC("?uprobe.multi")
int BPF_KPROBE(uprobe_multi_count)
{
	count_hit();
	return 0;
}
