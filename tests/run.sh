#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the given test scripts (default: every tests/test_*.sh), then prints
# the closing "N passed, N failed" line and exits non-zero on any failure.
cd "$(dirname "$0")/.." || exit 1
[ $# -gt 0 ] || set -- tests/test_*.sh
passed=0
failed=0
for t in "$@"; do
	echo "=== $t"
	out=$(bash "$t" 2>&1 | tee /dev/stderr)
	rc=${PIPESTATUS[0]}
	p=$(grep -c '^ok - [^#]' <<<"$out")
	f=$(grep -c '^not ok' <<<"$out")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $t exited $rc" >&2
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
