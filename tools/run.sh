#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run: ./test_overhead, then ./map_perf_test whatever the first gave
# (a disturbed or failed row must not keep the second program from its
# answer), then one line naming each one's exit status. Ours is the worse
# of the two: a failure (1) over a usage error (2) over disturbed rows (3)
# over 0. A signal (128+N) ends it at once, with that status.
#
#   tools/run.sh [PROGRAM...]    default: ./test_overhead ./map_perf_test
cd "$(dirname "$0")/.." || exit 1
[ $# -gt 0 ] || set -- ./test_overhead ./map_perf_test

# how bad a status is: the larger, the worse
rank() {
	case $1 in
	0) echo 0 ;;
	3) echo 1 ;;
	2) echo 2 ;;
	*) echo 3 ;;
	esac
}

said() {
	case $1 in
	0) echo "every row verified, or skipped for the kernel's reason" ;;
	1) echo "a row failed, or nothing could be measured" ;;
	2) echo "a usage error" ;;
	3) echo "rows disturbed, shown without a figure; the others verified" ;;
	*) if [ "$1" -gt 128 ]; then
		echo "interrupted by signal $(($1 - 128))"
	   else
		echo "exit $1"
	   fi ;;
	esac
}

worst=0
summary=
for prog in "$@"; do
	[ -z "$summary" ] || echo
	echo "\$ $prog"
	"$prog"
	rc=$?
	# a line each: the answer stays within a terminal's width
	summary="${summary}make run: ${prog#./} exited $rc ($(said "$rc"))
"
	if [ "$rc" -gt 128 ]; then
		worst=$rc
		break
	fi
	[ "$(rank "$rc")" -gt "$(rank "$worst")" ] && worst=$rc
done
printf '%smake run: exit %s\n' "$summary" "$worst" >&2
exit "$worst"
