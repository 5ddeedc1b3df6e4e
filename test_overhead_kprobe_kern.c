// SPDX-License-Identifier: GPL-2.0
/* kprobe and kretprobe programs; the runner resolves the urandom function. */
#include "overhead_kern.h"

SEC("kprobe/__set_task_comm")
int BPF_KPROBE(kprobe_task_rename, struct task_struct *task, const char *buf)
{
	observe_rename(task, buf);
	return 0;
}

/* arguments are gone by return time: read the renamed task itself */
SEC("kretprobe/__set_task_comm")
int BPF_KRETPROBE(kretprobe_task_rename)
{
	struct task_struct *task = (void *)bpf_get_current_task();

	observe_rename(task, task->comm);
	return 0;
}

SEC("kprobe/urandom_read_iter")
int BPF_KPROBE(kprobe_urandom_read)
{
	count_hit();
	return 0;
}

SEC("kretprobe/urandom_read_iter")
int BPF_KRETPROBE(kretprobe_urandom_read)
{
	count_hit();
	return 0;
}

/* the runner attaches to the architecture's syscall function */
SEC("kprobe/__x64_sys_getpgid")
int BPF_KPROBE(kprobe_getpgid)
{
	count_hit();
	return 0;
}

SEC("kretprobe/__x64_sys_getpgid")
int BPF_KRETPROBE(kretprobe_getpgid)
{
	count_hit();
	return 0;
}

SEC("kprobe/bpf_get_numa_node_id")
int BPF_KPROBE(kprobe_kernel_batch)
{
	count_hit();
	return 0;
}

SEC("kretprobe/bpf_get_numa_node_id")
int BPF_KRETPROBE(kretprobe_kernel_batch)
{
	count_hit();
	return 0;
}

char _license[] SEC("license") = "GPL";
