#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The README's example figures, from a real run on this machine: both
# programs' default summaries with the machine and kernel named beside
# them. Prints the reStructuredText block; with --update, puts it into
# README.rst between its ".. figures-begin" and ".. figures-end" lines.
#
#   tools/readme-figures.sh [--update]      (as root, on a quiet machine)
set -eu
cd "$(dirname "$0")/.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

./test_overhead -q --json "$TMP/to.json" >"$TMP/to.txt" 2>/dev/null || true
./map_perf_test -q --json "$TMP/mp.json" >"$TMP/mp.txt" 2>/dev/null || true

block() {
	python3 - "$TMP/to.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))["context"]
print("Measured on %s, %s of them used (%s), kernel %s, libbpf %s, %s:" % (
	c["cpu_model"], c["cpus_used"], c["machine"], c["kernel_release"],
	c["libbpf_version"], c["timestamp"][:10]))
EOF
	echo
	echo "::"
	echo
	echo "    \$ sudo ./test_overhead -q"
	sed -e '/^$/d' -e 's/^/    /' "$TMP/to.txt"
	echo
	echo "    \$ sudo ./map_perf_test -q"
	sed -e '/^$/d' -e 's/^/    /' "$TMP/mp.txt"
	echo
}

if [ "${1:-}" != --update ]; then
	block
	exit 0
fi
block >"$TMP/block"
python3 - "$TMP/block" <<'EOF'
import sys
text = open("README.rst").read()
begin, end = ".. figures-begin\n", ".. figures-end\n"
i, j = text.index(begin) + len(begin), text.index(end)
open("README.rst", "w").write(text[:i] + "\n" + open(sys.argv[1]).read() + text[j:])
EOF
echo "README.rst: figures updated"
