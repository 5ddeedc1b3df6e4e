/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner shared by test_overhead and map_perf_test: command-line
 * helpers, environment checks, pinned workers released together, BPF
 * program attach with kernel-probed skip reasons, and result lines.
 * It knows nothing about any single benchmark.
 */
#ifndef __BENCH_H
#define __BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#define MAX_WORKERS	256
#define REASON_LEN	160
#define EXIT_USAGE	2

/* ---- messages ---- */

/* 0: -q, 1: default, 2: -v (libbpf debug output too) */
extern int verbosity;

void bench_init(const char *prog_name);
/* one way to print an error: "prog: message" on stderr */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* notes about the environment, on stderr unless -q */
void pr_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- command line ---- */

struct cpu_list {
	int nr;
	int cpu[MAX_WORKERS];
};

/* decimal or 0x hex, within [min, max]; -EINVAL or -ERANGE otherwise */
int parse_u64(const char *s, __u64 min, __u64 max, __u64 *out);
/* "N" (the first N online CPUs) or a list such as "0,2-3" */
int parse_cpus(const char *s, struct cpu_list *out);
int online_cpus(struct cpu_list *out);
/* @s as -c takes it, or every online CPU when NULL; a line when bad */
int select_cpus(const char *s, struct cpu_list *out);
/* "0-1,3" for headers */
void format_cpus(const struct cpu_list *cpus, char *buf, size_t len);
/* index of @name among @nr names, or -1 */
int name_index(const char *name, const char *const *names, int nr);
/* "a,b": @mask[i] set for each named one; -1 with a message on a stranger */
int parse_name_list(const char *list, const char *what,
		    const char *const *names, int nr, bool *mask);

/* ---- environment ---- */

/* root, or CAP_BPF + CAP_PERFMON; one line naming them when missing */
int check_privileges(void);
/* mount tracefs at /sys/kernel/tracing when it is missing, and say so */
int ensure_tracefs(void);

/* ---- signals ---- */

/* SIGINT/SIGTERM/SIGHUP interrupt blocking waits instead of killing us */
void install_signal_handlers(void);
/* the signal that arrived, or 0 */
int bench_interrupted(void);

/* ---- workers ---- */

struct trigger {
	const char *name;
	/* runs in the worker before the start, e.g. opens a file */
	int (*setup)(void **state);
	/* the timed loop: the syscall and nothing else */
	void (*run)(void *state, __u64 count);
	/*
	 * events one call of the loop makes (0 means 1): the worker asks
	 * run() for count / events_per_call calls, rounded up
	 */
	unsigned int events_per_call;
};

struct worker_result {
	int cpu;
	int err;		/* 0, or -errno of the worker's set-up */
	bool pin_failed;	/* err came from pinning, not the trigger */
	__u64 events;
	__u64 elapsed_ns;
};

struct worker_pool {
	int nr;
	int cpu[MAX_WORKERS];
	pid_t pid[MAX_WORKERS];
	int go_fd;		/* closing it releases every worker at once */
	int result_fd;
};

/*
 * Forks one worker per CPU, pinned, set up and waiting for the start. The
 * workers exist before any BPF object of the run does, so they hold no
 * BPF file descriptors.
 */
/* each worker makes @count events, or runs @duration_ns when not 0 */
int pool_start(struct worker_pool *pool, const struct cpu_list *cpus,
	       const struct trigger *trigger, __u64 count, __u64 duration_ns);
/* releases the workers and waits for one result each */
int pool_run(struct worker_pool *pool, struct worker_result *res);
/* kills and reaps what is left; safe to call twice */
void pool_stop(struct worker_pool *pool);

/* ---- outcomes ---- */

enum status { ST_OK, ST_SKIPPED, ST_FAILED };

struct outcome {
	enum status status;
	char reason[REASON_LEN];
};

void outcome_set(struct outcome *o, enum status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *status_name(enum status st);

struct measurement {
	struct outcome out;
	int nr_workers;
	__u64 events;		/* made by all workers together */
	__u64 hits;		/* counted by the BPF program */
	double rate;		/* events per second, all workers together */
	double ns_per_event;	/* mean over workers of their ns per event */
	double prog_ns;		/* ns inside the BPF program per run, or NAN */
};

void measure(struct measurement *m, const struct worker_result *res, int nr);

/* ---- BPF programs ---- */

enum attach_kind {
	ATTACH_NONE,
	ATTACH_KPROBE,
	ATTACH_KRETPROBE,
	ATTACH_KSYSCALL,
	ATTACH_TRACEPOINT,
	ATTACH_RAW_TP,
	ATTACH_TP_BTF,
	ATTACH_FENTRY,
	ATTACH_FEXIT,
	ATTACH_FMOD_RET,
	ATTACH_UPROBE,
	ATTACH_URETPROBE,
};

const char *attach_kind_name(enum attach_kind kind);

/* where an event can be hooked; a kind uses the fields it needs */
struct attach_target {
	/* kernel functions, in order of preference: the first in BTF wins */
	const char *kfunc[3];
	const char *tp_category;	/* tracepoint */
	const char *tp_name;		/* tracepoint, raw_tp, tp_btf */
	const char *raw_tp_name;	/* raw_tp, tp_btf when not tp_name */
	const char *syscall;		/* ksyscall */
	bool error_injection;		/* kfunc allows fmod_ret */
	const char *lsm_hook;		/* fmod_ret: an LSM hook on the path */
	const char *ufunc;		/* uprobe: a function of this program */
};

/* whether @t gives what @kind needs to attach at all */
bool attach_applies(enum attach_kind kind, const struct attach_target *t);

struct bpf_object;
struct bpf_program;
struct bpf_link;
struct bpf_map;

struct bpf_run {
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_link *link;
};

/*
 * Opens the object embedded in a skeleton (its __elf_bytes()) with only
 * @prog_name set to load, so that one mode's failure touches no other.
 */
int bpf_run_open(struct bpf_run *run, const void *elf, size_t size,
		 const char *obj_name, const char *prog_name,
		 struct outcome *out);
/*
 * Resolves the target, loads and attaches. On error @out says why:
 * skipped when probing shows the kernel cannot do it, failed otherwise.
 */
int bpf_run_attach(struct bpf_run *run, enum attach_kind kind,
		   const struct attach_target *t, struct outcome *out);
void bpf_run_close(struct bpf_run *run);

/*
 * The kernel's BPF run-time statistics are on while the returned fd is
 * open (never through the sysctl, so nothing stays on after exit).
 */
int prog_stats_enable(struct outcome *out);
/* ns spent in the program per run, from the kernel's counters */
int prog_run_time(const struct bpf_run *run, double *ns_per_run);
/* the same into m->prog_ns, or m->out failed */
void measure_prog_stats(const struct bpf_run *run, struct measurement *m);
/*
 * What the run-time stats add to every run by themselves, in ns: the
 * kernel's clock reads around the program, measured on an empty one.
 */
int prog_stats_clock_cost(double *ns);

/* ---- one sample ---- */

/* what a benchmark does around the runner's timed run */
struct sample_ops {
	/* with the workers forked and waiting: load, attach, fill maps */
	int (*prepare)(void *ctx, const struct worker_pool *pool,
		       struct bpf_run *run, struct outcome *out);
	/* after the run: the program's own counts against m->events */
	void (*verify)(void *ctx, struct bpf_run *run, struct measurement *m,
		       const struct worker_result *res);
};

struct sample_spec {
	const struct cpu_list *cpus;
	const struct trigger *trigger;
	__u64 count;		/* events per worker */
	__u64 duration_ns;	/* or a time per worker, when not 0 */
	bool prog_stats;	/* read the kernel's run-time stats too */
};

/*
 * Workers, then the BPF side, then the timed run, the figures and their
 * verification; everything is gone again when it returns. -EINTR when a
 * signal stopped it; any other failure is in m->out.
 */
int run_sample(const struct sample_spec *spec, const struct sample_ops *ops,
	       void *ctx, struct measurement *m, struct worker_result *res);

/* sum of a per-CPU __u64 slot over every possible CPU */
int percpu_sum(struct bpf_map *map, __u32 key, __u64 *sum);
/*
 * The same for a value of @n __u64 fields: sums[i] is field i summed over
 * every possible CPU.
 */
int percpu_sum_fields(struct bpf_map *map, __u32 key, __u64 *sums, int n);

/*
 * Before load: can this kernel create @map as defined (type, then flags)?
 * -EOPNOTSUPP with @out skipped and the reason when it cannot.
 */
int probe_map(struct bpf_map *map, struct outcome *out);

#endif /* __BENCH_H */
