#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every run ends, and leaves nothing: the signal and stall matrix.
#
# For each program and way of running (measure, -r/-n, -d, --memory,
# --profile, --prog-stats, --attach-time, curves, --ktap, --compare,
# --list): SIGTERM, SIGINT and SIGHUP early (loading, or reading
# --compare's input), in the middle (programs attached and workers
# running, the --memory creator in its cgroup, the --profile or
# --prog-stats pass) and while printing (stdout a full pipe), and
# SIGKILL; and each kind of child (the workers, the --memory creator, a
# buffer's consumer thread, the fib calibration's worker) stopped
# (SIGSTOP), frozen (cgroup v2 cgroup.freeze, the v1 freezer) or unable
# to start (pids.max in the v1 pids hierarchy: fork fails with EAGAIN).
#
# Each case must end within 10 s with its documented exit code (128+sig
# for a signal; 1 for a row that failed, with its reason) and, after it,
# nothing of the run may be left: no program, link or map (its watcher's
# record, tests/watch.py), no process it started, no cgroup or mount of
# its pid, no lock of its processes in /proc/locks; a previous --json
# file is as it was unless the run completed. A case whose run ended
# before its signal came (nothing to interrupt on this kernel, as
# --attach-time here) is checked as a completed run.
#
# make check runs one case of each kind (the regressions of issue 34
# among them); MATRIX=full (make matrix, which .ci/run runs) every case.
# Both end with a summary: cases run, hangs, leftovers, wrong exit codes.
# Sections (tests/lib.sh): T_SECTIONS="a b" runs only those, of either.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
need_testing
TO=./test_overhead
MP=./map_perf_test
STATS=./build/dynamic/stats_test
BIN=$TO
# a case ends within this
LIMIT=10

M_CASES=0 M_HANGS=0 M_LEFT=0 M_CODES=0 M_JSON=0 M_DONE=0
remove_stale_cgroups bpf-bench-matrix

sig_num() { kill -l "$1"; }

# alive PID: a process with a task that is not a zombie (a leader that
# exited waits for its other threads). Read by the shell itself: the
# waits poll it every 50 ms, and a process a look (an awk a task) took
# CPU time from the run it watched
alive() {
	local t st
	for t in /proc/"$1"/task/*/stat; do
		st=
		read -r st 2>/dev/null <"$t"
		st=${st##*) }
		[ -n "$st" ] && [ "${st%% *}" != Z ] && return 0
	done
	return 1
}

# m_ends: the run $PID ends within LIMIT s; else it is killed (status
# 137) and the case is a hang. $M_SECS: how long it took
M_HUNG=0
m_ends() {
	local t0=${EPOCHREALTIME/./}
	M_HUNG=0
	while [ $((${EPOCHREALTIME/./} - t0)) -lt $((LIMIT * 1000000)) ]; do
		alive "$PID" || break
		sleep 0.05
	done
	if alive "$PID"; then
		M_HUNG=1
		kill -KILL "$PID" 2>/dev/null
	fi
	M_SECS=$(awk -v us=$((${EPOCHREALTIME/./} - t0)) 'BEGIN { printf "%.1f", us / 1e6 }')
}

# the cgroups, mounts and mount directories named after the run PID
pid_things() {
	find /sys/fs/cgroup -maxdepth 8 -type d -name "map_perf_test-memory.$1.*" 2>/dev/null
	ls -d /tmp/map_perf_test-cgroup2."$1".* 2>/dev/null
	grep -o "map_perf_test-cgroup2\.$1\.[^ ]*" /proc/self/mountinfo
}

# the run NAME's processes: itself and what it started
run_pids() { echo "$PID"; awk '$1 == "worker" { print $2 }' "$T_TMP/$1.ids" 2>/dev/null; }

# m_leftovers NAME: what the run NAME left (nothing: empty); by its
# watcher's record, its pid and /proc/locks
m_leftovers() {
	local name=$1 left='' p progs links maps kind
	if ! grep -qsx end "$T_TMP/$name.ids"; then
		echo "its watcher's record is incomplete"
		return
	fi
	progs=$(ids "$name" prog) links=$(ids "$name" link) maps=$(ids "$name" map)
	# shellcheck disable=SC2086
	while read -r _ _ _ kind _; do
		case $kind in
		prog) left="$left programs" ;;
		link) left="$left links" ;;
		map) left="$left maps" ;;
		esac
	done < <(gone_all prog $progs link $links map $maps)
	workers_gone "$name" >/dev/null || left="$left processes($(workers_alive "$name" | tr '\n' ' '))"
	p=$(pid_things "$PID")
	[ -z "$p" ] || left="$left $(echo $p)"
	for p in $(run_pids "$name"); do
		awk -v p="$p" '$5 == p { f = 1 } END { exit !f }' /proc/locks &&
			left="$left a lock of pid $p"
	done
	echo "$left"
}

# m_check NAME WANT REASON: the case's verdict. WANT: its exit codes
# (a list); REASON: an ERE its JSON, stdout or stderr must hold ("" for
# none). $M_PREV: a previous --json file (its copy in $M_PREV.was) that
# must be as it was unless the run completed. $M_LATE: the signal came
# after the run had ended: a completed run, any of WANT_DONE's codes.
M_PREV='' M_LATE=0 WANT_DONE="0 1 3 4"
m_check() {
	local name=$1 want=$2 re=$3 left bad='' why beside p done_codes=$WANT_DONE
	# a hung run held by a cgroup of the test's: let go, or it is
	# never reaped (a frozen thread outlives a SIGKILL)
	[ "$M_HUNG" = 1 ] && [ -n "${CG:-}" ] && cgroup_thaw_remove "$CG"
	run_end "$name"
	M_CASES=$((M_CASES + 1))
	left=$(m_leftovers "$name")
	[ "$M_LATE" = 1 ] && want=$WANT_DONE && M_DONE=$((M_DONE + 1))
	# a run that completed with nothing this kernel can measure (every
	# row skipped: --attach-time here, no kprobes and no readable
	# available_filter_functions) ends 1 saying so, its documented status
	if [ "$M_LATE" = 1 ] && grep -qx '[a-z_]*: nothing could be measured on this kernel' "$T_TMP/$name.err"; then
		want="$want 1"
		done_codes="$want"
	fi
	if [ "$M_HUNG" = 1 ]; then
		M_HANGS=$((M_HANGS + 1))
		bad="$bad, still running after $LIMIT s"
	elif [[ " $want " != *" $RC "* ]]; then
		M_CODES=$((M_CODES + 1))
		bad="$bad, exit $RC (want $want)"
	fi
	if [ -n "$re" ] && [ "$M_LATE" = 0 ] &&
	   ! cat "$T_TMP/$name".{json,out,err} 2>/dev/null | grep -qE "$re"; then
		why=$(cat "$T_TMP/$name.err" "$T_TMP/$name.out" 2>/dev/null | tail -n 3 | tr '\n' ' ' | head -c 300)
		bad="$bad, no '$re' said ($why)"
	fi
	if [ -n "$left" ]; then
		M_LEFT=$((M_LEFT + 1))
		bad="$bad, left:$left"
	fi
	if [ -z "$bad" ]; then
		pass "$name: ended in $M_SECS s, exit $RC$([ "$M_LATE" = 1 ] && echo ' (completed before the signal)'), nothing left"
	else
		fail "$name: ended in $M_SECS s${bad}"
	fi
	# a check of its own: written whole or not at all is --json's, and
	# a file written aside to be renamed into place goes too
	if [ -n "$M_PREV" ] && [[ " $done_codes " != *" $RC "* ]]; then
		beside=''
		for p in "$M_PREV"* "$(dirname "$M_PREV")"/.*"$(basename "$M_PREV")"*; do
			[ -e "$p" ] || [ -L "$p" ] || continue
			[ "$p" = "$M_PREV" ] || [ "$p" = "$M_PREV.was" ] ||
				beside+="$p "
		done
		if cmp -s "$M_PREV" "$M_PREV.was" && [ -n "$beside" ] && [ "$RC" = 137 ]; then
			# no handler runs on a SIGKILL: what it wrote aside stays
			# until the next run writing that file removes it
			m_next_removes "$name" $beside
		elif cmp -s "$M_PREV" "$M_PREV.was" && [ -z "$beside" ]; then
			pass "$name: the previous --json file is as it was, nothing beside it"
		else
			M_JSON=$((M_JSON + 1))
			fail "$name: the previous --json file changed ($(wc -c <"$M_PREV") bytes now)${beside:+, beside it: $beside}"
		fi
	fi
	M_PREV=
	M_LATE=0
}

# m_next_removes NAME FILE...: FILEs, left beside $M_PREV by the killed
# run NAME, are removed and named by the next run that writes $M_PREV
m_next_removes() {
	local name=$1 f left=
	shift
	$MP --list --json "$M_PREV" >/dev/null 2>"$T_TMP/$name.next.err"
	for f in "$@"; do
		[ -e "$f" ] && left="$left $f"
		grep -qF "removed $f, left by a run" "$T_TMP/$name.next.err" || left="$left (unnamed: $f)"
	done
	if [ -z "$left" ]; then
		pass "$name: the previous --json file is as it was; what it wrote aside, the next run removed and named"
	else
		M_JSON=$((M_JSON + 1))
		fail "$name: a killed run's temporary file beside its --json not removed and named by the next:$left"
	fi
}

# prev_json FILE: a previous --json file there, and its copy
prev_json() {
	printf '{"previous": "results of an earlier run"}\n' >"$1"
	cp "$1" "$1.was"
	M_PREV=$1
}

# ---- the moments ----

# the run has a child in a --memory row's cgroup: the creator
creator_of() {
	local k
	for k in $(pgrep -P "$1"); do
		grep -qs 'map_perf_test-memory' /proc/"$k"/cgroup && { echo "$k"; return 0; }
	done
	return 1
}

# the run has an fd on an anonymous inode of this name
has_anon() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		[[ $(readlink "$fd" 2>/dev/null) == "anon_inode:$2"* ]] && return 0
	done
	return 1
}

# wait_for NAME TEST...: until TEST (a command) holds of the run, 60 s
wait_for() {
	local name=$1 i
	shift
	started "$name" || return 1
	for i in $(seq 1200); do
		"$@" && return 0
		alive "$PID" || return 1
		sleep 0.05
	done
	return 1
}

# middle MODE: the moment in the middle of a run of MODE
middle() {
	case $1 in
	memory) creator_of "$PID" >/dev/null ;;
	profile) has_anon "$PID" '\[perf_event\]' ;;
	progstats) has_anon "$PID" 'bpf-stats' ;;
	*) attached x ;;
	esac
}

# blocked: the run waits to write to a full pipe
blocked() {
	local w=
	read -r w 2>/dev/null </proc/"$PID"/wchan
	[[ $w == *pipe_write* ]]
}

# a pipe nobody reads, full but for a few bytes: stdout that blocks at
# the first line. $FULL is its FIFO, held open here.
full_pipe() {
	FULL=$T_TMP/full.fifo
	[ -p "$FULL" ] && return
	mkfifo "$FULL"
	# held open for the test's life: FULL_FD is never read
	# shellcheck disable=SC2034
	exec {FULL_FD}<>"$FULL"
	python3 -c 'import fcntl, os
fcntl.fcntl(0, 1031, 4096)		# F_SETPIPE_SZ: a page
os.set_blocking(0, False)
try:
	while True:
		os.write(0, b"x" * 64)
except BlockingIOError:
	pass' <>"$FULL"
}

# send SIG: to the run; $M_LATE when it had ended already (also between
# the look and the kill: a short run's last moment)
send() {
	if ! alive "$PID" || ! kill -"$1" "$PID" 2>/dev/null; then
		M_LATE=1
	fi
}

# sig_case NAME SIG MOMENT MODE PROG ARGS...: the signal at the moment
# (early, middle, printing) of a run of PROG ARGS (MODE: what middle is)
sig_case() {
	local name=$1 sig=$2 moment=$3 mode=$4 prog=$5 want re=
	shift 5
	want=$((128 + $(sig_num "$sig")))
	# the handlers' word: --list and --compare say it too ("interrupted
	# by SIG while writing the results"), their handlers armed from the
	# start; nothing runs on a SIGKILL
	[ "$sig" != KILL ] && re='interrupted by'
	case $moment in
	early)
		prev_json "$T_TMP/$name.prev"
		BIN=$prog run_bg "$name" "$@" --json "$M_PREV"
		started "$name"
		sleep 0.1 ;;
	middle)
		prev_json "$T_TMP/$name.prev"
		BIN=$prog run_bg "$name" "$@" --json "$M_PREV"
		wait_for "$name" middle "$mode"
		sleep 0.1 ;;
	printing)
		full_pipe
		BIN='sh' run_bg "$name" -c 'exec "$@" >"$0"' "$FULL" "$prog" "$@"
		wait_for "$name" blocked ;;
	esac
	send "$sig"
	m_ends
	# exit 1 too keeps the last results here: refused or not written
	WANT_DONE="0 3 4" m_check "$name" "$want" "$re"
}

# ---- stalls ----

# a cgroup of the test's own in the hierarchy $1 ("unified", "freezer",
# "pids"), removed at the end however the test ends; $CG
m_cgroup() {
	CG=/sys/fs/cgroup/$1/bpf-bench-matrix.$$.$2
	mkdir -p "$CG" 2>/dev/null || return 1
	at_exit cgroup_thaw_remove "$CG"
}

# hold HOW TASK: TASK (a pid, or a thread's tid) stopped or frozen
hold() {
	case $1 in
	stop) kill -STOP "$2" ;;
	kill) kill -KILL "$2" ;;
	freeze2) echo "$2" >"$CG/cgroup.procs" && echo 1 >"$CG/cgroup.freeze" ;;
	freeze1) echo "$2" >"$CG/tasks" && echo FROZEN >"$CG/freezer.state" ;;
	esac
}

# first_thread PID: PID's first thread that is not PID itself
first_thread() {
	local t
	for t in /proc/"$1"/task/*; do
		t=${t##*/}
		[ "$t" = "$1" ] || [ "$t" = '*' ] || { echo "$t"; return; }
	done
}

# the child of CHILD's kind of the run, once there
child_of() {
	case $1 in
	worker | setup | fib) pgrep -P "$PID" | head -n 1 ;;
	creator) creator_of "$PID" ;;
	consumer | consumer2) first_thread "$PID" ;;
	esac
}

# stall_case NAME CHILD HOW PROG ARGS...: CHILD's kind of child (worker,
# in its loop; setup, a worker in its set-up; creator, consumer, fib;
# consumer2, a consumer thread after the first: each sample starts one)
# held by HOW (stop, kill, freeze2, freeze1, pids) while PROG ARGS runs:
# exit 1, a row failed saying why
stall_case() {
	local name=$1 child=$2 how=$3 prog=$4 re c first='' max=1 wrap=()
	shift 4
	case $how in
	stop) re='stayed stopped|did not end' ;;
	kill) re='died: Killed' ;;
	freeze2) re='cgroup v2 cgroup.freeze'; m_cgroup unified "$name" || { skip "$name: no cgroup v2 of the test's own"; return; } ;;
	freeze1) re='cgroup v1 freezer'; m_cgroup freezer "$name" || { skip "$name: no v1 freezer cgroup of the test's own"; return; } ;;
	pids) re='Resource temporarily unavailable'
		m_cgroup pids "$name" || { skip "$name: no v1 pids cgroup of the test's own"; return; }
		# a consumer thread after its one worker
		[ "$child" = consumer ] && max=2
		echo "$max" >"$CG/pids.max"
		wrap=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG") ;;
	esac
	# the calibration's worker, the creator and a consumer set up slowly
	# enough (the test fault slow-setup) to be caught as they start
	if [ "$child" != worker ]; then
		export BENCH_TEST_FAULT=slow-setup
		prog=$TESTING/$(basename "$prog")
	fi
	if [ ${#wrap[@]} -gt 0 ]; then
		BIN=${wrap[0]} run_bg "$name" "${wrap[@]:1}" "$prog" "$@" --json "$T_TMP/$name.json"
	else
		BIN=$prog run_bg "$name" "$@" --json "$T_TMP/$name.json"
	fi
	unset BENCH_TEST_FAULT
	started "$name"
	if [ "$how" != pids ]; then
		for i in $(seq 6000); do
			c=$(child_of "$child")
			# consumer2: a thread after the first one seen
			if [ "$child" = consumer2 ] && [ -n "$c" ] &&
			   { [ -z "$first" ] || [ "$c" = "$first" ]; }; then
				first=$c c=
			fi
			[ -n "$c" ] || ! alive "$PID" && break
			sleep 0.01
		done
		# in its loop, or draining
		[ "$child" = worker ] && sleep 0.3
		hold "$how" "$c"
	fi
	m_ends
	m_check "$name" 1 "$re"
	[ "$how" = stop ] && [ -n "$c" ] && kill -CONT "$c" 2>/dev/null
	[ -n "${CG:-}" ] && cgroup_thaw_remove "$CG"
	CG=
}

# ---- the regressions of issue 34 ----

# a SIGTERM while a session's workers set up (the test fault slow-setup
# makes it 0.5 s) ended nothing: each round tried again, for ever
sec_sigstart() {
	BENCH_TEST_FAULT=slow-setup BIN=$TESTING/test_overhead run_bg sigstart \
		-q -c 1 -m raw_tp -e getpgid -n 2000 -r 1
	wait_for sigstart eval '[ -n "$(pgrep -P "$PID")" ]'
	sleep 0.1
	send TERM
	m_ends
	m_check sigstart 143 'interrupted by'
	expect "SIGTERM while workers set up: nothing printed on stdout" test ! -s "$T_TMP/sigstart.out"
}

# a worker frozen by cgroup v2 in its first sample: the row fails,
# named, within seconds (it sleeps, S: a sleep without progress)
sec_frozen() {
	stall_case frozen worker freeze2 "$TO" -c 1 -m base -e getpgid -r 1 -n 20000000
}

# the v1 freezer's: a SIGKILL waits for a thaw; the run moves it back
# to its own freezer cgroup to end it
sec_frozen1() {
	stall_case frozen1 worker freeze1 "$TO" -c 1 -m base -e getpgid -r 1 -n 20000000
}

# --memory's creator stopped: the row fails, named
sec_creator() {
	stall_case creator creator stop "$MP" --memory hash --entries 65536
}

# SIGKILL during --memory: the creator removes the row's cgroup itself;
# what a killed run left all the same, the next run removes and names
sec_killed() {
	local parent stale pid=4194303
	sig_case killed KILL middle memory "$MP" --memory hash,array --entries 65536
	# a run of a pid that cannot be: its cgroup, as a SIGKILL between two
	# steps leaves it
	parent=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	parent=/sys/fs/cgroup/memory${parent%/}
	if [ ! -d "$parent" ]; then
		skip "a stale --memory cgroup: no v1 memory hierarchy here"
		return
	fi
	stale=$parent/map_perf_test-memory.$pid.hash.1000
	mkdir "$stale" && at_exit rmdir "$stale"
	BIN=$MP run_json stale --memory array --entries 1000
	expect "a killed run's --memory cgroup: removed by the next run ($RC)" test ! -d "$stale"
	expect "a killed run's --memory cgroup: named in one line" \
		grep -q "removed what killed runs left behind: cgroup $stale" "$T_TMP/stale.err"
}

# fault_case NAME FAULT COUNT REASON: test_overhead's base row with a
# test fault that holds its workers: the row fails, saying REASON
fault_case() {
	BENCH_TEST_FAULT=$2 BIN=$TESTING/test_overhead run_bg "$1" \
		-c 1 -m base -e getpgid -r 1 -n "$3" --json "$T_TMP/$1.json"
	started "$1"
	m_ends
	m_check "$1" 1 "$4"
}

# workers that sleep for good in their set-up (the test fault
# stuck-setup): the row fails, the worker named with its sleep
sec_asleep() {
	fault_case asleep stuck-setup 2000 'got no CPU time to speak of .*sleeping \(S\)'
}

# loops that never end (the test fault endless-loop): the first sample
# has a deadline of its own, 5 s and 100 us an event
sec_endless() {
	fault_case endless endless-loop 1000 'past its deadline \(5\.1 s\)'
}

# --prog-stats' pass: a SIGTERM while its session's workers set up
sec_sigstats() {
	# SCHED_FIFO: a row disturbed on a busy machine has no stats pass
	BENCH_TEST_FAULT=slow-setup BIN=chrt run_bg sigstats -f 1 \
		"$TESTING/test_overhead" -q -c 1 -m raw_tp -e getpgid -n 2000 -r 1 --prog-stats
	wait_for sigstats eval 'has_anon "$PID" bpf-stats && [ -n "$(pgrep -P "$PID")" ]'
	sleep 0.1
	send TERM
	m_ends
	m_check sigstats 143 'interrupted by'
	expect "SIGTERM while --prog-stats' workers set up: nothing printed on stdout" test ! -s "$T_TMP/sigstats.out"
}

# --memory's creator killed: the row fails, naming its death
sec_creatorkill() {
	stall_case creatorkill creator kill "$MP" --memory hash --entries 65536
}

# ---- one case of each kind (make check) ----

sec_kinds() {
	sig_case int-middle INT middle measure "$MP" -t hash_lookup -a raw_tp -r 2 -n 200000
	sig_case hup-printing HUP printing measure "$TO" -m raw_tp -e getpgid -r 1 -n 2000 --json -
	stall_case consumer-frozen1 consumer freeze1 "$MP" -t ringbuf_output -a raw_tp -c 2 -r 1 -n 200000
	# a unit of several row samples (a tracepoint's detach is dear),
	# the consumer restarted between them: frozen in the first, named
	stall_case consumer-frozen1-unit consumer2 freeze1 "$MP" -t ringbuf_output -a tracepoint -c 2 -w 1 -n 200000
	stall_case fib-pids fib pids "$TO" -c 1 -m raw_tp -e fib_table_lookup -r 1 -n 2000
}

# ---- the whole matrix (MATRIX=full) ----

# each program's ways of running: MODE|PROG|ARGS (PROG chrt: under
# SCHED_FIFO, for the passes only rows with a figure get, which a busy
# machine's disturbed rows would not; on one CPU, the other the test's).
# map_perf_test's there with -n 300000: a sample under SCHED_FIFO longer
# than the RT throttle's 0.95 s a second is throttled, so disturbed and
# run again; at -n 2000000 (3 s a sample here) each case took 65-86 s,
# its run ended disturbed and its pass, the middle moment, never came
MODES="measure|$TO|-m raw_tp -e getpgid -r 2 -n 200000
r|$TO|-m raw_tp,tp_btf -e getpgid -r 3 -n 100000 -w 1
d|$TO|-m raw_tp -e getpgid -r 2 -d 0.1
profile|chrt|-f 1 $TO -c 1 -m raw_tp -e getpgid -r 1 -n 2000000 --profile
progstats|chrt|-f 1 $TO -c 1 -m raw_tp -e getpgid -r 1 -n 2000000 --prog-stats
attachtime|$TO|--attach-time
curves|$TO|-m raw_tp -e getpgid --progs 1,2,4 -r 1 -n 200000
ktap|$TO|-m raw_tp -e getpgid -r 2 -n 200000 --ktap
list|$TO|--list
measure|$MP|-t hash_lookup -a raw_tp -r 2 -n 200000
r|$MP|-t hash_lookup,array_lookup -a raw_tp -r 3 -n 100000 -w 1
d|$MP|-t hash_lookup -a raw_tp -r 2 -d 0.1
memory|$MP|--memory hash,array,lpm_trie --entries 65536
profile|chrt|-f 1 $MP -c 1 -t hash_lookup -a raw_tp -r 1 -n 300000 --profile
progstats|chrt|-f 1 $MP -c 1 -t hash_lookup -a raw_tp -r 1 -n 300000 --prog-stats
curves|$MP|-t hash_lookup -a raw_tp --scale -r 1 -n 200000
ktap|$MP|-t hash_lookup -a raw_tp -r 2 -n 200000 --ktap
list|$MP|--list"

sec_signals() {
	local mode prog args sig moment short json
	while IFS='|' read -r mode prog args <&3; do
		[ -z "$T_LOCK_HELD" ] || release_lock
		hold_lock
		# (SCHED_FIFO for the passes that only rows with a figure get)
		short=$( [ "$prog" = chrt ] && set -- $args && basename "$3" || basename "$prog")
		short=$(echo "$short" | cut -c1-3)
		for sig in TERM INT HUP; do
			for moment in early middle printing; do
				[ "$mode" = list ] && [ "$moment" != printing ] && continue
				json=()
				[ "$moment" = printing ] && [ "$mode" != list ] &&
					[ "$mode" != ktap ] && json=(--json -)
				# shellcheck disable=SC2086 # $args: the words of MODES
				sig_case "$short-$mode-$sig-$moment" "$sig" "$moment" "$mode" "$prog" $args "${json[@]}"
			done
		done
		moment=middle
		[ "$mode" = list ] && moment=printing
		# shellcheck disable=SC2086
		sig_case "$short-$mode-KILL" KILL "$moment" "$mode" "$prog" $args
	done 3<<<"$MODES"
}

# --compare: reading its input (a FIFO nobody writes) and printing
sec_compare() {
	local prog name sig src
	run_json cmp-to -m raw_tp -e getpgid -r 1 -n 2000 >/dev/null
	BIN=$MP run_json cmp-map -t hash_lookup -a raw_tp -r 1 -n 2000 >/dev/null
	mkfifo "$T_TMP/never.json"
	for prog in "$TO" "$MP"; do
		name=$(basename "$prog" | cut -c1-3)
		src=$T_TMP/cmp-to.json
		[ "$prog" = "$MP" ] && src=$T_TMP/cmp-map.json
		for sig in TERM INT HUP KILL; do
			BIN=$prog run_bg "$name-compare-$sig-early" --compare "$T_TMP/never.json" "$src"
			started "$name-compare-$sig-early"
			sleep 0.1
			send "$sig"
			m_ends
			m_check "$name-compare-$sig-early" $((128 + $(sig_num "$sig"))) \
				"$([ "$sig" != KILL ] && echo 'interrupted by')"
			sig_case "$name-compare-$sig-printing" "$sig" printing compare "$prog" --compare "$src" "$src"
		done
	done
}

sec_stalls() {
	local how
	for how in ${STALL_HOWS:-stop kill freeze2 freeze1 pids}; do
		stall_case "worker-$how" worker "$how" "$TO" -c 1 -m raw_tp -e getpgid -r 1 -n 20000000
		# (in its set-up: after one failed row, the next ones run)
		stall_case "worker-map-$how" setup "$how" "$MP" -c 1 -t hash_lookup -a raw_tp -r 1 -n 200000
		stall_case "creator-$how" creator "$how" "$MP" --memory hash --entries 65536
		stall_case "fib-$how" fib "$how" "$TO" -c 1 -m raw_tp -e fib_table_lookup -r 1 -n 2000
	done
	# a thread: SIGSTOP stops its whole process, and cgroup v2 moves
	# whole processes; the v1 freezer and pids.max hold it alone
	for how in freeze1 pids; do
		stall_case "consumer-$how" consumer "$how" "$MP" -t ringbuf_output -a raw_tp -c 2 -r 1 -n 200000
	done
	stall_case "worker-ktap-freeze2" worker freeze2 "$TO" -c 1 -m raw_tp -e getpgid -r 1 -n 20000000 --ktap
}

# ---- hostile surroundings: signals (issue 44) ----
# Every signal whose default action ends a process and that comes from
# outside it (runner/core/msg.c's table, the real-time ones at either
# end) ends a run as SIGTERM does, early, in the middle and while
# printing, in both programs, their --json, --memory, --ktap and
# --compare runs: 128+N, one line naming it as glibc does, nothing
# left, the last --json kept. A reader that goes while the run prints
# (the kernel's SIGPIPE for a write of its own) is an output error: exit
# 1, saying so, the last --json kept. make check runs one case of each
# kind; MATRIX=full every signal at every moment of every way (HS_SIGS: those
# signals alone).
HS_SIGS=${HS_SIGS:-"HUP INT QUIT TERM USR1 USR2 PIPE ALRM STKFLT XCPU XFSZ VTALRM PROF IO PWR RTMIN RTMAX"}

# hs_name SIG: its name, as the runner says it (glibc's strsignal), in
# $HS_NAME; asked of Python once a signal, not once a case
declare -A HS_NAMES
hs_name() {
	[ -n "${HS_NAMES[$1]:-}" ] ||
		HS_NAMES[$1]=$(python3 -c 'import signal, sys; print(signal.strsignal(int(sys.argv[1])))' "$(sig_num "$1")")
	HS_NAME=${HS_NAMES[$1]}
}

# hs_case NAME SIG MOMENT MODE PROG ARGS...: SIG at MOMENT (early,
# middle, printing) of PROG ARGS (MODE: what middle is); the line that
# says it names it
hs_case() {
	local name=$1 sig=$2 moment=$3 mode=$4 prog=$5 re
	shift 5
	hs_name "$sig"
	re="interrupted by $HS_NAME"
	case $moment in
	early | middle)
		prev_json "$T_TMP/$name.prev"
		BIN=$prog run_bg "$name" "$@" --json "$M_PREV"
		if [ "$moment" = early ]; then
			# the program itself, past its wrappers' exec
			wait_for "$name" eval '[ "$(basename "$(readlink /proc/"$PID"/exe)")" = "$(basename "$prog")" ]'
		else
			wait_for "$name" middle "$mode"
		fi
		sleep 0.1 ;;
	printing)
		full_pipe
		BIN='sh' run_bg "$name" -c 'exec "$@" >"$0"' "$FULL" "$prog" "$@"
		wait_for "$name" blocked ;;
	esac
	send "$sig"
	m_ends
	m_check "$name" $((128 + $(sig_num "$sig"))) "$re"
}

# hs_reader NAME PROG ARGS...: PROG ARGS --json FILE prints to a full
# pipe, whose reader then goes: exit 1, the broken pipe said, FILE kept.
# The reader is a process of its own, which the run cannot inherit.
hs_reader() {
	local name=$1 fifo=$T_TMP/$1.fifo reader prev beside
	shift
	prev_json "$T_TMP/$name.prev"
	prev=$M_PREV
	mkfifo "$fifo"
	"$T_PYTHON" -c 'import ctypes, fcntl, os, signal, sys
ctypes.CDLL(None).prctl(1, 9)	# PR_SET_PDEATHSIG, SIGKILL: never orphaned
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.fcntl(fd, 1031, 4096)		# F_SETPIPE_SZ: a page
os.set_blocking(fd, False)
try:
	while True:
		os.write(fd, b"x" * 64)
except BlockingIOError:
	pass
print("full", flush=True)
signal.pause()' "$fifo" >"$T_TMP/$name.reader" &
	reader=$!
	T_BG+=("$reader")
	for _ in $(seq 200); do grep -qs full "$T_TMP/$name.reader" && break; sleep 0.05; done
	BIN='sh' run_bg "$name" -c 'exec "$@" >"$0"' "$fifo" "$@" --json "$prev"
	wait_for "$name" blocked
	# the reader goes: the blocked write fails (EPIPE)
	kill "$reader"
	wait "$reader" 2>/dev/null
	m_ends
	m_check "$name" 1 'stdout failed: Broken pipe'
	beside=$(ls -d "$(dirname "$prev")"/.*"$(basename "$prev")"* 2>/dev/null | tr '\n' ' ')
	if cmp -s "$prev" "$prev.was" && [ -z "$beside" ]; then
		pass "$name: the previous --json file is as it was, nothing beside it"
	else
		M_JSON=$((M_JSON + 1))
		fail "$name: the previous --json file changed${beside:+, beside it: $beside}"
	fi
}

# each way of running: MODE|PROG|ARGS (--json FILE early and in the
# middle, --json - while printing but for --ktap's)
HS_MODES="measure|$TO|-m raw_tp -e getpgid -r 2 -n 200000
measure|$MP|-t hash_lookup -a raw_tp -r 2 -n 200000
memory|$MP|--memory hash,array,lpm_trie --entries 65536
ktap|$TO|-m raw_tp -e getpgid -r 2 -n 200000 --ktap
ktap|$MP|-t hash_lookup -a raw_tp -r 2 -n 200000 --ktap"

# hs_ways SIG MOMENT WAY...: SIG at MOMENT of each WAY (HS_MODES' lines)
hs_ways() {
	local sig=$1 moment=$2 mode prog args short w
	shift 2
	for w in "$@"; do
		IFS='|' read -r mode prog args <<<"$w"
		short=$(basename "$prog" | cut -c1-3)
		# shellcheck disable=SC2086,SC2046
		hs_case "hs-$short-$mode-$sig-$moment" "$sig" "$moment" "$mode" "$prog" $args \
			$([ "$moment" = printing ] && [ "$mode" != ktap ] && echo --json -)
	done
}

# every signal at every moment, each (signal, moment) on one way in
# turn, so that every way meets every moment and many signals
# (MATRIX=full; HS_PRODUCT=1: every signal at every moment of every
# way, about 2.5 min a signal here, too long for CI's matrix)
hs_full() {
	local mode prog args sig moment short src ways=() i=0 w
	mapfile -t ways <<<"$HS_MODES"
	# the section's runs hold the tools' lock already (the loop at the
	# end takes it for each section): a second hold_lock would wait for
	# the first for ever
	[ -n "$T_LOCK_HELD" ] || hold_lock
	for sig in $HS_SIGS; do
		w=0
		for moment in early middle printing; do
			if [ -n "${HS_PRODUCT:-}" ]; then
				hs_ways "$sig" "$moment" "${ways[@]}"
			else
				hs_ways "$sig" "$moment" "${ways[(i + w) % ${#ways[@]}]}"
			fi
			w=$((w + 1))
		done
		i=$((i + 1))
	done
	for w in "${ways[@]}"; do
		IFS='|' read -r mode prog args <<<"$w"
		short=$(basename "$prog" | cut -c1-3)
		# shellcheck disable=SC2086
		hs_reader "hs-$short-$mode-reader" "$prog" $args
	done
	# --compare: reading its input (a FIFO nobody writes), and printing
	run_json hs-cmp-to -m raw_tp -e getpgid -r 1 -n 2000 >/dev/null
	BIN=$MP run_json hs-cmp-map -t hash_lookup -a raw_tp -r 1 -n 2000 >/dev/null
	mkfifo "$T_TMP/hs-never.json"
	# each signal on one program at one moment in turn (HS_PRODUCT=1: all)
	local progs=("$TO" "$MP") moments=(early printing) p m
	i=0
	for sig in $HS_SIGS; do
		for p in 0 1; do
			for m in 0 1; do
				[ -n "${HS_PRODUCT:-}" ] ||
					{ [ "$p" -eq $((i % 2)) ] && [ "$m" -eq $((i / 2 % 2)) ]; } ||
					continue
				hs_compare "$sig" "${moments[m]}" "${progs[p]}"
			done
		done
		i=$((i + 1))
	done
}

# hs_compare SIG MOMENT PROG: SIG while PROG's --compare reads its input
# (a FIFO nobody writes) or prints
hs_compare() {
	local sig=$1 moment=$2 prog=$3 short src
	short=$(basename "$prog" | cut -c1-3)
	src=$T_TMP/hs-cmp-to.json
	[ "$prog" = "$MP" ] && src=$T_TMP/hs-cmp-map.json
	if [ "$moment" = early ]; then
		hs_case "hs-$short-compare-$sig-early" "$sig" early compare "$prog" \
			--compare "$T_TMP/hs-never.json" "$src"
	else
		hs_case "hs-$short-compare-$sig-printing" "$sig" printing compare "$prog" \
			--compare "$src" "$src"
	fi
}

# one case of each kind (make check): a user's signal in the middle, a
# terminal's early in --memory, a real-time one while --ktap prints, a
# SIGPIPE sent by another process, one while --compare reads, and the
# reader gone
hs_quick() {
	$STATS --write-results "$T_TMP/hs-a.json"
	mkfifo "$T_TMP/hs-never.json"
	hs_case hs-to-measure-USR1-middle USR1 middle measure "$TO" -m raw_tp -e getpgid -r 2 -n 200000
	hs_case hs-map-memory-QUIT-early QUIT early memory "$MP" --memory hash --entries 65536
	hs_case hs-to-ktap-RTMIN-printing RTMIN printing ktap "$TO" -m raw_tp -e getpgid -r 1 -n 2000 --ktap
	hs_case hs-map-measure-PIPE-early PIPE early measure "$MP" -t hash_lookup -a raw_tp -r 2 -n 200000
	hs_case hs-to-compare-XFSZ-early XFSZ early compare "$TO" --compare "$T_TMP/hs-never.json" "$T_TMP/hs-a.json"
	hs_reader hs-to-measure-reader "$TO" -m raw_tp -e getpgid -r 1 -n 2000
}

sec_hostile-signals() {
	if [ "${MATRIX:-}" = full ]; then hs_full; else hs_quick; fi
}

# ---- hostile surroundings, paths: --json, the lock, --compare's input ----
# Each a symbolic link (dangling or not), a FIFO, a directory, a place
# that cannot be written (read-only, full: a small tmpfs of the test's),
# a name with a space or a newline. Each case ends within $LIMIT s with
# its documented status (Documentation/common_options.rst: a place that
# cannot take the results is refused before anything runs, exit 1; bad
# --compare input, exit 2), leaves nothing, keeps the last results.
# make check runs one case of each kind; MATRIX=full every one.
HP_QUICK=" json-dangling json-fifo lock-dir json-full cmp-newline "

# hp_case NAME WANT RE PLANT ARGS...: $BIN ARGS, checked by m_check;
# PLANT: shell text run first in the run's own /run/lock (a tmpfs of its
# mount namespace, run_bg's), "" for none. Skipped outside HP_QUICK
# unless MATRIX=full.
hp_case() {
	local name=$1 want=$2 re=$3 plant=$4 bin=$BIN
	shift 4
	[ "${MATRIX:-}" = full ] || [[ $HP_QUICK == *" $name "* ]] || return 0
	if [ -n "$plant" ]; then
		# never planted in the machine's /run/lock
		[ -z "$T_REAL_LOCK" ] || { skip "$name: no private /run/lock here"; return 0; }
		set -- -c "cd /run/lock && $plant && exec \"\$0\" \"\$@\"" "$TOP/${BIN#./}" "$@"
		bin="sh"
	fi
	BIN=$bin run_bg "$name" "$@"
	started "$name"
	m_ends
	# exit 1 too keeps the last results here: refused or not written
	WANT_DONE="0 3 4" m_check "$name" "$want" "$re"
}

# hp_wrote NAME FILE: the run NAME completed and FILE holds its results
hp_wrote() {
	[ "${MATRIX:-}" = full ] || [[ $HP_QUICK == *" $1 "* ]] || return 0
	expect "$1: its results are in ${2#"$T_TMP"/}" J "$2" '"results" in d and len(R) >= 1'
}

sec_hostile-paths() {
	local d=$T_TMP/hp args=(-m raw_tp -e getpgid -r 1 -n 20000) l=bpf-overhead-bench.lock
	local small=$T_TMP/hp-small src ro=$T_TMP/hp-ro nl
	nl=$d/'a b
c.json'
	mkdir -p "$d/sub" "$small" "$ro"
	# --json: links written through, the rest refused before it runs
	ln -s sub/made.json "$d/dangling.json"
	hp_case json-dangling "$WANT_DONE" "" "" "${args[@]}" --json "$d/dangling.json"
	hp_wrote json-dangling "$d/sub/made.json"
	prev_json "$d/sub/live.json"
	ln -s sub/live.json "$d/live.json"
	M_PREV=
	hp_case json-link "$WANT_DONE" "" "" "${args[@]}" --json "$d/live.json"
	hp_wrote json-link "$d/sub/live.json"
	mkfifo "$d/fifo"
	hp_case json-fifo 1 "FIFO that nobody reads" "" "${args[@]}" --json "$d/fifo"
	mkdir "$d/dir.json"
	hp_case json-dir 1 "it is a directory" "" "${args[@]}" --json "$d/dir.json"
	prev_json "$d/prev.json"
	hp_case json-slash 1 "Not a directory" "" "${args[@]}" --json "$d/prev.json/"
	prev_json "$nl"
	M_PREV=
	hp_case json-newline "$WANT_DONE" "" "" "${args[@]}" --json "$nl"
	hp_wrote json-newline "$nl"
	# a read-only and a full file system: tmpfs of the test's, undone
	if set_up "two 16 KiB tmpfs" eval 'mount -t tmpfs -o size=16k tmpfs "$small" && mount -t tmpfs -o size=16k tmpfs "$ro"'; then
		at_exit umount "$small"
		at_exit umount "$ro"
		prev_json "$ro/prev.json"
		mount -o remount,ro "$ro"
		hp_case json-ro 1 "Read-only file system" "" "${args[@]}" --json "$ro/prev.json"
		prev_json "$small/prev.json"
		head -c 1M /dev/zero >"$small/fill" 2>/dev/null
		hp_case json-full 1 "No space left" "" "${args[@]}" --json "$small/prev.json"
	fi
	# the lock: refused as what it is, a link's target never written
	echo precious >"$d/lock-target"
	hp_case lock-link 1 "is a symbolic link" "ln -s '$d/lock-target' $l" "${args[@]}" --lock-wait 0
	[ "$(cat "$d/lock-target")" = precious ] || fail "lock-link: the link's target was written"
	hp_case lock-dangling 1 "is a symbolic link" "ln -s '$d/lock-made' $l" "${args[@]}" --lock-wait 0
	[ ! -e "$d/lock-made" ] || fail "lock-dangling: the link's target was made"
	hp_case lock-fifo 1 "is a FIFO" "mkfifo $l" "${args[@]}" --lock-wait 0
	hp_case lock-dir 1 "is a directory" "mkdir $l" "${args[@]}" --lock-wait 0
	prev_json "$d/lock-prev.json"
	hp_case lock-newline 1 'ev\\x1bil' "printf '4242 ev\\033il\\n' >$l; exec 9<$l; flock 9" \
		"${args[@]}" --lock-wait 0 --json "$d/lock-prev.json"
	# --compare's input: followed, read as it comes, or refused (exit 2)
	src=$d/src.json
	./build/dynamic/stats_test --write-results "$src"
	ln -s src.json "$d/src-link.json"
	hp_case cmp-link 0 "" "" --compare "$d/src-link.json" "$src"
	ln -s nowhere.json "$d/missing-link.json"
	hp_case cmp-dangling 2 "No such file" "" --compare "$d/missing-link.json" "$src"
	mkfifo "$d/in.fifo"
	if [ "${MATRIX:-}" = full ]; then
		cat "$src" >"$d/in.fifo" &
		T_BG+=("$!")
	fi
	hp_case cmp-fifo 0 "" "" --compare "$d/in.fifo" "$src"
	hp_case cmp-dir 2 "Is a directory" "" --compare "$d" "$src"
	cp "$src" "$nl.src"
	hp_case cmp-newline 0 "" "" --compare "$nl.src" "$src"
	# (the full tmpfs's previous file, kept by json-full)
	[ -f "$small/prev.json.was" ] && M_PREV=$small/prev.json
	hp_case cmp-full 1 "No space left" "" --compare "$src" "$src" --json "$small/prev.json"
	umount "$small" "$ro" 2>/dev/null
}

summary() {
	echo "# matrix: $M_CASES cases run ($M_DONE ended before their signal), $M_HANGS hangs, $M_LEFT with leftovers, $M_CODES wrong exit codes, $M_JSON previous --json files changed"
}

QUICK="sigstart frozen creator killed kinds hostile-signals"
FULL="frozen1 asleep endless sigstats creatorkill signals compare stalls"
QUICK="$QUICK hostile-paths"
list=$QUICK
[ "${MATRIX:-}" = full ] || [ -n "${T_SECTIONS:-}" ] && list="$QUICK $FULL"
# The tools' lock, held for each section (each mode of sec_signals): its
# runs one after another, none waiting for another suite's in between
# (their watchers turn the stats on); the whole matrix, section by
# section, lets other suites' runs in between on a shared machine.
for sec in $list; do
	[ -z "${T_SECTIONS:-}" ] || [[ " $T_SECTIONS " == *" $sec "* ]] || continue
	[ "$sec" = signals ] || hold_lock
	sections "$sec"
	[ -z "$T_LOCK_HELD" ] || release_lock
done
summary
finish
