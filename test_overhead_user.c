// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead: what each way of attaching a BPF program to a kernel event
 * costs per event. Every worker repeats an event (a syscall) on its own CPU,
 * first with nothing attached (base), then with one program attached per
 * mode; the program counts its hits, and a figure is shown only when the
 * hits cover every event the workers made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_report.h"
#include "uprobe_targets.h"
#include "test_overhead_kprobe_kern.skel.h"
#include "test_overhead_tp_kern.skel.h"
#include "test_overhead_raw_tp_kern.skel.h"
#include "test_overhead_fentry_kern.skel.h"
#include "test_overhead_uprobe_kern.skel.h"
#include "test_overhead_batch_kern.skel.h"

#define MAX_COUNT	10000000000ull

/* ---- events: what every worker repeats ---- */

static void rename_run(void *state, __u64 count)
{
	static const char names[2][16] = { "overhead_even", "overhead_odd" };
	__u64 i;

	for (i = 0; i < count; i++)
		prctl(PR_SET_NAME, names[i & 1]);
}

static int urandom_setup(void **state)
{
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0)
		return -errno;
	*state = (void *)(long)fd;
	return 0;
}

static void urandom_run(void *state, __u64 count)
{
	int fd = (long)state;
	char buf[4];
	__u64 i;

	for (i = 0; i < count; i++)
		(void)!read(fd, buf, sizeof(buf));
}

static void getpgid_run(void *state, __u64 count)
{
	__u64 i;

	for (i = 0; i < count; i++)
		getpgid(0);
}

/*
 * The uprobe events' targets (uprobe_targets.c): before each run the first
 * instruction is checked. A breakpoint there is another tool's uprobe, which
 * would also fire: skipped. Any other wrong instruction is the build's fault.
 */
static bool target_ok(int which, struct outcome *out)
{
	char why[160];

	switch (uprobe_target_check(which, why, sizeof(why))) {
	case UPROBE_TARGET_OK:
		return true;
	case UPROBE_TARGET_WRONG:
		outcome_set(out, ST_FAILED, "%s", why);
		break;
	default:
		outcome_set(out, ST_SKIPPED, "%s", why);
	}
	return false;
}

static bool nop_ok(struct outcome *out)
{
	return target_ok(UPROBE_NOP, out);
}

static bool push_ok(struct outcome *out)
{
	return target_ok(UPROBE_PUSH, out);
}

static bool ret_ok(struct outcome *out)
{
	return target_ok(UPROBE_RET, out);
}

#define UPROBE_RUN(name)						\
static void name##_run(void *state, __u64 count)			\
{									\
	__u64 i;							\
									\
	for (i = 0; i < count; i++)					\
		name();							\
}
UPROBE_RUN(uprobe_nop)
UPROBE_RUN(uprobe_push)
UPROBE_RUN(uprobe_ret)

/*
 * kernel-batch: BPF_PROG_TEST_RUN of a driver program that calls
 * bpf_get_numa_node_id() KERNEL_BATCH times per run, the programs under
 * test on that function: the syscall's cost is shared by the batch.
 */
#define KERNEL_BATCH 100

struct batch_driver {
	struct bpf_run run;
	int fd;
	__u64 args[1];	/* the driver's ctx: how many helper calls */
};

static int batch_driver_load(struct batch_driver *d, struct outcome *out)
{
	size_t size;
	const void *elf = test_overhead_batch_kern__elf_bytes(&size);
	int err;

	err = bpf_run_open(&d->run, elf, size, "test_overhead_batch_kern",
			   "kernel_batch_driver", out);
	if (err)
		return err;
	err = bpf_object__load(d->run.obj);
	if (err) {
		outcome_set(out, ST_FAILED, "loading the batch driver: %s",
			    strerror(-err));
		bpf_run_close(&d->run);
		return err;
	}
	d->fd = bpf_program__fd(d->run.prog);
	d->args[0] = KERNEL_BATCH;
	return 0;
}

/* each worker loads its own driver: workers hold no parent's BPF fds */
static int batch_setup(void **state)
{
	static struct batch_driver driver;
	struct outcome out;
	int err;

	err = batch_driver_load(&driver, &out);
	*state = &driver;
	return err;
}

static void batch_run(void *state, __u64 count)
{
	struct batch_driver *d = state;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = d->args,
		    .ctx_size_in = sizeof(d->args));
	__u64 i;

	for (i = 0; i < count; i++)
		bpf_prog_test_run_opts(d->fd, &opts);
}

/* the kernel must be able to test-run a raw_tp program at all */
static bool batch_ok(struct outcome *out)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct batch_driver d;
	int err;

	if (batch_driver_load(&d, out))
		return false;
	opts.ctx_in = d.args;
	opts.ctx_size_in = sizeof(d.args);
	err = bpf_prog_test_run_opts(d.fd, &opts) ? -errno : 0;
	bpf_run_close(&d.run);
	if (err)
		outcome_set(out, ST_SKIPPED,
			    "kernel cannot BPF_PROG_TEST_RUN a raw_tp program: %s",
			    strerror(-err));
	return !err;
}

struct overhead_event {
	struct trigger trigger;		/* trigger.name is the event's name */
	struct attach_target target;
	/*
	 * test_flags bit selecting the event in every mode that applies;
	 * 0 for upstream's events, selected by each mode's bit pair
	 */
	unsigned int flag;
	/* checks the event itself before a mode runs it, if needed */
	bool (*usable)(struct outcome *out);
	/* events per worker and sample without -n: about 0.1 s each */
	__u64 count;
};

static const struct overhead_event events[] = {
	{
		.trigger = { .name = "task_rename", .run = rename_run },
		.target = {
			.kfunc = { "__set_task_comm" },
			.tp_category = "task",
			.tp_name = "task_rename",
			.lsm_hook = "security_task_prctl",
		},
		.count = 500000,
	},
	{
		.trigger = {
			.name = "urandom_read",
			.setup = urandom_setup,
			.run = urandom_run,
		},
		.target = {
			/* renamed in 5.19 */
			.kfunc = { "urandom_read_iter", "urandom_read" },
			.tp_category = "random",
			.tp_name = "urandom_read",
		},
		.count = 500000,
	},
	{
		.trigger = { .name = "getpgid", .run = getpgid_run },
		.target = {
			/* the architecture's syscall wrapper */
			.kfunc = { "__x64_sys_getpgid", "__arm64_sys_getpgid",
				   "sys_getpgid" },
			.tp_category = "syscalls",
			.tp_name = "sys_enter_getpgid",
			.raw_tp_name = "sys_enter",
			.error_injection = true,
		},
		.flag = 0x10000,
		.count = 1000000,
	},
	{
		.trigger = { .name = "uprobe-nop", .run = uprobe_nop_run },
		.target = { .ufunc = "uprobe_nop" },
		.flag = 0x20000,
		.usable = nop_ok,
		.count = 200000,
	},
	{
		.trigger = { .name = "uprobe-push", .run = uprobe_push_run },
		.target = { .ufunc = "uprobe_push" },
		.flag = 0x40000,
		.usable = push_ok,
		.count = 200000,
	},
	{
		.trigger = { .name = "uprobe-ret", .run = uprobe_ret_run },
		.target = { .ufunc = "uprobe_ret" },
		.flag = 0x80000,
		.usable = ret_ok,
		.count = 50000,
	},
	{
		.trigger = {
			.name = "kernel-batch",
			.setup = batch_setup,
			.run = batch_run,
			.events_per_call = KERNEL_BATCH,
		},
		.target = { .kfunc = { "bpf_get_numa_node_id" } },
		.flag = 0x100000,
		.usable = batch_ok,
		.count = 5000000,
	},
};
#define NR_EVENTS ((int)(sizeof(events) / sizeof(events[0])))

/* ---- modes: how the program is attached ---- */

struct attach_mode {
	/* -m name; its BPF programs are named <name>_<event> */
	const char *name;
	const char *header;	/* upstream's line before the mode's results */
	/* test_flags bit for the first event; the next event's is flag << 1 */
	unsigned int flag;
	enum attach_kind kind;
	const void *(*elf_bytes)(size_t *size);	/* the skeleton's object */
	const char *obj_name;
};

#define SKEL(name) name##__elf_bytes, #name

static const struct attach_mode modes[] = {
	{ "base", "BASE", 0x1, ATTACH_NONE, NULL, NULL },
	{ "kprobe", "w/KPROBE", 0x4, ATTACH_KPROBE,
	  SKEL(test_overhead_kprobe_kern) },
	{ "kretprobe", "w/KRETPROBE", 0x100, ATTACH_KRETPROBE,
	  SKEL(test_overhead_kprobe_kern) },
	{ "tracepoint", "w/TRACEPOINT", 0x10, ATTACH_TRACEPOINT,
	  SKEL(test_overhead_tp_kern) },
	{ "raw_tp", "w/RAW_TRACEPOINT", 0x40, ATTACH_RAW_TP,
	  SKEL(test_overhead_raw_tp_kern) },
	{ "tp_btf", "w/TP_BTF", 0x400, ATTACH_TP_BTF,
	  SKEL(test_overhead_raw_tp_kern) },
	{ "fentry", "w/FENTRY", 0x1000, ATTACH_FENTRY,
	  SKEL(test_overhead_fentry_kern) },
	{ "fexit", "w/FEXIT", 0x4000, ATTACH_FEXIT,
	  SKEL(test_overhead_fentry_kern) },
	{ "fmod_ret", "w/FMOD_RET", 0x200000, ATTACH_FMOD_RET,
	  SKEL(test_overhead_fentry_kern) },
	/* the uprobe modes apply to the uprobe events only: no bit pair */
	{ "uprobe", "w/UPROBE", 0, ATTACH_UPROBE,
	  SKEL(test_overhead_uprobe_kern) },
	{ "uretprobe", "w/URETPROBE", 0, ATTACH_URETPROBE,
	  SKEL(test_overhead_uprobe_kern) },
};
#define NR_MODES ((int)(sizeof(modes) / sizeof(modes[0])))

/* ---- options ---- */

struct options {
	bool selected[NR_MODES][NR_EVENTS];
	struct cpu_list cpus;
	__u64 count;		/* 0: each event's own */
	struct run_settings rs;
};

static void usage(FILE *f)
{
	int m, e;

	fprintf(f,
"Usage: test_overhead [options] [test_flags] [num_cpu]\n"
"       test_overhead --compare A.json B.json [--fail-on-regression PCT]\n"
"Per-event cost of each way to attach a BPF program, verified by the\n"
"program's own hit count.\n"
"\n"
"  -m, --modes LIST    modes to run, comma-separated (default: all)\n"
"  -e, --events LIST   events, comma-separated (default: all):\n"
"                      task_rename   prctl(PR_SET_NAME)\n"
"                      urandom_read  read(2) of 4 bytes of /dev/urandom\n"
"                      getpgid       getpgid(0): cheap, and rarely called by\n"
"                                    others; raw_tp and tp_btf hook sys_enter,\n"
"                                    which fires for every syscall of every\n"
"                                    process, and filter by syscall number\n"
"                      uprobe-nop, uprobe-push, uprobe-ret  calls of a user\n"
"                                    function starting with that instruction\n"
"                                    (uprobe and uretprobe modes; base is the\n"
"                                    bare call)\n"
"                      kernel-batch  BPF_PROG_TEST_RUN of a program calling\n"
"                                    bpf_get_numa_node_id() %d times: no\n"
"                                    syscall per event (kprobe, kretprobe,\n"
"                                    fentry, fexit on that function)\n"
"  -c, --cpus N|LIST   N: the first N online CPUs; or a list like 0,2-3\n"
"                      (default: every online CPU), one worker each\n"
"  -n, --count N       events per worker and sample (default: the event's,\n"
"                      about 0.1 s)\n"
COMMON_USAGE
"  -q, --quiet         only the summary\n"
"  -v, --verbose       libbpf's messages too\n"
"  -h, --help          this text\n"
"\n"
"Modes: base (nothing attached), kprobe, kretprobe, tracepoint, raw_tp,\n"
"tp_btf, fentry, fexit, fmod_ret (task_rename: on prctl's LSM hook,\n"
"returning 0; getpgid: returns an error so the syscall body is skipped),\n"
"uprobe, uretprobe (uprobe-* events only).\n"
"\n"
"test_flags (upstream-compatible; default: all): for each mode, the low\n"
"bit selects task_rename, the high bit urandom_read:\n",
		KERNEL_BATCH);
	for (m = 0; m < NR_MODES; m++) {
		if (!modes[m].flag)
			continue;
		fprintf(f, "  %#-9x", modes[m].flag);
		/* a pair's urandom_read bit may select nothing */
		if (attach_applies(modes[m].kind, &events[1].target))
			fprintf(f, "%#-10x", modes[m].flag << 1);
		else
			fprintf(f, "%-10s", "-");
		fprintf(f, "%s\n", modes[m].name);
	}
	fprintf(f, "and one bit for each newer event, in every mode that applies:\n");
	for (e = 0; e < NR_EVENTS; e++)
		if (events[e].flag)
			fprintf(f, "  %#-19x%s\n", events[e].flag,
				events[e].trigger.name);
	fprintf(f,
"num_cpu: as -c N.\n"
"\n"
"Exit status: 0 when every selected measurement ran verified or was skipped\n"
"for a reason the kernel gives; 1 when one failed or none could run; 2 on a\n"
"usage error; 128+signal when interrupted. --compare: 0, or 1 for a\n"
"regression beyond --fail-on-regression.\n");
}

static bool flags_select(__u64 flags, int m, int e)
{
	const struct overhead_event *ev = &events[e];

	if (!attach_applies(modes[m].kind, &ev->target))
		return false;
	return flags & (ev->flag ? ev->flag : (__u64)modes[m].flag << e);
}

static int parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "modes", required_argument, NULL, 'm' },
		{ "events", required_argument, NULL, 'e' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		COMMON_LONGOPTS,
		{},
	};
	const char *mode_names[NR_MODES], *event_names[NR_EVENTS];
	bool mode_on[NR_MODES], event_on[NR_EVENTS];
	const char *cpus = NULL;
	__u64 flags = ~0ull;
	int c, m, e, any = 0;

	for (m = 0; m < NR_MODES; m++) {
		mode_names[m] = modes[m].name;
		mode_on[m] = true;
	}
	for (e = 0; e < NR_EVENTS; e++) {
		event_names[e] = events[e].trigger.name;
		event_on[e] = true;
	}
	run_settings_init(&opt->rs);

	opterr = 0;	/* one message of ours instead of getopt's */
	while ((c = getopt_long(argc, argv, ":m:e:c:n:h" COMMON_SHORTOPTS,
				longopts, NULL)) != -1) {
		switch (parse_common_option(c, optarg, argc, argv, &opt->rs)) {
		case 1:
			continue;
		case -1:
			return -1;
		}
		switch (c) {
		case 'm':
			if (parse_name_list(optarg, "mode", mode_names,
					    NR_MODES, mode_on))
				return -1;
			break;
		case 'e':
			if (parse_name_list(optarg, "event", event_names,
					    NR_EVENTS, event_on))
				return -1;
			break;
		case 'c':
			cpus = optarg;
			break;
		case 'n':
			if (parse_u64(optarg, 1, MAX_COUNT, &opt->count)) {
				pr_err("bad count '%s': 1 to %llu events per worker",
				       optarg, MAX_COUNT);
				return -1;
			}
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return -1;	/* getopt_long gives nothing else */
		}
	}
	if (check_common_options(&opt->rs, argc))
		return -1;
	if (opt->rs.compare[0])
		return 0;
	if (argc - optind > 2) {
		pr_err("too many arguments (see --help)");
		return -1;
	}
	if (optind < argc && parse_u64(argv[optind++], 1, ~0ull, &flags)) {
		pr_err("bad test_flags '%s': a non-zero number such as 0x15",
		       argv[optind - 1]);
		return -1;
	}
	if (optind < argc) {
		if (cpus) {
			pr_err("give the CPUs once: num_cpu or -c");
			return -1;
		}
		cpus = argv[optind];
	}
	if (select_cpus(cpus, &opt->cpus))
		return -1;

	for (m = 0; m < NR_MODES; m++)
		for (e = 0; e < NR_EVENTS; e++)
			any |= opt->selected[m][e] = mode_on[m] &&
				event_on[e] && flags_select(flags, m, e);
	if (!any) {
		pr_err("nothing selected: test_flags, -m and -e leave no mode");
		return -1;
	}
	return 0;
}

/* ---- one measurement ---- */

/* what one sample of a mode and an event needs from the runner */
struct overhead_sample {
	const struct attach_mode *mode;
	const struct overhead_event *ev;
};

static int attach_program(void *ctx, const struct worker_pool *pool,
			  struct bpf_run *run, struct outcome *out)
{
	const struct overhead_sample *s = ctx;
	char prog[64], *dash;
	const void *elf;
	size_t size;

	if (s->mode->kind == ATTACH_NONE)
		return 0;
	/* "uprobe-nop" events have C programs named uprobe_uprobe_nop */
	snprintf(prog, sizeof(prog), "%s_%s", s->mode->name,
		 s->ev->trigger.name);
	while ((dash = strchr(prog, '-')))
		*dash = '_';
	elf = s->mode->elf_bytes(&size);
	if (bpf_run_open(run, elf, size, s->mode->obj_name, prog, out))
		return -1;
	return bpf_run_attach(run, s->mode->kind, &s->ev->target, out);
}

/* the program must have fired at least once per event the workers made */
static void verify_hits(void *ctx, struct bpf_run *run, struct measurement *m,
			const struct worker_result *res)
{
	const struct overhead_sample *s = ctx;
	struct bpf_map *hits;
	int err;

	if (s->mode->kind == ATTACH_NONE)
		return;
	hits = bpf_object__find_map_by_name(run->obj, "hits");
	err = hits ? percpu_sum(hits, 0, &m->hits) : -ENOENT;
	if (err)
		outcome_set(&m->out, ST_FAILED, "cannot read the hit count: %s",
			    strerror(-err));
	else if (m->hits < m->events)
		outcome_set(&m->out, ST_FAILED,
			    "program fired %llu times for %llu events",
			    m->hits, m->events);
}

static const struct sample_ops overhead_ops = {
	.prepare = attach_program,
	.verify = verify_hits,
};

/*
 * One sample of one mode and event. With @prog_stats the kernel's counters
 * of the program's run time are read too (they are on only for that pass).
 */
static int run_one(const struct options *opt, const struct attach_mode *mode,
		   const struct overhead_event *ev, bool prog_stats,
		   struct measurement *m, struct worker_result *res)
{
	struct overhead_sample s = { mode, ev };
	struct sample_spec spec = {
		.cpus = &opt->cpus,
		.trigger = &ev->trigger,
		.count = opt->count ?: ev->count,
		.duration_ns = opt->rs.duration * 1e9,
		.prog_stats = prog_stats,
	};

	memset(m, 0, sizeof(*m));
	if (ev->usable && !ev->usable(&m->out))
		return 0;
	return run_sample(&spec, &overhead_ops, &s, m, res);
}

/* ---- output ---- */

static void print_workers(const struct overhead_event *ev,
			  const struct measurement *m,
			  const struct worker_result *res)
{
	int i;

	if (m->out.status != ST_OK) {
		printf("%s: %s: %s\n", ev->trigger.name,
		       status_name(m->out.status), m->out.reason);
		return;
	}
	/* upstream's line, so that scripts grepping for it keep working */
	for (i = 0; i < m->nr_workers; i++)
		printf("%s:%d: %lld events per sec\n", ev->trigger.name,
		       res[i].cpu,
		       (long long)(res[i].events * 1000000000ull /
				   (res[i].elapsed_ns ? res[i].elapsed_ns : 1)));
}

static void print_row(const struct bench_row *row, bool prog_stats)
{
	char overhead[64] = "-", hits[48] = "-", body[48] = "", notes[160];
	struct row_summary s;

	printf("  %-11s %-13s %-8s ", row->name, row->variant,
	       status_name(row->out.status));
	if (row->out.status != ST_OK) {
		printf("%s\n", row->out.reason);
		return;
	}
	row_summarize(row, &s);
	if (s.has_overhead)
		snprintf(overhead, sizeof(overhead), "%+.1f ± %.1f (%+.1f%%)",
			 s.overhead.value, s.overhead.uncertainty,
			 s.overhead.pct);
	else if (row->base != row)
		snprintf(overhead, sizeof(overhead), "(no base)");
	if (row->counts_hits)
		snprintf(hits, sizeof(hits), "%llu/%llu", row->hits,
			 row->events);
	if (prog_stats && !isnan(row->prog_ns))
		snprintf(body, sizeof(body), "  body %.1f%s",
			 row_prog_body(row), s.has_overhead ? "" : " ns");
	if (prog_stats && !isnan(row->prog_ns) && s.has_overhead)
		snprintf(body, sizeof(body), "  body %.1f + attach %.1f",
			 row_prog_body(row),
			 s.overhead.value - row_prog_body(row));
	row_notes(row, &s, notes, sizeof(notes));
	printf("%8.3fM ± %-6.3f %8.1f %27s %21s%s%s%s\n", s.rate.mean / 1e6,
	       s.rate.stddev / 1e6, s.ns.mean, overhead, hits, body,
	       notes[0] ? "  " : "", notes);
}

static void print_body_legend(const struct bench_row *rows, int nr)
{
	double clock = NAN;
	int i;

	for (i = 0; i < nr && isnan(clock); i++)
		clock = rows[i].prog_clock_ns;
	printf("body: ns inside the program per run, by the kernel's run-time stats in a pass\n"
	       "of their own, less their clock reads (%.1f ns a run, on an empty program);\n"
	       "attach: the rest of the overhead\n", clock);
}

static void print_summary(const struct options *opt,
			  const struct bench_row *rows)
{
	char cpus[256], count[64];
	struct utsname uts;
	int i;

	uname(&uts);
	format_cpus(&opt->cpus, cpus, sizeof(cpus));
	if (opt->rs.duration)
		snprintf(count, sizeof(count), "%g s", opt->rs.duration);
	else if (opt->count)
		snprintf(count, sizeof(count), "%llu events", opt->count);
	else
		snprintf(count, sizeof(count), "the event's count of events");
	printf("\nSummary: %d worker(s) on CPU %s, %s per sample, %d sample(s)%s, kernel %s\n",
	       opt->cpus.nr, cpus, count, opt->rs.repeat,
	       opt->rs.warmup ? " after warm-up" : "", uts.release);
	printf("  %-11s %-13s %-8s %-18s %8s %27s %21s\n", "mode", "event",
	       "status", "events/s mean ± sd", "ns/event",
	       "overhead ns/event ± sd", "hits/events");
	for (i = 0; i < NR_MODES * NR_EVENTS; i++)
		if (rows[i].selected)
			print_row(&rows[i], opt->rs.prog_stats);
	if (opt->rs.prog_stats)
		print_body_legend(rows, NR_MODES * NR_EVENTS);
}

/* ---- the run ---- */

#define ROW(m, e) ((m) * NR_EVENTS + (e))

/* --json -: stdout holds the JSON alone */
static bool text_off;

static void init_rows(const struct options *opt, struct bench_row *rows)
{
	int m, e;

	for (m = 0; m < NR_MODES; m++) {
		for (e = 0; e < NR_EVENTS; e++) {
			struct bench_row *row = &rows[ROW(m, e)];

			row_init(row, modes[m].name, events[e].trigger.name,
				 "events/s");
			row->selected = opt->selected[m][e];
			row->counts_hits = modes[m].kind != ATTACH_NONE;
			/* overhead is against base, mode 0 */
			row->base = opt->selected[0][e] ? &rows[ROW(0, e)] :
							  NULL;
		}
	}
}

/*
 * Rounds of every selected row, so that drift hits every mode alike; the
 * warm-up rounds count only for skips and failures.
 */
static int run_rounds(const struct options *opt, struct bench_row *rows)
{
	static struct worker_result res[MAX_WORKERS];
	int rounds = opt->rs.warmup + opt->rs.repeat;
	int r, m, e, done, total = 0;
	struct measurement meas;

	for (m = 0; m < NR_MODES * NR_EVENTS; m++)
		total += rows[m].selected;
	for (r = 0; r < rounds; r++) {
		bool counted = r >= opt->rs.warmup;

		done = 0;
		for (m = 0; m < NR_MODES; m++) {
			bool header = false;

			for (e = 0; e < NR_EVENTS; e++) {
				struct bench_row *row = &rows[ROW(m, e)];

				if (!row->selected)
					continue;
				progress(done++, total, row, r, rounds);
				if (!row_runnable(row))
					continue;
				if (run_one(opt, &modes[m], &events[e], false,
					    &meas, res))
					return -EINTR;
				if (counted || meas.out.status != ST_OK)
					row_record(row, &meas);
				if (!counted || verbosity < 1 || text_off)
					continue;
				progress_end();
				if (!header)
					printf("%s\n", modes[m].header);
				header = true;
				print_workers(&events[e], &meas, res);
				fflush(stdout);
			}
		}
	}
	progress_end();
	return 0;
}

/* --prog-stats: row @i again, with the kernel's run-time stats read */
static int stats_sample(void *ctx, int i, struct measurement *m)
{
	static struct worker_result res[MAX_WORKERS];

	return run_one(ctx, &modes[i / NR_EVENTS], &events[i % NR_EVENTS],
		       true, m, res);
}

int main(int argc, char **argv)
{
	static struct bench_row rows[NR_MODES * NR_EVENTS];
	struct options opt = {};
	struct run_context ctx = { .tool = "test_overhead" };

	bench_init("test_overhead");
	if (parse_options(argc, argv, &opt))
		return EXIT_USAGE;
	if (opt.rs.compare[0])
		return run_compare(&opt.rs);
	text_off = json_on_stdout(&opt.rs);
	if (bench_setup())
		return 1;

	init_rows(&opt, rows);
	if (run_rounds(&opt, rows))
		return bench_exit_interrupted();
	/* a pass of its own: the run-time stats cost something themselves */
	if (opt.rs.prog_stats &&
	    prog_stats_pass(rows, NR_MODES * NR_EVENTS, stats_sample, &opt))
		return bench_exit_interrupted();
	if (!text_off)
		print_summary(&opt, rows);

	ctx.cpus = &opt.cpus;
	ctx.count = opt.count;
	ctx.rs = &opt.rs;
	return bench_finish(&ctx, rows, NR_MODES * NR_EVENTS);
}
