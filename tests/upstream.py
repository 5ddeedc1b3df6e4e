#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""upstream.py OUT JSON TAG: upstream's lines in OUT against the run's JSON.

What samples/bpf printed, and scripts parse: test_overhead one header
per mode ("BASE", "w/KPROBE", ...) and under it "<event>:<cpu>: <N>
events per sec" for each worker; map_perf_test "<cpu>:<line> <N> events
per sec" (or "lookups"). One line per worker for each ok row whatever
-r is; a row without a figure is one "<event>: <status>: <reason>" line.
Everything before the blank line that precedes "Summary:" is checked,
line by line, in the JSON's row order.
"""
import json
import re
import sys

HEADER = {"base": "BASE", "kprobe": "w/KPROBE", "kretprobe": "w/KRETPROBE",
	  "tracepoint": "w/TRACEPOINT", "raw_tp": "w/RAW_TRACEPOINT",
	  "tp_btf": "w/TP_BTF", "fentry": "w/FENTRY", "fexit": "w/FEXIT",
	  "fmod_ret": "w/FMOD_RET", "uprobe": "w/UPROBE",
	  "uretprobe": "w/URETPROBE", "kprobe_multi": "w/KPROBE_MULTI",
	  "kretprobe_multi": "w/KRETPROBE_MULTI",
	  "kprobe_session": "w/KPROBE_SESSION", "lsm": "w/LSM",
	  "fentry.s": "w/FENTRY_S", "uprobe.s": "w/UPROBE_S",
	  "uprobe_multi": "w/UPROBE_MULTI", "usdt": "w/USDT"}
# samples/bpf/map_perf_test_user.c's words for each test
LINE = {"hash_prealloc": "hash_map_perf pre-alloc",
	"percpu_hash_prealloc": "percpu_hash_map_perf pre-alloc",
	"hash_kmalloc": "hash_map_perf kmalloc",
	"percpu_hash_kmalloc": "percpu_hash_map_perf kmalloc",
	"lru_hash_prealloc": "lru_hash_map_perf pre-alloc",
	"nocommon_lru_hash_prealloc": "nocommon_lru_hash_map_perf pre-alloc",
	"lpm_kmalloc": "lpm_perf kmalloc",
	"hash_lookup": "hash_lookup", "array_lookup": "array_lookup",
	"inner_lru_hash_prealloc": "inner_lru_hash_map_perf pre-alloc",
	"lru_hash_lookup": "lru_hash_lookup_perf pre-alloc"}
STATUS = {"ok": "ok", "skipped": "skipped", "failed": "FAILED",
	  "disturbed": "disturbed"}


def cpus(s):
	out = []
	for part in s.split(","):
		a, _, b = part.partition("-")
		out += range(int(a), int(b or a) + 1)
	return out


def expected(d):
	"""one regex per line"""
	tool, ws = d["tool"], cpus(d["context"]["cpus_used"])
	out, mode = [], None
	for r in d["results"]:
		if tool == "test_overhead":
			if r["name"] != mode:
				out.append(re.escape(HEADER[r["name"]]))
			mode, name = r["name"], r["variant"]
		elif r["name"] == "base":
			continue	# base rows have no upstream line
		else:
			name = r["name"]
		if r["status"] != "ok":
			out.append(re.escape("%s: %s: %s" % (name, STATUS[r["status"]],
							     r["reason"])))
			continue
		for w in ws:
			if tool == "test_overhead":
				out.append(re.escape("%s:%d:" % (name, w)) +
					   r" [1-9][0-9]* events per sec")
			else:
				unit = "lookups" if name in ("hash_lookup",
							     "array_lookup") else "events"
				out.append(re.escape("%d:%s" % (w, LINE[name])) +
					   r" [1-9][0-9]* %s per sec" % unit)
	return out


def main():
	out_path, json_path, tag = sys.argv[1:4]
	d = json.load(open(json_path))
	text = open(out_path).read()
	head = text.split("\nSummary:")[0].rstrip("\n")
	lines = head.split("\n") if head else []
	want = expected(d)
	bad = None
	for i in range(max(len(lines), len(want))):
		got = lines[i] if i < len(lines) else "<none>"
		if i >= len(want) or not re.fullmatch(want[i], got):
			bad = "line %d: '%s', wanted /%s/" % (
				i + 1, got, want[i] if i < len(want) else "<end>")
			break
	ok = sum(r["status"] == "ok" for r in d["results"])
	print("%s - %s: upstream's lines, one per worker of the %d ok rows, "
	      "one per other row%s" % ("not ok" if bad else "ok", tag, ok,
				       " (%s)" % bad if bad else ""))


main()
