// SPDX-License-Identifier: GPL-2.0
/*
 * The watch over the children the runner waits on, so that no wait is for
 * ever: whether a task is stopped, frozen by its cgroup, given next to no
 * CPU or past its deadline (task_stuck(); for a pool's workers
 * workers_stuck(), and the reaping of those that died), whether a kept
 * pool's workers are still as they were forked (pool_well()), and the
 * wait for a child's end and its kill, a frozen one's too. Apart from the
 * pool: it reads tasks and never runs them, and it watches the attach
 * kinds' and the families' own children as it does the workers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "workers/workers.h"
#include "core/core.h"

/* a worker stopped this long fails the sample */
#define STOPPED_LIMIT_NS	(2 * 1000000000ull)
/*
 * and one that gets next to no CPU time for this long: less than this
 * share of it, by the scheduler's own ns (a clock tick's utime lands in
 * a task that runs 1 ms a second only now and then, and reset a check
 * of ticks at random: it took 5 to over 30 s)
 */
#define STALLED_LIMIT_NS	(5 * 1000000000ull)
#define STALLED_SHARE		0.005

static const char *state_name(char st)
{
	switch (st) {
	case 'T':
		return "stopped (T)";
	case 't':
		return "stopped by a tracer (t)";
	case 'D':
		return "in uninterruptible sleep (D)";
	case 'Z':
		return "dead (Z)";
	case 'S':
		return "sleeping (S)";
	default:
		return "running (R)";
	}
}

/*
 * What keeps a task from running, when it makes no progress: stopped
 * (T, t), or a cgroup's freezer (v1: D; v2's cgroup.freeze: S, a sleep
 * like any other); NULL when nothing does.
 */
static const char *held_by(pid_t pid, char state, bool progress)
{
	if (state == 'T' || state == 't')
		return state_name(state);
	if (progress || (state != 'S' && state != 'D'))
		return NULL;
	return task_frozen(pid);
}

void task_watch_init(struct task_watch *t)
{
	memset(t, 0, sizeof(*t));
	t->since_ns = t->stalled_since = now_ns();
}

int task_stuck(struct task_watch *t, pid_t pid, __u64 deadline_ns,
	       char *why, size_t len)
{
	struct proc_state ps;
	__u64 now = now_ns();
	const char *held;
	bool progress;

	if (read_proc_state(pid, &ps))
		return 0;	/* gone: its end is the news */
	progress = ps.cpu_ns - t->cpu_ns >
		   STALLED_SHARE * (now - t->stalled_since);
	held = held_by(pid, ps.state, progress);
	if (!held)
		t->stopped_since = 0;
	else if (!t->stopped_since)
		t->stopped_since = now;
	if (progress) {
		t->cpu_ns = ps.cpu_ns;
		t->stalled_since = now;
	}
	if (t->stopped_since && now - t->stopped_since > STOPPED_LIMIT_NS) {
		snprintf(why, len, "stayed %s for %llu s", held,
			 STOPPED_LIMIT_NS / 1000000000);
		return -ETIMEDOUT;
	}
	if (!t->stopped_since && now - t->stalled_since > STALLED_LIMIT_NS) {
		snprintf(why, len,
			 "got no CPU time to speak of for %llu s (under %.1f%%), %s",
			 STALLED_LIMIT_NS / 1000000000, 100 * STALLED_SHARE,
			 state_name(ps.state));
		return -ETIMEDOUT;
	}
	if (deadline_ns && now > deadline_ns) {
		snprintf(why, len, "ran past its deadline (%.1f s), %s",
			 (deadline_ns - t->since_ns) / 1e9,
			 state_name(ps.state));
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * True, with @out saying why, when a worker whose message is due is
 * stuck (task_stuck()). Only those are looked at: one that has sent its
 * message sleeps until the next go, and one whose message is due has
 * nothing to wait for: it runs, or something holds it.
 */
bool workers_stuck(struct worker_pool *pool, struct watch *w,
			  __u64 deadline_ns, struct outcome *out)
{
	char why[REASON_LEN - 64];
	int i;

	for (i = 0; i < pool->nr; i++) {
		if (pool->pid[i] <= 0 || w->reported[i] ||
		    !task_stuck(&w->task[i], pool->pid[i], deadline_ns, why,
				sizeof(why)))
			continue;
		outcome_set(out, ST_FAILED, "worker on CPU %d (pid %d) %s",
			    pool->cpu[i], pool->pid[i], why);
		return true;
	}
	return false;
}

/*
 * Reaps workers that exited; true, with @out naming it, when one died
 * before its result came: workers exit 0 only after sending it. With
 * @block, waits for each: they are known to be gone or going.
 */
bool reap_dead_workers(struct worker_pool *pool, bool block,
			      struct outcome *out)
{
	bool dead = false;
	int i, status;

	for (i = 0; i < pool->nr; i++) {
		if (pool->pid[i] <= 0 ||
		    waitpid(pool->pid[i], &status, block ? 0 : WNOHANG) !=
		    pool->pid[i])
			continue;
		pool->pid[i] = 0;
		if (dead)
			continue;	/* the first death is the news */
		if (WIFSIGNALED(status)) {
			outcome_set(out, ST_FAILED,
				    "worker on CPU %d died: %s", pool->cpu[i],
				    strsignal(WTERMSIG(status)));
			dead = true;
		} else if (WEXITSTATUS(status)) {
			outcome_set(out, ST_FAILED,
				    "worker on CPU %d exited with status %d",
				    pool->cpu[i], WEXITSTATUS(status));
			dead = true;
		}
	}
	return dead;
}

int watch_init(struct watch *w, int nr)
{
	int i;

	w->task = calloc(nr, sizeof(*w->task));
	w->reported = calloc(nr, sizeof(bool));
	if (!w->task || !w->reported)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		task_watch_init(&w->task[i]);
	return 0;
}

void watch_free(struct watch *w)
{
	free(w->task);
	free(w->reported);
}

/* a process's /proc/@pid/cgroup text, the same as ours? */
static bool same_cgroups(pid_t pid)
{
	char ours[4096], theirs[4096];

	return !read_proc_text(getpid(), "cgroup", ours, sizeof(ours)) &&
	       !read_proc_text(pid, "cgroup", theirs, sizeof(theirs)) &&
	       !strcmp(ours, theirs);
}

/* worker @i as it was forked: there, waiting, pinned, scheduled as we are */
static bool worker_well(struct worker_pool *pool, int i)
{
	struct sched_param ours, theirs;
	struct proc_state ps;
	pid_t pid = pool->pid[i];
	cpu_set_t set;
	int status;

	if (pid <= 0)
		return false;
	/* ended: reaped now, so that pool_stop() waits for it no more */
	if (waitpid(pid, &status, WNOHANG) == pid) {
		pool->pid[i] = 0;
		return false;
	}
	/*
	 * waiting for the go it sleeps (S), or is on its way there (R)
	 * right after its last result; stopped (T, t) or frozen it is not
	 */
	if (read_proc_state(pid, &ps) || (ps.state != 'S' && ps.state != 'R') ||
	    task_frozen(pid))
		return false;
	if (sched_getaffinity(pid, sizeof(set), &set) ||
	    CPU_COUNT(&set) != 1 || !CPU_ISSET(pool->cpu[i], &set))
		return false;
	if (sched_getscheduler(pid) != sched_getscheduler(0) ||
	    sched_getparam(pid, &theirs) || sched_getparam(0, &ours) ||
	    theirs.sched_priority != ours.sched_priority)
		return false;
	return same_cgroups(pid);
}

bool pool_well(struct worker_pool *pool)
{
	struct pollfd pfd = { .fd = pool->result_fd, .events = POLLIN };
	int i;

	if (!pool->go || !pool->nr)
		return false;
	for (i = 0; i < pool->nr; i++)
		if (!worker_well(pool, i))
			return false;
	/* between runs no worker has anything to say */
	return poll(&pfd, 1, 0) == 0;
}

int child_wait(pid_t pid, int *status, __u64 limit_ns)
{
	struct pollfd pfd = { .events = POLLIN };
	__u64 start = now_ns(), spent;
	int ms, ret = -ETIMEDOUT;
	pid_t got;

	/* readable once it has ended; without pidfds (before 5.3), ticks */
	pfd.fd = syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		got = waitpid(pid, status, WNOHANG);
		if (got == pid || (got < 0 && errno == ECHILD)) {
			ret = 0;
			break;
		}
		spent = now_ns() - start;
		if (spent >= limit_ns)
			break;
		ms = (limit_ns - spent + 999999) / 1000000;
		if (pfd.fd >= 0)
			poll(&pfd, 1, ms);
		else
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	if (pfd.fd >= 0)
		close(pfd.fd);
	return ret;
}

void thaw_out(pid_t pid)
{
	char dir[PATH_MAX + 16];
	char text[16];
	ssize_t n;
	int fd;

	if (!task_frozen(pid) || task_cgroup_dir(0, "freezer", dir, PATH_MAX))
		return;
	strcat(dir, "/cgroup.procs");
	fd = open(dir, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	snprintf(text, sizeof(text), "%d", pid);
	/* refused: it ends once thawed, the kill is pending */
	n = write(fd, text, strlen(text));
	(void)n;
	close(fd);
}

/* a child dead of SIGKILL goes within this; a frozen one is thawed */
#define KILL_WAIT_NS		(1000000000ull)

int child_kill(pid_t pid)
{
	kill(pid, SIGKILL);
	if (!child_wait(pid, NULL, KILL_WAIT_NS))
		return 0;
	thaw_out(pid);
	if (!child_wait(pid, NULL, KILL_WAIT_NS))
		return 0;
	pr_note("child %d does not die of SIGKILL (%s): it ends once it can",
		pid, task_frozen(pid) ?: "held in the kernel");
	return -EBUSY;
}
