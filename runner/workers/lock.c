// SPDX-License-Identifier: GPL-2.0
/*
 * One run of these tools at a time on a machine: a lock file, held until
 * exit, that names its holder; a second run waits for it, saying so, up
 * to --lock-wait. Two runs would measure each other.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "kernel/kernel.h"
#include "core/core.h"
#include "workers/workers.h"

static const char *lock_path(void)
{
	struct stat st;

	return !stat("/run/lock", &st) && S_ISDIR(st.st_mode) ?
	       "/run/lock/bpf-overhead-bench.lock" :
	       "/tmp/bpf-overhead-bench.lock";
}

/*
 * "test_overhead (pid 123)" from the lock file, when it says: whoever
 * wrote it, its controls shown escaped, never sent to the terminal
 */
static void lock_holder(int fd, char *buf, size_t len)
{
	char text[64] = "";
	ssize_t n;
	int pid;
	char tool[32];

	n = pread(fd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	if (sscanf(text, "%d %31s", &pid, tool) == 2)
		snprintf(buf, len, "%s (pid %d)", printable(tool), pid);
	else
		snprintf(buf, len, "another run");
}

static void lock_claim(int fd, const char *tool)
{
	char text[64];
	int n;

	n = snprintf(text, sizeof(text), "%d %s\n", getpid(), tool);
	if (ftruncate(fd, 0) || pwrite(fd, text, n, 0) != n)
		return;	/* the lock holds; only its label is missing */
}

/*
 * The lock file, where it is and as what it is: a regular file. Never
 * opened through a link planted at its place (O_NOFOLLOW: whatever it
 * names would be written), nor waiting on a FIFO there (O_NONBLOCK: an
 * open for reading waits for a writer, before --lock-wait applies).
 * The fd, or -errno after one line naming what is there.
 */
static int lock_open(const char *path)
{
	const int how = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDWR | O_CREAT | how, 0644);
	/*
	 * Made by root: a run with CAP_BPF and CAP_PERFMON only may not
	 * write it, but flock() needs no write access; only the holder's
	 * label is then left unwritten. (A FIFO or a file of another user's
	 * in a sticky directory, with fs.protected_fifos or _regular, too.)
	 */
	if (fd < 0 && errno == EACCES)
		fd = open(path, O_RDONLY | how);
	if (fd < 0) {
		err = -errno;
		if (!lstat(path, &st) && !S_ISREG(st.st_mode))
			goto not_regular;
		pr_err("cannot open the lock %s: %s", path, strerror(-err));
		return err;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		pr_err("cannot open the lock %s: %s", path, strerror(-err));
		goto fail;
	}
	if (S_ISREG(st.st_mode))
		return fd;
not_regular:
	err = -EINVAL;
	pr_err("the lock %s is %s, not a regular file: refused (remove it if no run of these tools made it)",
	       path, file_kind(st.st_mode));
fail:
	if (fd >= 0)
		close(fd);
	return err;
}

int bench_lock(const char *tool, double wait_s)
{
	const char *path = lock_path();
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	char holder[160];
	__u64 deadline;
	bool said = false;
	int fd, err;

	fd = lock_open(path);
	if (fd < 0)
		return fd;
	deadline = now_ns() + wait_s * 1e9;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			err = -errno;
			pr_err("cannot lock %s: %s", path, strerror(-err));
			goto fail;
		}
		lock_holder(fd, holder, sizeof(holder));
		err = -EINTR;
		if (bench_interrupted())
			goto fail;
		err = -EBUSY;
		if (now_ns() >= deadline) {
			pr_err("%s is running and holds %s: not waiting longer than %g s (--lock-wait)",
			       holder, path, wait_s);
			goto fail;
		}
		if (!said)
			pr_note("waiting for %s to finish: runs on one machine must not overlap",
				holder);
		said = true;
		nanosleep(&tick, NULL);
	}
	lock_claim(fd, tool);
	/* held until exit: the kernel drops it with the last fd */
	return 0;
fail:
	close(fd);
	return err;
}
