// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's rows of bpf() calls: the map made in user space, the
 * workers' counts shared with them, and their collection.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include "maps/map_perf.h"

int open_sys(const struct run_settings *rs, struct bench_row *row,
	     struct outcome *out)
{
	struct map_row *r = row->priv;
	const struct map_test *t = r->test;
	__u32 key_size = t->sys_type == BPF_MAP_TYPE_HASH && r->set.key_size ?
			 r->set.key_size : sizeof(__u32);
	size_t len = sizeof(struct sys_slot) * nr_cpus_possible();
	struct bpf_map_info info = {};
	__u32 info_len = sizeof(info);
	void *slots;

	r->entries = r->set.entries ?: SYS_ENTRIES;
	if ((t->sys_op == SYS_UPDATE || t->sys_op == SYS_DELETE) &&
	    r->entries < (__u32)row->cpus->nr) {
		outcome_set(out, ST_FAILED,
			    "%u entries for %d workers: each writer needs keys of its own",
			    r->entries, row->cpus->nr);
		return -EINVAL;
	}
	r->sys_fd = sys_map_create(t->sys_type, t->sys_op, key_size,
				   r->entries, run_fault(rs)->kind, out);
	if (r->sys_fd < 0)
		return -1;
	/* the workers' counts: shared with them, since they are forked */
	slots = mmap(NULL, len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED ||
	    bpf_obj_get_info_by_fd(r->sys_fd, &info, &info_len)) {
		outcome_set(out, ST_FAILED, "setting up the workers' map: %s",
			    strerror(errno));
		if (slots != MAP_FAILED)
			munmap(slots, len);
		return -1;
	}
	r->sys = (struct sys_ctx){
		.map_id = info.id, .op = t->sys_op, .entries = r->entries,
		.key_size = key_size, .cpus = row->cpus, .slots = slots,
		.fault = prog_fault(rs, 0, 1), .fault_cpu = run_fault(rs)->cpu,
	};
	return 0;
}

void collect_sys(struct map_row *r, struct sample *s)
{
	int cpu;

	memset(&r->c, 0, sizeof(r->c));
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		sample_hits(s, 0)[cpu] = r->sys.slots[cpu].ok;
		r->c.calls += r->sys.slots[cpu].ok;
		r->c.update_fails += r->sys.slots[cpu].bad;
	}
}

void close_sys(struct map_row *r)
{
	if (r->sys.slots)
		munmap(r->sys.slots,
		       sizeof(struct sys_slot) * nr_cpus_possible());
	if (r->sys_fd >= 0)
		close(r->sys_fd);
	r->sys.slots = NULL;
	r->sys_fd = -1;
}
