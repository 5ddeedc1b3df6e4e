#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A KCIDB report held to the rules of kcidb-io's schema v5.3.

  kcidb.py REPORT.json    one line per rule broken, "RULE: where: what";
                          exit 0 when none is, 1 when one is, 2 when the
                          file is no JSON

The rules are written here from kernelci/kcidb-io's
kcidb_io/schema/v05_03.py (read, not imported: it is no Debian package):
the top level has version (major 5, minor 0 to 3) and the lists
checkouts, builds, tests, issues and incidents, nothing else; every
object only the properties the schema names, none null; checkouts need
id and origin, builds checkout_id, id and origin, tests build_id, id and
origin; an id is ORIGIN:REST with an origin of [a-z0-9_]+, an origin
itself [a-z0-9_]+; a test path dot-joined parts of [a-zA-Z0-9_-]+; an
architecture [a-z0-9_]*; status one of FAIL ERROR MISS PASS DONE SKIP;
a number an object with value (a number), unit (a string) and prefix
(metric or binary) only; misc an object; times RFC 3339. Beside them,
what a submission must hold to mean anything: ids unique, each id's
origin its object's, each test's build and each build's checkout in the
report, a DONE test with a number.
"""
import json
import re
import sys

ORIGIN = re.compile(r"^[a-z0-9_]+$")
ID = re.compile(r"^[a-z0-9_]+:[^\0]*$")
PATH = re.compile(r"^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$")
ARCH = re.compile(r"^[a-z0-9_]*$")
NO_NUL = re.compile(r"^[^\0]*$")
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
HASH = re.compile(r"^[0-9a-f]{40}$")
STATUSES = ("FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP")
PREFIXES = ("metric", "binary")
TOP = ("version", "checkouts", "builds", "tests", "issues", "incidents")

bad = []


def broken(rule, where, what):
	bad.append("%s: %s: %s" % (rule, where, what))


def is_number(v):
	return isinstance(v, (int, float)) and not isinstance(v, bool)


# each property's kind: a pattern for a string, or a name below
TEXT = NO_NUL
KINDS = {
	"checkout": {
		"_timestamp": "time", "id": ID, "origin": ORIGIN, "tree_name": TEXT,
		"git_repository_url": re.compile(r"^https://[^\0]*$"),
		"git_commit_hash": HASH, "git_commit_name": TEXT,
		"git_commit_tags": "texts", "git_commit_message": TEXT,
		"git_repository_branch": TEXT, "git_repository_branch_tip": "bool",
		"patchset_files": "resources",
		"patchset_hash": re.compile(r"^$|^[0-9a-f]{64}$"),
		"message_id": TEXT, "comment": TEXT, "start_time": "time",
		"origin_builds_finish_time": "time", "origin_tests_finish_time": "time",
		"log_url": TEXT, "log_excerpt": "excerpt", "valid": "bool",
		"misc": "object",
	},
	"build": {
		"_timestamp": "time", "checkout_id": ID, "id": ID, "origin": ORIGIN,
		"comment": TEXT, "start_time": "time", "duration": "number",
		"architecture": ARCH, "command": TEXT, "compiler": TEXT,
		"input_files": "resources", "output_files": "resources",
		"config_name": TEXT, "config_url": TEXT, "log_url": TEXT,
		"log_excerpt": "excerpt", "status": "status", "misc": "object",
	},
	"test": {
		"_timestamp": "time", "build_id": ID, "id": ID, "origin": ORIGIN,
		"environment": "environment", "path": PATH, "comment": TEXT,
		"log_url": TEXT, "log_excerpt": "excerpt", "status": "status",
		"number": "number_object", "start_time": "time", "duration": "number",
		"input_files": "resources", "output_files": "resources",
		"misc": "object",
	},
}
REQUIRED = {
	"checkout": ("id", "origin"),
	"build": ("checkout_id", "id", "origin"),
	"test": ("build_id", "id", "origin"),
}


def value(where, kind, v):
	"""v of its property's kind, or the rule it breaks said"""
	if v is None:
		broken("null", where, "no property can be null")
	elif isinstance(kind, re.Pattern):
		if not isinstance(v, str):
			broken("type", where, "not a string: %r" % (v,))
		elif not kind.match(v):
			broken("pattern", where, "%r does not match %s" % (v, kind.pattern))
	elif kind == "status":
		if v not in STATUSES:
			broken("status", where, "%r is none of %s" % (v, " ".join(STATUSES)))
	elif kind == "time":
		if not isinstance(v, str) or not TIME.match(v):
			broken("date-time", where, "%r is no RFC 3339 time" % (v,))
	elif kind == "number":
		if not is_number(v):
			broken("type", where, "not a number: %r" % (v,))
	elif kind == "bool":
		if not isinstance(v, bool):
			broken("type", where, "not a boolean: %r" % (v,))
	elif kind == "object":
		if not isinstance(v, dict):
			broken("type", where, "not an object")
	elif kind == "excerpt":
		if not isinstance(v, str) or len(v) > 16384 or "\0" in v:
			broken("log_excerpt", where, "not a string of at most 16384 characters")
	elif kind == "texts":
		if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
			broken("type", where, "not a list of strings")
	elif kind == "resources":
		resources(where, v)
	elif kind == "environment":
		environment(where, v)
	elif kind == "number_object":
		number_object(where, v)


def resources(where, v):
	if not isinstance(v, list):
		broken("type", where, "not a list")
		return
	for i, r in enumerate(v):
		if not isinstance(r, dict) or set(r) != {"name", "url"} or \
		   not isinstance(r["name"], str) or not re.match(r"^[^/\0]+$", r["name"]):
			broken("resource", "%s[%d]" % (where, i), "a name and a url, no more")


def environment(where, v):
	if not isinstance(v, dict):
		broken("type", where, "not an object")
		return
	for k in v:
		if k not in ("compatible", "comment", "misc"):
			broken("additional", where, "%r is no property of an environment" % k)
	if "comment" in v:
		value(where + ".comment", TEXT, v["comment"])
	if "misc" in v:
		value(where + ".misc", "object", v["misc"])
	if "compatible" in v:
		value(where + ".compatible", "texts", v["compatible"])


def number_object(where, v):
	if not isinstance(v, dict):
		broken("type", where, "not an object")
		return
	if "value" not in v:
		broken("required", where, "no value")
	elif not is_number(v["value"]):
		broken("type", where + ".value", "not a number: %r" % (v["value"],))
	for k in v:
		if k not in ("value", "unit", "prefix"):
			broken("additional", where, "%r is no property of a number" % k)
	if "unit" in v:
		value(where + ".unit", TEXT, v["unit"])
	if "prefix" in v and v["prefix"] not in PREFIXES:
		broken("prefix", where + ".prefix", "%r is neither metric nor binary" % (v["prefix"],))


def required(kind, where, o):
	for k in REQUIRED[kind]:
		if k not in o:
			broken("required", where, "no %s" % k)


def an_object(kind, where, o):
	if not isinstance(o, dict):
		broken("type", where, "not an object")
		return
	required(kind, where, o)
	for k, v in o.items():
		if k not in KINDS[kind]:
			broken("additional", where, "%r is no property of a %s" % (k, kind))
			continue
		value("%s.%s" % (where, k), KINDS[kind][k], v)


def version(v):
	if not isinstance(v, dict) or "major" not in v:
		broken("required", "version", "no major")
		return
	for k in v:
		if k not in ("major", "minor"):
			broken("additional", "version", "%r is no property of version" % k)
	if v["major"] != 5 or v.get("minor", 0) not in range(0, 4) or \
	   isinstance(v.get("minor"), bool):
		broken("version", "version", "%r is not 5.0 to 5.3" % (v,))


def links(doc):
	"""what the schema's words ask of ids: unique, the origin's, linked"""
	ids = {}
	for kind in ("checkouts", "builds", "tests"):
		ids[kind] = set()
		for i, o in enumerate(doc.get(kind) or []):
			if not isinstance(o, dict) or not isinstance(o.get("id"), str):
				continue
			where = "%s[%d]" % (kind, i)
			if o["id"] in ids[kind]:
				broken("unique", where, "id %r twice" % o["id"])
			ids[kind].add(o["id"])
			if o["id"].split(":", 1)[0] != o.get("origin"):
				broken("id-origin", where, "id %r is not origin %r's" %
				       (o["id"], o.get("origin")))
	for kind, key, parent in (("builds", "checkout_id", "checkouts"),
				  ("tests", "build_id", "builds")):
		for i, o in enumerate(doc.get(kind) or []):
			if isinstance(o, dict) and key in o and o[key] not in ids[parent]:
				broken("link", "%s[%d]" % (kind, i), "%s %r is in no %s" %
				       (key, o[key], parent))
	for i, t in enumerate(doc.get("tests") or []):
		if isinstance(t, dict) and t.get("status") == "DONE" and "number" not in t:
			broken("done-number", "tests[%d]" % i, "DONE without its number")


def check(doc):
	if not isinstance(doc, dict):
		broken("type", "the report", "not an object")
		return
	if "version" not in doc:
		broken("required", "the report", "no version")
	for k in doc:
		if k not in TOP:
			broken("additional", "the report", "%r is no property of a report" % k)
	if "version" in doc:
		version(doc["version"])
	for key, kind in (("checkouts", "checkout"), ("builds", "build"),
			  ("tests", "test")):
		if key not in doc:
			continue
		if not isinstance(doc[key], list):
			broken("type", key, "not a list")
			continue
		for i, o in enumerate(doc[key]):
			an_object(kind, "%s[%d]" % (key, i), o)
	links(doc)


def main():
	if len(sys.argv) != 2:
		sys.exit("usage: kcidb.py REPORT.json")
	try:
		doc = json.load(open(sys.argv[1]))
	except (OSError, ValueError) as e:
		print("kcidb.py: %s: %s" % (sys.argv[1], e), file=sys.stderr)
		return 2
	check(doc)
	for b in bad:
		print(b)
	return 1 if bad else 0


if __name__ == "__main__":
	sys.exit(main())
