#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/upstream.sh DIR VMLINUX_H: the kernel's own samples/bpf
# test_overhead, built from Debian's linux-source package into DIR, for
# make bench to run beside ours (never installed, never committed):
#
#   DIR/test_overhead              samples/bpf/test_overhead_user.c
#   DIR/test_overhead_tp.bpf.o     its programs, which return 0 and do
#   DIR/test_overhead_raw_tp.bpf.o nothing else ("empty programs"),
#   DIR/test_overhead_kprobe.bpf.o where the program looks for them
#   DIR/libbpf/                    the tree's own tools/lib/bpf, static
#
# linux-source-6.12, not bookworm's 6.1: 6.1's programs also attach to
# random:urandom_read, which kernels since 5.18 lack, and its run then
# stops before its tracepoint and raw_tp modes. 6.12's attach to
# fib:fib_table_lookup instead (6.13 dropped the program from the tree).
# The tarball is /usr/src's when the package is installed, else fetched
# with apt-get download into DIR (bookworm's security archive has it).
# The programs are compiled as the samples' Makefile compiles its
# .bpf.c files (clang -O2 -g --target=bpf), against VMLINUX_H, made from
# the running kernel's BTF as the samples' own is.
set -eu
[ $# -eq 2 ] || { echo "usage: tools/upstream.sh DIR VMLINUX_H" >&2; exit 2; }
dir=$1
vmlinux_h=$2
pkg=linux-source-6.12
CLANG=${CLANG:-clang}
CC=${CC:-cc}

die() {
	echo "upstream.sh: $*" >&2
	exit 1
}

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
src=$dir/src/$pkg

# the source tarball: the installed package's, one fetched before, or
# one this run fetches into DIR (then removed once it has served)
tarball=/usr/src/$pkg.tar.xz
fetched=
tmp=
trap 'rm -rf "$tmp"' EXIT
fetch_tarball() {
	tmp=$(mktemp -d "$dir/fetch.XXXXXX")
	(cd "$tmp" && apt-get download "$pkg") >"$tmp/log" 2>&1 ||
		die "apt-get download $pkg failed: $(tail -n 1 "$tmp/log")"
	dpkg-deb --fsys-tarfile "$tmp"/"$pkg"_*.deb |
		tar -xO "./usr/src/$pkg.tar.xz" >"$tmp/$pkg.tar.xz" ||
		die "no usr/src/$pkg.tar.xz in $(ls "$tmp"/*.deb)"
	mv "$tmp/$pkg.tar.xz" "$dir/"
	rm -rf "$tmp"
	tmp=
	fetched=1
}

# what building the samples' test_overhead reads of the tree, taken out
# into a directory of this run's, which becomes DIR/src whole; a DIR/src
# without its .extracted is not this script's, and stays
if [ ! -e "$src/.extracted" ]; then
	[ ! -e "$dir/src" ] ||
		die "$dir/src is not a source of tools/upstream.sh's (no $src/.extracted): remove it, or give another DIR"
	if [ ! -e "$tarball" ]; then
		tarball=$dir/$pkg.tar.xz
		[ -e "$tarball" ] || fetch_tarball
	fi
	echo "  UNTAR    $pkg (samples/bpf/test_overhead*, tools/lib/bpf)" >&2
	tmp=$(mktemp -d "$dir/src.XXXXXX")
	tar -xJf "$tarball" -C "$tmp" --wildcards "$pkg/Makefile" \
		"$pkg/samples/bpf/test_overhead*" "$pkg/tools/lib/bpf/*" \
		"$pkg/tools/include/*" "$pkg/tools/build/*" \
		"$pkg/tools/scripts/*" "$pkg/tools/arch/x86/include/*" \
		"$pkg/scripts/bpf_doc.py" ||
		die "cannot take the files out of the $pkg tarball"
	touch "$tmp/$pkg/.extracted"
	mv -T "$tmp" "$dir/src"
	tmp=
	# a tarball this run fetched has served: 150 MB less in build/
	[ -z "$fetched" ] || rm -f "$tarball"
fi

echo "  LIBBPF   $pkg tools/lib/bpf" >&2
mkdir -p "$dir/libbpf"
make -s -C "$src/tools/lib/bpf" BUILD_STATIC_ONLY=1 OUTPUT="$dir/libbpf/" \
	DESTDIR="$dir/libbpf" prefix= "$dir/libbpf/libbpf.a" install_headers \
	>"$dir/libbpf.log" 2>&1 ||
	die "building $pkg's libbpf failed: see $dir/libbpf.log"

mkdir -p "$dir/include"
cp "$vmlinux_h" "$dir/include/vmlinux.h"
for p in tp raw_tp kprobe; do
	echo "  CLANG-BPF $pkg samples/bpf/test_overhead_$p.bpf.c" >&2
	"$CLANG" -g -O2 --target=bpf -D__TARGET_ARCH_x86 \
		-Wno-compare-distinct-pointer-types -I"$dir/include" \
		-I"$dir/libbpf/include" \
		-c "$src/samples/bpf/test_overhead_$p.bpf.c" \
		-o "$dir/test_overhead_$p.bpf.o"
done
echo "  CC       $pkg samples/bpf/test_overhead_user.c" >&2
"$CC" -Wall -O2 -I"$dir/libbpf/include" -I"$src/tools/include" \
	-I"$src/tools/lib" -DHAVE_ATTR_TEST=0 \
	-o "$dir/test_overhead" "$src/samples/bpf/test_overhead_user.c" \
	"$dir/libbpf/libbpf.a" -lelf -lz -lrt
awk '/^(VERSION|PATCHLEVEL|SUBLEVEL) =/ { v = v (v ? "." : "") $3 }
     END { print "'"$pkg"' (" v ")" }' "$src/Makefile" >"$dir/VERSION"
