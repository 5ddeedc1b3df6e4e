#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""upstream.py OUT JSON TAG: upstream's lines in OUT against the run's JSON.

What samples/bpf printed, and scripts parse: test_overhead one header
per mode ("BASE", "w/KPROBE", ...) and under it "<event>:<cpu>: <N>
events per sec" for each worker; map_perf_test "<cpu>:<line> <N> events
per sec" (or "lookups"; the newer tests their own unit, and a row with
parameters ends with them: "0:ringbuf reserve/submit 7800000 records per
sec [wakeup=64,record_size=64]"). One line per worker of the row (its
"cpus": a buffer's consumer has a CPU of its own, --scale's points fewer)
for each ok row whatever -r is; a row without a figure is one
"<test>[ [params]]: <status>: <reason>" line.
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
	  "lsm.s": "w/LSM_S",
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
	"lru_hash_lookup": "lru_hash_lookup_perf pre-alloc",
	"bloom_lookup": "bloom_lookup", "bloom_update": "bloom_update",
	"queue_push_pop": "queue_push_pop", "stack_push_pop": "stack_push_pop",
	"task_storage": "task_storage_get",
	"ringbuf_reserve": "ringbuf reserve/submit",
	"ringbuf_output": "ringbuf output", "perfbuf_output": "perfbuf output"}
# what a line counts, where it is not upstream's "events"
UNIT = {"hash_lookup": "lookups", "array_lookup": "lookups",
	"bloom_lookup": "lookups", "bloom_update": "updates",
	"queue_push_pop": "ops", "stack_push_pop": "ops",
	"task_storage": "lookups", "ringbuf_reserve": "records",
	"ringbuf_output": "records", "perfbuf_output": "records",
	"sys_hash_lookup": "lookups", "sys_hash_update": "updates",
	"sys_hash_delete": "deletes+updates", "sys_array_lookup": "lookups",
	"sys_array_update": "updates", "batch_hash_lookup": "elements",
	"batch_hash_update": "elements", "batch_array_lookup": "elements",
	"batch_array_update": "elements"}
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


def expected(d):
	"""one regex per line"""
	tool = d["tool"]
	out, mode = [], None
	for r in d["results"]:
		# the row's own workers; older files have only the run's
		ws = cpus(r.get("cpus") or d["context"]["cpus_used"])
		if tool == "test_overhead":
			if r["name"] != mode:
				out.append(re.escape(HEADER[r["name"]]))
			# test_overhead's label: "getpgid[progs=4]"
			mode, name = r["name"], r["variant"] + params(r)[1:]
		elif r["name"] == "base":
			continue	# base rows have no upstream line
		else:
			name = r["name"]
		if r["status"] != "ok":
			if tool != "test_overhead":
				name += params(r)
			out.append(re.escape("%s: %s: %s" % (name, STATUS[r["status"]],
							     r["reason"])))
			continue
		for w in ws:
			if tool == "test_overhead":
				out.append(re.escape("%s:%d:" % (name, w)) +
					   r" [1-9][0-9]* events per sec")
			else:
				out.append(re.escape("%d:%s" % (w, LINE.get(name, name))) +
					   r" [1-9][0-9]* %s per sec" %
					   re.escape(UNIT.get(name, "events")) +
					   re.escape(params(r)))
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
	ok = sum(r["status"] == "ok" for r in d["results"]
		 if d["tool"] == "test_overhead" or r["name"] != "base")
	print("%s - %s: upstream's lines, one per worker of the %d ok rows, "
	      "one per other row%s" % ("not ok" if bad else "ok", tag, ok,
				       " (%s)" % bad if bad else ""))


main()
