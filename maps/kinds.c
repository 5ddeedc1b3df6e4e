// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's kinds of map test: what each fills, verifies and
 * reports beyond what every test does. A test's table entry names its
 * kind (map_perf_test_user.c).
 */
#include "maps/map_perf.h"

/* a program's map operations, checked by its counts alone */
const struct map_kind map_kind_prog = { .shape = SHAPE_PROG };

/* lookups of key 0, put there first (unless --miss) */
const struct map_kind map_kind_hash_lookup = { .fill = fill_hash_lookup };

/* longest-prefix lookups in a trie of random prefixes and the address's */
const struct map_kind map_kind_lpm = { .fill = fill_lpm };

/* a map of maps: an inner LRU map per worker CPU, on the CPU's node */
const struct map_kind map_kind_inner_lru = { .fill = fill_inner_lru };

/* lookups of the keys an LRU fill kept, read once it was done */
const struct map_kind map_kind_lru_hash_lookup = {
	.fill = fill_lru_hash_lookup,
};

/*
 * bloom filters of keys 0 .. max_entries - 1: lookups, with the false
 * positives of the absent ones reported; updates
 */
const struct map_kind map_kind_bloom_lookup = {
	.fill = fill_bloom, .json = json_bloom, .notes = notes_bloom,
};
const struct map_kind map_kind_bloom_update = { .fill = fill_bloom };

/* queue and stack: every value pushed popped, nothing left behind */
const struct map_kind map_kind_push_pop = { .verify = verify_empty };

/* ring and perf buffers: every record consumed or dropped, in order */
const struct map_kind map_kind_ringbuf = {
	.shape = SHAPE_RINGBUF, .verify = verify_records,
	.json = json_records, .notes = notes_records,
};
const struct map_kind map_kind_perfbuf = {
	.shape = SHAPE_PERFBUF, .verify = verify_records,
	.json = json_records, .notes = notes_records,
};

/* no program: the workers' bpf() calls, and the map checked after */
const struct map_kind map_kind_syscall = {
	.shape = SHAPE_SYSCALL, .verify = verify_sys, .json = json_sys,
};
