#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_overhead on the host kernel: real runs with small counts. Checks hit
# counts, skips and their reasons, selection, output formats, exit codes and
# cleanup; never an absolute rate.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./test_overhead
N=20000
# one sample per row unless a check says otherwise: upstream-like and quick
NCPU=$(nproc)

# row MODE EVENT FILE: the summary row of MODE/EVENT
row() { awk -v m="$1" -v e="$2" '$1 == m && $2 == e && $3 ~ /^(ok|skipped|FAILED)$/' "$3"; }
status_of() { row "$1" "$2" "$3" | awk '{ print $3 }'; }

# ok_row MODE EVENT FILE: verified, with hits >= events
ok_row() {
	local r
	r=$(row "$1" "$2" "$3")
	[ "$(awk '{ print $3 }' <<<"$r")" = ok ] || return 1
	[ "$1" = base ] && return 0
	awk '{ for (i = 4; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) {
		split($i, h, "/"); exit !(h[1] + 0 >= h[2] + 0 && h[2] > 0) }
		exit 1 }' <<<"$r"
}


# --- a full run
run_capture full $BIN -n $N -r 1
expect "full run exits 0 (rc=$RC)" test "$RC" -eq 0
for m in base tracepoint raw_tp tp_btf; do
	expect "$m task_rename verified" ok_row $m task_rename "$T_TMP/full.out"
done
for m in base tracepoint raw_tp tp_btf; do
	expect "$m getpgid verified" ok_row $m getpgid "$T_TMP/full.out"
done
for e in uprobe-nop uprobe-push uprobe-ret; do
	for m in base uprobe uretprobe; do
		expect "$m $e verified" ok_row $m $e "$T_TMP/full.out"
	done
done
# verified, or skipped with a reason, never a number for a skip
verified_or_reason() {
	local st reason
	st=$(status_of "$1" "$2" "$T_TMP/full.out")
	case $st in
	ok) expect "$1 $2 verified" ok_row "$1" "$2" "$T_TMP/full.out" ;;
	skipped)
		reason=$(row "$1" "$2" "$T_TMP/full.out" | awk '{ $1 = $2 = $3 = ""; print }')
		expect "$1 $2 skip has a reason ($reason)" test -n "$reason"
		expect "$1 $2 skip shows no rate" eval '! grep -qE "^$2:[0-9]+: " <(sed -n "/^w\/$(tr a-z A-Z <<<"$1")\$/,/^w\//p" "$T_TMP/full.out")' ;;
	*) fail "$1 $2: '$st'" ;;
	esac
}
for m in kprobe kretprobe fentry fexit; do
	verified_or_reason $m task_rename
	verified_or_reason $m getpgid
done
verified_or_reason fmod_ret getpgid
verified_or_reason fmod_ret task_rename
expect "base kernel-batch verified" ok_row base kernel-batch "$T_TMP/full.out"
for m in kprobe kretprobe fentry fexit; do
	verified_or_reason $m kernel-batch
done
rows=$(grep -cE '^  \S+ +\S+ +(ok|skipped|FAILED) ' "$T_TMP/full.out")
# 8 modes x 2 upstream events, fmod_ret task_rename, 9 getpgid modes,
# 3 uprobe events x 3 modes, 5 kernel-batch modes
expect "40 summary rows (got $rows)" test "$rows" -eq 40
expect "no row FAILED" test -z "$(grep -E '^  \S+ +\S+ +FAILED' "$T_TMP/full.out")"

# the kernel decides the urandom_read tracepoint, never a version table
if [ -d /sys/kernel/tracing/events/random/urandom_read ]; then
	expect "tracepoint urandom_read verified" ok_row tracepoint urandom_read "$T_TMP/full.out"
else
	expect "tracepoint urandom_read skipped for the missing tracepoint" \
		grep -qE '^  tracepoint +urandom_read +skipped +no tracepoint random:urandom_read' "$T_TMP/full.out"
fi
# kprobe skip reasons come from the kernel's own configuration
if zcat /proc/config.gz 2>/dev/null | grep -q '^# CONFIG_KPROBES is not set'; then
	expect "kprobe skip names CONFIG_KPROBES" \
		grep -qE '^  kprobe +task_rename +skipped +kernel built without CONFIG_KPROBES' "$T_TMP/full.out"
fi

# upstream's per-worker lines: one per CPU for each measured mode/event
bad=$(grep -E '^(task_rename|urandom_read):' "$T_TMP/full.out" |
	grep -vE '^(task_rename|urandom_read):([0-9]+: [0-9]+ events per sec| (skipped|FAILED): .+)$')
expect "every per-worker line parses" test -z "$bad"
lines=$(grep -cE '^task_rename:[0-9]+: [0-9]+ events per sec$' "$T_TMP/full.out")
ok=$(grep -cE '^  \S+ +task_rename +ok ' "$T_TMP/full.out")
expect "one task_rename line per CPU per ok mode ($lines = $ok x $NCPU)" \
	test "$lines" -eq $((ok * NCPU))
expect "each header printed once though stdout is a pipe" \
	test "$(grep -c '^BASE$' "$T_TMP/full.out")" -eq 1

# the uprobe targets start with the instruction they are named after
if command -v objdump >/dev/null; then
	first_insn() {
		objdump -d --no-show-raw-insn "$BIN" |
			awk -v f="<$1>:" '$2 == f { getline; $1 = ""; print; exit }' |
			sed 's/^ *//; s/ *$//'
	}
	expect "uprobe_nop starts with nop ($(first_insn uprobe_nop))" test "$(first_insn uprobe_nop)" = nop
	expect "uprobe_push starts with push %rbp ($(first_insn uprobe_push))" test "$(first_insn uprobe_push)" = "push %rbp"
	expect "uprobe_ret starts with ret ($(first_insn uprobe_ret))" test "$(first_insn uprobe_ret)" = ret
else
	skip "objdump missing: uprobe targets not disassembled"
fi

# --- selection
run_capture flags $BIN -r 1 -n $N 0x41 1
expect "0x41 1: exit 0" test "$RC" -eq 0
expect "0x41 1: base and raw_tp task_rename only" test "$(grep -cE '^  \S+ +\S+ +(ok|skipped|FAILED)' "$T_TMP/flags.out")" -eq 2
expect "0x41 1: rows are base and raw_tp" ok_row raw_tp task_rename "$T_TMP/flags.out"
expect "0x41 1: headers BASE and w/RAW_TRACEPOINT only" \
	test "$(grep -E '^(BASE|w/.*)$' "$T_TMP/flags.out" | tr '\n' ' ')" = "BASE w/RAW_TRACEPOINT "
expect "0x41 1: one worker" test "$(grep -c '^task_rename:' "$T_TMP/flags.out")" -eq 2

run_capture flagurandom $BIN -r 1 -n $N 0x2
expect "0x2: base urandom_read only" test "$(grep -cE '^  base +urandom_read +ok' "$T_TMP/flagurandom.out")" -eq 1 -a \
	"$(grep -cE '^  \S+ +\S+ +(ok|skipped|FAILED)' "$T_TMP/flagurandom.out")" -eq 1

run_capture getpgid $BIN -r 1 -n $N 0x10000
expect "0x10000: getpgid only, in the 9 modes that apply" \
	test "$(grep -cE '^  \S+ +getpgid +(ok|skipped)' "$T_TMP/getpgid.out")" -eq 9 -a \
	"$(grep -cE '^  \S+ +\S+ +(ok|skipped|FAILED)' "$T_TMP/getpgid.out")" -eq 9
run_capture uprobes $BIN -r 1 -n $N -m uprobe,uretprobe
expect "-m uprobe,uretprobe: the 6 uprobe rows only" \
	test "$(grep -cE '^  (uprobe|uretprobe) +uprobe-(nop|push|ret) +ok' "$T_TMP/uprobes.out")" -eq 6 -a \
	"$(grep -cE '^  \S+ +\S+ +(ok|skipped|FAILED)' "$T_TMP/uprobes.out")" -eq 6

run_capture named $BIN -r 1 -n $N -m tp_btf,tracepoint -e task_rename -c 1 -q
expect "-m tp_btf,tracepoint -e task_rename: exit 0" test "$RC" -eq 0
expect "-m/-e: exactly two rows" test "$(grep -cE '^  \S+ +\S+ +(ok|skipped|FAILED)' "$T_TMP/named.out")" -eq 2
expect "-m/-e: tp_btf verified" ok_row tp_btf task_rename "$T_TMP/named.out"
expect "-q: no per-worker lines" test -z "$(grep -E '^(task_rename|BASE|w/)' "$T_TMP/named.out")"
expect "-m/-e without base: overhead shows (no base)" grep -q '(no base)' "$T_TMP/named.out"

run_capture nothing $BIN -r 1 -n $N -m kprobe,fentry -e task_rename
if grep -qE '^  (kprobe|fentry) +task_rename +ok' "$T_TMP/nothing.out"; then
	skip "every selected mode runs on this kernel"
else
	expect "only skipped modes: exit 1 (rc=$RC)" test "$RC" -eq 1
	expect "only skipped modes: says nothing was measured" grep -q 'nothing could be measured' "$T_TMP/nothing.err"
fi

# --- bad arguments: one line on stderr, exit 2
bad_arg "flags abc" abc
bad_arg "flags 0" 0
bad_arg "flags -1" -- -1
bad_arg "num_cpu 0" 1 0
bad_arg "num_cpu more than online" 1 $((NCPU + 1))
bad_arg "num_cpu x" 1 x
bad_arg "-c offline CPU" -c 4000
bad_arg "-c bad range" -c 1-0
bad_arg "-c twice the same" -c 0,0
bad_arg "-n 0" -n 0
bad_arg "-n -5" -n -5
bad_arg "-n huge" -n 99999999999999999999999
bad_arg "-n 1e6" -n 1e6
bad_arg "-m unknown" -m kprobes
bad_arg "-e unknown" -e urandom
bad_arg "a mode that does not apply to the event" -m uprobe -e task_rename
bad_arg "unknown option" --frobnicate
bad_arg "option without value" -n
bad_arg "too many arguments" 1 1 1
bad_arg "num_cpu and -c" -c 1 1 1

# --- privileges: one line naming them, exit 1
check_unprivileged -n $N

# --- tracefs: mounted when missing, and said on stderr
check_tracefs_mount '^  tracepoint +task_rename +ok ' -r 1 -n $N -m tracepoint -e task_rename

# --- signals: workers killed, links destroyed, 128+signal
for sig in INT:130 TERM:143 HUP:129; do
	check_interrupt ${sig%:*} ${sig#*:} raw_tp_task_ren -m raw_tp -e task_rename -n 2000000000
done

# a worker that dies is reported and the run fails cleanly
kill_a_worker dead -m raw_tp -e task_rename -n 2000000000
expect "dead worker: exit 1 (rc=$RC)" test "$RC" -eq 1
expect "dead worker: reported" grep -q 'worker on CPU [0-9]* died: Killed' "$T_TMP/dead.err"
expect "dead worker: mode FAILED, no rate" grep -qE '^  raw_tp +task_rename +FAILED' "$T_TMP/dead.out"
expect "dead worker: nothing stays loaded" gone raw_tp_task_ren
sleep 0.2
expect "dead worker: the other workers are gone ($WORKERS)" none_alive $WORKERS

# SIGKILL of the parent: the kernel detaches, the workers follow it
$BIN -m raw_tp -e task_rename -n 2000000000 >/dev/null 2>&1 &
pid=$!
sleep 1
{ kill -KILL $pid; wait $pid; } 2>/dev/null
sleep 0.5
expect "SIGKILL: nothing stays loaded" gone raw_tp_task_ren
expect "SIGKILL: no worker left" eval '! pgrep -f "^$BIN -m raw_tp" >/dev/null'

finish
