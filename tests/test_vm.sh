#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The proof on a stock kernel: tools/vmtest.sh boots Debian's default cloud
# kernel (kprobes, trampolines and all) with the static binaries, runs the
# default commands and fails any mode that the kernel's config enables but
# that did not run verified. Each row it judges is one check here: PASS a
# pass, FAIL a failure, and SKIP (a mode this kernel's config or the
# build's libbpf lacks) a skip, never a pass. Under TCG the guest proves
# function, not speed: one unit of 2000 events a row proves it as well as
# more, in a fraction of the time, and map_perf_test's kprobe and fentry
# rows are what the host cannot run (make check proves raw_tp and
# tracepoint there); .ci/run's boots run the full sizes, every method.
. "$(dirname "$0")/lib.sh"

if ! command -v qemu-system-x86_64 >/dev/null || [ ! -x /bin/busybox ]; then
	fail "qemu-system-x86 and busybox-static are needed (make deps)"
	finish
	exit
fi

# Two guests at once: the default commands', and the kselftest
# package's (below) in the background, the statuses in files. Each
# vmtest run has a work directory of its own; the one make that both
# want comes first (two makes of the same objects at once would race),
# and the package's run takes the tree as made (--no-build). Under TCG
# the guests' timing is no figure: nothing here is measured.
if ! make -C "$TOP" -s -j"$(nproc)" --no-print-directory STATIC=1 kselftest-install >"$T_TMP/make.out" 2>&1; then
	cat "$T_TMP/make.out"
	fail "make STATIC=1 kselftest-install, for the guests"
	finish
	exit
fi
# The kselftest package in the same kernel, run by the kernel's own
# run_kselftest.sh (--kselftest), each test narrowed through the runner's
# KSELFTEST_<TEST>_ARGS to rows the host cannot run and one it can:
# about 15 s. .ci/run's boots prove the whole collection.
(
	KSELFTEST_TEST_OVERHEAD_SH_ARGS="-n 2000 -m base,raw_tp,kprobe,fentry -e getpgid" \
	KSELFTEST_MAP_PERF_TEST_SH_ARGS="-n 2000 -t hash_lookup -a kprobe,fentry" \
		"$TOP/tools/vmtest.sh" --no-build --kselftest >"$T_TMP/ks.out" 2>&1
	echo $? >"$T_TMP/ks.rc"
) &
ks_pid=$!
T_BG+=("$ks_pid")
"$TOP/tools/vmtest.sh" --count 2000 --repeat 1 --attach kprobe,fentry >"$T_TMP/vm.out" 2>&1
RC=$?
cat "$T_TMP/vm.out"
# verdicts PREFIX SKIPPED FILE: each row the judge printed in FILE as a
# check of its own, named PREFIX, a skip saying SKIPPED before its reason
verdicts() {
	local verdict name1 name2 rest
	while read -r verdict name1 name2 rest; do
		case $verdict in
		PASS) pass "$1: $name1 $name2 $rest" ;;
		SKIP) skip "$1: $name1 $name2 $2$rest" ;;
		FAIL) fail "$1: $name1 $name2 $rest" ;;
		esac
	done < <(grep -E '^(PASS|SKIP|FAIL) ' "$3")
}
verdicts vm "skipped for the kernel: " "$T_TMP/vm.out"
expect "vmtest verdict ($(tail -n 1 "$T_TMP/vm.out"))" test "$RC" -eq 0
jobs=$(grep -c '^PASS ' "$T_TMP/vm.out")
expect "vmtest: rows verified in the guest ($jobs)" test "$jobs" -gt 0

wait "$ks_pid"
read -r RC <"$T_TMP/ks.rc" || RC=
sed -n '/^TAP version 13$/,/^== rc=/p' "$T_TMP/ks.out"
grep '^vmtest: ' "$T_TMP/ks.out"
# each row and test judged: a row disturbed under TCG is a skip
verdicts "vm, kselftest" "" "$T_TMP/ks.out"
expect "vmtest --kselftest verdict ($(tail -n 1 "$T_TMP/ks.out"))" test "$RC" = 0
for t in test_overhead.sh map_perf_test.sh; do
	expect "the guest's run_kselftest.sh: bpf_overhead:$t ok (or # SKIP)" \
		grep -Eq "^ok [12] selftests: bpf_overhead: $t( # SKIP)?$" "$T_TMP/ks.out"
done
finish
