/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map_perf_test --memory: the memory the kernel charges for a map filled
 * to N elements, read from a memory cgroup the map is made in, beside the
 * kernel's own estimate (memlock in the map's fdinfo). No workers, no
 * samples: each row's open() is its measurement (maps/memory.c), the
 * cgroup is maps/memcg.c's, the output maps/memory_report.c's.
 */
#ifndef __MAPS_MEMORY_H
#define __MAPS_MEMORY_H

#include <limits.h>
#include <stdbool.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <jansson.h>
#include "bench.h"
#include "maps/map_perf.h"

/* sizes when --entries does not say: the 1k and 64k */
#define MEM_DEFAULT_SIZES	{ 1000, 65536 }
/* delete-all and add-all cycles of a churn, as htab-mem's churn */
#define MEM_CHURN_CYCLES	10
/* task storage: a task per element, forked for the row, at most this */
#define MEM_MAX_TASKS		1024

/* ---- a memory cgroup of the row's own (maps/memcg.c) ---- */

struct memcg {
	int version;		/* 1 or 2; 0: none made */
	char path[PATH_MAX];	/* the row's cgroup directory */
	char parent[PATH_MAX];	/* its parent's */
	char home[PATH_MAX];	/* ours, in the same hierarchy */
	bool made;		/* it is there: memcg_remove() removes it */
	char mnt[PATH_MAX];	/* a cgroup2 mount of our own, or "" */
	bool gave_memory;	/* we wrote +memory to its parent's controllers */
};

/*
 * A new empty memory cgroup for a row, named after @name and the pid:
 * cgroup v1's memory controller where it is mounted, else cgroup2's
 * (mounted in a directory of our own when nowhere, in a mount namespace
 * of the run's own). Skipped, with the reason, where neither works. The
 * run's first also removes what killed runs left there, and says so.
 */
int memcg_create(struct memcg *cg, const char *name, struct outcome *out);
/* moves the calling process into @cg */
int memcg_enter(const struct memcg *cg);
/*
 * The bytes charged to @cg, its CPUs' precharged stock returned first
 * (v1: memory.force_empty; v2: memory.high dropped and restored), so
 * that the figure is what is charged and not up to 64 pages per CPU more.
 */
int memcg_usage(const struct memcg *cg, __u64 *bytes);
/* removes @cg (and our cgroup2 mount), keeping its path; safe twice */
void memcg_remove(struct memcg *cg);
/*
 * The same from a task inside @cg whose run died: it moves out to the
 * run's own cgroup first, and says nothing
 */
void memcg_abandon(struct memcg *cg);
/* "v1" or "v2", for the output */
const char *memcg_version_name(const struct memcg *cg);

/* ---- the kinds and rows (maps/memory.c) ---- */

/* what the elements themselves take at least, the check's bound */
enum mem_payload {
	PAYLOAD_KEY_VALUE,	/* key and value (percpu: value per CPU) */
	PAYLOAD_VALUE,		/* the value alone: the key is an index */
	PAYLOAD_BLOOM_BITS,	/* max_entries * 7 / 5 hashes' bits */
	PAYLOAD_RECORD,		/* a record and its 8-byte header */
};

/* how the elements get there */
enum mem_fill {
	FILL_KEYS,		/* keys 0 .. N - 1 by update */
	FILL_LPM,		/* N /32 prefixes */
	FILL_PUSH,		/* N values pushed (queue, stack, bloom) */
	FILL_NONE,		/* allocated whole at creation (ring buffer) */
	FILL_TASKS,		/* a value on each of N tasks forked for it */
};

struct mem_kind {
	const char *name;	/* --memory's name, and the row's */
	const char *help;
	enum bpf_map_type type;
	__u32 key_size, value_size, flags;
	bool percpu;		/* a value per possible CPU */
	enum mem_fill fill;
	enum mem_payload payload;
	bool churn;		/* the keys can be deleted and added again */
};

extern const struct mem_kind mem_kinds[NR_MEM_KINDS];

/* what a row measured */
struct mem_row {
	const struct mem_kind *kind;
	__u32 entries;		/* N: max_entries, and the elements filled */
	__u32 max_entries;	/* the map's (ring buffer: its bytes) */
	__u32 filled;		/* elements in it after the fill */
	struct memcg cg;
	__u64 base;		/* the empty cgroup's charge */
	__u64 created;		/* charged by the empty map */
	__u64 total;		/* charged by the map filled */
	__u64 memlock;		/* fdinfo's memlock: the kernel's estimate */
	__u64 payload;		/* the elements' own bytes at least */
	__u64 bound;		/* the check's: a percpu value once */
	bool churned;		/* every delete and add checked, done */
	__u64 churn_deleted;	/* elements deleted in all its cycles */
	__u64 churn_added;	/* and added again */
	__u64 churn_total;	/* charged after the churn, settled */
	double churn_settle_ms;	/* how long it took to settle */
};

bool memory_rows_possible(const struct map_options *opt);
int parse_memory_kinds(struct map_options *opt, const char *arg);
int add_memory_rows(const struct run_settings *rs, struct bench_rows *rows,
		    bool listing);
int open_memory(const struct run_settings *rs, struct bench_row *row,
		struct outcome *out);

/* ---- output (maps/memory_report.c) ---- */

void print_memory_summary(const struct run_settings *rs,
			  const struct bench_rows *rows);
void json_memory_row(const struct bench_row *row, json_t *o);
void list_memory_row(const struct bench_row *row, json_t *o);
void list_memory_doc(json_t *root);

#endif /* __MAPS_MEMORY_H */
