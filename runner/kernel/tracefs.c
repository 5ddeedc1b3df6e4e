// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs: where its files are (/sys/kernel/tracing, or under debugfs),
 * whether it is mounted, and mounting it when it is not: tracepoints,
 * kprobes' lists and available_filter_functions are read there.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "kernel/kernel.h"
#include "core/core.h"

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

bool tracefs_path(const char *rel, char *buf, size_t len)
{
	int err = ENOENT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tracefs_dirs); i++) {
		snprintf(buf, len, "%s/%s", tracefs_dirs[i], rel);
		if (exists(buf))
			return true;
		if (errno == EACCES)
			err = EACCES;
	}
	errno = err;
	return false;
}

static bool is_tracefs(const char *path)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == TRACEFS_MAGIC;
}

bool tracefs_mounted(void)
{
	return is_tracefs("/sys/kernel/tracing") ||
	       is_tracefs("/sys/kernel/debug/tracing");
}

int ensure_tracefs(void)
{
	const char *path = "/sys/kernel/tracing";

	if (tracefs_mounted())
		return 0;
	if (mount("nodev", path, "tracefs", 0, NULL)) {
		/* not fatal: only tracepoint modes need it, and they say so */
		pr_note("tracefs is not mounted and mounting it at %s failed: %s",
			path, strerror(errno));
		return -errno;
	}
	pr_note("mounted tracefs at %s", path);
	return 0;
}
