#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kselftest bpf_overhead:test_overhead.sh: every test_overhead row the
# kernel can run, one unit each, as KTAP with kselftest's exit status
# (0 pass, 1 a row failed, 4 nothing measured, or it cannot run here
# now: another run holds the tools' lock past 60 s, no privileges).
# About 25 s on a busy 2-vCPU VM; the collection's settings allow 300.
# Arguments (or KSELFTEST_TEST_OVERHEAD_SH_ARGS, which the runner
# appends) narrow it: -m raw_tp,tp_btf -e getpgid.
cd "$(dirname "$0")" || exit 1
exec ./test_overhead --ktap -r 1 --lock-wait 60 "$@"
