// SPDX-License-Identifier: GPL-2.0
/*
 * A memory cgroup of a --memory row's own: made empty, read with its
 * per-CPU stock returned, removed on every way out. A BPF map is charged
 * to the memory cgroup of the task that creates it (5.11 and later), its
 * later allocations too, whoever makes the update: a map made there is
 * all that is charged there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "bench_msg.h"
#include "bench_util.h"
#include "bench_workers.h"
#include "maps/memory.h"

static int write_text(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

static bool file_has_word(const char *dir, const char *file, const char *word)
{
	char path[PATH_MAX + 64], w[64];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fscanf(f, "%63s", w) == 1)
		found = !strcmp(w, word);
	fclose(f);
	return found;
}

struct mount_find {
	bool v2;		/* cgroup2, else a v1 hierarchy with memory */
	char mnt[PATH_MAX];
	char root[PATH_MAX];	/* the mount's root inside the hierarchy */
};

/* a mountinfo line: "... root mnt opts ... - fstype src superopts" */
static int mount_line(char *line, void *ctx)
{
	struct mount_find *m = ctx;
	char root[PATH_MAX], mnt[PATH_MAX], fstype[32], super[512];
	char *dash = strstr(line, " - ");

	if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2 ||
	    sscanf(dash + 3, "%31s %*s %511s", fstype, super) != 2)
		return 0;
	if (m->v2 ? strcmp(fstype, "cgroup2") :
	    strcmp(fstype, "cgroup") || !strstr(super, "memory"))
		return 0;
	strcpy(m->mnt, mnt);
	strcpy(m->root, root);
	return 1;
}

/* where we are in the hierarchy, as a directory under its mount */
static int own_dir(bool v2, const struct mount_find *m, char *dir, size_t len)
{
	size_t rl = strlen(m->root);
	char own[PATH_MAX];
	const char *rel;

	if (self_cgroup(v2 ? NULL : "memory", own, sizeof(own)))
		return -ENOENT;
	rel = own;
	/* a mount of a subtree (a container's): the path is below its root */
	if (strcmp(m->root, "/") && !strncmp(rel, m->root, rl))
		rel += rl;
	if (!strcmp(rel, "/"))
		rel = "";
	snprintf(dir, len, "%.2000s%s%.2000s", m->mnt,
		 *rel && *rel != '/' ? "/" : "", rel);
	return 0;
}

/* cgroup v1's memory hierarchy: the row's cgroup below ours */
static int v1_parent(char *dir, size_t len)
{
	struct mount_find m = { .v2 = false };

	if (for_each_line("/proc/self/mountinfo", mount_line, &m) != 1)
		return -ENOENT;
	return own_dir(false, &m, dir, len);
}

/*
 * cgroup2: the controller is given to a cgroup by its parent, and only
 * the root may give it while it holds processes: the row's cgroup is a
 * sibling of ours, or a child of the root when we are there.
 */
static int v2_parent(struct memcg *cg, char *dir, size_t len)
{
	struct mount_find m = { .v2 = true };
	char *slash;
	int err;

	if (for_each_line("/proc/self/mountinfo", mount_line, &m) != 1) {
		/* none mounted (a VM's init): a mount of our own */
		snprintf(cg->mnt, sizeof(cg->mnt), "/tmp/map_perf_test-cgroup2.XXXXXX");
		if (!mkdtemp(cg->mnt))
			return -errno;
		if (mount("cgroup2", cg->mnt, "cgroup2", 0, NULL)) {
			err = -errno;
			rmdir(cg->mnt);
			cg->mnt[0] = '\0';
			return err;
		}
		snprintf(m.mnt, sizeof(m.mnt), "%s", cg->mnt);
		strcpy(m.root, "/");
	}
	err = own_dir(true, &m, dir, len);
	if (err)
		return err;
	slash = strrchr(dir, '/');
	if (strcmp(dir, m.mnt) && slash && slash >= dir + strlen(m.mnt))
		*slash = '\0';
	if (!file_has_word(dir, "cgroup.subtree_control", "memory")) {
		if (write_text(dir, "cgroup.subtree_control", "+memory"))
			return -EOPNOTSUPP;
		cg->gave_memory = true;
	}
	return 0;
}

/* the parent's memory controller back as it was, when we gave it */
static void take_memory_back(struct memcg *cg, const char *parent)
{
	if (!cg->gave_memory)
		return;
	/* EBUSY: a cgroup below took it meanwhile, and keeps it */
	write_text(parent, "cgroup.subtree_control", "-memory");
	cg->gave_memory = false;
}

static void unmount_own(struct memcg *cg)
{
	if (!cg->mnt[0])
		return;
	umount2(cg->mnt, MNT_DETACH);
	rmdir(cg->mnt);
	cg->mnt[0] = '\0';
}

int memcg_create(struct memcg *cg, const char *name, struct outcome *out)
{
	char dir[PATH_MAX];
	int err;

	memset(cg, 0, sizeof(*cg));
	cg->version = 1;
	err = v1_parent(dir, sizeof(dir));
	if (err) {
		cg->version = 2;
		err = v2_parent(cg, dir, sizeof(dir));
	}
	if (err) {
		outcome_set(out, ST_SKIPPED,
			    "no memory cgroup to measure in: no cgroup v1 memory hierarchy, and cgroup2's memory controller unavailable (%s)",
			    strerror(-err));
		goto cleanup;
	}
	snprintf(cg->path, sizeof(cg->path), "%.4000s/map_perf_test-memory.%d.%s",
		 dir, getpid(), name);
	if (mkdir(cg->path, 0755)) {
		err = -errno;
		outcome_set(out, ST_SKIPPED, "cannot make a memory cgroup in %.100s: %s",
			    dir, strerror(-err));
		cg->path[0] = '\0';
		goto cleanup;
	}
	cg->made = true;
	return 0;
cleanup:
	take_memory_back(cg, dir);
	unmount_own(cg);
	cg->version = 0;
	return err;
}

int memcg_enter(const struct memcg *cg)
{
	return write_text(cg->path, "cgroup.procs", "0");
}

/* the stock back, as the kernel does it from the writing task's CPU */
static void drain_here(const struct memcg *cg)
{
	if (cg->version == 1) {
		/*
		 * force_empty drains the stock and reclaims what it can: a
		 * map's kernel memory is not reclaimable, the creator's
		 * pages are locked
		 */
		write_text(cg->path, "memory.force_empty", "0");
		return;
	}
	/*
	 * memory.high below the usage drains the stock first; nothing else
	 * is reclaimable, and the creator, asleep, is throttled for nothing
	 */
	write_text(cg->path, "memory.high", "0");
	write_text(cg->path, "memory.high", "max");
}

/*
 * The kernel drains the writing CPU's stock at once and only schedules
 * the other CPUs' drains: a read right after can still hold a busy
 * CPU's. So the drain is written from each online CPU in turn (those
 * our cpuset allows), each CPU's own drain done before the read.
 */
static void drain_every_cpu(const struct memcg *cg)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t was;
	int cpu;

	if (sched_getaffinity(0, sizeof(was), &was)) {
		drain_here(cg);
		return;
	}
	for (cpu = 0; cpu < cpus && cpu < CPU_SETSIZE; cpu++)
		if (!pin_to_cpu(cpu))
			drain_here(cg);
	sched_setaffinity(0, sizeof(was), &was);
}

/* every CPU's stock back, then the usage */
int memcg_usage(const struct memcg *cg, __u64 *bytes)
{
	char path[PATH_MAX + 64];

	drain_every_cpu(cg);
	snprintf(path, sizeof(path), "%s/%s", cg->path,
		 cg->version == 1 ? "memory.usage_in_bytes" : "memory.current");
	return read_file_u64(path, bytes);
}

void memcg_remove(struct memcg *cg)
{
	char parent[PATH_MAX], *slash;
	int i, err = 0;

	if (cg->made) {
		/* the last task's exit may lag its wait by a moment */
		for (i = 0; i < 100 && (err = rmdir(cg->path) ? errno : 0) == EBUSY;
		     i++)
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
		if (err)
			pr_note("cannot remove %s: %s", cg->path, strerror(err));
		cg->made = false;
	}
	snprintf(parent, sizeof(parent), "%s", cg->path);
	slash = strrchr(parent, '/');
	if (slash) {
		*slash = '\0';
		take_memory_back(cg, parent);
	}
	unmount_own(cg);
}

const char *memcg_version_name(const struct memcg *cg)
{
	return cg->version == 2 ? "v2" : cg->version == 1 ? "v1" : "none";
}
