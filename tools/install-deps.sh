#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Installs the Debian 12 packages the build, the tests and vmtest need, only
# when something is missing, so that a fresh machine passes `make check`.
set -u

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
)

missing=()
for pkg in "${!need[@]}"; do
	[ -e "${need[$pkg]}" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing ${missing[*]}; run as root (sudo make ...)" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# a fresh machine has no package lists yet
if ! apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
	apt-get update -qq && apt-get install -y -qq "${missing[@]}" || {
		echo "install-deps: apt-get install ${missing[*]} failed" >&2
		exit 1
	}
fi
