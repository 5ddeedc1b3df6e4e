// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test --memory: a row per map kind and size. Each row makes a
 * memory cgroup of its own, has a child process in it create the map
 * (a map is charged to its creator's cgroup, all its life), fills it
 * from here with bpf_map_update_elem and reads what the cgroup was
 * charged, beside memlock, the kernel's own estimate in fdinfo. A row
 * whose charge is less than its elements' own bytes is FAILED: the map
 * was not measured where it lives. Hash kinds and the LPM trie then
 * churn: every key deleted and added again, MEM_CHURN_CYCLES times, as
 * htab-mem does, and the charge once it settles.
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
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "maps/map_perf.h"
#include "maps/memory.h"

#define KEY_VALUE(t)	.type = BPF_MAP_TYPE_##t, .key_size = 4, .value_size = 8
#define NOPRE		.flags = BPF_F_NO_PREALLOC
/* a ring buffer's element: a 64-byte record, and its 8-byte header */
#define MEM_RECORD	64
#define RECORD_HEADER	8

/* as many as NR_MEM_KINDS, or memory.h's declaration does not compile */
const struct mem_kind mem_kinds[] = {
	{ "hash", "HASH, preallocated", KEY_VALUE(HASH), .churn = true },
	{ "hash_nopre", "HASH, BPF_F_NO_PREALLOC", KEY_VALUE(HASH), NOPRE,
	  .churn = true },
	{ "percpu_hash", "PERCPU_HASH, preallocated", KEY_VALUE(PERCPU_HASH),
	  .percpu = true, .churn = true },
	{ "percpu_hash_nopre", "PERCPU_HASH, BPF_F_NO_PREALLOC",
	  KEY_VALUE(PERCPU_HASH), NOPRE, .percpu = true, .churn = true },
	/* an LRU map is always preallocated: NO_PREALLOC is refused */
	{ "lru_hash", "LRU_HASH", KEY_VALUE(LRU_HASH), .churn = true },
	{ "lru_percpu_hash", "LRU_PERCPU_HASH", KEY_VALUE(LRU_PERCPU_HASH),
	  .percpu = true, .churn = true },
	/* a /32 prefix and its 4 bytes; NO_PREALLOC is required */
	{ "lpm_trie", "LPM_TRIE of /32 prefixes (NO_PREALLOC is required)",
	  .type = BPF_MAP_TYPE_LPM_TRIE, .key_size = 8, .value_size = 8,
	  NOPRE, .fill = FILL_LPM, .churn = true },
	{ "array", "ARRAY", KEY_VALUE(ARRAY), .payload = PAYLOAD_VALUE },
	{ "percpu_array", "PERCPU_ARRAY", KEY_VALUE(PERCPU_ARRAY),
	  .percpu = true, .payload = PAYLOAD_VALUE },
	{ "bloom_filter", "BLOOM_FILTER, 5 hashes (the default)",
	  .type = BPF_MAP_TYPE_BLOOM_FILTER, .value_size = 8,
	  .fill = FILL_PUSH, .payload = PAYLOAD_BLOOM_BITS },
	{ "queue", "QUEUE", .type = BPF_MAP_TYPE_QUEUE, .value_size = 8,
	  .fill = FILL_PUSH, .payload = PAYLOAD_VALUE },
	{ "stack", "STACK", .type = BPF_MAP_TYPE_STACK, .value_size = 8,
	  .fill = FILL_PUSH, .payload = PAYLOAD_VALUE },
	{ "ringbuf", "RINGBUF sized for N 64-byte records",
	  .type = BPF_MAP_TYPE_RINGBUF, .fill = FILL_NONE,
	  .payload = PAYLOAD_RECORD },
	/* a value on each of N tasks; NO_PREALLOC is required */
	{ "task_storage", "TASK_STORAGE on N tasks forked for it (N <= 1024)",
	  .type = BPF_MAP_TYPE_TASK_STORAGE, .key_size = 4, .value_size = 8,
	  NOPRE, .fill = FILL_TASKS, .payload = PAYLOAD_VALUE },
};

/* --memory all, or a list of kinds: the last --memory's */
int parse_memory_kinds(struct map_options *opt, const char *arg)
{
	const char *names[NR_MEM_KINDS];
	int k;

	opt->memory = true;
	for (k = 0; k < NR_MEM_KINDS; k++) {
		names[k] = mem_kinds[k].name;
		opt->mem_kind_on[k] = true;
	}
	if (!strcmp(arg, "all"))
		return 0;
	return parse_name_list(arg, "map kind", names, NR_MEM_KINDS,
			       opt->mem_kind_on);
}

static const __u64 default_sizes[] = MEM_DEFAULT_SIZES;

/* task storage forks a task per element: MEM_MAX_TASKS at most */
static bool kind_runs_at(const struct mem_kind *k, __u64 n)
{
	return k->fill != FILL_TASKS || n <= MEM_MAX_TASKS;
}

/* a usage error before anything runs: a selection that makes no row */
bool memory_rows_possible(const struct map_options *opt)
{
	int k, s;

	for (k = 0; k < NR_MEM_KINDS; k++)
		for (s = 0; opt->mem_kind_on[k] && s < opt->entries.nr; s++)
			if (kind_runs_at(&mem_kinds[k], opt->entries.v[s]))
				return true;
	return !opt->entries.nr;
}

/* a row per selected kind and size; task storage up to MEM_MAX_TASKS */
int add_memory_rows(const struct run_settings *rs, struct bench_rows *rows,
		    bool listing)
{
	const struct map_options *opt = map_opts(rs);
	const __u64 *sizes = opt->entries.nr ? opt->entries.v : default_sizes;
	int nr = opt->entries.nr ?: (int)ARRAY_SIZE(default_sizes);
	struct bench_row *row;
	struct mem_row *m;
	int k, s;

	for (k = 0; k < NR_MEM_KINDS; k++) {
		if (!opt->mem_kind_on[k])
			continue;
		for (s = 0; s < (listing ? 1 : nr); s++) {
			if (!kind_runs_at(&mem_kinds[k], sizes[s])) {
				if (!listing)
					pr_note("entries %llu: task_storage forks a task per element, at most %d; it runs at the other sizes",
						sizes[s], MEM_MAX_TASKS);
				continue;
			}
			m = calloc(1, sizeof(*m));
			row = bench_add_row(rows, mem_kinds[k].name, "memory");
			if (!m || !row)
				return -ENOMEM;
			m->kind = &mem_kinds[k];
			m->entries = sizes[s];
			row->priv = m;
			row->cpus = &rs->cpus;
			row->runs_prog = true;
			row->measured_in_open = true;
			if (!listing)
				row_add_param(row, "entries", m->entries);
		}
	}
	if (!rows->nr) {
		pr_err("nothing selected: no --memory kind runs at these sizes");
		return -EINVAL;
	}
	return 0;
}

/* ---- what the kernel can do ---- */

/* /proc/cmdline's line: 1 when it has cgroup.memory=...nobpf... */
static int nobpf_line(char *line, void *ctx)
{
	char *tok, *save, *o, *save2;

	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (strncmp(tok, "cgroup.memory=", 14))
			continue;
		for (o = strtok_r(tok + 14, ",", &save2); o;
		     o = strtok_r(NULL, ",", &save2))
			if (!strcmp(o, "nobpf"))
				return 1;
	}
	return 0;
}

/* whether the kernel was booted with cgroup.memory=...nobpf... */
static bool booted_nobpf(void)
{
	return for_each_line("/proc/cmdline", nobpf_line, NULL) == 1;
}

/*
 * A kernel charges BPF maps to memory cgroups where struct bpf_map keeps
 * the creator's (objcg, in its BTF), unless booted not to
 */
static int probe_charging(struct outcome *out)
{
	if (!btf_struct_has("bpf_map", "objcg")) {
		outcome_set(out, ST_SKIPPED,
			    "this kernel's struct bpf_map has no objcg: it charges BPF maps to no memory cgroup");
		return -EOPNOTSUPP;
	}
	if (booted_nobpf()) {
		outcome_set(out, ST_SKIPPED,
			    "booted with cgroup.memory=nobpf: BPF maps are not charged");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int probe_kind(const struct mem_kind *k, struct outcome *out)
{
	/* 0: no such type; an error is left to the creation to say */
	if (libbpf_probe_bpf_map_type(k->type, NULL))
		return 0;
	outcome_set(out, ST_SKIPPED, "this kernel has no %s maps",
		    libbpf_bpf_map_type_str(k->type));
	return -EOPNOTSUPP;
}

/* ---- the map, made in the cgroup ---- */

/* task storage's key must be an int and its value typed, in BTF */
static int storage_btf(void)
{
	struct btf *btf = btf__new_empty();
	int fd;

	if (!btf)
		return -ENOMEM;
	if (btf__add_int(btf, "int", 4, BTF_INT_SIGNED) < 0 ||
	    btf__add_int(btf, "long", 8, BTF_INT_SIGNED) < 0 ||
	    btf__load_into_kernel(btf)) {
		btf__free(btf);
		return -EINVAL;
	}
	fd = dup(btf__fd(btf));
	btf__free(btf);
	return fd < 0 ? -errno : fd;
}

static int map_create(const struct mem_row *m, int btf_fd)
{
	const struct mem_kind *k = m->kind;
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = k->flags);

	if (btf_fd >= 0) {
		o.btf_fd = btf_fd;
		o.btf_key_type_id = 1;
		o.btf_value_type_id = 2;
	}
	return bpf_map_create(k->type, k->name, k->key_size, k->value_size,
			      m->max_entries, &o);
}

/*
 * The map's creator: a child in the row's cgroup (elsewhere with the test
 * fault memcg-outside). It stays, asleep, until the row is done: what
 * it charged there (its stack, its page tables) is in the base, read
 * once it is in, and would be freed by its exit after an RCU grace
 * period or later, under a read (2 pages of an array of 4096 were).
 *
 * The parent waits for each of its steps watched, as it does workers
 * (task_stuck()): one stopped, frozen or stalled fails the row, named.
 * Should the run die under it, however (SIGKILL), it removes the row's
 * cgroup itself: its end of their socket ends without the parent's last
 * word.
 */
struct creator {
	pid_t pid;
	int fd;		/* a socket: its reports { -errno, map id }, down a
			 * byte a step (create, then close), 'q' the last */
	char why[REASON_LEN - 64];	/* a stuck or dead creator, said */
};

/* a creator's step is a map's creation: this long at most, stalls aside */
#define CREATOR_STEP_NS		(30 * 1000000000ull)
/* how often the parent looks at it meanwhile */
#define CREATOR_WATCH_MS	200

static bool tell(int fd, const int msg[2])
{
	/* MSG_NOSIGNAL: a reader gone is an error, not a SIGPIPE */
	return send(fd, msg, 2 * sizeof(int), MSG_NOSIGNAL) ==
	       2 * sizeof(int);
}

/* the parent's word: a step (1), its last ('q': 0), or none (-1) */
static int next_word(int fd)
{
	ssize_t n;
	char c;

	while ((n = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	return n != 1 ? -1 : c != 'q';
}

/*
 * The creator's end, once its parent has had its last word. The end of
 * their socket without it is the run dying (a SIGKILL: the socket closes
 * before the creator is given another parent): it takes the row's
 * cgroup with it.
 */
static __attribute__((noreturn)) void creator_exit(pid_t parent,
						    struct mem_row *m, int sock)
{
	int w;

	while ((w = next_word(sock)) > 0)
		;
	if (w < 0 || getppid() != parent)
		memcg_abandon(&m->cg);
	_exit(0);
}

static void __attribute__((noreturn))
creator_child(pid_t parent, struct mem_row *m, enum test_fault_kind fault,
	      int btf_fd, int sock)
{
	bool outside = fault == BENCH_FAULT_MEMCG_OUTSIDE;
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int msg[2] = { 0, 0 }, fd;

	child_defaults(parent);
	/*
	 * Not killed with its parent, as workers are: it cleans up after
	 * a run that died, and SIGCONT wakes it from a stop to do so
	 */
	prctl(PR_SET_PDEATHSIG, SIGCONT);
	if (getppid() != parent)
		creator_exit(parent, m, sock);
	/*
	 * Its pages and page tables faulted in here, outside: the creation
	 * charges the cgroup the map alone. What it faults in stays: no
	 * reclaim to swap moves the charge.
	 */
	prefault_mappings(true);
	mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);
	msg[0] = outside ? 0 : memcg_enter(&m->cg);
#ifdef BENCH_TESTING
	/* slow-setup: a window for a stop, a freeze or a signal */
	if (fault == BENCH_FAULT_SLOW_SETUP)
		nanosleep(&(struct timespec){ .tv_nsec = 500000000 }, NULL);
#endif
	if (!tell(sock, msg) || msg[0] || next_word(sock) <= 0)
		creator_exit(parent, m, sock);
	fd = map_create(m, btf_fd);
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		msg[0] = -errno;
	msg[1] = info.id;
	/* once the parent holds its own fd, ours goes: its file is ours */
	if (tell(sock, msg) && next_word(sock) > 0 && !close(fd))
		tell(sock, msg);
	creator_exit(parent, m, sock);
}

/* the creator ended before its report: how */
static void creator_died(struct creator *c)
{
	int status;

	if (child_wait(c->pid, &status, CREATOR_WATCH_MS * 1000000ull)) {
		snprintf(c->why, sizeof(c->why),
			 "the map's creator (pid %d) closed its socket", c->pid);
		return;
	}
	if (WIFSIGNALED(status))
		snprintf(c->why, sizeof(c->why), "the map's creator (pid %d) died: %s",
			 c->pid, strsignal(WTERMSIG(status)));
	else
		snprintf(c->why, sizeof(c->why),
			 "the map's creator (pid %d) exited with status %d",
			 c->pid, WEXITSTATUS(status));
	c->pid = 0;
}

/*
 * Its report: 0 and @msg, or why not; a creator that dies, stays
 * stopped or frozen, or makes no progress says so in c->why
 */
static int hear(struct creator *c, int msg[2])
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	__u64 deadline = now_ns() + CREATOR_STEP_NS;
	struct task_watch watch;
	char why[sizeof(c->why) - 40];
	ssize_t n;
	int ret;

	task_watch_init(&watch);
	for (;;) {
		if (bench_interrupted())
			return -EINTR;
		ret = poll(&pfd, 1, CREATOR_WATCH_MS);
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (ret > 0) {
			n = read(c->fd, msg, 2 * sizeof(int));
			if (n == 2 * sizeof(int))
				return msg[0];
			if (n < 0 && errno == EINTR)
				continue;
			creator_died(c);
			return -EIO;
		}
		if (ret == 0 &&
		    task_stuck(&watch, c->pid, deadline, why, sizeof(why))) {
			snprintf(c->why, sizeof(c->why),
				 "the map's creator (pid %d) %s", c->pid, why);
			return -ETIMEDOUT;
		}
	}
}

/* the creator forked, and in the cgroup: 0, or why not */
static int creator_start(const struct run_settings *rs, struct mem_row *m,
			 struct creator *c, int btf_fd)
{
	enum test_fault_kind fault = run_fault(rs)->kind;
	int sock[2], msg[2];
	pid_t self = getpid();

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock))
		return -errno;
	c->pid = fork();
	if (c->pid < 0) {
		c->pid = 0;
		close(sock[0]);
		close(sock[1]);
		return -errno;
	}
	if (!c->pid) {
		close(sock[0]);
		creator_child(self, m, fault, btf_fd, sock[1]);
	}
	close(sock[1]);
	c->fd = sock[0];
	return hear(c, msg);
}

/* a byte to the creator, its next step: 0 and @msg once done, or why not */
static int ask(struct creator *c, int msg[2])
{
	if (send(c->fd, "", 1, MSG_NOSIGNAL) == 1)
		return hear(c, msg);
	creator_died(c);
	return -EIO;
}

/* the map made, its fd here; or -errno */
static int creator_make(struct creator *c)
{
	int msg[2], err, fd;

	err = ask(c, msg);
	if (err)
		return err;
	fd = bpf_map_get_fd_by_id(msg[1]);
	if (fd < 0)
		return -errno;
	err = ask(c, msg);
	if (err)
		close(fd);
	return err ?: fd;
}

/* the last word to the creator, and it reaped: killed when it stays */
static void creator_end(struct creator *c)
{
	if (c->fd >= 0) {
		send(c->fd, "q", 1, MSG_NOSIGNAL);
		close(c->fd);
	}
	if (c->pid > 0 && child_wait(c->pid, NULL, 1000000000ull))
		child_kill(c->pid);
	c->pid = 0;
	c->fd = -1;
}

/* ---- the fill ---- */

/* the bytes of one value as user space passes it: per CPU for percpu */
static size_t value_bytes(const struct mem_kind *k)
{
	return k->percpu ? ((k->value_size + 7) & ~7u) * nr_cpus_possible() :
	       k->value_size;
}

static void make_key(const struct mem_kind *k, __u32 i, __u8 *key)
{
	__u32 addr = htonl(i);

	memset(key, 0, k->key_size);
	if (k->fill == FILL_LPM) {
		*(__u32 *)key = 32;
		memcpy(key + 4, &addr, sizeof(addr));
		return;
	}
	memcpy(key, &i, sizeof(i));
}

static int add_keys(int fd, const struct mem_kind *k, __u32 n, void *val,
		    __u32 *added)
{
	__u8 key[8];
	__u32 i;

	for (i = 0; i < n && !bench_interrupted(); i++) {
		make_key(k, i, key);
		*(__u64 *)val = i;
		*added += !bpf_map_update_elem(fd, key, val, BPF_ANY);
	}
	return bench_interrupted() ? -EINTR : 0;
}


/* the tasks a task storage row puts its values on */
struct task_set {
	int nr;
	pid_t *pid;
};

static void __attribute__((noreturn)) idle_task(pid_t parent)
{
	/* they go with us, whatever ends us */
	if (!child_defaults(parent))
		_exit(0);
	for (;;)
		pause();
}

static void kill_tasks(struct task_set *ts)
{
	int i;

	for (i = 0; i < ts->nr; i++)
		kill(ts->pid[i], SIGKILL);
	for (i = 0; i < ts->nr; i++)
		child_kill(ts->pid[i]);
	free(ts->pid);
	ts->pid = NULL;
	ts->nr = 0;
}

static int fork_tasks(struct task_set *ts, __u32 n)
{
	pid_t self = getpid(), pid;

	ts->pid = calloc(n, sizeof(*ts->pid));
	if (!ts->pid)
		return -ENOMEM;
	while ((__u32)ts->nr < n && !bench_interrupted()) {
		pid = fork();
		if (pid < 0)
			return -errno;
		if (!pid)
			idle_task(self);
		ts->pid[ts->nr++] = pid;
	}
	return bench_interrupted() ? -EINTR : 0;
}

/* a value on each task, by its pidfd */
static int fill_tasks(int fd, const struct task_set *ts, void *val,
		      __u32 *added)
{
	int i, pidfd;

	for (i = 0; i < ts->nr; i++) {
		pidfd = syscall(SYS_pidfd_open, ts->pid[i], 0);
		if (pidfd < 0)
			return -errno;
		*(__u64 *)val = i;
		*added += !bpf_map_update_elem(fd, &pidfd, val, BPF_NOEXIST);
		close(pidfd);
	}
	return 0;
}

static int fill(const struct run_settings *rs, int fd, struct mem_row *m,
		const struct task_set *ts, void *val)
{
	const struct mem_kind *k = m->kind;
	__u32 i;

	m->filled = 0;
	/* the test fault short-fill: the last element left out */
	if (run_fault(rs)->kind == BENCH_FAULT_SHORT_FILL)
		return add_keys(fd, k, m->entries - 1, val, &m->filled);
	switch (k->fill) {
	case FILL_KEYS:
	case FILL_LPM:
		return add_keys(fd, k, m->entries, val, &m->filled);
	case FILL_PUSH:
		for (i = 0; i < m->entries; i++) {
			*(__u64 *)val = i;
			m->filled += !bpf_map_update_elem(fd, NULL, val, BPF_ANY);
		}
		return 0;
	case FILL_TASKS:
		return fill_tasks(fd, ts, val, &m->filled);
	case FILL_NONE:
		/* the ring's pages are all there from its creation */
		m->filled = m->entries;
		return 0;
	}
	return -EINVAL;
}

/* ---- the figures ---- */

static __u64 roundup_pow2(__u64 v)
{
	__u64 p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* the kind's max_entries for N elements: a ring buffer's is bytes */
static __u32 kind_max_entries(const struct mem_kind *k, __u32 n)
{
	__u64 bytes;

	if (k->type == BPF_MAP_TYPE_TASK_STORAGE)
		return 0;
	if (k->type != BPF_MAP_TYPE_RINGBUF)
		return n;
	bytes = roundup_pow2((__u64)n * (MEM_RECORD + RECORD_HEADER));
	return bytes < (__u64)getpagesize() ? (__u32)getpagesize() : bytes;
}

/*
 * What N elements take at least, whatever the map's own overhead; with
 * @one_cpu a percpu value counts once. The check's bound is that: on
 * 6.18 with cgroup v1 a preallocated map's per-CPU values were not
 * charged at all (percpu_array of 65536: 8.1 bytes per element, its
 * pointers), which is the kernel's accounting, not a map made elsewhere.
 */
static __u64 payload_bytes(const struct mem_kind *k, __u32 n, bool one_cpu)
{
	size_t value = one_cpu ? k->value_size : value_bytes(k);

	switch (k->payload) {
	case PAYLOAD_KEY_VALUE:
		return (__u64)n * (k->key_size + value);
	case PAYLOAD_VALUE:
		return (__u64)n * value;
	case PAYLOAD_BLOOM_BITS:
		/* n * 5 hashes * 7/5 (1/ln 2) bits, before the power of 2 */
		return (__u64)n * 7 / 8;
	case PAYLOAD_RECORD:
		return (__u64)n * (MEM_RECORD + RECORD_HEADER);
	}
	return 0;
}

static int fdinfo_line(char *line, void *ctx)
{
	unsigned long long v;

	if (sscanf(line, "memlock: %llu", &v) != 1)
		return 0;
	*(__u64 *)ctx = v;
	return 1;
}

static int read_memlock(int fd, __u64 *memlock)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	return for_each_line(path, fdinfo_line, memlock) == 1 ? 0 : -ENOENT;
}

/* the charge minus the empty cgroup's */
static int charged(const struct mem_row *m, __u64 *bytes)
{
	__u64 now;
	int err = memcg_usage(&m->cg, &now);

	*bytes = now > m->base ? now - m->base : 0;
	return err;
}

/*
 * What is freed is freed after an RCU grace period: a deleted element
 * (through bpf_mem_alloc's caches for a NO_PREALLOC hash); the creator
 * does not exit before the row is done for that. So a grace period
 * is waited for first (MEMBARRIER_CMD_GLOBAL is synchronize_rcu(); where
 * the kernel refuses it, nohz_full, the reads alone), however long it
 * takes under load; then the charge is read every 20 ms until three reads
 * in a row agree (the callbacks run after the grace period, bpf_mem_alloc's
 * after an RCU tasks trace one), 2 s at most; @ms: how long that took.
 */
static int settle_charge(const struct mem_row *m, __u64 *bytes, double *ms)
{
	__u64 t0 = now_ns(), prev = ~0ull;
	int i, same = 0, err = 0;

	syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
	for (i = 0; i < 100 && !err && !bench_interrupted(); i++) {
		nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
		err = charged(m, bytes);
		same = *bytes == prev ? same + 1 : 0;
		if (same == 2)
			break;
		prev = *bytes;
	}
	if (ms)
		*ms = (now_ns() - t0) / 1000000;	/* whole ms */
	return bench_interrupted() ? -EINTR : err;
}

static bool is_lru(const struct mem_kind *k)
{
	return k->type == BPF_MAP_TYPE_LRU_HASH ||
	       k->type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

/*
 * Every key deleted: a delete that fails is a churn that did not happen,
 * but for a key an LRU map evicted (ENOENT there), as its fill may.
 * @why says which, of cycle @c.
 */
static int delete_keys(const struct run_settings *rs, int fd,
		       struct mem_row *m, int c, char *why, size_t len)
{
	const struct mem_kind *k = m->kind;
	__u8 key[8];
	__u32 i, at;
	int err;

	for (i = 0; i < m->entries && !bench_interrupted(); i++) {
		at = i;
		/* the test fault stray-delete: a key never put in, not the last */
		if (run_fault(rs)->kind == BENCH_FAULT_STRAY_DELETE && !c &&
		    i == m->entries - 1)
			at = m->entries;
		make_key(k, at, key);
		if (!bpf_map_delete_elem(fd, key)) {
			m->churn_deleted++;
			continue;
		}
		err = -errno;
		if (err == -ENOENT && is_lru(k))
			continue;
		snprintf(why, len, "deleting key %u (cycle %d of %d): %s", at,
			 c + 1, MEM_CHURN_CYCLES, strerror(-err));
		return err;
	}
	return bench_interrupted() ? -EINTR : 0;
}

/*
 * delete all, add all again, MEM_CHURN_CYCLES times: each add a new
 * element (BPF_NOEXIST), every one of them, or the churn did not happen
 * and the row says why in @why (an LRU map too: all were deleted)
 */
static int churn(const struct run_settings *rs, int fd, struct mem_row *m,
		 void *val, char *why, size_t len)
{
	const struct mem_kind *k = m->kind;
	__u32 added, i;
	__u8 key[8];
	int c, err = 0;

	m->churn_deleted = m->churn_added = 0;
	for (c = 0; c < MEM_CHURN_CYCLES && !err; c++) {
		err = delete_keys(rs, fd, m, c, why, len);
		for (i = 0, added = 0; !err && i < m->entries &&
		     !bench_interrupted(); i++) {
			/* the test fault short-churn: the first cycle's last */
			if (run_fault(rs)->kind == BENCH_FAULT_SHORT_CHURN &&
			    !c && i == m->entries - 1)
				continue;
			make_key(k, i, key);
			*(__u64 *)val = i;
			added += !bpf_map_update_elem(fd, key, val, BPF_NOEXIST);
		}
		if (!err && bench_interrupted())
			err = -EINTR;
		m->churn_added += added;
		if (!err && added < m->entries) {
			snprintf(why, len, "put %u of %u elements back in (cycle %d of %d)",
				 added, m->entries, c + 1, MEM_CHURN_CYCLES);
			err = -EIO;
		}
	}
	if (!err)
		err = settle_charge(m, &m->churn_total, &m->churn_settle_ms);
	m->churned = !err;
	return err;
}

/* the check: the charge covers the elements, all of them put in */
static int check(const struct mem_row *m, struct outcome *out)
{
	if (m->filled < m->entries &&
	    m->kind->type != BPF_MAP_TYPE_LRU_HASH &&
	    m->kind->type != BPF_MAP_TYPE_LRU_PERCPU_HASH) {
		outcome_set(out, ST_FAILED, "the fill put %u of %u elements in",
			    m->filled, m->entries);
		return -EIO;
	}
	if (m->total < m->bound) {
		outcome_set(out, ST_FAILED,
			    "the cgroup was charged %llu bytes, less than the elements' own %llu: the map is not charged there",
			    m->total, m->bound);
		return -EIO;
	}
	return 0;
}

/*
 * A NO_PREALLOC map's elements come from per-CPU caches (bpf_mem_alloc),
 * refilled on the CPU that updates: a fill that moves between CPUs
 * leaves more cached, up to 1.7% of percpu_hash_nopre at 4096 under
 * load. Filled from one CPU the charge is the same run to run.
 */
static int stay_on_this_cpu(cpu_set_t *was)
{
	int cpu = sched_getcpu();

	if (sched_getaffinity(0, sizeof(*was), was) || cpu < 0)
		return -errno;
	return pin_to_cpu(cpu);
}

/*
 * The map made by a creator in the row's cgroup, its fd here; the base
 * read in between, with the creator in: what the map is charged is all
 * that comes after.
 */
static int create_in_memcg(const struct run_settings *rs, struct mem_row *m,
			   struct creator *c, struct outcome *out)
{
	int btf_fd = -1, fd;
	__u64 base = 0;

	if (m->kind->type == BPF_MAP_TYPE_TASK_STORAGE) {
		btf_fd = storage_btf();
		if (btf_fd < 0) {
			outcome_set(out, ST_FAILED, "loading task storage's BTF: %s",
				    strerror(-btf_fd));
			return btf_fd;
		}
	}
	m->base = 0;
	fd = creator_start(rs, m, c, btf_fd) ?: settle_charge(m, &base, NULL);
	m->base = base;
	if (!fd)
		fd = creator_make(c);
	if (fd < 0 && c->why[0])
		outcome_set(out, ST_FAILED, "creating the map: %s", c->why);
	else if (fd < 0)
		outcome_set(out, ST_FAILED, "creating the map in %s: %s",
			    m->cg.path, strerror(-fd));
	if (btf_fd >= 0)
		close(btf_fd);
	return fd;
}

static int measure(const struct run_settings *rs, struct mem_row *m,
		   struct outcome *out)
{
	struct creator c = { .fd = -1 };
	struct task_set ts = {};
	void *val = NULL;
	char why[128];
	cpu_set_t was;
	int fd = -1, err;

	err = stay_on_this_cpu(&was);
	if (err) {
		outcome_set(out, ST_FAILED, "pinning the fill: %s", strerror(-err));
		return err;
	}
	val = calloc(1, value_bytes(m->kind) + 8);
	err = val ? 0 : -ENOMEM;
	if (!err && m->kind->fill == FILL_TASKS)
		err = fork_tasks(&ts, m->entries);
	if (err) {
		outcome_set(out, ST_FAILED, "before the map: %s", strerror(-err));
		goto cleanup;
	}
	fd = create_in_memcg(rs, m, &c, out);
	if (fd < 0) {
		err = fd;
		goto cleanup;
	}
	err = settle_charge(m, &m->created, NULL) ?: fill(rs, fd, m, &ts, val) ?:
	      settle_charge(m, &m->total, NULL) ?: read_memlock(fd, &m->memlock);
	if (err) {
		outcome_set(out, ST_FAILED, "filling and reading: %s",
			    strerror(-err));
		goto cleanup;
	}
	err = check(m, out);
	if (!err && m->kind->churn) {
		why[0] = '\0';
		err = churn(rs, fd, m, val, why, sizeof(why));
		if (err)
			outcome_set(out, ST_FAILED, "in the churn: %s",
				    why[0] ? why : strerror(-err));
	}
cleanup:
	if (fd >= 0)
		close(fd);
	creator_end(&c);
	kill_tasks(&ts);
	free(val);
	sched_setaffinity(0, sizeof(was), &was);
	return err;
}

int open_memory(const struct run_settings *rs, struct bench_row *row,
		struct outcome *out)
{
	struct mem_row *m = row->priv;
	char name[64];
	int err;

	m->max_entries = kind_max_entries(m->kind, m->entries);
	m->payload = payload_bytes(m->kind, m->entries, false);
	m->bound = payload_bytes(m->kind, m->entries, true);
	err = probe_charging(out) ?: probe_kind(m->kind, out);
	if (err)
		return err;
	snprintf(name, sizeof(name), "%s.%u", m->kind->name, m->entries);
	err = memcg_create(&m->cg, name, out);
	if (err)
		return err;
	err = measure(rs, m, out);
	/* the cgroup goes whatever happened; its path stays for the JSON */
	memcg_remove(&m->cg);
	return err;
}
