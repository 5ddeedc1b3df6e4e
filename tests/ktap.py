#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ktap.py OUT JSON TAG RC: a --ktap run's stdout OUT against the same
run's --json file JSON and its exit status RC, as "ok - ..." / "not ok -
..." lines (tests/lib.sh's checks_from).

OUT must parse as KTAP version 1 (Documentation/dev-tools/ktap.rst):
nothing but its version line, its plan, test points and "# " diagnostic
lines; the plan as many as the JSON's rows; test point K the JSON's row
K, named "<name> <variant>[ [key=value,...]]" with no '#', its result and
directive its status (ok; skipped: ok # SKIP <the JSON's reason>;
disturbed: ok # SKIP disturbed: <reason>; failed: not ok after a "#
<name>: FAILED: <reason>" line); an ok row's figure, on the line before
it, the JSON's (its overhead, ns per event or per op; --memory's bytes
per element, --attach-time's attach and detach); kselftest's "# Totals" line the counts. RC is
kselftest's: 1 with a failed row, else 4 when nothing was measured,
else 0.
"""
import json
import re
import sys

out, jfile, tag, rc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
lines = open(out).read().splitlines()
R = json.load(open(jfile))["results"]


def check(ok, what, why=""):
	print("%s - %s: %s%s" % ("ok" if ok else "not ok", tag, what,
				  "" if ok or not why else " (%s)" % why[:300]))


def desc(r):
	p = r.get("params") or {}
	return "%s %s%s" % (r["name"], r["variant"], " [%s]" % ",".join(
		"%s=%s" % kv for kv in p.items()) if p else "")


def fmt(v, prec):
	return "%.*f" % (prec, v)


def fmt_or_dash(v, prec):
	return "-" if v is None else fmt(v, prec)


def figure(r):
	"""the words of an ok row's figure, from the JSON"""
	op, oh, u = r.get("ns_per_op"), r.get("overhead_ns"), r.get("units")
	mem = r.get("memory")
	if isinstance(mem, dict):
		return "%s bytes/element charged, memlock %s bytes/element" % (
			fmt_or_dash(mem.get("bytes_per_element"), 1),
			fmt_or_dash(mem.get("memlock_per_element"), 1))
	if r.get("functions") is not None:
		ms = lambda v: None if v is None else v / 1e6
		return "attach %s ms, detach %s ms on %d functions" % (
			fmt_or_dash(ms(r.get("attach_ns")), 2),
			fmt_or_dash(ms(r.get("detach_ns")), 2), r["functions"])
	if isinstance(op, dict):
		v, ci, what, unit, prec = op["value"], op["ci95"], "", "ns/op", 2
	elif isinstance(oh, dict):
		v, ci, what, unit, prec = oh["value"], oh["ci95"], "overhead ", "ns/event", 1
	else:
		v, ci, what, unit, prec = u["mean"], u["ci95"], "", "ns/event", 1
	return "%s%s%s %s" % (what, fmt(v, prec),
			      "" if ci is None else " ± " + fmt(ci, prec), unit)


point = re.compile(r"^(ok|not ok) ([0-9]+)(?: ([^#]*?))?(?: # (.*))?$")
bad = [l for l in lines if not (l == "KTAP version 1" or re.match(r"^1\.\.[0-9]+$", l)
				or point.match(l) or l.startswith("# "))]
check(not bad, "every line of stdout is KTAP (version, plan, test point, '# ' diagnostic)",
      "; ".join(bad[:3]))
check(lines[:1] == ["KTAP version 1"], "the first line is 'KTAP version 1'",
      lines[0] if lines else "no output")
check(lines[1:2] == ["1..%d" % len(R)], "the plan is 1..%d, the JSON's rows" % len(R),
      lines[1] if len(lines) > 1 else "")
points = [(i, point.match(l)) for i, l in enumerate(lines) if point.match(l)]
check(len(points) == len(R), "one test point per row (%d)" % len(R), "%d points" % len(points))
check([int(m.group(2)) for _, m in points] == list(range(1, len(points) + 1)),
      "test points are numbered 1..N in order")
wrong = []
for (i, m), r in zip(points, R):
	res, name, dirv = m.group(1), m.group(3) or "", m.group(4)
	prev = lines[i - 1] if i else ""
	st, reason = r["status"], r["reason"]
	if name != desc(r) or "#" in name:
		wrong.append("point %s named '%s', not '%s'" % (m.group(2), name, desc(r)))
	elif st == "ok" and not (res == "ok" and dirv is None and
				 prev == "# %s: %s" % (name, figure(r))):
		wrong.append("%s: ok, yet '%s' after '%s' (figure %s)" % (name, m.group(0), prev, figure(r)))
	elif st == "skipped" and not (res == "ok" and dirv == "SKIP " + reason):
		wrong.append("%s: skipped (%s), yet '%s'" % (name, reason, m.group(0)))
	elif st == "disturbed" and not (res == "ok" and dirv == "SKIP disturbed: " + reason):
		wrong.append("%s: disturbed (%s), yet '%s'" % (name, reason, m.group(0)))
	elif st == "failed" and not (res == "not ok" and dirv is None and
				     prev == "# %s: FAILED: %s" % (name, reason)):
		wrong.append("%s: failed (%s), yet '%s' after '%s'" % (name, reason, m.group(0), prev))
check(not wrong, "each test point has its row's name, status, reason or figure",
      "; ".join(wrong[:3]))
n = {s: sum(r["status"] == s for r in R) for s in ("ok", "failed", "skipped", "disturbed")}
tot = "# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0" % (
	n["ok"], n["failed"], n["skipped"] + n["disturbed"])
check(lines[-1:] == [tot], "the last line is kselftest's '%s'" % tot, lines[-1] if lines else "")
progs = any(r.get("hits") is not None for r in R)
measured = any(r["status"] == "ok" and (r.get("hits") is not None or not progs) for r in R)
want = 1 if n["failed"] else 0 if measured else 4
check(rc == want, "exit %d: kselftest's for these rows" % want, "exit %d" % rc)
