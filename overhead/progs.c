// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's programs of a row: each instance opened, configured,
 * loaded and attached, its per-CPU hit slots given to the workers and
 * read, then detached and destroyed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "overhead.h"

static void detach_funcs(struct overhead_row *r)
{
	while (r->nr_links > 0)
		bpf_link__destroy(r->links[--r->nr_links]);
}

void destroy_instances(struct bench_row *row)
{
	struct overhead_row *r = row->priv;
	int i;

	detach_row(row);
	for (i = 0; r->inst && i < row->nr_counters; i++)
		if (r->inst[i].skel)
			r->mode->skel->destroy(r->inst[i].skel);
	free(r->inst);
	r->inst = NULL;
}

/* a CPU's slot is one cache line: its count and its configuration */
_Static_assert(sizeof(struct hit_slot) == 64, "struct hit_slot is a line");

/* the BPF programs' fault numbers are the runner's: test_overhead.h */
_Static_assert((int)FAULT_MISS_ODD == (int)BENCH_FAULT_MISS_ODD &&
	       (int)FAULT_MISS_CPU == (int)BENCH_FAULT_MISS_CPU &&
	       (int)FAULT_UNCOUNTED == (int)BENCH_FAULT_UNCOUNTED &&
	       (int)FAULT_EXTRA_ODD == (int)BENCH_FAULT_EXTRA_ODD &&
	       (int)FAULT_MISS_RARE == (int)BENCH_FAULT_MISS_RARE,
	       "test_overhead.h's faults are numbered as bench.h's");

/* program @i of the row's @nr: a test fault may pick one of them */
void configure(const struct run_settings *rs,
	       struct overhead_config *cfg,
	       const struct overhead_event *ev, int i, int nr)
{
	bool initial = true;

	cfg->body = overhead_opts(rs)->body;
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
 * given its worker, or none, and the program's configuration, which it
 * reads there.
 */
void slots_reset(struct hit_slot *slots, const struct overhead_config *cfg,
		 const int *cpu, const pid_t *pid, int nr)
{
	int i;

	memset(slots, 0, sizeof(struct hit_slot) * OVERHEAD_MAX_CPUS);
	for (i = 0; i < OVERHEAD_MAX_CPUS; i++) {
		slots[i].tgid = -1;
		slots[i].cfg = *cfg;
	}
	for (i = 0; i < nr; i++)
		slots[cpu[i] & (OVERHEAD_MAX_CPUS - 1)].tgid = pid[i];
}

int open_instance(const struct run_settings *rs, struct bench_row *row,
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
	configure(rs, &pi->cfg, r->ev, i, row->nr_counters);
	pi->prog = skel_prog(pi->skel, off);
	return attach_load(row, r->mode->kind, sk->skeleton(pi->skel),
			   pi->prog, &r->target, &r->hooked, out);
}

/*
 * --attach-time: the event's own function first, so its hits prove the
 * attachment, then the first traceable functions the kernel lists.
 */
int open_funcs(struct overhead_row *r, struct outcome *out)
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

/*
 * A new session's workers for a row still attached: each CPU's slot now
 * counts the runs for its new worker as its own. Only the owner changes:
 * the counts go on, collect() takes what was added since.
 */
void new_workers(struct bench_row *row,
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

void detach_row(struct bench_row *row)
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

int collect(struct bench_row *row, struct sample *s)
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

const volatile __u64 *hit_slot(const struct bench_row *row,
			       int counter, int cpu)
{
	const struct overhead_row *r = row->priv;

	return &r->mode->skel->slots(r->inst[counter].skel)[cpu].hits;
}

const volatile __u64 *foreign_slot(const struct bench_row *row,
				   int counter, int cpu)
{
	const struct overhead_row *r = row->priv;

	return &r->mode->skel->slots(r->inst[counter].skel)[cpu].foreign;
}

int prog_fds(const struct bench_row *row, int *fds, int max)
{
	const struct overhead_row *r = row->priv;
	int i;

	for (i = 0; i < row->nr_counters && i < max; i++)
		fds[i] = bpf_program__fd(r->inst[i].prog);
	return i;
}

void close_row(struct bench_row *row)
{
	struct overhead_row *r = row->priv;

	destroy_instances(row);
	free(r->links);
	free(r->funcs);
	r->links = NULL;
	r->funcs = NULL;
}
