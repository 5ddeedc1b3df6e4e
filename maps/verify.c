// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's verification: beyond one program run per syscall,
 * which the runner checks, what each sample's counts must show, and what
 * each kind of map test checks of its own.
 */
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "maps/map_perf.h"

/* the hits the workers' lookups must make; -d decides their counts */
static __u64 kept_keys_hits(const struct map_row *r,
			    const struct worker_result *res, int nr)
{
	__u32 nr_windows = r->lru_range / LRU_LOOKUP_SPAN;
	__u64 hits = 0;
	int k;

	for (k = 0; k < nr; k++)
		hits += kept_hits(r->lru_kept, nr_windows, res[k].events);
	return hits;
}

/*
 * The records an empty buffer takes are never dropped, however slow the
 * consumer, and a sample starts with the buffer empty (the last one's
 * consumer drained it): of the RECORDS_PER_CALL records each of the
 * workers' events makes, as many as the buffer holds must have been
 * consumed. The bound comes from the events and the buffer's size alone,
 * never from the counts it checks: a program or buffer that drops records
 * it had room for, all of them included, fails.
 */
static bool records_kept(const struct map_row *r, struct sample *s,
			 const struct consumer_counts *n)
{
	__u64 holds = consumer_holds(r->consumer), made = 0, got = 0;
	int k, cpu;

	if (r->test->kind->shape == SHAPE_RINGBUF) {
		/* one ring for every producer */
		for (k = 0; k < s->nr_workers; k++)
			made += s->res[k].events * RECORDS_PER_CALL;
		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			got += n->consumed[cpu];
		if (got >= (made < holds ? made : holds))
			return true;
		outcome_set(&s->out, ST_FAILED,
			    "%llu of the %llu records the events made were consumed, fewer than the %llu an empty ring takes",
			    got, made, holds);
		return false;
	}
	/* a perf buffer per CPU */
	for (k = 0; k < s->nr_workers; k++) {
		cpu = s->res[k].cpu;
		made = s->res[k].events * RECORDS_PER_CALL;
		got = n->consumed[cpu];
		if (got >= (made < holds ? made : holds))
			continue;
		outcome_set(&s->out, ST_FAILED,
			    "CPU %d: %llu of the %llu records its events made were consumed, fewer than the %llu an empty perf buffer takes",
			    cpu, got, made, holds);
		return false;
	}
	return true;
}

/*
 * Every record produced on a CPU was consumed or dropped there, each
 * consumed once, in order, whole, and no fewer consumed than an empty
 * buffer takes; the consumer's rate and cost are kept.
 */
void verify_records(struct map_row *r, struct sample *s)
{
	const struct consumer_counts *n = consumer_counts(r->consumer);
	const struct map_perf_counters *pc = r->pc;
	struct map_totals *last;
	__u64 consumed = 0;
	int cpu;

	if (consumer_error(r->consumer)) {
		outcome_set(&s->out, ST_FAILED, "%s",
			    consumer_failed(r->consumer));
		return;
	}
	if (n->bad || n->out_of_order) {
		outcome_set(&s->out, ST_FAILED,
			    "the consumer got %llu malformed and %llu out-of-order records",
			    n->bad, n->out_of_order);
		return;
	}
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		consumed += n->consumed[cpu];
		if (pc[cpu].updates == n->consumed[cpu] + pc[cpu].dropped)
			continue;
		outcome_set(&s->out, ST_FAILED,
			    "CPU %d produced %llu records: %llu consumed + %llu dropped do not add up",
			    cpu, pc[cpu].updates, n->consumed[cpu],
			    pc[cpu].dropped);
		return;
	}
	if (!records_kept(r, s, n))
		return;
	last = &r->last[s->place];
	last->produced = r->c.updates;
	last->consumed = consumed;
	last->dropped = r->c.dropped;
	last->lost = n->lost;
	last->consume_ns = n->last_ns - n->first_ns;
	last->consumer_cpu_ns = n->cpu_ns;
}

void verify_empty(struct map_row *r, struct sample *s)
{
	int fd = bpf_map__fd(skel_map(r->skel, r->test->map));
	__u64 v, left = 0;

	if (r->c.sum) {
		outcome_set(&s->out, ST_FAILED,
			    "the values popped are not those pushed (they differ by %lld)",
			    (long long)r->c.sum);
		return;
	}
	while (!bpf_map_lookup_and_delete_elem(fd, NULL, &v))
		left++;
	if (left)
		outcome_set(&s->out, ST_FAILED,
			    "%llu values were left in the map after the run",
			    left);
}

/* every call did what it should, and the map holds what was put in */
void verify_sys(struct map_row *r, struct sample *s)
{
	if (r->c.update_fails)
		outcome_set(&s->out, ST_FAILED,
			    "%llu calls failed or returned the wrong elements",
			    r->c.update_fails);
	else
		sys_map_check(r->sys_fd, r->test->sys_type, r->sys.key_size,
			      r->entries, &s->out);
}

/* beyond one run per syscall: the outcomes the test expects */
void verify(const struct bench_row *row, struct sample *s)
{
	struct map_row *r = row->priv;
	struct map_perf_counters *c = &r->c;
	struct map_totals *last;
	__u64 min_found = 0;

	/* no program: the kind's own checks alone */
	if (r->test->kind->shape == SHAPE_SYSCALL) {
		r->test->kind->verify(r, s);
		return;
	}
	/* filtered out by the programs: shown beside the hits */
	s->foreign += c->foreign;
	if (r->hits == HITS_KEPT)
		min_found = kept_keys_hits(r, s->res, s->nr_workers);
	if (c->update_fails && has_consumer(r->test))
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu records failed for another reason than a full buffer",
			    c->update_fails, c->updates);
	else if (c->update_fails)
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu updates failed (max_entries %u, %d workers)",
			    c->update_fails, c->updates, r->entries,
			    s->nr_workers);
	else if (r->hits == HITS_ALL && c->found < c->lookups)
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu lookups missed; all should hit",
			    c->lookups - c->found, c->lookups);
	else if (r->hits == HITS_NONE && c->found)
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu lookups hit; --miss wants none",
			    c->found, c->lookups);
	else if (r->hits == HITS_KEPT && c->found < min_found)
		outcome_set(&s->out, ST_FAILED,
			    "%llu of %llu lookups hit; the keys kept make %llu",
			    c->found, c->lookups, min_found);
	/* what "map ops/s" and ns/op divide by: each run made them all */
	else if (c->ops != c->calls * r->test->ops)
		outcome_set(&s->out, ST_FAILED,
			    "%llu map operations counted for %llu calls of %u each",
			    c->ops, c->calls, r->test->ops);
	else if (r->test->kind->verify)
		r->test->kind->verify(r, s);
	last = &r->last[s->place];
	last->ops = c->ops;
	last->lookups = c->lookups;
	last->found = c->found;
	last->negatives = c->negatives;
	last->false_pos = c->false_pos;
}
