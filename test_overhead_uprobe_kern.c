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
