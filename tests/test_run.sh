#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run's tools/run.sh, with stand-in programs that exit as told: the
# second program runs whatever the first gave, the status is the worse of
# the two, one line names each, and a signal stops it at once.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

# prog NAME STATUS: a stand-in that says it ran and exits STATUS
prog() {
	printf '#!/bin/sh\necho "%s ran"\nexit %s\n' "$1" "$2" >"$T_TMP/$1"
	chmod +x "$T_TMP/$1"
}

# both A B WANT: A and B exit as told; tools/run.sh exits WANT, both ran
both() {
	prog first "$1"
	prog second "$2"
	run_capture run tools/run.sh "$T_TMP/first" "$T_TMP/second"
	expect "make run, $1 then $2: exit $3 (rc=$RC)" test "$RC" -eq "$3"
	expect "make run, $1 then $2: the second ran" grep -q '^second ran$' "$T_TMP/run.out"
	expect "make run, $1 then $2: one line names both statuses" \
		grep -q "^make run: .*first exited $1 (.*); .*second exited $2 (.*): exit $3$" "$T_TMP/run.err"
}

both 0 0 0
both 3 0 3
both 0 3 3
both 1 3 1
both 3 1 1
both 2 3 2
both 1 2 1

prog first 130
prog second 0
run_capture run tools/run.sh "$T_TMP/first" "$T_TMP/second"
expect "make run, interrupted first: exit 130 (rc=$RC)" test "$RC" -eq 130
expect "make run, interrupted first: the second did not run" \
	test -z "$(grep '^second ran$' "$T_TMP/run.out")"
expect "make run: names the signal" grep -q 'interrupted by signal 2' "$T_TMP/run.err"
finish
