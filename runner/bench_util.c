// SPDX-License-Identifier: GPL-2.0
/* Small helpers the runner, both programs and the tests share. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

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

int self_cgroup(const char *controller, char *path, size_t len)
{
	struct cgroup_find c = { controller, path, len };

	return for_each_line("/proc/self/cgroup", cgroup_line, &c) == 1 ?
	       0 : -ENOENT;
}

const char *text_symbol(const char *line, char *sym)
{
	char type;

	if (sscanf(line, "%*s %c %255s", &type, sym) != 2 ||
	    (type != 't' && type != 'T'))
		return NULL;
	return sym;
}
