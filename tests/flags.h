/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test_flags bits a program's table entries claim: each must be one
 * bit, and no two entries may claim the same one. Shared by the unit
 * tests of both programs' tables.
 */
#ifndef __TESTS_FLAGS_H
#define __TESTS_FLAGS_H

#include <stdio.h>
#include <linux/types.h>

struct flag_claim {
	__u64 bit;
	const char *kind;	/* "mode", "event", "test" */
	const char *name;	/* its name in the table */
	const char *which;	/* "" or, for one of a pair, " (fib)" */
};

/* "ok"/"not ok" lines for @claims: one bit each, no bit twice; failures */
static int check_claims(const char *prog, const struct flag_claim *c, int nr)
{
	int i, j, failed = 0;

	for (i = 0; i < nr; i++) {
		if (!c[i].bit || (c[i].bit & (c[i].bit - 1))) {
			printf("not ok - %s: %s %s%s claims 0x%llx, not one bit\n",
			       prog, c[i].kind, c[i].name, c[i].which,
			       (unsigned long long)c[i].bit);
			failed++;
		}
		for (j = 0; j < i; j++) {
			if (c[i].bit != c[j].bit)
				continue;
			printf("not ok - %s: %s %s%s and %s %s%s both claim test_flags bit 0x%llx\n",
			       prog, c[j].kind, c[j].name, c[j].which,
			       c[i].kind, c[i].name, c[i].which,
			       (unsigned long long)c[i].bit);
			failed++;
		}
	}
	if (!failed)
		printf("ok - %s: %d test_flags bits, one bit each, none claimed twice\n",
		       prog, nr);
	return failed;
}

/*
 * "ok"/"not ok" for a table indexed by an id enum (designated entries):
 * every id has its entry, named. The compiler sees only the last one
 * missing (the tables' _Static_assert); a hole elsewhere is zeroes.
 */
static int check_named(const char *prog, const char *kind,
		       const char *const *names, int nr)
{
	int i, failed = 0;

	for (i = 0; i < nr; i++) {
		if (names[i])
			continue;
		printf("not ok - %s: %s id %d has no entry in its table\n",
		       prog, kind, i);
		failed++;
	}
	if (!failed)
		printf("ok - %s: each of the %d %s ids has its entry\n", prog,
		       nr, kind);
	return failed;
}

#endif /* __TESTS_FLAGS_H */
