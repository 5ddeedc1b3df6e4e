/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a family needs: the runner's API for the programs it runs.
 *
 * The runner is shared by test_overhead and map_perf_test. Each program is
 * a family (struct bench_family): its options, its rows, and the callbacks
 * that load, attach and verify one row's BPF programs. The runner owns
 * everything else: the command line, the pinned workers, the
 * sampling, the statistics, JSON, --compare and the exit codes. It knows
 * nothing about any single benchmark.
 *
 * This is the one runner header a family includes (tests/test_layers.sh
 * fails on any other): the types a family shares with the runner, the
 * callbacks of struct bench_family grouped by when they are called, and
 * the few services a family calls, each section named for its purpose
 * and the runner's files that implement it. With it come the attach
 * kinds (attach/attach.h), the test faults (core/faults.h) and the
 * statistics' types (stats/stats.h). The runner's own declarations are
 * in runner/'s other headers, which no family includes: what it keeps of
 * a row in rows/rows.h, for one.
 */
#ifndef __BENCH_H
#define __BENCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "core/faults.h"
#include "stats/stats.h"

#define REASON_LEN	192
/* samples a row keeps at most: its own, and a base row its rows' too */
#define MAX_SAMPLES	512
/* units a row takes at most, whatever -r asks */
#define MAX_UNITS	200
/* a unit's row samples at most: B R ... R B (sample/unit.c) */
#define MAX_UNIT_ROW_SAMPLES	4
/* the places of a unit's samples: struct sample's @place */
#define SAMPLE_PLACES	(MAX_UNIT_ROW_SAMPLES + 2)

/* ---- small helpers: files, cgroups, time: core/util.c ---- */

#ifndef ENOTSUPP
#define ENOTSUPP 524	/* the kernel's own, not in libc's errno.h */
#endif

/* elements in the array @a (an array, never a pointer) */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* CLOCK_MONOTONIC, ns: the time every wait and loop of the runner is told by */
__u64 now_ns(void);

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
 * The number the file @path begins with into *@v: 0, -errno when it
 * cannot be opened, -EIO when it holds no number.
 */
int read_file_u64(const char *path, __u64 *v);

/*
 * Our cgroup's path in its hierarchy, from /proc/self/cgroup: cgroup
 * v2's ("0::/path") when @controller is NULL, else that of the v1
 * hierarchy with @controller ("4:memory:/path"), into @path (@len bytes).
 * 0, or -ENOENT when there is no such line.
 */
int self_cgroup(const char *controller, char *path, size_t len);

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

/* ---- messages and signals: core/msg.c ---- */

/* the one way to print an error: "prog: message" on stderr */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* notes about the environment, on stderr unless -q */
void pr_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* @s with control characters as \xNN, for messages that quote input */
const char *printable(const char *s);
/*
 * The signal (SIGINT, SIGTERM, SIGHUP, ...: any that ends a process but
 * for the program's own faults) that asked the run to end, or 0:
 * a family's own long loop asks it between steps and ends with -EINTR
 */
int bench_interrupted(void);

enum status { ST_OK, ST_SKIPPED, ST_FAILED, ST_DISTURBED };

/* why a row's sampling ended */
enum row_stop {
	STOP_NOT,		/* it has not */
	STOP_PRECISE,		/* its interval is within --precision */
	STOP_REPEAT,		/* -r N: N units */
	STOP_MAX,		/* --max-units, short of --precision */
	STOP_BUDGET,		/* --budget spent, short of --precision */
	STOP_FED,		/* a base row: its rows stopped */
};

/*
 * What became of a row or a sample, and why: a callback that fails sets
 * it and returns non-zero. ST_SKIPPED is for what the kernel cannot do,
 * found by probing it; ST_FAILED for anything else.
 */
struct outcome {
	enum status status;
	char reason[REASON_LEN];
};

void outcome_set(struct outcome *o, enum status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "ok", "skipped", "FAILED", "disturbed" */
const char *status_name(enum status st);

/* ---- a family's options and arguments: core/parse.c, core/cpus.c, cli/cmdline.c ---- */

struct cpu_list {
	int nr;
	int *cpu;
};

/*
 * Decimal, or hex with 0x: "010" is ten. No sign, no space. -EINVAL for
 * what is not a number, -ERANGE outside [min, max].
 */
int parse_u64(const char *s, __u64 min, __u64 max, __u64 *out);
/* "0-1,3" */
void format_cpus(const struct cpu_list *cpus, char *buf, size_t len);
int name_index(const char *name, const char *const *names, int nr);
/* "a,b": @mask[i] set for each; -1 with one line on a stranger */
int parse_name_list(const char *list, const char *what,
		    const char *const *names, int nr, bool *mask);
/* "1,2,4-8": each value once, ascending; -EINVAL, -ERANGE, -E2BIG */
int parse_u64_list(const char *s, __u64 min, __u64 max, __u64 *out,
		   int max_nr, int *nr);
/* "  name      help", the help's further lines indented alike (cli/options.c) */
void print_help_item(FILE *f, const char *head, const char *help);

/*
 * The command line being parsed: the runner's, handed to a family's
 * parse_args(), which passes it on to the calls below and reads nothing
 * of it
 */
struct cmdline;

/*
 * Positional arguments that stand for -c and -n: each may be given one
 * way only. -1 after one line on stderr. For a family's parse_args().
 */
int bench_cpus_arg(struct cmdline *cl, const char *s, const char *what);
int bench_count_arg(struct cmdline *cl, const char *s, __u64 max,
		    const char *what);
/*
 * A positional argument, named @what, that stands for the option @key:
 * it applies where that option does (the ways are checked after
 * parse_args()). For a family's parse_args().
 */
void bench_positional_as(struct cmdline *cl, int key, const char *what);

/*
 * ---- what the kernel allows, for a family's probes: kernel/kconfig.c,
 * kernel/btf.c, kernel/map_probe.c, kernel/funcs.c, kernel/usdt.c, ... ----
 */

/* CONFIG_x: 1 =y/=m, 0 not set, -1 unknown */
int kernel_config(const char *option);
struct btf;
struct btf *kernel_btf(void);
bool btf_has_func(const char *name);
bool btf_has_typedef(const char *name);
/* whether the kernel's enum @type has @value: 1, 0, or -1 unknown (no BTF) */
int btf_enum_has(const char *type, const char *value);
/* whether the kernel's struct @type has @member: 1, 0, or -1 unknown */
int btf_struct_has(const char *type, const char *member);
bool tracefs_mounted(void);
/*
 * BPF links of others on @hook (a tracepoint or kernel function), as
 * "raw_tp link 12, ..." in @buf: how many, 0 when the kernel cannot say.
 */
int other_links_on(const char *hook, char *buf, size_t len);
/* the pid namespace's device and inode, and whether it is the initial one */
int pid_namespace(__u64 *dev, __u64 *ino, bool *initial);
/* possible CPUs, as the kernel numbers per-CPU data */
int nr_cpus_possible(void);

/*
 * What changes a program's cost besides its code: the JIT's sysctls
 * (-1 unreadable) and whether the kernel keeps the JIT on whatever they
 * say (CONFIG_BPF_JIT_ALWAYS_ON: 1, 0, -1 unknown)
 */
struct bpf_jit_state {
	int enable;		/* net.core.bpf_jit_enable */
	int harden;		/* net.core.bpf_jit_harden */
	int kallsyms;		/* net.core.bpf_jit_kallsyms */
	int always_on;
};

void bpf_jit_read(struct bpf_jit_state *j);
/* "bpf_jit_enable 1, bpf_jit_harden 0, JIT always on": a run's header */
void format_bpf_jit(char *buf, size_t len);

struct bpf_map;
/* before load: can this kernel create @map as defined (type, flags)? */
int probe_map(struct bpf_map *map, struct outcome *out);
/*
 * The first @nr functions of available_filter_functions that are in no
 * module, listed once there and in kallsyms, and not on the kprobe
 * blacklist: what many-function attach modes hook. -errno with @out
 * saying why when there are not enough.
 */
int traceable_functions(int nr, const char ***syms, struct outcome *out);
/*
 * The USDT probe @provider:@name in the ELF file @path: how many sites it
 * has, the first one's link-time address in @pc. -ENOENT when there is
 * none, -errno when the file cannot be read.
 */
int usdt_note_find(const char *path, const char *provider, const char *name,
		   __u64 *pc, int *nr);

/* ---- what the workers run ---- */

/**
 * struct trigger - the event a row's workers make, in a loop of their own
 * @name: the event's name, e.g. "task_rename"
 * @setup: in the worker, pinned, before the start: e.g. opens a socket.
 *	May be NULL. Gets @arg in *@state and may replace it; 0 or -errno.
 * @run: the timed loop: @count events, the syscall and nothing else
 * @events_per_call: events one call makes (0 means 1): count / this
 *	calls are made
 * @arg: the state @setup and @run start from: lets one trigger serve rows
 *	that differ by a parameter (a map, its size), since the worker is
 *	forked after the family last ran.
 *
 * A family's table holds it; a row points at it. It runs in the forked
 * workers only: what it writes stays there.
 */
struct trigger {
	const char *name;
	int (*setup)(void **state);
	void (*run)(void *state, __u64 count);
	unsigned int events_per_call;
	void *arg;
};

/* what one worker reports of one sample */
struct worker_result {
	int cpu;
	int err;		/* 0, or -errno of the worker's set-up */
	bool pin_failed;	/* err came from pinning, not the trigger */
	__u64 events;
	__u64 elapsed_ns;	/* wall time of the loop */
	__u64 cpu_ns;		/* the worker's CPU time over the loop */
	long nvcsw;		/* voluntary context switches: it slept */
	long nivcsw;		/* involuntary ones: it was preempted */
	__u64 run_delay_ns;	/* time it waited on a run queue */
	__u64 steal_ns;		/* the host took from its CPU */
	int end_cpu;		/* where it ran at the end */
	bool unpinned;		/* its affinity was changed under it */
	int repin_err;		/* -errno: pinning it again failed */
	long migrations;	/* times it moved between CPUs in its loop */
};

/*
 * The workers of one sample as attach() sees them: forked, pinned, set
 * up and waiting for the go. Worker i runs on @cpu[i] as process @pid[i].
 */
struct bench_workers {
	int nr;
	const int *cpu;
	const pid_t *pid;
};

/*
 * ---- a family's own workers and children: workers/workers.c,
 * workers/watchdog.c ----
 *
 * The runner starts a pool of workers per row and runs it once per
 * sample; a family may start one of its own outside the samples, as
 * test_overhead counts the fib lookups per datagram before its first fib
 * row, and watch children of its own as map_perf_test --memory does.
 */

/*
 * Where the programs under test count their hits per CPU, in memory the
 * workers share with the parent (a skeleton's mmap'ed .bss): slot[w * nr
 * + c] is program c's count on worker w's CPU. Each worker reads its own
 * right before and right after its timed loop, so that only hits inside
 * the loop can verify its events.
 */
struct hit_window {
	int nr;				/* programs; 0: nothing to read */
	const volatile __u64 **slot;
};

struct pool_go;
struct run_settings;

struct worker_pool {
	int nr;
	int *cpu;
	pid_t *pid;
	int result_fd;
	struct pool_go *go;	/* shared: each run's count and release */
	int nr_slots;		/* the window's programs */
	/* shared: [(w * nr_slots + c) * 2] before the loop, [+ 1] after */
	volatile __u64 *window;
	size_t window_len;
	__u64 started_ns;
	__u64 duration_ns;	/* each run's, or 0: a count */
	/* the test build's slow-base: loops the next run makes; 0 is 1 */
	unsigned int loops;
};

/*
 * Forks one worker per CPU, pinned, with each of @triggers set up,
 * waiting for a go. In each run each makes the run's count of events of
 * the run's trigger, or runs @duration_ns when not 0, and reads the hit
 * slots of @win (NULL: none) around its loop. The workers obey @rs's
 * test fault (run_fault()), in their copy of it. On failure, with @out
 * saying why, nothing is left running.
 */
int pool_start(struct worker_pool *pool, const struct run_settings *rs,
	       const struct cpu_list *cpus,
	       const struct trigger *const *triggers, int nr_triggers,
	       __u64 duration_ns, const struct hit_window *win,
	       struct outcome *out);

/*
 * One run: releases the workers for @count events each of trigger
 * @trigger (an index into pool_start()'s @triggers) and collects one
 * result each, and into @hits (NULL: not wanted) each program's hits
 * within each worker's loop, [w * nr + c] for the window's nr programs.
 * The workers then wait for the next run. A worker that dies, stays
 * stopped or frozen, makes no progress or outlives @deadline_ns (0: one
 * from @count or the duration, far beyond any event's cost) fails the
 * run, named in @out, and stops the pool. -EINTR on a signal.
 */
int pool_run(struct worker_pool *pool, int trigger, __u64 count,
	     struct worker_result *res, __u64 *hits, __u64 deadline_ns,
	     struct outcome *out);
/* kills and reaps the workers; safe to call twice */
void pool_stop(struct worker_pool *pool);
/* the calling thread allowed on @cpu alone; -errno */
int pin_to_cpu(int cpu);
/*
 * Every readable mapping faulted in, page tables with it; @writable: a
 * private writable one copied too, as a write would. After it a child
 * faults in nothing it touches again.
 */
void prefault_mappings(bool writable);
/*
 * A forked child's first call: every signal that ends a run (SIGINT,
 * SIGTERM, SIGHUP, SIGPIPE, ...: runner/core/msg.c) back to its
 * default, and SIGKILL when @parent (the thread that forked it) dies.
 * False when @parent is already gone: the child is to exit.
 */
bool child_defaults(pid_t parent);

/*
 * A child the parent waits on, watched so that no wait is for ever:
 * task_stuck() says when it is stuck
 */
struct task_watch {
	__u64 since_ns;		/* watched since */
	__u64 stopped_since;	/* 0: not stopped or frozen */
	__u64 stalled_since;	/* since when it had next to no CPU */
	__u64 cpu_ns;		/* its CPU time then */
};

void task_watch_init(struct task_watch *t);
/*
 * Whether the task @pid, which has work to do and nothing to wait for,
 * is stuck: stopped or frozen by a cgroup (v1 freezer, v2 cgroup.freeze)
 * for 2 s, or given next to no CPU time for 5 s (asleep or not), or
 * still at it at @deadline_ns (0: none). -ETIMEDOUT with @why (@len
 * bytes) saying how, else 0. Called every few hundred ms while waiting.
 */
int task_stuck(struct task_watch *t, pid_t pid, __u64 deadline_ns,
	       char *why, size_t len);
/*
 * Waits at most @limit_ns for the child @pid to end, and reaps it (its
 * wait status in *@status, when not NULL): 0, or -ETIMEDOUT
 */
int child_wait(pid_t pid, int *status, __u64 limit_ns);
/*
 * SIGKILL to the child @pid, and it reaped: 0. One the cgroup v1 freezer
 * holds (SIGKILL waits for a thaw there) is moved back to our own freezer
 * cgroup, which thaws it; -EBUSY, said, when it lives on all the same.
 */
int child_kill(pid_t pid);
/*
 * A task the v1 freezer holds, moved back to the freezer cgroup we are
 * in: moving thaws it, and a SIGKILL pending ends it (cgroup v2's freeze
 * lets a SIGKILL through). Nothing for one that is not frozen.
 */
void thaw_out(pid_t pid);

/* ---- rows and samples ---- */

#define MAX_PARAMS	4

/* what else identifies a row, e.g. {"progs", 4} */
struct row_param {
	const char *key;
	long long value;
};

/*
 * How long a row's programs stay attached: attach() and detach() are
 * called around what the value names. Each value keeps the links longer
 * than the one before it, and may be chosen only when nothing between
 * its samples needs them gone. The runner reports it as the row's
 * "attached_for" (samples, session, run). Ignored for a row that runs no
 * programs (a base).
 */
enum row_links {
	/*
	 * Around each of the row's samples: for a row whose figure is the
	 * attaching, or whose state must start afresh each sample. The
	 * default.
	 */
	LINKS_PER_SAMPLE,
	/*
	 * Once per session, through its samples: collect() then takes only
	 * the hits since its last call. A row with a base is still detached
	 * for each base sample, which its programs would count.
	 */
	LINKS_PER_SESSION,
	/*
	 * Once per session, through its base samples too: its base's events
	 * never reach its programs (its base calls an unprobed copy of the
	 * row's function), and each base sample proves it, leaving the row's
	 * counts untouched.
	 */
	LINKS_THROUGH_BASE,
	/*
	 * From its first session to the end of the run: its programs fire
	 * for no other row's events either (it calls a copy of its own of
	 * the hooked function), so its later sessions cost no attach or
	 * detach; the family's workers() hands them each session's new
	 * workers. Not with @reload.
	 */
	LINKS_PER_RUN,
};

/**
 * struct bench_row - one line of the results: a mode and an event
 * (test_overhead), or a test and an attach method (map_perf_test)
 *
 * A family adds its rows in setup() with bench_add_row() and sets the
 * first group of fields; open() may set the second; collect() adds to
 * @runs_counted. What the runner keeps of the row is behind @state,
 * which a family never dereferences: it reads the row's figures through
 * row_summarize() and the other functions for its summary. @priv is the
 * family's alone; the runner never looks at it.
 */
struct row_state;

struct bench_row {
	/* -- set by the family's setup() -- */
	const char *name;		/* mode, or map test */
	const char *variant;		/* event, or attach method */
	struct row_param params[MAX_PARAMS];	/* row_add_param() */
	int nr_params;
	const struct cpu_list *cpus;	/* one worker on each */
	const struct trigger *trigger;
	__u64 count;			/* events per worker and sample */
	struct bench_row *base;		/* overhead is against this row */
	bool runs_prog;			/* false: nothing attached */
	int nr_counters;		/* programs each counting every event */
	/*
	 * The programs fire for something besides the workers' events
	 * (--attach-time hooks many functions): hits beyond the events
	 * inside the workers' loops are expected, not a wrong hook.
	 */
	bool fires_elsewhere;
	enum row_links links;		/* how long its programs stay attached */
	/*
	 * Its figure depends on how long its samples run (a buffer's
	 * consumer keeping up): of a @paced family, it runs its own @count
	 * every sample all the same
	 */
	bool unpaced;
	/*
	 * Its programs and maps are loaded afresh for each session: close()
	 * then open() between sessions. Where a map's speed depends on
	 * where the kernel placed its memory (a percpu hash differed 2x
	 * from one load to the next here), one load is one draw: a run's
	 * figure then averages over several and its interval shows them.
	 * Not with LINKS_PER_RUN, whose links outlive a session.
	 */
	bool reload;
	/*
	 * The family's open() is the row's whole measurement (map_perf_test
	 * --memory): no workers, no samples, nothing attached. Its figures
	 * are the family's, in its summary and json_row(); the runner only
	 * opens and closes it, as it does rows that run programs: set
	 * runs_prog too.
	 */
	bool measured_in_open;
	void *priv;
	/*
	 * A row that cannot run, set in setup() with its reason (not ok);
	 * afterwards the runner's.
	 */
	struct outcome out;

	/* -- set by the family's open(), when it knows them -- */
	unsigned int hits_per_event;	/* the kernel's hook fires this often */
	char others[REASON_LEN];	/* other BPF links on the same hook */

	/*
	 * -- the family's, over the run: collect() adds to it --
	 * Every run the row's programs counted, all of them on every CPU,
	 * in every sample run (warm-up, run again, --prog-stats' too): what
	 * the kernel's own run count of the programs must match.
	 */
	__u64 runs_counted;

	/*
	 * -- the runner's: what it keeps of the row (samples, units, times,
	 * counts), opaque to a family, which reads it through the
	 * functions below (row_summarize(), row_prog_ns(), ...) --
	 */
	struct row_state *state;
};

/**
 * struct sample - one run of a row's workers, as the callbacks see it
 *
 * The runner owns it and fills everything but @hits, which the family's
 * collect() fills (sample_hits()). verify() may set @out to make the
 * sample FAILED, and add to @foreign the runs its programs made for
 * other tasks and filtered out; the rest is read-only to a family. It
 * lives until the next sample: keep nothing that points into it.
 */
struct sample {
	struct outcome out;
	struct worker_result *res;	/* one per worker */
	int nr_workers;
	__u64 events;
	double rate;
	double ns_per_event;
	__u64 *hits;			/* [counter * nr_cpus + cpu] */
	int nr_cpus;			/* possible CPUs */
	/*
	 * [worker * stride + counter]: hits inside the worker's loop, and
	 * with @window_foreign, [worker * stride + nr_counters + counter]
	 * the runs for other tasks there; stride is nr_counters, or twice
	 * that with @window_foreign
	 */
	__u64 *window;
	bool window_foreign;
	__u64 counted;			/* the first program's, every CPU */
	__u64 in_window;		/* of them, inside the workers' loops */
	/* per program: runs the kernel skipped while the workers ran */
	__u64 *kernel_skips;
	/*
	 * runs of the first program the kernel's run-time stats timed
	 * while the workers ran: none unless someone turned them on
	 */
	__u64 stats_runs;
	__u64 skipped;			/* the events those explain */
	/* the largest share of a program's hits those excused */
	double excused_share;
	/*
	 * inside the loops, beyond the events: other tasks', interrupts';
	 * verify() adds those its programs filtered out
	 */
	__u64 foreign;
	double settle_ns;
	__u64 steal_ns;			/* the host's, workers' CPUs */
	bool unverified;		/* a worker moved: nothing to verify */
	/*
	 * Its place in its unit, below SAMPLE_PLACES: 0 its first base
	 * sample, 1 .. its row samples, then its second base sample. A
	 * sample run again takes the place of the one before: a family
	 * that keeps counts of a sample's own for count() keeps them per
	 * place.
	 */
	int place;
};

/* program @counter's hits, one per possible CPU: what collect() fills */
static inline __u64 *sample_hits(struct sample *s, int counter)
{
	return s->hits + (size_t)counter * s->nr_cpus;
}

struct attach_refusals;

/* the rows of a run, in the order setup() added them */
struct bench_rows {
	struct bench_row *row;
	int nr;
	int cap;
	/*
	 * The runner's: the kinds the kernel refuses whatever the target,
	 * found by one row and said by the later ones (attach_refused()).
	 * Made with the first row; each row's state points at it.
	 */
	struct attach_refusals *refused;
};

/*
 * A row at the end of @rows, zeroed but for @name and @variant, which
 * must outlive the run (a table's strings); NULL when out of memory. It
 * may move the rows: a pointer to an earlier one is stale after it.
 */
struct bench_row *bench_add_row(struct bench_rows *rows, const char *name,
				const char *variant);
void row_add_param(struct bench_row *row, const char *key, long long value);
/* the parameter @key, or NULL */
const struct row_param *row_param(const struct bench_row *row,
				  const char *key);

/* ---- the run's settings ---- */

/* enum test_fault_kind: the test faults, a table the BPF programs share */
struct test_fault {
	enum test_fault_kind kind;
	int cpu;		/* miss-cpu=N's CPU */
	const char *name;	/* as BENCH_TEST_FAULT gave it */
};

/*
 * What the runner's command line decided. The callbacks that depend on
 * it get it as @rs; it does not change once setup() is called.
 */
struct run_settings {
	struct cpu_list cpus;	/* every worker's CPU; empty for --list */
	__u64 count;		/* 0: each row's own */
	int repeat;		/* fixed units; 0: until precise enough */
	int min_units, max_units;
	/* wanted 95% half-interval, share of the figure (see passes/sampler.c) */
	double precision;
	__u64 row_budget_ns;	/* a row's time, short of --precision */
	int warmup;		/* uncounted units per session */
	double duration;	/* seconds per sample; 0: a count */
	const char *json;
	bool ktap;		/* --ktap: KTAP on stdout, not the summary */
	bool prog_stats;
	bool profile;		/* --profile: a profiling pass after the run */
	bool list;		/* --list: rows are listed, nothing runs */
	double lock_wait;	/* seconds to wait for another run */
	int verbosity;		/* 0: -q, 1: default, 2: -v */
	bool paste;		/* --format short: one line a row, to paste */
	/*
	 * The family's own state, bench_main()'s @ctx: its options, as its
	 * parse_option() and parse_args() set them, and what its setup()
	 * finds for all its rows
	 */
	void *ctx;
	/* the test build's only: read it through run_fault() */
	struct test_fault fault;
};

/* the run's test fault; none, and a constant, in what make builds */
static inline const struct test_fault *run_fault(const struct run_settings *rs)
{
#ifdef BENCH_TESTING
	return &rs->fault;
#else
	static const struct test_fault none = { .kind = BENCH_FAULT_NONE };

	return &none;
#endif
}

/*
 * The fault program @i of a row's @nr counts with: the run's, except
 * that miss-one makes the last one miss every other hit, the others none.
 */
static inline enum test_fault_kind prog_fault(const struct run_settings *rs,
					      int i, int nr)
{
	enum test_fault_kind kind = run_fault(rs)->kind;

	if (kind != BENCH_FAULT_MISS_ONE)
		return kind;
	return i == nr - 1 ? BENCH_FAULT_MISS_ODD : BENCH_FAULT_NONE;
}

/* ---- the family: one per program ---- */

/*
 * The ways a program runs. Each option applies to some of them and is
 * refused, in one line, by the others: the table is the options' @ways
 * (--list --json has it, as "options").
 */
enum bench_way {
	WAY_RUN,		/* the rows measured: the default */
	WAY_OWN,		/* the family's own way (@own_way: --memory) */
	WAY_LIST,		/* --list: the rows a run would measure */
	WAY_LIST_OWN,		/* --list with the family's own way */
	WAY_COMPARE,		/* --compare */
	NR_WAYS,
};

#define IN_RUN		(1u << WAY_RUN)
#define IN_OWN		(1u << WAY_OWN)
#define IN_LIST		(1u << WAY_LIST)
#define IN_LIST_OWN	(1u << WAY_LIST_OWN)
#define IN_COMPARE	(1u << WAY_COMPARE)
#define IN_ANY		((1u << NR_WAYS) - 1)

/* an option of a family's own, for getopt and --help alike */
struct bench_option {
	const char *name;	/* long name */
	int key;		/* short option character, or a value > 0xff */
	const char *arg;	/* NULL: takes no value */
	const char *help;	/* lines of the help text, '\n'-separated */
	unsigned int ways;	/* IN_*: the ways it applies to */
};

struct json_t;

/**
 * struct bench_family - a program the runner runs: its options, its rows
 * and the callbacks that load, attach and verify a row's BPF programs
 * @name: the program's name, for messages, the lock and the JSON's "tool"
 * @args: the positional arguments, for the usage line
 * @about: the help text's first lines
 * @options: the family's own options, ended by a zeroed entry; may be NULL
 * @own_way: the key of the option of @options that selects the family's
 *	own way of running (WAY_OWN: --attach-time, --memory); 0: none
 * @own_way_takes: the runner's options that apply to the own way, by
 *	long name, ended by NULL (each family option says it in its @ways)
 * @paced: a row's figure does not depend on how long its samples are, so
 *	the runner may shorten them on a slow machine: each row starts with
 *	an uncounted run of a 64th of its @count (struct bench_row), and
 *	after it and each undisturbed sample, the next one's count is set to
 *	take about 3 ms at its pace (SAMPLE_TARGET_NS in
 *	sample/unit.c), never above the row's own @count.
 *	Without it every sample runs the row's own count
 *
 * The command line, before anything runs:
 *
 * @parse_option: called once per option of @options given, in order,
 *	with the family's @ctx (bench_main()'s), its key and value (NULL
 *	without one). Required when @options has any. May store into @ctx
 *	only. 0; -2 for a bad value (the runner says so); -1 after one line
 *	on stderr.
 * @parse_args: called once, after every option, with @ctx and the
 *	positional arguments (@argc may be 0). Required. May call
 *	bench_cpus_arg(), bench_count_arg() and bench_positional_as(),
 *	passing them @cl, the command line being parsed. 0, or -1 after one
 *	line on stderr.
 * @usage_tables: called by --help, after the options: the family's
 *	tables (modes, tests, bits) to @f. Required.
 *
 * The rows: which a run measures, and what --list says of them:
 *
 * @setup: called once, after the command line, before anything runs,
 *	also for --list (@rs->list, when @rs->cpus is empty and nothing
 *	may probe the kernel or need privileges). Required. Adds the
 *	selected rows to @rows with bench_add_row() and sets their family
 *	fields; a row that cannot run may get its reason in its @out. The
 *	rows are the runner's: it frees them after close(). 0, or -errno
 *	after one line on stderr (exit 1).
 * @list_row: --list --json: called once per row, before @setup's rows
 *	are freed, to add what the row needs and runs to @o, the row's
 *	JSON object, which the runner owns. Required.
 * @list_doc: --list: called once, to add the family's tables to @root,
 *	the document, whatever the selection: each entry's name, test_flags
 *	bits and help text (what the manual's tables are made from, by
 *	make docs, and the shell's completion), and "free_bits", the
 *	test_flags bits no entry takes, which --list without --json prints
 *	too. May be NULL.
 *
 * A row's programs, loaded and freed. These and the callbacks after
 * them, up to the results, are called only for rows that run programs
 * (runs_prog), @open first; the runner calls the others only after it
 * succeeded, and @close last:
 *
 * @open: called once per row, before its first sample, with no worker
 *	running: probes the kernel and loads the row's programs, and may
 *	set the row's hits_per_event and others. Required. 0, or non-zero
 *	with @out saying why (skipped when the kernel cannot, FAILED
 *	otherwise); @close is then not called, so @open cleans up after
 *	itself.
 * @close: called once per opened row, at the end of the run, or on any
 *	exit path after @open succeeded: frees what @open made. For a row
 *	that sets @reload, also before each session after its first, @open
 *	then loading it afresh: what the family counts over the run stays.
 *	Required.
 *
 * Around the samples, the links:
 *
 * @attach: called before the row's samples of a unit, or once per
 *	session or run as its @links (enum row_links) says, with the
 *	session's workers forked and waiting for the go: attaches the
 *	programs, filtered to @workers where they filter.
 *	Required. Timed as attach_ns. 0, or non-zero with @out saying why;
 *	@detach is called either way.
 * @workers: called at each session's start, with its new workers
 *	forked and waiting, when the row's programs are still attached
 *	from an earlier session (LINKS_PER_RUN): whatever @attach keyed to
 *	the workers (their pids) is theirs now. May be NULL when nothing
 *	is.
 * @detach: called after the row's samples of a unit, or of a session,
 *	or at the end of the run, as @attach was (or after @attach
 *	failed): detaches everything @attach attached. Timed as
 *	detach_ns. Required; must not fail.
 *
 * A sample's counts and their checks:
 *
 * @hit_slot: where program @counter of the opened @row counts its hits
 *	on @cpu, in memory mapped before the workers are forked (a
 *	skeleton's .bss): the workers read it right before and after their
 *	loops. Only runs for the worker pinned to @cpu may count there:
 *	another task's could stand in for a run the program missed.
 *	Called before the row's workers are forked. Required.
 * @foreign_slot: the same for the runs program @counter made on @cpu
 *	for any other task, counted apart: only shown. May be NULL (the
 *	programs do not run for other tasks, or count them elsewhere).
 * @collect: called per sample after its run (and after @detach unless
 *	the links stay, or a disturbed sample stays attached for its try
 *	again): each program's hits on each possible CPU since
 *	@attach or the last @collect into sample_hits(). Required. 0;
 *	non-zero leaves the sample unverified and says why in s->out.
 * @verify: checks of the family's own, after the runner's per-CPU check
 *	passed; may set s->out FAILED, saying why, and add to s->foreign
 *	the runs its programs made for other tasks and filtered out (shown
 *	beside the hits). May be NULL.
 * @count: called for a sample that counts (no warm-up, not run again),
 *	verified, ok or disturbed: the family keeps what it needs of it
 *	(in the row's @priv), as the runner keeps events and hits. It comes
 *	once the sample's unit is done, after the unit's other samples
 *	were collected and verified: what it keeps of a sample, it keeps
 *	by the sample's @place. May be NULL.
 * @prog_fds: the row's program fds, at most @max, into @fds, for
 *	--prog-stats and the kernel's counts of skipped runs; returns how
 *	many. The fds stay the family's. Required.
 *
 * The callbacks below write the results, once, after the last sample;
 * every row is there, closed or not, and none may be changed.
 *
 * @print_upstream: the lines upstream's program printed, to stdout,
 *	unless -q (@rs->verbosity 0). Required.
 * @print_summary: the summary table to stdout; with @rs->paste (--format
 *	short), one line a row instead, to paste. Required.
 * @json_context: what the family adds to the JSON's "context" object
 *	@ctx (the runner's). May be NULL.
 * @json_row: what the family adds to the JSON object @obj (the
 *	runner's) of @row, one of @rows. May be NULL.
 *
 * Callbacks run in the parent only, one at a time; the workers run the
 * row's trigger and nothing else of the family.
 */
struct bench_family {
	/* what it is */
	const char *name;
	const char *args;
	const char *about;
	const struct bench_option *options;
	int own_way;
	const char *const *own_way_takes;
	bool paced;

	/* the command line, before anything runs */
	int (*parse_option)(void *ctx, int key, const char *arg);
	int (*parse_args)(void *ctx, struct cmdline *cl, int argc,
			  char **argv);
	void (*usage_tables)(FILE *f);

	/* the rows: which a run measures, and --list */
	int (*setup)(const struct run_settings *rs, struct bench_rows *rows);
	void (*list_row)(const struct bench_row *row, struct json_t *o);
	void (*list_doc)(struct json_t *root);

	/* a row's programs, loaded and freed (rows that run programs) */
	int (*open)(const struct run_settings *rs, struct bench_row *row,
		    struct outcome *out);
	void (*close)(struct bench_row *row);

	/* around the samples: the links */
	int (*attach)(struct bench_row *row,
		      const struct bench_workers *workers,
		      struct outcome *out);
	void (*workers)(struct bench_row *row,
			const struct bench_workers *workers);
	void (*detach)(struct bench_row *row);

	/* a sample's counts and their checks */
	const volatile __u64 *(*hit_slot)(const struct bench_row *row,
					  int counter, int cpu);
	const volatile __u64 *(*foreign_slot)(const struct bench_row *row,
					      int counter, int cpu);
	int (*collect)(struct bench_row *row, struct sample *s);
	void (*verify)(const struct bench_row *row, struct sample *s);
	void (*count)(const struct bench_row *row, const struct sample *s);
	int (*prog_fds)(const struct bench_row *row, int *fds, int max);

	/* the results, once, after the last sample */
	void (*print_upstream)(const struct run_settings *rs,
			       const struct bench_rows *rows);
	void (*print_summary)(const struct run_settings *rs,
			      const struct bench_rows *rows);
	void (*json_context)(const struct run_settings *rs, struct json_t *ctx);
	void (*json_row)(const struct bench_rows *rows,
			 const struct bench_row *row, struct json_t *obj);
};

/*
 * The program's main(): runs @fam with the command line, and returns the
 * exit status (see --help). @ctx is the family's own state, its options
 * first (zeroed or defaulted by main()): parse_option() and parse_args()
 * get it, and every later callback that takes the run's settings reaches
 * it as @rs->ctx (one that takes only a row has what setup() or open()
 * kept of it in the row's @priv).
 */
int bench_main(const struct bench_family *fam, void *ctx, int argc,
	       char **argv);

/* ---- for the family's summary: rows/row_summary.c, report/notes.c, report/summary.c ---- */

struct row_summary {
	struct sample_stats rate, ns;	/* over its samples */
	int outliers;
	/*
	 * The row's figure over its units: its overhead where it was
	 * measured against a base, else its ns per event: the mean of its
	 * rounds' means, a round's units one observation (@units.n of
	 * them); @ci95 half its 95% interval (Student's t over those), NAN
	 * below 2 observations
	 */
	struct sample_stats units;
	double ci95;
	int nr_units;		/* the units counted, @units.n rounds' */
	bool has_overhead;
	struct overhead overhead;
	/*
	 * The overhead as a share of the base, in %: each unit's over its
	 * own base samples, averaged as @overhead is (@share.pct unused)
	 */
	struct overhead share;
	double ratio;		/* ns per event against base's; NAN: no base */
	double foreign_share;	/* foreign hits among all hits */
	bool imprecise;		/* stopped short of --precision */
	bool below_base;	/* the overhead's interval lies below zero */
};

/* a row with a figure to show: ok, with samples */
bool row_has_figure(const struct bench_row *row);
/* "precise", "budget", ...: why its sampling ended */
const char *row_stop_name(enum row_stop stop);
void row_summarize(const struct bench_row *row, struct row_summary *s);
/*
 * A caveat of a row's figure: its mark in the summary's notes column
 * ('b': stopped at its budget short of --precision, 'n': noisy, ...;
 * the legend under the table says what each means and how many rows
 * have it) and its sentence, for -v and --json
 */
#define ROW_NOTES_MAX	16
struct row_note {
	char mark;
	char text[REASON_LEN + 64];
};

/* the caveats of a row with a figure, in the legend's order: how many */
int row_note_list(const struct bench_row *row, const struct row_summary *s,
		  struct row_note notes[ROW_NOTES_MAX]);
/*
 * "noisy (CV of ns/event 7.1%), 1 outlier, foreign hits 3%", or "": the
 * notes' sentences, the CV of what the ± is of
 */
void row_notes(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len);
/* "bnr": the notes' marks, or "" */
void row_marks(const struct bench_row *row, const struct row_summary *s,
	       char *buf, size_t len);
/*
 * What the checks say of a row, for the table: "verified" (ok, and its
 * counts were checked: @checked), "ok" (nothing to check: a base),
 * "disturbed", "FAILED CPU 1" (the CPU its reason names, if one)
 */
void row_verdict(const struct run_settings *rs, const struct bench_row *row,
		 bool checked, char *buf, size_t len);
/*
 * Under the table: a line per mark its rows have, "b  16 rows stopped
 * at the row budget (0.5 s) before ±3%: --budget buys more"
 */
void print_legend(const struct run_settings *rs,
		  const struct bench_rows *rows);
/* a line for each disturbed or failed row: "<row>: <status>: <reason>" */
void print_reasons(const struct bench_rows *rows);
/*
 * -v: each row's notes in full, and what @more (may be NULL) adds of it
 * (a bloom filter's false positives, a ring buffer's drops)
 */
void print_row_notes(const struct bench_rows *rows,
		     void (*more)(const struct bench_row *row, char *buf,
				  size_t len));
/*
 * A row's figure as its family shows it: @value ± @ci95 (NAN: one
 * observation) in @unit, an overhead with its sign (@sign), and where
 * its base is an operation of its own (a syscall, a datagram: not a bare
 * call of 1.4 ns) the share of it, @share_pct (NAN: none shown)
 */
struct row_figure {
	double value, ci95;
	bool sign;
	double share_pct;
	const char *unit;
};
typedef void (*row_figure_fn)(const struct bench_row *row,
			      const struct row_summary *s,
			      struct row_figure *f);
/*
 * --format short: a line per row that ran, in the seeds' style, to paste
 * into a commit message: "raw_tp task_rename : +182 ± 52 ns/event (+14%
 * of base)"; a row without a figure says its status
 */
void print_short(const struct run_settings *rs, const struct bench_rows *rows,
		 row_figure_fn figure);
struct table;
/*
 * The summary's table, fit to stdout's terminal (struct table, below), and
 * which columns it left out to fit, if any
 */
void print_table(struct table *t, bool verbose);
/* counted samples whose go came after settle()'s longest wait */
int row_settle_capped(const struct bench_row *row);
/* the body: ns in the program per run, without the stats' clock reads */
double row_prog_body(const struct bench_row *row);
/*
 * "hits/expected": the first program's hits inside the workers' loops,
 * the workers' own, against what their events make. Hits outside the
 * loops are left out: they verify nothing, and could make a shortfall
 * in them read exact.
 */
void format_hits(const struct bench_row *row, char *buf, size_t len);
/* " [progs=4]", or "" (rows/row.c's) */
void format_params(const struct bench_row *row, char *buf, size_t len);
/*
 * @v with @prec decimals, or "-" where it is no number (NAN, infinite:
 * an interval of one observation): @buf
 */
const char *format_or_dash(char *buf, size_t len, int prec, double v);
/* the median over samples of one worker's events per second */
double worker_median_rate(const struct bench_row *row, int worker);
/* the medians of the row's attach() and detach() times, NAN without any */
double row_attach_median(const struct bench_row *row);
double row_detach_median(const struct bench_row *row);
/* --prog-stats: ns in the program per run, NAN where it is missing */
double row_prog_ns(const struct bench_row *row);
/*
 * Skipped rows by reason (report/skips.c). A kernel that cannot run a
 * mode skips each of its rows for one reason, and modes of one kind for
 * the same reason but their names ("fentry refused by this kernel",
 * "fexit refused ..."): the summary says each such reason once, for a
 * group of rows. --json and --list keep every row with its own reason.
 */
struct skip_group {
	int first;			/* index of its first row */
	int nr;				/* rows in it */
	bool modes;			/* of more than one mode */
	char reason[REASON_LEN];	/* without a mode's name */
};

/* a row's mode: test_overhead's name, map_perf_test's variant */
typedef const char *(*row_mode_fn)(const struct bench_row *row);

/*
 * The groups of the skipped rows @in selects (NULL: every row), in the
 * order of their first rows; how many, or -ENOMEM. Free *@groups.
 */
int skip_groups(const struct bench_rows *rows, const bool *in,
		row_mode_fn mode, struct skip_group **groups);
/* what the group says: one mode's own words, or several modes' shared ones */
const char *skip_group_reason(const struct bench_rows *rows,
			      const struct skip_group *g);
/* whether row @i is in group @g */
bool skip_group_has(const struct bench_rows *rows, const struct skip_group *g,
		    row_mode_fn mode, int i);
/*
 * "kprobe, kretprobe (10 rows)", "tracepoint urandom_read" for one row,
 * of the rows @in selects (NULL: every row); @mode_of gives the words
 * the modes are named by ("w/KPROBE", ...), NULL their names
 */
void skip_group_label(const struct bench_rows *rows, const bool *in,
		      const struct skip_group *g, row_mode_fn mode,
		      row_mode_fn mode_of, char *buf, size_t len);
/*
 * The summary's lines for the skipped rows: a heading, then one line per
 * group, "  <label>: <reason>". Nothing when no row was skipped.
 */
void print_skip_groups(const struct bench_rows *rows, row_mode_fn mode);
/*
 * The summary's line for the events whose program runs the kernel
 * skipped, excused, into @buf: how many of how many, in how many rows;
 * "" when none. Such rows still exit 0: the line says what they lack.
 */
void excused_line(const struct bench_rows *rows, char *buf, size_t len);
void print_excused(const struct bench_rows *rows);

/* ---- the summary's table: report/table.c, report/summary.c ---- */

/*
 * A column. @drop: 0 for one always shown (a row's name, its figure, its
 * verdict); else, when the table is wider than its width, the column of
 * the highest @drop goes first, then the next. @glue: printed one space
 * after the column before it, under one heading with it (a figure's
 * "± 4.2" beside its value); it goes when that one goes.
 */
struct table_col {
	const char *head;
	bool left;		/* left-aligned; else right */
	int drop;
	bool glue;
};

struct table {
	const struct table_col *col;
	int nr_cols;
	int nr_rows, cap;
	char **cell;		/* [row * nr_cols + col], NULL: empty */
	bool oom;		/* a cell was lost: said under the table */
};

void table_init(struct table *t, const struct table_col *col, int nr_cols);
void table_set(struct table *t, int row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void table_free(struct table *t);
/* printf() to stdout, folded to 100 columns, or a narrower terminal's */
void printf_folded(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The summary table's columns both programs have, first: the row's name
 * and variant, its figure ± its interval, its share of its base, its
 * verdict, its notes' marks, and with -v its rate ± stddev. A family's
 * own come after them.
 */
enum {
	SUMMARY_NAME, SUMMARY_VARIANT, SUMMARY_FIGURE, SUMMARY_CI,
	SUMMARY_SHARE, SUMMARY_VERDICT, SUMMARY_NOTES, SUMMARY_RATE,
	SUMMARY_RATE_SD, NR_SUMMARY_COLS
};

/*
 * Their entries of a table's columns, with the headings the family gives
 * them. On a narrower terminal the rate goes first (a family's -v
 * columns come before it, of higher @drop), then the notes, then the
 * share of the base; the others stay.
 */
#define SUMMARY_COLUMNS(name, variant, figure, rate)			\
	[SUMMARY_NAME] = { name, .left = true },			\
	[SUMMARY_VARIANT] = { variant, .left = true },			\
	[SUMMARY_FIGURE] = { figure },					\
	[SUMMARY_CI] = { "", .left = true, .glue = true },		\
	[SUMMARY_SHARE] = { "vs base", .drop = 2 },			\
	[SUMMARY_VERDICT] = { "verdict", .left = true },		\
	[SUMMARY_NOTES] = { "notes", .left = true, .drop = 3 },		\
	[SUMMARY_RATE] = { rate, .drop = 4 },				\
	[SUMMARY_RATE_SD] = { "", .left = true, .glue = true }

/*
 * @row on a new line of @t, a summary table: its @name and @variant,
 * what @figure makes of it, its verdict (@checked: its counts are checked,
 * see row_verdict()), its marks, and with -v its rate. Returns the line,
 * and fills @s, when the row has a figure; -1 without one.
 */
int summary_row(const struct run_settings *rs, struct table *t,
		const struct bench_row *row, const char *name,
		const char *variant, bool checked, row_figure_fn figure,
		struct row_summary *s);
/*
 * The libbpf these binaries run, "1.4", for a run's header; a dynamic
 * build meeting another libbpf than its headers' says both.
 */
const char *libbpf_version_text(void);

/* ---- JSON and --list, for json_row() and list_row(): core/json.c, cli/list.c ---- */

/* a double; null where JSON has no spelling (NAN, infinities) */
struct json_t *json_number(double v);
/* a string, made printable where it is no UTF-8; null for NULL */
struct json_t *json_text(const char *s);
struct attach_kind;
/*
 * What --list says of a row's attach kind: the config options it needs
 * (and @extra_need), what the libbpf built against lacks of it, why a
 * kernel with that config may still lack it, and whether it is a BPF
 * trampoline, which a kernel may refuse at load whatever its config.
 */
void list_kind(struct json_t *o, const struct attach_kind *kind,
	       const char *extra_need);

/* ---- the attach kinds a family names: attach/attach.c ---- */

#include "attach/attach.h"

#endif /* __BENCH_H */
