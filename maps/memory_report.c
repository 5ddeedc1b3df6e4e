// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test --memory's output: a table of bytes per element, by the
 * memory cgroup and by memlock, beside the elements' own bytes, and the
 * same in each row's JSON.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "maps/map_perf.h"
#include "maps/memory.h"

static double per(__u64 bytes, __u32 n)
{
	return n ? (double)bytes / n : 0;
}

/* a row that measured: ok, or FAILED by its check with its bytes */
static bool measured(const struct mem_row *m)
{
	return m->total || m->memlock;
}

/* bytes per element: a figure, of an ok row alone (null otherwise) */
static json_t *per_json(const struct bench_row *row, __u64 bytes, __u32 n)
{
	return json_number(row->out.status == ST_OK ? per(bytes, n) : NAN);
}

static void print_memory_row(const struct bench_row *row)
{
	const struct mem_row *m = row->priv;
	char churn[64] = "-";
	const char *note;

	printf("  %-18s %8u %-7s ", m->kind->name, m->entries,
	       status_name(row->out.status));
	/* a figure for an ok row alone: a FAILED one says why */
	if (!measured(m) || row->out.status != ST_OK) {
		printf("%s\n", row->out.reason);
		return;
	}
	if (m->churned)
		snprintf(churn, sizeof(churn), "%.1f (%+.1f%%)",
			 per(m->churn_total, m->entries),
			 m->total ? 100.0 * ((double)m->churn_total - m->total) /
				    m->total : 0);
	note = m->total < m->payload ? "per-CPU values not all charged" : "";
	printf("%10.1f %10.1f %10.1f %10.1f %10.1f  %s%s%s\n",
	       per(m->total, m->entries), per(m->memlock, m->entries),
	       per(m->payload, m->entries), m->created / 1024.0,
	       ((double)m->total - m->created) / 1024.0, churn,
	       note[0] ? "  " : "", note);
}

/* the memory cgroup the rows were measured in: the first row's */
static const struct memcg *first_memcg(const struct bench_rows *rows)
{
	int i;

	for (i = 0; i < rows->nr; i++) {
		const struct mem_row *m = rows->row[i].priv;

		if (m->cg.version)
			return &m->cg;
	}
	return NULL;
}

void print_memory_summary(const struct run_settings *rs,
			  const struct bench_rows *rows)
{
	const struct memcg *cg = first_memcg(rows);
	struct utsname uts;
	int i;

	uname(&uts);
	printf("\nMemory: maps made in a memory cgroup of their own (%s%s), filled by\n"
	       "bpf_map_update_elem, charge read with the per-CPU stock drained; churn:\n"
	       "every key deleted and added again %d times, read once settled.\n"
	       "%skernel %s, libbpf %s\n",
	       cg ? "cgroup " : "none", cg ? memcg_version_name(cg) : "",
	       MEM_CHURN_CYCLES,
	       run_fault(rs)->kind ? "UNVERIFIED (a test fault is injected), " : "",
	       uts.release, libbpf_version_text());
	printf("  %-18s %8s %-7s %10s %10s %10s %10s %10s  %s\n", "map", "entries",
	       "status", "memcg B/el", "memlock", "payload", "empty KiB",
	       "fill KiB", "churn B/el");
	for (i = 0; i < rows->nr; i++)
		if (rows->row[i].out.status != ST_SKIPPED)
			print_memory_row(&rows->row[i]);
}

void json_memory_row(const struct bench_row *row, json_t *o)
{
	const struct mem_row *m = row->priv;
	json_t *mem;

	json_object_set_new(o, "unit", json_string("bytes/element"));
	/* a map made and filled from user space: no program, no attach */
	json_object_set_new(o, "attach_method", json_null());
	if (row->out.status == ST_OK)
		json_object_set_new(o, "reason", json_null());
	if (!measured(m)) {
		json_object_set_new(o, "memory", json_null());
		return;
	}
	mem = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:i, s:i, s:i, s:b}",
		"cgroup", memcg_version_name(&m->cg),
		"cgroup_path", m->cg.path,
		"max_entries", (json_int_t)m->max_entries,
		"elements", (json_int_t)m->entries,
		"filled", (json_int_t)m->filled,
		"memcg_bytes", (json_int_t)m->total,
		"created_bytes", (json_int_t)m->created,
		"memlock_bytes", (json_int_t)m->memlock,
		"payload_bytes", (json_int_t)m->payload,
		"check_bytes", (json_int_t)m->bound,
		"bytes_per_element", per_json(row, m->total, m->entries),
		"memlock_per_element", per_json(row, m->memlock, m->entries),
		"payload_per_element", per_json(row, m->payload, m->entries),
		"key_size", (int)m->kind->key_size,
		"value_size", (int)m->kind->value_size,
		"map_flags", (int)m->kind->flags,
		"percpu", m->kind->percpu);
	json_object_set_new(mem, "churn", !m->churned ? json_null() :
		json_pack("{s:i, s:I, s:I, s:I, s:o, s:f}",
			  "cycles", MEM_CHURN_CYCLES,
			  "deleted", (json_int_t)m->churn_deleted,
			  "added", (json_int_t)m->churn_added,
			  "memcg_bytes", (json_int_t)m->churn_total,
			  "bytes_per_element", per_json(row, m->churn_total,
							m->entries),
			  "settle_ms", m->churn_settle_ms));
	json_object_set_new(o, "memory", mem);
}

void list_memory_row(const struct bench_row *row, json_t *o)
{
	const struct mem_row *m = row->priv;

	json_object_set_new(o, "map_type", json_string(
		libbpf_bpf_map_type_str(m->kind->type)));
	json_object_set_new(o, "help", json_string(m->kind->help));
}

/* --list: the kinds --memory takes, for README's table */
void list_memory_doc(json_t *root)
{
	json_t *a = json_array();
	int k;

	for (k = 0; k < NR_MEM_KINDS; k++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:b}",
			"name", mem_kinds[k].name, "help", mem_kinds[k].help,
			"churn", mem_kinds[k].churn));
	json_object_set_new(root, "memory_kinds", a);
}
