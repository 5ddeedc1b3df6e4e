// SPDX-License-Identifier: GPL-2.0
/* Classic tracepoints: the event record, not the task, is the context. */
#include "overhead_kern.h"

SEC("tracepoint/task/task_rename")
int tracepoint_task_rename(struct trace_event_raw_task_rename *ctx)
{
	/* prctl(PR_SET_NAME) renames the caller, so current is the task */
	observe_rename((void *)bpf_get_current_task(), ctx->newcomm);
	return 0;
}

/* random:urandom_read is gone since 5.18: the runner skips it there */
SEC("tracepoint/random/urandom_read")
int tracepoint_urandom_read(void *ctx)
{
	count_hit();
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getpgid")
int tracepoint_getpgid(void *ctx)
{
	count_hit();
	return 0;
}

char _license[] SEC("license") = "GPL";
