#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The LAVA test definition's run step (bpf-overhead-bench.yaml): runs
# test_overhead or map_perf_test with a selection and -r, --json to a
# temporary file, and reports each row as a LAVA test case through
# bench-fleet lava (lava-test-case, or the <LAVA_SIGNAL_TESTCASE ...>
# lines without it) and OUTPUT/result.txt, as Linaro's test-definitions
# do. A run that wrote no results (refused: privileges, the lock, a bad
# selection) is one failed case named after the program, its reason
# printed. Exit 0 once the rows are reported, whatever they say; 1 when
# the program wrote none; 2 on bad usage; 128+N on signal N. Nothing is
# left behind but OUTPUT.
#
#   run.sh [-p test_overhead|map_perf_test] [-s SELECTION] [-r RUNS]
#          [-d DIR] [-o OUTPUT] [-j FILE]
#
# SELECTION: the program's options that pick rows (-m base,raw_tp -e
# getpgid; -t hash_lookup -a raw_tp), split on blanks; RUNS: -r's rounds
# (empty: the program's own sampling); DIR: where the program is (empty:
# PATH, /usr/sbin and /usr/local/sbin); OUTPUT: result.txt's directory;
# FILE: the run's --json kept there (default: a temporary file, removed).
set -u

usage() {
	echo "usage: run.sh [-p test_overhead|map_perf_test] [-s SELECTION] [-r RUNS] [-d DIR] [-o OUTPUT] [-j FILE]" >&2
	exit 2
}

PROGRAM=test_overhead
SELECTION=
RUNS=
BENCH_DIR=
OUTPUT=./output
JSON=
while getopts p:s:r:d:o:j:h opt; do
	case $opt in
	p) PROGRAM=$OPTARG ;;
	s) SELECTION=$OPTARG ;;
	r) RUNS=$OPTARG ;;
	d) BENCH_DIR=$OPTARG ;;
	o) OUTPUT=$OPTARG ;;
	j) JSON=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
case $PROGRAM in
test_overhead | map_perf_test) ;;
*) echo "run.sh: -p $PROGRAM: not test_overhead or map_perf_test" >&2; exit 2 ;;
esac
case $RUNS in
'') ;;
*[!0-9]* | 0*) echo "run.sh: -r $RUNS: not a whole number of rounds above 0" >&2; exit 2 ;;
esac

# the programs are an administrator's: sbin
PATH=$PATH:/usr/sbin:/usr/local/sbin
if [ -n "$BENCH_DIR" ]; then
	prog=$BENCH_DIR/$PROGRAM
	[ -x "$prog" ] || { echo "run.sh: $prog: no such program" >&2; exit 2; }
else
	prog=$(command -v "$PROGRAM") ||
		{ echo "run.sh: $PROGRAM: not found on PATH (install it, or give -d DIR)" >&2; exit 2; }
fi
# the converter beside this script in the source tree, else installed
here=$(dirname "$0")
if [ -f "$here/../bench-fleet.py" ]; then
	fleet="$here/../bench-fleet.py"
else
	fleet=$(command -v bench-fleet) ||
		{ echo "run.sh: bench-fleet: not found on PATH" >&2; exit 2; }
fi
command -v python3 >/dev/null ||
	{ echo "run.sh: python3: not found (the definition's install deps have it)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-lava.XXXXXX") || exit 1
child=
cleanup() { rm -rf "$tmp"; }
# a signal goes to the run, which ends, cleaning up after itself; then so
# do we
on_signal() {
	[ -z "$child" ] || { kill -s "$1" "$child" 2>/dev/null; wait "$child"; }
	cleanup
	trap - EXIT
	exit "$2"
}
trap cleanup EXIT
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap 'on_signal HUP 129' HUP

# report_case NAME RESULT: one test case, as bench-fleet lava reports them
report_case() {
	if command -v lava-test-case >/dev/null; then
		lava-test-case "$1" --result "$2"
	else
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 RESULT=$2>"
	fi
	mkdir -p "$OUTPUT" && echo "$1 $2" >"$OUTPUT/.result.txt.$$" &&
		mv "$OUTPUT/.result.txt.$$" "$OUTPUT/result.txt"
}

set -f
# shellcheck disable=SC2086 # SELECTION is the program's words
"$prog" $SELECTION ${RUNS:+-r "$RUNS"} --json "$tmp/run.json" 2>"$tmp/err" &
child=$!
wait "$child"
rc=$?
child=
set +f
cat "$tmp/err" >&2
if [ ! -s "$tmp/run.json" ]; then
	echo "# $PROGRAM: fail: exit $rc, no results: $(tail -n 1 "$tmp/err")"
	report_case "$PROGRAM" fail
	exit 1
fi
# kept whole, or not at all: a file beside it, renamed over it
if [ -n "$JSON" ]; then
	kept=$(dirname "$JSON")/.$(basename "$JSON").tmp.$$
	if ! { cp "$tmp/run.json" "$kept" && mv -f "$kept" "$JSON"; }; then
		rm -f "$kept"
		echo "run.sh: -j $JSON: cannot be written" >&2
		exit 1
	fi
fi
python3 "$fleet" lava -o "$OUTPUT" "$tmp/run.json"
