// SPDX-License-Identifier: GPL-2.0
/*
 * The run's settings, which the option parser fills and the runner, the
 * sampler and the report read. Alone in a leaf, so that reading them
 * links nothing else: the runner's main calls every file that reads them.
 * The unit tests, which link no main, give their own.
 *
 * Global because the parser fills it, a family's option callback too
 * (bench_count_arg()), and the test build's faults are read in forked
 * workers (bench_workers.c), whose pools the families start too, through
 * pool_start(), which takes no settings; main() passes it down as @rs.
 * Main cannot own it while a worker has no other way to its fault.
 */
#include "bench_cmdline.h"

struct run_settings bench_rs;
