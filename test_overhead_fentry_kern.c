// SPDX-License-Identifier: GPL-2.0
/* BPF trampolines: fentry and fexit. */
#include "overhead_kern.h"

SEC("fentry/__set_task_comm")
int BPF_PROG(fentry_task_rename, struct task_struct *task, const char *buf)
{
	observe_rename(task, buf);
	return 0;
}

/* unlike kretprobe, fexit still has the arguments */
SEC("fexit/__set_task_comm")
int BPF_PROG(fexit_task_rename, struct task_struct *task, const char *buf)
{
	observe_rename(task, buf);
	return 0;
}

/* the runner retargets these to urandom_read on kernels before 5.19 */
SEC("fentry/urandom_read_iter")
int BPF_PROG(fentry_urandom_read)
{
	count_hit();
	return 0;
}

SEC("fexit/urandom_read_iter")
int BPF_PROG(fexit_urandom_read)
{
	count_hit();
	return 0;
}

char _license[] SEC("license") = "GPL";
