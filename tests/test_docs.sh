#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# README.rst is reStructuredText that parses cleanly, documents every
# option each program's --help lists, and names every row --list has.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

expect "README.rst parses without warnings" /usr/bin/python3 -c '
import sys, docutils.core, docutils.utils
try:
	docutils.core.publish_string(open("README.rst").read(), writer_name="null",
		settings_overrides={"halt_level": 2, "report_level": 5})
except docutils.utils.SystemMessage as e:
	sys.exit("README.rst: %s" % e)'

for prog in test_overhead map_perf_test; do
	[ -x "./$prog" ] || { fail "$prog is built"; continue; }
	for opt in $(./$prog --help | grep -oE -- '(^|[ ,])--[a-z][a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u); do
		expect "README documents $prog $opt" grep -q -- "$opt" README.rst
	done
	./$prog --list --json "$T_TMP/$prog.json"
	for word in $(jget "$T_TMP/$prog.json" 'sorted(set(r["name"] for r in R) | set(r["variant"] for r in R))'); do
		expect "README names $prog's $word" grep -qw -- "$word" README.rst
	done
done
finish
