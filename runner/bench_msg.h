/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's side of messages and signals: bench_msg.c. What a family
 * prints with (pr_err(), pr_note(), outcome_set()) and asks of a signal
 * (bench_interrupted()) is in bench.h.
 */
#ifndef __BENCH_MSG_H
#define __BENCH_MSG_H

#include <signal.h>
#include <stddef.h>
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
 * The signals that end a run (bench_msg.c's table: those of signal(7)
 * whose default ends a process, but for its own faults) end us by their
 * default, even where they came ignored (a script's background job
 * ignores SIGINT): what runs nothing ends on them so. SIGPIPE and
 * SIGXFSZ raised by a failed write of ours fail that write instead.
 */
void default_signal_actions(void);
/* a forked child's: every one of them to its default */
void child_signal_actions(void);
/* they interrupt blocking waits instead of killing us */
void install_signal_handlers(void);
/* blocks them all, the mask before into @old */
void bench_block_signals(sigset_t *old);
/* @sig's name, as strsignal() says it, async-signal-safe: @buf's or static */
const char *signal_name(int sig, char *buf, size_t len);
/* from now on a signal ends the run at once: only output is left */
void bench_writing_results(void);
/* the file a signal's exit removes (a results file not complete); NULL */
void bench_unlink_on_signal(const char *path);
/* the run has ended with @status: a signal from now on exits with it */
void bench_exit_with(int status);
/* the last line pr_err() said, without the program's name; "" */
const char *bench_last_error(void);

#endif /* __BENCH_MSG_H */
