// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's probe of what test_overhead's count costs, part by part:
 *
 *   count_cost CPU ROUNDS EVENTS
 *
 * On CPU, ROUNDS rounds of EVENTS prctl(PR_SET_NAME) calls with each of
 * tools/count_cost_kern.c's raw_tp programs on task_rename in turn, and
 * with none, the order turning each round so that drift reaches each
 * alike. "empty" does nothing; "helpers" makes the count's helper calls
 * alone; "configured" reads its configuration from the CPU's slot, as
 * every program of test_overhead does; "count" is raw_tp_rename, that
 * and the count (overhead_kern.h's count_hit()), whose hits must be every
 * event's. Per program, the median over the rounds of its ns per event
 * more than none's (its overhead) and of its ns per run by the kernel's
 * BPF run-time stats, and of both more than empty's of the same round.
 * Then whether a kernel entry flushes the TLB here (page table isolation
 * without PCID): the first touch of a page of data in each syscall then
 * costs a page walk. Prints lines for tools/bench.sh; run it holding the
 * tools' lock. Exit 1 when something fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "test_overhead.h"
#include "count_cost_kern.skel.h"

#define MAX_ROUNDS	1000
#define WARMUP		1000
#define NONE		4	/* the variant without a program */

static const char *const names[] = { "empty", "helpers", "configured", "count",
				     "none" };

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void renames(long n)
{
	while (n--)
		prctl(PR_SET_NAME, "count_cost");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* the program's run time and runs so far, by the kernel's stats */
static void prog_totals(struct bpf_program *prog, __u64 *ns, __u64 *runs)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	*ns = *runs = 0;
	if (!bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len)) {
		*ns = info.run_time_ns;
		*runs = info.run_cnt;
	}
}

/* "yes" when /proc/cpuinfo's first flags line has @flag */
static const char *cpu_flag(const char *flag)
{
	char line[8192], word[64];
	const char *found = "no";
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return "unknown";
	snprintf(word, sizeof(word), " %s ", flag);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		line[strcspn(line, "\n")] = ' ';
		found = strstr(line, word) ? "yes" : "no";
		break;
	}
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	static double ov[NONE][MAX_ROUNDS], in[NONE][MAX_ROUNDS];
	static double ov_more[NONE][MAX_ROUNDS], in_more[NONE][MAX_ROUNDS];
	double wall[NONE + 1];
	struct bpf_program *progs[NONE];
	struct overhead_config cfg = {};
	struct count_cost_kern *skel;
	int cpu, rounds, r, k, v, stats_fd, err = 1;
	__u64 t0, ns0, ns1, runs0, runs1, hits;
	struct stat ns_st;
	cpu_set_t set;
	long events;

	if (argc != 4 || (cpu = atoi(argv[1])) < 0 ||
	    (rounds = atoi(argv[2])) < 1 || rounds > MAX_ROUNDS ||
	    (events = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: count_cost CPU ROUNDS(1-%d) EVENTS\n",
			MAX_ROUNDS);
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "count_cost: CPU %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	skel = count_cost_kern__open();
	if (!skel) {
		fprintf(stderr, "count_cost: opening the programs: %s\n",
			strerror(errno));
		return 1;
	}
	progs[0] = skel->progs.empty;
	progs[1] = skel->progs.helpers;
	progs[2] = skel->progs.configured;
	progs[3] = skel->progs.count;
	for (v = 0; v < NONE; v++)
		bpf_program__set_autoload(progs[v], true);
	if (count_cost_kern__load(skel)) {
		fprintf(stderr, "count_cost: loading the programs: %s\n",
			strerror(errno));
		goto out;
	}
	/* the slots as test_overhead sets them (overhead/progs.c) */
	if (!stat("/proc/self/ns/pid", &ns_st) && ns_st.st_ino != 0xEFFFFFFCU) {
		cfg.use_pidns = 1;
		cfg.pidns_dev = ns_st.st_dev;
		cfg.pidns_ino = ns_st.st_ino;
	}
	for (k = 0; k < OVERHEAD_MAX_CPUS; k++) {
		skel->bss->slots[k].tgid = -1;
		skel->bss->slots[k].cfg = cfg;
	}
	skel->bss->slots[cpu & (OVERHEAD_MAX_CPUS - 1)].tgid = getpid();
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	for (r = 0; r < rounds; r++) {
		for (k = 0; k <= NONE; k++) {
			struct bpf_link *link = NULL;

			v = (k + r) % (NONE + 1);
			if (v != NONE) {
				link = bpf_program__attach_raw_tracepoint(
					progs[v], "task_rename");
				if (!link) {
					fprintf(stderr, "count_cost: attaching %s: %s\n",
						names[v], strerror(errno));
					goto out_stats;
				}
			}
			renames(WARMUP);
			if (v != NONE)
				prog_totals(progs[v], &ns0, &runs0);
			t0 = now_ns();
			renames(events);
			wall[v] = (double)(now_ns() - t0) / events;
			if (v != NONE) {
				prog_totals(progs[v], &ns1, &runs1);
				bpf_link__destroy(link);
				in[v][r] = runs1 > runs0 ?
					   (double)(ns1 - ns0) / (runs1 - runs0) :
					   0;
			}
		}
		for (v = 0; v < NONE; v++) {
			ov[v][r] = wall[v] - wall[NONE];
			/* beside empty's of the same round */
			ov_more[v][r] = wall[v] - wall[0];
			in_more[v][r] = in[v][r] - in[0][r];
		}
	}
	hits = skel->bss->slots[cpu & (OVERHEAD_MAX_CPUS - 1)].hits;
	if (hits != (__u64)rounds * (events + WARMUP)) {
		fprintf(stderr, "count_cost: the count counted %llu hits of %llu events\n",
			(unsigned long long)hits,
			(unsigned long long)rounds * (events + WARMUP));
		goto out_stats;
	}
	printf("cpu %d rounds %d events %ld pti %s pcid %s stats %s\n", cpu,
	       rounds, events, cpu_flag("pti"), cpu_flag("pcid"),
	       stats_fd >= 0 ? "yes" : "no");
	for (v = 0; v < NONE; v++)
		printf("%s overhead %.1f in_program %.1f more_overhead %.1f more_in_program %.1f\n",
		       names[v], median(ov[v], rounds),
		       stats_fd >= 0 ? median(in[v], rounds) : -1.0,
		       median(ov_more[v], rounds),
		       stats_fd >= 0 ? median(in_more[v], rounds) : -1.0);
	err = 0;
out_stats:
	if (stats_fd >= 0)
		close(stats_fd);
out:
	count_cost_kern__destroy(skel);
	return err;
}
