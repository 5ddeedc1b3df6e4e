/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers of the runner's own (bench_util.c): /proc's texts, sysctls,
 * kallsyms' lines, a task's cgroup. Those a family calls too (files,
 * cgroups, time) are in bench.h.
 */
#ifndef __BENCH_UTIL_H
#define __BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>
#include "bench.h"

/*
 * The steal time of CPU @cpu in /proc/stat's text @text: its line's 8th
 * field, in USER_HZ ticks, into *@ticks. 0, or -ENOENT when the text has
 * no such line (or it is cut short before its steal).
 */
int proc_stat_steal(const char *text, int cpu, unsigned long long *ticks);

/*
 * The times a thread moved between CPUs, in the text @text of its
 * /proc/<pid>/task/<tid>/sched (se.nr_migrations), into *@n. 0, or
 * -ENOENT when the text has no such line.
 */
int sched_nr_migrations(const char *text, unsigned long long *n);

/*
 * A sysctl's number at @path (those read are never negative), -1 when it
 * cannot be read (many are root's)
 */
int read_sysctl_int(const char *path);

/* self_cgroup()'s of the task @pid (0: ourselves), from /proc/<pid>/cgroup */
int task_cgroup(pid_t pid, const char *controller, char *path, size_t len);

/* a line of kallsyms, "address type name [module]": a text symbol's name */
const char *text_symbol(const char *line, char *sym);

/* "a FIFO", "a directory": what a file of @mode is, for a message */
const char *file_kind(mode_t mode);

/*
 * a character of a name: a mode's, a CPU's number (where a reason
 * names one, for the report and the skip groups)
 */
static inline bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

#endif /* __BENCH_UTIL_H */
