#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What the tests know without asking the programs.

Upstream's words and rows (samples/bpf's test_overhead and map_perf_test,
which scripts parse and people set figures beside) are not ours to
change: they are written here, not read from --list, so that a header or
a line renamed in the programs fails a test instead of changing the
expectation with it. The programs' own rows are in tests/rows.txt: the
checks that take a run's expected rows from --list are safe only while
--list has them all.

pinned.py LIST TOOL: one check line for TOOL's --list --json LIST against
both (see check()).
"""
import json
import os
import sys

# test_overhead: each upstream mode's header, and the test_flags bits of
# its two events (upstream v6.12's bits; the newer modes take bits above)
OVERHEAD_HEADERS = {
	"base": "BASE", "kprobe": "w/KPROBE", "kretprobe": "w/KRETPROBE",
	"tracepoint": "w/TRACEPOINT", "raw_tp": "w/RAW_TRACEPOINT",
	"tp_btf": "w/TP_BTF", "fentry": "w/FENTRY", "fexit": "w/FEXIT",
}
OVERHEAD_EVENTS = ("task_rename", "fib_table_lookup")
OVERHEAD_BITS = {
	"base": 0x1, "kprobe": 0x4, "tracepoint": 0x10, "raw_tp": 0x40,
	"kretprobe": 0x100, "tp_btf": 0x400, "fentry": 0x1000, "fexit": 0x4000,
}

# map_perf_test: upstream's eleven tests, their bit, the syscall that
# triggers them, and the words of their line ("<cpu>:<line> <N> <unit>
# per sec")
MAP_TESTS = {
	"hash_prealloc": (0, "getuid", "hash_map_perf pre-alloc", "events"),
	"percpu_hash_prealloc": (1, "geteuid", "percpu_hash_map_perf pre-alloc", "events"),
	"hash_kmalloc": (2, "getgid", "hash_map_perf kmalloc", "events"),
	"percpu_hash_kmalloc": (3, "getegid", "percpu_hash_map_perf kmalloc", "events"),
	"lru_hash_prealloc": (4, "connect", "lru_hash_map_perf pre-alloc", "events"),
	"nocommon_lru_hash_prealloc": (5, "connect", "nocommon_lru_hash_map_perf pre-alloc", "events"),
	"lpm_kmalloc": (6, "gettid", "lpm_perf kmalloc", "events"),
	"hash_lookup": (7, "getpgid", "hash_lookup", "lookups"),
	"array_lookup": (8, "getppid", "array_lookup", "lookups"),
	"inner_lru_hash_prealloc": (9, "connect", "inner_lru_hash_map_perf pre-alloc", "events"),
	"lru_hash_lookup": (10, "connect", "lru_hash_lookup_perf pre-alloc", "events"),
}


def upstream_rows(tool):
	"""{(name, variant)} of upstream's rows (for map_perf_test, its
	tests: every attach method's row of them is upstream's)"""
	if tool == "test_overhead":
		return {(m, e) for m in OVERHEAD_HEADERS for e in OVERHEAD_EVENTS}
	return set(MAP_TESTS)


def is_upstream(tool, r):
	if tool == "test_overhead":
		return (r["name"], r["variant"]) in upstream_rows(tool)
	return r["name"] in MAP_TESTS


def header(r):
	"""test_overhead's header of an upstream row, or None"""
	if (r["name"], r["variant"]) in upstream_rows("test_overhead"):
		return OVERHEAD_HEADERS[r["name"]]
	return None


def map_words(name):
	"""(line, unit) of an upstream map test, or None"""
	t = MAP_TESTS.get(name)
	return (t[2], t[3]) if t else None


def rows_txt():
	"""{tool: {(name, variant)}} of tests/rows.txt"""
	out = {}
	path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rows.txt")
	for line in open(path):
		f = line.split()
		if len(f) == 3 and not line.startswith("#"):
			out.setdefault(f[0], set()).add((f[1], f[2]))
	return out


def check(listed, tool):
	"""(ok, what) of a --list document against the pins"""
	rows = listed["rows"]
	got = {(r["name"], r["variant"]) for r in rows}
	want = rows_txt().get(tool, set())
	bad = []
	if got != want:
		bad.append("--list lacks %s, has %s beyond tests/rows.txt" % (
			sorted(want - got)[:6], sorted(got - want)[:6]))
	for r in rows:
		key = (r["name"], r["variant"])
		up = is_upstream(tool, r)
		if bool(r.get("upstream")) != up:
			bad.append("%s %s: upstream %s" % (key + (r.get("upstream"),)))
		if not up or r["name"] == "base" and tool == "map_perf_test":
			continue
		if tool == "test_overhead":
			bit = OVERHEAD_BITS[r["name"]] << OVERHEAD_EVENTS.index(r["variant"])
			if r.get("header") != OVERHEAD_HEADERS[r["name"]] or r.get("flag") != bit:
				bad.append("%s %s: header %s, bit %s; upstream's %s, %#x" % (
					key + (r.get("header"), r.get("flag"),
					       OVERHEAD_HEADERS[r["name"]], bit)))
		else:
			b, _, line, unit = MAP_TESTS[r["name"]]
			if (r.get("flag"), r.get("line"), r.get("unit")) != (1 << b, line, unit):
				bad.append("%s %s: bit %s, line '%s', unit %s; upstream's %#x, '%s', %s" % (
					key + (r.get("flag"), r.get("line"), r.get("unit"),
					       1 << b, line, unit)))
	want_up = upstream_rows(tool)
	have_up = {(r["name"], r["variant"]) if tool == "test_overhead" else r["name"]
		   for r in rows if is_upstream(tool, r)}
	if have_up != want_up:
		bad.append("upstream's rows missing: %s" % sorted(want_up - have_up))
	return not bad, "; ".join(bad)[:600]


def main():
	path, tool = sys.argv[1:3]
	try:
		listed = json.load(open(path))
	except (OSError, ValueError) as e:
		print("not ok - %s --list: reading %s: %s" % (tool, path, e))
		return
	ok, why = check(listed, tool)
	print("%s - %s --list: every row of tests/rows.txt and no other; "
	      "upstream's rows with upstream's bits and words%s" % (
		      "ok" if ok else "not ok", tool, " (%s)" % why if why else ""))


if __name__ == "__main__":
	main()
