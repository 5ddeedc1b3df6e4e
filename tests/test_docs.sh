#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documentation: README.rst and every Documentation/*.rst build with
# docutils without a warning, their links to local files resolve, the
# index lists every file (but the fragments others include), each
# program's --help options are documented, every row --list has is in
# the man pages' lists of modes, events and tests, with its bits, and
# those lists are what make docs writes from --list --json, whose text
# and bits --help prints too (from the same table entries). The man pages
# that make man renders from them: man shows them without a warning at 80
# columns, and their OPTIONS are --help's, no more, no less adding.rst's
# places for an existing event, mode and map test are the ones git finds.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

DOCS=(README.rst Documentation/*.rst)

# each file builds to HTML; a warning (level 2) stops it, as an error
for f in "${DOCS[@]}"; do
	expect "$f builds without warnings" /usr/bin/python3 - "$f" <<'EOF'
import sys, docutils.core, docutils.utils
path = sys.argv[1]
try:
	docutils.core.publish_file(source_path=path, destination_path="/dev/null",
		writer_name="html", settings_overrides={
			"halt_level": 2, "report_level": 2,
			"input_encoding": "utf-8", "output_encoding": "utf-8"})
except docutils.utils.SystemMessage as e:
	sys.exit("%s: %s" % (path, e))
EOF
done

# links: every relative one names a file that exists; the README links
# to the index, and the index to every other file of Documentation/ but
# the fragments that other files include (common_*.rst)
checks_from /usr/bin/python3 - "${DOCS[@]}" <<'EOF'
import os, sys, docutils.core, docutils.nodes

def links(path):
	tree = docutils.core.publish_doctree(open(path).read(),
		settings_overrides={"report_level": 5, "halt_level": 5})
	for ref in tree.findall(docutils.nodes.reference):
		uri = ref.get("refuri", "")
		if uri and "://" not in uri and not uri.startswith(("#", "mailto:")):
			yield os.path.normpath(os.path.join(os.path.dirname(path),
							    uri.split("#")[0]))

out = {p: set(links(p)) for p in sys.argv[1:]}
included = set()
for p in sys.argv[1:]:
	for line in open(p):
		if line.strip().startswith(".. include::"):
			included.add(os.path.normpath(os.path.join(os.path.dirname(p),
				line.split("::", 1)[1].strip())))
for p, targets in sorted(out.items()):
	bad = sorted(t for t in targets if not os.path.exists(t))
	print("%s - %s: every local link resolves%s" % (
		"not ok" if bad else "ok", p, " (not found: %s)" % ", ".join(bad) if bad else ""))
index = os.path.join("Documentation", "index.rst")
print("%s - README.rst links to %s" % (
	"ok" if index in out["README.rst"] else "not ok", index))
for p in sorted(out):
	if p.startswith("Documentation/") and p != index and p not in included:
		print("%s - %s lists %s" % ("ok" if p in out[index] else "not ok", index, p))
EOF

for prog in test_overhead map_perf_test; do
	[ -x "./$prog" ] || { fail "$prog is built"; continue; }
	for opt in $(./$prog --help | grep -oE -- '(^|[ ,])--[a-z][a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u); do
		expect "the documentation documents $prog $opt" grep -q -- "$opt" "${DOCS[@]}"
	done
	jrun ./$prog --list --json "$T_TMP/$prog.json"
done

# the man pages' lists are made from the programs' own (make docs): one
# source for each mode's, event's and test's name, bits and text
expect "Documentation's lists are what make docs writes from --list --json" \
	tools/doc-tables.py --check Documentation "$T_TMP/test_overhead.json" \
	"$T_TMP/map_perf_test.json"

# --help prints the same entries: each one's text, and test_overhead's
# bits, every one a mode takes (a pair's unused high bit in parentheses)
./test_overhead --help >"$T_TMP/test_overhead.help"
./map_perf_test --help >"$T_TMP/map_perf_test.help"
checks_from /usr/bin/python3 - "$T_TMP" <<'EOF'
import json, re, sys
d = sys.argv[1]
def words(s):
	return " ".join(s.split())
def check(ok, what):
	print("%s - %s" % ("ok" if ok else "not ok", what))
to = json.load(open(d + "/test_overhead.json"))
mp = json.load(open(d + "/map_perf_test.json"))
help_to = open(d + "/test_overhead.help").read()
text = words(help_to)
for kind in ("modes", "events"):
	for e in to[kind]:
		check(words(e["name"] + " " + e["help"]) in text,
		      "test_overhead --help gives %s %s's text as --list does" % (kind[:-1], e["name"]))
lines = {l.split()[-1]: l.split()[:-1] for l in help_to.splitlines()
	 if re.match(r"^  0x[0-9a-f]+ ", l)}
taken = 0
for m in to["modes"]:
	if "takes" not in m:
		continue
	taken |= sum(m["takes"])
	want = ["%#x" % t if b else "(%#x)" % t for t, b in zip(m["takes"], m["bits"])]
	check(lines.get(m["name"]) == want,
	      "test_overhead --help gives mode %s's bits %s" % (m["name"], " ".join(want)))
for e in to["events"]:
	if "bit" in e:
		taken |= e["bit"]
		check(lines.get(e["name"]) == ["%#x" % e["bit"]],
		      "test_overhead --help gives event %s's bit %#x" % (e["name"], e["bit"]))
free = [b for b in range(64) if not taken & 1 << b]
check(to["free_bits"] == free,
      "test_overhead --list's free bits are the ones no mode or event takes (%d)" % len(free))
help_mp = open(d + "/map_perf_test.help").read()
for t in mp["tests"]:
	check(re.search(r"^ +%d +0x0*%x +%s +%s," % (t["bit"], 1 << t["bit"], t["name"],
		re.escape(t["syscall"] or "its own bpf() calls")), help_mp, re.M) is not None,
	      "map_perf_test --help gives test %s's bit and syscall as --list does" % t["name"])
EOF

# the man pages' lists, between their markers: every name and variant
# of --list is an item, with its test_flags bit
checks_from /usr/bin/python3 - "$T_TMP/test_overhead.json" "$T_TMP/map_perf_test.json" <<'EOF'
import json, re, sys, docutils.core, docutils.nodes

def text(node):
	return " ".join(node.astext().split())

def items(path, name):
	"""{term: definition text} of the definition list between the markers"""
	src = open(path).read()
	src = src[src.index(".. %s-begin" % name):src.index(".. %s-end" % name)]
	tree = docutils.core.publish_doctree(src,
		settings_overrides={"report_level": 5, "halt_level": 5})
	return {text(i.children[0]): text(i.children[-1])
		for i in tree.findall(docutils.nodes.definition_list_item)}

def check(ok, what):
	print("%s - %s" % ("ok" if ok else "not ok", what))

TO, MP = "Documentation/test_overhead.rst", "Documentation/map_perf_test.rst"
to = json.load(open(sys.argv[1]))["rows"]
mp = json.load(open(sys.argv[2]))["rows"]

modes, events = items(TO, "modes"), items(TO, "events")
for name in sorted(set(r["name"] for r in to)):
	check(name in modes, "test_overhead(8) lists test_overhead's mode %s" % name)
for ev in sorted(set(r["variant"] for r in to)):
	check(ev in events, "test_overhead(8) lists test_overhead's event %s" % ev)
# a mode's pair of bits selects task_rename and fib_table_lookup; any
# other event has its own bit, the one its base row has
for r in to:
	if r["variant"] in ("task_rename", "fib_table_lookup"):
		ok = "%s (%s)" % (hex(r["flag"]), r["variant"]) in modes.get(r["name"], "")
	elif r["name"] == "base":
		ok = "Bit %s." % hex(r["flag"]) in events.get(r["variant"], "")
	else:
		continue
	check(ok, "test_overhead(8) gives %s %s's test_flags bit %s" %
	      (r["name"], r["variant"], hex(r["flag"])))

tests = items(MP, "map-tests")
for name in sorted(set(r["name"] for r in mp if r["name"] != "base")):
	check(name in tests, "map_perf_test(8) lists map_perf_test's test %s" % name)
for name, flag in sorted(set((r["name"], r["flag"]) for r in mp if r["name"] != "base")):
	bit = flag.bit_length() - 1
	check("Bit %d (%s)" % (bit, hex(flag)) in tests.get(name, ""),
	      "map_perf_test(8) gives %s's test_flags bit %d" % (name, bit))
said = " ".join(tests.values())
for sc in sorted(set(r["variant"] for r in mp if r["name"] == "base")):
	check("on %s." % sc in said, "map_perf_test(8) names base %s's syscall" % sc)
page = open(MP).read()
for m in sorted(set(r["variant"] for r in mp if r["name"] != "base")):
	check(re.search(r"^``%s``$" % re.escape(m), page, re.M) is not None,
	      "map_perf_test(8) lists map_perf_test's method %s" % m)
EOF

# adding.rst's places: each "$ git grep -l" block of a section lists the
# files the command finds today, and the section names each of them
# (with what it holds), so that its counts cannot go stale; the event's,
# the mode's and the map test's section each has one
checks_from /usr/bin/python3 - Documentation/adding.rst <<'EOF'
import re, shlex, subprocess, sys

def check(ok, what):
	print("%s - %s" % ("ok" if ok else "not ok", what))

path = sys.argv[1]
src = open(path).read()
# top-level sections: a title underlined with '='; before the first is
# the file's own title
heads = list(re.finditer(r"^(\S.*)\n=+\n", src, re.M))
ends = [h.start() for h in heads[1:]] + [len(src)]
sections = {h.group(1): src[h.end():e] for h, e in zip(heads, ends)}
block = re.compile(r"^    \$ (git grep -l .*)\n((?:    \S+\n)+)", re.M)
for want in ("An event of test_overhead", "A mode of test_overhead",
	     "A map test of map_perf_test"):
	check(want in sections and block.search(sections[want]) is not None,
	      '%s: "%s" lists the files of an existing one ("$ git grep -l")' %
	      (path, want))
if subprocess.run(["git", "rev-parse", "--is-inside-work-tree"],
		  capture_output=True).returncode:
	print("ok - # SKIP %s: not in a git work tree, nothing to grep" % path)
	sections = {}
for title, text in sections.items():
	for b in block.finditer(text):
		cmd, listed = b.group(1), b.group(2).split()
		run = subprocess.run(shlex.split(cmd), capture_output=True,
				     text=True)
		found = run.stdout.split()
		check(run.returncode == 0 and listed == found,
		      "%s: '%s' finds the %d files listed (%d found%s)" %
		      (path, cmd, len(listed), len(found),
		       "".join(", differing: " + f for f in sorted(set(found) ^ set(listed)))))
		rest = text.replace(b.group(0), "")
		for f in listed:
			check("``%s``" % f in rest,
			      '%s: "%s" says what %s holds' %
			      (path, title, f))
EOF

# ---- the man pages ----
# made as make install makes them; man renders each at 80 columns without
# a word on stderr, and its OPTIONS section holds every option --help
# lists, short and long, and none that --help does not
run_capture man make --no-print-directory man
expect "make man: both pages (rc=$RC)" test "$RC" -eq 0
for prog in test_overhead map_perf_test; do
	page=build/man/$prog.8
	[ -f "$page" ] || { fail "$page is made"; continue; }
	MANWIDTH=80 man -l "$page" >"$T_TMP/$prog.man" 2>"$T_TMP/$prog.man.err"
	expect "man -l $page: no warning at 80 columns" test ! -s "$T_TMP/$prog.man.err"
	# the section's lines: from its heading to the next one
	awk '/^[A-Z]/ { inside = $0 == "OPTIONS"; next } inside' \
		"$T_TMP/$prog.man" >"$T_TMP/$prog.options"
	expect "$prog(8) has an OPTIONS section" test -s "$T_TMP/$prog.options"
	# --help's option lines ("  -m, --modes LIST", "      --body BODY"),
	# the page's ("       -m LIST, --modes LIST", "       --ktap the ...")
	./$prog --help | grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+' |
		grep -oE -- '-[a-zA-Z]\b|--[a-z-]+' | sort -u >"$T_TMP/$prog.help.opts"
	grep -oE '^       (-[a-zA-Z]( [A-Z|]+)?, )?--[a-z-]+' "$T_TMP/$prog.options" |
		grep -oE -- '(^| )-[a-zA-Z]\b|--[a-z-]+' | tr -d ' ' | sort -u \
		>"$T_TMP/$prog.man.opts"
	expect "$prog(8)'s OPTIONS: --help's $(wc -l <"$T_TMP/$prog.help.opts") options, no more, no less" \
		diff "$T_TMP/$prog.help.opts" "$T_TMP/$prog.man.opts"
	expect "$prog(8) has its NAME" grep -qx "NAME" "$T_TMP/$prog.man"
done
finish
