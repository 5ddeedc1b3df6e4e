// SPDX-License-Identifier: GPL-2.0
/*
 * The runner: the command line, then each selected row's samples, back to
 * back, until it is known well enough, each sample verified per CPU and
 * judged undisturbed, then the family's lines and summary, the JSON file
 * and the exit status. A family gives rows and callbacks; nothing here
 * knows what a mode or a map is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench_cmdline.h"
#include "bench_kernel.h"
#include "bench_msg.h"
#include "bench_row.h"
#include "bench_sampler.h"
#include "bench_compare.h"
#include "bench_report.h"
#include "bench_profile.h"

/* exit status when rows were disturbed but none failed */
#define EXIT_DISTURBED		3
/* --ktap: kselftest's status for a test that could not run (KSFT_SKIP) */
#define EXIT_KSFT_SKIP		4

struct run_settings bench_rs;

static int exit_interrupted(void)
{
	int sig = bench_interrupted();

	progress_end();
	pr_err("interrupted by %s; everything detached", strsignal(sig));
	return 128 + sig;
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
 * --ktap's status, as kselftest's runner reads it: 1 when a row failed;
 * 4 (KSFT_SKIP) when nothing was measured: every row skipped or
 * disturbed, or only bases measured for rows that all were; else 0. A
 * disturbed row is a SKIP there: the machine's doing, not the kernel's.
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

/* stdout was closed when we started: /dev/null stands in its place */
static bool stdout_closed;

/*
 * A closed fd 1 or 2 would be taken by the next open(), and the summary
 * written into a BPF object or the lock file: hold them with /dev/null.
 */
static void hold_std_fds(void)
{
	int fd;

	for (fd = 1; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", O_WRONLY) != fd)
			continue;	/* nothing better to do */
		if (fd == 1)
			stdout_closed = true;
	}
}

/* stdout and the JSON file: everything written, or 1 after saying why */
static int flush_output(FILE *json)
{
	int err = 0;

	if (stdout_closed && json != stdout) {
		pr_err("stdout is closed: the results could not be written there");
		err = 1;
	} else if (fflush(stdout) || ferror(stdout)) {
		pr_err("writing the results to stdout failed: %s",
		       strerror(errno ?: EIO));
		err = 1;
	}
	if (json && json != stdout && (fflush(json) || ferror(json) ||
				       fclose(json))) {
		pr_err("writing %s failed: %s", bench_rs.json,
		       strerror(errno ?: EIO));
		err = 1;
	}
	return err;
}

/* --json FILE is opened before the run: a bad path must not cost one */
static FILE *open_json(void)
{
	FILE *f;

	if (!bench_rs.json)
		return NULL;
	if (!strcmp(bench_rs.json, "-"))
		return stdout;
	f = fopen(bench_rs.json, "w");
	if (!f)
		pr_err("cannot write %s: %s", printable(bench_rs.json),
		       strerror(errno));
	return f;
}

static int run_list(const struct bench_family *fam)
{
	struct bench_rows all = {};
	FILE *json;
	int err;

	err = fam->setup(&bench_rs, &all);
	if (err)
		return 1;
	json = open_json();
	if (bench_rs.json && !json)
		return 1;
	err = json ? write_list(fam, &all, json) : 0;
	if (!json)
		print_list(fam, &all);
	sampler_close(fam, &all);
	return err || flush_output(json) ? 1 : 0;
}

static int run(const struct bench_family *fam, FILE *json)
{
	struct bench_rows rows = {};
	int ret;

	if (fam->setup(&bench_rs, &rows)) {
		ret = 1;
		goto out;
	}
	warn_cpu_quota(bench_rs.cpus.nr);
	if (sampler_run(fam, &rows) ||
	    (bench_rs.prog_stats && sampler_prog_stats(fam, &rows)) ||
	    (bench_rs.profile && sampler_profile(fam, &rows))) {
		ret = exit_interrupted();
		goto out;
	}
	bench_writing_results();
	if (bench_rs.ktap) {
		write_ktap(fam, &rows, stdout);
	} else if (json != stdout) {
		if (verbosity > 0)
			fam->print_upstream(&bench_rs, &rows);
		fam->print_summary(&bench_rs, &rows);
		print_profiles(&rows);
	}
	if (json && write_results(fam, &rows, json))
		pr_err("writing %s failed", bench_rs.json);
	ret = bench_rs.ktap ? ktap_exit_status(&rows) : exit_status(&rows);
	if (flush_output(json))
		ret = 1;
	json = NULL;
	/* a signal while the results were written still ends the run so */
	if (bench_interrupted())
		ret = exit_interrupted();
out:
	if (json && json != stdout)
		fclose(json);
	sampler_close(fam, &rows);
	return ret;
}

int bench_main(const struct bench_family *fam, int argc, char **argv)
{
	FILE *json;
	int err;

	hold_std_fds();
	bench_init(fam->name);
	if (parse_options(fam, argc, argv) || check_options(fam, argc, argv))
		return EXIT_USAGE;
	if (compare_args.nr_files[SIDE_A]) {
		err = bench_compare(&compare_args);
		return err < 0 ? EXIT_USAGE : err;
	}
	if (bench_rs.list)
		return run_list(fam);
	if (read_fault())
		return EXIT_USAGE;
	err = select_cpus();
	if (err)
		return err;
	if (check_privileges())
		return 1;
	bpf_jit_read(&(struct bpf_jit_state){});
	install_signal_handlers();
	json = open_json();
	if (bench_rs.json && !json)
		return 1;
	if (bench_lock(fam->name, bench_rs.lock_wait)) {
		if (json && json != stdout)
			fclose(json);
		return bench_interrupted() ? exit_interrupted() : 1;
	}
	report_run_started();
	ensure_tracefs();
	return run(fam, json);
}
