#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""rows.py RESULT LIST SELECT [options]: a run's rows against the kernel.

RESULT is a run's --json, LIST the program's --list --json, SELECT a
Python expression over one listed row l ({name, variant, flag, needs, ...})
that is true for the rows the run was asked for. Prints one "ok - " or
"not ok - " line per check:
  - the run has exactly the selected rows (a row of --list may make
    several, one per point of its parameters: --wakeup, --entries,
    --scale, ...), each point once;
  - each row that must run here ran (ok, or disturbed on a busy machine)
    and is verified: hits >= events * hits_per_event; and, with --ids
    (the watcher's record of the run, tests/watch.py), against the
    kernel's own run count of the row's first program, over every sample
    the row ran (warm-up, counted and run again: its samples_run, of the
    command line's -n and the row's workers): the kernel ran it
    for each of those events hits_per_event times, "hits" is no more
    than it ran, and for test_overhead "foreign_hits" no more than it
    ran beyond those events; both exactly that when the counted samples
    were all the row ran;
  - each row this kernel cannot run is skipped with the kernel's reason
    and carries no samples: what it cannot run comes from LIST (the
    options a row needs, what the build's libbpf lacks, which rows are
    BPF trampolines and what a kernel may lack whatever its config) and
    this kernel's /proc/config.gz;
  - an ok row has its samples and a disturbed one none: with --repeat R,
    R units of one row sample each, and a base row its rows ran against
    two base samples of each of their units (a multiple of R);
  - counts are per row: its "workers" (a buffer's consumer takes a CPU
    of the run's, --scale's points take fewer);
  - map_perf_test: each test row has exactly one base row, of its
    syscall and its CPUs; lookups hit (or miss with --miss); ns_per_op
    for an ok row whose base has a figure too (a disturbed base has none,
    so neither has the row), and for user-space (syscall) rows, which
    have no base; lookups counted over the samples events were, and
    the map operations the programs counted are events x ops_per_event.
Options: --repeat R, --count N (events per worker and sample), --miss, --tag T,
--ids FILE (tests/watch.py's record of the run),
--help-text FILE (the program's --help: map_perf_test's table of each newer
test's syscall, for its base rows; upstream's tests' are tests/pinned.py's).
map_perf_test's run without it fails its base checks: they never vanish.
"""
import argparse
import gzip
import json
import re
import sys

import kernel_runs
import pinned

EPERM = "refused by this kernel (EPERM at load)"
# what a kernel with the config may lack: a link type newer than it, a
# tracepoint removed (tracepoint, raw_tp and tp_btf each say it their way)
NO_THING = r"kernel has no [a-z._]+ links|no tracepoint [a-z_:]+ in "
MISS_TESTS = ("lpm_kmalloc", "hash_lookup", "lru_hash_lookup")
# every operation of these is a lookup that must find its key
LOOKUP_TESTS = ("hash_lookup", "array_lookup")


def cpus_count(s):
	n = 0
	for part in s.split(","):
		a, _, b = part.partition("-")
		n += int(b or a) - int(a) + 1
	return n


class Checks:
	def __init__(self, tag):
		self.tag = tag

	def check(self, ok, what):
		print("%s - %s%s" % ("ok" if ok else "not ok",
				     self.tag + ": " if self.tag else "", what))
		return ok

	def skip(self, what):
		print("ok - # SKIP %s%s" % (self.tag + ": " if self.tag else "",
					    what))


def config_options():
	"""the options this kernel has (=y or =m), or None: not readable"""
	try:
		with gzip.open("/proc/config.gz", "rt") as f:
			return {m.group(1) for m in
				re.finditer(r"^CONFIG_(\w+)=[ym]$", f.read(), re.M)}
	except OSError:
		return None


def expectation(l, config):
	"""None: must run; else a (regex, why) the skip reason must match,
	"maybe:" first when the row may run too. From --list's row l: what
	the build's libbpf lacks, the config options it needs, whether it is
	a BPF trampoline (refused here, or not), what a kernel may lack."""
	if l.get("lacks"):
		return re.escape(l["lacks"]), "the build's libbpf lacks it"
	may = []
	if l.get("trampoline"):
		may.append(re.escape(EPERM))
	if l.get("may_lack"):
		may.append(NO_THING)
	needs = l.get("needs") or []
	off = [n for n in needs if config is not None and n not in config]
	if off or (needs and config is None):
		# without the config, any of the options it needs may be off
		names = "|".join(re.escape("CONFIG_" + n) for n in off or needs)
		return "|".join([names] + may), "kernel without %s" % ", ".join(
			"CONFIG_" + n for n in off or needs)
	if may:
		return "maybe:" + "|".join(may), l.get("may_lack") or "trampolines"
	return None


# row samples a unit may hold (sample/unit.c; MAX_UNIT_ROW_SAMPLES in sample/sample.h)
MAX_UNIT_SAMPLES = 4


def check_ran(ck, tool, r, a, nw, what, base):
	k = r.get("hits_per_event") or 1
	ev, hits = r["events"], r.get("hits")
	if not ck.check(r["status"] in ("ok", "disturbed"),
			"%s ran (%s: %s)" % (what, r["status"], r.get("reason"))):
		return
	if hits is None:	# a base row: nothing attached, nothing counted
		ck.check(ev > 0, "%s made its events (%d)" % (what, ev))
	else:
		ck.check(ev > 0 and hits >= ev * k,
			 "%s verified: %s hits >= %d events x %d" % (what, hits, ev, k))
	if kernel_runs.checkable(r) and a.count and a.runs is not None:
		check_kernel(ck, tool, r, a, nw, what)
	# a base row its rows ran against holds two samples of each of
	# their units; any other row, its own units' samples
	fed = bool(r.get("fed"))
	units = (r.get("units") or {}).get("n") or 0
	per_unit = 2 if fed else 1
	if a.count:
		unit = a.count * nw
		most = (units or a.repeat or 16) * per_unit * MAX_UNIT_SAMPLES
		ck.check(ev % unit == 0 and 0 < ev <= most * unit,
			 "%s: events %d are samples of %d x %d workers" %
			 (what, ev, a.count, nw))
	if r["status"] == "ok":
		n = len(r.get("samples") or [])
		want = units * per_unit
		# a base whose rows stopped with no figure (disturbed, failed)
		# goes on alone: a sample a unit from then on
		if fed and any(o["name"] != "base" and o["status"] != "ok"
			       for o in a.doc["results"]):
			want = n if units < n <= units * per_unit else want
		ck.check(r.get("mean") is not None and n >= 1 and
			 (not a.repeat or (n == want and units % a.repeat == 0 and
					   (fed or units == a.repeat))),
			 "%s: ok with %d sample(s)%s" %
			 (what, n, " of %d unit(s) of -r %d" % (units, a.repeat)
			  if a.repeat else ""))
		if a.repeat and a.count:
			ck.check(ev == n * a.count * nw,
				 "%s: events %d over its %d counted samples" %
				 (what, ev, n))
	else:
		ck.check(not r.get("samples") and r.get("mean") is None,
			 "%s: disturbed, so no figure" % what)
	if tool == "map_perf_test" and r["name"] != "base":
		check_map(ck, r, a, what, base)


def check_kernel(ck, tool, r, a, nw, what):
	"""the row's hits and foreign hits against the kernel's run count"""
	if isinstance(a.runs, str):
		ck.skip("%s: the kernel's run count: %s" % (what, a.runs))
		return
	ids = kernel_runs.first_ids(r)
	if not ids or any(i not in a.runs for i in ids):
		ck.check(False, "%s: its first program (%s, each load's) is one "
			 "of the run's own, with a kernel run count" % (what, ids))
		return
	kr = sum(a.runs[i][0] for i in ids)
	misses = sum(a.runs[i][1] for i in ids)
	k = r.get("hits_per_event") or 1
	unit = a.count * nw
	counted = r["events"] // unit
	# every sample it ran: -w's and retries' too, as it says
	run = r.get("samples_run")
	if run is None:
		run = a.warmup + counted + r["disturbed_retries"]
	all_events = run * unit
	slack = kernel_runs.slack(a.doc, r)
	ck.check(kr + misses >= k * all_events,
		 "%s: the kernel ran its program %d times (+%d skipped) for the "
		 "%d x %d events of the %d sample(s) it ran" %
		 (what, kr, misses, all_events, k, run))
	if kernel_runs.filtered(tool, r):
		ck.check(r["hits"] <= kr,
			 "%s: hits %d, no more than the kernel ran its program "
			 "(%d, filtering inside)" % (what, r["hits"], kr))
		return
	exact = run == counted
	if tool != "test_overhead":
		ck.check(r["hits"] <= kr,
			 "%s: hits %d, no more than the kernel ran its program (%d)" %
			 (what, r["hits"], kr))
		return
	# runs beyond the events; the kernel's skips may have been either
	beyond = kr - k * all_events
	if exact:
		ok = 0 <= kr - r["hits"] <= slack and \
			beyond - slack <= r["foreign_hits"] <= beyond + misses
		how = "as"
	else:
		ok = r["hits"] <= kr and r["foreign_hits"] <= beyond + misses
		how = "no more than"
	ck.check(ok, "%s: hits %d and foreign %d, %s the kernel's %d runs and "
		 "%d beyond %d events x %d (%d sample(s) run, %d counted)" %
		 (what, r["hits"], r["foreign_hits"], how, kr, beyond,
		  all_events, k, run, counted))


def has_nsop(r):
	return isinstance(r.get("ns_per_op"), dict) and \
		r["ns_per_op"].get("value") is not None


def check_map(ck, r, a, what, base):
	lookups, found = r["lookups"], r["found"]
	if r["status"] == "ok" and r["variant"] == "syscall":
		ck.check(has_nsop(r), "%s: ns_per_op present (no base: the "
			 "whole bpf() call)" % what)
	elif r["status"] == "ok" and base is not None:
		# the syscall's cost is taken out only when it has a figure
		bfig = base["status"] == "ok"
		ck.check(has_nsop(r) == bfig,
			 "%s: ns_per_op %s, as its base is %s" %
			 (what, "present" if has_nsop(r) else "null",
			  base["status"]))
	if a.miss and r["name"] in MISS_TESTS:
		ck.check(lookups > 0 and found == 0,
			 "%s --miss: %d lookups, %d found (none should)" %
			 (what, lookups, found))
	elif lookups:
		ck.check(found == lookups, "%s: %d of %d lookups found" %
			 (what, found, lookups))
	if r["name"] in LOOKUP_TESTS:
		want = r["events"] * r["ops_per_event"]
		ck.check(lookups == want,
			 "%s: lookups %d = events %d x %d ops (the same samples)" %
			 (what, lookups, r["events"], r["ops_per_event"]))
	# the programs' own count of their map operations, checked per sample
	if r["variant"] != "syscall" and r["status"] in ("ok", "disturbed"):
		want = r["events"] * r["ops_per_event"]
		ck.check(r.get("ops_counted") == want,
			 "%s: map ops counted %s = events %d x %d ops" %
			 (what, r.get("ops_counted"), r["events"],
			  r["ops_per_event"]))


def help_syscalls(path):
	"""each map_perf_test test's syscall: upstream's from tests/pinned.py,
	the newer tests' from --help's table"""
	out = {}
	for line in open(path):
		m = re.match(r" +[0-9]+ +0x[0-9a-f]+ +([a-z0-9_]+) +([a-z0-9_]+),",
			     line)
		if m:
			out[m.group(1)] = m.group(2)
	for name, t in pinned.MAP_TESTS.items():
		out[name] = t[1]
	return out


def base_of(tool, r, res, syscalls):
	"""the base rows r's figure is taken against"""
	if tool == "test_overhead":
		return [b for b in res if b["name"] == "base" and
			b["variant"] == r["variant"]]
	return [b for b in res if b["name"] == "base" and
		b["variant"] == syscalls.get(r["name"]) and
		b.get("cpus") == r.get("cpus")]


def point(r):
	return (r["name"], r["variant"],
		json.dumps(r.get("params") or {}, sort_keys=True))


def main():
	p = argparse.ArgumentParser()
	p.add_argument("result")
	p.add_argument("list")
	p.add_argument("select")
	p.add_argument("--repeat", type=int, default=0)
	p.add_argument("--count", type=int, default=0)
	p.add_argument("--miss", action="store_true")
	p.add_argument("--tag", default="")
	p.add_argument("--help-text", default="")
	p.add_argument("--ids", default="")
	a = p.parse_args()
	ck = Checks(a.tag)
	try:
		d = json.load(open(a.result))
		listed = json.load(open(a.list))["rows"]
	except (OSError, ValueError) as e:
		ck.check(False, "reading the JSON: %s" % e)
		return
	a.doc = d
	a.runs = kernel_runs.load(a.ids) if a.ids else None
	a.warmup = d["context"].get("warmup") or 0
	tool = d["tool"]
	res = d["results"]
	run_nw = cpus_count(d["context"]["cpus_used"])
	syscalls = help_syscalls(a.help_text) if a.help_text else {}
	want = {(l["name"], l["variant"]) for l in listed if eval(a.select, {"l": l})}
	entry = {(l["name"], l["variant"]): l for l in listed}
	config = config_options()
	got = {(r["name"], r["variant"]) for r in res}
	points = [point(r) for r in res]
	dup = sorted(p for p in set(points) if points.count(p) > 1)
	ck.check(got == want and not dup,
		 "the %d rows are the %d selected of --list, each point once%s%s" %
		 (len(res), len(want),
		  "" if got == want else
		  " (missing %s, extra %s)" % (sorted(want - got)[:4],
					       sorted(got - want)[:4]),
		  " (twice: %s)" % dup[:4] if dup else ""))
	for r in res:
		what = "%s %s%s" % (r["name"], r["variant"], "".join(
			" %s=%s" % kv for kv in (r.get("params") or {}).items()))
		# the row's own workers (older files: the run's)
		nw = r.get("workers") or run_nw
		base = None
		if r["name"] != "base" and r["variant"] != "syscall":
			bs = base_of(tool, r, res, syscalls)
			if tool == "map_perf_test":
				# a test whose syscall is unknown (--help's
				# table missing or changed) fails, never skips
				ck.check(len(bs) == 1 and r["name"] in syscalls,
					 "%s: one base row of its syscall (%s) on "
					 "its CPUs (%s): %d" %
					 (what, syscalls.get(r["name"], "unknown: "
					  "not in --help's table"),
					  r.get("cpus"), len(bs)))
			base = bs[0] if len(bs) == 1 else None
		exp = expectation(entry.get((r["name"], r["variant"]), {}), config)
		maybe = exp is not None and exp[0].startswith("maybe:")
		if exp is None or (maybe and r["status"] != "skipped"):
			check_ran(ck, tool, r, a, nw, what, base)
			continue
		pat = exp[0][6:] if maybe else exp[0]
		reason = r.get("reason") or ""
		ck.check(r["status"] == "skipped" and re.search(pat, reason),
			 "%s skipped (%s): '%s'" % (what, exp[1], reason))
		ck.check(not r.get("samples") and r.get("mean") is None and
			 not r["events"] and not r.get("hits"),
			 "%s skipped: no samples, no counts" % what)
	if not [r for r in res if r["status"] != "skipped"]:
		ck.skip("no row failed: no row ran at all")
		return
	ck.check(not [r for r in res if r["status"] == "failed"],
		 "no row failed (%s)" % ", ".join(
			 "%s %s: %s" % (r["name"], r["variant"], r["reason"])
			 for r in res if r["status"] == "failed")[:300])


main()
