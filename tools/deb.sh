#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package (debian/), built as a distribution would: a copy of
# the tree's files (git's tracked files when the tree is a git checkout,
# as a fresh clone has them; else everything but build/) in OUTDIR, then
# dpkg-buildpackage -us -uc -b there, then lintian on the result. The
# .deb lands in OUTDIR; the tree and its build/ are left alone (the
# package's clean step runs make clean on the copy).
#
#   tools/deb.sh [OUTDIR]     (default build/deb)
#
# Prints the .deb's path last. Exit 1 when the build fails (its log's end
# shown) or lintian reports an error.
set -u
cd "$(dirname "$0")/.." || exit 1
out=${1:-build/deb}
name=bpf-overhead-bench
src=$out/$name

rm -rf "$out" && mkdir -p "$src" || exit 1
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
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
fi
changes=$(ls "$out"/"$name"_*.changes)
echo "  LINTIAN  $changes"
lintian --fail-on error "$changes" || {
	echo "deb: lintian reports errors" >&2
	exit 1
}
ls "$out"/"$name"_*.deb
