/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers the runner, both programs and the unit tests share, kept
 * out of bench.h: nothing here is part of the family API.
 */
#ifndef __BENCH_UTIL_H
#define __BENCH_UTIL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#ifndef ENOTSUPP
#define ENOTSUPP 524	/* the kernel's own, not in libc's errno.h */
#endif

/* elements in the array @a (an array, never a pointer) */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * What for_each_line() calls on each line, its newline removed: 0 reads
 * on, anything else stops the reading and is returned (1: found, or a
 * negative errno).
 */
typedef int (*line_fn)(char *line, void *ctx);

/*
 * Calls @fn on each line of the file @path, of any length, in order.
 * Returns what @fn returned last (0 when it read to the end), or -errno
 * when @path cannot be opened, -EIO when it cannot be read to the end.
 */
int for_each_line(const char *path, line_fn fn, void *ctx);

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
 * The number the file @path begins with into *@v: 0, -errno when it
 * cannot be opened, -EIO when it holds no number.
 */
int read_file_u64(const char *path, __u64 *v);

/*
 * A sysctl's number at @path (those read are never negative), -1 when it
 * cannot be read (many are root's)
 */
int read_sysctl_int(const char *path);

/*
 * Our cgroup's path in its hierarchy, from /proc/self/cgroup: cgroup
 * v2's ("0::/path") when @controller is NULL, else that of the v1
 * hierarchy with @controller ("4:memory:/path"), into @path (@len bytes).
 * 0, or -ENOENT when there is no such line.
 */
int self_cgroup(const char *controller, char *path, size_t len);
/* the same of the task @pid (0: ourselves), from /proc/<pid>/cgroup */
int task_cgroup(pid_t pid, const char *controller, char *path, size_t len);

/* where a cgroup hierarchy is mounted, and the mount's root in it */
struct cgroup_mount {
	char mnt[PATH_MAX];
	char root[PATH_MAX];
};

/*
 * The hierarchy's mount from /proc/self/mountinfo: cgroup2's when
 * @controller is NULL, else the v1 one that has @controller. 0, or
 * -ENOENT when none is mounted.
 */
int cgroup_mount(const char *controller, struct cgroup_mount *m);
/*
 * The directory of the cgroup @path (as /proc/<pid>/cgroup says it)
 * under the mount @m, into @dir: 0, or -ENOENT when the mount (a
 * container's subtree) does not hold it
 */
int cgroup_dir(const struct cgroup_mount *m, const char *path, char *dir,
	       size_t len);
/* the two above for the task @pid's cgroup (0: ourselves) */
int task_cgroup_dir(pid_t pid, const char *controller, char *dir, size_t len);
/*
 * Whether the file @dir/@name holds the word @word (after the word @key:
 * "key word" lines, as cgroup.events; NULL: anywhere)
 */
bool file_has_word(const char *dir, const char *name, const char *key,
		   const char *word);
/*
 * Whether a cgroup freezes the task @pid: cgroup v2's cgroup.freeze
 * (its cgroup.events says "frozen 1"; the task sleeps, state S) or the
 * v1 freezer (FROZEN or FREEZING). What says so, or NULL.
 */
const char *task_frozen(pid_t pid);

/* CLOCK_MONOTONIC, ns: the time every wait and loop of the runner is told by */
__u64 now_ns(void);

/* a line of kallsyms, "address type name [module]": a text symbol's name */
const char *text_symbol(const char *line, char *sym);

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
