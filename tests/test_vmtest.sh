#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Cheap checks of tools/vmtest.sh: each failure path must end in a clear
# FAIL with a non-zero exit, never a hang or a false PASS.  The guest boots
# the default Debian kernel with --no-build, so these checks do not depend
# on the C build; each boot takes about 3-6 s under TCG (plus a one-time
# KVM probe of up to 8 s, cached in build/vmtest/).
set -u
. "$(dirname "$0")/lib.sh"

VMTEST=$TOP/tools/vmtest.sh

# last_line NAME TEXT: the run's final stdout line is exactly TEXT.
last_line() { [ "$(tail -n 1 "$T_TMP/$1.out")" = "$2" ]; }
has() { grep -qF -- "$2" "$T_TMP/$1.out"; }
err_lines() { wc -l <"$T_TMP/$1.err"; }

# Usage errors: exit 2 with one line on stderr, before anything boots.
run_capture badopt "$VMTEST" --bogus
expect "bad option exits 2" [ "$RC" -eq 2 ]
expect "bad option: one line on stderr" [ "$(err_lines badopt)" -eq 1 ]
run_capture badtime "$VMTEST" -t soon -- true
expect "non-numeric -t exits 2" [ "$RC" -eq 2 ]
run_capture badarch "$VMTEST" --arch sparc -- true
expect "unknown --arch exits 2" [ "$RC" -eq 2 ]
expect "unknown --arch: one line on stderr" [ "$(err_lines badarch)" -eq 1 ]

# The judge alone, on a console log of its own making: a row skipped while
# the config enables all it needs fails; one whose needs are missing,
# whose event a kernel may lack, or that the build's libbpf lacks, is a skip; a row that ran passes only
# with its events the command line's -n x workers x -r (at most -r when
# disturbed; a base row fed by its rows' units two samples a unit, as
# many units as they counted, not a whole -r when one ended disturbed), and
# hits not short of them.
judge_log() {
	local list='{"schema": "bpf-bench/1", "tool": "t", "rows": [{"name": "kprobe", "variant": "a", "needs": ["KPROBES"]}, {"name": "fentry", "variant": "a", "needs": ["FENTRY_X"]}, {"name": "tracepoint", "variant": "u", "needs": ["KPROBES"], "may_lack": "gone"}, {"name": "kprobe_x", "variant": "a", "needs": ["KPROBES"], "lacks": "old libbpf"}]}'
	local res='{"schema": "bpf-bench/1", "tool": "t", "results": [{"name": "kprobe", "variant": "a", "status": "skipped", "reason": "r1"}, {"name": "fentry", "variant": "a", "status": "skipped", "reason": "r2"}, {"name": "tracepoint", "variant": "u", "status": "skipped", "reason": "r3"}, {"name": "kprobe_x", "variant": "a", "status": "skipped", "reason": "r4"}, {"name": "raw_tp", "variant": "a", "status": "disturbed", "reason": "d", "events": 10, "hits": 10, "hits_per_event": 1}, {"name": "raw_tp", "variant": "b", "status": "disturbed", "reason": "d", "events": 10, "hits": 9, "hits_per_event": 1}]}'
	local counted='{"schema": "bpf-bench/1", "tool": "t", "results": [{"name": "raw_tp", "variant": "c", "status": "ok", "reason": null, "workers": 2, "events": 40, "hits": 40, "hits_per_event": 1}, {"name": "raw_tp", "variant": "d", "status": "disturbed", "reason": "d", "workers": 2, "events": 20, "hits": 20, "hits_per_event": 1}, {"name": "raw_tp", "variant": "e", "status": "ok", "reason": null, "workers": 2, "events": 20, "hits": 20, "hits_per_event": 1}, {"name": "raw_tp", "variant": "f", "status": "disturbed", "reason": "d", "workers": 2, "events": 30, "hits": 30, "hits_per_event": 1}, {"name": "base", "variant": "c", "status": "ok", "reason": null, "fed": true, "units": {"n": 2}, "workers": 2, "events": 80, "hits": null}, {"name": "base", "variant": "d", "status": "ok", "reason": null, "fed": true, "units": {"n": 2}, "workers": 2, "events": 60, "hits": null}, {"name": "base", "variant": "g", "status": "ok", "reason": null, "fed": true, "units": {"n": 3}, "workers": 2, "events": 120, "hits": null}, {"name": "hash", "variant": "memory", "status": "ok", "reason": null, "events": 0, "memory": {"filled": 10, "memcg_bytes": 4096, "check_bytes": 120}}, {"name": "array", "variant": "memory", "status": "ok", "reason": null, "events": 0, "memory": {"filled": 10, "memcg_bytes": 64, "check_bytes": 120}}]}'
	printf 'VMTEST-RUN 1: l\nVMTEST-OUT 1\n%s\nVMTEST-ERR 1\nVMTEST-END rc=0\nVMTEST-RUN 2: r\nVMTEST-OUT 2\n%s\nVMTEST-ERR 2\nVMTEST-END rc=3\n' "$list" "$res"
	# a kernel message on the console amid the JSON is not the command's
	printf "VMTEST-RUN 3: './t' '-n' '10' '-r' '2'\nVMTEST-OUT 3\n%s\n[   12.345678] a kernel warning\nVMTEST-ERR 3\nVMTEST-END rc=3\n" "$counted"
}
judge_log >"$T_TMP/judge.log"
echo "CONFIG_KPROBES=y" >"$T_TMP/judge.config"
run_capture judge python3 "$TOP/tools/vmtest-judge.py" "$T_TMP/judge.log" "$T_TMP/judge.config"
expect "judge: exit 1 on a failed verdict (rc=$RC)" [ "$RC" -eq 1 ]
expect "judge: skipped though the config enables it fails" has judge "FAIL t kprobe a (skipped, but the config enables CONFIG_KPROBES: r1)"
expect "judge: skipped for a missing option is a skip" has judge "SKIP t fentry a (r2)"
expect "judge: an event the kernel may lack is a skip" has judge "SKIP t tracepoint u (r3)"
expect "judge: a mode the build's libbpf lacks is a skip" has judge "SKIP t kprobe_x a (r4)"
expect "judge: disturbed with its counts passes" has judge "PASS t raw_tp a (timing disturbed under emulation)"
expect "judge: disturbed and short of hits fails" has judge "FAIL t raw_tp b (disturbed, but 9 hits for 10 events)"
expect "judge: ok with -r x -n x workers events passes" has judge "PASS t raw_tp c"
expect "judge: disturbed after one of -r 2 samples passes" has judge "PASS t raw_tp d (timing disturbed under emulation)"
expect "judge: ok with one sample of -r 2 fails" has judge "FAIL t raw_tp e (ok, but 1 samples' events, -r 2)"
expect "judge: events not whole samples of -n fail" has judge "FAIL t raw_tp f (disturbed, but 30 events are not whole samples of -n 10 x 2 workers)"
expect "judge: a base row fed by its rows' -r 2 units, two samples each, passes" has judge "PASS t base c"
expect "judge: a fed base row of 3 units under -r 2 (a row of it disturbed after one), two samples each, passes" has judge "PASS t base g"
expect "judge: a fed base row with samples its units did not make fails" has judge "FAIL t base d (ok, but 3 samples' events for 2 units of its rows, -r 2)"
expect "judge: a --memory row charged at least its elements' bytes passes, without events" has judge "PASS t hash memory"
expect "judge: a --memory row charged less than its elements' bytes fails" has judge "FAIL t array memory (ok, but 64 bytes charged for 120 of the elements' own)"
expect "judge: every command ended" has judge "ENDS 3"

# The judge on the kernel's kselftest runner's output (--kselftest): each
# row of a test's nested KTAP, each test the runner reports.
# ksft_log NAME TEST1 TEST2: a console log of a list and one runner's run
ksft_log() {
	local list='{"schema": "bpf-bench/1", "tool": "test_overhead", "rows": [{"name": "kprobe", "variant": "getpgid", "needs": ["KPROBES"]}, {"name": "fentry", "variant": "getpgid", "needs": ["FENTRY_X"]}]}'
	printf 'VMTEST-RUN 1: l\nVMTEST-OUT 1\n%s\nVMTEST-ERR 1\nVMTEST-END rc=0\n' "$list"
	printf 'VMTEST-RUN 2: cd /kselftest && ./run_kselftest.sh\nVMTEST-OUT 2\n[    2.78] kselftest: Running tests in bpf_overhead\nTAP version 13\n1..2\n'
	printf '# selftests: bpf_overhead: test_overhead.sh\n%s\n' "$2"
	[ -z "$3" ] || printf '# selftests: bpf_overhead: map_perf_test.sh\n%s\n' "$3"
	printf 'VMTEST-ERR 2\nVMTEST-END rc=0\n'
}
ksft_judge() {
	ksft_log "$@" >"$T_TMP/$1.log"
	echo "CONFIG_KPROBES=y" >"$T_TMP/$1.config"
	run_capture "$1" python3 "$TOP/tools/vmtest-judge.py" "$T_TMP/$1.log" "$T_TMP/$1.config"
}
ksft_ok='# KTAP version 1
# 1..2
# # raw_tp getpgid: overhead 247.1 ns/event
# ok 1 raw_tp getpgid
# ok 2 fentry getpgid # SKIP no trampolines
# # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0
ok 1 selftests: bpf_overhead: test_overhead.sh'
ksft_skip='# KTAP version 1
# 1..1
# ok 1 hash_lookup kprobe [wakeup=1,record_size=64] # SKIP disturbed: a worker was moved
ok 2 selftests: bpf_overhead: map_perf_test.sh # SKIP'
ksft_judge kgood "$ksft_ok" "$ksft_skip"
expect "judge, kselftest: all ok or skipped with a reason: exit 0 (rc=$RC)" [ "$RC" -eq 0 ]
expect "judge, kselftest: a nested row ok passes" has kgood "PASS test_overhead raw_tp getpgid"
expect "judge, kselftest: a row skipped for a missing option is a skip" has kgood "SKIP test_overhead fentry getpgid (no trampolines)"
expect "judge, kselftest: the runner's ok passes" has kgood "PASS kselftest bpf_overhead:test_overhead.sh"
expect "judge, kselftest: a disturbed row is a skip" has kgood "SKIP map_perf_test hash_lookup kprobe [wakeup=1,record_size=64] (disturbed: a worker was moved)"
expect "judge, kselftest: the runner's SKIP of a test whose rows all skip is a skip" has kgood "SKIP kselftest bpf_overhead:map_perf_test.sh (every row skipped)"
expect "judge, kselftest: one test ok" has kgood "KSFT_OK 1"

ksft_judge kbad '# KTAP version 1
# 1..3
# # raw_tp getpgid: FAILED: 0 hits for 2000 events
# not ok 1 raw_tp getpgid
# ok 2 kprobe getpgid # SKIP kprobes refused
# ok 3 base getpgid # SKIP
not ok 1 selftests: bpf_overhead: test_overhead.sh # exit=1' '# KTAP version 1
# 1..2
# ok 1 base getpgid
ok 2 selftests: bpf_overhead: map_perf_test.sh # SKIP'
expect "judge, kselftest: exit 1 on failures (rc=$RC)" [ "$RC" -eq 1 ]
expect "judge, kselftest: a nested 'not ok' fails, with its FAILED reason" has kbad "FAIL test_overhead raw_tp getpgid (0 hits for 2000 events)"
expect "judge, kselftest: skipped though the config enables it fails" has kbad "FAIL test_overhead kprobe getpgid (skipped, but the config enables CONFIG_KPROBES: kprobes refused)"
expect "judge, kselftest: a SKIP without a reason fails" has kbad "FAIL test_overhead base getpgid (a SKIP without a reason)"
expect "judge, kselftest: the runner's 'not ok' fails" has kbad "FAIL kselftest bpf_overhead:test_overhead.sh (not ok # exit=1)"
expect "judge, kselftest: a test's plan not kept fails" has kbad "FAIL kselftest bpf_overhead:map_perf_test.sh (its plan 1..2, 1 test points)"
expect "judge, kselftest: no test ok" has kbad "KSFT_OK 0"

ksft_judge kcut "$ksft_ok" ''
expect "judge, kselftest: a runner's plan not kept fails" has kcut "FAIL kselftest run_kselftest.sh (its plan 1..2, 1 results)"
ksft_judge kpart "$ksft_ok" '# KTAP version 1
# 1..1
# ok 1 base getpgid
ok 2 selftests: bpf_overhead: map_perf_test.sh # SKIP'
expect "judge, kselftest: the runner's SKIP of a test with a row ok fails" has kpart "FAIL kselftest bpf_overhead:map_perf_test.sh (SKIP, but map_perf_test base getpgid is PASS)"
ksft_judge kbases "$ksft_ok" '# KTAP version 1
# 1..2
# ok 1 base getpgid
# ok 2 hash_lookup kprobe # SKIP disturbed: the machine'"'"'s pace changed within a unit
ok 2 selftests: bpf_overhead: map_perf_test.sh # SKIP'
expect "judge, kselftest: the runner's SKIP when only bases were measured is a skip (rc=$RC)" [ "$RC" -eq 0 ]
expect "judge, kselftest: only bases measured, named" has kbases "SKIP kselftest bpf_overhead:map_perf_test.sh (only bases measured)"
ksft_judge kbase2 "$ksft_ok" '# KTAP version 1
# 1..2
# ok 1 base getpgid
# ok 2 hash_lookup kprobe
ok 2 selftests: bpf_overhead: map_perf_test.sh # SKIP'
expect "judge, kselftest: the runner's SKIP with a program row ok fails" has kbase2 "FAIL kselftest bpf_overhead:map_perf_test.sh (SKIP, but map_perf_test hash_lookup kprobe is PASS)"

run_capture kcmd "$VMTEST" --kselftest -- true
expect "--kselftest with a command exits 2" [ "$RC" -eq 2 ]
expect "--kselftest with a command: one line on stderr" [ "$(err_lines kcmd)" -eq 1 ]

run_capture nokernel "$VMTEST" --no-build -k /nonexistent -- true
expect "missing kernel fails" [ "$RC" -ne 0 ]
expect "missing kernel is named" last_line nokernel "vmtest: FAIL (kernel image /nonexistent not found)"

if ! command -v qemu-system-x86_64 >/dev/null || [ ! -x /bin/busybox ]; then
	skip "guest boots" "qemu-system-x86 or busybox-static not installed"
	finish
	exit
fi

run_capture fetch "$VMTEST" --fetch-only
if [ "$RC" -ne 0 ]; then
	fail "default kernel package fetched: $(tail -n 1 "$T_TMP/fetch.out")"
	finish
	exit
fi
pass "default kernel package fetched"

# The hung guest first, in the background: it idles until its timeout
# while the boots below run, each with its own work directory and
# console (a third of this file's time, when it ran alone)
hang_start=$SECONDS
(
	run_capture hang "$VMTEST" --no-build -t 10 -- sleep 600
	echo "$RC $((SECONDS - hang_start))" >"$T_TMP/hang.rc"
) &
hang_pid=$!
# killed if this file ends early; its guest ends at its own timeout
T_BG+=("$hang_pid")

# The boots that end on their own, in two rows at once, each guest on
# a CPU of its own under TCG (about 11 s of this file's 26, one boot
# after the other): the ones that pass or fail in their commands in the
# background, each one's status in $T_TMP/NAME.rc; the kernels that die,
# whose consoles are kept as build/vmtest/panic-console-N.log, here, one
# after the other as before.
# Rows are judged for custom commands too: a failed row in the --json a
# command prints fails the run even when the command exits 0. The
# apostrophe checks argv quoting.
doc='{"schema": "bpf-bench/1", "tool": "test_overhead", "results": [{"name": "kprobe", "variant": "task_rename", "status": "failed", "reason": "it'"'"'s 0", "events": 0, "hits": null}]}'
(
	run_capture true "$VMTEST" --no-build -- true
	echo "$RC" >"$T_TMP/true.rc"
	run_capture false "$VMTEST" --no-build -- false
	echo "$RC" >"$T_TMP/false.rc"
	run_capture row "$VMTEST" --no-build -- echo "$doc"
	echo "$RC" >"$T_TMP/row.rc"
) &
boots_pid=$!
T_BG+=("$boots_pid")

# A kernel that dies before init (here: no init it can run) is booted up
# to 3 times, then fails the run by name; nothing of ours ran in it.
run_capture noinit "$VMTEST" --no-build --append rdinit=/nonexistent -- true
expect "kernel dead before init fails" [ "$RC" -eq 1 ]
expect "kernel dead before init: booted 3 times" \
	[ "$(grep -c '^vmtest: boot [0-9] of at most 3: the kernel died before init' "$T_TMP/noinit.out")" -eq 3 ]
expect "kernel dead before init: named in verdict" \
	last_line noinit "vmtest: FAIL (the guest kernel died before init started, in 3 boots)"

# Under TCG a kernel that panics after init started is booted once more,
# and the run fails when it panics again (sysrq's crash is a real panic).
run_capture crash "$VMTEST" --no-build --accel tcg -- sh -c 'echo c >/proc/sysrq-trigger'
expect "panic after init fails" [ "$RC" -eq 1 ]
expect "panic after init under TCG: booted again once" \
	[ "$(grep -c '^vmtest: boot [0-9] of at most 3: the kernel panicked under TCG' "$T_TMP/crash.out")" -eq 1 ]
expect "panic after init: its console is kept" [ -s "$TOP/build/vmtest/panic-console-1.log" ]
expect "panic after init: the end marker is missing" \
	last_line crash "vmtest: FAIL (end marker missing: 0 of 1 commands finished)"

wait "$boots_pid"
read -r RC <"$T_TMP/true.rc" || RC=
expect "'-- true' passes" [ "$RC" = 0 ]
expect "'-- true' says PASS" last_line true "vmtest: PASS"
expect "guest mounted tracefs and bpffs" \
	grep -qE 'mounts:.*tracefs=ok.*bpf=ok' "$T_TMP/true.out"

read -r RC <"$T_TMP/false.rc" || RC=
expect "'-- false' fails" [ "$RC" = 1 ]
expect "'-- false' reports rc" last_line false "vmtest: FAIL (command 1 exited 1)"

read -r RC <"$T_TMP/row.rc" || RC=
expect "failed row fails" [ "$RC" = 1 ]
expect "failed row reported" has row "FAIL test_overhead kprobe task_rename (it's 0)"
expect "failed row named in verdict" last_line row "vmtest: FAIL (test_overhead kprobe task_rename FAILED)"

wait "$hang_pid"
read -r RC took <"$T_TMP/hang.rc" || { RC=; took=; }
expect "hung guest fails" [ "$RC" = 1 ]
expect "hung guest: timeout message" has hang "FAIL: guest timed out after 10 s"
expect "hung guest: console tail shown" has hang "VMTEST-RUN 1: 'sleep' '600'"
expect "hung guest stopped within 20 s (took ${took} s)" [ "${took:-99}" -le 20 ]

finish
