// SPDX-License-Identifier: GPL-2.0
/* Small helpers the runner, both programs and the tests share. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench_util.h"

int for_each_line(const char *path, line_fn fn, void *ctx)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		ret = fn(line, ctx);
	}
	/* getline's -1 is the end, a read error or no memory for the line */
	if (!ret && !feof(f))
		ret = -EIO;
	free(line);
	fclose(f);
	return ret;
}
