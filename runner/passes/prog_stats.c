// SPDX-License-Identifier: GPL-2.0
/*
 * --prog-stats: the kernel's BPF run-time stats, and the pass after the
 * run that reads them, one more sample of each row with a figure.
 *
 * Apart from the run loop (bench_sampler.c): its samples give no figure
 * of the row's, only the program's own ns per run, and it runs after the
 * run's figures are all taken. It is a session of its own, above the
 * sampler's layers (bench_sampler_int.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "passes/passes.h"
#include "sample/sample.h"
#include "core/core.h"
#include "workers/workers.h"

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

/* ---- --prog-stats ---- */

/*
 * One more sample of a row with the kernel's run-time stats on: the
 * program's ns per run, refused when it ran for much more than it
 * counted (other processes' events it filtered out dilute the mean).
 */
static int stats_sample(const struct bench_family *fam,
			const struct run_settings *rs, struct bench_row *row,
			struct sampler_pass *pass, double clock)
{
	struct row_state *st = row->state;
	struct session sess = { .row = row, .rs = rs, .pass = pass };
	__u64 t0 = 0, n0 = 0, t1 = 0, n1 = 0, spent = 0, start;
	struct sample s;
	int fd;

	/* a row verified by its own counts, with no program to time */
	if (!fam->prog_fds || fam->prog_fds(row, &fd, 1) < 1) {
		outcome_set(&st->prog_out, ST_SKIPPED,
			    "no BPF program runs in this row");
		return 0;
	}
	if (session_start(fam, &sess, &st->prog_out)) {
		session_end(fam, &sess);
		return bench_interrupted() ? -EINTR : 0;
	}
	/* an undisturbed sample only, found within the row's budget */
	do {
		start = now_ns();
		if (prog_run_totals(fd, &t0, &n0))
			t0 = n0 = 0;
		row_sample_run(fam, &sess, row_sample_count(fam, rs, row), &s,
			       1, true);
		/* detached first: the stats then hold every run of it */
		session_detach(fam, &sess);
		spent += now_ns() - start;
	} while (s.out.status == ST_DISTURBED && !bench_interrupted() &&
		 spent < retry_budget_ns(row));
	session_end(fam, &sess);
	if (bench_interrupted())
		return -EINTR;
	if (s.out.status != ST_OK) {
		st->prog_out = s.out;
		return 0;
	}
	if (prog_run_totals(fd, &t1, &n1) || n1 == n0) {
		outcome_set(&st->prog_out, ST_FAILED,
			    "the kernel's run-time stats counted no runs");
		return 0;
	}
	st->prog_runs = n1 - n0;
	st->prog_hits = s.counted;
	/* uncounted programs (the bench's reference) have no hits to compare */
	if (run_fault(rs)->kind != BENCH_FAULT_UNCOUNTED &&
	    st->prog_runs > s.counted + s.counted / 100 + 100) {
		outcome_set(&st->prog_out, ST_SKIPPED,
			    "diluted: %llu runs for %llu counted hits (other events filtered inside)",
			    st->prog_runs, s.counted);
		return 0;
	}
	st->prog_ns = (double)(t1 - t0) / st->prog_runs;
	st->prog_clock_ns = clock;
	return 0;
}

int sampler_prog_stats(const struct bench_family *fam,
		       const struct run_settings *rs, struct bench_rows *rows)
{
	struct sampler_pass pass = {};
	struct outcome why = {};
	double clock = NAN;
	int i, fd, err = 0;

	fd = prog_stats_enable(&why);
	/* without it the body keeps the clock reads, and JSON says null */
	if (fd >= 0 && prog_stats_clock_cost(&clock))
		clock = NAN;
	for (i = 0; !err && i < rows->nr; i++) {
		struct bench_row *row = &rows->row[i];

		if (!row_has_figure(row) || !row->runs_prog)
			continue;
		if (fd < 0)
			row->state->prog_out = why;
		else
			err = stats_sample(fam, rs, row, &pass, clock);
	}
	if (fd >= 0)
		close(fd);
	sampler_pass_end(&pass);
	return err;
}
