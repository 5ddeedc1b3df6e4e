/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names task_rename's loop sets in turn, in test_overhead and in
 * make bench's bare loop (tools/bare_rename.c) alike: the name's length
 * is part of the event's cost (prctl(PR_SET_NAME) with 13 characters is
 * 4% dearer than with 9, measured here), so a loop held against base
 * must set the same names.
 */
#ifndef __RENAME_NAMES_H
#define __RENAME_NAMES_H

#define RENAME_NAMES	{ "overhead_even", "overhead_odd" }

#endif /* __RENAME_NAMES_H */
