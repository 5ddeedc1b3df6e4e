# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by every tests/test_*.sh: each check prints one "ok"/"not ok" line,
# or "ok - # SKIP reason" when it cannot run here, and tests/run.sh adds
# them up into the closing "N passed, N failed, N skipped" line. A skip is
# never a pass, and neither is a set-up step (set_up): a check that had
# nothing to look at (every row skipped, or an all() over no row) skips.
#
# The programs' tests assert through --json (read with tests/jq.py), never
# by scraping the human table, and never on an absolute rate. What a run
# left behind is looked up by the run's own pid: the BPF programs it
# loaded, the links and maps they and its fds held, and the processes it
# started (tests/watch.py, told by the kernel as they come), never by a
# name across the machine.

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# python3 itself, not a version manager's shim in PATH (pyenv's costs
# 0.1 s a call, and the checks make hundreds): the same interpreter
# (background ones run it by name: $! is then python, not a subshell)
T_PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
T_PYTHON=${T_PYTHON:-/usr/bin/python3}
python3() { "$T_PYTHON" "$@"; }
TESTS=$TOP/tests
T_PASS=0
T_FAIL=0
T_SKIP=0
T_TMP=$(mktemp -d)
# shellcheck disable=SC2034 # read by the test files that source this
NCPU=$(nproc)
# the tools' machine-wide lock, and a program of the tests' own to attach
LOCK=/run/lock/bpf-overhead-bench.lock
# shellcheck disable=SC2034 # read by the test files that source this
HOLD_HOOK=$TOP/build/dynamic/hold_hook
# the rows a full run has come from --list, never from a number here
KPROBES_OFF=0
# shellcheck disable=SC2034 # read by the test files that source this
zcat /proc/config.gz 2>/dev/null | grep -q '^# CONFIG_KPROBES is not set' &&
	KPROBES_OFF=1
# the test build (make testing; make check makes it): the programs with
# the test faults of BENCH_TEST_FAULT compiled in. Only a check that
# injects a fault runs them; every other runs the shipped ones, which have
# no faults and ignore the variable.
TESTING=$TOP/build/testing
T_BG=()
# commands that undo what the test changed outside itself (a cgroup, a
# uprobe in tracefs), run at its end however it ends: at_exit CMD...
T_UNDO=()
at_exit() { T_UNDO+=("$(printf '%q ' "$@")"); }
t_exit() {
	local p i
	for p in "${T_BG[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	for ((i = ${#T_UNDO[@]} - 1; i >= 0; i--)); do
		eval "${T_UNDO[i]}" >/dev/null 2>&1
	done
	[ -n "${T_KEEP:-}" ] && cp -r "$T_TMP" "$T_KEEP"; rm -rf "$T_TMP"
}
trap t_exit EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

pass() { T_PASS=$((T_PASS + 1)); echo "ok - $*"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "not ok - $*"; }

# expect NAME CMD...: the check passes when CMD exits 0.
expect() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

# not_grep ARGS...: grep ARGS finds nothing
not_grep() { ! grep -q "$@"; }

# ---- every result a test's runs wrote: tests/invariants.py ----
# tests/run.sh sets T_INVARIANTS, a directory of its own: each --json
# file a run wrote is copied there, with the run's exit status, stderr
# and command line in T_INVARIANTS/manifest, and tests/invariants.py
# checks them all once every test file has run. run_bg/run_end,
# run_json and run_capture keep what their runs wrote; a test that runs
# a program itself does it through jrun. (A test file run alone keeps
# nothing.)
T_KEPT=0

# json_target ARGS...: the file --json names in ARGS ("-": stdout), or
# nothing
json_target() {
	local prev='' a
	for a in "$@"; do
		if [ "$prev" = --json ]; then
			echo "$a"
			return
		fi
		case $a in --json=*) echo "${a#--json=}"; return ;; esac
		prev=$a
	done
}

# json_stamp ARGS...: which file the --json of ARGS is now (its inode and
# time), before a run: one the run left as it was, it did not write
json_stamp() {
	local f
	f=$(json_target "$@")
	[ -n "$f" ] && [ "$f" != - ] && stat -L -c '%i %y' -- "$f" 2>/dev/null
}

# keep_json RC OUT ERR BEFORE ARGS...: the results a run of ARGS wrote,
# which exited RC, its stdout in OUT (--json -; "" when not kept), its
# stderr in ERR ("-": not kept), the file's json_stamp before it in
# BEFORE, for tests/invariants.py
keep_json() {
	local rc=$1 out=$2 err=$3 before=$4 f copy errcopy=- a line
	shift 4
	[ -n "${T_INVARIANTS:-}" ] || return 0
	f=$(json_target "$@")
	if [ "$f" = - ]; then
		# under --ktap, stdout is KTAP's (--ktap refuses --json -)
		case " $* " in *" --ktap "*) return 0 ;; esac
		f=$out
	fi
	[ -n "$f" ] || return 0
	# a device is written in place: nothing there to read back
	[ -e "$f" ] && [ ! -f "$f" ] && return 0
	T_KEPT=$((T_KEPT + 1))
	copy=$T_INVARIANTS/$(basename "$0" .sh).$$.$T_KEPT
	# not a file, or the one there before: nothing written (the checker
	# then wants a failure)
	[ -f "$f" ] && { [ -z "$before" ] || [ "$(json_stamp --json "$f")" != "$before" ]; } &&
		cp "$f" "$copy.json"
	if [ "$err" != - ] && [ -f "$err" ]; then
		cp "$err" "$copy.err"
		errcopy=$copy.err
	fi
	a=${f#"$T_TMP"/}
	line="$copy.json	$rc	$errcopy	$(basename "$0"):${a//[$'\t\n']/ }"
	for a in "$@"; do
		line+="	${a//[$'\t\n']/ }"
	done
	echo "$line" >>"$T_INVARIANTS/manifest"
}

# jrun CMD...: CMD as it is, $RC its status; what its --json wrote kept
jrun() {
	local before
	before=$(json_stamp "$@")
	"$@"
	RC=$?
	keep_json "$RC" "" - "$before" "$@"
	return "$RC"
}

# run_capture NAME CMD...: runs CMD, keeps stdout/stderr/status in
# $T_TMP/NAME.{out,err} and $RC.
run_capture() {
	local name=$1 before
	shift
	before=$(json_stamp "$@")
	"$@" >"$T_TMP/$name.out" 2>"$T_TMP/$name.err"
	RC=$?
	keep_json "$RC" "$T_TMP/$name.out" "$T_TMP/$name.err" "$before" "$@"
}

# skip NAME REASON: a check that cannot run here: counted as a skip,
# listed with its reason by tests/run.sh, never as a pass
skip() { T_SKIP=$((T_SKIP + 1)); echo "ok - # SKIP $*"; }

# set_up NAME CMD...: a step the checks after it need (writing a file,
# reaching a state): said when it works, a failure when not, never a pass.
# Its status is CMD's.
set_up() {
	local name=$1
	shift
	if "$@"; then
		echo "# set-up: $name"
	else
		fail "set-up: $name"
		return 1
	fi
}

# need_testing: the test build's programs are there; else a failed check
# saying how to make them (the checks with faults then fail too)
need_testing() {
	local p
	for p in test_overhead map_perf_test; do
		[ -x "$TESTING/$p" ] && continue
		fail "$TESTING/$p is missing: run 'make testing' (make check does)"
		return 1
	done
}

# sections NAME...: runs the functions sec_NAME in turn, each a part of
# the test file that stands alone. T_SECTIONS (space-separated names)
# runs only those: the mutation check starts a test file at the section
# whose check must fail, not at its first line. Each says how long it
# took: where a test file's time goes, in make check's log.
sections() {
	local s t0 us
	for s in "$@"; do
		[ -z "${T_SECTIONS:-}" ] || [[ " $T_SECTIONS " == *" $s "* ]] || continue
		echo "# section $s"
		t0=${EPOCHREALTIME/./}
		"sec_$s"
		us=$((${EPOCHREALTIME/./} - t0))
		printf '# section %s took %d.%d s\n' "$s" $((us / 1000000)) $((us / 100000 % 10))
	done
}

finish() {
	echo "# $(basename "$0"): $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
	[ "$T_FAIL" -eq 0 ]
}

# checks_from CMD...: CMD prints "ok - ..." / "not ok - ..." / "ok - #
# SKIP ..." lines (a python checker); each becomes a check (or a skip)
# here. CMD failing is a failed check too, whatever it printed before:
# a checker that crashed after its first lines never ran the rest.
checks_from() {
	local line n=0 rc
	"$@" >"$T_TMP/checks.out" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok - # SKIP"*) skip "${line#ok - # SKIP }"; n=$((n + 1)) ;;
		"ok - "*) pass "${line#ok - }"; n=$((n + 1)) ;;
		"not ok - "*) fail "${line#not ok - }"; n=$((n + 1)) ;;
		*) echo "# $line" ;;
		esac
	done <"$T_TMP/checks.out"
	[ "$rc" = 0 ] ||
		fail "checker ${*:1:2} exited $rc after $n check(s): $(tail -n 1 "$T_TMP/checks.out" | head -c 300)"
}

# usdt_site_offset FILE: where in FILE the USDT probe test_overhead:nop's
# site is, from its ELF note and the segment that holds it; nothing when
# there is none
usdt_site_offset() {
	python3 - "$1" <<'EOF'
import re, subprocess, sys
def readelf(*a):
	return subprocess.run(["readelf", "-W"] + list(a) + [sys.argv[1]],
			      capture_output=True, text=True).stdout
m = re.search(r"Provider: test_overhead\s+Name: nop\s+Location: (0x[0-9a-f]+)",
	      readelf("-n"))
pc = int(m.group(1), 16) if m else None
for f in readelf("-l").splitlines():
	f = f.split()
	if pc is not None and f and f[0] == "LOAD":
		off, va, size = int(f[1], 16), int(f[2], 16), int(f[4], 16)
		if va <= pc < va + size:
			print(pc - va + off)
EOF
}

# ---- JSON ----

# J FILE EXPR: EXPR (Python, see tests/jq.py) holds for FILE: 0 true, 1
# false, 2 an error, 3 true only because an all() had nothing to look at.
# The watcher's record of the run (FILE's .ids beside it) gives the
# kernel's counts of its programs, which verified() compares with.
J() { python3 "$TESTS/jq.py" -t "$1" "$2"; }
# jget FILE EXPR: EXPR's value
jget() { python3 "$TESTS/jq.py" "$1" "$2"; }
# jexpect NAME FILE EXPR: a check that EXPR holds; says the value if not;
# a skip when EXPR held over no row at all
jexpect() {
	local rc
	J "$2" "$3" 2>"$T_TMP/jq.err"
	rc=$?
	case $rc in
	0) pass "$1" ;;
	3) skip "$1: no row to check ($(head -c 300 "$T_TMP/jq.err"))" ;;
	*) fail "$1 [$3: $(cat "$T_TMP/jq.err")]" ;;
	esac
}

# cgroup_remove DIR: once the tasks in it are gone; what is left of the
# run's (a worker killed with it, throttled there) is moved out first, so
# that it gets the CPU time to die
cgroup_remove() {
	local i p
	for i in $(seq 50); do
		rmdir "$1" 2>/dev/null && return 0
		[ -d "$1" ] || return 0
		while read -r p; do
			echo "$p" >"$(dirname "$1")/cgroup.procs"
		done <"$1/cgroup.procs" 2>/dev/null
		sleep 0.1
	done
	return 1
}

# cgroup_thaw_remove DIR: thawed (a v2 cgroup.freeze, a v1 freezer: a
# hierarchy has one of the two files, or neither), emptied, removed
cgroup_thaw_remove() {
	[ ! -f "$1/cgroup.freeze" ] || echo 0 >"$1/cgroup.freeze"
	[ ! -f "$1/freezer.state" ] || echo THAWED >"$1/freezer.state"
	cgroup_remove "$1"
}

# remove_stale_cgroups NAME: the cgroups NAME.PID[.CASE] of a test whose
# process PID is gone, thawed, emptied and removed. A test killed before
# its at_exit commands ran (the mutation check ends a test file with
# SIGTERM once it has said enough; a case may still be undoing) leaves
# its cgroups; the next run of that test removes them.
remove_stale_cgroups() {
	local d pid
	for d in /sys/fs/cgroup/*/"$1".* /sys/fs/cgroup/"$1".*; do
		[ -d "$d" ] || continue
		pid=${d##*/"$1".}
		pid=${pid%%.*}
		[[ $pid =~ ^[0-9]+$ ]] || continue
		kill -0 "$pid" 2>/dev/null || cgroup_thaw_remove "$d"
	done
}

# ---- runs of $BIN, watched ----

# The tools' lock: a run of the tests' takes a lock of its own (a private
# /run/lock, in a mount namespace of its own), and its watcher holds the
# machine's for it while it runs, the BPF run-time stats on meanwhile:
# those are machine-wide, and with the lock held no other run of the tools
# measures under them. A test that holds the lock itself (hold_lock) has
# its runs' watchers only turn the stats on; one that tests the lock
# (T_REAL_LOCK=1) has its runs take the machine's lock themselves, and
# no stats on (the kernel's run counts then unknown: the checks of them
# skip).
T_LOCK_HELD=
T_REAL_LOCK=${T_REAL_LOCK:-}
[ -d /run/lock ] || T_REAL_LOCK=1	# the tools' lock is in /tmp then

# hold_lock: the test holds the tools' lock until release_lock (for
# processes of its own that would disturb another suite's runs)
hold_lock() {
	local fifo=$T_TMP/lock.fifo
	rm -f "$fifo"
	mkfifo "$fifo"
	"$T_PYTHON" -c 'import ctypes, fcntl, os, signal, sys
ctypes.CDLL(None).prctl(1, 9)	# PR_SET_PDEATHSIG, SIGKILL: never orphaned
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
os.ftruncate(fd, 0)
os.pwrite(fd, b"%d tests/lib.sh\n" % os.getpid(), 0)
print("locked", flush=True)
signal.pause()' "$LOCK" >"$fifo" &
	T_LOCKER=$!
	T_BG+=("$T_LOCKER")
	read -r _ <"$fifo"
	T_LOCK_HELD=1
}
release_lock() {
	kill "$T_LOCKER" 2>/dev/null
	wait "$T_LOCKER" 2>/dev/null
	T_LOCK_HELD=
}

declare -A T_RUN_ARGS T_RUN_STAMP
# run_bg NAME ARGS...: starts $BIN ARGS in the background, stdout and
# stderr in $T_TMP/NAME.{out,err}; $PID is the run, and tests/watch.py
# records what it loads and starts in $T_TMP/NAME.ids, and once it has
# exited the kernel's run count of each program (the watcher turns the
# BPF run-time stats on first, and holds a reference to each program
# until then). The run waits for its watcher's go: for the tools' lock,
# and for the watcher to be listening.
run_bg() {
	local name=$1 go=$T_TMP/$1.go lock=(--lock "$LOCK") private=()
	shift
	rm -f "$go" "$T_TMP/$name.ids"
	mkfifo "$go"
	if [ -n "$T_REAL_LOCK" ]; then
		lock=(--no-stats)
	else
		[ -z "$T_LOCK_HELD" ] || lock=(--lock-held)
		private=(unshare -m sh -c 'mount -t tmpfs -o size=64k,mode=1777 tmpfs /run/lock && exec "$@"' sh)
	fi
	( read -r _ <"$go"; exec "${private[@]}" "$BIN" "$@" ) >"$T_TMP/$name.out" 2>"$T_TMP/$name.err" &
	PID=$!
	T_RUN_ARGS[$name]=$(printf '%q ' "$BIN" "$@")
	T_RUN_STAMP[$name]=$(json_stamp "$@")
	T_STARTED=${EPOCHREALTIME/./}
	"$T_PYTHON" "$TESTS/watch.py" "${lock[@]}" $PID "$T_TMP/$name.ids" "$go" &
	WATCH=$!
	T_BG+=("$PID" "$WATCH")
}

# started NAME: the run NAME has its go (it may wait minutes for the
# tools' lock, while another suite's run holds it)
started() {
	local i
	for i in $(seq 18000); do
		grep -qsx go "$T_TMP/$1.ids" && return 0
		kill -0 "$PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# run_end NAME: waits for the run started by run_bg; $RC its status
run_end() {
	local -a args
	# (bash's "Killed" notice of a run killed on purpose is no news)
	wait "$PID" 2>/dev/null
	RC=$?
	wait "$WATCH"
	echo "# $1: exit $RC after $(((${EPOCHREALTIME/./} - T_STARTED) / 1000)) ms"
	eval "args=(${T_RUN_ARGS[$1]:-})"
	keep_json "$RC" "$T_TMP/$1.out" "$T_TMP/$1.err" "${T_RUN_STAMP[$1]:-}" "${args[@]}"
}

# run_json NAME ARGS...: $BIN ARGS --json $T_TMP/NAME.json, watched, and
# checked afterwards: every program and worker it had is gone
run_json() {
	local name=$1
	shift
	run_bg "$name" "$@" --json "$T_TMP/$name.json"
	run_end "$name"
	cleanup_checked "$name"
}

# ids NAME KIND: the ids of KIND (prog, link, map, worker) the run NAME had
ids() { awk -v k="$2" '$1 == k { print $2 }' "$T_TMP/$1.ids" 2>/dev/null; }

# prog_ids_of PID: the BPF programs PID's fds refer to right now
prog_ids_of() {
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null |
		awk '{ print $2 }' | sort -un
}

# gone_ids KIND IDS...: within 2 s, the kernel has none of them (it frees
# programs asynchronously, after the last reference): tests/gone.py
gone_ids() {
	local kind=$1 left
	shift
	[ $# -gt 0 ] || return 0
	left=$(python3 "$TESTS/gone.py" "$kind" "$@") && return 0
	echo "# still loaded: $kind $left"
	return 1
}

# gone_all KIND IDS... [KIND IDS...]...: gone_ids of each KIND, in one
# tests/gone.py (a Python's start, a tenth of a second, once a run, not
# once a kind); "# still loaded: KIND ID..." for each kind with some left
gone_all() {
	local a left
	for a; do
		[[ $a == [0-9]* ]] && break
	done
	[[ ${a:-} == [0-9]* ]] || return 0
	left=$(python3 "$TESTS/gone.py" "$@") && return 0
	while read -r a; do
		echo "# still loaded: $a"
	done <<<"$left"
	return 1
}

# workers_alive NAME: the processes the run NAME started that live (a
# zombie is dead; a pid with another start time is someone else)
workers_alive() {
	awk '$1 == "worker" { print $2, $3 }' "$T_TMP/$1.ids" 2>/dev/null |
		while read -r pid start; do
			[ "$start" != - ] && [ -r /proc/$pid/stat ] || continue
			awk -v s="$start" -v p="$pid" '{
				sub(/^.*\) /, ""); if ($1 != "Z" && $20 == s) print p }' \
				/proc/$pid/stat
		done
}

# workers_gone NAME: within 2 s, none of them lives (a worker killed by
# its parent's death takes a moment to go)
workers_gone() {
	local i left
	for i in $(seq 20); do
		left=$(workers_alive "$1")
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	echo "# workers alive: $left"
	return 1
}

# cleanup_checked NAME: the check that the run NAME left nothing behind,
# and that the kernel ran its programs as often as the JSON says they
# counted (tests/runs.py).
# A run that ran programs (by its JSON) but showed none is a failure: the
# watcher missed it, and a check that saw nothing proves nothing. (Rows
# with counts but attach_method null, map_perf_test's bpf() rows, run no
# program: their workers' checked calls are the counts.)
cleanup_checked() {
	local name=$1 progs links maps nw
	if ! grep -qsx end "$T_TMP/$name.ids"; then
		fail "$name: its watcher's record ($name.ids) is missing or incomplete: what the run left behind is unknown"
		return
	fi
	progs=$(ids "$name" prog)
	links=$(ids "$name" link)
	maps=$(ids "$name" map)
	nw=$(ids "$name" worker | wc -w)
	if [ -z "$progs" ] && [ -s "$T_TMP/$name.json" ] &&
	   J "$T_TMP/$name.json" 'any(ran(r) and r.get("hits") is not None and r.get("attach_method", "") is not None for r in R)' 2>/dev/null; then
		fail "$name: ran programs, yet none was seen in its fds"
	fi
	# the kernel's count of every run of its programs, the tool's beside it
	[ -s "$T_TMP/$name.json" ] &&
		checks_from python3 "$TESTS/runs.py" "$name" "$T_TMP/$name.json" "$T_TMP/$name.ids"
	# shellcheck disable=SC2086
	if gone_all prog $progs link $links map $maps && workers_gone "$name"; then
		pass "$name: its $(wc -w <<<"$progs") programs, $(wc -w <<<"$links") links, $(wc -w <<<"$maps") maps, $nw workers are gone"
	else
		fail "$name: programs ($(echo $progs)), links, maps ($(echo $maps)) or workers left behind"
	fi
}

# exit_matches NAME: the status fits the JSON: 0 when no row failed or
# was disturbed, 3 when rows were disturbed and none failed, 1 on a failure
exit_matches() {
	local f=$T_TMP/$1.json want
	want=$(jget "$f" '1 if rows(status="failed") else 3 if rows(status="disturbed") else 0') ||
		return 1
	[ "$RC" -eq "$want" ] || { echo "# exit $RC, the JSON makes it $want"; return 1; }
}

# bad_arg NAME ARGS...: usage errors are one line on stderr, nothing on
# stdout, and exit 2
bad_arg() {
	local name=$1
	shift
	run_capture bad "$BIN" "$@"
	if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T_TMP/bad.err")" -eq 1 ] &&
	   [ ! -s "$T_TMP/bad.out" ]; then
		pass "bad argument $name: exit 2, one line"
	else
		fail "bad argument $name: rc=$RC, stdout $(wc -c <"$T_TMP/bad.out") bytes, stderr: $(head -c 300 "$T_TMP/bad.err")"
	fi
}

# attached NAME: the run NAME has a BPF link open now and workers running:
# a sample with its programs attached is on
attached() {
	grep -qs '^link_id:' /proc/"$PID"/fdinfo/* && [ -n "$(pgrep -P "$PID")" ]
}

# wait_attached NAME: until a sample of the run NAME is on with programs:
# up to 180 s once it has its go (a base row may come first, and on a busy
# machine its disturbed samples are run again)
wait_attached() {
	local i
	started "$1" || return 1
	for i in $(seq 3600); do
		attached "$1" && return 0
		kill -0 "$PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# check_interrupt SIG STATUS ARGS...: $BIN ARGS runs long with programs
# attached; SIG mid-run must end it with STATUS, say so, and leave none of
# its programs or workers behind
check_interrupt() {
	local sig=$1 want=$2 name=sig$1
	shift 2
	run_bg "$name" "$@"
	set_up "SIG$sig mid-run: a sample with programs attached is on" wait_attached "$name"
	sleep 0.2
	kill -"$sig" "$PID"
	ends_within 30
	run_end "$name"
	expect "SIG$sig mid-run: exit $want (rc=$RC)" test "$RC" -eq "$want"
	expect "SIG$sig mid-run: says so" grep -q 'interrupted by' "$T_TMP/$name.err"
	cleanup_checked "$name"
}

# kill_a_worker NAME ARGS...: $BIN ARGS --json runs long; one of its
# workers is killed mid-run; $RC, $T_TMP/NAME.{out,err,json,ids}
kill_a_worker() {
	local name=$1 w
	shift
	run_bg "$name" "$@" --json "$T_TMP/$name.json"
	wait_attached "$name"
	sleep 0.3
	w=$(pgrep -P "$PID" | head -n 1)
	# never left running for good: a run that had no worker to kill ends
	[ -n "$w" ] && kill -KILL "$w" || kill -TERM "$PID"
	ends_within 30
	run_end "$name"
}

# ends_within S: the run ends within S seconds, or is killed (its status
# then 137): a check of how it ends fails, rather than hangs
ends_within() {
	local i
	for i in $(seq $(($1 * 10))); do kill -0 "$PID" 2>/dev/null || return 0; sleep 0.1; done
	echo "# $PID still running after $1 s: killed"
	kill -KILL "$PID" 2>/dev/null
}

# busy N: N busy loops of the test's own in the background ($BUSY), the
# tools' lock held meanwhile: they would disturb another suite's run
busy() {
	local i
	hold_lock
	BUSY=
	for i in $(seq "$1"); do
		sh -c 'while :; do :; done' &
		BUSY="$BUSY $!"
		T_BG+=("$!")
	done
}
unbusy() {
	# shellcheck disable=SC2086
	[ -n "$BUSY" ] && kill $BUSY 2>/dev/null
	# shellcheck disable=SC2086
	wait $BUSY 2>/dev/null
	BUSY=
	release_lock
}

# ---- figures ----
# A check of what only an undisturbed row shows (its samples' statistics,
# a fit, a time) has nothing to look at when a busy machine disturbed
# every row: that is the tools being right, and the check must then not
# pass. Under make check (a shared 2-CPU CI machine) it is a skip; under
# make check-quiet (BENCH_TESTS_QUIET=1, for a quiet machine) the run is
# tried up to 3 times for a figure, and a check still without one fails,
# saying why.
QUIET=${BENCH_TESTS_QUIET:-0}

# has_fig RUN SEL: a row of the run RUN matching SEL (Python over r) has
# a figure; ran_any RUN SEL: one ran (ok or disturbed)
has_fig() { J "$T_TMP/$1.json" "any(fig(r) for r in R if $2)" 2>/dev/null; }
ran_any() { J "$T_TMP/$1.json" "any(ran(r) for r in R if $2)" 2>/dev/null; }

# retry_fig RUN SEL CMD...: CMD (which writes $T_TMP/RUN.json), again
# under check-quiet while rows matching SEL ran but none has a figure
retry_fig() {
	local run=$1 sel=$2 i
	shift 2
	for i in 1 2 3; do
		"$@"
		[ "$QUIET" = 1 ] || return 0
		has_fig "$run" "$sel" || ! ran_any "$run" "$sel" && return 0
	done
}

# run_json_fig NAME SEL ARGS...: run_json NAME ARGS, under retry_fig
run_json_fig() {
	local name=$1 sel=$2
	shift 2
	retry_fig "$name" "$sel" run_json "$name" "$@"
}

# fig_guard NAME RUN SEL: whether the check NAME of the run RUN's rows
# matching SEL can look at a figure; if not, says why: a skip when none
# ran here or (make check) when every one was disturbed, a failure under
# make check-quiet
fig_guard() {
	local name=$1 run=$2 sel=$3
	has_fig "$run" "$sel" && return 0
	if ! ran_any "$run" "$sel"; then
		skip "$name: no such row ran on this kernel"
	elif [ "$QUIET" = 1 ]; then
		fail "$name: no row had a figure in 3 runs ($(jget "$T_TMP/$run.json" "'; '.join(sorted(set(r['reason'] or '' for r in R if ran(r) and ($sel))))[:300]"))"
	else
		skip "$name: every row was disturbed on this busy machine (make check-quiet checks it)"
	fi
	return 1
}

# fig_expect NAME RUN SEL EXPR: jexpect NAME on the run RUN, once
# fig_guard lets it
fig_expect() {
	fig_guard "$1" "$2" "$3" && jexpect "$1" "$T_TMP/$2.json" "$4"
}

# checks of a run's rows against what this kernel can do; see tests/rows.py
# rows_checked NAME LIST SELECT [ARGS]: every row of the run NAME ($BIN's:
# its --help tells map_perf_test's base rows)
rows_checked() {
	"$BIN" --help >"$T_TMP/help.txt" 2>&1
	checks_from python3 "$TESTS/rows.py" "$T_TMP/$1.json" "$2" "$3" \
		--help-text "$T_TMP/help.txt" --ids "$T_TMP/$1.ids" "${@:4}"
}

# ---- installed trees ----

# layout DIR: DIR's files ("f PATH") and links ("l PATH -> TARGET"), one a
# line, relative to DIR, sorted: what make install or a package laid out
layout() {
	(cd "$1" && find . -mindepth 1 \( -type f -printf 'f %P\n' \) -o \
		\( -type l -printf 'l %P -> %l\n' \)) | sort
}
