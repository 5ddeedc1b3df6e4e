#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kselftest bpf_overhead:map_perf_test.sh: every map_perf_test row the
# kernel can run, one unit each, as KTAP with kselftest's exit status
# (0 pass, 1 a row failed, 4 nothing measured). About 10 s on a 2-vCPU
# VM; the collection's settings allow 300. Arguments (or
# KSELFTEST_MAP_PERF_TEST_SH_ARGS) narrow it: -t hash_lookup -a raw_tp.
cd "$(dirname "$0")" || exit 1
exec ./map_perf_test --ktap -r 1 --lock-wait 60 "$@"
