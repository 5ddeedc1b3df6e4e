// SPDX-License-Identifier: GPL-2.0
/* Raw tracepoints, untyped (raw_tp) and BTF-typed (tp_btf). */
#include "overhead_kern.h"

SEC("raw_tracepoint/task_rename")
int raw_tp_task_rename(struct bpf_raw_tracepoint_args *ctx)
{
	observe_rename((void *)ctx->args[0], (const char *)ctx->args[1]);
	return 0;
}

SEC("raw_tracepoint/urandom_read")
int raw_tp_urandom_read(void *ctx)
{
	count_hit();
	return 0;
}

SEC("tp_btf/task_rename")
int BPF_PROG(tp_btf_task_rename, struct task_struct *task, const char *comm)
{
	observe_rename(task, comm);
	return 0;
}

SEC("tp_btf/urandom_read")
int BPF_PROG(tp_btf_urandom_read)
{
	count_hit();
	return 0;
}

/* sys_enter fires for every syscall in the system: the filter is part of the cost */
SEC("raw_tracepoint/sys_enter")
int raw_tp_getpgid(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == NR_getpgid)
		count_hit();
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(tp_btf_getpgid, struct pt_regs *regs, long id)
{
	if (id == NR_getpgid)
		count_hit();
	return 0;
}

char _license[] SEC("license") = "GPL";
