#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Installs the Debian 12 packages the build, the tests and vmtest need, only
# when something is missing, so that a fresh machine passes `make check`.
# libbpf and bpftool come from bookworm-backports (libbpf 1.4, bpftool 7.5):
# bookworm's own libbpf 1.1 lacks uprobe.multi. The backports are enabled
# as Debian documents it (https://backports.debian.org/Instructions/): a
# sources entry for bookworm-backports, and those packages alone installed
# with -t bookworm-backports; everything else stays bookworm's.
#
#   tools/install-deps.sh          the host's packages
#   tools/install-deps.sh arm64    those, plus the arm64 cross toolchain, the
#                                  arm64 static libraries and qemu for arm64
#   tools/install-deps.sh check    the host's, plus what make check alone
#                                  needs: the kernel's kselftest runner
set -u

usage() {
	echo "usage: tools/install-deps.sh [arm64|check]" >&2
	exit 2
}

# where Debian keeps this architecture's headers (sys/sdt.h)
multiarch=$(uname -m)-linux-gnu

# package: the file that proves it is installed
declare -A need=(
	[clang]=/usr/bin/clang
	[llvm]=/usr/bin/llvm-strip
	[libelf-dev]=/usr/include/libelf.h
	[zlib1g-dev]=/usr/include/zlib.h
	[libzstd-dev]=/usr/include/zstd.h
	[libjansson-dev]=/usr/include/jansson.h
	[systemtap-sdt-dev]=/usr/include/$multiarch/sys/sdt.h
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

# make check's alone: tests/test_ktap.sh runs the kernel's own kselftest
# runner, run_kselftest.sh, from Debian's kernel source tarball
declare -A need_check=(
	[linux-source-6.1]=/usr/src/linux-source-6.1.tar.xz
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
	[libelf-dev:arm64]=$ARM64_LIB/libelf.a
	[zlib1g-dev:arm64]=$ARM64_LIB/libz.a
	[libzstd-dev:arm64]=$ARM64_LIB/libzstd.a
	[libjansson-dev:arm64]=$ARM64_LIB/libjansson.a
	[systemtap-sdt-dev:arm64]=/usr/include/aarch64-linux-gnu/sys/sdt.h
	[file]=/usr/bin/file
)

# From bookworm-backports: package, and the least version taken. A system
# whose own release already has them (trixie) installs nothing from it.
BACKPORTS=bookworm-backports
declare -A need_backports=(
	[libbpf-dev]=1:1.4
	[bpftool]=7.5
)
# libbpf-dev is Multi-Arch: same: :arm64 comes at the host's version
declare -A need_backports_arm64=(
	[libbpf-dev:arm64]=1:1.4
)

# installed at PKG's least VERSION, or newer; PKG without :ARCH is the
# host's (dpkg-query would list every architecture's)
installed() {
	local pkg=$1 v
	[[ $pkg == *:* ]] || pkg+=:$(dpkg --print-architecture)
	v=$(dpkg-query -W -f='${db:Status-Status} ${Version}' "$pkg" 2>/dev/null)
	[ "${v%% *}" = installed ] && dpkg --compare-versions "${v#* }" ge "$2"
}

# The sources entry, once, on the mirror this machine takes bookworm from
# (deb.debian.org when none is configured yet); what is configured is
# read from the configuration itself, fetched lists or not
BACKPORTS_LIST=/etc/apt/sources.list.d/$BACKPORTS.list
enable_backports() {
	local uri
	apt-get indextargets --no-release-info --format '$(RELEASE)' 2>/dev/null |
		grep -qx "$BACKPORTS" && return 1
	uri=$(apt-get indextargets --no-release-info --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
	      awk '$2 == "bookworm" { print $1; exit }')
	echo "install-deps: enabling $BACKPORTS in $BACKPORTS_LIST"
	echo "deb ${uri:-http://deb.debian.org/debian/} $BACKPORTS main" >"$BACKPORTS_LIST" || {
		echo "install-deps: cannot write $BACKPORTS_LIST" >&2
		exit 1
	}
}

arm64=0
check=0
case ${1:-} in
'') ;;
arm64) arm64=1 ;;
check) check=1 ;;
*) usage ;;
esac
[ $# -le 1 ] || usage

missing=()
backports=()
for pkg in "${!need[@]}"; do
	[ -e "${need[$pkg]}" ] || missing+=("$pkg")
done
for pkg in "${!need_backports[@]}"; do
	installed "$pkg" "${need_backports[$pkg]}" || backports+=("$pkg")
done
if [ "$check" -eq 1 ]; then
	for pkg in "${!need_check[@]}"; do
		[ -e "${need_check[$pkg]}" ] || missing+=("$pkg")
	done
fi
if [ "$arm64" -eq 1 ]; then
	for pkg in "${!need_arm64[@]}"; do
		[ -e "${need_arm64[$pkg]}" ] || missing+=("$pkg")
	done
	for pkg in "${!need_backports_arm64[@]}"; do
		installed "$pkg" "${need_backports_arm64[$pkg]}" || backports+=("$pkg")
	done
fi
[ ${#missing[@]} -eq 0 ] && [ ${#backports[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing ${missing[*]}${missing[*]:+ }${backports[*]}; run as root (sudo make ...)" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}${missing[*]:+ }${backports[*]}"
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
# bookworm's own libbpf is too old: the backports' lists are needed
[ ${#backports[@]} -eq 0 ] || ! enable_backports || fresh=1

# apt_install [-t RELEASE] PKG...: a fresh machine has no package lists
# yet; any other failure gets one update and a second try
apt_install() {
	[ "$fresh" -eq 0 ] && apt-get install -y -qq "$@" >/dev/null 2>&1 && return 0
	if [ "$updated" -eq 0 ]; then
		updated=1
		apt-get update -qq || return 1
	fi
	apt-get install -y -qq "$@"
}
updated=0
if [ ${#missing[@]} -gt 0 ]; then
	apt_install "${missing[@]}" || {
		echo "install-deps: apt-get install ${missing[*]} failed" >&2
		exit 1
	}
fi
# apt (2.5.2 on) also upgrades every installed binary of a package's
# source: bpftool's is linux, so linux-libc-dev (the system's uapi
# headers) and linux-perf would move to 6.12 too. Only what is asked for.
if [ ${#backports[@]} -gt 0 ]; then
	apt_install -t "$BACKPORTS" -o APT::Get::Upgrade-By-Source-Package=false \
		"${backports[@]}" || {
		echo "install-deps: apt-get install -t $BACKPORTS ${backports[*]} failed" >&2
		exit 1
	}
fi
