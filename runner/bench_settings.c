// SPDX-License-Identifier: GPL-2.0
/*
 * The run's settings, which the option parser fills and the runner, the
 * sampler and the report read. Alone in a leaf, so that reading them
 * links nothing else: the runner's main calls every file that reads them.
 * The unit tests, which link no main, give their own.
 *
 * Global because the parser fills it, a family's option callback too
 * (bench_count_arg()); main() then passes it down as @rs. Read directly
 * only by the test build's faults in forked workers and family helper
 * processes (bench_workers.c, maps/consumer.c, maps/memory.c), which
 * nothing passes settings to.
 */
#include "bench_cmdline.h"

struct run_settings bench_rs;
