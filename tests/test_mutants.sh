#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every mutation of make mutation-check still applies to the tree: a
# change that renames or rewrites a checked condition must move its
# mutation with it, or the mutation check would test nothing there. No
# build, no root: tests/mutation-check.sh --apply.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

out=$(tests/mutation-check.sh --apply 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
expect "every mutation applies to the tree (rc=$rc): $(tail -n 1 <<<"$out")" test "$rc" -eq 0
finish
