// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup's CPU quota: a cpu.max on this process's cgroup or any
 * above it that allows less CPU time than the run has workers throttles
 * them; said before the run, as the samples it disturbs are marked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/kernel.h"
#include "core/core.h"

#define CGROUP_PATH_LEN	4096

/* CPUs' worth of time cpu.max in @dir allows, or 0 for no limit */
static double cgroup_cpu_limit(const char *dir)
{
	char path[4200], quota[32];
	unsigned long long period;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cpu.max", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fscanf(f, "%31s %llu", quota, &period);
	fclose(f);
	if (n != 2 || !strcmp(quota, "max") || !period)
		return 0;
	return strtod(quota, NULL) / period;
}

void warn_cpu_quota(int nr_cpus)
{
	char dir[CGROUP_PATH_LEN], *slash;
	double limit, tightest = 0;

	if (self_cgroup(NULL, dir, sizeof(dir)))
		return;
	/* a quota anywhere above us applies as well */
	for (;;) {
		limit = cgroup_cpu_limit(dir);
		if (limit && (!tightest || limit < tightest))
			tightest = limit;
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	if (tightest && tightest < nr_cpus)
		pr_note("the cgroup's cpu.max allows %.2f CPUs of time for %d workers: throttled samples will be marked disturbed",
			tightest, nr_cpus);
}
