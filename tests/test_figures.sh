#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documentation's example figures (README.rst's "Reading the output",
# Documentation/figures.rst) are in the programs' format of today: the
# commands tools/readme-figures.sh runs, lines within 100 columns, and
# each command, run now and short, printing the same table heading,
# legend and upstream lines (tests/figures.py). A block from an older
# format fails: tools/readme-figures.sh --update makes it anew.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

checks_from python3 "$TESTS/figures.py" "$T_TMP" README.rst Documentation/figures.rst
finish
