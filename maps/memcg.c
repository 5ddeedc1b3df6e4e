// SPDX-License-Identifier: GPL-2.0
/*
 * A memory cgroup of a --memory row's own: made empty, read with its
 * per-CPU stock returned, removed on every way out. A BPF map is charged
 * to the memory cgroup of the task that creates it (5.11 and later), its
 * later allocations too, whoever makes the update: a map made there is
 * all that is charged there.
 *
 * Nothing of it outlives the run, a SIGKILLed one included: the map's
 * creator, which lives in the cgroup, removes it when the run dies under
 * it (memcg_abandon()); a cgroup2 mount of our own is made in a mount
 * namespace of the run's own, which goes with the run. What is left all
 * the same (killed between two steps, the creator killed too) is named
 * after its run's pid, and the next --memory run removes it, saying so.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "bench.h"
#include "maps/memory.h"

/* the names of what a run makes, its pid after them */
#define CGROUP_PREFIX	"map_perf_test-memory."
#define MOUNT_PREFIX	"map_perf_test-cgroup2."
/* beside the rows' cgroups while we gave the parent its controller */
#define GAVE_MEMORY	"gave-memory"

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

/* ---- what killed runs left ---- */

/*
 * What this run removed of killed runs', said once in one line: the
 * tools' lock is held, so no other run is using them
 */
static char stale_said[1024];
static bool stale_looked;

static void stale_add(const char *what, const char *path)
{
	size_t off = strlen(stale_said);

	if (off + 4 >= sizeof(stale_said))
		return;
	snprintf(stale_said + off, sizeof(stale_said) - off, "%s%s %s",
		 off ? ", " : "", what, path);
	if (strlen(stale_said) + 4 >= sizeof(stale_said))
		strcpy(stale_said + sizeof(stale_said) - 4, "...");
}

static void stale_say(void)
{
	if (stale_said[0])
		pr_note("removed what killed runs left behind: %s", stale_said);
	stale_said[0] = '\0';
}

/*
 * The run named by @name's pid (after @prefix) is gone: no such task
 * here, or one that is not this program (its pid reused)
 */
static bool owner_gone(const char *name, const char *prefix)
{
	char path[64], comm[32] = "", self[32] = "";
	pid_t pid = atoi(name + strlen(prefix));
	FILE *f;

	if (pid <= 0 || pid == getpid())
		return pid <= 0;
	if (kill(pid, 0) && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	f = fopen("/proc/self/comm", "re");
	if (f) {
		if (!fgets(self, sizeof(self), f))
			self[0] = '\0';
		fclose(f);
	}
	return comm[0] && strcmp(comm, self);
}

/* a creator left in a killed run's cgroup: it goes, thawed if need be */
static int kill_line(char *line, void *ctx)
{
	pid_t pid = atoi(line);

	(void)ctx;
	if (pid > 0) {
		kill(pid, SIGKILL);
		thaw_out(pid);
	}
	return 0;
}

/* a killed run's cgroup @dir, once the tasks left in it are gone */
static bool remove_cgroup(const char *dir)
{
	char procs[PATH_MAX + 300];
	int i;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	for (i = 0; i < 100; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return true;
		if (errno != EBUSY)
			return false;
		for_each_line(procs, kill_line, NULL);
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
	return false;
}

/*
 * The rows' cgroups of killed runs in @parent, and the memory controller
 * given to @parent by one (its GAVE_MEMORY cgroup says so) taken back
 */
static void remove_stale_cgroups(const char *parent)
{
	char path[PATH_MAX + 256];
	bool gave = false;
	struct dirent *d;
	DIR *dir;

	dir = opendir(parent);
	while (dir && (d = readdir(dir))) {
		if (strncmp(d->d_name, CGROUP_PREFIX, strlen(CGROUP_PREFIX)) ||
		    !owner_gone(d->d_name, CGROUP_PREFIX))
			continue;
		snprintf(path, sizeof(path), "%s/%s", parent, d->d_name);
		if (!remove_cgroup(path))
			continue;
		stale_add("cgroup", path);
		gave |= strlen(d->d_name) > strlen(GAVE_MEMORY) &&
			!strcmp(d->d_name + strlen(d->d_name) -
				strlen(GAVE_MEMORY), GAVE_MEMORY);
	}
	if (dir)
		closedir(dir);
	/* EBUSY: a cgroup below took it meanwhile, and keeps it */
	if (gave && !write_text(parent, "cgroup.subtree_control", "-memory"))
		stale_add("+memory of", parent);
}

/*
 * The directory a killed run mounted its cgroup2 on, in /tmp: the mount
 * went with the run's mount namespace, the empty directory stayed. Only
 * an empty directory of ours goes (rmdir follows no link); nothing is
 * unmounted here, in the host's mount namespace, by a name in /tmp.
 */
static void remove_stale_mount_dirs(void)
{
	char path[PATH_MAX];
	struct dirent *d;
	struct stat st;
	DIR *dir;

	dir = opendir("/tmp");
	while (dir && (d = readdir(dir))) {
		if (strncmp(d->d_name, MOUNT_PREFIX, strlen(MOUNT_PREFIX)) ||
		    !owner_gone(d->d_name, MOUNT_PREFIX))
			continue;
		snprintf(path, sizeof(path), "/tmp/%s", d->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode) &&
		    st.st_uid == geteuid() && !rmdir(path))
			stale_add("directory", path);
	}
	if (dir)
		closedir(dir);
}

/* ---- where the row's cgroup goes ---- */

/* cgroup v1's memory hierarchy: the row's cgroup below ours */
static int v1_parent(struct memcg *cg)
{
	int err = task_cgroup_dir(0, "memory", cg->home, sizeof(cg->home));

	if (!err)
		strcpy(cg->parent, cg->home);
	return err;
}

/*
 * cgroup2 mounted nowhere (a VM's init): a mount of our own, in a mount
 * namespace of the run's own that goes with it, whatever ends it, on a
 * directory mkdtemp() made (0700: no one else's name). Never in the
 * host's: without a namespace of our own, no mount (the rows skip). The
 * creator, forked after, shares the namespace.
 */
static int mount_own(struct memcg *cg, struct cgroup_mount *m)
{
	static int unshared = 1;
	int err;

	if (unshared > 0) {
		remove_stale_mount_dirs();
		/* our mounts propagate nowhere */
		unshared = unshare(CLONE_NEWNS) ? -errno :
			   mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ?
			   -errno : 0;
	}
	if (unshared < 0)
		return unshared;
	snprintf(cg->mnt, sizeof(cg->mnt), "/tmp/" MOUNT_PREFIX "%d.XXXXXX",
		 getpid());
	if (!mkdtemp(cg->mnt))
		return -errno;
	if (mount("cgroup2", cg->mnt, "cgroup2", 0, NULL)) {
		err = -errno;
		rmdir(cg->mnt);
		cg->mnt[0] = '\0';
		return err;
	}
	snprintf(m->mnt, sizeof(m->mnt), "%s", cg->mnt);
	strcpy(m->root, "/");
	return 0;
}

/*
 * cgroup2: the controller is given to a cgroup by its parent, and only
 * the root may give it while it holds processes: the row's cgroup is a
 * sibling of ours, or a child of the root when we are there.
 */
static int v2_parent(struct memcg *cg)
{
	struct cgroup_mount m;
	char own[PATH_MAX];
	char *slash;
	int err;

	if (cgroup_mount(NULL, &m)) {
		err = mount_own(cg, &m);
		if (err)
			return err;
	}
	if (self_cgroup(NULL, own, sizeof(own)) ||
	    cgroup_dir(&m, own, cg->home, sizeof(cg->home)))
		return -ENOENT;
	strcpy(cg->parent, cg->home);
	slash = strrchr(cg->parent, '/');
	if (strcmp(cg->parent, m.mnt) && slash &&
	    slash >= cg->parent + strlen(m.mnt))
		*slash = '\0';
	return 0;
}

/* the marker that we gave @cg's parent its memory controller */
static void gave_path(const struct memcg *cg, char *path, size_t len)
{
	snprintf(path, len, "%.4000s/" CGROUP_PREFIX "%d." GAVE_MEMORY,
		 cg->parent, getpid());
}

/* v2: the parent gives the row's cgroup the memory controller */
static int give_memory(struct memcg *cg)
{
	char marker[PATH_MAX + 64];

	if (file_has_word(cg->parent, "cgroup.subtree_control", NULL,
			  "memory"))
		return 0;
	/* first, so that a run killed after it leaves it said */
	gave_path(cg, marker, sizeof(marker));
	if (mkdir(marker, 0755) && errno != EEXIST)
		return -errno;
	if (write_text(cg->parent, "cgroup.subtree_control", "+memory")) {
		rmdir(marker);
		return -EOPNOTSUPP;
	}
	cg->gave_memory = true;
	return 0;
}

/* the parent's memory controller back as it was, when we gave it */
static void take_memory_back(struct memcg *cg)
{
	char marker[PATH_MAX + 64];

	if (!cg->gave_memory)
		return;
	/* EBUSY: a cgroup below took it meanwhile, and keeps it */
	write_text(cg->parent, "cgroup.subtree_control", "-memory");
	gave_path(cg, marker, sizeof(marker));
	rmdir(marker);
	cg->gave_memory = false;
}

static void unmount_own(struct memcg *cg)
{
	if (!cg->mnt[0])
		return;
	umount2(cg->mnt, MNT_DETACH | UMOUNT_NOFOLLOW);
	rmdir(cg->mnt);
	cg->mnt[0] = '\0';
}

int memcg_create(struct memcg *cg, const char *name, struct outcome *out)
{
	int err;

	memset(cg, 0, sizeof(*cg));
	cg->version = 1;
	err = v1_parent(cg);
	if (err) {
		cg->version = 2;
		err = v2_parent(cg);
	}
	if (!err && !stale_looked) {
		stale_looked = true;
		remove_stale_cgroups(cg->parent);
		stale_say();
	}
	if (!err && cg->version == 2)
		err = give_memory(cg);
	if (err) {
		outcome_set(out, ST_SKIPPED,
			    "no memory cgroup to measure in: no cgroup v1 memory hierarchy, and cgroup2's memory controller unavailable (%s)",
			    strerror(-err));
		goto cleanup;
	}
	snprintf(cg->path, sizeof(cg->path), "%.4000s/" CGROUP_PREFIX "%d.%s",
		 cg->parent, getpid(), name);
	if (mkdir(cg->path, 0755)) {
		err = -errno;
		outcome_set(out, ST_SKIPPED, "cannot make a memory cgroup in %.100s: %s",
			    cg->parent, strerror(-err));
		cg->path[0] = '\0';
		goto cleanup;
	}
	cg->made = true;
	return 0;
cleanup:
	take_memory_back(cg);
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

static void remove_quietly(struct memcg *cg, bool quiet)
{
	int i, err = 0;

	if (cg->made) {
		/* the last task's exit may lag its wait by a moment */
		for (i = 0; i < 100 && (err = rmdir(cg->path) ? errno : 0) == EBUSY;
		     i++)
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
		/* ENOENT: a creator of a run that died took it */
		if (err && err != ENOENT && !quiet)
			pr_note("cannot remove %s: %s", cg->path, strerror(err));
		cg->made = false;
	}
	take_memory_back(cg);
	unmount_own(cg);
}

void memcg_remove(struct memcg *cg)
{
	remove_quietly(cg, false);
}

void memcg_abandon(struct memcg *cg)
{
	if (cg->made)
		write_text(cg->home, "cgroup.procs", "0");
	remove_quietly(cg, true);
}

const char *memcg_version_name(const struct memcg *cg)
{
	return cg->version == 2 ? "v2" : cg->version == 1 ? "v1" : "none";
}
