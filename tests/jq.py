#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A small JSON query for the tests: jq.py [-t] FILE EXPR.

EXPR is a Python expression over the parsed FILE ("-": stdin) with
  d        the document          c  d["context"] (or {})
  R        d["results"], or the rows of a --list file
  rows(name=None, variant=None, status=None)   the matching results
  row(name, variant)   the one result, or None
  ran(r)   r ran: ok or disturbed        fig(r)  r shows a figure
  verified(r)  r ran, its events are whole samples of context.count per
           worker, and, where the run was watched (FILE.ids beside FILE,
           see tests/watch.py), the kernel's own count of its programs'
           runs covers events * hits_per_event and matches what they
           counted (tests/kernel_runs.py). Unwatched, only the tool's
           verdict (its per-CPU check) stands behind it.
  kruns(r) the kernel's run count of r's first program, or None
  nofig(r) r shows no figure (no samples, no mean)
-t: exit 0 when EXPR is true, 1 when false, 3 when true only because an
all() looked at nothing (a check over no row is a skip, never a pass).
Otherwise EXPR's value is printed: a string as it is, a list one item a
line, anything else as JSON. A file that does not parse, or an
expression that raises, exits 2 with one line on stderr: a check on it
fails, never passes.
"""
import builtins
import json
import os
import sys

import kernel_runs


def main():
	args = sys.argv[1:]
	test = args and args[0] == "-t"
	if test:
		args = args[1:]
	if len(args) != 2:
		sys.exit("usage: jq.py [-t] FILE EXPR")
	path, expr = args
	try:
		f = sys.stdin if path == "-" else open(path)
		d = json.load(f)
	except (OSError, ValueError) as e:
		print("jq.py: %s: %s" % (path, e), file=sys.stderr)
		sys.exit(2)
	c = d.get("context", {}) if isinstance(d, dict) else {}
	R = d.get("results", d.get("rows", [])) if isinstance(d, dict) else []

	def rows(name=None, variant=None, status=None):
		return [r for r in R if (name is None or r["name"] == name) and
			(variant is None or r["variant"] == variant) and
			(status is None or r["status"] == status)]

	def row(name, variant):
		m = rows(name, variant)
		return m[0] if len(m) == 1 else None

	def ran(r):
		return r is not None and r["status"] in ("ok", "disturbed")

	def fig(r):
		return r is not None and r["status"] == "ok" and \
			bool(r.get("samples")) and r.get("mean") is not None

	def nofig(r):
		return r is not None and not r.get("samples") and \
			r.get("mean") is None

	# the watcher's record of the run, where there is one
	ids = path[:-5] + ".ids" if path.endswith(".json") else None
	runs = kernel_runs.load(ids) if ids and os.path.exists(ids) else None
	why = []

	def kruns(r):
		return kernel_runs.first_runs(r, runs)

	def whole_samples(r):
		# (map_perf_test's bpf() rows: a call may be a batch)
		n, w = c.get("count"), r.get("workers")
		return not n or not w or r["variant"] == "syscall" or \
			r["events"] % (n * w) == 0

	def verified(r):
		if not ran(r) or r["events"] <= 0 or not whole_samples(r):
			return False
		if r.get("hits") is None:	# a base row: nothing to count
			return True
		if r["hits"] < r["events"] * (r.get("hits_per_event") or 1):
			return False
		k = kernel_runs.row(d, r, runs) if isinstance(runs, dict) else None
		if k and not k[0]:
			why.append("%s %s: %s" % (r["name"], r["variant"], k[1]))
		return not k or k[0]

	vacuous = []

	def all_(it):
		items = list(it)
		if not items:
			vacuous.append(1)
		return builtins.all(items)

	env = dict(d=d, c=c, R=R, rows=rows, row=row, ran=ran, fig=fig,
		   nofig=nofig, verified=verified, kruns=kruns, json=json,
		   all=all_)
	try:
		v = eval(expr, env)
	except Exception as e:
		print("jq.py: %s: %s: %r" % (path, expr, e), file=sys.stderr)
		sys.exit(2)
	if test:
		if why:
			print("; ".join(why)[:400], file=sys.stderr)
		if v and vacuous:
			print("an all() over no row", file=sys.stderr)
			sys.exit(3)
		sys.exit(0 if v else 1)
	if isinstance(v, str):
		print(v)
	elif isinstance(v, (list, tuple)):
		for x in v:
			print(x if isinstance(x, str) else json.dumps(x))
	else:
		print(json.dumps(v))


main()
