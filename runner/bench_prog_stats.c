// SPDX-License-Identifier: GPL-2.0
/* The kernel's BPF run-time stats, for --prog-stats. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench_prog_stats.h"

int prog_stats_enable(struct outcome *out)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		outcome_set(out, ST_SKIPPED,
			    "kernel cannot enable BPF run-time stats (BPF_ENABLE_STATS: %s)",
			    strerror(errno));
	return fd < 0 ? -errno : fd;
}

int prog_run_totals(int fd, __u64 *run_time_ns, __u64 *run_cnt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*run_time_ns = info.run_time_ns;
	*run_cnt = info.run_cnt;
	return 0;
}

/*
 * The clock cost is a small difference of two means, so an interrupt in
 * the calibration would show as a body below zero: time it in blocks and
 * keep the quietest block, as an interrupt only ever adds time.
 */
#define CLOCK_BLOCKS 10
#define CLOCK_BLOCK_RUNS 2000

int prog_stats_clock_cost(double *ns)
{
	/* r0 = 0; exit: a program that does nothing at all */
	const struct bpf_insn empty[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	__u64 time0 = 0, cnt0 = 0, time1 = 0, cnt1 = 0;
	double block, best = 0;
	__u64 args[1] = {};
	int fd, b, i, err = 0;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "stats_clock", "GPL",
			   empty, 2, NULL);
	if (fd < 0)
		return -errno;
	opts.ctx_in = args;
	opts.ctx_size_in = sizeof(args);
	for (b = 0; b < CLOCK_BLOCKS && !err; b++) {
		for (i = 0; i < CLOCK_BLOCK_RUNS && !err; i++)
			err = bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
		if (!err)
			err = prog_run_totals(fd, &time1, &cnt1);
		if (!err && cnt1 == cnt0)
			err = -ENODATA;
		if (err)
			break;
		block = (double)(time1 - time0) / (cnt1 - cnt0);
		if (b == 0 || block < best)
			best = block;
		time0 = time1;
		cnt0 = cnt1;
	}
	if (!err)
		*ns = best;
	close(fd);
	return err;
}
