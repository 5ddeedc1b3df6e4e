// SPDX-License-Identifier: GPL-2.0
/* BENCH_TEST_FAULT read into the run's settings, in the test build alone */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "core/core.h"

#ifdef BENCH_TESTING
#define FAULT_NAME(kind, nr, name)	{ name, BENCH_FAULT_##kind },
static const struct {
	const char *name;	/* ending in '=': a CPU follows */
	enum test_fault_kind kind;
} fault_names[] = {
	BENCH_FAULTS(FAULT_NAME)
};
#undef FAULT_NAME

/* whether @s names fault @i, and its CPU into *@cpu where it takes one */
static bool fault_named(const char *s, size_t i, __u64 *cpu)
{
	const char *name = fault_names[i].name;
	size_t n = strlen(name);

	if (name[n - 1] != '=')
		return !strcmp(s, name);
	return !strncmp(s, name, n) && !parse_u64(s + n, 0, 8191, cpu);
}

/* "miss-odd, miss-cpu=N, ... or miss-rare": the names, for an error */
static void fault_list(char *buf, size_t len)
{
	size_t i, nr = ARRAY_SIZE(fault_names), off = 0;
	const char *name;

	for (i = 0; i < nr && off < len; i++) {
		name = fault_names[i].name;
		off += snprintf(buf + off, len - off, "%s%s%s",
				!i ? "" : i + 1 < nr ? ", " : " or ", name,
				name[strlen(name) - 1] == '=' ? "N" : "");
	}
}

int read_fault(struct run_settings *rs)
{
	struct test_fault *fault = &rs->fault;
	const char *s = getenv("BENCH_TEST_FAULT");
	char names[256];
	__u64 cpu = 0;
	size_t i;

	if (!s || !*s)
		return 0;
	fault->name = s;
	for (i = 0; i < ARRAY_SIZE(fault_names); i++) {
		if (fault_named(s, i, &cpu)) {
			fault->kind = fault_names[i].kind;
			fault->cpu = cpu;
		}
	}
	if (fault->kind == BENCH_FAULT_NONE) {
		fault_list(names, sizeof(names));
		pr_err("BENCH_TEST_FAULT='%s': %s", printable(s), names);
		return -1;
	}
	pr_note("test fault '%s' injected: no figure of this run is to be trusted",
		s);
	return 0;
}
#else
/* what make builds: no test faults, whatever the environment holds */
int read_fault(struct run_settings *rs)
{
	return 0;
}
#endif
