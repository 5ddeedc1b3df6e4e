#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""runs.py NAME RESULT IDS: a run's rows against the kernel's run counts.

RESULT is the run's --json, IDS what tests/watch.py recorded of it. One
"ok - " or "not ok - " line for the run, over every row that ran
programs (see tests/kernel_runs.py); a skip line when the kernel's counts
are unknown; nothing when no row ran a program (nothing to compare).
"""
import json
import sys

import kernel_runs


def main():
	name, result, ids = sys.argv[1:4]
	try:
		d = json.load(open(result))
	except (OSError, ValueError) as e:
		print("not ok - %s: the kernel's run counts: reading %s: %s" %
		      (name, result, e))
		return
	rows = [r for r in d.get("results", []) if kernel_runs.checkable(r)]
	if not rows:
		return
	runs = kernel_runs.load(ids)
	if isinstance(runs, str):
		print("ok - # SKIP %s: the kernel's run counts: %s" % (name, runs))
		return
	bad, total = [], 0
	for r in rows:
		ok, what = kernel_runs.row(d, r, runs)	# rows are checkable
		total += r["runs_counted"]
		if not ok:
			bad.append("%s %s%s: %s" % (r["name"], r["variant"],
				   "".join(" %s=%s" % kv for kv in
					   (r.get("params") or {}).items()), what))
	if bad:
		print("not ok - %s: the kernel's run counts: %s" %
		      (name, "; ".join(bad)[:600]))
	else:
		print("ok - %s: the kernel ran the programs of its %d row(s) as "
		      "often as they counted (%d runs)" % (name, len(rows), total))


main()
