// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's fib_table_lookup: the network namespace the workers
 * send from, the receiver they fill, their datagrams, and the count of
 * lookups one datagram makes on the running kernel that its rows are
 * verified against.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sock_diag.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "overhead.h"
#include "fib.h"
#include "test_overhead_raw_tp_kern.skel.h"

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
void fib_prepare(void)
{
	static bool netns_entered;

	if (netns_entered)
		return;
	netns_entered = true;
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

int fib_setup(void **state)
{
	/* the worker's own until it exits, as are its sockets */
	struct fib_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	*state = s;
	err = fib_receiver(s);
	if (err)
		return err;
	s->tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s->tx < 0)
		return -errno;
	return fib_fill(s);
}

void fib_run(void *state, __u64 count)
{
	const struct fib_state *s = state;
	__u64 i;

	for (i = 0; i < count; i++)
		fib_send(s);
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

static int fib_calibrate_once(const struct run_settings *rs,
			      const struct bench_row *row,
			      const struct overhead_event *ev,
			      struct test_overhead_raw_tp_kern *skel,
			      const struct overhead_config *cfg,
			      const char *name, __u64 *hits,
			      struct outcome *out)
{
	struct cpu_list one = { 1, row->cpus->cpu };
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

	err = pool_start(&pool, rs, &one, &trig, 1, 0, &win, out);
	if (err)
		return err;
	slots_reset(skel->bss->slots, cfg, pool.cpu, pool.pid, pool.nr);
	link = attach_link(row, &kind_raw_tp, skel->progs.raw_tp_count,
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

int count_fib_lookups(const struct run_settings *rs,
		      const struct bench_row *row,
		      const struct overhead_event *ev, struct outcome *out)
{
	struct fib_count *fc = &overhead_ctx(rs)->fib;
	struct test_overhead_raw_tp_kern *skel;
	struct overhead_config cfg = {};
	__u64 n, least = ~0ull;
	const char *name;
	int i, err;

	if (fc->lookups || fc->failed.status != ST_OK) {
		*out = fc->failed;
		return fc->lookups ? 0 : -ENOENT;
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
	configure(rs, &cfg, ev, 0, 1);
	if (run_fault(rs)->kind == BENCH_FAULT_UNCOUNTED)
		cfg.fault = FAULT_NONE;
	err = attach_load(row, &kind_raw_tp, skel->skeleton,
			  skel->progs.raw_tp_count,
			  &ev->target, &name, out);
	for (i = 0; !err && i < 3; i++) {
		err = fib_calibrate_once(rs, row, ev, skel, &cfg, name, &n,
					 out);
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
		fc->failed = *out;
		if (fc->failed.status == ST_OK)
			fc->failed.status = ST_FAILED;
		outcome_set(&fc->failed, fc->failed.status,
			    "counting lookups per datagram: %.150s",
			    out->reason);
		*out = fc->failed;
		return err;
	}
	fc->lookups = least / FIB_CALIBRATION;
	return 0;
}
