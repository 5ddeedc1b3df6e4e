#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the given test scripts (default: every tests/test_*.sh but the
# opt-in tests/test_arm64_*.sh, which need 'make deps-arm64', and
# tests/test_quiet_*.sh, which need a quiet machine: make check-quiet),
# then prints the closing "N passed, N failed" line and exits non-zero on
# any failure.
cd "$(dirname "$0")/.." || exit 1
if [ $# -eq 0 ]; then
	for t in tests/test_*.sh; do
		case $t in tests/test_arm64_* | tests/test_quiet_*) continue ;; esac
		set -- "$@" "$t"
	done
fi
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "$@"; do
	echo "=== $t"
	# tee on the inherited stdout: reopening /dev/stderr would rewind a
	# log file and overwrite what came before
	bash "$t" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	p=$(grep -c '^ok - [^#]' "$log")
	f=$(grep -c '^not ok' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $t exited $rc"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
