#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/libbpf.sh NAME ARCH DIR: a libbpf other than the system's, for
# 'make LIBBPF=NAME', into DIR/include/bpf/ and DIR/lib/libbpf.a. Nothing
# is installed: the Makefile links DIR/lib/libbpf.a in statically.
#
#   bookworm  bookworm's own libbpf-dev (1.1): the newest version that is
#             not a backport, fetched with apt-get download and unpacked
#   trixie    trixie's libbpf source package (1.5): fetched with apt-get
#             source through a deb-src entry for trixie that only this
#             script's own apt lists (build/libbpf/apt/) know, and built
#             static with CC (the Makefile's: a cross compiler for arm64)
#
# ARCH is the Makefile's: x86 or arm64. Fetches need the Debian archive;
# arm64's .deb needs dpkg's arm64 architecture (make deps-arm64).
set -u

usage() {
	echo "usage: tools/libbpf.sh bookworm|trixie x86|arm64 DIR" >&2
	exit 2
}

[ $# -eq 3 ] || usage
name=$1
case $2 in
x86) deb_arch=amd64 triplet=x86_64-linux-gnu deps_hint='' ;;
arm64) deb_arch=arm64 triplet=aarch64-linux-gnu deps_hint='; make deps-arm64' ;;
*) usage ;;
esac
dir=$3
top=$(cd "$(dirname "$0")/.." && pwd)
cache=$top/build/libbpf

die() {
	echo "libbpf.sh: $*" >&2
	exit 1
}

# DIR is replaced only when it is one of this script's: its VERSION
# file says what this script writes there ("bookworm libbpf-dev 1.1...",
# "trixie libbpf 1.5..."), not merely that there is one (many trees have
# a VERSION). What else is there is not its to remove.
ours() {
	[ -f "$1/VERSION" ] && [ ! -L "$1" ] &&
		head -n 1 "$1/VERSION" | grep -qE '^(bookworm libbpf-dev|trixie libbpf) [^ ]+ \('
}
[ ! -e "$dir" ] && [ ! -L "$dir" ] || ours "$dir" ||
	die "$dir exists and is not a libbpf of tools/libbpf.sh (no VERSION of its own): remove it, or give another DIR"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/libbpf.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# the apt name of a package of ARCH
pkg() { [ "$deb_arch" = "$(dpkg --print-architecture)" ] && echo "$1" || echo "$1:$deb_arch"; }

# The newest libbpf-dev of bookworm itself (its point releases and
# security updates included), never the backport make deps installs.
fetch_bookworm() {
	local ver
	ver=$(apt-cache madison "$(pkg libbpf-dev)" 2>/dev/null |
	      awk -F' [|] ' '$3 !~ /backports/ { print $2 }' | sort -V | tail -n 1 |
	      tr -d ' ')
	[ -n "$ver" ] || die "apt knows no bookworm libbpf-dev for $deb_arch (apt-get update$deps_hint)"
	(cd "$tmp" && apt-get download "$(pkg libbpf-dev)=$ver") >"$tmp/log" 2>&1 ||
		die "apt-get download libbpf-dev=$ver failed: $(tail -n 1 "$tmp/log")"
	dpkg-deb -x "$tmp"/libbpf-dev_*.deb "$tmp/deb" || die "cannot unpack libbpf-dev $ver"
	mkdir -p "$tmp/out/lib" &&
		mv "$tmp/deb/usr/include" "$tmp/out/include" &&
		mv "$tmp/deb/usr/lib/$triplet/libbpf.a" "$tmp/out/lib/" ||
		die "libbpf-dev $ver has no usr/include or usr/lib/$triplet/libbpf.a"
	echo "bookworm libbpf-dev $ver ($deb_arch)" >"$tmp/out/VERSION"
}

# apt-get with a configuration of this script's own: a deb-src entry for
# trixie on the mirror bookworm comes from, lists and caches under
# build/libbpf/apt/. The system's sources stay as they are.
apt_trixie() {
	local apt=$cache/apt uri
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" || return 1
	uri=$(apt-get indextargets --no-release-info --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
	      awk '$2 == "bookworm" { print $1; exit }')
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${uri:-http://deb.debian.org/debian/} trixie main" \
		>"$apt/sources.list" || return 1
	apt-get -q -o Dir::Etc::SourceList="$apt/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$apt/lists" \
		-o Dir::Cache="$apt/cache" "$@"
}

build_trixie() {
	local src
	command -v dpkg-source >/dev/null || die "dpkg-source missing (apt-get install dpkg-dev)"
	apt_trixie update >"$tmp/log" 2>&1 ||
		die "apt-get update for trixie's sources failed: $(tail -n 1 "$tmp/log")"
	(cd "$tmp" && apt_trixie source libbpf) >>"$tmp/log" 2>&1 ||
		die "apt-get source libbpf (trixie) failed: $(tail -n 1 "$tmp/log")"
	src=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d -name 'libbpf-*' | head -n 1)
	[ -d "$src/src" ] || die "trixie's libbpf source has no src/"
	# what debian/rules builds, static only, into DIR's layout
	make -C "$src/src" -j"$(nproc)" CC="${CC:-cc}" BUILD_STATIC_ONLY=y \
		OBJDIR="$tmp/obj" DESTDIR="$tmp/out" PREFIX=/ LIBSUBDIR=lib \
		install >"$tmp/build.log" 2>&1 || {
		tail -n 20 "$tmp/build.log" >&2
		die "building trixie's libbpf failed"
	}
	echo "trixie libbpf $(awk '$1 == "Version:" { print $2 }' "$tmp"/libbpf_*.dsc) ($deb_arch, CC=${CC:-cc})" >"$tmp/out/VERSION"
}

case $name in
bookworm) fetch_bookworm ;;
trixie) build_trixie ;;
*) usage ;;
esac
[ -f "$tmp/out/lib/libbpf.a" ] && [ -f "$tmp/out/include/bpf/libbpf.h" ] ||
	die "no libbpf.a and bpf/libbpf.h for $name"
# whole or not at all: a concurrent make never sees half a libbpf
mkdir -p "$(dirname "$dir")" || die "cannot create $(dirname "$dir")"
new=$(mktemp -d "$dir.new.XXXXXX") || die "cannot create a directory beside $dir"
trap 'rm -rf "$tmp" "$new"' EXIT
# (checked again: DIR may have changed while this ran)
{ [ ! -e "$dir" ] && [ ! -L "$dir" ] || ours "$dir"; } ||
	die "$dir is no longer a libbpf of tools/libbpf.sh: left as it is"
mv -T "$tmp/out" "$new" && rm -rf "$dir" && mv -T "$new" "$dir" ||
	die "cannot move the libbpf into $dir"
echo "libbpf.sh: $(cat "$dir/VERSION") in $dir"
