// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing what users type: numbers, CPU lists, name lists. Pure functions
 * with no messages of their own, so the unit tests can call them.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_runner.h"

/* the CPU numbers a list may name: the kernel's NR_CPUS limit */
#define MAX_CPU_NUMBER	8191

int parse_u64(const char *s, __u64 min, __u64 max, __u64 *out)
{
	const char *digits = "0123456789";
	unsigned long long v;
	int base = 10;
	char *end;

	if (!s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		digits = "0123456789abcdefABCDEF";
		s += 2;
	}
	/* digits only: strtoull would take spaces, signs and a second 0x */
	if (!*s || s[strspn(s, digits)])
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	/* decimal only: strtod would take hex, "inf", "nan" and spaces */
	if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '.') ||
	    s[strspn(s, "0123456789.eE+-")])
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || !(v >= min && v <= max))
		return -ERANGE;
	*out = v;
	return 0;
}

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

int name_index(const char *name, const char *const *names, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

int parse_name_list(const char *list, const char *what,
		    const char *const *names, int nr, bool *mask)
{
	char *buf, *tok, *save = NULL;
	int i, err = 0;

	buf = strdup(list);
	if (!buf)
		return -1;
	memset(mask, 0, nr * sizeof(*mask));
	for (tok = strtok_r(buf, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		i = name_index(tok, names, nr);
		if (i < 0) {
			pr_err("unknown %s '%s' (see --help)", what,
			       printable(tok));
			err = -1;
		} else {
			mask[i] = true;
		}
	}
	for (i = 0; !err && i < nr && !mask[i]; i++)
		;
	if (!err && i == nr) {
		pr_err("empty %s list", what);
		err = -1;
	}
	free(buf);
	return err;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return (x > y) - (x < y);
}

int parse_u64_list(const char *s, __u64 min, __u64 max, __u64 *out,
		   int max_nr, int *nr)
{
	char *buf, *tok, *save = NULL, *dash;
	__u64 lo, hi;
	int i, err = 0;

	*nr = 0;
	buf = strdup(s);
	if (!buf)
		return -ENOMEM;
	for (tok = strtok_r(buf, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		err = parse_u64(tok, min, max, &lo);
		hi = lo;
		if (!err && dash)
			err = parse_u64(dash + 1, lo, max, &hi);
		for (; !err && lo <= hi; lo++) {
			if (*nr == max_nr)
				err = -E2BIG;
			else
				out[(*nr)++] = lo;
			if (lo == hi)
				break;	/* hi may be the largest __u64 */
		}
	}
	free(buf);
	if (!err && !*nr)
		err = -EINVAL;
	if (err)
		return err;
	qsort(out, *nr, sizeof(*out), cmp_u64);
	for (i = 1; i < *nr; i++)
		if (out[i] == out[i - 1])
			return -EINVAL;
	return 0;
}
