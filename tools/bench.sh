#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: test_overhead's summary, then base mode against the barest
# prctl loop (tools/bare_rename.c) on the same CPUs, alternating within one
# run so drift hits both alike. Reports, asserts nothing: target >= 98%.
set -eu
cd "$(dirname "$0")/.."
COUNT=${COUNT:-2000000}
ROUNDS=${ROUNDS:-5}
BARE=build/bare_rename
cc -O2 -Wall -o "$BARE" tools/bare_rename.c

./test_overhead -q || true
cpus=$(seq 0 $(($(nproc) - 1)))
echo
echo "base vs bare prctl loop, $COUNT events per CPU on CPUs" $cpus
sum=0
for r in $(seq "$ROUNDS"); do
	base=$(./test_overhead -q -r 1 -m base -e task_rename -n "$COUNT" |
		awk '$1 == "base" && $3 == "ok" { sub("M", "", $4); print $4 * 1e6 }')
	bare=$("$BARE" "$COUNT" $cpus)
	pct=$(awk -v a="$base" -v b="$bare" 'BEGIN { printf "%.1f", 100 * a / b }')
	printf '  round %d: base %.3fM/s  bare %.3fM/s  base/bare %s%%\n' \
		"$r" "$(awk -v a="$base" 'BEGIN { print a / 1e6 }')" \
		"$(awk -v b="$bare" 'BEGIN { print b / 1e6 }')" "$pct"
	sum=$(awk -v s="$sum" -v p="$pct" 'BEGIN { print s + p }')
done
awk -v s="$sum" -v n="$ROUNDS" 'BEGIN { printf "base/bare mean %.1f%% (target >= 98%%)\n", s / n }'
