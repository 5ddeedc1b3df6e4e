// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line: on a terminal's stderr, one line saying which row
 * of how many runs and how far it is, rewritten in place and erased
 * before anything else is printed. Apart from the report: the sampler,
 * the workers and a family's own passes call it while rows run, long
 * before anything of their results is written.
 */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include "bench_msg.h"
#include "bench_report.h"

/*
 * Global because it is the terminal's state, not a run's: whether
 * stderr's last line is a progress line that must be erased first;
 * progress_end() is called from paths that hold nothing else of it
 * (an interrupted run's end, the sampler's).
 */
static bool progress_shown;

void progress(int done, int total, const struct bench_row *row, int round,
	      int unit)
{
	if (verbosity < 1 || !isatty(STDERR_FILENO))
		return;
	if (round < 0)
		fprintf(stderr, "\r\033[K[%d/%d] %s %s, loading", done + 1,
			total, row->name, row->variant);
	else
		fprintf(stderr, "\r\033[K[%d/%d] %s %s, round %d, unit %d",
			done + 1, total, row->name, row->variant, round + 1,
			unit + 1);
	fflush(stderr);
	progress_shown = true;
}

void progress_end(void)
{
	if (!progress_shown)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	progress_shown = false;
}
