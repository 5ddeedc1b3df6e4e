// SPDX-License-Identifier: GPL-2.0
/*
 * The reference for `make bench`: the barest prctl(PR_SET_NAME) loop, one
 * pinned process per CPU, no runner at all. test_overhead's base mode
 * should come within a few percent of it.
 *
 *	bare_rename COUNT CPU...   prints the events/s of all CPUs together
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "../overhead/rename_names.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const char names[2][16] = RENAME_NAMES;
	long long count, i;
	double total = 0, rate;
	int fd[2], c;

	if (argc < 3 || (count = atoll(argv[1])) <= 0) {
		fprintf(stderr, "usage: bare_rename COUNT CPU...\n");
		return 2;
	}
	if (pipe(fd))
		return 1;
	for (c = 2; c < argc; c++) {
		if (fork() == 0) {
			cpu_set_t set;
			double start;

			CPU_ZERO(&set);
			CPU_SET(atoi(argv[c]), &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				_exit(1);
			start = now();
			for (i = 0; i < count; i++)
				prctl(PR_SET_NAME, names[i & 1]);
			rate = count / (now() - start);
			_exit(write(fd[1], &rate, sizeof(rate)) != sizeof(rate));
		}
	}
	close(fd[1]);
	while (read(fd[0], &rate, sizeof(rate)) == sizeof(rate))
		total += rate;
	while (wait(NULL) > 0)
		;
	printf("%.0f\n", total);
	return 0;
}
