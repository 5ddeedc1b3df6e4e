/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_CORE_H
#define __RUNNER_CORE_H

#include <signal.h>
#include "bench.h"

/* ---- core/util.c; what a family calls too is in bench.h ---- */

/* CPU @cpu's steal in /proc/stat's @text, USER_HZ ticks: 0 or -ENOENT */
int proc_stat_steal(const char *text, int cpu, unsigned long long *ticks);

/* se.nr_migrations of a thread's sched @text: 0 or -ENOENT */
int sched_nr_migrations(const char *text, unsigned long long *n);

/* a sysctl's number at @path (never negative), -1 when unreadable */
int read_sysctl_int(const char *path);

/* self_cgroup()'s of the task @pid (0: ourselves), from /proc/<pid>/cgroup */
int task_cgroup(pid_t pid, const char *controller, char *path, size_t len);

/* a line of kallsyms, "address type name [module]": a text symbol's name */
const char *text_symbol(const char *line, char *sym);

/* "a FIFO", "a directory": what a file of @mode is, for a message */
const char *file_kind(mode_t mode);

/* a character of a name, a mode's or a CPU's number in a reason */
static inline bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* ---- core/msg.c ---- */

/* 0: -q, 1: default, 2: -v (libbpf's messages too); a family reads @rs's */
extern int verbosity;

void bench_init(const char *prog_name);
/* a status in lower case, as JSON writes it */
const char *status_json(enum status st);

/*
 * The signals that end a run to their default, even where they came
 * ignored (a script's background job ignores SIGINT); SIGPIPE and SIGXFSZ
 * of a failed write of ours fail that write instead.
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

/* a decimal fraction in [min, max] */
int parse_double(const char *s, double min, double max, double *out);

/* ---- core/output.c: a results file, written whole or not at all ---- */
struct output_file {
	const char *path;	/* as given; "-": stdout */
	char *target;		/* what the rename replaces */
	char *tmp;		/* the temporary file; NULL: written in place */
	FILE *f;		/* where to write; NULL when closed */
	bool borrowed;		/* @f is stdout (or the caller's): not closed */
};

/*
 * Opens @path: "-" is stdout; a regular file, or none yet, gets a
 * temporary file ".NAME.tmp.PID" beside it; a character device or a FIFO
 * with a reader is written in place; anything else is refused. 0, or
 * -errno after one line.
 */
int output_open(struct output_file *o, const char *path);
/* flushed, closed and renamed over the target: 0, or -errno said */
int output_commit(struct output_file *o);
/* @o closed, its temporary file removed: the target stays as it was */
void output_discard(struct output_file *o);
/* @o writes to @f, a stream of the caller's ("-": stdout), never closed */
void output_borrow(struct output_file *o, FILE *f);

/* "0,2-3": each CPU once; -EINVAL, -E2BIG */
int parse_cpu_ranges(const char *s, struct cpu_list *out);
/* "N" (the first N of @allowed) or a list, every CPU in @allowed */
int parse_cpus(const char *s, const struct cpu_list *allowed,
	       struct cpu_list *out);
bool cpu_list_has(const struct cpu_list *cpus, int cpu);
void cpu_list_free(struct cpu_list *cpus);

/* the progress line on a terminal's stderr (core/msg.c), the sampler's */
struct progress_line {
	bool shown;		/* erased before anything else is printed */
};

/* row @done of @total in @round (-1: loading it), its unit @unit */
void progress(struct progress_line *line, int done, int total,
	      const struct bench_row *row, int round, int unit);
/* @line erased, when it is shown */
void progress_end(struct progress_line *line);

/* a string, made printable where it is no UTF-8; null for NULL */
struct json_t *json_text(const char *s);

#endif /* __RUNNER_CORE_H */
