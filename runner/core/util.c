// SPDX-License-Identifier: GPL-2.0
/* Small helpers the runner, both programs and the tests share. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "core/core.h"

int for_each_line(const char *path, line_fn fn, void *ctx)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		ret = fn(line, ctx);
	}
	/* getline's -1 is the end, a read error or no memory for the line */
	if (!ret && !feof(f))
		ret = -EIO;
	free(line);
	fclose(f);
	return ret;
}

int sched_nr_migrations(const char *text, unsigned long long *n)
{
	static const char key[] = "se.nr_migrations";
	const char *p;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, sizeof(key) - 1) ||
		    (p[sizeof(key) - 1] != ' ' && p[sizeof(key) - 1] != ':'))
			continue;
		p = strchr(p, ':');
		return p && sscanf(p + 1, "%llu", n) == 1 ? 0 : -ENOENT;
	}
	return -ENOENT;
}

int proc_stat_steal(const char *text, int cpu, unsigned long long *ticks)
{
	unsigned long long v[8];
	char head[24];
	const char *p;
	size_t n;

	n = snprintf(head, sizeof(head), "cpu%d ", cpu);
	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, head, n))
			continue;
		/* user nice system idle iowait irq softirq steal */
		if (sscanf(p + n, "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) != 8 || !strchr(p, '\n'))
			return -ENOENT;
		*ticks = v[7];
		return 0;
	}
	return -ENOENT;
}

int read_file_u64(const char *path, __u64 *v)
{
	unsigned long long x;
	int err = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fscanf(f, "%llu", &x) == 1)
		*v = x;
	else
		err = -EIO;
	fclose(f);
	return err;
}

int read_sysctl_int(const char *path)
{
	__u64 v;

	return read_file_u64(path, &v) || v > INT_MAX ? -1 : (int)v;
}

struct cgroup_find {
	const char *controller;	/* NULL: cgroup v2 */
	char *path;
	size_t len;
};

/* /proc/self/cgroup: "0::/path" (v2), "4:cpu,memory:/path" (v1) */
static int cgroup_line(char *line, void *ctx)
{
	struct cgroup_find *c = ctx;
	char *ctl, *path, *tok, *save = NULL;

	if (!c->controller) {
		if (strncmp(line, "0::", 3))
			return 0;
		snprintf(c->path, c->len, "%s", line + 3);
		return 1;
	}
	ctl = strchr(line, ':');
	if (!ctl || !(path = strchr(ctl + 1, ':')))
		return 0;
	*path++ = '\0';
	for (tok = strtok_r(ctl + 1, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, c->controller)) {
			snprintf(c->path, c->len, "%s", path);
			return 1;
		}
	return 0;
}

int task_cgroup(pid_t pid, const char *controller, char *path, size_t len)
{
	struct cgroup_find c = { controller, path, len };
	char file[64];

	if (pid)
		snprintf(file, sizeof(file), "/proc/%d/cgroup", pid);
	else
		snprintf(file, sizeof(file), "/proc/self/cgroup");
	return for_each_line(file, cgroup_line, &c) == 1 ? 0 : -ENOENT;
}

int self_cgroup(const char *controller, char *path, size_t len)
{
	return task_cgroup(0, controller, path, len);
}

struct mount_find {
	const char *controller;	/* NULL: cgroup2 */
	struct cgroup_mount *m;
};

/* a mountinfo line: "... root mnt opts ... - fstype src superopts" */
static int mount_line(char *line, void *ctx)
{
	struct mount_find *f = ctx;
	char root[PATH_MAX], mnt[PATH_MAX], fstype[32], super[512];
	char *dash = strstr(line, " - "), *tok, *save = NULL;
	bool found = !f->controller;

	if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2 ||
	    sscanf(dash + 3, "%31s %*s %511s", fstype, super) != 2)
		return 0;
	if (strcmp(fstype, f->controller ? "cgroup" : "cgroup2"))
		return 0;
	for (tok = strtok_r(super, ",", &save); !found && tok;
	     tok = strtok_r(NULL, ",", &save))
		found = !strcmp(tok, f->controller);
	if (!found)
		return 0;
	snprintf(f->m->mnt, sizeof(f->m->mnt), "%s", mnt);
	snprintf(f->m->root, sizeof(f->m->root), "%s", root);
	return 1;
}

int cgroup_mount(const char *controller, struct cgroup_mount *m)
{
	struct mount_find f = { controller, m };

	return for_each_line("/proc/self/mountinfo", mount_line, &f) == 1 ?
	       0 : -ENOENT;
}

int cgroup_dir(const struct cgroup_mount *m, const char *path, char *dir,
	       size_t len)
{
	size_t rl = strlen(m->root);
	const char *rel = path;

	/* a mount of a subtree (a container's): the path is below its root */
	if (strcmp(m->root, "/") && !strncmp(rel, m->root, rl)) {
		if (rel[rl] && rel[rl] != '/')
			return -ENOENT;
		rel += rl;
	}
	if (!strcmp(rel, "/"))
		rel = "";
	snprintf(dir, len, "%.2000s%s%.2000s", m->mnt,
		 *rel && *rel != '/' ? "/" : "", rel);
	return 0;
}

int task_cgroup_dir(pid_t pid, const char *controller, char *dir, size_t len)
{
	struct cgroup_mount m;
	char path[PATH_MAX];

	if (task_cgroup(pid, controller, path, sizeof(path)) ||
	    cgroup_mount(controller, &m))
		return -ENOENT;
	return cgroup_dir(&m, path, dir, len);
}

bool file_has_word(const char *dir, const char *name, const char *key,
		   const char *word)
{
	char path[PATH_MAX + 64], w[64];
	bool found = false, after = !key;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fscanf(f, "%63s", w) == 1) {
		found = after && !strcmp(w, word);
		after = !key || !strcmp(w, key);
	}
	fclose(f);
	return found;
}

const char *task_frozen(pid_t pid)
{
	char dir[PATH_MAX];
	FILE *f;
	char state[32] = "";

	if (!task_cgroup_dir(pid, NULL, dir, sizeof(dir)) &&
	    file_has_word(dir, "cgroup.events", "frozen", "1"))
		return "frozen by its cgroup (cgroup v2 cgroup.freeze)";
	if (task_cgroup_dir(pid, "freezer", dir, sizeof(dir)))
		return NULL;
	strncat(dir, "/freezer.state", sizeof(dir) - strlen(dir) - 1);
	f = fopen(dir, "re");
	if (!f)
		return NULL;
	if (fscanf(f, "%31s", state) != 1)
		state[0] = '\0';
	fclose(f);
	/* FREEZING: on its way; a task that stays so is stuck as well */
	return strcmp(state, "FROZEN") && strcmp(state, "FREEZING") ? NULL :
	       "frozen by its cgroup (cgroup v1 freezer)";
}

const char *text_symbol(const char *line, char *sym)
{
	char type;

	if (sscanf(line, "%*s %c %255s", &type, sym) != 2 ||
	    (type != 't' && type != 'T'))
		return NULL;
	return sym;
}

__u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

const char *file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFLNK:
		return "a symbolic link";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	}
	return "of an unknown type";
}
