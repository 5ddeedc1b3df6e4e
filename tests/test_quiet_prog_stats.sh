#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --prog-stats, on a quiet machine only (make check-quiet; not in make
# check): the kernel's run-time stats are read in an extra pass that only
# an undisturbed row gets, and the check compares two timings. On the
# shared 2-CPU CI machine most rows end disturbed, and a check that could
# only skip or flake there is no check; here it must have its figures.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
# shellcheck disable=SC2034 # read by lib.sh's run_json
BIN=./test_overhead

# reads does more in the program than count: the kernel's run-time stats
# say so, the stats' own clock reads taken out, within one pair of runs
body_ns() {
	jget "$T_TMP/$1.json" '(lambda r: "%.3f" % (r["prog_ns_per_run"] - r["prog_stats_clock_ns"]) if r and r.get("prog_ns_per_run") is not None and r.get("prog_stats_clock_ns") is not None else "missing: %s %s" % (r and r["status"], r and (r.get("prog_stats_reason") or r.get("reason"))))(row("tracepoint", "task_rename"))'
}
# each body until its row has the figure (a run may still be disturbed)
for b in count reads; do
	for _ in 1 2 3 4 5 6; do
		run_json "b$b" -r 1 -n 5000 --body $b --prog-stats -m tracepoint -e task_rename
		ns=$(body_ns "b$b")
		case $ns in missing*) ;; *) break ;; esac
	done
	case $b in
	count) c_ns=$ns ;;
	reads) r_ns=$ns ;;
	esac
done
case "$c_ns $r_ns" in
*missing*)
	fail "--prog-stats: tracepoint task_rename's body is missing after 6 runs (count: $c_ns; reads: $r_ns)" ;;
*)
	expect "--prog-stats: body reads ($r_ns ns) > body count ($c_ns ns)" \
		awk -v r="$r_ns" -v c="$c_ns" 'BEGIN { exit !(r > c) }' ;;
esac

finish
