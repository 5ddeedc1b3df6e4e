#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The proof on a stock kernel: tools/vmtest.sh boots Debian's default cloud
# kernel (kprobes, trampolines and all) with the static binaries, runs the
# default commands and fails any mode that the kernel's config enables but
# that did not run verified. Each mode it reports is one check here.
. "$(dirname "$0")/lib.sh"

if ! command -v qemu-system-x86_64 >/dev/null || [ ! -x /bin/busybox ]; then
	fail "qemu-system-x86 and busybox-static are needed (make deps)"
	finish
	exit
fi

"$TOP/tools/vmtest.sh" >"$T_TMP/vm.out" 2>&1
RC=$?
cat "$T_TMP/vm.out"
while read -r verdict name1 name2 rest; do
	case $verdict in
	PASS) pass "vm: $name1 $name2" ;;
	SKIP) pass "vm: $name1 $name2 skipped for the kernel: $rest" ;;
	FAIL) fail "vm: $name1 $name2 $rest" ;;
	esac
done < <(grep -E '^(PASS|SKIP|FAIL) ' "$T_TMP/vm.out")
expect "vmtest verdict ($(tail -n 1 "$T_TMP/vm.out"))" test "$RC" -eq 0
finish
