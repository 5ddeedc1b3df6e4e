#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the programs write, and what their status says of it: --json's
# file replaced whole or not at all (a refused, interrupted, killed or
# failed run keeps the last one, and leaves no file beside it), every
# output that cannot be written an error (exit 1, one line naming it),
# the options of each way of running (a table, refused elsewhere), and
# --compare's refusal of numbers no run writes. Through exit codes and
# the files themselves; never an absolute rate.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./test_overhead
STATS=./build/dynamic/stats_test
SHORT=(-q -r 1 -n 2000 -m 'base,raw_tp' -e getpgid)
SAYS=(-r 1 -n 2000 -m 'base,raw_tp' -e getpgid)
LONG=(-q -r 200 -n 200000 -m 'base,raw_tp' -e getpgid)

# a previous results file: what a run must keep unless it completes
PREV='{"previous": "results"}'
prev_file() {
	printf '%s\n' "$PREV" >"$1"
	chmod 640 "$1"
}
# kept FILE: FILE is the previous results, and nothing lies beside it
kept() {
	[ "$(cat "$1")" = "$PREV" ] && [ -z "$(tmp_beside "$1")" ]
}
# tmp_beside FILE: the temporary files of FILE in its directory
tmp_beside() {
	local d b
	d=$(dirname "$1")
	b=$(basename "$1")
	find "$d" -maxdepth 1 -name ".$b.tmp.*" -printf '%f\n'
}

# --- item: --json FILE replaced only by a run that completed
sec_keep() {
	local f=$T_TMP/keep/prev.json pid left small
	mkdir -p "$T_TMP/keep"
	prev_file "$f"
	# refused: the lock held by another run
	hold_lock
	run_capture busy $BIN "${SHORT[@]}" --lock-wait 0 --json "$f"
	release_lock
	expect "lock busy: exit 1, the previous --json file kept, nothing beside it (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && kept "$f"'
	# refused: no privileges; a bad option
	run_capture nopriv setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all $BIN "${SHORT[@]}" --json "$f"
	expect "no privileges: exit 1, the previous file kept (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && kept "$f"'
	run_capture badopt $BIN "${SHORT[@]}" --json "$f" --budget 0
	expect "a bad option: exit 2, the previous file kept (rc=$RC)" \
		eval '[ "$RC" -eq 2 ] && kept "$f"'
	# interrupted mid-run
	run_bg term "${LONG[@]}" --json "$f"
	set_up "SIGTERM mid-run: a sample with programs attached is on" wait_attached term
	expect "while the run is on, its temporary file is beside the target, named for its pid" \
		test "$(tmp_beside "$f")" = ".prev.json.tmp.$PID"
	kill -TERM "$PID"
	ends_within 30
	run_end term
	expect "SIGTERM mid-run: exit 143, the previous file kept, nothing beside it (rc=$RC)" \
		eval '[ "$RC" -eq 143 ] && kept "$f"'
	cleanup_checked term
	# killed: its temporary file stays, named for it, till the next run
	run_bg kill "${LONG[@]}" --json "$f"
	set_up "SIGKILL mid-run: a sample with programs attached is on" wait_attached kill
	pid=$PID
	kill -KILL "$PID"
	run_end kill
	expect "SIGKILL mid-run: the previous file kept, the run's temporary file left (.prev.json.tmp.$pid)" \
		eval '[ "$(cat "$f")" = "$PREV" ] && [ "$(tmp_beside "$f")" = ".prev.json.tmp.$pid" ]'
	cleanup_checked kill
	# a run that completes replaces it, as fopen() would have: its mode
	# kept; and removes the killed run's file, saying so
	run_bg "done" "${SAYS[@]}" --json "$f"
	run_end "done"
	expect "a completed run: exit 0 or 3, the file its results, mode 640 kept (rc=$RC)" \
		eval '[ "$RC" -eq 0 -o "$RC" -eq 3 ] && J "$f" "d[\"tool\"] == \"test_overhead\" and len(R) == 2" && [ "$(stat -c %a "$f")" = 640 ]'
	expect "a completed run: the killed run's file removed, and named ($(grep removed "$T_TMP/done.err" | head -c 200))" \
		eval '[ -z "$(tmp_beside "$f")" ] && grep -q "removed .*prev.json.tmp.$pid, left by a run (pid $pid)" "$T_TMP/done.err"'
	cleanup_checked "done"
	# failed to write: a file system that takes the temporary file, not
	# the results; --list and --compare alike
	small=$T_TMP/small
	mkdir -p "$small"
	set_up "a 64 KiB tmpfs" mount -t tmpfs -o size=64k tmpfs "$small" || return
	at_exit umount "$small"
	prev_file "$small/prev.json"
	# every byte taken: a file can be made, not written
	head -c 1M /dev/zero >"$small/fill" 2>/dev/null
	run_bg full "${SHORT[@]}" --json "$small/prev.json"
	run_end full
	expect "a run whose --json cannot be written (ENOSPC): exit 1, one line naming it, the previous file kept (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && grep -q "writing .*prev.json failed: No space left" "$T_TMP/full.err" && kept "$small/prev.json"'
	cleanup_checked full
	run_capture listfull $BIN --list --json "$small/prev.json"
	expect "--list --json that cannot be written: exit 1, the previous file kept (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && kept "$small/prev.json"'
	$STATS --write-results "$T_TMP/a.json"
	run_capture cmpfull $BIN --compare "$T_TMP/a.json" "$T_TMP/a.json" --json "$small/prev.json"
	expect "--compare --json that cannot be written: exit 1, the previous file kept (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && kept "$small/prev.json"'
	run_capture cmpbad $BIN --compare "$T_TMP/a.json" "$T_TMP/missing.json" --json "$f"
	expect "--compare of a missing file: exit 2, its --json file kept (rc=$RC)" \
		eval '[ "$RC" -eq 2 ] && J "$f" "d[\"tool\"] == \"test_overhead\""'
	# a device is written in place, never replaced (a null device of the
	# test's own); a link's file is
	mknod "$T_TMP/keep/null" c 1 3
	run_capture devnull $BIN --list --json "$T_TMP/keep/null"
	expect "--json to a null device: exit 0, the device still there, written in place (rc=$RC)" \
		eval '[ "$RC" -eq 0 ] && [ -c "$T_TMP/keep/null" ] && [ -z "$(tmp_beside "$T_TMP/keep/null")" ]'
	ln -s prev.json "$T_TMP/keep/link.json"
	run_capture link $BIN --list --json "$T_TMP/keep/link.json"
	expect "--json LINK: the link stays, its file gets the results (rc=$RC)" \
		eval '[ "$RC" -eq 0 ] && [ -L "$T_TMP/keep/link.json" ] && J "$f" "\"rows\" in d"'
	# a signal while the results are written: a compare whose table
	# fills a pipe nobody reads, its --json file's temporary file made
	python3 - "$T_TMP/a.json" "$T_TMP/big.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = next(r for r in d["results"] if r["status"] == "ok")
d["results"] = [dict(r, variant="v%d" % i) for i in range(3000)]
json.dump(d, open(sys.argv[2], "w"))
EOF
	cp "$T_TMP/big.json" "$T_TMP/big2.json"
	prev_file "$T_TMP/keep/cmp.json"
	mkfifo "$T_TMP/stall"
	$BIN --compare "$T_TMP/big.json" "$T_TMP/big2.json" --json "$T_TMP/keep/cmp.json" \
		>"$T_TMP/stall" 2>"$T_TMP/stall.err" &
	pid=$!
	exec 7<"$T_TMP/stall"
	for _ in $(seq 100); do [ -n "$(tmp_beside "$T_TMP/keep/cmp.json")" ] && break; sleep 0.05; done
	sleep 0.2
	kill -TERM "$pid"
	wait "$pid"
	RC=$?
	exec 7<&-
	expect "SIGTERM while writing (stdout a full pipe): exit 143, the previous --json file kept, nothing beside it (rc=$RC)" \
		eval '[ "$RC" -eq 143 ] && kept "$T_TMP/keep/cmp.json" && grep -q "while writing the results" "$T_TMP/stall.err"'
	left=$(find "$T_TMP" -name '.*.tmp.*' | head -n 3)
	expect "no temporary file left anywhere but the killed run's: ${left:-none}" test -z "$left"
}

# --- item: an output that cannot be written is an error: exit 1 (2 is
# bad input), one line naming it
sec_status() {
	$STATS --write-results "$T_TMP/a.json"
	run_capture lclosed sh -c 'exec "$0" "$@" >&-' $BIN --list --json -
	expect "--list --json - to a closed stdout: exit 1, one line naming stdout (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && grep -q "stdout is closed" "$T_TMP/lclosed.err" && [ "$(wc -l <"$T_TMP/lclosed.err")" -eq 1 ]'
	run_capture lnull sh -c 'exec "$0" "$@" >&-' $BIN --list --json "$T_TMP/l.json"
	expect "--list --json FILE with stdout closed: nothing was for stdout, exit 0 (rc=$RC)" \
		eval '[ "$RC" -eq 0 ] && J "$T_TMP/l.json" "\"rows\" in d"'
	run_capture cclosed sh -c 'exec "$0" "$@" >&-' $BIN --compare "$T_TMP/a.json" "$T_TMP/a.json"
	expect "--compare to a closed stdout: exit 1, one line (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && grep -q "stdout is closed" "$T_TMP/cclosed.err" && [ "$(wc -l <"$T_TMP/cclosed.err")" -eq 1 ]'
	run_capture cfull sh -c 'exec "$0" "$@" >/dev/full' $BIN --compare "$T_TMP/a.json" "$T_TMP/a.json"
	expect "--compare to /dev/full: exit 1, one line naming stdout (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && grep -q "stdout failed: No space left" "$T_TMP/cfull.err" && [ "$(wc -l <"$T_TMP/cfull.err")" -eq 1 ]'
	run_capture cjfull sh -c 'exec "$0" "$@" >/dev/full' $BIN --compare "$T_TMP/a.json" "$T_TMP/a.json" --json -
	expect "--compare --json - to /dev/full: exit 1, not 2, bad input's (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$T_TMP/cjfull.err")" -eq 1 ]'
	run_capture cjdev $BIN --compare "$T_TMP/a.json" "$T_TMP/a.json" --json /dev/full
	expect "--compare --json /dev/full: exit 1, one line naming it (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && grep -q "writing /dev/full failed" "$T_TMP/cjdev.err"'
	run_capture cjdir $BIN --compare "$T_TMP/a.json" "$T_TMP/a.json" --json /nonexistent/c.json
	expect "--compare --json in a missing directory: exit 1, one line (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$T_TMP/cjdir.err")" -eq 1 ]'
	# a run whose results cannot be written: exit 1, whatever its rows
	run_bg rfull "${SHORT[@]}" --json /dev/full
	run_end rfull
	expect "a run with --json /dev/full: exit 1, one line naming it (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && grep -q "writing /dev/full failed" "$T_TMP/rfull.err"'
	cleanup_checked rfull
}

# --- item: options that mean nothing in the way of running selected are
# refused, by a table (tests/options.py)
sec_options() {
	local p
	$STATS --write-results "$T_TMP/a.json"
	cp "$T_TMP/a.json" "$T_TMP/b.json"
	BIN=./map_perf_test
	bad_arg "--memory with -r, -w, -d, --profile, --prog-stats, -c (nothing samples)" \
		--memory hash -r 3 -w 2 -d 1 --profile --prog-stats -c 1
	bad_arg "--memory with --profile" --memory hash --profile
	bad_arg "--list with nr_cpus" --list 0x80 1
	bad_arg "--list --memory with --entries" --list --memory all -E 1000
	BIN=./test_overhead
	bad_arg "--list with -c" --list -c 1
	bad_arg "--attach-time with --profile" --attach-time --profile
	bad_arg "--compare with -r" --compare "$T_TMP/a.json" "$T_TMP/b.json" -r 2
	bad_arg "--threshold without --compare" -m raw_tp --threshold 5
	# every option in every way, the lock held: the runs end at it
	hold_lock
	for p in test_overhead map_perf_test; do
		./$p --list --json "$T_TMP/$p.list.json"
		checks_from python3 "$TESTS/options.py" check "./$p" "$T_TMP/$p.list.json" \
			"$T_TMP/a.json" "$T_TMP/b.json" "$T_TMP"
	done
	release_lock
	for p in test_overhead map_perf_test; do
		checks_from python3 "$TESTS/options.py" doc "$T_TMP/$p.list.json" \
			"Documentation/$p.rst"
	done
}

# hostile FILE FIELD VALUE...: a.json with the first ok row's units.FIELD
# set to the Python list VALUE
hostile() {
	python3 - "$T_TMP/a.json" "$@" <<'EOF'
import json, sys
src, out, field, value = sys.argv[1:]
d = json.load(open(src))
r = next(r for r in d["results"] if r["status"] == "ok")
r["units"][field] = eval(value)
json.dump(d, open(out, "w"))
EOF
}

# --- item: --compare refuses numbers no run writes, naming file and field
sec_compare() {
	local v
	$STATS --write-results "$T_TMP/a.json"
	for v in '[1e308, 1e308, -1e308, 1e308, 1e308]' '[1e14, 1, 2, 3, 4]'; do
		hostile "$T_TMP/h.json" values "$v"
		run_capture hv $BIN --compare "$T_TMP/a.json" "$T_TMP/h.json" --json "$T_TMP/hv.json"
		expect "--compare, units.values $v: exit 2, one line naming the file and units.values[0] (rc=$RC)" \
			eval '[ "$RC" -eq 2 ] && [ "$(wc -l <"$T_TMP/hv.err")" -eq 1 ] && grep -q "h.json: results\[[0-9]*\] (.*): units.values\[0\]" "$T_TMP/hv.err" && [ ! -e "$T_TMP/hv.json" ]'
	done
	for v in '[1e300, 1, 2, 3, 4]' '[-1e300, 1, 2, 3, 4]' '[2**40, 1, 2, 3, 4]' '[0.5, 1, 2, 3, 4]' '[-1, 1, 2, 3, 4]'; do
		hostile "$T_TMP/h.json" rounds "$v"
		run_capture hr $BIN --compare "$T_TMP/a.json" "$T_TMP/h.json"
		expect "--compare, units.rounds $v: exit 2, one line naming units.rounds[0] (rc=$RC)" \
			eval '[ "$RC" -eq 2 ] && [ "$(wc -l <"$T_TMP/hr.err")" -eq 1 ] && grep -q "h.json: .*units.rounds\[0\]" "$T_TMP/hr.err"'
	done
	hostile "$T_TMP/h.json" rounds '[0, 1]'
	run_capture hn $BIN --compare "$T_TMP/a.json" "$T_TMP/h.json"
	expect "--compare, fewer rounds than values: exit 2, one line (rc=$RC)" \
		eval '[ "$RC" -eq 2 ] && grep -q "h.json: .*rounds" "$T_TMP/hn.err"'
	hostile "$T_TMP/h.json" values '[9.9e12, 9.9e12, -9.9e12, 9.9e12, 9.9e12]'
	run_capture hok $BIN --compare "$T_TMP/a.json" "$T_TMP/h.json" --json "$T_TMP/hok.json"
	expect "--compare, values within 1e13 ns: compared, every number finite (rc=$RC)" \
		eval '[ "$RC" -eq 0 ] && J "$T_TMP/hok.json" "d[\"summary\"][\"compared\"] >= 1 and \"Infinity\" not in open(\"$T_TMP/hok.json\").read() and \"NaN\" not in open(\"$T_TMP/hok.json\").read()"'
}

# nopipe CMD...: CMD with its stdout a pipe whose reader is gone (a
# python that execs it: the same process, watched)
NOPIPE='import os, sys
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
os.execvp(sys.argv[1], sys.argv[1:])'
# one_line FILE: FILE is one line
one_line() { [ "$(wc -l <"$1")" -eq 1 ]; }

# --- item: a reader gone (SIGPIPE), a full stdout and a file size limit
# (SIGXFSZ) are output errors, for every way of running, --help too:
# exit 1, one line, the previous --json kept (issue 44, items 1 and 6)
sec_broken() {
	local f=$T_TMP/broken/prev.json p
	mkdir -p "$T_TMP/broken"
	prev_file "$f"
	BIN=python3 run_bg epipe -c "$NOPIPE" ./test_overhead "${SHORT[@]}" --json "$f"
	run_end epipe
	expect "stdout a pipe whose reader is gone: exit 1, one line (Broken pipe), the previous --json kept, nothing beside it (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/epipe.err" && grep -q "stdout failed: Broken pipe" "$T_TMP/epipe.err" && kept "$f"'
	cleanup_checked epipe
	BIN='sh' run_bg fullprev -c 'exec "$0" "$@" >/dev/full' ./test_overhead "${SHORT[@]}" --json "$f"
	run_end fullprev
	expect "stdout full, --json FILE: exit 1, one line, the previous --json kept, nothing beside it (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/fullprev.err" && grep -q "stdout failed: No space left" "$T_TMP/fullprev.err" && kept "$f"'
	cleanup_checked fullprev
	# RLIMIT_FSIZE: the kernel's SIGXFSZ fails the write (EFBIG)
	BIN='sh' run_bg fsize -c 'ulimit -f 2 && exec "$0" "$@"' ./test_overhead "${SHORT[@]}" --json "$f"
	run_end fsize
	expect "--json past RLIMIT_FSIZE: exit 1, one line (File too large), the previous --json kept, nothing beside it (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/fsize.err" && grep -q "prev.json failed: File too large" "$T_TMP/fsize.err" && kept "$f"'
	cleanup_checked fsize
	BIN='sh' run_bg ktapfull -c 'exec "$0" "$@" >/dev/full' ./test_overhead "${SHORT[@]}" --ktap
	run_end ktapfull
	expect "--ktap to /dev/full: exit 1, one line (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/ktapfull.err" && grep -q "stdout failed: No space left" "$T_TMP/ktapfull.err"'
	cleanup_checked ktapfull
	# the ways that take no lock: run as they are
	for p in ./test_overhead ./map_perf_test; do
		run_capture hfull sh -c 'exec "$0" "$@" >/dev/full' $p --help
		expect "$p --help to /dev/full: exit 1, one line (rc=$RC)" \
			eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/hfull.err" && grep -q "stdout failed: No space left" "$T_TMP/hfull.err"'
		run_capture hclosed sh -c 'exec "$0" "$@" >&-' $p --help
		expect "$p --help to a closed stdout: exit 1, one line (rc=$RC)" \
			eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/hclosed.err" && grep -q "stdout is closed" "$T_TMP/hclosed.err"'
		run_capture hpipe python3 -c "$NOPIPE" $p --help
		expect "$p --help to a pipe whose reader is gone: exit 1, one line (rc=$RC)" \
			eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/hpipe.err" && grep -q "stdout failed: Broken pipe" "$T_TMP/hpipe.err"'
	done
	run_capture lfull sh -c 'exec "$0" "$@" >/dev/full' $BIN --list
	expect "--list to /dev/full: exit 1, one line (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/lfull.err" && grep -q "stdout failed: No space left" "$T_TMP/lfull.err"'
	run_capture ljfull sh -c 'exec "$0" "$@" >/dev/full' $BIN --list --json -
	expect "--list --json - to /dev/full: exit 1, one line (rc=$RC): $(head -c 300 "$T_TMP/ljfull.err")" \
		eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/ljfull.err"'
	run_capture lpipe python3 -c "$NOPIPE" $BIN --list
	expect "--list to a pipe whose reader is gone: exit 1, one line (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/lpipe.err" && grep -q "stdout failed: Broken pipe" "$T_TMP/lpipe.err"'
	# a reader that goes after its first byte: a compare's table far
	# beyond a pipe's 64 KiB
	$STATS --write-results "$T_TMP/a.json"
	python3 - "$T_TMP/a.json" "$T_TMP/wide.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = next(r for r in d["results"] if r["status"] == "ok")
d["results"] = [dict(r, variant="v%d" % i) for i in range(3000)]
json.dump(d, open(sys.argv[2], "w"))
PY
	cp "$T_TMP/wide.json" "$T_TMP/wide2.json"
	prev_file "$f"
	$BIN --compare "$T_TMP/wide.json" "$T_TMP/wide2.json" --json "$f" 2>"$T_TMP/chead.err" | head -c1 >/dev/null
	RC=${PIPESTATUS[0]}
	expect "--compare | head -c1: exit 1, one line (Broken pipe), the previous --json kept, nothing beside it (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && one_line "$T_TMP/chead.err" && grep -q "stdout failed: Broken pipe" "$T_TMP/chead.err" && kept "$f"'
}

# lock_run NAME PLANT ARGS...: $BIN ARGS within 10 s, in a mount
# namespace of its own whose /run/lock (a tmpfs of its own, sticky and
# world-writable like the machine's) has had the shell text PLANT run in
# it first: the machine's lock is never touched. It ends at the lock.
lock_run() {
	local name=$1 plant=$2
	shift 2
	run_capture "$name" timeout -s KILL 10 unshare -m sh -c \
		'mount -t tmpfs -o size=64k,mode=1777 tmpfs /run/lock && cd /run/lock && eval "$1" && shift && exec "$@"' \
		sh "$plant" "$TOP/${BIN#./}" "$@"
}
# the lock refused: exit 1 within 10 s, one line naming it and what it is
lock_refused() {
	[ "$RC" -eq 1 ] && [ "$(wc -l <"$T_TMP/$1.err")" -eq 1 ] &&
		grep -q "the lock /run/lock/bpf-overhead-bench.lock is $2, not a regular file" "$T_TMP/$1.err"
}

# --- item: the lock is a regular file where it is: never a link's
# target written, never a FIFO waited on, its holder's text shown safe
sec_lock() {
	local l=bpf-overhead-bench.lock was
	# links to files of the test's: what the run would write is seen
	echo precious >"$T_TMP/lock-target"
	lock_run lsym "ln -s '$T_TMP/lock-target' $l" "${SHORT[@]}" \
		--lock-wait 0 --json "$T_TMP/lsym.json"
	expect "lock a symlink: exit 1, naming it a symbolic link, its target untouched, nothing run (rc=$RC)" \
		eval 'lock_refused lsym "a symbolic link" && [ "$(cat "$T_TMP/lock-target")" = precious ] && [ ! -e "$T_TMP/lsym.json" ]'
	lock_run ldang "ln -s '$T_TMP/lock-made' $l" "${SHORT[@]}" --lock-wait 0
	expect "lock a dangling symlink: exit 1, naming it a symbolic link, its target never made (rc=$RC)" \
		eval 'lock_refused ldang "a symbolic link" && [ ! -e "$T_TMP/lock-made" ]'
	lock_run ldir "mkdir $l" "${SHORT[@]}" --lock-wait 0
	expect "lock a directory: exit 1, one line naming it a directory (rc=$RC)" \
		lock_refused ldir "a directory"
	lock_run lfifo "mkfifo $l" "${SHORT[@]}" --lock-wait 0
	expect "lock a FIFO: exit 1, one line naming it a FIFO (rc=$RC)" \
		lock_refused lfifo "a FIFO"
	# another user's FIFO in a sticky directory, fs.protected_fifos on:
	# the O_CREAT open is refused, and a read-only one must not wait
	was=$(sysctl -n fs.protected_fifos)
	if set_up "fs.protected_fifos=1" sysctl -qw fs.protected_fifos=1; then
		at_exit sysctl -qw fs.protected_fifos="$was"
		lock_run lpfifo "mkfifo $l; chown 65534 $l" "${SHORT[@]}" --lock-wait 0
		sysctl -qw fs.protected_fifos="$was"
		expect "lock another user's FIFO, fs.protected_fifos=1: exit 1 at once, naming it a FIFO (rc=$RC)" \
			lock_refused lpfifo "a FIFO"
	fi
	# held, its text with controls: printed escaped, no control byte
	lock_run lhold "printf '4242 ev\\033]0;x\\007il\\n' >$l; exec 9<$l; flock 9" \
		"${SHORT[@]}" --lock-wait 0
	expect "lock held, its holder's text with controls: exit 1, the text escaped ($(head -c 160 "$T_TMP/lhold.err" | tr -c '[:print:]' '?'))" \
		eval '[ "$RC" -eq 1 ] && grep -qF "ev\\x1b]0;x\\x07il (pid 4242) is running" "$T_TMP/lhold.err" && ! LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n" <"$T_TMP/lhold.err")'
}

# refused NAME: exit 1, one line, no program loaded (nothing ran)
refused() {
	[ "$RC" -eq 1 ] && [ "$(wc -l <"$T_TMP/$1.err")" -eq 1 ] &&
		[ -z "$(ids "$1" prog)" ] && [ ! -s "$T_TMP/$1.out" ]
}

# --- item: a --json place that cannot take the results is refused
# before anything runs; links are written through, dangling or not
sec_paths() {
	local d=$T_TMP/paths f reader was
	mkdir -p "$d"
	run_capture jempty $BIN "${SHORT[@]}" --json ''
	expect "--json '': exit 2, one line, before anything runs (rc=$RC)" \
		eval '[ "$RC" -eq 2 ] && [ "$(wc -l <"$T_TMP/jempty.err")" -eq 1 ] && grep -q "empty file name" "$T_TMP/jempty.err"'
	run_bg jslash "${SHORT[@]}" --json "$d/n.json/"
	run_end jslash
	expect "--json NAME/: exit 1 before anything runs, one line (rc=$RC)" \
		eval 'refused jslash && grep -q "n.json/: Is a directory" "$T_TMP/jslash.err" && [ -z "$(ls -A "$d")" ]'
	cleanup_checked jslash
	mkdir "$d/dir.json"
	run_bg jdir "${SHORT[@]}" --json "$d/dir.json"
	run_end jdir
	expect "--json DIRECTORY: exit 1 before anything runs, naming it a directory (rc=$RC)" \
		eval 'refused jdir && grep -q "dir.json: it is a directory" "$T_TMP/jdir.err" && [ -z "$(ls -A "$d/dir.json")" ]'
	cleanup_checked jdir
	mkfifo "$d/fifo"
	run_bg jfifo "${SHORT[@]}" --json "$d/fifo"
	started jfifo && ends_within 10
	run_end jfifo
	expect "--json FIFO nobody reads: exit 1 at once, before anything runs, naming it (rc=$RC)" \
		eval 'refused jfifo && grep -q "fifo: it is a FIFO that nobody reads" "$T_TMP/jfifo.err"'
	cleanup_checked jfifo
	cat "$d/fifo" >"$d/fifo.read" &
	reader=$!
	T_BG+=("$reader")
	run_capture jfifor $BIN --list --json "$d/fifo"
	wait "$reader"
	expect "--json FIFO with a reader: exit 0, the results written into it (rc=$RC)" \
		eval '[ "$RC" -eq 0 ] && [ -p "$d/fifo" ] && J "$d/fifo.read" "\"rows\" in d"'
	# unwritable: a directory the user may not write (--list: no
	# privileges needed), a read-only file system (a run)
	mkdir -m 755 "$d/ro"
	prev_file "$d/ro/prev.json"
	run_capture jnowr setpriv --reuid=65534 --regid=65534 --clear-groups \
		$BIN --list --json "$d/ro/prev.json"
	expect "--json in a directory the user may not write: exit 1, one line, the file kept (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$T_TMP/jnowr.err")" -eq 1 ] && grep -q "Permission denied" "$T_TMP/jnowr.err" && kept "$d/ro/prev.json"'
	run_bg jmissing "${SHORT[@]}" --json "$d/missing/x.json"
	run_end jmissing
	expect "--json in a missing directory: exit 1 before anything runs (rc=$RC)" \
		eval 'refused jmissing && grep -q "No such file" "$T_TMP/jmissing.err"'
	cleanup_checked jmissing
	# links written through: a dangling one makes its target, a chain
	# of relative ones replaces the file at its end; the links stay
	mkdir "$d/sub"
	ln -s sub/made.json "$d/dangling.json"
	run_bg jdang "${SHORT[@]}" --json "$d/dangling.json"
	run_end jdang
	expect "--json DANGLING-LINK: the link stays, its target made with the results (rc=$RC)" \
		eval '[ "$RC" -eq 0 -o "$RC" -eq 3 ] && [ -L "$d/dangling.json" ] && J "$d/sub/made.json" "len(R) == 2" && [ -z "$(tmp_beside "$d/sub/made.json")" ]'
	cleanup_checked jdang
	prev_file "$d/sub/end.json"
	ln -s end.json "$d/sub/mid.json"
	ln -s sub/mid.json "$d/chain.json"
	run_capture jchain $BIN --list --json "$d/chain.json"
	expect "--json LINK-TO-LINK: both links stay, the file at the end replaced, its mode kept (rc=$RC)" \
		eval '[ "$RC" -eq 0 ] && [ -L "$d/chain.json" ] && [ -L "$d/sub/mid.json" ] && J "$d/sub/end.json" "\"rows\" in d" && [ "$(stat -c %a "$d/sub/end.json")" = 640 ]'
	# a link open() would not follow (fs.protected_symlinks: another
	# user's, in a sticky world-writable directory): not followed
	was=$(sysctl -n fs.protected_symlinks)
	mkdir -m 1777 "$d/sticky"
	prev_file "$d/sticky/theirs.json"
	ln -s theirs.json "$d/sticky/planted.json"
	chown -h 65534 "$d/sticky/planted.json"
	if set_up "fs.protected_symlinks=1" sysctl -qw fs.protected_symlinks=1; then
		at_exit sysctl -qw fs.protected_symlinks="$was"
		run_capture jprot $BIN --list --json "$d/sticky/planted.json"
		sysctl -qw fs.protected_symlinks="$was"
		expect "--json another user's link in a sticky directory, fs.protected_symlinks=1: exit 1, its target kept, the link too (rc=$RC)" \
			eval '[ "$RC" -eq 1 ] && grep -q "Permission denied" "$T_TMP/jprot.err" && kept "$d/sticky/theirs.json" && [ -L "$d/sticky/planted.json" ]'
	fi
	ln -s loop "$d/loop"
	run_capture jloop $BIN --list --json "$d/loop"
	expect "--json a link to itself: exit 1, one line (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && grep -q "Too many levels" "$T_TMP/jloop.err" && [ -L "$d/loop" ]'
	# names with a space and a newline: written, said escaped
	f=$d/'a b
c.json'
	prev_file "$f"
	run_capture jnl $BIN --list --json "$f"
	expect "--json 'a b\\nc.json': written, nothing beside it (rc=$RC)" \
		eval '[ "$RC" -eq 0 ] && J "$f" "\"rows\" in d" && [ -z "$(tmp_beside "$f")" ]'
	mkdir "$d/x
y"
	run_capture jnld $BIN --list --json "$d/x
y"
	expect "--json DIRECTORY-WITH-A-NEWLINE: exit 1, one line, the newline escaped (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$T_TMP/jnld.err")" -eq 1 ] && grep -qF "x\\x0ay: it is a directory" "$T_TMP/jnld.err"'
}

sections keep status options compare broken lock paths
finish
