// SPDX-License-Identifier: GPL-2.0
/*
 * What upstream's "./test_overhead 1" does, for tools/first-run.sh to
 * time beside ours: the base task_rename test alone, no BPF at all.
 * Upstream forks 8 workers whatever the CPU count, asks each for CPU i
 * (where there is no CPU i the request fails and the worker floats), and
 * each renames itself a million times through /proc/self/comm, then
 * prints its events per second.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#define WORKERS		8
#define RENAMES		1000000

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int rename_loop(int cpu)
{
	const char name[] = "test\n";
	long long t0;
	cpu_set_t set;
	int fd, i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	fd = open("/proc/self/comm", O_WRONLY | O_TRUNC);
	if (fd < 0)
		return 1;
	t0 = now_ns();
	for (i = 0; i < RENAMES; i++)
		if (write(fd, name, sizeof(name)) < 0)
			return 1;
	printf("task_rename:%d: %lld events per sec\n", cpu,
	       RENAMES * 1000000000LL / (now_ns() - t0));
	return 0;
}

int main(void)
{
	int i, status, err = 0;

	printf("BASE\n");
	fflush(stdout);
	for (i = 0; i < WORKERS; i++)
		if (fork() == 0)
			exit(rename_loop(i));
	for (i = 0; i < WORKERS; i++)
		if (wait(&status) < 0 || status)
			err = 1;
	return err;
}
