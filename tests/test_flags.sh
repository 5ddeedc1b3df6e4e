#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The programs' tables: no two of test_overhead's modes and events, nor of
# map_perf_test's tests, claim the same test_flags bit, and each claims one
# bit. Runs build/dynamic/overhead_flags_test and map_flags_test (built by
# make all), which compile each program's own tables in. Needs no root.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

for t in overhead_flags_test map_flags_test; do
	BIN=./build/dynamic/$t
	if [ ! -x "$BIN" ]; then
		fail "$BIN is missing: run make first"
		continue
	fi
	# the unit checks print their own ok/not ok lines; count them as ours
	out=$("$BIN")
	rc=$?
	echo "$out"
	T_PASS=$((T_PASS + $(grep -c '^ok - [^#]' <<<"$out")))
	T_FAIL=$((T_FAIL + $(grep -c '^not ok' <<<"$out")))
	expect "$t exits 0 (rc=$rc)" test "$rc" -eq 0
done
finish
