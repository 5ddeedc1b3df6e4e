/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What test_overhead's BPF programs and its user space agree on: the
 * per-CPU hit slots the programs count into, each with a copy of the
 * run's configuration. Include <linux/types.h> (user space) or vmlinux.h
 * (BPF) first.
 */
#ifndef __TEST_OVERHEAD_H
#define __TEST_OVERHEAD_H

/* CPUs the hit slots cover; a power of two, checked at run time */
#define OVERHEAD_MAX_CPUS	1024

/* what a program does besides counting its hit */
enum overhead_body {
	BODY_COUNT,	/* nothing: the attach cost alone */
	BODY_READS,	/* upstream's reads of the renamed task, every mode */
	BODY_UPSTREAM,	/* upstream's programs: the reads in kprobe only */
};

/*
 * Faults the tests inject to prove verification bites; the test build's
 * alone (BENCH_TESTING, see bench.h): the programs make builds never
 * look at them.
 */
enum overhead_fault {
	FAULT_NONE,
	FAULT_MISS_ODD,		/* count every other hit only */
	FAULT_MISS_CPU,		/* count nothing on fault_cpu */
	FAULT_UNCOUNTED,	/* count nothing: make bench's empty program */
	FAULT_EXTRA_ODD = 9,	/* count every other hit twice (bench.h's 9) */
	FAULT_MISS_RARE = 12,	/* miss one of the worker's hits in 1024 */
};

struct overhead_config {
	__u32 body;
	__u32 fault;
	__u32 fault_cpu;
	__u32 use_pidns;	/* tgids are the workers' pid namespace's */
	__s64 syscall_nr;	/* what sys_enter programs keep */
	__u64 pidns_dev;
	__u64 pidns_ino;
};

/*
 * One per CPU, a cache line each: no CPU writes another's. @hits are the
 * runs for the worker pinned to the CPU (@tgid, set before the programs
 * are attached), @foreign the runs for any other task: only the worker's
 * own runs can verify its events.
 *
 * @cfg, the same in every slot, is the run's configuration, set with
 * @tgid: a program reads it from the line it counts in, so that a run
 * touches that one line of data and no other. Where a kernel entry
 * flushes the TLB (page table isolation without PCID), the first touch
 * of each page of data in a syscall costs a page walk; the configuration
 * in .rodata made it two pages (Documentation/statistics.rst, "What the
 * count costs").
 */
struct hit_slot {
	__u64 hits;
	__u64 foreign;
	__u32 tgid;		/* the CPU's worker; -1: none */
	__u32 seen;		/* the test faults' own count */
	struct overhead_config cfg;
};

#endif /* __TEST_OVERHEAD_H */
