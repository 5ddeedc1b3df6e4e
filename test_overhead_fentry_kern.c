// SPDX-License-Identifier: GPL-2.0
/*
 * BPF trampolines: fentry, fexit and fmod_ret. Targets are set at run
 * time, so one counting program serves every event.
 */
#include "overhead_kern.h"

SEC("?fentry")
int BPF_PROG(fentry_rename, struct task_struct *task, const char *buf)
{
	if (reads(false))
		observe_rename(task, buf);
	count_hit();
	return 0;
}

/* unlike kretprobe, fexit still has the arguments */
SEC("?fexit")
int BPF_PROG(fexit_rename, struct task_struct *task, const char *buf)
{
	if (reads(false))
		observe_rename(task, buf);
	count_hit();
	return 0;
}

/*
 * fmod_ret may change only LSM hooks and error-injectable functions, and
 * __set_task_comm is neither: this hooks prctl()'s LSM hook. Returning 0
 * lets the hook, and the rename, run as usual.
 */
SEC("?fmod_ret")
int BPF_PROG(fmod_ret_rename)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (reads(false))
		observe_rename(task, task->comm);
	count_hit();
	return 0;
}

SEC("?fentry")
int BPF_PROG(fentry_count)
{
	count_hit();
	return 0;
}

SEC("?fexit")
int BPF_PROG(fexit_count)
{
	count_hit();
	return 0;
}

/*
 * Syscalls allow error injection: a non-zero return skips the syscall's
 * body, so this measures the trampoline without getpgid's own work.
 */
SEC("?fmod_ret")
int BPF_PROG(fmod_ret_error)
{
	count_hit();
	return -22;	/* -EINVAL */
}

/*
 * Sleepable fentry: the verifier takes it only on functions that may
 * fault (error-injectable ones); it says so in its log elsewhere.
 */
SEC("?fentry.s")
int BPF_PROG(fentry_s_rename, struct task_struct *task, const char *buf)
{
	if (reads(false))
		observe_rename(task, buf);
	count_hit();
	return 0;
}

SEC("?fentry.s")
int BPF_PROG(fentry_s_count)
{
	count_hit();
	return 0;
}

/*
 * BPF LSM on prctl()'s hook: returning 0 allows the call, and runs only
 * where "bpf" is an active LSM.
 */
SEC("?lsm")
int BPF_PROG(lsm_rename)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (reads(false))
		observe_rename(task, task->comm);
	count_hit();
	return 0;
}

SEC("?lsm")
int BPF_PROG(lsm_count)
{
	count_hit();
	return 0;
}

/*
 * The same hook, sleepable: the kernel lists task_prctl among the LSM
 * hooks that may sleep, so stock kernels take it without the error
 * injection fentry.s needs.
 */
SEC("?lsm.s")
int BPF_PROG(lsm_s_rename)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (reads(false))
		observe_rename(task, task->comm);
	count_hit();
	return 0;
}

SEC("?lsm.s")
int BPF_PROG(lsm_s_count)
{
	count_hit();
	return 0;
}
