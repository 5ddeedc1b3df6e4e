/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The progress line (bench_progress.c). What a family uses of the report
 * (a row's figures and notes, the summary table's columns and lines,
 * list_kind()) is in bench.h; the runner's own writers have their
 * headers: bench_results_json.h, bench_ktap.h, bench_list.h.
 */
#ifndef __BENCH_REPORT_H
#define __BENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "bench.h"

/*
 * The progress line, its state the sampler's: whether stderr's last line
 * is one, to be erased before anything else is printed
 */
struct progress_line {
	bool shown;
};

/*
 * One updating line on stderr when it is a terminal: row @done of @total
 * in @round (-1: loading it), its unit @unit
 */
void progress(struct progress_line *line, int done, int total,
	      const struct bench_row *row, int round, int unit);
/* @line erased, when it is shown */
void progress_end(struct progress_line *line);

#endif /* __BENCH_REPORT_H */
