// SPDX-License-Identifier: GPL-2.0
/* The runner: messages, command-line helpers, environment, workers. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <bpf/libbpf.h>
#include "bench.h"

int verbosity = 1;
static const char *bench_name = "bench";
static volatile sig_atomic_t got_signal;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	if (verbosity < 2)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void bench_init(const char *prog_name)
{
	bench_name = prog_name;
	libbpf_set_print(libbpf_print);
}

static void vprint_line(const char *fmt, va_list ap)
{
	/* what stdout holds goes first, so the two read in order */
	fflush(stdout);
	fprintf(stderr, "%s: ", bench_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_line(fmt, ap);
	va_end(ap);
}

void pr_note(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	vprint_line(fmt, ap);
	va_end(ap);
}

/* ---- command line ---- */

int parse_u64(const char *s, __u64 min, __u64 max, __u64 *out)
{
	unsigned long long v;
	char *end;

	/* strtoull would quietly wrap "-1" around */
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static int cpu_list_add(struct cpu_list *out, __u64 cpu)
{
	int i;

	for (i = 0; i < out->nr; i++)
		if (out->cpu[i] == (int)cpu)
			return -EINVAL;
	if (out->nr >= MAX_WORKERS)
		return -E2BIG;
	out->cpu[out->nr++] = cpu;
	return 0;
}

/* "0,2-3": ranges and single CPUs, each CPU once */
static int parse_cpu_ranges(const char *s, struct cpu_list *out)
{
	char buf[1024], *tok, *save = NULL, *dash;
	__u64 lo, hi;
	int err;

	if (strlen(s) >= sizeof(buf))
		return -E2BIG;
	strcpy(buf, s);
	out->nr = 0;
	for (tok = strtok_r(buf, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		if (parse_u64(tok, 0, CPU_SETSIZE - 1, &lo))
			return -EINVAL;
		hi = lo;
		if (dash && (parse_u64(dash + 1, lo, CPU_SETSIZE - 1, &hi)))
			return -EINVAL;
		for (; lo <= hi; lo++) {
			err = cpu_list_add(out, lo);
			if (err)
				return err;
		}
	}
	return out->nr ? 0 : -EINVAL;
}

int online_cpus(struct cpu_list *out)
{
	char buf[1024];
	FILE *f;
	int err;

	f = fopen("/sys/devices/system/cpu/online", "r");
	if (!f)
		return -errno;
	err = fgets(buf, sizeof(buf), f) ? parse_cpu_ranges(buf, out) : -EIO;
	fclose(f);
	return err;
}

static bool cpu_is_online(const struct cpu_list *online, int cpu)
{
	int i;

	for (i = 0; i < online->nr; i++)
		if (online->cpu[i] == cpu)
			return true;
	return false;
}

int parse_cpus(const char *s, struct cpu_list *out)
{
	struct cpu_list online;
	__u64 n;
	int i, err;

	err = online_cpus(&online);
	if (err)
		return err;
	if (!strpbrk(s, ",-")) {
		/* a bare number is a count, as upstream's num_cpu */
		if (parse_u64(s, 1, online.nr, &n))
			return -ERANGE;
		out->nr = n;
		memcpy(out->cpu, online.cpu, n * sizeof(out->cpu[0]));
		return 0;
	}
	err = parse_cpu_ranges(s, out);
	if (err)
		return err;
	for (i = 0; i < out->nr; i++)
		if (!cpu_is_online(&online, out->cpu[i]))
			return -ERANGE;
	return 0;
}

int select_cpus(const char *s, struct cpu_list *out)
{
	if (!(s ? parse_cpus(s, out) : online_cpus(out)))
		return 0;
	pr_err("bad CPUs '%s': a count from 1 to the online CPUs, or a list of online CPUs",
	       s ? s : "(online)");
	return -1;
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
	char buf[512], *tok, *save = NULL;
	int i;

	if (strlen(list) >= sizeof(buf)) {
		pr_err("%s list too long", what);
		return -1;
	}
	strcpy(buf, list);
	memset(mask, 0, nr * sizeof(*mask));
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		i = name_index(tok, names, nr);
		if (i < 0) {
			pr_err("unknown %s '%s' (see --help)", what, tok);
			return -1;
		}
		mask[i] = true;
	}
	return 0;
}

/* ---- environment ---- */

static bool has_cap(const struct __user_cap_data_struct *data, int cap)
{
	return data[cap / 32].effective & (1U << (cap % 32));
}

int check_privileges(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	if (has_cap(data, CAP_SYS_ADMIN) ||
	    (has_cap(data, CAP_BPF) && has_cap(data, CAP_PERFMON)))
		return 0;
	pr_err("needs root, or CAP_BPF and CAP_PERFMON (try sudo)");
	return -EPERM;
}

static bool is_tracefs(const char *path)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == TRACEFS_MAGIC;
}

int ensure_tracefs(void)
{
	const char *path = "/sys/kernel/tracing";

	if (is_tracefs(path) || is_tracefs("/sys/kernel/debug/tracing"))
		return 0;
	if (mount("nodev", path, "tracefs", 0, NULL)) {
		/* not fatal: only tracepoint modes need it, and they say so */
		pr_note("tracefs is not mounted and mounting it at %s failed: %s",
			path, strerror(errno));
		return -errno;
	}
	pr_note("mounted tracefs at %s", path);
	return 0;
}

/* ---- signals ---- */

static void on_signal(int sig)
{
	got_signal = sig;
}

void install_signal_handlers(void)
{
	/* no SA_RESTART: a signal must break the parent out of its waits */
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int bench_interrupted(void)
{
	return got_signal;
}

/* ---- workers ---- */

enum { MSG_READY, MSG_DONE };

struct worker_msg {
	int type;
	struct worker_result res;
};

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void worker_send(int fd, int type, const struct worker_result *res)
{
	struct worker_msg msg = { .type = type, .res = *res };

	/* smaller than PIPE_BUF, so workers' messages never interleave */
	if (write(fd, &msg, sizeof(msg)) != sizeof(msg))
		_exit(1);
}

/*
 * With a duration the worker runs the loop in chunks and reads the clock
 * between them: often enough to stop on time, rarely enough (a vDSO call
 * per DURATION_CHUNK syscalls) not to disturb what is measured.
 */
#define DURATION_CHUNK 1000

static __u64 run_for(const struct trigger *trigger, void *state,
		     __u64 start, __u64 duration_ns)
{
	__u64 calls = 0;

	do {
		trigger->run(state, DURATION_CHUNK);
		calls += DURATION_CHUNK;
	} while (now_ns() - start < duration_ns);
	return calls;
}

static void __attribute__((noreturn))
worker_main(int cpu, int go_fd, int result_fd,
	    const struct trigger *trigger, __u64 count, __u64 duration_ns)
{
	unsigned int per_call = trigger->events_per_call ?: 1;
	__u64 calls = (count + per_call - 1) / per_call;
	struct worker_result res = { .cpu = cpu };
	void *state = NULL;
	cpu_set_t set;
	__u64 start;
	char c;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	/* a parent killed with SIGKILL must not leave workers behind */
	prctl(PR_SET_PDEATHSIG, SIGKILL);

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		res.err = -errno;
		res.pin_failed = true;
	} else if (trigger->setup)
		res.err = trigger->setup(&state);
	worker_send(result_fd, MSG_READY, &res);
	/* the message says what went wrong: this is not a death */
	if (res.err)
		_exit(0);

	/* EOF on the go pipe is the start signal, for all workers at once */
	if (read(go_fd, &c, 1) != 0)
		_exit(1);
	start = now_ns();
	if (duration_ns)
		calls = run_for(trigger, state, start, duration_ns);
	else
		trigger->run(state, calls);
	res.elapsed_ns = now_ns() - start;
	res.events = calls * per_call;
	worker_send(result_fd, MSG_DONE, &res);
	_exit(0);
}

static int worker_index(const struct worker_pool *pool, int cpu)
{
	int i;

	for (i = 0; i < pool->nr; i++)
		if (pool->cpu[i] == cpu)
			return i;
	return -1;
}

/*
 * Reaps workers that exited; true, with a line naming it, when one died
 * before its result came: workers exit 0 only after sending it.
 */
static bool reap_dead_workers(struct worker_pool *pool)
{
	bool dead = false;
	int i, status;

	for (i = 0; i < pool->nr; i++) {
		if (pool->pid[i] <= 0 ||
		    waitpid(pool->pid[i], &status, WNOHANG) != pool->pid[i])
			continue;
		pool->pid[i] = 0;
		if (WIFSIGNALED(status)) {
			pr_err("worker on CPU %d died: %s", pool->cpu[i],
			       strsignal(WTERMSIG(status)));
			dead = true;
		} else if (WEXITSTATUS(status)) {
			pr_err("worker on CPU %d exited with status %d",
			       pool->cpu[i], WEXITSTATUS(status));
			dead = true;
		}
	}
	return dead;
}

/*
 * Reads one message. The other workers keep the pipe open, so a dead
 * worker shows only in waitpid: look every DEAD_CHECK_MS while waiting.
 * -EINTR on a signal, -ECHILD when a worker died.
 */
#define DEAD_CHECK_MS 200
static int pool_recv(struct worker_pool *pool, struct worker_msg *msg)
{
	struct pollfd pfd = { .fd = pool->result_fd, .events = POLLIN };
	ssize_t n;
	int ret;

	for (;;) {
		if (bench_interrupted())
			return -EINTR;
		ret = poll(&pfd, 1, DEAD_CHECK_MS);
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (ret <= 0) {
			if (reap_dead_workers(pool))
				return -ECHILD;
			continue;
		}
		n = read(pool->result_fd, msg, sizeof(*msg));
		if (n == sizeof(*msg))
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		/* EOF: every worker is gone, some without a result */
		reap_dead_workers(pool);
		return -ECHILD;
	}
}

static int pool_fail(struct worker_pool *pool, int err)
{
	pool_stop(pool);
	return err;
}

int pool_start(struct worker_pool *pool, const struct cpu_list *cpus,
	       const struct trigger *trigger, __u64 count, __u64 duration_ns)
{
	int go[2], result[2], i, err;
	struct worker_msg msg;

	memset(pool, 0, sizeof(*pool));
	pool->go_fd = pool->result_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(result, O_CLOEXEC)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		return err;
	}
	pool->go_fd = go[1];
	pool->result_fd = result[0];
	/* what is buffered must not be printed again by every child */
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < cpus->nr; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			err = -errno;
			close(go[0]);
			close(result[1]);
			return pool_fail(pool, err);
		}
		if (pid == 0) {
			close(go[1]);
			close(result[0]);
			worker_main(cpus->cpu[i], go[0], result[1], trigger,
				    count, duration_ns);
		}
		pool->cpu[i] = cpus->cpu[i];
		pool->pid[i] = pid;
		pool->nr++;
	}
	close(go[0]);
	close(result[1]);

	for (i = 0; i < pool->nr; i++) {
		err = pool_recv(pool, &msg);
		if (err)
			return pool_fail(pool, err);
		if (msg.res.err) {
			pr_err("worker on CPU %d: %s: %s", msg.res.cpu,
			       msg.res.pin_failed ? "cannot pin to its CPU" :
			       "set-up failed", strerror(-msg.res.err));
			return pool_fail(pool, msg.res.err);
		}
	}
	return 0;
}

int pool_run(struct worker_pool *pool, struct worker_result *res)
{
	struct worker_msg msg;
	int i, idx, err, status;

	close(pool->go_fd);
	pool->go_fd = -1;
	for (i = 0; i < pool->nr; i++) {
		err = pool_recv(pool, &msg);
		if (err)
			return pool_fail(pool, err);
		idx = worker_index(pool, msg.res.cpu);
		if (idx < 0 || msg.type != MSG_DONE)
			return pool_fail(pool, -EPROTO);
		res[idx] = msg.res;
	}
	for (i = 0; i < pool->nr; i++) {
		if (pool->pid[i] > 0 &&
		    waitpid(pool->pid[i], &status, 0) == pool->pid[i])
			pool->pid[i] = 0;
	}
	pool_stop(pool);
	return 0;
}

void pool_stop(struct worker_pool *pool)
{
	int i;

	for (i = 0; i < pool->nr; i++) {
		if (pool->pid[i] <= 0)
			continue;
		kill(pool->pid[i], SIGKILL);
		waitpid(pool->pid[i], NULL, 0);
		pool->pid[i] = 0;
	}
	if (pool->go_fd >= 0)
		close(pool->go_fd);
	if (pool->result_fd >= 0)
		close(pool->result_fd);
	pool->go_fd = pool->result_fd = -1;
}

/* ---- outcomes ---- */

void outcome_set(struct outcome *o, enum status st, const char *fmt, ...)
{
	va_list ap;

	o->status = st;
	va_start(ap, fmt);
	vsnprintf(o->reason, sizeof(o->reason), fmt, ap);
	va_end(ap);
}

const char *status_name(enum status st)
{
	switch (st) {
	case ST_OK:
		return "ok";
	case ST_SKIPPED:
		return "skipped";
	default:
		return "FAILED";
	}
}

void measure(struct measurement *m, const struct worker_result *res, int nr)
{
	double ns_sum = 0;
	int i;

	m->nr_workers = nr;
	m->events = 0;
	m->rate = 0;
	for (i = 0; i < nr; i++) {
		double ns = res[i].elapsed_ns ? res[i].elapsed_ns : 1;

		m->events += res[i].events;
		m->rate += res[i].events * 1e9 / ns;
		ns_sum += ns / res[i].events;
	}
	m->ns_per_event = nr ? ns_sum / nr : 0;
	m->prog_ns = NAN;
}
