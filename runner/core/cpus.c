// SPDX-License-Identifier: GPL-2.0
/*
 * Lists of CPUs: "0,2-3" parsed, checked against the CPUs allowed, and
 * written back. A leaf: the option parser, the kernel probes, the report
 * and the profile all use them, and none of them is needed here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"

/* the CPU numbers a list may name: the kernel's NR_CPUS limit */
#define MAX_CPU_NUMBER	8191

bool cpu_list_has(const struct cpu_list *cpus, int cpu)
{
	int i;

	for (i = 0; i < cpus->nr; i++)
		if (cpus->cpu[i] == cpu)
			return true;
	return false;
}

void cpu_list_free(struct cpu_list *cpus)
{
	free(cpus->cpu);
	cpus->cpu = NULL;
	cpus->nr = 0;
}

static int cpu_list_add(struct cpu_list *out, int *cap, __u64 cpu)
{
	int *grown;

	if (cpu_list_has(out, cpu))
		return -EINVAL;
	if (out->nr == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		grown = realloc(out->cpu, *cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		out->cpu = grown;
	}
	out->cpu[out->nr++] = cpu;
	return 0;
}

int parse_cpu_ranges(const char *s, struct cpu_list *out)
{
	char *buf, *tok, *save = NULL, *dash;
	int err = 0, cap = 0;
	__u64 lo, hi;

	out->nr = 0;
	out->cpu = NULL;
	buf = strdup(s);
	if (!buf)
		return -ENOMEM;
	/* the kernel's lists end in a newline; nothing else may */
	if (*buf && buf[strlen(buf) - 1] == '\n')
		buf[strlen(buf) - 1] = '\0';
	/* strtok_r would skip empty items: "0,,1" is a typo, not a list */
	if (!*buf || strchr(buf, '\n') || strstr(buf, ",,") ||
	    buf[0] == ',' || buf[strlen(buf) - 1] == ',')
		err = -EINVAL;
	for (tok = err ? NULL : strtok_r(buf, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		err = parse_u64(tok, 0, MAX_CPU_NUMBER, &lo);
		hi = lo;
		if (!err && dash)
			err = parse_u64(dash + 1, lo, MAX_CPU_NUMBER, &hi);
		for (; !err && lo <= hi; lo++)
			err = cpu_list_add(out, &cap, lo);
	}
	if (!err && !out->nr)
		err = -EINVAL;
	free(buf);
	if (err)
		cpu_list_free(out);
	return err ? (err == -ERANGE ? -EINVAL : err) : 0;
}

int parse_cpus(const char *s, const struct cpu_list *allowed,
	       struct cpu_list *out)
{
	__u64 n;
	int i, err;

	if (!strpbrk(s, ",-")) {
		/* a bare number is a count, as upstream's num_cpu */
		if (parse_u64(s, 1, allowed->nr, &n))
			return -ERANGE;
		out->cpu = malloc(n * sizeof(*out->cpu));
		if (!out->cpu)
			return -ENOMEM;
		out->nr = n;
		memcpy(out->cpu, allowed->cpu, n * sizeof(*out->cpu));
		return 0;
	}
	err = parse_cpu_ranges(s, out);
	if (err)
		return err;
	for (i = 0; i < out->nr; i++) {
		if (!cpu_list_has(allowed, out->cpu[i])) {
			cpu_list_free(out);
			return -ERANGE;
		}
	}
	return 0;
}

void format_cpus(const struct cpu_list *cpus, char *buf, size_t len)
{
	size_t off = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < cpus->nr && off < len; i = j) {
		for (j = i + 1; j < cpus->nr &&
		     cpus->cpu[j] == cpus->cpu[j - 1] + 1; j++)
			;
		off += snprintf(buf + off, len - off, "%s%d", i ? "," : "",
				cpus->cpu[i]);
		if (j - 1 > i && off < len)
			off += snprintf(buf + off, len - off, "-%d",
					cpus->cpu[j - 1]);
	}
}
