// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's rows' programs: the test's object opened for the
 * row's method, its one map created as the row sizes it, its helpers
 * probed, loaded; and a buffer's consumer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "maps/map_perf.h"

/*
 * The template of a map of maps' inner maps, as ours: libbpf 1.1 cannot
 * resize its own (bpf_map__set_max_entries() on it crashes), and the fill
 * needs the definition after load, when libbpf has dropped its template.
 */
static int set_inner_template(struct bpf_map *outer, __u32 entries,
			      struct map_def *def, struct outcome *out)
{
	struct bpf_map *tmpl = bpf_map__inner_map(outer);
	LIBBPF_OPTS(bpf_map_create_opts, mopts);
	int fd, err;

	*def = (struct map_def) {
		.type = bpf_map__type(tmpl),
		.key_size = bpf_map__key_size(tmpl),
		.value_size = bpf_map__value_size(tmpl),
		.max_entries = entries ?: bpf_map__max_entries(tmpl),
		.flags = bpf_map__map_flags(tmpl),
		.tmpl_fd = -1,
	};
	mopts.map_flags = def->flags;
	fd = bpf_map_create(def->type, "inner_template", def->key_size,
			    def->value_size, def->max_entries, &mopts);
	if (fd < 0) {
		err = -errno;
		outcome_set(out, ST_FAILED, "creating %s's inner map: %s",
			    bpf_map__name(outer), strerror(-err));
		return err;
	}
	err = bpf_map__set_inner_map_fd(outer, fd);
	if (err) {
		close(fd);
		outcome_set(out, ST_FAILED, "cannot set %s's inner map: %s",
			    bpf_map__name(outer), strerror(-err));
		return err;
	}
	def->tmpl_fd = fd;
	return 0;
}

/*
 * Only the test's own map is created, resized as asked, once the kernel
 * is known to support its type and flags.
 */
static int setup_maps(struct map_row *r, struct outcome *out)
{
	struct bpf_map *map = skel_map(r->skel, r->test->map);
	__u32 entries = r->set.entries;
	int t, err;

	for (t = 0; t < NR_TESTS; t++)
		if (tests[t].kind->shape != SHAPE_SYSCALL &&
		    tests[t].map != r->test->map)
			bpf_map__set_autocreate(skel_map(r->skel, tests[t].map),
						false);
	/* the buffers only the programs that build wide keys or records use */
	bpf_map__set_autocreate(r->skel->maps.key_bufs,
				r->test->takes & TAKES_KEY_SIZE);
	bpf_map__set_autocreate(r->skel->maps.record_bufs,
				r->test->record_bufs);
	err = probe_map(map, out);
	if (err)
		return err;
	/* a map of maps: its inner maps are what grows */
	if (bpf_map__inner_map(map))
		return set_inner_template(map, entries, &r->inner, out);
	if ((entries && bpf_map__set_max_entries(map, entries)) ||
	    (r->set.key_size && bpf_map__set_key_size(map, r->set.key_size))) {
		outcome_set(out, ST_FAILED, "cannot resize %s",
			    bpf_map__name(map));
		return -EINVAL;
	}
	return 0;
}

/*
 * Can the method's program type call the test's helpers? Asked of the
 * kernel before load; a type it cannot be asked about (fentry's) is left
 * to the load.
 */
static int probe_helpers(struct map_row *r, struct outcome *out)
{
	enum bpf_prog_type type = bpf_program__type(r->prog);
	const struct helper *h;

	for (h = r->test->helpers; h < r->test->helpers + 3 && h->name; h++) {
		if (libbpf_probe_bpf_helper(type, h->id, NULL) != 0)
			continue;
		outcome_set(out, ST_SKIPPED,
			    "kernel offers no %s() to %s programs", h->name,
			    libbpf_bpf_prog_type_str(type) ?: "these");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* the BPF program's fault numbers are the runner's: map_perf_test.h */
_Static_assert((int)MAP_FAULT_MISS_ODD == (int)BENCH_FAULT_MISS_ODD &&
	       (int)MAP_FAULT_MISS_CPU == (int)BENCH_FAULT_MISS_CPU &&
	       (int)MAP_FAULT_UNCOUNTED == (int)BENCH_FAULT_UNCOUNTED &&
	       (int)MAP_FAULT_MISS_ONE == (int)BENCH_FAULT_MISS_ONE &&
	       (int)MAP_FAULT_WRONG_KEY == (int)BENCH_FAULT_WRONG_KEY &&
	       (int)MAP_FAULT_FILL_ALL == (int)BENCH_FAULT_FILL_ALL &&
	       (int)MAP_FAULT_DROP_ALL == (int)BENCH_FAULT_DROP_ALL &&
	       (int)MAP_FAULT_EMPTY_MAP == (int)BENCH_FAULT_EMPTY_MAP &&
	       (int)MAP_FAULT_EXTRA_ODD == (int)BENCH_FAULT_EXTRA_ODD &&
	       (int)MAP_FAULT_WRONG_VALUE == (int)BENCH_FAULT_WRONG_VALUE &&
	       (int)MAP_FAULT_EXTRA_PUSH == (int)BENCH_FAULT_EXTRA_PUSH &&
	       (int)MAP_FAULT_SHORT_OPS == (int)BENCH_FAULT_SHORT_OPS,
	       "map_perf_test.h's faults are numbered as bench.h's");

static void configure(const struct run_settings *rs,
		      struct map_perf_config *cfg, const struct map_row *r)
{
	const struct map_test *t = r->test;
	bool initial = true;

	cfg->syscall_nr = t->nr;
	if (!pid_namespace(&cfg->pidns_dev, &cfg->pidns_ino, &initial))
		cfg->use_pidns = !initial;
	cfg->fault = prog_fault(rs, 0, 1);
	cfg->fault_cpu = run_fault(rs)->cpu;
	cfg->key_size = r->set.key_size;
	cfg->record_size = r->set.record_size;
	cfg->wakeup = r->set.wakeup;
	/* the bloom filter's known keys: as many as it is sized for */
	cfg->set_size = bpf_map__max_entries(r->skel->maps.bloom_map);
}

/*
 * CO-RE's target for a program with no relocations: a BTF of one int.
 * Where any program has relocations libbpf parses the kernel's BTF
 * (5.5 MB on 6.18) at every load, 7.6 ms of a 10-ms load, and a row
 * loads afresh for each session. NULL: the kernel's, as libbpf does.
 */
static const char *no_core_btf(void)
{
	static char path[32];
	static bool tried;
	const void *raw;
	struct btf *btf;
	__u32 size;
	int fd;

	if (tried)
		return path[0] ? path : NULL;
	tried = true;
	btf = btf__new_empty();
	if (!btf)
		return NULL;
	raw = btf__add_int(btf, "int", 4, BTF_INT_SIGNED) > 0 ?
	      btf__raw_data(btf, &size) : NULL;
	fd = raw ? memfd_create("map_perf_test-btf", MFD_CLOEXEC) : -1;
	if (fd >= 0 && write(fd, raw, size) == (ssize_t)size)
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* libbpf opens it by path: without /proc, the kernel's as before */
	if (path[0] && access(path, R_OK))
		path[0] = '\0';
	if (fd >= 0 && !path[0])
		close(fd);
	btf__free(btf);
	return path[0] ? path : NULL;
}

/*
 * opens the test's object for its method, sets it up, loads it, for
 * @row (NULL: -a auto's probe, before any row)
 */
int open_test(const struct run_settings *rs, const struct bench_row *row,
	      struct map_row *r, struct outcome *out)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	int err;

	if (!r->test->reads_regs)
		opts.btf_custom_path = no_core_btf();
	r->inner.tmpl_fd = -1;
	r->skel = map_perf_test_kern__open_opts(&opts);
	if (!r->skel) {
		outcome_set(out, ST_FAILED, "opening the BPF object: %s",
			    strerror(errno));
		return -errno;
	}
	r->prog = skel_prog(r->skel, r->test->prog[r->method - methods]);
	err = setup_maps(r, out);
	if (!err)
		err = probe_helpers(r, out);
	configure(rs, &r->skel->rodata->cfg, r);
	if (!err)
		err = attach_load(row, r->method->kind, r->skel->skeleton,
				  r->prog, &r->test->target, &r->hooked, out);
	/* loaded or not, the outer map has taken what it needs */
	if (r->inner.tmpl_fd >= 0)
		close(r->inner.tmpl_fd);
	r->inner.tmpl_fd = -1;
	return err;
}

int open_consumer(const struct run_settings *rs, struct map_row *r,
		  struct outcome *out)
{
	struct bpf_map *map = skel_map(r->skel, r->test->map);

	r->consumer = consumer_new(r->test->kind->shape == SHAPE_RINGBUF ?
				   CONSUME_RINGBUF : CONSUME_PERFBUF,
				   bpf_map__fd(map), r->test - tests,
				   r->set.record_size, r->set.wakeup,
				   run_fault(rs)->kind, out);
	return r->consumer ? 0 : -1;
}
