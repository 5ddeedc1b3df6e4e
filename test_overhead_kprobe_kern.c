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

/*
 * kprobe.multi: the same probe through fprobe, one link for any number
 * of functions; the runner names them at attach time.
 */
SEC("?kprobe.multi")
int BPF_KPROBE(kprobe_multi_rename, struct task_struct *task, const char *buf)
{
	if (reads(false))
		observe_rename(task, buf);
	count_hit();
	return 0;
}

SEC("?kretprobe.multi")
int BPF_KRETPROBE(kretprobe_multi_rename)
{
	struct task_struct *task = (void *)bpf_get_current_task();

	if (reads(false))
		observe_rename(task, task->comm);
	count_hit();
	return 0;
}

SEC("?kprobe.multi")
int BPF_KPROBE(kprobe_multi_count)
{
	count_hit();
	return 0;
}

SEC("?kretprobe.multi")
int BPF_KRETPROBE(kretprobe_multi_count)
{
	count_hit();
	return 0;
}

/*
 * kprobe.session (libbpf 1.5, kernel 6.10): returning 1 at entry skips
 * the exit run, so each event counts once and the entry cost is measured.
 * Older libbpf leaves this section unknown, and the program unloaded.
 */
SEC("?kprobe.session")
int BPF_KPROBE(kprobe_session_count)
{
	count_hit();
	return 1;
}
