// SPDX-License-Identifier: GPL-2.0
/*
 * The run's settings, which the option parser fills and the runner, the
 * sampler and the report read. Alone in a leaf, so that reading them
 * links nothing else: the runner's main calls every file that reads them.
 * The unit tests, which link no main, give their own.
 */
#include "bench_cmdline.h"

struct run_settings bench_rs;
