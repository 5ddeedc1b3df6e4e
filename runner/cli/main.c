// SPDX-License-Identifier: GPL-2.0
/*
 * The runner: the command line, the rows' samples, the family's summary,
 * the JSON file and the exit status. Nothing here knows what a mode or a
 * map is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "kernel/kernel.h"
#include "core/core.h"
#include "rows/rows.h"
#include "passes/passes.h"
#include "compare/compare.h"
#include "report/report.h"

/* exit status when rows were disturbed but none failed */
#define EXIT_DISTURBED		3
/* --ktap: kselftest's status for a test that could not run (KSFT_SKIP) */
#define EXIT_KSFT_SKIP		4

static int exit_interrupted(void)
{
	int sig = bench_interrupted();
	char buf[32];

	pr_err("interrupted by %s; everything detached",
	       signal_name(sig, buf, sizeof(buf)));
	return 128 + sig;
}

/* the sampler's error @err: 128+N when a signal cut it short, else 1 */
static int exit_run_failed(int err)
{
	if (bench_interrupted())
		return exit_interrupted();
	pr_err("the run could not go on: %s", strerror(err < 0 ? -err : EIO));
	return 1;
}

static int exit_status(const struct bench_rows *rows)
{
	int i, ok = 0, failed = 0, disturbed = 0, progs = 0;

	for (i = 0; i < rows->nr; i++)
		progs += rows->row[i].runs_prog;
	for (i = 0; i < rows->nr; i++) {
		/* bases alone are no measurement when programs were asked for */
		ok += rows->row[i].out.status == ST_OK &&
		      (rows->row[i].runs_prog || !progs);
		failed += rows->row[i].out.status == ST_FAILED;
		disturbed += rows->row[i].out.status == ST_DISTURBED;
	}
	if (failed)
		return 1;
	if (disturbed)
		return EXIT_DISTURBED;
	if (!ok) {
		pr_err("nothing could be measured on this kernel");
		return 1;
	}
	return 0;
}

/*
 * --ktap's, as kselftest reads it: 1 when a row failed, 4 (KSFT_SKIP)
 * when nothing was measured (a disturbed row is the machine's doing), 0
 */
static int ktap_exit_status(const struct bench_rows *rows)
{
	int i, ok = 0, progs = 0;

	for (i = 0; i < rows->nr; i++)
		progs += rows->row[i].runs_prog;
	for (i = 0; i < rows->nr; i++) {
		if (rows->row[i].out.status == ST_FAILED)
			return 1;
		ok += rows->row[i].out.status == ST_OK &&
		      (rows->row[i].runs_prog || !progs);
	}
	return ok ? 0 : EXIT_KSFT_SKIP;
}

/*
 * A closed fd 1 or 2 would be taken by the next open(), the summary
 * written into the lock file: /dev/null holds them. True for stdout.
 */
static bool hold_std_fds(void)
{
	bool stdout_closed = false;
	int fd;

	for (fd = 1; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", O_WRONLY) != fd)
			continue;	/* nothing better to do */
		if (fd == 1)
			stdout_closed = true;
	}
	return stdout_closed;
}

/* what a run writes besides stdout, and what it has said there */
struct run_output {
	struct output_file json;	/* --json's */
	bool ktap;			/* --ktap: KTAP on stdout, every path */
	bool ktap_said;
	__u64 started_ns;		/* the lock got: run_ns from there */
	bool stdout_closed;		/* /dev/null stands in its place */
};

/* stdout all written, or 1 said; @used: something was meant for it */
static int flush_stdout(const struct run_output *out, bool used)
{
	if (out->stdout_closed && used) {
		pr_err("stdout is closed: the results could not be written there");
		return 1;
	}
	if (fflush(stdout) || ferror(stdout)) {
		pr_err("writing the results to stdout failed: %s",
		       strerror(errno ?: EIO));
		return 1;
	}
	return 0;
}

/*
 * The results in place when @complete, or the last ones kept. A signal
 * meanwhile waits, then exits with what was decided: the status tells.
 */
static int finish(struct run_output *out, int status, bool complete)
{
	sigset_t old;

	bench_block_signals(&old);
	if (complete && bench_interrupted()) {
		output_discard(&out->json);
		status = exit_interrupted();
	} else if (!complete) {
		output_discard(&out->json);
	} else if (output_commit(&out->json)) {
		status = 1;
	}
	bench_exit_with(status);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return status;
}

/*
 * A run that ends before its results, the last results file kept; with
 * --ktap, as kselftest.h ends a test early: skipped, 4, when this machine
 * cannot run it now (@cannot_run: the lock busy, no privileges), else
 * bailed out with @status, a usage error 1 (2 is KSFT_XFAIL there).
 */
static int end_early(struct run_output *out, int status, bool cannot_run)
{
	if (!out->ktap || out->ktap_said) {
		status = cannot_run ? 1 : status;
	} else {
		write_ktap_early(stdout, cannot_run, bench_last_error());
		out->ktap_said = true;
		status = cannot_run ? EXIT_KSFT_SKIP :
			 status == EXIT_USAGE ? 1 : status;
		if (flush_stdout(out, true) && status < 128)
			status = 1;
	}
	return finish(out, status, false);
}

/* 0, or -1 naming the first row whose policy is wrong (the family's bug) */
static int rows_check(const struct bench_rows *rows)
{
	char name[256];
	const char *why;
	int i;

	for (i = 0; i < rows->nr; i++) {
		why = row_policy_wrong(&rows->row[i]);
		if (why) {
			format_row_name(&rows->row[i], name, sizeof(name));
			pr_err("row %s: %s", name, why);
			return -1;
		}
	}
	return 0;
}

static int run_list(const struct bench_family *fam,
		    const struct run_settings *rs, struct run_output *out)
{
	bool to_stdout = !rs->json || !strcmp(rs->json, "-");
	struct bench_rows all = {};
	int err;

	err = fam->setup(rs, &all);
	if (err)
		return end_early(out, 1, false);
	if (rows_check(&all)) {
		sampler_close(fam, &all);
		return end_early(out, 1, false);
	}
	if (rs->json && output_open(&out->json, rs->json)) {
		sampler_close(fam, &all);
		return end_early(out, 1, false);
	}
	errno = 0;
	if (out->json.f)
		err = write_list(fam, &all, out->json.f);
	else
		print_list(fam, &all);
	if (err)
		pr_err("writing %s failed: %s", printable(rs->json),
		       strerror(errno ?: -err));
	/* what stdout could not take is no list: the last --json kept */
	else if (flush_stdout(out, to_stdout))
		err = -EIO;
	sampler_close(fam, &all);
	return finish(out, err ? 1 : 0, !err);
}

static int run_compare(const struct compare_args *args,
		       struct run_output *out)
{
	int ret = bench_compare(args, &out->json);

	/* a compare that cannot read its input is a usage error */
	if (ret < 0)
		return finish(out, EXIT_USAGE, false);
	/* verdicts stdout could not take: the last --json kept */
	if (flush_stdout(out, true))
		return finish(out, 1, false);
	return finish(out, ret, true);
}

static int run(const struct bench_family *fam, const struct run_settings *rs,
	       struct run_output *out)
{
	FILE *json = out->json.f;
	struct bench_rows rows = {};
	bool complete = false;
	int ret, err;

	if (fam->setup(rs, &rows) || rows_check(&rows)) {
		ret = 1;
		goto out;
	}
	warn_cpu_quota(rs->cpus.nr);
	err = sampler_run(fam, rs, &rows);
	if (!err && rs->prog_stats)
		err = sampler_prog_stats(fam, rs, &rows);
	if (!err && rs->profile)
		err = sampler_profile(fam, rs, &rows);
	if (err) {
		ret = exit_run_failed(err);
		goto out;
	}
	bench_writing_results();
	if (rs->ktap) {
		write_ktap(fam, rs, &rows, stdout);
		out->ktap_said = true;
	} else if (json != stdout) {
		/* text to paste is the summary's lines alone */
		if (rs->verbosity > 0 && !rs->paste && fam->print_upstream)
			fam->print_upstream(rs, &rows);
		fam->print_summary(rs, &rows);
		print_profiles(&rows);
	}
	ret = rs->ktap ? ktap_exit_status(&rows) : exit_status(&rows);
	complete = true;
	errno = 0;
	err = json ? write_results(fam, rs, &rows, out->started_ns, json) : 0;
	if (err)
		pr_err("writing %s failed: %s", printable(rs->json),
		       strerror(errno ?: -err));
	/*
	 * a summary stdout could not take (full, a closed pipe): the run's
	 * results are not all out, the last --json kept. Said once when
	 * --json - already said it.
	 */
	if ((!err || json != stdout) && flush_stdout(out, true))
		err = -EIO;
	if (err) {
		complete = false;
		ret = 1;
	}
out:
	sampler_close(fam, &rows);
	return complete ? finish(out, ret, true) : end_early(out, ret, false);
}

int bench_main(const struct bench_family *fam, void *ctx, int argc,
	       char **argv)
{
	struct run_output out = {};
	/* the forked workers read the test build's fault in their copy */
	struct run_settings settings;
	const struct run_settings *rs = &settings;
	struct cmdline cl;
	const struct compare_args *cmp = &cl.compare;
	int err;

	out.stdout_closed = hold_std_fds();
	bench_init(fam->name);
	default_signal_actions();
	err = parse_options(fam, ctx, &settings, &cl, argc, argv);
	/* the usage, all of it on stdout, or 1 */
	if (!err && cl.help)
		return flush_stdout(&out, true);
	err = err || check_options(fam, &cl, argc, argv);
	out.ktap = rs->ktap;
	if (err)
		return end_early(&out, EXIT_USAGE, false);
	if (cmp->nr_files[SIDE_A] || rs->list) {
		/* nothing waits: a signal ends them at once, the file kept */
		install_signal_handlers();
		bench_writing_results();
		return rs->list ? run_list(fam, rs, &out) :
				  run_compare(cmp, &out);
	}
	if (read_fault(&settings))
		return end_early(&out, EXIT_USAGE, false);
	err = select_cpus(&cl);
	if (err)
		return end_early(&out, err, false);
	if (check_privileges())
		return end_early(&out, 1, true);
	bpf_jit_read(&(struct bpf_jit_state){});
	install_signal_handlers();
	/* before the lock: a bad path must not cost a run, nor a wait */
	if (rs->json && output_open(&out.json, rs->json))
		return end_early(&out, 1, false);
	err = bench_lock(fam->name, rs->lock_wait);
	if (err == -EINTR || bench_interrupted())
		return end_early(&out, exit_interrupted(), false);
	if (err)
		return end_early(&out, 1, err == -EBUSY);
	out.started_ns = now_ns();
	ensure_tracefs();
	return run(fam, rs, &out);
}
