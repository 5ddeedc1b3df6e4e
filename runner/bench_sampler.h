/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampler: the run loop (bench_sampler.c), the passes after it
 * (bench_prog_stats.c, bench_profile_pass.c), and closing the rows.
 * What its files share with each other is in bench_sampler_int.h.
 */
#ifndef __BENCH_SAMPLER_H
#define __BENCH_SAMPLER_H

#include "bench.h"

/*
 * Opens every row and measures them in rounds until each is known well
 * enough (see bench_sampler.c). -EINTR when a signal ended it.
 */
int sampler_run(const struct bench_family *fam, const struct run_settings *rs,
		struct bench_rows *rows);
/* --prog-stats: one more sample of each row with a figure (bench_prog_stats.c) */
int sampler_prog_stats(const struct bench_family *fam,
		       const struct run_settings *rs, struct bench_rows *rows);
/*
 * --profile: profiled units of each row with a figure, and its base,
 * apart from the figures (bench_profile_pass.c). -EINTR when a signal
 * ended it.
 */
int sampler_profile(const struct bench_family *fam,
		    const struct run_settings *rs, struct bench_rows *rows);
/* closes the opened rows and frees them */
void sampler_close(const struct bench_family *fam, struct bench_rows *rows);

#endif /* __BENCH_SAMPLER_H */
