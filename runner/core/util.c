// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers: /proc's texts, sysctls, cgroups, kallsyms' lines, the
 * time; the parsing of numbers and lists, apart from the command line so
 * that the probes, the families and the unit tests call it; CPU lists.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
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

int parse_u64(const char *s, __u64 min, __u64 max, __u64 *out)
{
	const char *digits = "0123456789";
	unsigned long long v;
	int base = 10;
	char *end;

	if (!s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		digits = "0123456789abcdefABCDEF";
		s += 2;
	}
	/* digits only: strtoull would take spaces, signs and a second 0x */
	if (!*s || s[strspn(s, digits)])
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	/* decimal only: strtod would take hex, "inf", "nan" and spaces */
	if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '.') ||
	    s[strspn(s, "0123456789.eE+-")])
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || !(v >= min && v <= max))
		return -ERANGE;
	*out = v;
	return 0;
}

int name_index(const char *name, const char *const *names, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

int parse_name_list(const char *list, const char *what,
		    const char *const *names, int nr, bool *mask)
{
	char *buf, *tok, *save = NULL;
	int i, err = 0;

	buf = strdup(list);
	if (!buf)
		return -1;
	memset(mask, 0, nr * sizeof(*mask));
	for (tok = strtok_r(buf, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		i = name_index(tok, names, nr);
		if (i < 0) {
			pr_err("unknown %s '%s' (see --help)", what,
			       printable(tok));
			err = -1;
		} else {
			mask[i] = true;
		}
	}
	for (i = 0; !err && i < nr && !mask[i]; i++)
		;
	if (!err && i == nr) {
		pr_err("empty %s list", what);
		err = -1;
	}
	free(buf);
	return err;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return (x > y) - (x < y);
}

int parse_u64_list(const char *s, __u64 min, __u64 max, __u64 *out,
		   int max_nr, int *nr)
{
	char *buf, *tok, *save = NULL, *dash;
	__u64 lo, hi;
	int i, err = 0;

	*nr = 0;
	buf = strdup(s);
	if (!buf)
		return -ENOMEM;
	for (tok = strtok_r(buf, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		err = parse_u64(tok, min, max, &lo);
		hi = lo;
		if (!err && dash)
			err = parse_u64(dash + 1, lo, max, &hi);
		for (; !err && lo <= hi; lo++) {
			if (*nr == max_nr)
				err = -E2BIG;
			else
				out[(*nr)++] = lo;
			if (lo == hi)
				break;	/* hi may be the largest __u64 */
		}
	}
	free(buf);
	if (!err && !*nr)
		err = -EINVAL;
	if (err)
		return err;
	qsort(out, *nr, sizeof(*out), cmp_u64);
	for (i = 1; i < *nr; i++)
		if (out[i] == out[i - 1])
			return -EINVAL;
	return 0;
}

/* the CPU numbers a list may name: the kernel's NR_CPUS limit */
#define MAX_CPU_NUMBER	8191

bool cpu_list_has(const struct cpu_list *cpus, int cpu)
{
	int i;

	for (i = 0; i < cpus->nr; i++)
		if (cpus->cpu[i] == cpu)
			return true;
	return false;
}

void cpu_list_free(struct cpu_list *cpus)
{
	free(cpus->cpu);
	cpus->cpu = NULL;
	cpus->nr = 0;
}

static int cpu_list_add(struct cpu_list *out, int *cap, __u64 cpu)
{
	int *grown;

	if (cpu_list_has(out, cpu))
		return -EINVAL;
	if (out->nr == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		grown = realloc(out->cpu, *cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		out->cpu = grown;
	}
	out->cpu[out->nr++] = cpu;
	return 0;
}

int parse_cpu_ranges(const char *s, struct cpu_list *out)
{
	char *buf, *tok, *save = NULL, *dash;
	int err = 0, cap = 0;
	__u64 lo, hi;

	out->nr = 0;
	out->cpu = NULL;
	buf = strdup(s);
	if (!buf)
		return -ENOMEM;
	/* the kernel's lists end in a newline; nothing else may */
	if (*buf && buf[strlen(buf) - 1] == '\n')
		buf[strlen(buf) - 1] = '\0';
	/* strtok_r would skip empty items: "0,,1" is a typo, not a list */
	if (!*buf || strchr(buf, '\n') || strstr(buf, ",,") ||
	    buf[0] == ',' || buf[strlen(buf) - 1] == ',')
		err = -EINVAL;
	for (tok = err ? NULL : strtok_r(buf, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		err = parse_u64(tok, 0, MAX_CPU_NUMBER, &lo);
		hi = lo;
		if (!err && dash)
			err = parse_u64(dash + 1, lo, MAX_CPU_NUMBER, &hi);
		for (; !err && lo <= hi; lo++)
			err = cpu_list_add(out, &cap, lo);
	}
	if (!err && !out->nr)
		err = -EINVAL;
	free(buf);
	if (err)
		cpu_list_free(out);
	return err ? (err == -ERANGE ? -EINVAL : err) : 0;
}

int parse_cpus(const char *s, const struct cpu_list *allowed,
	       struct cpu_list *out)
{
	__u64 n;
	int i, err;

	if (!strpbrk(s, ",-")) {
		/* a bare number is a count, as upstream's num_cpu */
		if (parse_u64(s, 1, allowed->nr, &n))
			return -ERANGE;
		out->cpu = malloc(n * sizeof(*out->cpu));
		if (!out->cpu)
			return -ENOMEM;
		out->nr = n;
		memcpy(out->cpu, allowed->cpu, n * sizeof(*out->cpu));
		return 0;
	}
	err = parse_cpu_ranges(s, out);
	if (err)
		return err;
	for (i = 0; i < out->nr; i++) {
		if (!cpu_list_has(allowed, out->cpu[i])) {
			cpu_list_free(out);
			return -ERANGE;
		}
	}
	return 0;
}

void format_cpus(const struct cpu_list *cpus, char *buf, size_t len)
{
	size_t off = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < cpus->nr && off < len; i = j) {
		for (j = i + 1; j < cpus->nr &&
		     cpus->cpu[j] == cpus->cpu[j - 1] + 1; j++)
			;
		off += snprintf(buf + off, len - off, "%s%d", i ? "," : "",
				cpus->cpu[i]);
		if (j - 1 > i && off < len)
			off += snprintf(buf + off, len - off, "-%d",
					cpus->cpu[j - 1]);
	}
}
