/* SPDX-License-Identifier: GPL-2.0 */
/* The runner's writers of results and tables: see bench_report.c. */
#ifndef __BENCH_REPORT_H
#define __BENCH_REPORT_H

#include <stdio.h>
#include "bench.h"

/* the run got the lock: the context's run_ns counts from now */
void report_run_started(void);
/* the --json results file of a run */
int write_results(const struct bench_family *fam,
		  const struct bench_rows *rows, FILE *f);
/*
 * --ktap: KTAP version 1, one test point per row with its figure or
 * reason, and kselftest's "# Totals" line
 */
void write_ktap(const struct bench_family *fam,
		const struct bench_rows *rows, FILE *f);
/* "raw_tp task_rename [progs=4]": a row as KTAP and --profile name it */
void format_row_name(const struct bench_row *row, char *buf, size_t len);
/* --list's tables as JSON */
int write_list(const struct bench_family *fam, const struct bench_rows *all,
	       FILE *f);

struct json_t;
struct attach_kind;
/* a double; null where JSON has no spelling (NAN, infinities) */
struct json_t *json_number(double v);
/* a string, made printable where it is no UTF-8; null for NULL */
struct json_t *json_text(const char *s);
/*
 * What --list says of a row's attach kind: the config options it needs
 * (and @extra_need), what the libbpf built against lacks of it, why a
 * kernel with that config may still lack it, and whether it is a BPF
 * trampoline, which a kernel may refuse at load whatever its config.
 */
void list_kind(struct json_t *o, const struct attach_kind *kind,
	       const char *extra_need);
/* --list's tables as text */
void print_list(const struct bench_family *fam, const struct bench_rows *all);
/*
 * The libbpf these binaries run, "1.4", for a run's header; a dynamic
 * build meeting another libbpf than its headers' says both.
 */
const char *libbpf_version_text(void);

/* @reason without @mode's name where it names it: the group's key */
void skip_reason(const char *reason, const char *mode, char *buf,
		 size_t len);
/*
 * One updating line on stderr when it is a terminal: row @done of @total
 * in @round (-1: loading it), its unit @unit
 */
void progress(int done, int total, const struct bench_row *row, int round,
	      int unit);
void progress_end(void);

/* the median of @n times (attach, detach, settle), NAN without any */
double row_median(const double *x, int n);

#endif /* __BENCH_REPORT_H */
