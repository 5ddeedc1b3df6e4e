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
/*
 * fmod_ret may change only LSM hooks and error-injectable functions, and
 * __set_task_comm is neither: it hooks prctl()'s LSM hook. Returning 0
 * lets the hook, and the rename, run as usual.
 */
SEC("fmod_ret/security_task_prctl")
int BPF_PROG(fmod_ret_task_rename)
{
	struct task_struct *task = bpf_get_current_task_btf();

	observe_rename(task, task->comm);
	return 0;
}

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

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(fentry_getpgid)
{
	count_hit();
	return 0;
}

SEC("fexit/__x64_sys_getpgid")
int BPF_PROG(fexit_getpgid)
{
	count_hit();
	return 0;
}

SEC("fentry/bpf_get_numa_node_id")
int BPF_PROG(fentry_kernel_batch)
{
	count_hit();
	return 0;
}

SEC("fexit/bpf_get_numa_node_id")
int BPF_PROG(fexit_kernel_batch)
{
	count_hit();
	return 0;
}

/*
 * Syscalls allow error injection: a non-zero return skips the syscall's
 * body, so this measures the trampoline without getpgid's own work.
 */
SEC("fmod_ret/__x64_sys_getpgid")
int BPF_PROG(fmod_ret_getpgid)
{
	count_hit();
	return -22;	/* -EINVAL */
}

char _license[] SEC("license") = "GPL";
