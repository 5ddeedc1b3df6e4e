#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""README.rst's tables of modes, events and map tests, made from the
programs' own tables through --list --json: the name, bits and help text
of each entry are written once, in test_overhead_user.c and
map_perf_test_user.c, and --help, --list and the README all show them.

    tools/readme-tables.py [--check] README.rst TEST_OVERHEAD.json MAP_PERF_TEST.json

rewrites what lies between each pair of markers (".. <name>-begin" and
".. <name>-end"); with --check, writes nothing and exits 1, with a diff,
when the file differs from what it would write. make docs runs it;
tests/test_docs.sh runs it with --check.
"""
import difflib
import json
import sys
import textwrap

WIDTH = 79


def words(text):
	return " ".join((text or "").split())


def table(headers, rows, widths):
	"""A simple RST table; the last column takes what is left of WIDTH.
	A cell wraps within its column, the first column's never does (a
	line whose first cell is blank continues the row above)."""
	widths = [max([len(headers[0])] + [len(r[0]) for r in rows])] + \
		[w or max([len(headers[i])] + [len(r[i]) for r in rows])
		 for i, w in enumerate(widths) if i]
	widths.append(max(20, WIDTH - sum(widths) - 2 * len(widths)))
	rule = "  ".join("=" * w for w in widths)

	def lines(cells):
		wrapped = [textwrap.wrap(c, w, break_on_hyphens=False,
					 break_long_words=False) or [""]
			   for c, w in zip(cells, widths)]
		for k in range(max(len(c) for c in wrapped)):
			yield "  ".join((c[k] if k < len(c) else "").ljust(w)
					for c, w in zip(wrapped, widths)).rstrip()

	out = [rule] + list(lines(headers)) + [rule]
	for r in rows:
		out.extend(lines(r))
	return out + [rule]


def bits(value):
	return "%#x" % value


def free(bit_numbers):
	"""[38, 39, ..., 63] -> '38-63 (0x4000000000 to 0x8000000000000000)'"""
	runs, out = [], []
	for b in bit_numbers:
		if runs and runs[-1][1] == b - 1:
			runs[-1][1] = b
		else:
			runs.append([b, b])
	for a, b in runs:
		out.append("%d (%s)" % (a, bits(1 << a)) if a == b else
			   "%d-%d (%s to %s)" % (a, b, bits(1 << a), bits(1 << b)))
	return ", ".join(out) or "none"


def overhead_tables(doc):
	modes = []
	for m in doc["modes"]:
		if "takes" not in m:
			cell = "the events' bits"
		else:
			cell = ", ".join(bits(t) if b else "(%s)" % bits(t)
					 for t, b in zip(m["takes"], m["bits"]))
		modes.append([m["name"], m["header"], cell, words(m["help"])])
	events = []
	for e in doc["events"]:
		cell = bits(e["bit"]) if "bit" in e else \
			"%s of the pair" % e["pair"]
		events.append([e["name"], cell, words(e["help"])])
	out = table(["mode", "header", "bits", "program"], modes, [0, 0, 14])
	out += [""] + textwrap.wrap("Free ``test_flags`` bits (``./test_overhead "
		"--list`` ends with them): %s." % free(doc["free_bits"]), WIDTH)
	out += [""]
	out += table(["event", "bit", "what each worker repeats"], events,
		     [0, 14])
	return out


def map_tables(doc):
	rows = [["-", "base", "each", "nothing attached: the syscall's cost"]]
	for t in doc["tests"]:
		rows.append([str(t["bit"]), t["name"], t["syscall"] or "bpf",
			     words(t["help"])])
	out = table(["bit", "test", "syscall", "what each syscall does"], rows,
		    [0, 0, 0])
	out += [""] + textwrap.wrap("Free ``test_flags`` bits (``./map_perf_test "
		"--list`` ends with them): %s; a new test takes the first." %
		free(doc["free_bits"]), WIDTH)
	return out


def replace(text, name, lines):
	begin, end = ".. %s-begin" % name, ".. %s-end" % name
	head, sep, rest = text.partition(begin + "\n")
	if not sep or end not in rest:
		sys.exit("%s: no '%s' ... '%s' markers" % (sys.argv[0], begin, end))
	return head + begin + "\n\n" + "\n".join(lines) + "\n\n" + \
		rest[rest.index(end):]


def main(argv):
	check = argv[:1] == ["--check"]
	if check:
		argv = argv[1:]
	if len(argv) != 3:
		sys.exit(__doc__.split("\n\n")[1])
	readme, to, mp = argv
	old = open(readme).read()
	new = replace(old, "overhead-tables", overhead_tables(json.load(open(to))))
	new = replace(new, "map-tests-table", map_tables(json.load(open(mp))))
	if not check:
		if new != old:
			open(readme, "w").write(new)
		return 0
	if new == old:
		return 0
	sys.stdout.writelines(difflib.unified_diff(
		old.splitlines(True), new.splitlines(True), readme,
		"%s (make docs)" % readme))
	return 1


if __name__ == "__main__":
	sys.exit(main(sys.argv[1:]))
