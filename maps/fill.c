// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's fills: what each test's map holds before the workers
 * start, put there by user space after load, and the kernel's size of it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "maps/map_perf.h"

#define LPM_PREFIXES	512	/* random prefixes around the /32 */

/* max_entries as the kernel has it, proof that a resize took effect */
static int kernel_max_entries(int fd, __u32 *entries)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*entries = info.max_entries;
	return 0;
}

/*
 * The fills leave out what --miss looks up; the test fault fill-all puts
 * it in anyway, for the tests to see a --miss lookup that hits fail.
 */
static bool fill_absent(const struct run_settings *rs)
{
	return map_opts(rs)->miss &&
	       run_fault(rs)->kind != BENCH_FAULT_FILL_ALL;
}

/* key 0 of the map's key size: the first 4 bytes, the rest zero */
int fill_hash_lookup(const struct run_settings *rs, struct map_row *r)
{
	struct bpf_map *map = r->skel->maps.hash_map;
	__u8 key[MAX_KEY_SIZE] = {};
	__u32 k = LOOKUP_KEY;
	long val = 1;

	if (fill_absent(rs))
		return 0;
	memcpy(key, &k, sizeof(k));
	return bpf_map__update_elem(map, key, bpf_map__key_size(map), &val,
				    sizeof(val), BPF_ANY);
}

/* bloom filters: keys 0 .. max_entries - 1, the set the program knows */
int fill_bloom(const struct run_settings *rs, struct map_row *r)
{
	int fd = bpf_map__fd(r->skel->maps.bloom_map);
	__u32 k;

	for (k = 0; k < r->entries; k++)
		if (bpf_map_update_elem(fd, NULL, &k, BPF_ANY))
			return -errno;
	return 0;
}

/* with --key-size, the data is key_size - 4 bytes: IPv6 is 20 */
struct lpm_key {
	__u32 prefixlen;
	__u8 data[MAX_KEY_SIZE - 4];
};

/*
 * 512 random prefixes, then 192.168.0.1/32 -> 128, in the LPM trie the
 * program searches. Under --miss, no prefix at all contains the address.
 * The same seed every run: every run searches the same trie.
 */
int fill_lpm(const struct run_settings *rs, struct map_row *r)
{
	const __u8 addr4[4] = LPM_ADDR;
	struct bpf_map *map = r->skel->maps.lpm_trie_map_alloc;
	__u32 data = bpf_map__key_size(map) - 4, n = 0;
	__u8 addr[MAX_KEY_SIZE - 4] = {};
	int fd = bpf_map__fd(map);
	struct lpm_key key = {};
	long value = 0;
	__u32 i;

	/* the program looks up the address followed by zeros */
	memcpy(addr, addr4, sizeof(addr4));
	srand(1);
	while (n < LPM_PREFIXES && n < r->entries - !fill_absent(rs)) {
		key.prefixlen = rand() % (8 * data + 1);
		for (i = 0; i < data; i++)
			key.data[i] = rand() & 0xff;
		if (fill_absent(rs) && lpm_covers(key.prefixlen, key.data, addr))
			continue;
		if (bpf_map_update_elem(fd, &key, &value, BPF_ANY))
			return -errno;
		n++;
	}
	if (fill_absent(rs))
		return 0;
	key.prefixlen = 8 * data;
	memcpy(key.data, addr, data);
	value = LPM_VALUE;
	return bpf_map_update_elem(fd, &key, &value, BPF_ANY) ? -errno : 0;
}

/*
 * Filling an LRU map up to its size evicts some of the keys already in
 * it: each CPU takes free nodes in batches and evicts to complete a batch.
 * What the fill kept is read once it is done, before any run. Lookups
 * evict nothing, so each worker, walking the windows of 32 keys in order
 * (lru_hash_lookup_run), must find what the windows it looks up held
 * then: never a bound from the map after the run, which a map emptied
 * meanwhile would bring down to nothing. @kept[w]: keys the windows below
 * w kept.
 */
static void read_kept_keys(int fd, __u32 nr_windows, __u64 *kept)
{
	__u32 w, i, key;
	long val;

	kept[0] = 0;
	for (w = 0; w < nr_windows; w++) {
		kept[w + 1] = kept[w];
		for (i = 0; i < LRU_LOOKUP_SPAN; i++) {
			key = w * LRU_LOOKUP_SPAN + i;
			kept[w + 1] += !bpf_map_lookup_elem(fd, &key, &val);
		}
	}
}

int fill_lru_hash_lookup(const struct run_settings *rs, struct map_row *r)
{
	int fd = bpf_map__fd(r->skel->maps.lru_hash_lookup_map);
	__u32 key, nr_windows = r->lru_range / LRU_LOOKUP_SPAN;
	long val = 1;

	if (fill_absent(rs))
		return 0;
	for (key = 0; key < r->lru_range; key++)
		if (bpf_map_update_elem(fd, &key, &val, BPF_NOEXIST))
			return -errno;
	free(r->lru_kept);
	r->lru_kept = calloc(nr_windows + 1, sizeof(*r->lru_kept));
	if (!r->lru_kept)
		return -ENOMEM;
	read_kept_keys(fd, nr_windows, r->lru_kept);
	/* the test build's fault empty-map: the keys gone before the runs */
	if (run_fault(rs)->kind == BENCH_FAULT_EMPTY_MAP)
		for (key = 0; key < r->lru_range; key++)
			bpf_map_delete_elem(fd, &key);
	r->hits = HITS_KEPT;
	return 0;
}

/* the NUMA node of @cpu from sysfs; 0 on kernels without NUMA */
static int cpu_node(int cpu)
{
	char path[64];
	struct dirent *d;
	int node = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "node%d", &node) == 1)
			break;
	closedir(dir);
	return node;
}

/* one inner LRU map per worker CPU, on that CPU's node, in its slot */
int fill_inner_lru(const struct run_settings *rs, struct map_row *r)
{
	int outer = bpf_map__fd(r->skel->maps.array_of_lru_hashs);
	const struct map_def *def = &r->inner;
	int i, fd, err = 0;
	__u32 cpu;

	for (i = 0; !err && i < rs->cpus.nr; i++) {
		LIBBPF_OPTS(bpf_map_create_opts, mopts,
			    .map_flags = def->flags,
			    .numa_node = cpu_node(rs->cpus.cpu[i]));

		cpu = rs->cpus.cpu[i];
		fd = bpf_map_create(def->type, "inner_lru_hash", def->key_size,
				    def->value_size, def->max_entries, &mopts);
		if (fd < 0)
			return -errno;
		err = kernel_max_entries(fd, &r->entries);
		/* the outer map keeps its own reference */
		if (!err && bpf_map_update_elem(outer, &cpu, &fd, BPF_ANY))
			err = -errno;
		close(fd);
	}
	return err;
}

/* the map's size as the kernel has it, and its contents for the test */
int fill_map(const struct run_settings *rs, struct map_row *r,
	     struct outcome *out)
{
	struct bpf_map *map = skel_map(r->skel, r->test->map);
	int err = 0;

	r->hits = map_opts(rs)->miss && r->test->miss ? HITS_NONE : HITS_ALL;
	/* a map of maps: the fill learns the kernel's size of its inner maps */
	if (!r->inner.max_entries)
		err = kernel_max_entries(bpf_map__fd(map), &r->entries);
	if (!err && r->test->kind->fill)
		err = r->test->kind->fill(rs, r);
	if (err)
		outcome_set(out, ST_FAILED, "filling %s: %s",
			    bpf_map__name(map), strerror(-err));
	else if (rs->verbosity > 1)
		pr_note("%s: %s has max_entries %u", r->test->name,
			bpf_map__name(map), r->entries);
	return err;
}
