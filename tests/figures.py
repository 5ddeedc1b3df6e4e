#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""figures.py TMPDIR DOC...: each DOC's example figures (between
".. figures-begin" and ".. figures-end", written by
tools/readme-figures.sh --update) in the programs' format of today.

For each DOC: its block names the machine; its commands are the ones
tools/readme-figures.sh --commands DOC lists; no line is wider than the
100 columns the programs keep to; and each command run now (made short:
--max-units 2, a default run narrowed to one row of each kind) prints the
same table heading, the same lines of legend ("Summary:", "JIT:", ...,
"Notes:" aside, which depend on the rows) in the same order, and
upstream's lines in the same shape. A block from an older format fails,
naming the line that differs. "ok - ..." / "not ok - ..." lines, as
tests/lib.sh's checks_from reads them.
"""
import os
import re
import subprocess
import sys

WIDTH = 100
INDENT = "    "
# what a run is narrowed to when the doc shows a default run
NARROW = {
	"./test_overhead": ["-m", "base,raw_tp", "-e", "getpgid"],
	"./map_perf_test": ["-t", "hash_lookup"],
}
SELECTS = {"-m", "--modes", "-e", "--events", "-t", "--tests"}


def report(ok, what):
	print(("ok - " if ok else "not ok - ") + what)


def block_of(path):
	"""@path's figures block: its lines, or None"""
	text = open(path).read()
	begin, end = ".. figures-begin\n", ".. figures-end\n"
	if begin not in text or end not in text:
		return None
	return text[text.index(begin) + len(begin):text.index(end)].splitlines()


def runs_of(lines):
	"""the block's commands, each with the lines it printed"""
	runs = []
	for line in lines:
		if line.startswith(INDENT + "$ "):
			runs.append([line[len(INDENT) + 2:], []])
		elif runs and line.startswith(INDENT):
			runs[-1][1].append(line[len(INDENT):])
		elif runs and line.strip():
			runs[-1][1].append(line)
	for r in runs:
		while r[1] and not r[1][-1].strip():
			r[1].pop()
	return runs


def script_form(shown):
	"""a shown command as the script lists it: no sudo, its own
	--json runN.json dropped, runN.json read as @N"""
	words = shown.split()
	if words and words[0] == "sudo":
		words = words[1:]
	out, i = [], 0
	while i < len(words):
		if words[i] == "--json" and i + 1 < len(words) and \
		   re.fullmatch(r"run\d+\.json", words[i + 1]):
			i += 2
			continue
		m = re.fullmatch(r"run(\d+)\.json", words[i])
		out.append("@" + m.group(1) if m else words[i])
		i += 1
	return " ".join(out)


def heading(lines):
	"""the table's heading, its words: the line led by mode, test or row"""
	for line in lines:
		w = line.split()
		if w and w[0] in ("mode", "test", "row") and len(w) > 2:
			return " ".join(w)
	return None


def legend(lines):
	"""the legend's labels in order ("Summary", "JIT", ...), but Notes"""
	labels = []
	for line in lines:
		m = re.match(r"([A-Z][A-Za-z]+): ", line)
		if m and m.group(1) != "Notes":
			labels.append(m.group(1))
	return labels


def upstream_shapes(lines):
	"""upstream's lines ("task_rename:0: 2012547 events per sec"), each
	with its numbers as N"""
	shapes = set()
	for line in lines:
		if re.fullmatch(r"\S+:\d+: \d+ [a-z ]+ per sec|\d+:\S+ \d+ [a-z ]+ per sec",
				line):
			shapes.add(re.sub(r"\d+", "N", line))
	return shapes


def run_now(tmp, i, cmd):
	"""@cmd (the script's form) run now, made short: its output lines"""
	words = [os.path.join(tmp, "run%s.json" % w[1:]) if w.startswith("@")
		 else w for w in cmd.split()]
	if "--compare" not in words:
		if not SELECTS & set(words) and words[0] in NARROW:
			words += NARROW[words[0]]
		words += ["--max-units", "2",
			  "--json", os.path.join(tmp, "run%d.json" % i)]
	p = subprocess.run(words, capture_output=True, text=True,
			   stdin=subprocess.DEVNULL, timeout=120)
	return p.stdout.splitlines()


def check(tmp, doc):
	lines = block_of(doc)
	report(lines is not None, "%s: a figures block" % doc)
	if lines is None:
		return
	report(any(re.match(r"Measured on .+, kernel .+, libbpf .+, \d{4}-\d\d-\d\d:$", l)
		   for l in lines), "%s: the block names the machine, kernel, libbpf and day" % doc)
	runs = runs_of(lines)
	want = subprocess.run(["tools/readme-figures.sh", "--commands", doc],
			      capture_output=True, text=True).stdout.splitlines()
	shown = [script_form(c) for c, _ in runs]
	report(shown == want, "%s: its commands are tools/readme-figures.sh's (%s)"
	       % (doc, "; ".join(shown)))
	wide = ["%s: %d columns" % (c, len(l)) for c, out in runs for l in out
		if len(l) > WIDTH]
	report(not wide, "%s: no line wider than %d columns%s"
	       % (doc, WIDTH, " (" + wide[0] + ")" if wide else ""))
	for i, (c, out) in enumerate(runs, 1):
		if i > len(want):
			break
		now = run_now(tmp, i, want[i - 1])
		name = "%s: $ %s" % (doc, want[i - 1])
		h, hn = heading(out), heading(now)
		# -f short and a compare's short form have no table
		report(h == hn,
		       "%s: the table's heading is today's (shown: %s; today: %s)"
		       % (name, h or "no table", hn or "no table"))
		report(legend(out) == legend(now),
		       "%s: the legend's lines are today's (shown: %s; today: %s)"
		       % (name, ",".join(legend(out)), ",".join(legend(now))))
		up, upn = upstream_shapes(out), upstream_shapes(now)
		report(up <= upn and bool(up) == bool(upn),
		       "%s: upstream's lines in today's shape (shown %d, today %d)"
		       % (name, len(up), len(upn)))


def main():
	tmp = sys.argv[1]
	for doc in sys.argv[2:]:
		check(tmp, doc)


if __name__ == "__main__":
	main()
