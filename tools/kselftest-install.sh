#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make kselftest-install: lays out INSTALL_PATH as the kernel's
# "make -C tools/testing/selftests install" does, for one collection,
# bpf_overhead, so that its run_kselftest.sh runs it:
#
#   INSTALL_PATH/run_kselftest.sh        the kernel's, from its source
#   INSTALL_PATH/kselftest/*             the kernel's runner.sh and helpers
#   INSTALL_PATH/kselftest-list.txt      bpf_overhead:test_overhead.sh ...
#   INSTALL_PATH/bpf_overhead/           the static programs, the wrappers
#                                        and settings (timeout=)
#
#   tools/kselftest-install.sh BINDIR RUNNERDIR INSTALL_PATH
#
# BINDIR holds the static test_overhead and map_perf_test; RUNNERDIR the
# kernel's tools/testing/selftests/run_kselftest.sh and kselftest/, as
# taken from Debian's linux-source tarball (never copies of our own).
set -eu
[ $# -eq 3 ] || { echo "usage: $0 BINDIR RUNNERDIR INSTALL_PATH" >&2; exit 2; }
bindir=$1 runner=$2 dest=$3
src=$(cd "$(dirname "$0")/kselftest" && pwd)
collection=bpf_overhead
tests="test_overhead.sh map_perf_test.sh"

for f in "$bindir/test_overhead" "$bindir/map_perf_test" \
	 "$runner/run_kselftest.sh" "$runner/kselftest/runner.sh"; do
	[ -e "$f" ] || { echo "kselftest-install: $f is missing" >&2; exit 1; }
done
mkdir -p "$dest/kselftest" "$dest/$collection"
# as the kernel's selftests/Makefile installs them
install -m 744 "$runner/run_kselftest.sh" "$dest/"
install -m 744 "$runner"/kselftest/* "$dest/kselftest/"
install -m 755 "$bindir/test_overhead" "$bindir/map_perf_test" \
	"$dest/$collection/"
for t in $tests; do
	install -m 755 "$src/$t" "$dest/$collection/"
done
install -m 644 "$src/settings" "$dest/$collection/"
# what "make -C $collection emit_tests" appends, one collection:test a
# line; another collection's lines, in a kernel's installed tree, stay
list=$dest/kselftest-list.txt
{
	[ ! -e "$list" ] || grep -v "^$collection:" "$list" || true
	for t in $tests; do
		echo "$collection:$t"
	done
} >"$list.new"
mv "$list.new" "$list"
echo "kselftest-install: $dest ($collection: $tests)"
