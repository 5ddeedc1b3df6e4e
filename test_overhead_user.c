// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead: what each way of attaching a BPF program to a kernel event
 * costs per event. Every worker repeats an event on its own CPU, first with
 * nothing attached (base), then with a program attached in each mode; the
 * program counts its hits per CPU, and a figure is shown only when, on
 * every worker's CPU, the hits cover every event that worker made.
 *
 * This file is the family: its events, its modes, its options and its
 * output. The runner (bench_main.c) does the rest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/sock_diag.h>
#include <jansson.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_attach.h"
#include "bench_funcs.h"
#include "bench_report.h"
#include "bench_usdt.h"
#include "bench_util.h"
#include "bench_workers.h"
#include "test_overhead.h"
#include "uprobe_targets.h"
#include "test_overhead_kprobe_kern.skel.h"
#include "test_overhead_tp_kern.skel.h"
#include "test_overhead_raw_tp_kern.skel.h"
#include "test_overhead_fentry_kern.skel.h"
#include "test_overhead_uprobe_kern.skel.h"
#include "test_overhead_batch_kern.skel.h"
#include "test_overhead_usdt_kern.skel.h"
#if __has_include(<sys/sdt.h>)
#include <sys/sdt.h>
#define HAVE_SDT 1
#endif

/* ---- events: what every worker repeats ---- */

static void rename_run(void *state, __u64 count)
{
	static const char names[2][16] = { "overhead_even", "overhead_odd" };
	__u64 i;

	for (i = 0; i < count; i++)
		prctl(PR_SET_NAME, names[i & 1]);
}

static void getpgid_run(void *state, __u64 count)
{
	__u64 i;

	for (i = 0; i < count; i++)
		getpgid(0);
}

static int urandom_setup(void **state)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

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

/*
 * signal_generate: kill(2) of SIGURG, which the worker ignores, to itself:
 * the kernel checks the permission, generates the signal, fires
 * signal:signal_generate, and drops it. No handler runs, nothing stays
 * pending.
 */
static int kill_setup(void **state)
{
	*state = (void *)(long)getpid();
	return 0;
}

static void kill_run(void *state, __u64 count)
{
	pid_t self = (long)state;
	__u64 i;

	for (i = 0; i < count; i++)
		kill(self, SIGURG);
}

/*
 * fib_table_lookup: a small UDP datagram to 127.0.0.1 per event, routed
 * by the kernel, as upstream. The workers send from a network namespace
 * of the run's own with only lo up, so the datagrams never leave its
 * loopback and no other traffic shares its routing; where the namespace
 * cannot be made (no CAP_SYS_ADMIN), from the host's loopback.
 *
 * The namespace is made once, before the first sample, and kept for the
 * whole run: made and torn down per sample, its set-up and clean-up
 * (cleanup_net, fqdir and rhashtable work, expedited RCU grace periods)
 * ran in kworkers on the workers' CPUs while the next sample was timed.
 *
 * Unlike upstream's, the datagrams go to a socket of the worker's own:
 * sent to a closed port, each also makes the kernel answer with an ICMP
 * port-unreachable whose two further lookups run in softirq context, and
 * under load or emulation not for every datagram (6.1 under TCG: 5 to
 * 11% fewer), so no count per event could be verified. Received, each
 * datagram is one lookup, sendto's own route, on every kernel here.
 *
 * Nobody reads that socket, and it is full before the first sample: its
 * receive buffer is the kernel's least (a few datagrams), filled in the
 * worker's set-up until it drops one. So every timed datagram, in every
 * sample, is dropped by a full receiver (Udp RcvbufErrors), the same work
 * each time. Left at net.core.rmem_default, a datagram's cost depended on
 * the queue's history: a row's first datagrams were queued, about a third
 * dearer than dropped ones (1000 against 760 ns here), and a buffer deeper
 * than a sample queued more in every sample, on memory new to the slab
 * (allocate_slab took half the time), each sample dearer than the last.
 */
/* the least buffer holds two or three datagrams: this many is a fault */
#define FIB_FILL_MAX	64

struct fib_state {
	int tx, rx;
	struct sockaddr_in dst;
};

static int loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		err = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!err && ioctl(fd, SIOCSIFFLAGS, &ifr))
		err = -errno;
	close(fd);
	return err;
}

/*
 * Once per run, in the parent: the namespace every worker forked after
 * it inherits. Nothing else of ours uses the network.
 */
static void fib_prepare(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	if (unshare(CLONE_NEWNET) && errno != EPERM)
		pr_note("fib_table_lookup: no network namespace of its own (%s): the host's loopback",
			strerror(errno));
	/* a new namespace's lo starts down; so may the host's, in a VM */
	loopback_up();
}

/* a socket on 127.0.0.1 to receive them, with the least buffer there is */
static int fib_receiver(struct fib_state *s)
{
	socklen_t len = sizeof(s->dst);
	int least = 0;		/* the kernel makes it SOCK_MIN_RCVBUF */

	s->dst.sin_family = AF_INET;
	s->dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s->rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s->rx < 0)
		return -errno;
	if (setsockopt(s->rx, SOL_SOCKET, SO_RCVBUF, &least, sizeof(least)) ||
	    bind(s->rx, (struct sockaddr *)&s->dst, sizeof(s->dst)) ||
	    getsockname(s->rx, (struct sockaddr *)&s->dst, &len))
		return -errno;
	return 0;
}

/* upstream's five bytes */
static const char fib_payload[] = "test\n";

static int fib_send(const struct fib_state *s)
{
	return sendto(s->tx, fib_payload, sizeof(fib_payload) - 1, 0,
		      (const struct sockaddr *)&s->dst, sizeof(s->dst));
}

/* datagrams until the receiver drops one: full, it drops every next one */
static int fib_fill(const struct fib_state *s)
{
	__u32 mem[SK_MEMINFO_VARS];
	socklen_t len;
	int i;

	for (i = 0; i < FIB_FILL_MAX; i++) {
		if (fib_send(s) < 0)
			return -errno;
		len = sizeof(mem);
		if (getsockopt(s->rx, SOL_SOCKET, SO_MEMINFO, mem, &len))
			return -errno;
		if (len > SK_MEMINFO_DROPS * sizeof(mem[0]) &&
		    mem[SK_MEMINFO_DROPS])
			return 0;
	}
	return -ENOBUFS;
}

static int fib_setup(void **state)
{
	static struct fib_state s;
	int err;

	err = fib_receiver(&s);
	if (err)
		return err;
	s.tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s.tx < 0)
		return -errno;
	err = fib_fill(&s);
	if (err)
		return err;
	*state = &s;
	return 0;
}

static void fib_run(void *state, __u64 count)
{
	const struct fib_state *s = state;
	__u64 i;

	for (i = 0; i < count; i++)
		fib_send(s);
}

/*
 * The uprobe events' targets (uprobe_targets.c) and the USDT probe site:
 * before each row the first instruction is checked. A breakpoint there is
 * another tool's uprobe, which would also fire: skipped. Any other wrong
 * instruction is the build's fault.
 *
 * A breakpoint may still be one of ours for a moment: a detached uprobe's
 * perf event is released, and its breakpoint removed, when the last
 * reference to its file goes, and whoever read our /proc/PID/fd just then
 * (lsof, bpftool, the tests' watcher) may drop that reference after our
 * close() returned: measured, 20 to 40 ms later under load. So a
 * breakpoint is looked at again for up to a second before it is another's.
 */
#define TARGET_BUSY_TRIES	50
#define TARGET_BUSY_WAIT_US	20000

static bool target_state_ok(enum uprobe_target_state state, const char *why,
			    struct outcome *out)
{
	switch (state) {
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

/* @check(@arg), looked at again while a breakpoint is there (see above) */
static bool free_of_breakpoints(enum uprobe_target_state (*check)(const void *arg,
								 char *why,
								 size_t len),
				const void *arg, struct outcome *out)
{
	enum uprobe_target_state st;
	char why[160];
	int tries = 0;

	while ((st = check(arg, why, sizeof(why))) == UPROBE_TARGET_BUSY &&
	       ++tries < TARGET_BUSY_TRIES)
		usleep(TARGET_BUSY_WAIT_US);
	return target_state_ok(st, why, out);
}

/* @arg: the target and its copy */
static enum uprobe_target_state target_check(const void *arg, char *why,
					     size_t len)
{
	const int *t = arg;

	return uprobe_target_check(t[0], t[1], why, len);
}

static bool target_ok(int which, int copy, struct outcome *out)
{
	int arg[2] = { which, copy };

	return free_of_breakpoints(target_check, arg, out);
}

#define CALL_LOOP(name)							\
static void name##_run(void *state, __u64 count)			\
{									\
	__u64 i;							\
									\
	for (i = 0; i < count; i++)					\
		name();							\
}

/*
 * usdt-nop: a USDT probe point of this program. The probe site is a nop
 * with an ELF note naming it; base runs the bare site, usdt the uprobe
 * libbpf puts there. Like the uprobe targets it comes in copies, one
 * site each: test_overhead:nop, nop_1, ... and nop_base.
 */
#ifdef HAVE_SDT
#define USDT_LOOP(sfx)							\
static void usdt_nop##sfx##_run(void *state, __u64 count)		\
{									\
	__u64 i;							\
									\
	for (i = 0; i < count; i++)					\
		STAP_PROBE(test_overhead, nop##sfx);			\
}
#else
#define USDT_LOOP(sfx)							\
static void usdt_nop##sfx##_run(void *state, __u64 count)		\
{									\
}
#endif

#define COPY_LOOPS(k, sfx)						\
	CALL_LOOP(uprobe_nop##sfx)					\
	CALL_LOOP(uprobe_push##sfx)					\
	CALL_LOOP(uprobe_ret##sfx)					\
	USDT_LOOP(sfx)
UPROBE_FOR_EACH_COPY(COPY_LOOPS)

/*
 * The events whose function (or probe site) comes in copies: each row
 * makes its calls to a copy of its own, so that its programs may stay
 * attached through the run and fire for no other row's events, and its
 * base calls the twin, which nothing hooks.
 */
enum copied_event {
	COPIED_NOP = UPROBE_NOP,
	COPIED_PUSH = UPROBE_PUSH,
	COPIED_RET = UPROBE_RET,
	COPIED_USDT = NR_UPROBE_TARGETS,
	NR_COPIED
};

#define COPY_TRIGGERS(k, sfx)						\
	[k] = {								\
		[COPIED_NOP] = { .name = "uprobe-nop",			\
				 .run = uprobe_nop##sfx##_run },	\
		[COPIED_PUSH] = { .name = "uprobe-push",		\
				  .run = uprobe_push##sfx##_run },	\
		[COPIED_RET] = { .name = "uprobe-ret",			\
				 .run = uprobe_ret##sfx##_run },	\
		[COPIED_USDT] = { .name = "usdt-nop",			\
				  .run = usdt_nop##sfx##_run },		\
	},
static const struct trigger copy_triggers[UPROBE_COPIES + 1][NR_COPIED] = {
	UPROBE_FOR_EACH_COPY(COPY_TRIGGERS)
};

/* a copy's symbol, or USDT probe name: "uprobe_nop_3", "nop_3", "nop_base" */
static const char *copy_name(enum copied_event ev, int copy, char *buf,
			     size_t len)
{
	if (ev != COPIED_USDT)
		return uprobe_target_name((int)ev, copy, buf, len);
	if (copy == UPROBE_BASE_COPY)
		snprintf(buf, len, "nop_base");
	else if (copy)
		snprintf(buf, len, "nop_%d", copy);
	else
		snprintf(buf, len, "nop");
	return buf;
}

/* the main program's load bias: a PIE's note holds link-time addresses */
static int main_bias(struct dl_phdr_info *info, size_t size, void *data)
{
	*(ElfW(Addr) *)data = info->dlpi_addr;
	return 1;	/* the first object is the program itself */
}

/*
 * The probe's note must be in the binary, its site still a nop: a
 * breakpoint there is another uprobe, which would fire too (skipped);
 * anything else, a build or an address gone wrong (failed).
 */
#ifdef HAVE_SDT
/* the site is inside its run function: the bytes after it are code too */
static enum uprobe_target_state usdt_site_check(const void *site, char *why,
						size_t len)
{
	return uprobe_nop_check(site, NOP_MAX_BYTES,
				"a USDT probe site of test_overhead", why, len);
}
#endif

#ifdef HAVE_SDT
/* the note of test_overhead:@name in this program, its site a nop */
static bool usdt_site_ok(const char *name, struct outcome *out)
{
	ElfW(Addr) bias = 0;
	__u64 pc;
	int nr, err;

	err = usdt_note_find(SELF_EXE, "test_overhead", name, &pc, &nr);
	if (err == -EACCES || err == -EPERM) {
		/* an executable without read: nothing can place a USDT probe */
		outcome_set(out, ST_SKIPPED,
			    "this program's own file cannot be read (%s: %s): libbpf reads its USDT note",
			    SELF_EXE, strerror(-err));
		return false;
	}
	if (err) {
		outcome_set(out, ST_FAILED,
			    "no USDT note test_overhead:%s in this program's file (%s): %s",
			    name, SELF_EXE, strerror(-err));
		return false;
	}
	dl_iterate_phdr(main_bias, &bias);
	return free_of_breakpoints(usdt_site_check,
				   (const void *)(uintptr_t)(pc + bias), out);
}
#endif

/* the USDT site of @copy; false with @out saying why when it is unfit */
static bool usdt_copy_ok(int copy, struct outcome *out)
{
#ifdef HAVE_SDT
	char name[32];

	return usdt_site_ok(copy_name(COPIED_USDT, copy, name, sizeof(name)),
			    out);
#else
	outcome_set(out, ST_SKIPPED,
		    "built without <sys/sdt.h> (systemtap-sdt-dev): no USDT probe here");
	return false;
#endif
}

/*
 * The row's copy of the function or site, and the twin its base calls:
 * another's uprobe on either would fire too (skipped), a wrong first
 * instruction is the build's (failed)
 */
static bool copies_ok(enum copied_event ev, int copy, struct outcome *out)
{
	if (ev == COPIED_USDT)
		return usdt_copy_ok(copy, out) &&
		       usdt_copy_ok(UPROBE_BASE_COPY, out);
	return target_ok((int)ev, copy, out) &&
	       target_ok((int)ev, UPROBE_BASE_COPY, out);
}

/*
 * kernel-batch: BPF_PROG_TEST_RUN of a driver program that calls
 * bpf_get_numa_node_id() KERNEL_BATCH times per run, the programs under
 * test on that function: the syscall's cost is shared by the batch.
 */
#define KERNEL_BATCH 100

struct batch_driver {
	struct test_overhead_batch_kern *skel;
	int fd;
	__u64 args[1];	/* the driver's ctx: how many helper calls */
};

static int batch_driver_load(struct batch_driver *d)
{
	d->skel = test_overhead_batch_kern__open_and_load();
	if (!d->skel)
		return -errno;
	d->fd = bpf_program__fd(d->skel->progs.kernel_batch_driver);
	d->args[0] = KERNEL_BATCH;
	return 0;
}

/* each worker loads its own driver: workers hold no parent's BPF fds */
static int batch_setup(void **state)
{
	static struct batch_driver driver;

	*state = &driver;
	return batch_driver_load(&driver);
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

/*
 * The kernel must be able to test-run a raw_tp program at all: asked
 * once, for every mode's row.
 */
static bool batch_ok(struct outcome *out)
{
	static struct outcome known;
	static bool asked;
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct batch_driver d;
	int err;

	if (asked) {
		*out = known;
		return known.status == ST_OK;
	}
	asked = true;
	err = batch_driver_load(&d);
	if (err) {
		outcome_set(&known, ST_FAILED, "loading the batch driver: %s",
			    strerror(-err));
		*out = known;
		return false;
	}
	opts.ctx_in = d.args;
	opts.ctx_size_in = sizeof(d.args);
	err = bpf_prog_test_run_opts(d.fd, &opts) ? -errno : 0;
	test_overhead_batch_kern__destroy(d.skel);
	if (err)
		outcome_set(&known, ST_SKIPPED,
			    "kernel cannot BPF_PROG_TEST_RUN a raw_tp program: %s",
			    strerror(-err));
	*out = known;
	return !err;
}

/* ---- the BPF objects, through their skeletons ---- */

/* what the runner needs of any test_overhead skeleton, typed per object */
struct overhead_skel {
	void *(*open)(void);
	void (*destroy)(void *skel);
	struct bpf_object_skeleton *(*skeleton)(void *skel);
	struct overhead_config *(*cfg)(void *skel);
	struct hit_slot *(*slots)(void *skel);
};

#define OVERHEAD_SKEL(sk)						\
static void *sk##_open(void) { return sk##__open(); }			\
static void sk##_destroy(void *s) { sk##__destroy(s); }			\
static struct bpf_object_skeleton *sk##_skeleton(void *s)		\
{									\
	return ((struct sk *)s)->skeleton;				\
}									\
static struct overhead_config *sk##_cfg(void *s)			\
{									\
	return &((struct sk *)s)->rodata->cfg;				\
}									\
static struct hit_slot *sk##_slots(void *s)				\
{									\
	return ((struct sk *)s)->bss->slots;				\
}									\
static const struct overhead_skel sk##_skel = {				\
	sk##_open, sk##_destroy, sk##_skeleton, sk##_cfg, sk##_slots,	\
}

OVERHEAD_SKEL(test_overhead_kprobe_kern);
OVERHEAD_SKEL(test_overhead_tp_kern);
OVERHEAD_SKEL(test_overhead_raw_tp_kern);
OVERHEAD_SKEL(test_overhead_fentry_kern);
OVERHEAD_SKEL(test_overhead_uprobe_kern);
OVERHEAD_SKEL(test_overhead_usdt_kern);

/* a program of a skeleton: where its pointer sits in the skeleton */
#define PROG(sk, name)	offsetof(struct sk, progs.name)

static struct bpf_program *skel_prog(void *skel, size_t off)
{
	return *(struct bpf_program **)((char *)skel + off);
}

/* ---- modes: how the program is attached ---- */

enum mode_id {
	MODE_BASE,
	MODE_KPROBE,
	MODE_KRETPROBE,
	MODE_TRACEPOINT,
	MODE_RAW_TP,
	MODE_TP_BTF,
	MODE_FENTRY,
	MODE_FEXIT,
	MODE_FMOD_RET,
	MODE_UPROBE,
	MODE_URETPROBE,
	MODE_KPROBE_MULTI,
	MODE_KRETPROBE_MULTI,
	MODE_KPROBE_SESSION,
	MODE_LSM,
	MODE_LSM_S,
	MODE_FENTRY_S,
	MODE_UPROBE_S,
	MODE_UPROBE_MULTI,
	MODE_USDT,
	NR_MODES
};

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

static const struct attach_mode modes[NR_MODES] = {
	[MODE_BASE] = {
		.name = "base",
		.header = "BASE",
		.flag = 0x1,
		.help = "nothing attached",
	},
	[MODE_KPROBE] = {
		.name = "kprobe",
		.header = "w/KPROBE",
		.kind = &kind_kprobe,
		.flag = 0x4,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern, kprobe_count),
		.help = "kprobe on the event's kernel function",
	},
	[MODE_KRETPROBE] = {
		.name = "kretprobe",
		.header = "w/KRETPROBE",
		.kind = &kind_kretprobe,
		.flag = 0x100,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern, kretprobe_count),
		.help = "kretprobe on it",
	},
	[MODE_TRACEPOINT] = {
		.name = "tracepoint",
		.header = "w/TRACEPOINT",
		.kind = &kind_tracepoint,
		.flag = 0x10,
		.skel = &test_overhead_tp_kern_skel,
		.count_prog = PROG(test_overhead_tp_kern, tracepoint_count),
		.help = "the event's tracepoint",
	},
	[MODE_RAW_TP] = {
		.name = "raw_tp",
		.header = "w/RAW_TRACEPOINT",
		.kind = &kind_raw_tp,
		.flag = 0x40,
		.skel = &test_overhead_raw_tp_kern_skel,
		.count_prog = PROG(test_overhead_raw_tp_kern, raw_tp_count),
		.help = "raw tracepoint on it",
	},
	[MODE_TP_BTF] = {
		.name = "tp_btf",
		.header = "w/TP_BTF",
		.kind = &kind_tp_btf,
		.flag = 0x400,
		.skel = &test_overhead_raw_tp_kern_skel,
		.count_prog = PROG(test_overhead_raw_tp_kern, tp_btf_count),
		.help = "BTF-typed raw tracepoint on it",
	},
	[MODE_FENTRY] = {
		.name = "fentry",
		.header = "w/FENTRY",
		.kind = &kind_fentry,
		.flag = 0x1000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, fentry_count),
		.help = "fentry on the kernel function",
	},
	[MODE_FEXIT] = {
		.name = "fexit",
		.header = "w/FEXIT",
		.kind = &kind_fexit,
		.flag = 0x4000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, fexit_count),
		.help = "fexit on it",
	},
	[MODE_FMOD_RET] = {
		.name = "fmod_ret",
		.header = "w/FMOD_RET",
		.kind = &kind_fmod_ret,
		.flag = 0x200000,
		.skel = &test_overhead_fentry_kern_skel,
		.help = "task_rename: on prctl's LSM hook, returning 0;\n"
			"getpgid: on the syscall, returning an error so its\n"
			"body is skipped (it measures something else)",
	},
	[MODE_UPROBE] = {
		.name = "uprobe",
		.header = "w/UPROBE",
		.kind = &kind_uprobe,
		.skel = &test_overhead_uprobe_kern_skel,
		.count_prog = PROG(test_overhead_uprobe_kern, uprobe_count),
		.help = "uprobe on the uprobe-* functions",
	},
	[MODE_URETPROBE] = {
		.name = "uretprobe",
		.header = "w/URETPROBE",
		.kind = &kind_uretprobe,
		.skel = &test_overhead_uprobe_kern_skel,
		.count_prog = PROG(test_overhead_uprobe_kern, uretprobe_count),
		.help = "uretprobe on them",
	},
	[MODE_KPROBE_MULTI] = {
		.name = "kprobe_multi",
		.header = "w/KPROBE_MULTI",
		.kind = &kind_kprobe_multi,
		.flag = 0x2000000,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern,
				  kprobe_multi_count),
		.help = "kprobe.multi (fprobe) on kprobe's function",
	},
	[MODE_KRETPROBE_MULTI] = {
		.name = "kretprobe_multi",
		.header = "w/KRETPROBE_MULTI",
		.kind = &kind_kretprobe_multi,
		.flag = 0x8000000,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern,
				  kretprobe_multi_count),
		.help = "kretprobe.multi on it",
	},
	[MODE_KPROBE_SESSION] = {
		.name = "kprobe_session",
		.header = "w/KPROBE_SESSION",
		.kind = &kind_kprobe_session,
		.flag = 0x200000000,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern,
				  kprobe_session_count),
		.help = "kprobe.session on it, entry only (libbpf 1.5)",
	},
	[MODE_LSM] = {
		.name = "lsm",
		.header = "w/LSM",
		.kind = &kind_lsm,
		.flag = 0x20000000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, lsm_count),
		.help = "BPF LSM on prctl's hook task_prctl, returning 0",
	},
	[MODE_LSM_S] = {
		.name = "lsm.s",
		.header = "w/LSM_S",
		.kind = &kind_lsm_s,
		.flag = 0x800000000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, lsm_s_count),
		.help = "the same, sleepable: task_prctl is among the\n"
			"hooks the kernel lets sleepable programs take",
	},
	[MODE_FENTRY_S] = {
		.name = "fentry.s",
		.header = "w/FENTRY_S",
		.kind = &kind_fentry_s,
		.flag = 0x80000000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, fentry_s_count),
		.help = "sleepable fentry on the kernel function, where\n"
			"the verifier allows it (error-injectable ones)",
	},
	[MODE_UPROBE_S] = {
		.name = "uprobe.s",
		.header = "w/UPROBE_S",
		.kind = &kind_uprobe_s,
		.skel = &test_overhead_uprobe_kern_skel,
		.count_prog = PROG(test_overhead_uprobe_kern, uprobe_s_count),
		.help = "sleepable uprobe on the uprobe-* functions",
	},
	[MODE_UPROBE_MULTI] = {
		.name = "uprobe_multi",
		.header = "w/UPROBE_MULTI",
		.kind = &kind_uprobe_multi,
		.skel = &test_overhead_uprobe_kern_skel,
		.count_prog = PROG(test_overhead_uprobe_kern,
				  uprobe_multi_count),
		.help = "uprobe.multi on them (libbpf 1.3)",
	},
	[MODE_USDT] = {
		.name = "usdt",
		.header = "w/USDT",
		.kind = &kind_usdt,
		.skel = &test_overhead_usdt_kern_skel,
		.count_prog = PROG(test_overhead_usdt_kern, usdt_count),
		.help = "USDT probe test_overhead:nop (usdt-nop)",
	},
};

/* ---- the events' table ---- */

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
	 * events per worker and sample without -n: about 0.05 s of the
	 * dearest mode that runs on the project's 2-CPU VM (tracepoint;
	 * uretprobe, and uprobe-ret, which single-steps: 14 us). Longer
	 * samples are no more precise over a row's samples, and cost more
	 * to run again when an interruption spoils one.
	 */
	__u64 count;
	/*
	 * base is a function call, not a syscall: no percentages, and base
	 * makes base_count calls a sample, about 0.05 s of them
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

static const struct overhead_event events[] = {
	{
		.trigger = { .name = "task_rename", .run = rename_run },
		.target = {
			.kfunc = { "__set_task_comm" },
			.tp_category = "task",
			.tp_name = "task_rename",
			.lsm_hook = "task_prctl",
		},
		.flag = PAIR_LOW,
		.count = 70000,
		.prog = {
			[MODE_KPROBE] = PROG(test_overhead_kprobe_kern, kprobe_rename),
			[MODE_KRETPROBE] = PROG(test_overhead_kprobe_kern, kretprobe_rename),
			[MODE_TRACEPOINT] = PROG(test_overhead_tp_kern, tracepoint_rename),
			[MODE_RAW_TP] = PROG(test_overhead_raw_tp_kern, raw_tp_rename),
			[MODE_TP_BTF] = PROG(test_overhead_raw_tp_kern, tp_btf_rename),
			[MODE_FENTRY] = PROG(test_overhead_fentry_kern, fentry_rename),
			[MODE_FEXIT] = PROG(test_overhead_fentry_kern, fexit_rename),
			[MODE_FMOD_RET] = PROG(test_overhead_fentry_kern, fmod_ret_rename),
			[MODE_KPROBE_MULTI] = PROG(test_overhead_kprobe_kern, kprobe_multi_rename),
			[MODE_KRETPROBE_MULTI] = PROG(test_overhead_kprobe_kern, kretprobe_multi_rename),
			[MODE_LSM] = PROG(test_overhead_fentry_kern, lsm_rename),
			[MODE_LSM_S] = PROG(test_overhead_fentry_kern, lsm_s_rename),
			[MODE_FENTRY_S] = PROG(test_overhead_fentry_kern, fentry_s_rename),
		},
		.help = "prctl(PR_SET_NAME)",
	},
	{
		.trigger = {
			.name = "fib_table_lookup",
			.setup = fib_setup,
			.run = fib_run,
		},
		.target = {
			.kfunc = { "fib_table_lookup" },
			.tp_category = "fib",
			.tp_name = "fib_table_lookup",
		},
		.flag = PAIR_HIGH,
		.count = 12000,
		.calibrated = true,
		.prepare = fib_prepare,
		.help = "a UDP datagram to a socket on 127.0.0.1, in a\n"
			"network namespace of the run's own",
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
		.syscall_nr = __NR_getpgid,
		.count = 110000,
		.prog = {
			[MODE_RAW_TP] = PROG(test_overhead_raw_tp_kern, raw_tp_sys_enter),
			[MODE_TP_BTF] = PROG(test_overhead_raw_tp_kern, tp_btf_sys_enter),
			[MODE_FMOD_RET] = PROG(test_overhead_fentry_kern, fmod_ret_error),
		},
		.help = "getpgid(0): cheap, and rarely called by others;\n"
			"raw_tp and tp_btf hook sys_enter, which fires for\n"
			"every syscall, and keep getpgid's",
	},
	{
		.trigger = { .name = "uprobe-nop", .run = uprobe_nop_run },
		.copied = true,
		.copy_of = COPIED_NOP,
		.target = { .ufunc = "uprobe_nop" },
		.flag = 0x20000,
		.count = 32000,
		.base_is_call = true,
		.base_count = 20000000,
		.help = "calls of a function of this program that starts\n"
			"with a nop (uprobe modes; base is the bare call)",
	},
	{
		.trigger = { .name = "uprobe-push", .run = uprobe_push_run },
		.copied = true,
		.copy_of = COPIED_PUSH,
		.target = { .ufunc = "uprobe_push" },
		.flag = 0x40000,
		.count = 32000,
		.base_is_call = true,
		.base_count = 20000000,
		.help = "the same, starting with push %rbp",
	},
	{
		.trigger = { .name = "uprobe-ret", .run = uprobe_ret_run },
		.copied = true,
		.copy_of = COPIED_RET,
		.target = { .ufunc = "uprobe_ret" },
		.flag = 0x80000,
		.count = 3500,
		.base_is_call = true,
		.base_count = 20000000,
		.help = "the same, starting with ret",
	},
	{
		.trigger = { .name = "usdt-nop", .run = usdt_nop_run },
		.copied = true,
		.copy_of = COPIED_USDT,
		.target = {
			.usdt_provider = "test_overhead",
			.usdt_name = "nop",
		},
		.flag = 0x1000000,
		.count = 80000,
		.base_is_call = true,
		.base_count = 20000000,
		.help = "a USDT probe point of this program (<sys/sdt.h>):\n"
			"a nop and its ELF note (usdt mode; base is the\n"
			"bare probe site)",
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
		.count = 1000000,
		.help = "BPF_PROG_TEST_RUN of a program calling\n"
			"bpf_get_numa_node_id() 100 times: no syscall per\n"
			"event (kprobe, kretprobe, fentry, fexit)",
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
		.flag = 0x800000,
		.count = 80000,
		.tp_may_lack = "random:urandom_read left the kernel in 5.18",
		.help = "read(2) of 4 bytes of /dev/urandom: upstream's\n"
			"second event before 5.18 removed its tracepoint",
	},
	{
		.trigger = {
			.name = "signal_generate",
			.setup = kill_setup,
			.run = kill_run,
		},
		.target = {
			/* the architecture's syscall wrapper */
			.kfunc = { "__x64_sys_kill", "__arm64_sys_kill",
				   "sys_kill" },
			.tp_category = "signal",
			.tp_name = "signal_generate",
		},
		.flag = 0x2000000000,
		.count = 70000,
		.help = "kill(SIGURG) of the worker itself, which ignores\n"
			"it: the signal is generated and dropped",
	},
};
#define NR_EVENTS ((int)ARRAY_SIZE(events))

static bool mode_applies(const struct attach_mode *mode,
			 const struct overhead_event *ev)
{
	if (!mode->kind)
		return true;
	/* user-space modes and events belong to each other alone */
	if (mode->kind->user !=
	    (ev->target.ufunc || ev->target.usdt_provider))
		return false;
	return mode->kind->applies(&ev->target);
}

/* the test_flags bit of @mode and @ev, 0 when none */
static __u64 flag_of(const struct attach_mode *mode,
		     const struct overhead_event *ev)
{
	if (!mode_applies(mode, ev))
		return 0;
	if (ev->flag > PAIR_HIGH)
		return ev->flag;
	return mode->flag << ev->flag;
}

/* ---- options ---- */

enum {
	OPT_BODY = 0x200,
	OPT_PROGS,
	OPT_ATTACH_TIME,
};

/* --progs: at most this many programs on one hook, and counts in a list */
#define PROGS_MAX	256
#define PROGS_COUNTS	16

/* --attach-time: how many kernel functions one program is attached to */
static const int attach_time_funcs[] = { 100, 1000 };
#define NR_ATTACH_TIME	2

static const char *const body_names[] = {
	[BODY_COUNT] = "count",
	[BODY_READS] = "reads",
	[BODY_UPSTREAM] = "upstream",
};

static const char *const body_help[] = {
	[BODY_COUNT] = "the hit count alone: the attach cost",
	[BODY_READS] = "upstream's reads of the renamed task in every mode",
	[BODY_UPSTREAM] = "upstream's programs: the reads in kprobe only",
};

static struct {
	bool modes_given, events_given;
	bool mode_on[NR_MODES];
	bool event_on[NR_EVENTS];
	__u64 flags;		/* 0: every row */
	enum overhead_body body;
	__u64 progs[PROGS_COUNTS];	/* --progs, ascending */
	int nr_progs;			/* 0: one program, no progs param */
	bool attach_time;
} opt;

static const struct bench_option options[] = {
	{ "modes", 'm', "LIST", "modes to run, comma-separated (default: all)",
	  USE_SELECT },
	{ "events", 'e', "LIST", "events to run, comma-separated (default: all)",
	  USE_SELECT },
	{ "body", OPT_BODY, "BODY",
	  "what each program does besides counting its hit:\n"
	  "count (default), reads or upstream (see below)", USE_RUN },
	{ "progs", OPT_PROGS, "LIST",
	  "N instances of each mode's program on the same\n"
	  "hook, a row for each N of the list (e.g.\n"
	  "1,2,4,8,16; at most 256), each program verified,\n"
	  "and the cost per added program", USE_SELECT },
	{ "attach-time", OPT_ATTACH_TIME, NULL,
	  "instead of event costs: the time to attach one\n"
	  "program to 100 and to 1000 kernel functions and\n"
	  "detach it (kprobe, kretprobe: a link each;\n"
	  "kprobe_multi, kretprobe_multi: one link)", USE_SELECT },
	{}
};

static int parse_names(const char *list, const char *what, int nr,
		       const char *(*name)(int i), bool *mask)
{
	const char *names[NR_MODES > NR_EVENTS ? NR_MODES : NR_EVENTS];
	int i;

	for (i = 0; i < nr; i++)
		names[i] = name(i);
	return parse_name_list(list, what, names, nr, mask);
}

static const char *mode_name(int i)
{
	return modes[i].name;
}

static const char *event_name(int i)
{
	return events[i].trigger.name;
}

static int parse_option(int key, const char *arg)
{
	int i;

	switch (key) {
	case 'm':
		opt.modes_given = true;
		return parse_names(arg, "mode", NR_MODES, mode_name,
				   opt.mode_on);
	case 'e':
		opt.events_given = true;
		return parse_names(arg, "event", NR_EVENTS, event_name,
				   opt.event_on);
	case OPT_BODY:
		i = name_index(arg, body_names, 3);
		if (i < 0) {
			pr_err("unknown body '%s': count, reads or upstream",
			       printable(arg));
			return -1;
		}
		opt.body = i;
		return 0;
	case OPT_PROGS:
		if (parse_u64_list(arg, 1, PROGS_MAX, opt.progs, PROGS_COUNTS,
				   &opt.nr_progs)) {
			pr_err("bad --progs '%s': up to %d different counts from 1 to %d, such as 1,2,4,8,16",
			       printable(arg), PROGS_COUNTS, PROGS_MAX);
			return -1;
		}
		return 0;
	case OPT_ATTACH_TIME:
		opt.attach_time = true;
		return 0;
	}
	return -1;
}

static __u64 all_flags(void)
{
	__u64 all = 0;
	int m, e;

	for (m = 0; m < NR_MODES; m++)
		for (e = 0; e < NR_EVENTS; e++)
			all |= flag_of(&modes[m], &events[e]);
	return all;
}

/* whether test_flags, -m and -e leave a row: setup() has not run yet */
static bool any_row_selected(void)
{
	int m, e;

	for (m = 0; m < NR_MODES; m++)
		for (e = 0; e < NR_EVENTS; e++)
			if ((!opt.modes_given || opt.mode_on[m]) &&
			    (!opt.events_given || opt.event_on[e]) &&
			    mode_applies(&modes[m], &events[e]) &&
			    (!opt.flags ||
			     (opt.flags & flag_of(&modes[m], &events[e]))))
				return true;
	return false;
}

static int parse_args(int argc, char **argv)
{
	__u64 unknown;

	if (argc > 2) {
		pr_err("too many arguments (see --help)");
		return -1;
	}
	if (opt.attach_time && opt.nr_progs) {
		pr_err("--attach-time times one program: --progs goes without it");
		return -1;
	}
	if (argc > 0 && parse_u64(argv[0], 1, ~0ull, &opt.flags)) {
		pr_err("bad test_flags '%s': a non-zero number such as 0x15",
		       printable(argv[0]));
		return -1;
	}
	unknown = opt.flags & ~all_flags();
	if (unknown) {
		pr_err("test_flags 0x%llx: bits 0x%llx select nothing (see --help)",
		       opt.flags, unknown);
		return -1;
	}
	/* a usage error, said before the lock, privileges or any probe */
	if (!any_row_selected()) {
		pr_err("nothing selected: test_flags, -m and -e leave no row");
		return -1;
	}
	return argc > 1 ? bench_cpus_arg(argv[1], "num_cpu") : 0;
}

static void usage_tables(FILE *f)
{
	int m, e;

	fprintf(f, "\nEvents:\n");
	for (e = 0; e < NR_EVENTS; e++)
		print_help_item(f, events[e].trigger.name, events[e].help);
	fprintf(f, "\nModes:\n");
	for (m = 0; m < NR_MODES; m++)
		print_help_item(f, modes[m].name, modes[m].help);
	fprintf(f, "\nBodies (--body):\n");
	for (m = 0; m < 3; m++)
		print_help_item(f, body_names[m], body_help[m]);
	fprintf(f,
"\ntest_flags (upstream-compatible; default: all): for each mode, the low\n"
"bit selects task_rename, the high bit fib_table_lookup:\n");
	for (m = 0; m < NR_MODES; m++) {
		__u64 low = flag_of(&modes[m], &events[0]);
		__u64 high = flag_of(&modes[m], &events[1]);

		if (!low && !high)
			continue;
		fprintf(f, "  %#-13llx", low);
		if (high)
			fprintf(f, "%#-13llx", high);
		else
			fprintf(f, "%-13s", "-");
		fprintf(f, "%s\n", modes[m].name);
	}
	fprintf(f, "and one bit for each other event, in every mode that applies:\n");
	for (e = 0; e < NR_EVENTS; e++)
		if (events[e].flag > PAIR_HIGH)
			fprintf(f, "  %#-26llx%s\n", events[e].flag,
				events[e].trigger.name);
	fprintf(f, "num_cpu: as -c N. Flags, -m and -e combine: a row runs when all\n"
		"three select it.\n");
	fprintf(f,
"\nOutput: upstream's lines (a header per mode, \"<event>:<cpu>: <N> events per\n"
"sec\" per worker, its median over the samples) for upstream's rows, the ones\n"
"its test_flags bits 0x1-0x8000 select; for every row when test_flags is given\n"
"or with -v. Then the summary: a row per mode and event that ran, and the\n"
"skipped rows, one line per reason (--json and --list give each row its own).\n"
"  events/s   all workers together, mean ± sd over the row's samples\n"
"  ns/event   the mean over workers of each one's time per event\n"
"  overhead   ns per event above base's, with the program's body named above\n"
"             the table (--body); ± is sqrt(sd_row² + sd_base²)\n"
"  x base     ns per event against base's\n"
"  hits/expected  the first program's hits inside the workers' loops, for\n"
"             the workers, against what their events make (each worker's\n"
"             CPU is checked on its own)\n"
"  [progs=N]  N instances of the program on one hook, each verified; the cost\n"
"             per added program is the slope of ns/event against N, ± what the\n"
"             rows' spreads (or, from three rows, their scatter) allow\n"
"  body/attach  --prog-stats: ns inside the program per run, by the kernel's\n"
"             run-time stats in a pass of their own, less their clock reads\n"
"             (measured on an empty program); attach: the rest of the overhead\n"
"fib_table_lookup's hits are checked against the lookups one datagram makes,\n"
"counted on the running kernel by raw_tp over 1000 datagrams. -v adds the\n"
"attach and detach times (also in --json: attach_ns, detach_ns).\n");
}

/* ---- rows ---- */

/* one loaded object: its program, and the link while attached */
struct prog_instance {
	void *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	/* each CPU's hits, and foreign runs, already taken by collect() */
	__u64 taken[OVERHEAD_MAX_CPUS];
	__u64 taken_foreign[OVERHEAD_MAX_CPUS];
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
};

/* the event every --attach-time row runs: its function is hooked first */
#define EV_RENAME	0

/*
 * Programs the kernel took on one hook of a mode and event before it
 * said E2BIG (0: no cap seen): rows asking for more are skipped.
 */
static int progs_cap[NR_MODES][NR_EVENTS];
static struct outcome progs_cap_why[NR_MODES][NR_EVENTS];

/* lookups one fib datagram makes, counted once per run (0: not yet) */
static unsigned int fib_lookups;
static struct outcome fib_calibration;

static bool row_selected(int m, int e)
{
	if (!opt.mode_on[m] || !opt.event_on[e])
		return false;
	return !opt.flags || (opt.flags & flag_of(&modes[m], &events[e]));
}

/* the test fault base-hooked, for give_copy(); never in what make builds */
static bool base_hooked;

/*
 * A copied event's row calls a copy of its own, and stays attached to it
 * through the run: no other row's events reach its programs. Base calls
 * the twin, so the rows' programs need not be detached for it either.
 */
static void give_copy(struct bench_row *row, struct overhead_row *r,
		      bool base)
{
	static int used[NR_COPIED];
	enum copied_event ev = r->ev->copy_of;

	r->copy = base ? UPROBE_BASE_COPY : used[ev]++;
	/* the test fault base-hooked: base calls the first row's copy */
	if (base && base_hooked)
		r->copy = 0;
	if (!base && r->copy >= UPROBE_COPIES) {
		outcome_set(&row->out, ST_SKIPPED,
			    "more %s rows than the %d copies of its function",
			    r->ev->trigger.name, UPROBE_COPIES);
		return;
	}
	row->trigger = &copy_triggers[r->copy][ev];
	copy_name(ev, r->copy, r->copy_name, sizeof(r->copy_name));
	if (ev == COPIED_USDT)
		r->target.usdt_name = r->copy_name;
	else
		r->target.ufunc = r->copy_name;
	row->base_unhooked = true;
	row->links_own = true;
}

static struct bench_row *add_row(struct bench_rows *rows,
				 const struct cpu_list *cpus, int m, int e)
{
	struct overhead_row *priv = calloc(1, sizeof(*priv));
	struct bench_row *row;

	row = priv ? bench_add_row(rows, modes[m].name,
				   events[e].trigger.name) : NULL;
	if (!row) {
		free(priv);
		return NULL;
	}
	row->cpus = cpus;
	row->trigger = &events[e].trigger;
	row->count = m == MODE_BASE && events[e].base_count ?
		     events[e].base_count : events[e].count;
	row->runs_prog = modes[m].kind;
	/* a sample costs its events, not an attach and a detach */
	row->links_stay = true;
	priv->mode = &modes[m];
	priv->ev = &events[e];
	priv->target = events[e].target;
	row->priv = priv;
	if (events[e].copied)
		give_copy(row, priv, m == MODE_BASE);
	return row;
}

/*
 * --attach-time: rows of the modes that attach to many functions, for
 * task_rename, whose function is hooked first so that the hits still
 * prove the attachment fired.
 */
static int add_attach_time_rows(struct bench_rows *rows,
				const struct cpu_list *cpus, int m, int e)
{
	const struct attach_kind *kind = modes[m].kind;
	struct bench_row *row;
	int k;

	if (!kind || !kind->attach_syms || e != EV_RENAME)
		return 0;
	for (k = 0; k < NR_ATTACH_TIME; k++) {
		row = add_row(rows, cpus, m, e);
		if (!row)
			return -ENOMEM;
		row_add_param(row, "functions", attach_time_funcs[k]);
		/* the figure is the attaching: once per sample */
		row->links_stay = false;
		/* every function hooked counts into the same slots */
		row->fires_elsewhere = true;
		((struct overhead_row *)row->priv)->nr_funcs =
			attach_time_funcs[k];
		/* the events only prove the attachment: a few suffice */
		row->count = 10000;
	}
	return 0;
}

/* one row, or with --progs one per count, each program counted */
static int add_rows(struct bench_rows *rows, const struct cpu_list *cpus,
		    int m, int e)
{
	int k, nr = opt.nr_progs && modes[m].kind ? opt.nr_progs : 1;
	struct bench_row *row;

	if (opt.attach_time)
		return add_attach_time_rows(rows, cpus, m, e);
	for (k = 0; k < nr; k++) {
		row = add_row(rows, cpus, m, e);
		if (!row)
			return -ENOMEM;
		if (!opt.nr_progs || !modes[m].kind)
			continue;
		row->nr_counters = opt.progs[k];
		row_add_param(row, "progs", opt.progs[k]);
	}
	return 0;
}

static int setup(const struct run_settings *rs, struct bench_rows *rows)
{
	struct bench_row *base[NR_EVENTS] = {};
	struct overhead_row *priv;
	int m, e, i;

	base_hooked = run_fault(rs)->kind == BENCH_FAULT_BASE_HOOKED;
	for (m = 0; m < NR_MODES; m++)
		opt.mode_on[m] |= !opt.modes_given;
	for (e = 0; e < NR_EVENTS; e++)
		opt.event_on[e] |= !opt.events_given;
	for (m = 0; m < NR_MODES; m++) {
		for (e = 0; e < NR_EVENTS; e++) {
			if (!mode_applies(&modes[m], &events[e]) ||
			    !row_selected(m, e))
				continue;
			if (add_rows(rows, &rs->cpus, m, e))
				return -ENOMEM;
		}
	}
	if (!rows->nr) {
		pr_err(opt.attach_time ?
		       "nothing selected: --attach-time runs kprobe, kretprobe, kprobe_multi and kretprobe_multi on task_rename" :
		       "nothing selected: test_flags, -m and -e leave no row");
		return -EINVAL;
	}
	/* bases are known once every row is in place */
	for (i = 0; i < rows->nr; i++) {
		priv = rows->row[i].priv;
		e = priv->ev - events;
		if (priv->mode == &modes[MODE_BASE])
			base[e] = &rows->row[i];
		rows->row[i].base = base[e];
		if (!rs->list && priv->ev->prepare)
			priv->ev->prepare();
	}
	return 0;
}

/* ---- one row's programs ---- */

static void detach_funcs(struct overhead_row *r)
{
	while (r->nr_links > 0)
		bpf_link__destroy(r->links[--r->nr_links]);
}

static void destroy_instances(struct bench_row *row)
{
	struct overhead_row *r = row->priv;
	int i;

	detach_funcs(r);
	for (i = 0; r->inst && i < row->nr_counters; i++) {
		bpf_link__destroy(r->inst[i].link);
		if (r->inst[i].skel)
			r->mode->skel->destroy(r->inst[i].skel);
	}
	free(r->inst);
	r->inst = NULL;
}

/* program @i of the row's @nr: a test fault may pick one of them */
/* the BPF programs' fault numbers are the runner's: test_overhead.h */
_Static_assert((int)FAULT_MISS_ODD == (int)BENCH_FAULT_MISS_ODD &&
	       (int)FAULT_MISS_CPU == (int)BENCH_FAULT_MISS_CPU &&
	       (int)FAULT_UNCOUNTED == (int)BENCH_FAULT_UNCOUNTED &&
	       (int)FAULT_EXTRA_ODD == (int)BENCH_FAULT_EXTRA_ODD &&
	       (int)FAULT_MISS_RARE == (int)BENCH_FAULT_MISS_RARE,
	       "test_overhead.h's faults are numbered as bench.h's");

static void configure(const struct run_settings *rs,
		      struct overhead_config *cfg,
		      const struct overhead_event *ev, int i, int nr)
{
	bool initial = true;

	cfg->body = opt.body;
	cfg->syscall_nr = ev->syscall_nr;
	cfg->fault = prog_fault(rs, i, nr);
	cfg->fault_cpu = run_fault(rs)->cpu;
	/* in a container: the workers' pids are the namespace's */
	if (!pid_namespace(&cfg->pidns_dev, &cfg->pidns_ino, &initial))
		cfg->use_pidns = !initial;
}

/*
 * Each CPU's slot counts the runs for its worker apart from any other
 * task's: before the programs are attached, every slot is zeroed and
 * given its worker, or none.
 */
static void slots_reset(struct hit_slot *slots, const int *cpu,
			const pid_t *pid, int nr)
{
	int i;

	memset(slots, 0, sizeof(struct hit_slot) * OVERHEAD_MAX_CPUS);
	for (i = 0; i < OVERHEAD_MAX_CPUS; i++)
		slots[i].tgid = -1;
	for (i = 0; i < nr; i++)
		slots[cpu[i] & (OVERHEAD_MAX_CPUS - 1)].tgid = pid[i];
}

static int open_instance(const struct run_settings *rs, struct bench_row *row,
			 int i, struct outcome *out)
{
	struct overhead_row *r = row->priv;
	struct prog_instance *pi = &r->inst[i];
	const struct overhead_skel *sk = r->mode->skel;
	size_t off = r->ev->prog[r->mode - modes] ?: r->mode->count_prog;

	pi->skel = sk->open();
	if (!pi->skel) {
		outcome_set(out, ST_FAILED, "opening the %s object: %s",
			    r->mode->name, strerror(errno));
		return -errno;
	}
	configure(rs, sk->cfg(pi->skel), r->ev, i, row->nr_counters);
	pi->prog = skel_prog(pi->skel, off);
	return attach_load(r->mode->kind, sk->skeleton(pi->skel), pi->prog,
			   &r->target, &r->hooked, out);
}

/* how many fib_table_lookup calls one datagram makes on this kernel */
static int count_fib_lookups(const struct run_settings *rs,
			     const struct overhead_event *ev,
			     const struct cpu_list *cpus, struct outcome *out);

/*
 * --attach-time: the event's own function first, so its hits prove the
 * attachment, then the first traceable functions the kernel lists.
 */
static int open_funcs(struct overhead_row *r, struct outcome *out)
{
	/* kprobes hold two file descriptors each: a perf event and a link */
	rlim_t need = 2 * (rlim_t)r->nr_funcs + 64;
	const char **more;
	struct rlimit rl;
	int i, k, err;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
		setrlimit(RLIMIT_NOFILE, &rl);
		if (rl.rlim_cur < need) {
			outcome_set(out, ST_SKIPPED,
				    "%d functions need %llu file descriptors; RLIMIT_NOFILE allows %llu",
				    r->nr_funcs, (unsigned long long)need,
				    (unsigned long long)rl.rlim_max);
			return -EMFILE;
		}
	}
	err = traceable_functions(r->nr_funcs, &more, out);
	if (err)
		return err;
	r->funcs = calloc(r->nr_funcs, sizeof(*r->funcs));
	r->links = calloc(r->nr_funcs, sizeof(*r->links));
	if (!r->funcs || !r->links)
		return -ENOMEM;
	r->funcs[0] = r->hooked;
	for (i = 0, k = 1; k < r->nr_funcs; i++)
		if (strcmp(more[i], r->hooked))
			r->funcs[k++] = more[i];
	free(more);	/* the names stay: r->funcs holds them */
	return 0;
}

static int open_row(const struct run_settings *rs, struct bench_row *row,
		    struct outcome *out)
{
	struct overhead_row *r = row->priv;
	int cap = progs_cap[r->mode - modes][r->ev - events];
	int i, err;

	if (nr_cpus_possible() > OVERHEAD_MAX_CPUS) {
		outcome_set(out, ST_FAILED,
			    "%d possible CPUs: the hit slots cover %d",
			    nr_cpus_possible(), OVERHEAD_MAX_CPUS);
		return -E2BIG;
	}
	if (cap && row->nr_counters > cap) {
		*out = progs_cap_why[r->mode - modes][r->ev - events];
		return -E2BIG;
	}
	/* a refusal an earlier row found holds here: nothing to load */
	if (attach_refused(r->mode->kind, out))
		return -EOPNOTSUPP;
	if (r->ev->usable && !r->ev->usable(out))
		return -ENOENT;
	if (r->ev->copied && !copies_ok(r->ev->copy_of, r->copy, out))
		return -ENOENT;
	if (r->ev->calibrated) {
		err = count_fib_lookups(rs, r->ev, row->cpus, out);
		if (err)
			return err;
		row->hits_per_event = fib_lookups;
	}
	r->inst = calloc(row->nr_counters, sizeof(*r->inst));
	if (!r->inst)
		return -ENOMEM;
	for (i = 0; i < row->nr_counters; i++) {
		err = open_instance(rs, row, i, out);
		if (!err && !i && r->nr_funcs)
			err = open_funcs(r, out);
		if (err) {
			destroy_instances(row);
			return err;
		}
	}
	/* ours attach only in the row's sessions: any link now is another's */
	other_links_on(r->hooked, row->others, sizeof(row->others));
	return 0;
}

/* E2BIG past the first program: the kernel's cap on one hook */
static void progs_capped(struct bench_row *row, int attached,
			 struct outcome *out)
{
	struct overhead_row *r = row->priv;

	progs_cap[r->mode - modes][r->ev - events] = attached;
	outcome_set(out, ST_SKIPPED,
		    "the kernel takes at most %d %s programs on %s (E2BIG for program %d)",
		    attached, r->mode->name, r->hooked, attached + 1);
	progs_cap_why[r->mode - modes][r->ev - events] = *out;
}

/*
 * A new session's workers for a row still attached: each CPU's slot now
 * counts the runs for its new worker as its own. Only the owner changes:
 * the counts go on, collect() takes what was added since.
 */
static void new_workers(struct bench_row *row,
			const struct bench_workers *workers)
{
	struct overhead_row *r = row->priv;
	struct hit_slot *slots;
	int i, w;

	for (i = 0; i < row->nr_counters; i++) {
		slots = r->mode->skel->slots(r->inst[i].skel);
		for (w = 0; w < workers->nr; w++)
			slots[workers->cpu[w] & (OVERHEAD_MAX_CPUS - 1)].tgid =
				workers->pid[w];
	}
}

static int attach_row(struct bench_row *row,
		      const struct bench_workers *workers, struct outcome *out)
{
	struct overhead_row *r = row->priv;
	const struct overhead_skel *sk = r->mode->skel;
	int i, err;

	for (i = 0; i < row->nr_counters; i++) {
		struct prog_instance *pi = &r->inst[i];

		/* nothing fires yet: no program updates them meanwhile */
		slots_reset(sk->slots(pi->skel), workers->cpu, workers->pid,
			    workers->nr);
		memset(pi->taken, 0, sizeof(pi->taken));
		memset(pi->taken_foreign, 0, sizeof(pi->taken_foreign));
		if (r->nr_funcs) {
			err = r->mode->kind->attach_syms(r->mode->kind,
							 pi->prog, r->funcs,
							 r->nr_funcs, r->links,
							 out);
			r->nr_links = err > 0 ? err : 0;
			return err < 0 ? err : 0;
		}
		pi->link = attach_link(r->mode->kind, pi->prog, &r->target,
				       r->hooked, out);
		if (pi->link)
			continue;
		err = -errno ?: -EINVAL;
		if (err == -E2BIG && i > 0)
			progs_capped(row, i, out);
		return err;
	}
	return 0;
}

static void detach_row(struct bench_row *row)
{
	struct overhead_row *r = row->priv;
	int i;

	/* the links first: the programs stop firing before they are read */
	detach_funcs(r);
	for (i = 0; r->inst && i < row->nr_counters; i++) {
		bpf_link__destroy(r->inst[i].link);
		r->inst[i].link = NULL;
	}
}

static int collect(struct bench_row *row, struct sample *s)
{
	struct overhead_row *r = row->priv;
	const struct overhead_skel *sk = r->mode->skel;
	int i, cpu;

	/*
	 * The links may stay attached: a program may count on any CPU as
	 * this reads, so take what was added since the last read rather
	 * than zero the slots under it.
	 */
	for (i = 0; i < row->nr_counters; i++) {
		struct prog_instance *pi = &r->inst[i];
		const struct hit_slot *slots = sk->slots(pi->skel);
		__u64 *hits = sample_hits(s, i);

		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			__u64 now = slots[cpu].hits;
			__u64 foreign = slots[cpu].foreign;

			hits[cpu] = now - pi->taken[cpu];
			pi->taken[cpu] = now;
			/* every run the kernel made counts, other tasks' too */
			row->runs_counted += hits[cpu] + foreign -
					     pi->taken_foreign[cpu];
			pi->taken_foreign[cpu] = foreign;
		}
	}
	return 0;
}

static const volatile __u64 *hit_slot(const struct bench_row *row,
				      int counter, int cpu)
{
	const struct overhead_row *r = row->priv;

	return &r->mode->skel->slots(r->inst[counter].skel)[cpu].hits;
}

static const volatile __u64 *foreign_slot(const struct bench_row *row,
					  int counter, int cpu)
{
	const struct overhead_row *r = row->priv;

	return &r->mode->skel->slots(r->inst[counter].skel)[cpu].foreign;
}

static int prog_fds(const struct bench_row *row, int *fds, int max)
{
	const struct overhead_row *r = row->priv;
	int i;

	for (i = 0; i < row->nr_counters && i < max; i++)
		fds[i] = bpf_program__fd(r->inst[i].prog);
	return i;
}

static void close_row(struct bench_row *row)
{
	struct overhead_row *r = row->priv;

	destroy_instances(row);
	free(r->links);
	free(r->funcs);
	r->links = NULL;
	r->funcs = NULL;
}

/*
 * A datagram's route lookups depend on the kernel (local and main
 * tables merged or not, the ICMP reply): count them with a raw_tp program
 * over a thousand datagrams on the first CPU, inside the worker's loop as
 * every sample is verified, and verify against that. Measured: one on
 * 6.1, 6.12 and 6.18 (sendto's route). Foreign lookups in the loop can
 * only add: keep the least of three counts, and it must be a whole
 * number of lookups per datagram, or the rows could not be verified.
 */
#define FIB_CALIBRATION	1000
/* lookups in the loop beyond a whole number per datagram: interrupts' */
#define FIB_SLACK	5

static int fib_calibrate_once(const struct overhead_event *ev,
			      const struct cpu_list *cpus,
			      struct test_overhead_raw_tp_kern *skel,
			      const char *name, __u64 *hits,
			      struct outcome *out)
{
	struct cpu_list one = { 1, cpus->cpu };
	int fd = bpf_program__fd(skel->progs.raw_tp_count);
	const volatile __u64 *slot = &skel->bss->slots[one.cpu[0]].hits;
	struct hit_window win = { 1, &slot };
	const struct trigger *trig = &ev->trigger;
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct worker_result res;
	struct worker_pool pool;
	struct bpf_link *link;
	__u64 skipped = 0;
	int err;

	err = pool_start(&pool, &one, &trig, 1, 0, &win, out);
	if (err)
		return err;
	slots_reset(skel->bss->slots, pool.cpu, pool.pid, pool.nr);
	link = attach_link(&kind_raw_tp, skel->progs.raw_tp_count,
			   &ev->target, name, out);
	if (!link) {
		pool_stop(&pool);
		return -ENOENT;
	}
	/* runs the kernel skipped (re-entry in softirq) were lookups too */
	if (!bpf_obj_get_info_by_fd(fd, &info, &len))
		skipped = info.recursion_misses;
	err = pool_run(&pool, 0, FIB_CALIBRATION, &res, hits, 0, out);
	memset(&info, 0, sizeof(info));
	len = sizeof(info);
	if (!bpf_obj_get_info_by_fd(fd, &info, &len))
		*hits += info.recursion_misses - skipped;
	bpf_link__destroy(link);
	pool_stop(&pool);
	return err;
}

static int count_fib_lookups(const struct run_settings *rs,
			     const struct overhead_event *ev,
			     const struct cpu_list *cpus, struct outcome *out)
{
	struct test_overhead_raw_tp_kern *skel;
	__u64 n, least = ~0ull;
	const char *name;
	int i, err;

	if (fib_lookups || fib_calibration.status != ST_OK) {
		*out = fib_calibration;
		return fib_lookups ? 0 : -ENOENT;
	}
	skel = test_overhead_raw_tp_kern__open();
	if (!skel) {
		outcome_set(out, ST_FAILED, "opening the raw_tp object: %s",
			    strerror(errno));
		return -errno;
	}
	/*
	 * A program like the rows': the test build's fault applies alike,
	 * but for uncounted, whose rows run unverified yet must run
	 */
	configure(rs, &skel->rodata->cfg, ev, 0, 1);
	if (run_fault(rs)->kind == BENCH_FAULT_UNCOUNTED)
		skel->rodata->cfg.fault = FAULT_NONE;
	err = attach_load(&kind_raw_tp, skel->skeleton,
			  skel->progs.raw_tp_count,
			  &ev->target, &name, out);
	for (i = 0; !err && i < 3; i++) {
		err = fib_calibrate_once(ev, cpus, skel, name, &n, out);
		if (!err && n < least)
			least = n;
	}
	test_overhead_raw_tp_kern__destroy(skel);
	if (!err && least < FIB_CALIBRATION) {
		outcome_set(out, ST_FAILED,
			    "fib_table_lookup fired %llu times for %d datagrams: less than once each",
			    least, FIB_CALIBRATION);
		err = -ENOENT;
	} else if (!err && least % FIB_CALIBRATION > FIB_SLACK) {
		outcome_set(out, ST_FAILED,
			    "fib_table_lookup fired %llu times for %d datagrams: no whole number per datagram to verify against",
			    least, FIB_CALIBRATION);
		err = -ERANGE;
	}
	if (err) {
		/* every fib row says the same, without trying again */
		fib_calibration = *out;
		if (fib_calibration.status == ST_OK)
			fib_calibration.status = ST_FAILED;
		outcome_set(&fib_calibration, fib_calibration.status,
			    "counting lookups per datagram: %.150s",
			    out->reason);
		*out = fib_calibration;
		return err;
	}
	fib_lookups = least / FIB_CALIBRATION;
	return 0;
}

/* ---- output ---- */

/* "task_rename", or "task_rename[progs=4]": one word, as parsers want */
static const char *row_label(const struct bench_row *row)
{
	static char buf[96];
	char params[64];

	format_params(row, params, sizeof(params));
	snprintf(buf, sizeof(buf), "%s%s", row->variant,
		 params[0] ? params + 1 : "");
	return buf;
}

/* a row's mode, as the runner groups skipped rows by */
static const char *row_mode(const struct bench_row *row)
{
	return row->name;
}

/* the row's mode, as an index of modes[] */
static int row_overhead_mode(const struct bench_row *row)
{
	return ((const struct overhead_row *)row->priv)->mode - modes;
}

/* the mode's header in upstream's lines: "w/KPROBE" */
static const char *row_header(const struct bench_row *row)
{
	return ((const struct overhead_row *)row->priv)->mode->header;
}

/* upstream's test_flags: its eight modes on task_rename and fib_table_lookup */
#define UPSTREAM_FLAGS	0xffffull

/* upstream's own rows, the ones its test_flags select: all it printed */
static bool upstream_row(const struct overhead_row *r)
{
	return flag_of(r->mode, r->ev) & UPSTREAM_FLAGS;
}

/*
 * Whose lines upstream's section has: upstream's own rows; every row
 * when the run was asked in upstream's words (test_flags given) or with
 * -v. The other rows' figures per worker are in --json.
 */
static bool upstream_line(const struct run_settings *rs,
			  const struct bench_row *row)
{
	return opt.flags || rs->verbosity > 1 || upstream_row(row->priv);
}

/*
 * A group's rows of one mode, under its header: "task_rename, getpgid:
 * skipped: <reason>", printed at the first of them.
 */
static void print_skipped_in_mode(const struct bench_rows *rows,
				  const int *gof, int i)
{
	const struct overhead_row *r = rows->row[i].priv;
	int j, n = 0;

	for (j = i; j < rows->nr; j++) {
		const struct overhead_row *o = rows->row[j].priv;

		if (gof[j] == gof[i] && o->mode == r->mode)
			printf("%s%s", n++ ? ", " : "",
			       row_label(&rows->row[j]));
	}
	printf(": %s: %s\n", status_name(ST_SKIPPED), rows->row[i].out.reason);
}

/*
 * Which groups have every row of each of their modes in the section:
 * those are said once, in place of their modes' headers.
 */
static void whole_groups(const struct bench_rows *rows, const int *gof,
			 int nr, bool *whole)
{
	bool *has = calloc((size_t)nr * NR_MODES ?: 1, sizeof(*has));
	int i, k, m;

	/* without memory, each mode says its skips under its header */
	for (k = 0; k < nr; k++)
		whole[k] = has != NULL;
	for (i = 0; has && i < rows->nr; i++)
		if (gof[i] >= 0)
			has[gof[i] * NR_MODES + row_overhead_mode(&rows->row[i])] = true;
	for (i = 0; has && i < rows->nr; i++) {
		if (gof[i] == -2)
			continue;	/* not in the section */
		m = row_overhead_mode(&rows->row[i]);
		for (k = 0; k < nr; k++)
			if (has[k * NR_MODES + m] && gof[i] != k)
				whole[k] = false;
	}
	free(has);
}

/* each row's skip group in @gof: -1 none, -2 not in upstream's lines */
static void group_rows(const struct bench_rows *rows, const bool *in,
		       const struct skip_group *g, int nr, int *gof)
{
	int i, k;

	for (i = 0; i < rows->nr; i++) {
		gof[i] = in[i] ? -1 : -2;
		for (k = 0; in[i] && k < nr && gof[i] < 0; k++)
			if (skip_group_has(rows, &g[k], row_mode, i))
				gof[i] = k;
	}
}

/* a row of its own in upstream's lines: its status, or each worker's rate */
static void print_upstream_row(const struct bench_row *row)
{
	int w;

	if (!row_has_figure(row)) {
		printf("%s: %s: %s\n", row_label(row),
		       status_name(row->out.status), row->out.reason);
		return;
	}
	/* the median of each worker's samples: a sum is the run's rate */
	for (w = 0; w < row->cpus->nr; w++)
		printf("%s:%d: %.0f events per sec\n", row_label(row),
		       row->cpus->cpu[w], worker_median_rate(row, w));
}

/*
 * upstream's lines: per mode, its header and one line per worker. The
 * skipped rows are said once per reason: a reason every row of some
 * modes shares replaces their headers ("w/FENTRY, w/FEXIT: skipped:
 * refused by this kernel (EPERM at load)").
 */
static void print_upstream(const struct run_settings *rs,
			   const struct bench_rows *rows)
{
	const struct attach_mode *mode = NULL;
	const struct attach_mode **said_in = NULL;
	struct skip_group *g = NULL;
	bool *in, *whole = NULL, *said = NULL;
	int *gof = NULL;
	char label[256];
	int i, k, nr;

	/* the events of --attach-time rows only prove the attachment */
	if (opt.attach_time)
		return;
	in = calloc(rows->nr ?: 1, sizeof(*in));
	gof = calloc(rows->nr ?: 1, sizeof(*gof));
	for (i = 0; in && i < rows->nr; i++)
		in[i] = upstream_line(rs, &rows->row[i]);
	nr = in && gof ? skip_groups(rows, in, row_mode, &g) : -ENOMEM;
	if (nr > 0) {
		whole = calloc(nr, sizeof(*whole));
		said = calloc(nr, sizeof(*said));
		said_in = calloc(nr, sizeof(*said_in));
	}
	if (nr < 0 || (nr > 0 && (!whole || !said || !said_in))) {
		pr_err("out of memory: upstream's lines left out");
		goto out;
	}
	group_rows(rows, in, g, nr, gof);
	whole_groups(rows, gof, nr, whole);
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];
		const struct overhead_row *r = row->priv;

		k = gof[i];
		if (k == -2)
			continue;
		if (k >= 0 && whole[k]) {
			if (!said[k]) {
				skip_group_label(rows, in, &g[k], row_mode,
						 row_header, label,
						 sizeof(label));
				printf("%s: %s: %s\n", label,
				       status_name(ST_SKIPPED),
				       skip_group_reason(rows, &g[k]));
			}
			said[k] = true;
			continue;
		}
		if (r->mode != mode)
			printf("%s\n", r->mode->header);
		mode = r->mode;
		if (k >= 0) {
			if (said_in[k] != mode)
				print_skipped_in_mode(rows, gof, i);
			said_in[k] = mode;
			continue;
		}
		print_upstream_row(row);
	}
out:
	free(said_in);
	free(said);
	free(whole);
	free(g);
	free(gof);
	free(in);
}

static void format_overhead(const struct bench_row *row,
			    const struct row_summary *s, char *overhead,
			    size_t olen, char *ratio, size_t rlen)
{
	snprintf(overhead, olen, "%s", row->base == row ? "-" : "(no base)");
	snprintf(ratio, rlen, "-");
	if (!s->has_overhead)
		return;
	snprintf(overhead, olen, "%+.1f ± %.1f", s->overhead.value,
		 s->overhead.ci95);
	snprintf(ratio, rlen, "%.2fx", s->ratio);
}

static void print_row(const struct bench_row *row)
{
	char overhead[48], ratio[24], hits[48] = "-", body[64] = "";
	char notes[REASON_LEN + 128];
	struct row_summary s;

	printf("  %-15s %-17s %-9s ", row->name, row_label(row),
	       status_name(row->out.status));
	if (!row_has_figure(row)) {
		printf("%s\n", row->out.reason);
		return;
	}
	row_summarize(row, &s);
	format_overhead(row, &s, overhead, sizeof(overhead), ratio,
			sizeof(ratio));
	if (row->runs_prog)
		format_hits(row, hits, sizeof(hits));
	if (!isnan(row_prog_ns(row)))
		snprintf(body, sizeof(body), s.has_overhead ?
			 "  body %.1f + attach %.1f" : "  body %.1f",
			 row_prog_body(row),
			 s.overhead.value - row_prog_body(row));
	row_notes(row, &s, notes, sizeof(notes));
	printf("%8.3fM ± %-7.3f %9.1f %16s %8s %21s%s%s%s\n",
	       s.rate.mean / 1e6, s.rate.stddev / 1e6, s.ns.mean, overhead,
	       ratio, hits, body, notes[0] ? "  " : "", notes);
}

/* ---- --progs: the cost of each added program ---- */

static bool same_group(const struct bench_row *a, const struct bench_row *b)
{
	const struct overhead_row *ra = a->priv, *rb = b->priv;

	return ra->mode == rb->mode && ra->ev == rb->ev &&
	       row_param(a, "progs") && row_param(b, "progs");
}

/*
 * ns per event against the number of programs, over the rows of @row's
 * mode and event that have a figure: the slope is what one more program
 * costs. @nr_rows: how many rows the group has.
 */
static int progs_fit(const struct bench_rows *rows,
		     const struct bench_row *row, struct line_fit *fit,
		     int *nr_rows)
{
	double x[PROGS_COUNTS], y[PROGS_COUNTS], sd[PROGS_COUNTS];
	struct row_summary s;
	int i, n = 0;

	*nr_rows = 0;
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *o = &rows->row[i];

		if (!same_group(row, o) || *nr_rows >= PROGS_COUNTS)
			continue;
		(*nr_rows)++;
		if (!row_has_figure(o))
			continue;
		row_summarize(o, &s);
		x[n] = o->nr_counters;
		y[n] = s.ns.mean;
		sd[n++] = s.ns.stddev;
	}
	return stats_line_fit(x, y, sd, n, fit);
}

static void print_fits(const struct bench_rows *rows)
{
	struct line_fit fit;
	int i, nr;

	printf("\nCost per added program (least squares of ns/event over --progs):\n");
	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		/* once per group, at its first row */
		if (!row_param(row, "progs") ||
		    (i > 0 && same_group(row, &rows->row[i - 1])))
			continue;
		printf("  %-15s %-17s ", row->name, row->variant);
		if (progs_fit(rows, row, &fit, &nr))
			printf("-  (%d of %d rows measured: a fit needs two)\n",
			       fit.n, nr);
		else
			printf("%+.2f ± %.2f ns/event/program  (%d of %d rows)\n",
			       fit.slope, fit.slope_unc, fit.n, nr);
	}
}

/* the runner's medians over samples, of every program the row attaches */
static void print_attach_times(const struct bench_rows *rows)
{
	bool any = false;
	int i;

	for (i = 0; i < rows->nr; i++) {
		const struct bench_row *row = &rows->row[i];

		if (!row->runs_prog || !row_has_figure(row))
			continue;
		if (!any)
			printf("\nAttach and detach, µs, median over samples (outside the timed loop):\n");
		any = true;
		printf("  %-15s %-24s attach %9.1f  detach %9.1f\n", row->name,
		       row_label(row), row_attach_median(row) / 1e3,
		       row_detach_median(row) / 1e3);
	}
}

/* --attach-time: attach and detach of one program on many functions */
static void print_attach_time_row(const struct bench_row *row)
{
	const struct overhead_row *r = row->priv;
	double attach, detach;
	char hits[48];

	printf("  %-15s %9d  %-9s ", row->name, r->nr_funcs,
	       status_name(row->out.status));
	if (!row_has_figure(row)) {
		printf("%s\n", row->out.reason);
		return;
	}
	attach = row_attach_median(row);
	detach = row_detach_median(row);
	printf("%10.2f %10.2f %12.2f %12.2f\n", attach / 1e6,
	       detach / 1e6, attach / 1e3 / r->nr_funcs,
	       detach / 1e3 / r->nr_funcs);
	format_hits(row, hits, sizeof(hits));
	printf("  %-15s %9s  %-9s hits/expected %s (the event's own function is the first)\n",
	       "", "", "", hits);
}

static void print_attach_time(const struct bench_rows *rows)
{
	int i;

	printf("Attach time: one program on N kernel functions from available_filter_functions\n"
	       "(the event's own first); medians over samples, outside the timed loop\n");
	printf("  %-15s %9s  %-9s %10s %10s %12s %12s\n", "mode", "functions",
	       "status", "attach ms", "detach ms", "attach µs/fn",
	       "detach µs/fn");
	for (i = 0; i < rows->nr; i++)
		print_attach_time_row(&rows->row[i]);
}

static void print_summary(const struct run_settings *rs,
			  const struct bench_rows *rows)
{
	char cpus[256], samples[96];
	struct utsname uts;
	int i;

	uname(&uts);
	format_cpus(&rs->cpus, cpus, sizeof(cpus));
	if (rs->repeat)
		snprintf(samples, sizeof(samples), "%d unit(s) a row",
			 rs->repeat);
	else
		snprintf(samples, sizeof(samples),
			 "%d to %d units a row, until the overhead is known to ±%g%%",
			 rs->min_units, rs->max_units, 100 * rs->precision);
	printf("\nSummary: %d worker(s) on CPU %s, %s%s, kernel %s, libbpf %s\n",
	       rs->cpus.nr, cpus, samples,
	       rs->warmup ? " after warm-up" : "", uts.release,
	       libbpf_version_text());
	printf("Programs: %s (--body %s)%s\n", body_help[opt.body],
	       body_names[opt.body], run_fault(rs)->kind ?
	       "; UNVERIFIED: a test fault is injected" : "");
	if (opt.attach_time) {
		print_attach_time(rows);
		return;
	}
	printf("  %-15s %-17s %-9s %-19s %9s %16s %8s %21s\n", "mode", "event",
	       "status", "events/s mean ± sd", "ns/event", "overhead ns ± 95%",
	       "x base", "hits/expected");
	/* the rows this kernel cannot run follow, said once per reason */
	for (i = 0; i < rows->nr; i++)
		if (rows->row[i].out.status != ST_SKIPPED)
			print_row(&rows->row[i]);
	if (opt.nr_progs)
		print_fits(rows);
	print_row_counts(rows);
	print_skip_groups(rows, row_mode);
	print_excused(rows);
	if (fib_lookups && rs->verbosity > 0)
		printf("fib_table_lookup: hits checked against %u lookup(s) per datagram, counted on this kernel\n",
		       fib_lookups);
	if (rs->verbosity > 1)
		print_attach_times(rows);
}

static void json_context(const struct run_settings *rs, json_t *ctx)
{
	json_object_set_new(ctx, "body", json_string(body_names[opt.body]));
	json_object_set_new(ctx, "fib_lookups_per_datagram",
			    fib_lookups ? json_integer(fib_lookups) :
			    json_null());
	if (run_fault(rs)->kind)
		json_object_set_new(ctx, "fault",
				    json_string(run_fault(rs)->name));
}

/* the group's fit, the same in each of its rows: null without one */
static json_t *fit_json(const struct bench_rows *rows,
			const struct bench_row *row)
{
	struct line_fit fit;
	json_t *o;
	int nr;

	if (progs_fit(rows, row, &fit, &nr))
		return json_null();
	o = json_object();
	json_object_set_new(o, "value", json_real(fit.slope));
	json_object_set_new(o, "uncertainty", json_real(fit.slope_unc));
	json_object_set_new(o, "points", json_integer(fit.n));
	return o;
}

static void json_row(const struct bench_rows *rows,
		     const struct bench_row *row, json_t *o)
{
	const struct overhead_row *r = row->priv;
	double attach = row_attach_median(row);

	json_object_set_new(o, "hooked", r->hooked ? json_string(r->hooked) :
			    json_null());
	/* a bare call's few ns make a percentage meaningless */
	if (r->ev->base_is_call)
		json_object_set_new(o, "overhead_pct", json_null());
	if (row_param(row, "progs"))
		json_object_set_new(o, "marginal_ns_per_prog",
				    fit_json(rows, row));
	if (r->nr_funcs) {
		json_object_set_new(o, "functions", json_integer(r->nr_funcs));
		json_object_set_new(o, "attach_ns_per_function",
				    isfinite(attach) ?
				    json_real(attach / r->nr_funcs) :
				    json_null());
		/* the events only proved the attachment: no event cost */
		json_object_set_new(o, "overhead_ns", json_null());
		json_object_set_new(o, "overhead_pct", json_null());
	}
}

static void list_row(const struct bench_row *row, json_t *o)
{
	const struct overhead_row *r = row->priv;
	const struct attach_kind *kind = r->mode->kind;
	size_t off = r->ev->prog[r->mode - modes] ?: r->mode->count_prog;
	void *skel;

	json_object_set_new(o, "flag", json_integer(flag_of(r->mode, r->ev)));
	json_object_set_new(o, "header", json_string(r->mode->header));
	json_object_set_new(o, "upstream", json_boolean(upstream_row(r)));
	if (!kind)
		return;
	/* fmod_ret may change an LSM hook or an injectable function */
	list_kind(o, kind, kind != &kind_fmod_ret ? NULL :
		  r->ev->target.lsm_hook ? "SECURITY" :
		  "FUNCTION_ERROR_INJECTION");
	if (r->ev->tp_may_lack && kind->tracepoint)
		json_object_set_new(o, "may_lack", json_string(r->ev->tp_may_lack));
	/* opening needs no privileges: it only reads the ELF */
	skel = r->mode->skel->open();
	if (!skel)
		return;
	json_object_set_new(o, "program",
			    json_string(bpf_program__name(skel_prog(skel, off))));
	r->mode->skel->destroy(skel);
}

static const struct bench_family overhead_family = {
	.name = "test_overhead",
	.args = "[test_flags] [num_cpu]",
	.about = "Per-event cost of each way to attach a BPF program, verified on every\n"
		 "worker's CPU by the program's own hit count.\n",
	.options = options,
	.paced = true,
	.parse_option = parse_option,
	.parse_args = parse_args,
	.usage_tables = usage_tables,
	.setup = setup,
	.list_row = list_row,
	.open = open_row,
	.attach = attach_row,
	.detach = detach_row,
	.collect = collect,
	.hit_slot = hit_slot,
	.foreign_slot = foreign_slot,
	.workers = new_workers,
	.prog_fds = prog_fds,
	.close = close_row,
	.print_upstream = print_upstream,
	.print_summary = print_summary,
	.json_context = json_context,
	.json_row = json_row,
};

int main(int argc, char **argv)
{
	return bench_main(&overhead_family, argc, argv);
}
