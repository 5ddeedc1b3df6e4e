/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_overhead's own header: its tables' ids and types (modes, events:
 * overhead/modes.c, overhead/events.c), its rows, and what its files
 * under overhead/ share with the family file, test_overhead_user.c,
 * which holds the options and the callbacks that glue them. The events'
 * own parts have headers of their own: triggers.h, fib.h, testrun.h,
 * uprobe_sites.h.
 */
#ifndef __OVERHEAD_OVERHEAD_H
#define __OVERHEAD_OVERHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include <jansson.h>
#include "bench.h"
#include "test_overhead.h"
#include "triggers.h"

/* ---- the BPF objects, through their skeletons ---- */

/* what the runner needs of any test_overhead skeleton, typed per object */
struct overhead_skel {
	void *(*open)(void);
	void (*destroy)(void *skel);
	struct bpf_object_skeleton *(*skeleton)(void *skel);
	struct hit_slot *(*slots)(void *skel);
};

/* the overhead_skel of skeleton @sk: sk##_skel */
#define OVERHEAD_SKEL(sk)						\
static void *sk##_open(void) { return sk##__open(); }			\
static void sk##_destroy(void *s) { sk##__destroy(s); }			\
static struct bpf_object_skeleton *sk##_skeleton(void *s)		\
{									\
	return ((struct sk *)s)->skeleton;				\
}									\
static struct hit_slot *sk##_slots(void *s)				\
{									\
	return ((struct sk *)s)->bss->slots;				\
}									\
static const struct overhead_skel sk##_skel = {				\
	sk##_open, sk##_destroy, sk##_skeleton, sk##_slots,		\
}

/* a program of a skeleton: where its pointer sits in the skeleton */
#define PROG(sk, name)	offsetof(struct sk, progs.name)

static inline struct bpf_program *skel_prog(void *skel, size_t off)
{
	return *(struct bpf_program **)((char *)skel + off);
}

/* ---- modes: how the program is attached ---- */

/*
 * X(ID, -m name): each mode's id, MODE_ID, with its name, in the order
 * of modes[] (overhead/modes.c), of --help and of the rows. A new mode
 * is a line here and its entry there.
 */
#define OVERHEAD_MODES(X)						\
	X(BASE, "base")							\
	X(KPROBE, "kprobe")						\
	X(KRETPROBE, "kretprobe")					\
	X(TRACEPOINT, "tracepoint")					\
	X(RAW_TP, "raw_tp")						\
	X(TP_BTF, "tp_btf")						\
	X(FENTRY, "fentry")						\
	X(FEXIT, "fexit")						\
	X(FMOD_RET, "fmod_ret")						\
	X(UPROBE, "uprobe")						\
	X(URETPROBE, "uretprobe")					\
	X(KPROBE_MULTI, "kprobe_multi")					\
	X(KRETPROBE_MULTI, "kretprobe_multi")				\
	X(KPROBE_SESSION, "kprobe_session")				\
	X(LSM, "lsm")							\
	X(LSM_S, "lsm.s")						\
	X(FENTRY_S, "fentry.s")						\
	X(UPROBE_S, "uprobe.s")						\
	X(UPROBE_MULTI, "uprobe_multi")					\
	X(USDT, "usdt")

#define MODE_ENUM(id, name)	MODE_##id,
enum mode_id {
	OVERHEAD_MODES(MODE_ENUM)
	NR_MODES
};
#undef MODE_ENUM

/* a mode's or an event's name, with its NUL, at most */
#define OVERHEAD_NAME_MAX	24

struct attach_mode {
	const char *name;		/* -m name */
	const char *header;		/* upstream's line before its results */
	const struct attach_kind *kind;	/* NULL: nothing attached */
	/*
	 * test_flags bit selecting task_rename in this mode; the next one
	 * up selects fib_table_lookup. 0: the mode has no bit pair.
	 */
	__u64 flag;
	const struct overhead_skel *skel;
	size_t count_prog;		/* the program that counts alone */
	const char *help;
};

/* the table of modes, overhead/modes.c's, by enum mode_id */
extern const struct attach_mode modes[];

/* ---- events: what every worker repeats ---- */

/*
 * X(ID, name): each event's id, EV_ID, with its name (-e, the rows'), in
 * the order of events[] (overhead/events.c), of --help and of the rows.
 * A new event is a line here and its entry there.
 */
#define OVERHEAD_EVENTS(X)						\
	X(TASK_RENAME, "task_rename")					\
	X(FIB_TABLE_LOOKUP, "fib_table_lookup")				\
	X(GETPGID, "getpgid")						\
	X(UPROBE_NOP, "uprobe-nop")					\
	X(UPROBE_PUSH, "uprobe-push")					\
	X(UPROBE_RET, "uprobe-ret")					\
	X(USDT_NOP, "usdt-nop")						\
	X(KERNEL_BATCH, "kernel-batch")					\
	X(URANDOM_READ, "urandom_read")					\
	X(SIGNAL_GENERATE, "signal_generate")

#define EVENT_ENUM(id, name)	EV_##id,
enum event_id {
	OVERHEAD_EVENTS(EVENT_ENUM)
	NR_EVENTS
};
#undef EVENT_ENUM

struct overhead_event {
	struct trigger trigger;		/* trigger.name is the event's name */
	struct attach_target target;
	/*
	 * test_flags: 0 and 1 are the low and high bit of each mode's
	 * pair (upstream's events); otherwise the event's own bit, which
	 * selects it in every mode that applies
	 */
	__u64 flag;
	long syscall_nr;		/* what sys_enter programs keep */
	/* checks the event itself before a mode runs it, if needed */
	bool (*usable)(struct outcome *out);
	/* once per run, in the parent, before any sample of the event */
	void (*prepare)(void);
	/*
	 * Its function or probe site comes in copies (copy_triggers): each
	 * row gets its own, and base the twin no program hooks; @trigger
	 * is the first copy's
	 */
	bool copied;
	enum copied_event copy_of;
	/*
	 * events per worker and sample without -n, at most: the runner
	 * paces a sample down to about 3 ms at the row's own pace
	 * (SAMPLE_TARGET_NS), never below a 64th of @count (PACE_MIN_SHARE,
	 * runner/sample/unit.c). So @count is sized to take at least
	 * 3 ms in the dearest mode that runs the event on the project's
	 * 2-CPU VM (task_rename's 70000: 12 ms of tracepoint; uprobe-ret's
	 * 3500: 49 ms of uretprobe, which single-steps at 14 us). Longer
	 * samples are no more precise over a row's samples, and cost more
	 * to run again when an interruption spoils one.
	 */
	__u64 count;
	/*
	 * base is a function call, not a syscall: no percentages, and the
	 * base row's own count is base_count calls, paced as @count is
	 */
	bool base_is_call;
	__u64 base_count;
	/* each datagram's lookups are counted before the run */
	bool calibrated;
	/* programs other than the mode's counting one */
	size_t prog[NR_MODES];
	/*
	 * why a kernel whose config has every option may still lack the
	 * event's tracepoint: said of the modes that hook it alone
	 */
	const char *tp_may_lack;
	const char *help;
};

#define PAIR_LOW	0
#define PAIR_HIGH	1

/* the table of events, overhead/events.c's, by enum event_id */
extern const struct overhead_event events[];

bool mode_applies(const struct attach_mode *mode,
		  const struct overhead_event *ev);
/* the test_flags bit of @mode and @ev, 0 when none */
__u64 flag_of(const struct attach_mode *mode,
	      const struct overhead_event *ev);

/* ---- options ---- */

/* --progs: at most this many programs on one hook, and counts in a list */
#define PROGS_MAX	256
#define PROGS_COUNTS	16

/* what the options ask of the programs and the output */
struct overhead_opts {
	__u64 flags;		/* test_flags; 0: every row */
	enum overhead_body body;
	__u64 progs[PROGS_COUNTS];	/* --progs, ascending */
	int nr_progs;			/* 0: one program, no progs param */
	bool attach_time;
	/* -m and -e: the modes and the events of the rows (all: not given) */
	bool modes_given, events_given;
	bool mode_on[NR_MODES];
	bool event_on[NR_EVENTS];
};

/*
 * What the fib_table_lookup rows share (fib.c): the lookups one datagram
 * makes, counted once per run (0: not yet), and why not when the count
 * failed, so that every fib row says so without trying again
 */
struct fib_count {
	unsigned int lookups;
	struct outcome failed;
};

/*
 * test_overhead's own state, main()'s: bench_main()'s @ctx, which the
 * callbacks that take the run's settings reach as @rs->ctx. The options,
 * and what the rows of a run share.
 */
struct overhead_ctx {
	struct overhead_opts opt;
	struct fib_count fib;
	/* of each copied event's function, the copies its rows took */
	int copies_used[NR_COPIED];
};

static inline struct overhead_ctx *overhead_ctx(const struct run_settings *rs)
{
	return rs->ctx;
}

static inline const struct overhead_opts *
overhead_opts(const struct run_settings *rs)
{
	return &overhead_ctx(rs)->opt;
}
/* --body's names and help, by enum overhead_body */
extern const char *const body_names[];
extern const char *const body_help[];

/* ---- rows ---- */

/* one loaded object: its program, and the link while attached */
struct prog_instance {
	void *skel;
	/* what its slots say to it, each time they are reset */
	struct overhead_config cfg;
	struct bpf_program *prog;
	struct bpf_link *link;
	/* each CPU's hits, and foreign runs, already taken by collect() */
	__u64 taken[OVERHEAD_MAX_CPUS];
	__u64 taken_foreign[OVERHEAD_MAX_CPUS];
};

/*
 * The programs the kernel took on one hook of a mode and event before it
 * said E2BIG (0: no cap seen), and its reason: rows asking for more are
 * skipped
 */
struct hook_cap {
	int progs;
	struct outcome why;
};

struct overhead_row {
	const struct attach_mode *mode;
	const struct overhead_event *ev;
	/* what it hooks: the event's, or the row's copy of its function */
	struct attach_target target;
	int copy;			/* a copied event's: the row's copy */
	char copy_name[32];
	const char *hooked;		/* the kernel name attached to */
	struct prog_instance *inst;	/* nr_counters of them */
	/* --attach-time: the functions hooked at once, and their links */
	int nr_funcs;
	const char **funcs;
	struct bpf_link **links;
	int nr_links;
	/* its hook's cap: the first row of its mode and event's (setup()) */
	struct hook_cap own_cap, *cap;
};

/* ---- one row's programs (progs.c) ---- */

void destroy_instances(struct bench_row *row);
void configure(const struct run_settings *rs, struct overhead_config *cfg,
	       const struct overhead_event *ev, int i, int nr);
void slots_reset(struct hit_slot *slots, const struct overhead_config *cfg,
		 const int *cpu, const pid_t *pid, int nr);
int open_instance(const struct run_settings *rs, struct bench_row *row,
		  int i, struct outcome *out);
int open_funcs(struct overhead_row *r, struct outcome *out);
void new_workers(struct bench_row *row, const struct bench_workers *workers);
void detach_row(struct bench_row *row);
int collect(struct bench_row *row, struct sample *s);
const volatile __u64 *hit_slot(const struct bench_row *row, int counter,
			       int cpu);
const volatile __u64 *foreign_slot(const struct bench_row *row, int counter,
				   int cpu);
int prog_fds(const struct bench_row *row, int *fds, int max);
void close_row(struct bench_row *row);

/* ---- output ---- */

/* upstream.c: upstream's lines */
bool upstream_row(const struct overhead_row *r);
void print_upstream(const struct run_settings *rs,
		    const struct bench_rows *rows);

/* summary.c: the summary's table */
/* "task_rename[progs=4]": @row's label in @l, returned */
#define ROW_LABEL_LEN	96
const char *row_label(const struct bench_row *row, char l[ROW_LABEL_LEN]);
const char *row_mode(const struct bench_row *row);
void print_summary(const struct run_settings *rs,
		   const struct bench_rows *rows);

/* fit.c: the cost of each added program, over the rows of this run */
int progs_fit(const struct bench_rows *rows, const struct bench_row *row,
	      struct line_fit *fit, int *nr_rows);
void print_fits(const struct bench_rows *rows);

/* json.c: the results file's and --list's fields */
void json_context(const struct run_settings *rs, json_t *ctx);
void json_row(const struct bench_rows *rows, const struct bench_row *row,
	      json_t *o);
void list_row(const struct bench_row *row, json_t *o);

#endif /* __OVERHEAD_OVERHEAD_H */
