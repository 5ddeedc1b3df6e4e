/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's side of messages and signals: bench_msg.c. What a family
 * prints with (pr_err(), pr_note(), outcome_set()) and asks of a signal
 * (bench_interrupted()) is in bench.h.
 */
#ifndef __BENCH_MSG_H
#define __BENCH_MSG_H

#include "bench.h"

/*
 * 0: -q, 1: default, 2: -v (libbpf's messages too): the runner's; a
 * family reads run_settings' copy
 */
extern int verbosity;

void bench_init(const char *prog_name);
/* a status in lower case, as JSON writes it */
const char *status_json(enum status st);

/*
 * SIGINT/SIGTERM/SIGHUP end us, even where they came ignored (a script's
 * background job ignores SIGINT): what runs nothing ends on them so
 */
void default_signal_actions(void);
/* SIGINT/SIGTERM/SIGHUP interrupt blocking waits instead of killing us */
void install_signal_handlers(void);
/* from now on a signal ends the run at once: only output is left */
void bench_writing_results(void);
/* the file a signal's exit removes (a results file not complete); NULL */
void bench_unlink_on_signal(const char *path);
/* the run has ended with @status: a signal from now on exits with it */
void bench_exit_with(int status);
/* the last line pr_err() said, without the program's name; "" */
const char *bench_last_error(void);

#endif /* __BENCH_MSG_H */
