#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The arm64 cross build, checked without qemu: 'make STATIC=1 ARCH=arm64'
# gives static aarch64 binaries, BPF objects compiled for arm64 (their BTF
# holds arm64's struct user_pt_regs, which the kprobe macros read) and
# uprobe targets starting with arm64's nop, stp x29, x30, [sp, #-16]! and
# ret. Without the cross toolchain it fails: 'make deps-arm64' installs it.
# About 11 s from a clean build/arm64 once the kernel package is cached
# (build/vmtest/), a few more to fetch it; not in tests/run.sh's default.
. "$(dirname "$0")/lib.sh"

OUT=$TOP/build/arm64
LIB=/usr/lib/aarch64-linux-gnu
missing=
for f in /usr/bin/aarch64-linux-gnu-gcc /usr/bin/aarch64-linux-gnu-objdump \
	 $LIB/libbpf.a $LIB/libelf.a $LIB/libz.a $LIB/libzstd.a; do
	[ -e "$f" ] || missing+=" $f"
done
if [ -n "$missing" ]; then
	fail "arm64 cross toolchain missing (make deps-arm64):$missing"
	finish
	exit
fi

run_capture build make -C "$TOP" STATIC=1 ARCH=arm64
expect "make STATIC=1 ARCH=arm64 builds (rc=$RC)" test "$RC" -eq 0
[ "$RC" -eq 0 ] || cat "$T_TMP/build.out" "$T_TMP/build.err"

for b in test_overhead map_perf_test; do
	desc=$(file -b "$OUT/static/$b" 2>/dev/null)
	expect "$b is aarch64 ($desc)" grep -q 'ARM aarch64' <<<"$desc"
	expect "$b is statically linked" grep -q 'statically linked' <<<"$desc"
done

# arm64's bpf_tracing.h reads arguments from struct user_pt_regs; x86's
# from struct pt_regs alone
arm64_regs() { grep -A1 '^struct user_pt_regs {' "$OUT/vmlinux.h" | grep -q 'regs\[31\]'; }
expect "vmlinux.h is arm64's (struct user_pt_regs with regs[31])" arm64_regs
for o in test_overhead_kprobe_kern map_perf_test_kern; do
	expect "$o.o was compiled for arm64 (BTF has user_pt_regs)" \
		grep -q "STRUCT 'user_pt_regs'" \
		<(bpftool btf dump file "$OUT/$o.o" 2>/dev/null)
done

# first_word SYMBOL: the first instruction word of SYMBOL, in hex
first_word() {
	aarch64-linux-gnu-objdump -d "$OUT/static/test_overhead" |
		awk -v f="<$1>:" '$2 == f { getline; print $2; exit }'
}
for t in uprobe_nop:d503201f:nop uprobe_push:a9bf7bfd:"stp x29, x30, [sp, #-16]!" \
	 uprobe_ret:d65f03c0:ret; do
	IFS=: read -r sym word name <<<"$t"
	got=$(first_word "$sym")
	expect "$sym starts with $name ($word, got ${got:-nothing})" \
		test "$got" = "$word"
done

finish
