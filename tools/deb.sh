#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package (debian/), built as a distribution would: a copy of
# the tree's files (git's tracked files when the tree is a git checkout,
# as a fresh clone has them; else everything but build/) in a directory
# of its own inside OUTDIR, then dpkg-buildpackage -us -uc -b there, then
# lintian on the result. The package's files (.deb, .buildinfo,
# .changes) and build.log are moved into OUTDIR, replacing those of the
# same names; nothing else of OUTDIR is touched, and the directory it
# made is removed however it ends. The tree and its build/ are left alone
# (the package's clean step runs make clean on the copy).
#
#   tools/deb.sh [OUTDIR]     (default build/deb)
#
# Prints the .deb's path last. Exit 1 when the build fails (its log's end
# shown) or lintian reports an error.
set -u
cd "$(dirname "$0")/.." || exit 1
out=${1:-build/deb}
name=bpf-overhead-bench

mkdir -p "$out" && work=$(mktemp -d "$out/.deb.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
src=$work/$name
mkdir "$src" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# tracked files as they are in the tree, deleted ones left out
	git ls-files -z | while IFS= read -r -d '' f; do
		[ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"
	done | tar --null -T - -cf - | tar -xf - -C "$src"
else
	tar --exclude=./build -cf - . | tar -xf - -C "$src"
fi || { echo "deb: cannot copy the tree into $src" >&2; exit 1; }

echo "  DPKG     $src"
# as many jobs as CPUs, unless the caller said
export DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-parallel=$(nproc)}
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1
rc=$?
mv -f "$work/build.log" "$out/" || exit 1
if [ $rc -ne 0 ]; then
	tail -n 30 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
fi
# the package's files: what dpkg-buildpackage left beside the copy
if ! changes=$(cd "$work" && ls "$name"_*.changes) ||
   ! debs=$(cd "$work" && ls "$name"_*.deb) ||
   ! find "$work" -maxdepth 1 -type f -exec mv -f -t "$out" {} +; then
	echo "deb: cannot move the package's files into $out" >&2
	exit 1
fi
changes=$out/$changes
echo "  LINTIAN  $changes"
lintian --fail-on error "$changes" || {
	echo "deb: lintian reports errors" >&2
	exit 1
}
printf '%s\n' "$out/$debs"
