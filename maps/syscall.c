// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's user-space map operations: no BPF program runs; each
 * worker's trigger is its own loop of bpf() calls on a map the parent
 * made and filled with keys 0 .. N - 1, each holding sys_value(key).
 * Each call is checked as it returns (a lookup must find the key's value,
 * a dump must bring back the whole map) and counted on the worker's CPU
 * in memory shared with the parent: those counts are what the runner
 * verifies per CPU, as it does a program's. After the sample the parent
 * compares the map's contents with what was put in.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "maps/kinds.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524	/* the kernel's own, not in libc's errno.h */
#endif

struct sys_worker {
	struct sys_ctx ctx;
	int fd;
	int cpu;
	struct sys_slot *slot;
	__u32 lo, hi;		/* the keys this worker writes */
	__u32 next;		/* the next key it uses */
	__u64 calls;		/* for the test fault */
	__u8 *key;		/* one key of key_size bytes */
	__u8 *keys;		/* batch: every key, then every value */
	__u64 *values;
	__u8 token[16];		/* batch position: a bucket or an index */
};

static void set_key(__u8 *key, __u32 key_size, __u32 k)
{
	memset(key, 0, key_size);
	memcpy(key, &k, sizeof(k));
}

/* what user space writes for key @k; the test fault wrong-value: another */
static __u64 written_value(enum test_fault_kind fault, __u32 k)
{
	return sys_value(k) + (fault == BENCH_FAULT_WRONG_VALUE ? 2 : 0);
}

/* the worker's place in its row: which keys are its own to write */
static int key_range(struct sys_worker *w)
{
	const struct cpu_list *cpus = w->ctx.cpus;
	int i;

	for (i = 0; i < cpus->nr && cpus->cpu[i] != w->cpu; i++)
		;
	if (i == cpus->nr)
		return -ESRCH;
	w->lo = (__u64)w->ctx.entries * i / cpus->nr;
	w->hi = (__u64)w->ctx.entries * (i + 1) / cpus->nr;
	w->next = w->lo;
	/* fewer keys than workers: writers would share keys */
	return w->lo < w->hi ? 0 : -EDOM;
}

static int batch_buffers(struct sys_worker *w)
{
	/* room for a few more than there are: a dump must end by itself */
	size_t n = w->ctx.entries + 8;
	__u32 i;

	w->keys = calloc(n, w->ctx.key_size);
	w->values = calloc(n, sizeof(*w->values));
	if (!w->keys || !w->values)
		return -ENOMEM;
	for (i = 0; i < w->ctx.entries; i++) {
		set_key(w->keys + (size_t)i * w->ctx.key_size,
			w->ctx.key_size, i);
		w->values[i] = written_value(w->ctx.fault, i);
	}
	return 0;
}

/* in the worker, pinned: the map by its id (the parent's fds are closed) */
int sys_setup(void **state)
{
	const struct sys_ctx *ctx = *state;
	struct sys_worker *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return -ENOMEM;
	w->ctx = *ctx;
	w->cpu = sched_getcpu();
	w->slot = &ctx->slots[w->cpu];
	w->key = calloc(1, ctx->key_size);
	w->fd = bpf_map_get_fd_by_id(ctx->map_id);
	if (w->fd < 0)
		return -errno;
	if (!w->key)
		return -ENOMEM;
	err = key_range(w);
	if (!err && (ctx->op == SYS_BATCH_LOOKUP ||
		     ctx->op == SYS_BATCH_UPDATE))
		err = batch_buffers(w);
	*state = w;
	return err;
}

static bool lookup_one(struct sys_worker *w)
{
	__u32 k = w->next;
	__u64 v;

	w->next = w->next + 1 < w->ctx.entries ? w->next + 1 : 0;
	set_key(w->key, w->ctx.key_size, k);
	return !bpf_map_lookup_elem(w->fd, w->key, &v) && v == sys_value(k);
}

/* the next of this worker's own keys */
static __u32 own_key(struct sys_worker *w)
{
	__u32 k = w->next;

	w->next = w->next + 1 < w->hi ? w->next + 1 : w->lo;
	set_key(w->key, w->ctx.key_size, k);
	return k;
}

static bool update_one(struct sys_worker *w)
{
	__u64 v = written_value(w->ctx.fault, own_key(w));

	return !bpf_map_update_elem(w->fd, w->key, &v, BPF_EXIST);
}

/* out and back in: the map holds the same keys after every call */
static bool delete_one(struct sys_worker *w)
{
	__u64 v = written_value(w->ctx.fault, own_key(w));

	if (bpf_map_delete_elem(w->fd, w->key))
		return false;
	return !bpf_map_update_elem(w->fd, w->key, &v, BPF_NOEXIST);
}

/* a full dump: every key once, each with its value */
static bool dump(struct sys_worker *w)
{
	__u32 total = 0, n, i, k, room = w->ctx.entries + 8;
	size_t ks = w->ctx.key_size;
	void *in = NULL;
	int err;

	do {
		n = room - total;
		err = bpf_map_lookup_batch(w->fd, in, w->token,
					   w->keys + total * ks,
					   w->values + total, &n, NULL);
		total += n;
		in = w->token;
	} while (!err && total < room);
	/* the end of the map is ENOENT, with what the last call brought */
	if (!err || errno != ENOENT || total != w->ctx.entries)
		return false;
	for (i = 0; i < total; i++) {
		memcpy(&k, w->keys + i * ks, sizeof(k));
		if (k >= w->ctx.entries || w->values[i] != sys_value(k))
			return false;
	}
	return true;
}

static bool write_all(struct sys_worker *w)
{
	__u32 n = w->ctx.entries, i;

	/* the values a dump may have left here are put back first */
	for (i = 0; i < n; i++) {
		set_key(w->keys + (size_t)i * w->ctx.key_size,
			w->ctx.key_size, i);
		w->values[i] = written_value(w->ctx.fault, i);
	}
	return !bpf_map_update_batch(w->fd, w->keys, w->values, &n, NULL) &&
	       n == w->ctx.entries;
}

/* what one call made, unless the test fault wants it left out */
static void tally(struct sys_worker *w, bool fine, __u64 ops)
{
	enum test_fault_kind fault = w->ctx.fault;

	if (!fine) {
		w->slot->bad++;
		return;
	}
	if (fault == BENCH_FAULT_UNCOUNTED ||
	    (fault == BENCH_FAULT_MISS_ODD && (w->calls++ & 1)) ||
	    (fault == BENCH_FAULT_MISS_CPU && w->cpu == w->ctx.fault_cpu))
		return;
	w->slot->ok += ops;
}

void sys_run(void *state, __u64 count)
{
	struct sys_worker *w = state;
	__u64 i;

	for (i = 0; i < count; i++) {
		switch (w->ctx.op) {
		case SYS_LOOKUP:
			tally(w, lookup_one(w), 1);
			break;
		case SYS_UPDATE:
			tally(w, update_one(w), 1);
			break;
		case SYS_DELETE:
			tally(w, delete_one(w), 1);
			break;
		case SYS_BATCH_LOOKUP:
			tally(w, dump(w), w->ctx.entries);
			break;
		case SYS_BATCH_UPDATE:
			tally(w, write_all(w), w->ctx.entries);
			break;
		}
	}
}

/* ---- the parent's side ---- */

static const char *map_type_name(enum bpf_map_type type)
{
	return libbpf_bpf_map_type_str(type) ?: "?";
}

/* can the kernel do the batch operation at all? Asked of the empty map */
static int probe_batch(int fd, enum bpf_map_type type, enum sys_op op,
		       __u32 key_size, struct outcome *out)
{
	__u8 token[16], key[key_size];
	__u64 value = sys_value(0);
	__u32 n = 1;
	int err;

	set_key(key, key_size, 0);
	if (op == SYS_BATCH_LOOKUP)
		err = bpf_map_lookup_batch(fd, NULL, token, key, &value, &n,
					   NULL);
	else
		err = bpf_map_update_batch(fd, key, &value, &n, NULL);
	err = err ? -errno : 0;
	if (!err || err == -ENOENT)
		return 0;
	if (err == -EINVAL || err == -ENOTSUPP || err == -EOPNOTSUPP) {
		outcome_set(out, ST_SKIPPED,
			    "kernel refuses BPF_MAP_%s_BATCH on %s maps: %s",
			    op == SYS_BATCH_LOOKUP ? "LOOKUP" : "UPDATE",
			    map_type_name(type), strerror(-err));
		return err;
	}
	outcome_set(out, ST_FAILED, "probing batch operations: %s",
		    strerror(-err));
	return err;
}

int sys_map_create(enum bpf_map_type type, enum sys_op op, __u32 key_size,
		   __u32 entries, enum test_fault_kind fault,
		   struct outcome *out)
{
	__u8 key[key_size];
	__u64 value;
	int fd, err;
	__u32 k;

	if (libbpf_probe_bpf_map_type(type, NULL) == 0) {
		outcome_set(out, ST_SKIPPED, "kernel has no BPF_MAP_TYPE_%s maps",
			    map_type_name(type));
		return -1;
	}
	fd = bpf_map_create(type, "sys_ops", key_size, sizeof(value), entries,
			    NULL);
	if (fd < 0) {
		outcome_set(out, ST_FAILED,
			    "creating a %s map of %u entries, %u-byte keys: %s",
			    map_type_name(type), entries, key_size,
			    strerror(errno));
		return -1;
	}
	err = op >= SYS_BATCH_LOOKUP ?
	      probe_batch(fd, type, op, key_size, out) : 0;
	for (k = 0; !err && k < entries; k++) {
		set_key(key, key_size, k);
		value = written_value(fault, k);
		if (bpf_map_update_elem(fd, key, &value, BPF_ANY)) {
			outcome_set(out, ST_FAILED, "filling the map: %s",
				    strerror(errno));
			err = -errno;
		}
	}
	if (err) {
		close(fd);
		return -1;
	}
	return fd;
}

int sys_map_check(int fd, enum bpf_map_type type, __u32 key_size,
		  __u32 entries, struct outcome *out)
{
	__u8 key[key_size], next[key_size];
	__u32 k, n = 0;
	__u64 value;
	void *prev = NULL;

	for (k = 0; k < entries; k++) {
		set_key(key, key_size, k);
		if (bpf_map_lookup_elem(fd, key, &value)) {
			outcome_set(out, ST_FAILED,
				    "after the run key %u cannot be read: %s",
				    k, strerror(errno));
			return -1;
		}
		if (value != sys_value(k)) {
			outcome_set(out, ST_FAILED,
				    "after the run key %u holds 0x%llx, not 0x%llx",
				    k, (unsigned long long)value,
				    (unsigned long long)sys_value(k));
			return -1;
		}
	}
	if (type != BPF_MAP_TYPE_HASH)
		return 0;
	/* and nothing else: the keys written back were no new ones */
	while (!bpf_map_get_next_key(fd, prev, next)) {
		memcpy(key, next, key_size);
		prev = key;
		n++;
	}
	if (n != entries) {
		outcome_set(out, ST_FAILED,
			    "after the run the map holds %u keys, not %u", n,
			    entries);
		return -1;
	}
	return 0;
}
