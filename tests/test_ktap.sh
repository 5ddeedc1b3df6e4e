#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --ktap and the kselftest package: each program's KTAP against the same
# run's --json (tests/ktap.py), kselftest's exit codes (1 for a failed
# row, from the test build's fault; 4 when every row skips, or when the
# run cannot start here: the lock busy, no privileges), the KTAP of every
# early end (usage errors, a signal), and make kselftest-install run by
# the kernel's own
# run_kselftest.sh (Debian's linux-source-6.1: make deps),
# its settings' timeout included. The format is the subject here, so
# the checks read the KTAP itself; never an absolute rate.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

# ktap_checked NAME: the run NAME's stdout against its JSON and $RC
ktap_checked() {
	checks_from python3 "$TESTS/ktap.py" "$T_TMP/$1.out" "$T_TMP/$1.json" "$1" "$RC"
}

sec_format() {
	BIN=./test_overhead run_json to --ktap -r 1 -n 2000 \
		-m base,raw_tp,tracepoint,kprobe,fentry -e getpgid,task_rename
	ktap_checked to
	BIN=./map_perf_test run_json mp --ktap -r 1 -n 2000 \
		-t hash_lookup,array_lookup -a raw_tp,kprobe
	ktap_checked mp
	# figures that are no cost per event: --memory's bytes per element
	BIN=./map_perf_test run_json mem --ktap --memory hash,array --entries 1000
	ktap_checked mem
	expect "--ktap: the human table is not printed" \
		not_grep '^Summary:\|^BASE\|lookups per sec' "$T_TMP/to.out" "$T_TMP/mp.out"
}

sec_exit() {
	need_testing || return
	BENCH_TEST_FAULT=miss-odd BIN=$TESTING/test_overhead run_json fail \
		--ktap -r 1 -n 2000 -m base,raw_tp -e getpgid
	ktap_checked fail
	expect "--ktap, a failed row (miss-odd): exit 1 (rc=$RC) with a 'not ok'" \
		eval '[ "$RC" -eq 1 ] && grep -q "^not ok [0-9]* raw_tp getpgid$" "$T_TMP/fail.out"'
	# a mode this kernel cannot run, from a run of the modes a kernel
	# most often lacks: each of its rows skipped
	local m
	BIN=./test_overhead run_json modes --ktap -r 1 -n 2000 \
		-m kprobe,kretprobe,fentry,fexit,kprobe_multi -e getpgid
	ktap_checked modes
	m=$(jget "$T_TMP/modes.json" '" ".join(sorted(set(r["name"] for r in R if r["status"] == "skipped") - set(r["name"] for r in R if r["status"] != "skipped")))' 2>/dev/null)
	m=${m%% *}
	if [ -z "$m" ]; then
		skip "--ktap, every row skipped: this kernel runs kprobe, kretprobe, fentry, fexit and kprobe_multi"
	else
		BIN=./test_overhead run_json skip --ktap -r 1 -n 2000 -m "$m" -e getpgid
		ktap_checked skip
		expect "--ktap, every row skipped ($m): exit 4 (rc=$RC), KSFT_SKIP" test "$RC" -eq 4
	fi
}

# ktap_early NAME skip|bail RC PATTERN: the run NAME ended before its
# rows, with status RC: its stdout is KTAP that says so as kselftest.h
# ends a test early ("1..0 # SKIP reason", or "Bail out! reason" and the
# totals), the reason its stderr's one line (matching PATTERN, an ERE)
ktap_early() {
	local name=$1 how=$2 want=$3 pattern=$4 form=0
	python3 - "$T_TMP/$name.out" "$T_TMP/$name.err" "$how" "$pattern" <<'EOF' || form=1
import re, sys
out, err, how, pattern = sys.argv[1:]
lines = open(out).read().splitlines()
errs = open(err).read().splitlines()
why = re.sub(r"^[a-z_]+: ", "", errs[0]) if len(errs) == 1 else None
want = ["KTAP version 1"] + (["1..0 # SKIP %s" % why] if how == "skip" else
	["Bail out! %s" % why, "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0"])
sys.exit(not (why and lines == want and re.search(pattern, why)))
EOF
	expect "$name: exit $want (rc=$RC), KTAP that says $how, the reason stderr's one line: $(head -c 200 "$T_TMP/$name.err")" \
		test "$RC" -eq "$want" -a "$form" -eq 0
}

# an early end, by --ktap's statuses: the machine cannot run it now (the
# lock busy, no privileges): 4, KSFT_SKIP; a usage error: 1, KSFT_FAIL
# (2 is KSFT_XFAIL); a signal: 128+N. KTAP on stdout each time.
sec_early() {
	local pid
	hold_lock
	run_capture busy ./test_overhead --ktap -r 1 -m base,raw_tp -e getpgid --lock-wait 0
	ktap_early busy skip 4 'holds .*bpf-overhead-bench.lock'
	run_capture busymp ./map_perf_test --ktap -r 1 -t hash_lookup --lock-wait 0 --json "$T_TMP/busymp.json"
	ktap_early busymp skip 4 'holds .*bpf-overhead-bench.lock'
	expect "lock busy: --json's file not written, no file left beside it" \
		eval '[ ! -e "$T_TMP/busymp.json" ] && [ -z "$(ls -A "$T_TMP" | grep "busymp.json.tmp")" ]'
	# the wrapper as installed (beside its program): another tool's run
	# is a SKIP, not a kernel's failure
	mkdir -p "$T_TMP/wrap"
	cp tools/kselftest/test_overhead.sh test_overhead "$T_TMP/wrap/"
	run_capture wrap "$T_TMP/wrap/test_overhead.sh" -m raw_tp -e getpgid --lock-wait 0
	ktap_early wrap skip 4 'holds .*bpf-overhead-bench.lock'
	# map_perf_test's passes no -r to --memory, which takes no samples
	cp tools/kselftest/map_perf_test.sh map_perf_test "$T_TMP/wrap/"
	run_capture wrapmem "$T_TMP/wrap/map_perf_test.sh" --memory hash --entries 1000 --lock-wait 0
	ktap_early wrapmem skip 4 'holds .*bpf-overhead-bench.lock'
	# waiting for the lock, a SIGTERM: 143, and KTAP that bails out
	./test_overhead --ktap -r 1 -m raw_tp -e getpgid --lock-wait 30 \
		>"$T_TMP/sigwait.out" 2>"$T_TMP/sigwait.log" &
	pid=$!
	for _ in $(seq 50); do grep -q 'waiting for' "$T_TMP/sigwait.log" && break; sleep 0.1; done
	kill -TERM "$pid"
	wait "$pid"
	RC=$?
	grep -v 'waiting for' "$T_TMP/sigwait.log" >"$T_TMP/sigwait.err"
	ktap_early sigwait bail 143 '^interrupted by'
	release_lock
	# no privileges: the machine cannot run it as this user
	run_capture nopriv setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all ./test_overhead --ktap -r 1 -m raw_tp -e getpgid
	ktap_early nopriv skip 4 'CAP_BPF'
	run_capture usage ./test_overhead --ktap --json - -m base -e getpgid
	ktap_early usage bail 1 'give --json a file'
	run_capture usage2 ./test_overhead --ktap --list
	ktap_early usage2 bail 1 'does not apply to --list'
	run_capture usage3 ./map_perf_test --ktap -r 0
	ktap_early usage3 bail 1 "bad value '0' for --repeat"
	# --kta is --ktap to getopt: the error comes before it is read
	run_capture usage4 ./map_perf_test -r 0 --kta
	ktap_early usage4 bail 1 "bad value '0' for --repeat"
}

# ks_run DIR NAME ARGS...: DIR's run_kselftest.sh ARGS as root, its output
# (through a pipe: the runner appends to /dev/stdout) in $T_TMP/NAME.out,
# $RC its status, $MS its time. The runs take the tools' lock as the
# tests' do: the machine's held here, a private one in their own mount
# namespace.
ks_run() {
	local dir=$1 name=$2 t0 private=()
	shift 2
	if [ -z "$T_REAL_LOCK" ]; then
		hold_lock
		private=(unshare -m sh -c 'mount -t tmpfs -o size=64k,mode=1777 tmpfs /run/lock && exec "$@"' sh)
	fi
	t0=${EPOCHREALTIME/./}
	"${private[@]}" "$dir/run_kselftest.sh" "$@" 2>"$T_TMP/$name.err" | cat >"$T_TMP/$name.out"
	RC=${PIPESTATUS[0]}
	MS=$(((${EPOCHREALTIME/./} - t0) / 1000))
	[ -z "$T_REAL_LOCK" ] && release_lock
	echo "# $name: run_kselftest.sh exit $RC after $MS ms"
}

# alive_in DIR: processes of ours whose program is in DIR (the run's own)
alive_in() {
	local p
	for p in /proc/[0-9]*; do
		case $(readlink "$p/exe" 2>/dev/null) in "$1"/*) echo "${p#/proc/}" ;; esac
	done
}

sec_install() {
	local ks=$T_TMP/ks c t trc
	if [ ! -r /usr/src/linux-source-6.1.tar.xz ]; then
		fail "the kernel's kselftest runner: /usr/src/linux-source-6.1.tar.xz is missing (make deps installs linux-source-6.1)"
		return
	fi
	# the tarball's runner.sh, read while make builds: xz decompresses
	# on one CPU, for some 7 s, and make's own untar of it on the other
	# (nothing is measured meanwhile); the tar waited for, however the
	# make ends
	tar -I "xz -T0" -xOf /usr/src/linux-source-6.1.tar.xz \
		linux-source-6.1/tools/testing/selftests/kselftest/runner.sh >"$T_TMP/runner.sh" 2>/dev/null &
	t=$!
	T_BG+=("$t")
	set_up "make kselftest-install INSTALL_PATH=$ks" \
		make -s -j"$(nproc)" --no-print-directory kselftest-install INSTALL_PATH="$ks" >"$T_TMP/install.log" 2>&1 ||
		{ echo "# $(tail -n 3 "$T_TMP/install.log")"; wait "$t"; return; }
	wait "$t"
	# shellcheck disable=SC2034 # read in the eval below
	trc=$?
	# shellcheck disable=SC2034 # read in the evals below
	c=$ks/bpf_overhead
	expect "kselftest-install: the kernel's run_kselftest.sh and kselftest/runner.sh, as its tarball has them" \
		eval '[ "$trc" -eq 0 ] && cmp -s "$T_TMP/runner.sh" "$ks/kselftest/runner.sh" && [ -x "$ks/run_kselftest.sh" ]'
	expect "kselftest-install: bpf_overhead/ holds the static programs, the wrappers and settings" \
		eval '[ -x "$c/test_overhead" ] && [ -x "$c/map_perf_test" ] && [ -x "$c/test_overhead.sh" ] && [ -x "$c/map_perf_test.sh" ] && grep -qx "timeout=[0-9]*" "$c/settings" && ! file -L "$c/test_overhead" | grep -q dynamic'
	expect "kselftest-install: kselftest-list.txt lists bpf_overhead's two tests" \
		eval '[ "$(cat "$ks/kselftest-list.txt")" = "$(printf "bpf_overhead:test_overhead.sh\nbpf_overhead:map_perf_test.sh")" ]'
	expect "make kselftest-tar: a tarball of the tree, as the kernel's gen_tar packs it" \
		eval 'make -s --no-print-directory kselftest-tar INSTALL_PATH="$ks" >/dev/null 2>&1 && tar -tzf "$ks/kselftest-packages/kselftest.tar.gz" | grep -qx "./bpf_overhead/test_overhead.sh" && tar -tzf "$ks/kselftest-packages/kselftest.tar.gz" | grep -qx "./run_kselftest.sh"'
	expect "run_kselftest.sh --list: both tests" \
		eval '[ "$("$ks/run_kselftest.sh" --list | wc -l)" -eq 2 ]'

	# the kernel's runner, each wrapper's default narrowed to a short run
	# through the variables the runner appends to a test's command
	KSELFTEST_TEST_OVERHEAD_SH_ARGS="-n 2000 -m base,raw_tp,kprobe -e getpgid" \
	KSELFTEST_MAP_PERF_TEST_SH_ARGS="-n 2000 -t hash_lookup" \
		ks_run "$ks" ks
	expect "run_kselftest.sh: exit 0 (rc=$RC)" test "$RC" -eq 0
	for t in test_overhead.sh map_perf_test.sh; do
		expect "run_kselftest.sh: reports bpf_overhead:$t ok (or # SKIP)" \
			grep -Eq "^ok [12] selftests: bpf_overhead: $t( # SKIP)?$" "$T_TMP/ks.out"
	done
	expect "run_kselftest.sh: no test is 'not ok'" not_grep '^not ok' "$T_TMP/ks.out"
	expect "run_kselftest.sh: each test's KTAP is nested, '# '-prefixed, with its totals" \
		eval '[ "$(grep -c "^# KTAP version 1$" "$T_TMP/ks.out")" -eq 2 ] && [ "$(grep -c "^# # Totals: pass:[0-9]* fail:0 " "$T_TMP/ks.out")" -eq 2 ] && grep -q "^# ok [0-9]* raw_tp getpgid" "$T_TMP/ks.out"'

	# the settings' timeout: a run of 4 units of 2 s each, 2 s allowed
	cp -a "$ks" "$T_TMP/kst"
	echo timeout=2 >"$T_TMP/kst/bpf_overhead/settings"
	KSELFTEST_TEST_OVERHEAD_SH_ARGS="-d 2 -r 4 -m base -e getpgid" \
		ks_run "$T_TMP/kst" kst -t bpf_overhead:test_overhead.sh
	expect "settings timeout=2: the runner says TIMEOUT" \
		grep -qx "not ok 1 selftests: bpf_overhead: test_overhead.sh # TIMEOUT 2 seconds" "$T_TMP/kst.out"
	expect "settings timeout=2: over within 6 s, not the run's 8 ($MS ms)" test "$MS" -lt 6000
	sleep 0.5
	expect "settings timeout=2: the run's programs are gone" \
		eval '[ -z "$(alive_in "$T_TMP/kst")" ]'
	# another tool's run holds the lock: a SKIP with the reason, nested,
	# never a failure of the kernel's
	hold_lock
	KSELFTEST_TEST_OVERHEAD_SH_ARGS="--lock-wait 0 -m raw_tp -e getpgid" \
		T_REAL_LOCK=1 ks_run "$ks" ksbusy -t bpf_overhead:test_overhead.sh
	release_lock
	expect "the lock busy: the runner says SKIP, the test's KTAP its reason" \
		eval 'grep -qx "ok 1 selftests: bpf_overhead: test_overhead.sh # SKIP" "$T_TMP/ksbusy.out" && grep -q "^# 1\.\.0 # SKIP .*holds .*lock" "$T_TMP/ksbusy.out"'
}

sections format exit early install
finish
