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

# ---- shared by the programs' tests; $BIN is the program under test ----

# ours_loaded NAME: a program of ours named NAME (bpftool shows 15 chars)
ours_loaded() { bpftool prog list 2>/dev/null | grep -q "name $1"; }

# gone NAME: it leaves within 2 s (the kernel frees programs asynchronously)
gone() {
	local i
	for i in $(seq 20); do
		ours_loaded "$1" || return 0
		sleep 0.1
	done
	return 1
}

# bad_arg NAME ARGS...: usage errors are one line on stderr and exit 2
bad_arg() {
	local name=$1
	shift
	run_capture bad "$BIN" "$@"
	if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T_TMP/bad.err")" -eq 1 ] &&
	   [ ! -s "$T_TMP/bad.out" ]; then
		pass "bad argument $name: exit 2, one line"
	else
		fail "bad argument $name: rc=$RC, stderr: $(cat "$T_TMP/bad.err")"
	fi
}

# check_interrupt SIG STATUS PROG ARGS...: $BIN ARGS runs long with PROG
# attached; SIG mid-run must end it with STATUS and leave nothing behind
check_interrupt() {
	local sig=$1 want=$2 prog=$3 pid workers
	shift 3
	"$BIN" "$@" >"$T_TMP/sig.out" 2>"$T_TMP/sig.err" &
	pid=$!
	sleep 1
	workers=$(pgrep -P $pid | tr '\n' ' ')
	expect "SIG$sig mid-run: $prog attached while running" ours_loaded "$prog"
	kill -"$sig" $pid
	wait $pid
	RC=$?
	expect "SIG$sig mid-run: exit $want (rc=$RC)" test "$RC" -eq "$want"
	expect "SIG$sig mid-run: says so" grep -q 'interrupted by' "$T_TMP/sig.err"
	expect "SIG$sig mid-run: nothing of ours stays loaded" gone "$prog"
	expect "SIG$sig mid-run: workers were running" test -n "$workers"
	expect "SIG$sig mid-run: no worker left ($workers)" none_alive $workers
}

# none_alive PID...: none of them is still running
none_alive() {
	local p
	for p in "$@"; do
		kill -0 "$p" 2>/dev/null && return 1
	done
	return 0
}

# check_tracefs_mount ROW_REGEX ARGS...: with tracefs unmounted, $BIN ARGS
# mounts it, says so, and still prints a verified row matching ROW_REGEX
check_tracefs_mount() {
	local row=$1
	shift
	if ! mountpoint -q /sys/kernel/tracing || ! umount /sys/kernel/tracing 2>/dev/null; then
		skip "tracefs cannot be unmounted here"
		return
	fi
	run_capture tracefs "$BIN" "$@"
	expect "tracefs unmounted: still verified" grep -qE "$row" "$T_TMP/tracefs.out"
	expect "tracefs unmounted: mount is reported" grep -q 'mounted tracefs' "$T_TMP/tracefs.err"
	expect "tracefs is mounted afterwards" mountpoint -q /sys/kernel/tracing
}

# check_unprivileged ARGS...: as nobody with no capabilities, $BIN ARGS
# says in one line which privileges it needs, and exits 1
check_unprivileged() {
	if ! command -v setpriv >/dev/null; then
		skip "setpriv missing: privilege check not tested"
		return
	fi
	run_capture nopriv setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all "$BIN" "$@"
	expect "unprivileged: exit 1 (rc=$RC)" test "$RC" -eq 1
	expect "unprivileged: one line naming CAP_BPF" \
		test "$(wc -l <"$T_TMP/nopriv.err")" -eq 1 -a -n "$(grep CAP_BPF "$T_TMP/nopriv.err")"
}

# kill_a_worker NAME ARGS...: $BIN ARGS runs long; one of its workers is
# killed mid-run; stdout/stderr in $T_TMP/NAME.{out,err}, status in $RC,
# the workers seen mid-run in $WORKERS
kill_a_worker() {
	local name=$1 pid
	shift
	"$BIN" "$@" >"$T_TMP/$name.out" 2>"$T_TMP/$name.err" &
	pid=$!
	sleep 1
	WORKERS=$(pgrep -P $pid | tr '\n' ' ')
	kill -KILL ${WORKERS%% *}
	wait $pid
	RC=$?
}
