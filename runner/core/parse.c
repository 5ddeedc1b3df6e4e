// SPDX-License-Identifier: GPL-2.0
/*
 * The parsing of what users type: numbers, fractions and lists of names
 * or values. Pure functions (but parse_name_list()'s one line on a name
 * it does not know), kept apart from the option parser so that the
 * kernel probes, the families and the unit tests can call them without
 * linking the command line.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"

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
