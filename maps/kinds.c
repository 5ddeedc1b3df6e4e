// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's kinds of map test: what each fills, verifies and
 * reports beyond what every test does. A test's table entry names its
 * kind (map_perf_test_user.c).
 */
#include "maps/map_perf.h"

/* a program's map operations, checked by its counts alone */
const struct map_kind map_kind_prog = { .shape = SHAPE_PROG };

const struct map_kind map_kind_hash_lookup = {
	.shape = SHAPE_PROG, .fill = fill_hash_lookup,
};

const struct map_kind map_kind_lpm = {
	.shape = SHAPE_PROG, .fill = fill_lpm,
};

const struct map_kind map_kind_inner_lru = {
	.shape = SHAPE_PROG, .fill = fill_inner_lru,
};

const struct map_kind map_kind_lru_hash_lookup = {
	.shape = SHAPE_PROG, .fill = fill_lru_hash_lookup,
};

const struct map_kind map_kind_bloom_lookup = {
	.shape = SHAPE_PROG, .fill = fill_bloom, .json = json_bloom,
	.notes = notes_bloom,
};

const struct map_kind map_kind_bloom_update = {
	.shape = SHAPE_PROG, .fill = fill_bloom,
};

/* queue and stack: nothing left behind */
const struct map_kind map_kind_push_pop = {
	.shape = SHAPE_PROG, .verify = verify_empty,
};

const struct map_kind map_kind_ringbuf = {
	.shape = SHAPE_RINGBUF, .verify = verify_records,
	.json = json_records, .notes = notes_records,
};

const struct map_kind map_kind_perfbuf = {
	.shape = SHAPE_PERFBUF, .verify = verify_records,
	.json = json_records, .notes = notes_records,
};

const struct map_kind map_kind_syscall = {
	.shape = SHAPE_SYSCALL, .verify = verify_sys, .json = json_sys,
};
