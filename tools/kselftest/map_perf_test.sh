#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kselftest bpf_overhead:map_perf_test.sh: every map_perf_test row the
# kernel can run, one unit each, as KTAP with kselftest's exit status
# (0 pass, 1 a row failed, 4 nothing measured, or it cannot run here
# now: another run holds the tools' lock past 60 s, no privileges). About
# 10 s on a 2-vCPU VM; the collection's settings allow 300. Arguments (or
# KSELFTEST_MAP_PERF_TEST_SH_ARGS) narrow it: -t hash_lookup -a raw_tp.
# --memory takes no samples, so no -r: it is refused there.
cd "$(dirname "$0")" || exit 1
for arg; do
	case $arg in --memory | --memory=*) exec ./map_perf_test --ktap --lock-wait 60 "$@" ;; esac
done
exec ./map_perf_test --ktap -r 1 --lock-wait 60 "$@"
