// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line: on a terminal's stderr, one line saying which row
 * of how many runs and how far it is, rewritten in place and erased
 * before anything else is printed. Apart from the report: the sampler
 * calls it while rows run, long before anything of their results is
 * written, and keeps its state (struct progress_line) for the run.
 */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include "core/core.h"

void progress(struct progress_line *line, int done, int total,
	      const struct bench_row *row, int round, int unit)
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
	line->shown = true;
}

void progress_end(struct progress_line *line)
{
	if (!line->shown)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	line->shown = false;
}
