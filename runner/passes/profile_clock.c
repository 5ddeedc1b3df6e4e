// SPDX-License-Identifier: GPL-2.0
/*
 * --profile's clocks: where a row's time goes is sampled, and this is the
 * sampling. The machines here have no PMU, so the clock is the kernel's
 * software one: a PERF_COUNT_SW_CPU_CLOCK event on each worker's CPU, an
 * hrtimer that samples the running task's instruction pointer every
 * PROFILE_PERIOD_NS of CPU time. Only the workers' samples (their tids)
 * count; the rest on their CPUs is counted as other tasks' or idle.
 * User-space samples are one symbol, "[user]". Apart from the naming of
 * the samples (bench_profile_ksyms.c) and what is said of them
 * (bench_profile_report.c): this file alone speaks perf_event_open().
 * See Documentation/profile.rst for what the clock cannot see.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include "passes/passes.h"
#include "core/core.h"

/* ring pages per CPU (a power of two): 2 MiB, some 8 s of 24-byte samples at 10 kHz */
#define RING_PAGES	512

/* ---- the clocks ---- */

static int perf_event_open(struct perf_event_attr *attr, int cpu)
{
	return syscall(__NR_perf_event_open, attr, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

static const char *perf_refusal(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return "perf_event_open refused (kernel.perf_event_paranoid, or CAP_PERFMON missing)";
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return "this kernel has no software CPU clock event";
	default:
		return "perf_event_open failed";
	}
}

int profiler_open(struct profiler *p, const struct cpu_list *cpus,
		  struct outcome *out)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = PROFILE_PERIOD_NS,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
		.disabled = 1,
	};
	long page = sysconf(_SC_PAGESIZE);
	int i, err;

	memset(p, 0, sizeof(*p));
	p->cpu = calloc(cpus->nr, sizeof(*p->cpu));
	p->fd = calloc(cpus->nr, sizeof(*p->fd));
	p->ring = calloc(cpus->nr, sizeof(*p->ring));
	p->ring_len = (size_t)(RING_PAGES + 1) * page;
	if (!p->cpu || !p->fd || !p->ring) {
		outcome_set(out, ST_FAILED, "out of memory");
		goto fail;
	}
	for (i = 0; i < cpus->nr; i++) {
		p->cpu[i] = cpus->cpu[i];
		p->fd[i] = perf_event_open(&attr, cpus->cpu[i]);
		if (p->fd[i] < 0) {
			err = errno;
			outcome_set(out, ST_SKIPPED, "%s: %s on CPU %d",
				    perf_refusal(err), strerror(err),
				    cpus->cpu[i]);
			goto fail;
		}
		p->nr = i + 1;
		p->ring[i] = mmap(NULL, p->ring_len, PROT_READ | PROT_WRITE,
				  MAP_SHARED, p->fd[i], 0);
		if (p->ring[i] == MAP_FAILED) {
			p->ring[i] = NULL;
			outcome_set(out, ST_SKIPPED,
				    "the perf ring of CPU %d cannot be mapped: %s",
				    cpus->cpu[i], strerror(errno));
			goto fail;
		}
	}
	return 0;
fail:
	profiler_close(p);
	return -1;
}

void profiler_close(struct profiler *p)
{
	int i;

	for (i = 0; i < p->nr; i++) {
		if (p->ring[i])
			munmap(p->ring[i], p->ring_len);
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	}
	free(p->cpu);
	free(p->fd);
	free(p->ring);
	memset(p, 0, sizeof(*p));
}

void profiler_start(struct profiler *p)
{
	int i;

	for (i = 0; i < p->nr; i++)
		ioctl(p->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

/* ---- reading the rings ---- */

struct sample_rec {
	struct perf_event_header header;
	__u64 ip;
	__u32 pid, tid;
};

struct lost_rec {
	struct perf_event_header header;
	__u64 id, lost;
};

/* where a ring's records go: one CPU's, for one arm */
struct ring_sink {
	struct row_profile *prof;
	enum profile_arm arm;
	const pid_t *tids;
	int nr;
	bool keep;		/* an undisturbed sample, a CPU of the row's */
};

static bool is_worker(const struct ring_sink *k, __u32 tid)
{
	int i;

	for (i = 0; i < k->nr; i++)
		if ((__u32)k->tids[i] == tid)
			return true;
	return false;
}

static void keep_ip(struct row_profile *prof, enum profile_arm arm, __u64 ip)
{
	__u64 *grown;

	if (prof->nr_ip[arm] == prof->cap_ip[arm]) {
		size_t cap = prof->cap_ip[arm] ? 2 * prof->cap_ip[arm] : 4096;

		grown = realloc(prof->ip[arm], cap * sizeof(*grown));
		if (!grown)
			return;
		prof->ip[arm] = grown;
		prof->cap_ip[arm] = cap;
	}
	prof->ip[arm][prof->nr_ip[arm]++] = ip;
}

static void take_sample(const struct ring_sink *k, const struct sample_rec *r)
{
	struct row_profile *prof = k->prof;
	__u16 mode = r->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (!k->keep)
		return;
	if (!is_worker(k, r->tid)) {
		if (r->pid)
			prof->other[k->arm]++;
		else
			prof->idle[k->arm]++;
		return;
	}
	prof->samples[k->arm]++;
	if (mode == PERF_RECORD_MISC_USER)
		prof->user[k->arm]++;
	else
		keep_ip(prof, k->arm, r->ip);
}

static void take_record(const struct ring_sink *k, const void *rec)
{
	const struct perf_event_header *h = rec;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (h->size >= sizeof(struct sample_rec))
			take_sample(k, rec);
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(struct lost_rec))
			k->prof->lost += ((const struct lost_rec *)rec)->lost;
		break;
	case PERF_RECORD_THROTTLE:
		k->prof->throttled++;
		break;
	}
}

void profile_take(struct row_profile *prof, enum profile_arm arm,
		  const pid_t *tids, int nr, const void *rec)
{
	struct ring_sink k = { prof, arm, tids, nr, true };

	take_record(&k, rec);
}

/* a ring's records from its tail to its head, which may wrap */
static void ring_drain(struct perf_event_mmap_page *meta,
		       const struct ring_sink *k)
{
	char *data = (char *)meta + meta->data_offset;
	__u64 size = meta->data_size;
	__u64 head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = meta->data_tail, off, n, i;
	struct perf_event_header h;
	__u64 rec[32];

	while (tail + sizeof(h) <= head) {
		off = tail % size;
		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof(h))
			break;		/* garbled: drop the rest */
		n = h.size < sizeof(rec) ? h.size : sizeof(rec);
		for (i = 0; i < n; i++)
			((char *)rec)[i] = data[(off + i) % size];
		take_record(k, rec);
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
}

void profiler_stop(struct profiler *p, struct row_profile *prof,
		   enum profile_arm arm, const pid_t *tids, int nr,
		   const struct cpu_list *cpus, bool keep)
{
	struct ring_sink k = { prof, arm, tids, nr, false };
	int i;

	for (i = 0; i < p->nr; i++)
		ioctl(p->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < p->nr; i++) {
		k.keep = keep && cpu_list_has(cpus, p->cpu[i]);
		ring_drain(p->ring[i], &k);
	}
}
