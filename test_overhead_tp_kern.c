// SPDX-License-Identifier: GPL-2.0
/* Classic tracepoints: the event record, not the task, is the context. */
#include "overhead_kern.h"

SEC("?tracepoint")
int tracepoint_rename(struct trace_event_raw_task_rename *ctx)
{
	/* prctl(PR_SET_NAME) renames the caller, so current is the task */
	if (reads(false))
		observe_rename((void *)bpf_get_current_task(), ctx->newcomm);
	count_hit();
	return 0;
}

SEC("?tracepoint")
int tracepoint_count(void *ctx)
{
	count_hit();
	return 0;
}
