#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The manual's lists of modes, events and map tests, made from the
programs' own tables through --list --json: the name, bits and help text
of each entry are written once, in overhead/modes.c, overhead/events.c
and maps/tests.c, and --help, --list, the man pages and
Documentation/ all show them.

    tools/doc-tables.py [--check] DOCDIR TEST_OVERHEAD.json MAP_PERF_TEST.json

rewrites what lies between each pair of markers (".. <name>-begin" and
".. <name>-end") in DOCDIR/test_overhead.rst and DOCDIR/map_perf_test.rst,
the man pages' sources; with --check, writes nothing and exits 1, with a
diff, when a file differs from what it would write. make docs runs it;
tests/test_docs.sh runs it with --check.

They are definition lists, not tables: rst2man's tables do not fit a
terminal's width (man warns that it cannot adjust their lines).
"""
import difflib
import json
import re
import sys
import textwrap

WIDTH = 76


def words(text):
	return " ".join((text or "").split())


def literal(text):
	"""text with rst's inline markup characters taken literally"""
	text = re.sub(r"([*`|\\])", r"\\\1", text)
	return re.sub(r"_(?=\W|$)", r"\\_", text)


def entry(name, text):
	"""one item of a definition list: ``name``, then its text"""
	return ["``%s``" % name] + textwrap.wrap(
		literal(text), WIDTH, initial_indent="   ",
		subsequent_indent="   ", break_on_hyphens=False,
		break_long_words=False)


def sentence(text):
	text = words(text)
	return text if text.endswith(".") else text + "."


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


def free_line(prog, doc, tail=""):
	return textwrap.wrap("Free ``test_flags`` bits (``%s --list`` ends with "
			     "them): %s%s." % (prog, free(doc["free_bits"]), tail),
			     WIDTH)


def modes(doc):
	out = []
	for m in doc["modes"]:
		if "takes" not in m:
			sel = "selected by its events' bits"
		else:
			sel = "bits %s" % " and ".join(
				"%s (%s)" % (bits(t), ev if b else "taken, selects nothing")
				for t, b, ev in zip(m["takes"], m["bits"],
						    ("task_rename", "fib_table_lookup")))
		out += entry(m["name"], "%s Header %s, %s." %
			     (sentence(m["help"]), m["header"], sel))
	return out


def events(doc):
	out = []
	for e in doc["events"]:
		sel = "Bit %s." % bits(e["bit"]) if "bit" in e else \
			"Bit: the %s one of each mode's pair." % e["pair"]
		out += entry(e["name"], "%s %s" % (sentence(e["help"]), sel))
	return out + [""] + free_line("test_overhead", doc)


def map_tests(doc):
	out = []
	for t in doc["tests"]:
		on = "on %s" % t["syscall"] if t["syscall"] else "its own bpf() calls"
		out += entry(t["name"], "%s Bit %d (%s), %s." %
			     (sentence(t["help"]), t["bit"], bits(1 << t["bit"]), on))
	return out + [""] + free_line("map_perf_test", doc,
				      "; a new test takes the first")


def replace(text, path, name, lines):
	begin, end = ".. %s-begin" % name, ".. %s-end" % name
	head, sep, rest = text.partition(begin + "\n")
	if not sep or end not in rest:
		sys.exit("%s: %s: no '%s' ... '%s' markers" %
			 (sys.argv[0], path, begin, end))
	return head + begin + "\n\n" + "\n".join(lines) + "\n\n" + \
		rest[rest.index(end):]


def main(argv):
	check = argv[:1] == ["--check"]
	if check:
		argv = argv[1:]
	if len(argv) != 3:
		sys.exit(__doc__.split("\n\n")[1])
	docdir, to, mp = argv
	to, mp = json.load(open(to)), json.load(open(mp))
	files = {
		docdir + "/test_overhead.rst": [("modes", modes(to)),
						 ("events", events(to))],
		docdir + "/map_perf_test.rst": [("map-tests", map_tests(mp))],
	}
	status = 0
	for path, parts in files.items():
		old = new = open(path).read()
		for name, lines in parts:
			new = replace(new, path, name, lines)
		if new == old:
			continue
		if not check:
			open(path, "w").write(new)
			continue
		sys.stdout.writelines(difflib.unified_diff(
			old.splitlines(True), new.splitlines(True), path,
			"%s (make docs)" % path))
		status = 1
	return status


if __name__ == "__main__":
	sys.exit(main(sys.argv[1:]))
