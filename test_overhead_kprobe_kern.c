// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe and kretprobe. The runner names the function at attach time,
 * so one counting program serves every event.
 */
#include "overhead_kern.h"

SEC("?kprobe")
int BPF_KPROBE(kprobe_rename, struct task_struct *task, const char *buf)
{
	if (reads(true))
		observe_rename(task, buf);
	count_hit();
	return 0;
}

/* arguments are gone by return time: read the renamed task itself */
SEC("?kretprobe")
int BPF_KRETPROBE(kretprobe_rename)
{
	struct task_struct *task = (void *)bpf_get_current_task();

	if (reads(false))
		observe_rename(task, task->comm);
	count_hit();
	return 0;
}

SEC("?kprobe")
int BPF_KPROBE(kprobe_count)
{
	count_hit();
	return 0;
}

SEC("?kretprobe")
int BPF_KRETPROBE(kretprobe_count)
{
	count_hit();
	return 0;
}
