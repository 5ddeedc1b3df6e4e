#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the given test scripts (default: every tests/test_*.sh but the
# opt-in tests/test_arm64_*.sh, which need 'make deps-arm64',
# tests/test_quiet_*.sh, which need a quiet machine: make check-quiet, and
# tests/test_deb_*.sh, which build the Debian package: make check-deb),
# then lists what was skipped and why and what failed, each failure with
# the diagnostic lines its test printed right before it (last, so that a
# log's tail names them), prints the closing
# "N passed, N failed, N skipped" line and exits non-zero on any failure.
# A skip ("ok - # SKIP reason") is never a pass. Before it, the ten
# slowest files with their times, and the whole run's: where the time of
# make check goes. After the last test file, tests/invariants.py checks
# every --json file the tests' runs wrote (tests/lib.sh keeps them); how
# many files and rows it read comes last but the closing line.
cd "$(dirname "$0")/.." || exit 1
if [ $# -eq 0 ]; then
	for t in tests/test_*.sh; do
		case $t in tests/test_arm64_* | tests/test_quiet_* | tests/test_deb_*) continue ;; esac
		set -- "$@" "$t"
	done
fi
passed=0
failed=0
skipped=0
log=$(mktemp)
skips=$(mktemp)
fails=$(mktemp)
times=$(mktemp)
# every --json the tests' runs write, with their exit statuses
# (tests/lib.sh's keep_json), for tests/invariants.py at the end
T_INVARIANTS=$(mktemp -d)
export T_INVARIANTS
trap 'rm -rf "$log" "$skips" "$fails" "$times" "$T_INVARIANTS"' EXIT
start=$(date +%s.%N)
for t in "$@"; do
	echo "=== $t"
	t0=$(date +%s.%N)
	# tee on the inherited stdout: reopening /dev/stderr would rewind a
	# log file and overwrite what came before
	bash "$t" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	echo "$(date +%s.%N) $t0 $t" >>"$times"
	p=$(grep -c '^ok - [^#]' "$log")
	f=$(grep -c '^not ok' "$log")
	s=$(grep -c '^ok - # SKIP' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $t exited $rc" | tee -a "$log"
		f=1
	fi
	# each failure with the "# " lines right before it (at most 3):
	# what a test printed of why, there in a log's tail
	awk -v t="$t" '/^# / { w[n++ % 3] = substr($0, 1, 200); next }
		/^not ok - / { sub(/^not ok - */, ""); print "  " t ": " $0
			for (i = (n > 3 ? n - 3 : 0); i < n; i++) print "      " w[i % 3] }
		{ n = 0 }' "$log" >>"$fails"
	sed -n "s|^ok - # SKIP *|  $t: |p" "$log" >>"$skips"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
done
# what every result written must hold, whatever the run: one check, its
# violations listed
echo "=== tests/invariants.py: every --json the runs above wrote"
touch "$T_INVARIANTS/manifest"
python3 tests/invariants.py --manifest "$T_INVARIANTS/manifest" | tee "$log"
rc=${PIPESTATUS[0]}
invariants=$(tail -n 1 "$log")
if [ "$rc" -eq 0 ]; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	sed -n "s|^invariant violated: |  tests/invariants.py: |p" "$log" >>"$fails"
	[ "$rc" -eq 1 ] || echo "  tests/invariants.py: exited $rc" >>"$fails"
fi
echo "slowest:"
awk '{ printf "%7.1f s  %s\n", $1 - $2, $3 }' "$times" | sort -rn | head -n 10
echo "all $# files: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
if [ -s "$skips" ]; then
	echo "skipped:"
	cat "$skips"
fi
if [ -s "$fails" ]; then
	echo "failed:"
	cat "$fails"
fi
echo "$invariants"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
