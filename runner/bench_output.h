/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files results are written to (--json FILE, for a run, --list and
 * --compare): bench_output.c. Written whole or not at all: into a
 * temporary file beside the target, renamed over it once complete.
 */
#ifndef __BENCH_OUTPUT_H
#define __BENCH_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct output_file {
	const char *path;	/* as given; "-": stdout */
	char *target;		/* what the rename replaces */
	char *tmp;		/* the temporary file; NULL: written in place */
	FILE *f;		/* where to write; NULL when closed */
	bool borrowed;		/* @f is stdout (or the caller's): not closed */
};

/*
 * Opens @path for writing: "-" is stdout; a regular file, or none yet,
 * gets a temporary file ".NAME.tmp.PID" beside it (the same mode and
 * owner as the file it replaces), so that a bad path costs no run and a
 * run that does not complete leaves the last results as they were; a
 * link's target is what is replaced (a dangling one's made); a character
 * device or a FIFO with a reader is written in place; a directory, a
 * FIFO nobody reads, anything else is refused. Removes the temporary
 * files of runs that were killed before they could. 0, or -errno after
 * one line.
 */
int output_open(struct output_file *o, const char *path);
/*
 * Everything written to @o is in place: flushed, closed (each checked)
 * and renamed over the target. 0, or -errno after one line naming the
 * file; the temporary file is gone either way.
 */
int output_commit(struct output_file *o);
/* @o closed, its temporary file removed: the target stays as it was */
void output_discard(struct output_file *o);
/* @o writes to @f, a stream of the caller's ("-": stdout), never closed */
void output_borrow(struct output_file *o, FILE *f);

#endif /* __BENCH_OUTPUT_H */
