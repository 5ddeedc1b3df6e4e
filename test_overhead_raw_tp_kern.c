// SPDX-License-Identifier: GPL-2.0
/* Raw tracepoints, untyped (raw_tp) and BTF-typed (tp_btf). */
#include "overhead_kern.h"

SEC("?raw_tp")
int raw_tp_rename(struct bpf_raw_tracepoint_args *ctx)
{
	if (reads(false))
		observe_rename((void *)ctx->args[0], (const char *)ctx->args[1]);
	count_hit();
	return 0;
}

SEC("?raw_tp")
int raw_tp_count(void *ctx)
{
	count_hit();
	return 0;
}

/* sys_enter fires for every syscall in the system: the filter is part of the cost */
SEC("?raw_tp")
int raw_tp_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == this_slot()->cfg.syscall_nr)
		count_hit();
	return 0;
}

SEC("?tp_btf")
int BPF_PROG(tp_btf_rename, struct task_struct *task, const char *comm)
{
	if (reads(false))
		observe_rename(task, comm);
	count_hit();
	return 0;
}

SEC("?tp_btf")
int BPF_PROG(tp_btf_count)
{
	count_hit();
	return 0;
}

SEC("?tp_btf")
int BPF_PROG(tp_btf_sys_enter, struct pt_regs *regs, long id)
{
	if (id == this_slot()->cfg.syscall_nr)
		count_hit();
	return 0;
}
