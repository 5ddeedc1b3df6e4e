#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A small JSON query for the tests: jq.py [-t] FILE EXPR.

EXPR is a Python expression over the parsed FILE ("-": stdin) with
  d        the document          c  d["context"] (or {})
  R        d["results"], or the rows of a --list file
  rows(name=None, variant=None, status=None)   the matching results
  row(name, variant)   the one result, or None
  ran(r)   r ran: ok or disturbed        fig(r)  r shows a figure
  verified(r)  r ran and its hits cover events * hits_per_event
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
import sys


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

	def verified(r):
		if not ran(r):
			return False
		if r.get("hits") is None:	# a base row: nothing to count
			return r["events"] > 0
		k = r.get("hits_per_event") or 1
		return r["events"] > 0 and r["hits"] >= r["events"] * k

	vacuous = []

	def all_(it):
		items = list(it)
		if not items:
			vacuous.append(1)
		return builtins.all(items)

	env = dict(d=d, c=c, R=R, rows=rows, row=row, ran=ran, fig=fig,
		   nofig=nofig, verified=verified, json=json, all=all_)
	try:
		v = eval(expr, env)
	except Exception as e:
		print("jq.py: %s: %s: %r" % (path, expr, e), file=sys.stderr)
		sys.exit(2)
	if test:
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
