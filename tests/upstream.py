#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""upstream.py OUT JSON LIST TAG [--all]: upstream's lines in OUT against the run's JSON.

What samples/bpf printed, and scripts parse: test_overhead one header
per mode ("BASE", "w/KPROBE", ...) and under it "<event>:<cpu>: <N>
events per sec" for each worker; map_perf_test "<cpu>:<line> <N> events
per sec" (or "lookups"; the newer tests their own unit, and a row with
parameters ends with them: "0:ringbuf reserve/submit 7800000 records per
sec [wakeup=64,record_size=64]"). One line per worker of the row (its
"cpus": a buffer's consumer has a CPU of its own, --scale's points fewer)
for each ok row whatever -r is; a row without a figure is one
"<test>[ [params]]: <status>: <reason>" line.

Which rows have lines: upstream's own (test_overhead's eight modes on
task_rename and fib_table_lookup, map_perf_test's eleven tests), or with
--all (the run gave test_flags, or -v) every row. Which rows are
upstream's and what upstream calls them is tests/pinned.py's, never the
program's to say; LIST, the program's --list --json, names the rows of
our own. Skipped rows are said
once per reason: rows whose reasons differ only by their mode's name
make a group; a group that has every row of its modes replaces their
headers ("w/FENTRY, w/FEXIT (4 rows): skipped: refused by ..."); one
that has not is one line under each of its modes' headers
("task_rename, getpgid: skipped: <reason>"). map_perf_test says a group
of several rows once ("kprobe (11 rows): skipped: <reason>").
Everything before the blank line that precedes "Summary:" is checked,
line by line, in the JSON's row order; then the summary's "Skipped"
block: its count, and each group's line.
"""
import json
import re
import sys

import pinned

STATUS = {"ok": "ok", "skipped": "skipped", "failed": "FAILED",
	  "disturbed": "disturbed"}


def cpus(s):
	out = []
	for part in s.split(","):
		a, _, b = part.partition("-")
		out += range(int(a), int(b or a) + 1)
	return out


def params(r):
	"""" [k=v,...]" as the tools print a row's parameters, in their order"""
	p = r.get("params") or {}
	return " [%s]" % ",".join("%s=%s" % kv for kv in p.items()) if p else ""


# what --list says of each row: test_overhead's "header" of its mode,
# map_perf_test's "line" and "unit" of its test; upstream's rows take
# upstream's words from tests/pinned.py instead
LISTED = {}


def listed(r, key):
	if key == "header" and pinned.header(r):
		return pinned.header(r)
	words = pinned.map_words(r["name"])
	if key in ("line", "unit") and words:
		return words[0] if key == "line" else words[1]
	if key == "upstream":
		return pinned.is_upstream(TOOL[0], r)
	return LISTED[(r["name"], r["variant"])][key]


TOOL = [None]


def mode_of(tool, r):
	return r["name"] if tool == "test_overhead" else r["variant"]


def other_of(tool, r):
	return r["variant"] if tool == "test_overhead" else r["name"]


def skip_key(tool, r):
	"""the reason without its mode's name, as the tools group skips"""
	m = mode_of(tool, r)
	return re.sub(r"(?<![A-Za-z0-9_.])" + re.escape(m) + " ", "",
		      r["reason"])


def in_section(tool, r, all_rows):
	if tool != "test_overhead" and r["name"] == "base":
		return False
	return all_rows or listed(r, "upstream")


def groups_of(tool, rows):
	"""key -> skipped rows, in the order of their first rows"""
	g = {}
	for r in rows:
		if r["status"] == "skipped":
			g.setdefault(skip_key(tool, r), []).append(r)
	return g


def group_reason(tool, members):
	modes = {mode_of(tool, r) for r in members}
	return skip_key(tool, members[0]) if len(modes) > 1 else members[0]["reason"]


def group_label(tool, members, word):
	modes = []
	for r in members:
		if word(r) not in modes:
			modes.append(word(r))
	others = {other_of(tool, r) for r in members}
	label = ", ".join(modes)
	if len(others) == 1:
		label += " " + other_of(tool, members[0])
	if len(members) > 1:
		label += " (%d rows)" % len(members)
	return label


def worker_lines(tool, r, name, ws):
	out = []
	for w in ws:
		if tool == "test_overhead":
			out.append(re.escape("%s:%d:" % (name, w)) +
				   r" [1-9][0-9]* events per sec")
		else:
			out.append(re.escape("%d:%s" % (w, listed(r, "line"))) +
				   r" [1-9][0-9]* %s per sec" %
				   re.escape(listed(r, "unit")) +
				   re.escape(params(r)))
	return out


def expected(d, all_rows):
	"""one regex per line"""
	tool = d["tool"]
	rows = [r for r in d["results"] if in_section(tool, r, all_rows)]
	groups = groups_of(tool, rows)
	key = {id(r): skip_key(tool, r) for g in groups.values() for r in g}
	# a test_overhead group that has every row of its modes
	whole = {}
	for k, members in groups.items():
		modes = {mode_of(tool, r) for r in members}
		whole[k] = all(key.get(id(r)) == k for r in rows
			       if mode_of(tool, r) in modes)
	out, mode, said = [], None, set()
	for r in rows:
		# the row's own workers; older files have only the run's
		ws = cpus(r.get("cpus") or d["context"]["cpus_used"])
		k = key.get(id(r))
		if tool == "test_overhead":
			if k is not None and whole[k]:
				if k not in said:
					out.append(re.escape("%s: skipped: %s" % (
						group_label(tool, groups[k],
							    lambda r: listed(r, "header")),
						group_reason(tool, groups[k]))))
				said.add(k)
				continue
			if r["name"] != mode:
				out.append(re.escape(listed(r, "header")))
				said = {s for s in said if whole[s]}
			# test_overhead's label: "getpgid[progs=4]"
			mode, name = r["name"], r["variant"] + params(r)[1:]
			if k is not None:
				if k not in said:
					names = [x["variant"] + params(x)[1:] for x in groups[k]
						 if x["name"] == r["name"]]
					out.append(re.escape("%s: skipped: %s" % (
						", ".join(names), r["reason"])))
				said.add(k)
				continue
		else:
			name = r["name"]
			if k is not None and k in said:
				continue
			if k is not None and len(groups[k]) > 1:
				said.add(k)
				out.append(re.escape("%s: skipped: %s" % (
					group_label(tool, groups[k], lambda r: r["variant"]),
					group_reason(tool, groups[k]))))
				continue
		if r["status"] != "ok":
			if tool != "test_overhead":
				name += params(r)
			out.append(re.escape("%s: %s: %s" % (name, STATUS[r["status"]],
							     r["reason"])))
			continue
		out += worker_lines(tool, r, name, ws)
	return out


def expected_skips(d):
	"""the summary's Skipped block: its heading and a line per group"""
	tool = d["tool"]
	groups = groups_of(tool, d["results"])
	n = sum(len(g) for g in groups.values())
	if not n:
		return []
	out = [re.escape("Skipped (%d row%s; " % (n, "s" if n > 1 else "")) + ".*"]
	for members in groups.values():
		if len(members) == 1:
			r = members[0]
			label = "%s %s%s" % (r["name"], r["variant"], params(r))
		else:
			label = group_label(tool, members, lambda r: mode_of(tool, r))
		out.append(re.escape("  %s: %s" % (label, group_reason(tool, members))))
	return out


def unfold(lines):
	"""lines the tools folded to the terminal's width, joined again: a
	line four spaces further in than the one before goes on with it"""
	out = []
	for l in lines:
		ind = len(l) - len(l.lstrip(" "))
		if out and l.strip() and ind == len(out[-1]) - len(out[-1].lstrip(" ")) + 4:
			out[-1] += " " + l.strip()
		else:
			out.append(l)
	return out


def compare(lines, want):
	for i in range(max(len(lines), len(want))):
		got = lines[i] if i < len(lines) else "<none>"
		if i >= len(want) or not re.fullmatch(want[i], got):
			return "line %d: '%s', wanted /%s/" % (
				i + 1, got, want[i] if i < len(want) else "<end>")
	return None


def main():
	args = [a for a in sys.argv[1:] if a != "--all"]
	all_rows = "--all" in sys.argv[1:]
	out_path, json_path, list_path, tag = args[:4]
	try:
		d = json.load(open(json_path))
		text = open(out_path).read()
		for l in json.load(open(list_path))["rows"]:
			LISTED[(l["name"], l["variant"])] = l
	except (OSError, ValueError) as e:
		print("not ok - %s: upstream's lines: reading the run's files: %s" % (tag, e))
		return
	TOOL[0] = d["tool"]
	head, _, summary = text.partition("\nSummary:")
	head = head.rstrip("\n")
	lines = unfold(head.split("\n")) if head else []
	bad = compare(lines, expected(d, all_rows))
	ok = sum(r["status"] == "ok" for r in d["results"]
		 if in_section(d["tool"], r, all_rows))
	print("%s - %s: upstream's lines, one per worker of the %d ok rows, "
	      "one per other row or group of skips%s" % (
		      "not ok" if bad else "ok", tag, ok,
		      " (%s)" % bad if bad else ""))
	# the summary's skipped rows, from their heading to the end of the block
	sl = unfold(summary.split("\n"))
	start = next((i for i, l in enumerate(sl) if l.startswith("Skipped (")), len(sl))
	want = expected_skips(d)
	got = sl[start:start + len(want)] if want else sl[start:start + 1]
	bad = compare(got, want) if want else (
		"a Skipped block, with no row skipped" if got else None)
	if not bad and want and start + len(want) < len(sl) and \
	   sl[start + len(want)].startswith("  "):
		bad = "more lines in the Skipped block: '%s'" % sl[start + len(want)]
	print("%s - %s: the summary says the %d skipped rows once per reason%s" % (
		"not ok" if bad else "ok", tag,
		sum(r["status"] == "skipped" for r in d["results"]),
		" (%s)" % bad if bad else ""))


main()
