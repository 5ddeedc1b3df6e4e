#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Installs the Debian 12 packages a target needs, only when something is
# missing: each make target installs its own group, so that a fresh machine
# passes `make run` without qemu or matplotlib, and `make check` with all.
# libbpf and bpftool come from bookworm-backports (libbpf 1.4, bpftool 7.5):
# bookworm's own libbpf 1.1 lacks uprobe.multi. The backports are enabled
# as Debian documents it (https://backports.debian.org/Instructions/): a
# sources entry for bookworm-backports, and those packages alone installed
# with -t bookworm-backports; everything else stays bookworm's.
#
#   tools/install-deps.sh [GROUP...]         install what GROUP needs
#   tools/install-deps.sh --list [GROUP...]  print its packages, install nothing
#
#   run      build and run both programs (make run): the compilers, libbpf,
#            libelf, zlib, jansson, <sys/sdt.h>
#   vmtest   run's, the static build's libzstd, qemu, busybox and cpio
#            (make vmtest)
#   plot     python3-matplotlib (make plot)
#   install  run's, and docutils' rst2man for the man pages (make install)
#   deb      install's, and what building the Debian package and checking
#            it take: dpkg-dev, debhelper, lintian (make deb, make check-deb)
#   check    (default) all of those, and what the tests use: procps,
#            python3, docutils, man-db, bash-completion, the kernel's
#            kselftest runner (linux-source-6.1), lava-common and
#            the shellcheck package (make check, make deps),
#            so that dpkg-buildpackage builds a fresh clone after make deps
#   arm64    run's, plus the arm64 cross toolchain, the arm64 static
#            libraries and qemu for arm64 (make deps-arm64)
# (group_* and include_* are read by name)
# shellcheck disable=SC2034
set -u

usage() {
	echo "usage: tools/install-deps.sh [--list] [run|check|vmtest|plot|install|deb|arm64]..." >&2
	exit 2
}

# where Debian keeps this architecture's headers (sys/sdt.h)
multiarch=$(uname -m)-linux-gnu

# package: the file that proves it is installed
declare -A need=(
	[clang]=/usr/bin/clang
	[gcc]=/usr/bin/gcc
	[libc6-dev]=/usr/include/stdio.h
	[make]=/usr/bin/make
	[binutils]=/usr/bin/objdump
	[libelf-dev]=/usr/include/libelf.h
	[zlib1g-dev]=/usr/include/zlib.h
	[libjansson-dev]=/usr/include/jansson.h
	[systemtap-sdt-dev]=/usr/include/$multiarch/sys/sdt.h
	[libzstd-dev]=/usr/include/zstd.h
	[qemu-system-x86]=/usr/bin/qemu-system-x86_64
	[busybox-static]=/bin/busybox
	[cpio]=/usr/bin/cpio
	[procps]=/usr/bin/pgrep
	[tmux]=/usr/bin/tmux
	[python3]=/usr/bin/python3
	[python3-docutils]=/usr/lib/python3/dist-packages/docutils
	[python3-matplotlib]=/usr/lib/python3/dist-packages/matplotlib
	[man-db]=/usr/bin/man
	[bash-completion]=/usr/share/bash-completion/bash_completion
	[dpkg-dev]=/usr/bin/dpkg-buildpackage
	[debhelper]=/usr/bin/dh
	[lintian]=/usr/bin/lintian
	[linux-source-6.1]=/usr/src/linux-source-6.1.tar.xz
	[lava-common]=/usr/lib/python3/dist-packages/lava_common/schemas/test/testdef.py
	[shellcheck]=/usr/bin/shellcheck
)

# Each target's packages of the table above. run's are what the build and
# tools/run.sh invoke: its headers and tools come through these packages'
# Depends alone (tests/test_run.sh checks it), so they are installed
# without their Recommends (clang's would add llvm-14-dev and python3).
# libc6-dev is only a Recommends of gcc: named. A static build (what
# vmtest boots) also links -lzstd; vmtest.sh judges with python3.
group_run="clang gcc libc6-dev make binutils libelf-dev zlib1g-dev
	   libjansson-dev systemtap-sdt-dev"
group_vmtest="libzstd-dev qemu-system-x86 busybox-static cpio python3"
group_plot="python3 python3-matplotlib"
# the man pages are made by docutils' rst2man (make install); the Debian
# package's Build-Depends are install's (debian/control), and building it
# takes dpkg-dev and debhelper, checking it lintian
group_install="python3-docutils"
group_deb="dpkg-dev debhelper lintian"
# tests/test_ktap.sh runs the kernel's own kselftest runner,
# run_kselftest.sh, from Debian's kernel source tarball; tests/test_docs.sh
# renders the man pages with man, tests/test_completion.sh drives the
# completion with bash-completion's functions; tests/test_glance.sh reads
# what a terminal of a given width shows from a tmux pane;
# tests/test_fleet.sh holds the LAVA test definition to lava-common's
# schema and its run step to shellcheck
group_check="procps python3 python3-docutils man-db bash-completion
	     linux-source-6.1 tmux lava-common shellcheck"
# the groups each one takes in too
include_vmtest=run
include_install=run
include_deb=install
include_check="run vmtest plot install deb"
include_arm64=run

# The arm64 cross build links Debian's own arm64 static libraries (multiarch
# :arm64 packages); busybox-static:arm64 would replace the host's
# /bin/busybox, so vmtest.sh fetches and unpacks it instead. The host's
# python3 reads the arm64 Image's BTF (tools/btf_extract.py) and judges
# the guest, cpio packs its initramfs.
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
group_arm64="python3 cpio"

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

list=0
[ "${1:-}" != --list ] || { list=1; shift; }
[ $# -gt 0 ] || set -- check

# the groups asked for, and those they take in
declare -A groups=()
add_group() {
	local g inc
	case $1 in run | check | vmtest | plot | install | deb | arm64) ;; *) usage ;; esac
	[ -z "${groups[$1]:-}" ] || return 0
	groups[$1]=1
	inc=include_$1
	for g in ${!inc:-}; do
		add_group "$g"
	done
}
for g; do
	add_group "$g"
done

# the packages of the groups, and which of them come from backports
declare -A want=() bp=()
for g in "${!groups[@]}"; do
	pkgs=group_$g
	for pkg in ${!pkgs}; do
		want[$pkg]=${need[$pkg]}
	done
done
if [ -n "${groups[run]:-}" ]; then
	for pkg in "${!need_backports[@]}"; do
		bp[$pkg]=${need_backports[$pkg]}
	done
fi
if [ -n "${groups[arm64]:-}" ]; then
	for pkg in "${!need_arm64[@]}"; do
		want[$pkg]=${need_arm64[$pkg]}
	done
	for pkg in "${!need_backports_arm64[@]}"; do
		bp[$pkg]=${need_backports_arm64[$pkg]}
	done
fi

if [ "$list" -eq 1 ]; then
	printf '%s\n' "${!want[@]}" "${!bp[@]}" | sort
	exit 0
fi

# run's packages apart: they go in without their Recommends
declare -A in_run=()
for pkg in $group_run; do
	in_run[$pkg]=1
done
missing_run=()
missing_rest=()
backports=()
for pkg in "${!want[@]}"; do
	[ -e "${want[$pkg]}" ] && continue
	if [ -n "${in_run[$pkg]:-}" ]; then
		missing_run+=("$pkg")
	else
		missing_rest+=("$pkg")
	fi
done
for pkg in "${!bp[@]}"; do
	installed "$pkg" "${bp[$pkg]}" || backports+=("$pkg")
done
missing=("${missing_run[@]}" "${missing_rest[@]}")
[ ${#missing[@]} -eq 0 ] && [ ${#backports[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing ${missing[*]}${missing[*]:+ }${backports[*]}; run make as root" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}${missing[*]:+ }${backports[*]}"
export DEBIAN_FRONTEND=noninteractive
fresh=0
# apt knows no :arm64 package until the architecture is added, and then
# only after an update
if [ -n "${groups[arm64]:-}" ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
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
if [ ${#missing_run[@]} -gt 0 ]; then
	apt_install --no-install-recommends "${missing_run[@]}" || {
		echo "install-deps: apt-get install ${missing_run[*]} failed" >&2
		exit 1
	}
fi
if [ ${#missing_rest[@]} -gt 0 ]; then
	apt_install "${missing_rest[@]}" || {
		echo "install-deps: apt-get install ${missing_rest[*]} failed" >&2
		exit 1
	}
fi
# apt (2.5.2 on) also upgrades every installed binary of a package's
# source: bpftool's is linux, so linux-libc-dev (the system's uapi
# headers) and linux-perf would move to 6.12 too. Only what is asked for.
if [ ${#backports[@]} -gt 0 ]; then
	apt_install -t "$BACKPORTS" -o APT::Get::Upgrade-By-Source-Package=false \
		--no-install-recommends "${backports[@]}" || {
		echo "install-deps: apt-get install -t $BACKPORTS ${backports[*]} failed" >&2
		exit 1
	}
fi
