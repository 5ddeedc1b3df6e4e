#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""options.py: the table of which options apply to which way of running
(--list --json's "options"), held against the program and the docs.

  options.py check BIN LIST.json A.json B.json DIR
	every option (but the ones that select a way, and --help) in every
	way of running: refused (exit 2, one line naming the option and the
	way) exactly where the table says it does not apply; else taken
	(never exit 2). The runs that measure find the tools' lock held (the
	caller holds it), so they end at the lock. "ok - ..." / "not ok -
	..." lines, as tests/lib.sh's checks_from reads them.
  options.py table LIST.json
	the table in reStructuredText, as the docs hold it (a definition
	list: each option, then the ways it applies to)
  options.py doc LIST.json FILE.rst
	FILE.rst holds that table between ".. options-table-begin" and
	".. options-table-end": one "ok"/"not ok" line
"""
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# a value for each option that takes one, good in every way it applies to
VALUES = {
	"cpus": "1", "count": "1000", "repeat": "2", "precision": "5",
	"max-units": "4", "budget": "0.2", "warmup": "1", "duration": "0.01",
	"lock-wait": "0", "fail-on-regression": "50", "threshold": "5",
	"ignore-param": "progs", "modes": None, "events": None,
	"body": "reads", "progs": "1,2", "tests": "hash_lookup",
	"entries": "1000", "key-size": "8", "wakeup": "every",
	"record-size": "64", "attach": "raw_tp", "format": "short",
}
# what selects a way of running: not an option of one
SELECTORS = {"list", "compare", "attach-time", "memory", "help"}


def way_args(tool, way, a, b):
	"""the command line of each way, before the option under test"""
	own = {"test_overhead": ["--attach-time"],
	       "map_perf_test": ["--memory", "hash"]}[tool]
	rows = {"test_overhead": ["-m", "kprobe", "-e", "task_rename"],
		"map_perf_test": []}[tool]
	run = {"test_overhead": ["-m", "base", "-e", "getpgid"],
	       "map_perf_test": ["-t", "hash_lookup"]}[tool]
	if way == "run":
		return run + ["--lock-wait", "0"]
	if way == "--compare":
		return ["--compare", a, b]
	if way == "--list":
		return ["--list"]
	if way.startswith("--list "):
		return ["--list"] + own
	return own + rows + ["--lock-wait", "0"]


def option_args(tool, o):
	name = o["name"]
	if name == "modes":
		return ["-m", "base" if tool == "test_overhead" else "x"]
	if name == "events":
		return ["-e", "task_rename"]
	if name == "json":
		return ["--json", DIR + "/opt.json"]
	v = VALUES.get(name, "")
	return ["--" + name] + ([v] if v else [])


def check(doc, binary, a, b):
	tool = doc["tool"]
	ways = []
	for o in doc["options"]:
		for w in o["ways"]:
			if w not in ways:
				ways.append(w)
	cases = [(o, w, way_args(tool, w, a, b) + option_args(tool, o))
		 for o in doc["options"] if o["name"] not in SELECTORS
		 for w in ways]

	def run(case):
		return subprocess.run([binary] + case[2], capture_output=True,
				      text=True, timeout=60)
	with ThreadPoolExecutor(4) as pool:
		done = list(pool.map(run, cases))
	bad = []
	n = len(cases)
	for (o, w, args), p in zip(cases, done):
		err = p.stderr.strip().splitlines()
		where = "a run" if w == "run" else w
		said = "--%s does not apply to %s, only to " % (o["name"], where)
		# with --ktap a usage error is KSFT_FAIL, 1 (2 is KSFT_XFAIL)
		usage = 1 if o["name"] == "ktap" else 2
		refused = p.returncode == usage and len(err) == 1 and said in err[0]
		if (w in o["ways"]) == refused or (refused and o["name"] == "ktap" and
						   "Bail out! " + err[0].split(": ", 1)[1] not in p.stdout):
			bad.append("%s %s: exit %d, %s" % (
				binary, " ".join(args), p.returncode,
				(err[-1] if err else "nothing on stderr")[:200]))
	print("%s - %s: each of %d options refused in one line, exit 2, exactly in the ways it does not apply to (%d runs)%s" % (
		"not ok" if bad else "ok", tool,
		len([o for o in doc["options"] if o["name"] not in SELECTORS]), n,
		"" if not bad else ": " + "; ".join(bad[:4])))


def way_order(w):
	"""the runner's order: a run, the family's own way, --list, its own"""
	return {"run": 0, "--list": 2, "--compare": 4}.get(
		w, 3 if w.startswith("--list ") else 1)


def table(doc):
	"""a definition list, each option and the ways it applies to (a man
	page's table would not fit 80 columns)"""
	ways = sorted({w for o in doc["options"] for w in o["ways"]}, key=way_order)
	out = []
	for o in doc["options"]:
		if o["name"] == "help":
			continue
		name = ("-%s, --%s" % (o["short"], o["name"]) if o["short"]
			else "--" + o["name"])
		out.append("``%s``" % name)
		out.append("   " + ", ".join(w if w == "run" else "``%s``" % w
					  for w in ways if w in o["ways"]))
	return "\n".join(out)


def main(argv):
	global DIR
	doc = json.load(open(argv[3 if argv[1] == "check" else 2]))
	if argv[1] == "table":
		print(table(doc))
	elif argv[1] == "doc":
		text = open(argv[3]).read()
		m = re.search(r"\.\. options-table-begin\n\n(.*?)\n\n\.\. options-table-end", text, re.S)
		ok = m and m.group(1) == table(doc)
		print("%s - %s's table of options by way of running is the program's (tests/options.py table)" %
		      ("ok" if ok else "not ok", argv[3]))
	else:
		binary, a, b, DIR = argv[2], argv[4], argv[5], argv[6]
		check(doc, binary, a, b)


DIR = "."
main(sys.argv)
