#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Cheap checks of tools/vmtest.sh: each failure path must end in a clear
# FAIL with a non-zero exit, never a hang or a false PASS.  The guest boots
# the default Debian kernel with --no-build, so these checks do not depend
# on the C build; each boot takes about 4-6 s under TCG (plus a one-time
# KVM probe of up to 20 s, cached in build/vmtest/).
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

run_capture true "$VMTEST" --no-build -- true
expect "'-- true' passes" [ "$RC" -eq 0 ]
expect "'-- true' says PASS" last_line true "vmtest: PASS"
expect "guest mounted tracefs and bpffs" \
	grep -qE 'mounts:.*tracefs=ok.*bpf=ok' "$T_TMP/true.out"

run_capture false "$VMTEST" --no-build -- false
expect "'-- false' fails" [ "$RC" -eq 1 ]
expect "'-- false' reports rc" last_line false "vmtest: FAIL (command 1 exited 1)"

# Rows are judged for custom commands too: a FAILED row fails the run even
# when the command exits 0.  The apostrophe checks argv quoting.
run_capture row "$VMTEST" --no-build -- echo "  kprobe task_rename FAILED it's 0"
expect "FAILED row fails" [ "$RC" -eq 1 ]
expect "FAILED row reported" has row "FAIL kprobe task_rename (it's 0)"
expect "FAILED row named in verdict" last_line row "vmtest: FAIL (kprobe task_rename FAILED)"

start=$SECONDS
run_capture hang "$VMTEST" --no-build -t 15 -- sleep 600
took=$((SECONDS - start))
expect "hung guest fails" [ "$RC" -eq 1 ]
expect "hung guest: timeout message" has hang "FAIL: guest timed out after 15 s"
expect "hung guest: console tail shown" has hang "VMTEST-RUN 1: 'sleep' '600'"
expect "hung guest stopped within 25 s (took ${took} s)" [ "$took" -le 25 ]

finish
