#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Installs the Debian 12 packages the build, the tests and vmtest need, only
# when something is missing, so that a fresh machine passes `make check`.
#
#   tools/install-deps.sh          the host's packages
#   tools/install-deps.sh arm64    those, plus the arm64 cross toolchain, the
#                                  arm64 static libraries and qemu for arm64
set -u

usage() {
	echo "usage: tools/install-deps.sh [arm64]" >&2
	exit 2
}

# where Debian keeps this architecture's headers (sys/sdt.h)
multiarch=$(uname -m)-linux-gnu

# package: the file that proves it is installed
declare -A need=(
	[clang]=/usr/bin/clang
	[llvm]=/usr/bin/llvm-strip
	[libbpf-dev]=/usr/include/bpf/libbpf.h
	[libelf-dev]=/usr/include/libelf.h
	[zlib1g-dev]=/usr/include/zlib.h
	[libzstd-dev]=/usr/include/zstd.h
	[libjansson-dev]=/usr/include/jansson.h
	[systemtap-sdt-dev]=/usr/include/$multiarch/sys/sdt.h
	[bpftool]=/usr/sbin/bpftool
	[qemu-system-x86]=/usr/bin/qemu-system-x86_64
	[busybox-static]=/bin/busybox
	[cpio]=/usr/bin/cpio
	[gcc]=/usr/bin/gcc
	[make]=/usr/bin/make
	[binutils]=/usr/bin/objdump
	[procps]=/usr/bin/pgrep
	[python3]=/usr/bin/python3
	[python3-docutils]=/usr/lib/python3/dist-packages/docutils
	[python3-matplotlib]=/usr/lib/python3/dist-packages/matplotlib
)

# The arm64 cross build links Debian's own arm64 static libraries (multiarch
# :arm64 packages); busybox-static:arm64 would replace the host's
# /bin/busybox, so vmtest.sh fetches and unpacks it instead.
ARM64_LIB=/usr/lib/aarch64-linux-gnu
declare -A need_arm64=(
	[qemu-system-arm]=/usr/bin/qemu-system-aarch64
	[gcc-aarch64-linux-gnu]=/usr/bin/aarch64-linux-gnu-gcc
	[binutils-aarch64-linux-gnu]=/usr/bin/aarch64-linux-gnu-objdump
	[libc6-dev:arm64]=$ARM64_LIB/libc.a
	[libbpf-dev:arm64]=$ARM64_LIB/libbpf.a
	[libelf-dev:arm64]=$ARM64_LIB/libelf.a
	[zlib1g-dev:arm64]=$ARM64_LIB/libz.a
	[libzstd-dev:arm64]=$ARM64_LIB/libzstd.a
	[libjansson-dev:arm64]=$ARM64_LIB/libjansson.a
	[systemtap-sdt-dev:arm64]=/usr/include/aarch64-linux-gnu/sys/sdt.h
	[file]=/usr/bin/file
)

arm64=0
case ${1:-} in
'') ;;
arm64) arm64=1 ;;
*) usage ;;
esac
[ $# -le 1 ] || usage

missing=()
for pkg in "${!need[@]}"; do
	[ -e "${need[$pkg]}" ] || missing+=("$pkg")
done
if [ "$arm64" -eq 1 ]; then
	for pkg in "${!need_arm64[@]}"; do
		[ -e "${need_arm64[$pkg]}" ] || missing+=("$pkg")
	done
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing ${missing[*]}; run as root (sudo make ...)" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
fresh=0
# apt knows no :arm64 package until the architecture is added, and then
# only after an update
if [ "$arm64" -eq 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64 || {
		echo "install-deps: dpkg --add-architecture arm64 failed" >&2
		exit 1
	}
	fresh=1
fi
# a fresh machine has no package lists yet
if [ "$fresh" -eq 1 ] ||
   ! apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
	apt-get update -qq && apt-get install -y -qq "${missing[@]}" || {
		echo "install-deps: apt-get install ${missing[*]} failed" >&2
		exit 1
	}
fi
