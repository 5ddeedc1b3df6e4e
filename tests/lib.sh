# SPDX-License-Identifier: GPL-2.0
# Shared by every tests/test_*.sh: each check prints one "ok"/"not ok" line
# and tests/run.sh adds them up into the closing "N passed, N failed" line.

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
T_PASS=0
T_FAIL=0
T_TMP=$(mktemp -d)
trap 'rm -rf "$T_TMP"' EXIT

pass() { T_PASS=$((T_PASS + 1)); echo "ok - $*"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "not ok - $*"; }

# expect NAME CMD...: the check passes when CMD exits 0.
expect() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

# run_capture NAME CMD...: runs CMD, keeps stdout/stderr/status in
# $T_TMP/NAME.{out,err} and $RC.
run_capture() {
	local name=$1
	shift
	"$@" >"$T_TMP/$name.out" 2>"$T_TMP/$name.err"
	RC=$?
}

# skip NAME REASON: a check that cannot run here, counted as neither.
skip() { echo "ok - # SKIP $*"; }

finish() {
	echo "# $(basename "$0"): $T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" -eq 0 ]
}
