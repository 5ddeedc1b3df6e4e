#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""invariants.py [--manifest FILE]... [FILE[:RC]]...: what every result
of test_overhead and map_perf_test must hold, whatever the run.

Reads each --json file (a run's, --list's or --compare's; FILE:RC with
the run's exit status), or each line of a manifest (tests/lib.sh writes
one per --json a test's run wrote: the file's copy, the run's exit
status or "-", its stderr's copy or "-", the test and file it names it
by, and the command line's words, tab-separated), and prints one line
per violation:

  invariant violated: FILE [ROW]: NAME: what

then "invariants: N file(s), M row(s) checked, V violation(s)"; exits 1
when there is one. NAME is one of:

  non-finite    a NaN or an infinity anywhere (JSON has no spelling for
                them: the writer must say null)
  unreadable    a file that does not parse, or none at all after exit 0
  hits-short    an ok row whose own hits inside a worker's loops (per
                CPU, "per_cpu", and in all) fall short of its events
                times hits_per_event, beyond the runs the kernel says it
                skipped (kernel_skipped)
  hits-outside  hits outside the workers' loops where the programs were
                attached around the row samples alone (attached_for
                "samples"; --attach-time's rows hook many functions,
                which fire for anything: not them)
  counts        counts that do not add up: hits = hits_window +
                hits_outside, the per-CPU counts their sums, the units'
                arrays all units.n long, the samples' arrays alike,
                observations the rounds the units ran in, a compare's
                summary its rows
  no-interval   an ok row with two observations or more and no finite
                interval (units.ci95, overhead_ns.ci95, ns_per_op.ci95)
  share         an ok row with a share of its base (overhead_ns and
                overhead_pct) without a finite overhead_share.value, or
                with two observations or more and no finite
                overhead_share.ci95; an overhead_share, or units.shares,
                on any other row (a base row, a base that is a bare call)
  not-ok-figure a figure on a row that is not ok (samples, a mean, an
                overhead, ns per op, a rate, a --memory or --attach-time
                figure, a profile, prog stats, a fit)
  exit-status   the exit status against the rows: a run 1 when a row
                failed, else 3 when one was disturbed, else 1 when
                nothing was measured (bases alone where programs were
                asked for), else 0 (--ktap: 1, 4 for nothing measured,
                0); --list 0; --compare 1 only for a regression under
                --fail-on-regression. A signal's status (129, 130, 137,
                143) and a write error said on stderr stand.

python3's standard library only.
"""
import json
import math
import os
import re
import sys

SIGNALS = (129, 130, 137, 143)
# what the tools say when their output could not be written: exit 1
WRITE_FAILED = re.compile(r"writing .* failed|stdout is closed|cannot write")
# a row's figures: none may be there on a row that is not ok
FIGURES = ("mean", "stddev", "min", "max", "cv", "ci95", "ns_per_event",
	   "units", "overhead_ns", "overhead_share", "overhead_pct",
	   "ratio_to_base",
	   "rate_per_cpu", "ns_per_op", "prog_ns_per_run",
	   "marginal_ns_per_prog", "attach_ns_per_function",
	   "consumer_rate", "consumer_ns_per_record", "profile")
MEMORY_FIGURES = ("bytes_per_element", "memlock_per_element",
		  "payload_per_element")


class NonFinite(float):
	"""a number JSON cannot spell, as Python's parser let it through"""


def parse_constant(name):
	return NonFinite(float(name.replace("Infinity", "inf")))


def load(path):
	with open(path) as f:
		return json.load(f, parse_constant=parse_constant)


def number(v):
	return isinstance(v, (int, float)) and not isinstance(v, bool)


def finite(v):
	return number(v) and not isinstance(v, NonFinite) and math.isfinite(v)


def present(v):
	"""a figure is there: not null, not an empty list or object"""
	return v is not None and v != [] and v != {}


def row_name(r):
	p = r.get("params") or {}
	return "%s %s%s" % (r.get("name"), r.get("variant"), " [%s]" % ",".join(
		"%s=%s" % kv for kv in sorted(p.items())) if p else "")


class Checker:
	def __init__(self):
		self.files = 0
		self.rows = 0
		self.violations = []

	def bad(self, path, row, name, what):
		self.violations.append("invariant violated: %s%s: %s: %s" % (
			path, " [%s]" % row_name(row) if row else "", name, what))

	# ---- anywhere ----

	def non_finite(self, path, v, where="$"):
		if isinstance(v, dict):
			for k, x in v.items():
				self.non_finite(path, x, "%s.%s" % (where, k))
		elif isinstance(v, list):
			for i, x in enumerate(v):
				self.non_finite(path, x, "%s[%d]" % (where, i))
		elif number(v) and not finite(v):
			self.bad(path, None, "non-finite", "%s is %r" % (where, float(v)))

	# ---- a run's rows ----

	def hits(self, path, r, fault):
		# the test fault uncounted: programs that count nothing, and
		# the run says UNVERIFIED
		if r.get("hits") is None or r["status"] != "ok" or fault == "uncounted":
			return
		k = r.get("hits_per_event") or 1
		skipped = r.get("kernel_skipped") or 0
		if r["hits_window"] + skipped < k * r["events"]:
			self.bad(path, r, "hits-short", "%d hits in the loops (%d skipped by the kernel) for %d events x %d" % (
				r["hits_window"], skipped, r["events"], k))
		for c in r.get("per_cpu") or []:
			if c["hits_window"] + skipped < k * c["events"]:
				self.bad(path, r, "hits-short", "CPU %s: %d hits in the loops for %d events x %d" % (
					c["cpu"], c["hits_window"], c["events"], k))

	def outside(self, path, r):
		if r.get("hits") is None or r.get("functions") is not None:
			return
		if r.get("attached_for") == "samples" and r.get("hits_outside"):
			self.bad(path, r, "hits-outside", "%d hits outside the workers' loops, attached around its samples alone" %
				 r["hits_outside"])

	def counts(self, path, r):
		def bad(what):
			self.bad(path, r, "counts", what)
		if r.get("hits") is not None:
			if r["hits"] != r["hits_window"] + r["hits_outside"]:
				bad("hits %d != hits_window %d + hits_outside %d" % (
					r["hits"], r["hits_window"], r["hits_outside"]))
			per = r.get("per_cpu")
			if per is not None and r.get("workers") is not None and \
			   len(per) != r["workers"]:
				bad("per_cpu has %d CPUs for %d workers" % (len(per), r["workers"]))
			if per and sum(c["events"] for c in per) != r["events"]:
				bad("per_cpu's events add up to %d, not events %d" % (
					sum(c["events"] for c in per), r["events"]))
			if per and sum(c["hits_window"] for c in per) != r["hits_window"]:
				bad("per_cpu's hits_window add up to %d, not %d" % (
					sum(c["hits_window"] for c in per), r["hits_window"]))
		u = r.get("units")
		if isinstance(u, dict):
			n = u.get("n")
			for k in ("values", "ns", "base_ns", "shares", "rounds", "counts",
				  "retries"):
				if u.get(k) is not None and len(u[k]) != n:
					bad("units.%s has %d entries for units.n %s" % (k, len(u[k]), n))
			rounds = u.get("rounds")
			if rounds is not None and "observations" in u and \
			   u["observations"] != len(set(rounds)):
				bad("units.observations %s, yet the units ran in %d rounds" % (
					u["observations"], len(set(rounds))))
			for fig in ("overhead_ns", "overhead_share", "ns_per_op"):
				o = r.get(fig)
				if not isinstance(o, dict):
					continue
				if "units" in o and o["units"] != n:
					bad("%s.units %s, units.n %s" % (fig, o["units"], n))
				if "observations" in o and o["observations"] != u.get("observations"):
					bad("%s.observations %s, units.observations %s" % (
						fig, o["observations"], u.get("observations")))
		samples = r.get("samples")
		if isinstance(samples, list):
			ns = (r.get("ns_per_event") or {}).get("samples")
			if len(r.get("outliers") or []) != len(samples):
				bad("%d outlier flags for %d samples" % (len(r.get("outliers") or []), len(samples)))
			if ns is not None and len(ns) != len(samples):
				bad("%d ns_per_event samples for %d samples" % (len(ns), len(samples)))

	def observations(self, r):
		u = r.get("units")
		if not isinstance(u, dict):
			return 0
		if "observations" in u:
			return u["observations"]
		return len(set(u.get("rounds") or []))

	def interval(self, path, r):
		if r["status"] != "ok" or self.observations(r) < 2:
			return
		for fig in ("units", "overhead_ns", "ns_per_op"):
			o = r.get(fig)
			if isinstance(o, dict) and not finite(o.get("ci95")):
				self.bad(path, r, "no-interval", "%d observations, %s.ci95 %r" % (
					self.observations(r), fig, o.get("ci95")))

	def share(self, path, r):
		# a file written before the share: nothing to hold
		if r["status"] != "ok" or "overhead_share" not in r:
			return
		o = r["overhead_share"]
		has = isinstance(r.get("overhead_ns"), dict) and \
		      r.get("overhead_pct") is not None
		if not has:
			# nor its units' shares, which --compare would judge it on
			u = r.get("units")
			sh = u.get("shares") if isinstance(u, dict) else None
			if o is not None or sh is not None:
				self.bad(path, r, "share", "overhead_share %r, units' "
					 "shares %s, yet no overhead's share (overhead_ns "
					 "%r, overhead_pct %r)" % (
						 o, "given" if sh is not None else "null",
						 r.get("overhead_ns"), r.get("overhead_pct")))
			return
		if not isinstance(o, dict) or not finite(o.get("value")):
			self.bad(path, r, "share", "an overhead of %r%% of its base, "
				 "overhead_share %r" % (r["overhead_pct"], o))
		elif self.observations(r) >= 2 and not finite(o.get("ci95")):
			self.bad(path, r, "share", "%d observations, overhead_share.ci95 %r" % (
				self.observations(r), o.get("ci95")))

	def not_ok_figure(self, path, r):
		if r["status"] == "ok":
			return
		there = [k for k in FIGURES if present(r.get(k))]
		# --attach-time's rows: the attach and detach are the figure
		if r.get("functions") is not None:
			there += [k for k in ("attach_ns", "detach_ns") if present(r.get(k))]
		if present(r.get("samples")):
			there.append("samples")
		mem = r.get("memory")
		if isinstance(mem, dict):
			there += ["memory." + k for k in MEMORY_FIGURES if present(mem.get(k))]
			if present((mem.get("churn") or {}).get("bytes_per_element")):
				there.append("memory.churn.bytes_per_element")
		if there:
			self.bad(path, r, "not-ok-figure", "%s, yet %s" % (r["status"], ", ".join(there)))

	def run(self, path, d, rc, args, err):
		rows = d.get("results")
		if not isinstance(rows, list):
			self.bad(path, None, "unreadable", "no results")
			return
		fault = (d.get("context") or {}).get("fault")
		for r in rows:
			self.rows += 1
			self.hits(path, r, fault)
			self.outside(path, r)
			self.counts(path, r)
			self.interval(path, r)
			self.share(path, r)
			self.not_ok_figure(path, r)
		if rc is None or rc in SIGNALS:
			return
		st = [r["status"] for r in rows]
		progs = any(r.get("hits") is not None for r in rows)
		measured = any(r["status"] == "ok" and (r.get("hits") is not None or not progs)
			       for r in rows)
		if "--ktap" in args:
			want = 1 if "failed" in st else 0 if measured else 4
		else:
			want = 1 if "failed" in st else 3 if "disturbed" in st else \
			       0 if measured else 1
		self.exit_status(path, rc, want, err)

	def exit_status(self, path, rc, want, err):
		if rc == want:
			return
		if rc == 1 and err and WRITE_FAILED.search(err):
			return
		self.bad(path, None, "exit-status", "exit %d, its rows make it %d" % (rc, want))

	# ---- --list, --compare ----

	def listing(self, path, d, rc):
		for r in d.get("rows") or []:
			self.rows += 1
			if not isinstance(r.get("name"), str) or not isinstance(r.get("variant"), str):
				self.bad(path, r, "counts", "a row without a name and variant")
		if rc is not None and rc not in SIGNALS:
			self.exit_status(path, rc, 0, None)

	def compare(self, path, d, rc, err):
		rows = d.get("rows") or []
		s = d.get("summary") or {}
		self.rows += len(rows)
		n = {v: sum(r.get("verdict") == v for r in rows)
		     for v in ("slower", "faster", "no significant change", "cannot tell")}
		want = {"compared": len(rows), "slower": n["slower"], "faster": n["faster"],
			"no_change": n["no significant change"], "cannot_tell": n["cannot tell"],
			"not_compared": len(d.get("not_compared") or []),
			"regressions": sum(bool(r.get("regression")) for r in rows)}
		for k, v in want.items():
			if k in s and s[k] != v:
				self.bad(path, None, "counts", "summary.%s %s, its rows make it %d" % (k, s[k], v))
		for r in rows:
			# an overhead row judged on its share: the share's test decided
			on_share = r.get("verdict_on") == "overhead_share"
			sh = r.get("share") if isinstance(r.get("share"), dict) else {}
			if on_share and r.get("verdict") != sh.get("verdict"):
				self.bad(path, r, "counts", "verdict %r on the share, whose own is %r" % (
					r.get("verdict"), sh.get("verdict")))
			p = sh.get("p") if on_share else r.get("p")
			if r.get("verdict") in ("slower", "faster") and not finite(p):
				self.bad(path, r, "counts", "verdict %s with p %r" % (r["verdict"], p))
			for side in ("a", "b"):
				o = r.get(side) or {}
				if r.get("verdict") in ("slower", "faster") and (o.get("n") or 0) < 2:
					self.bad(path, r, "counts", "verdict %s with %s's %s observation(s)" % (
						r["verdict"], side, o.get("n")))
		if rc is not None and rc not in SIGNALS:
			fail = d.get("fail_on_regression_pct") is not None and want["regressions"] > 0
			self.exit_status(path, rc, 1 if fail else 0, err)

	# ---- a file ----

	def file(self, path, rc=None, args=(), err=None, label=None):
		self.files += 1
		where, path = label or path, path
		if not os.path.exists(path) or os.path.getsize(path) == 0:
			# not written: a run refused or interrupted before its end
			if rc == 0:
				self.bad(where, None, "unreadable", "exit 0, and no results written")
			return
		try:
			d = load(path)
		except (OSError, ValueError) as e:
			self.bad(where, None, "unreadable", str(e)[:200])
			return
		self.non_finite(where, d)
		if not isinstance(d, dict):
			self.bad(where, None, "unreadable", "not a JSON object")
		elif "results" in d:
			self.run(where, d, rc, args, err)
		elif str(d.get("schema", "")).startswith("bpf-bench-compare/"):
			self.compare(where, d, rc, err)
		elif "rows" in d:
			self.listing(where, d, rc)
		else:
			self.bad(where, None, "unreadable", "neither results, rows nor a compare")


def manifest(path):
	"""(json, rc, args, stderr's text, label) of each line"""
	with open(path) as f:
		for line in f:
			fields = line.rstrip("\n").split("\t")
			if len(fields) < 4:
				continue
			jpath, rc, errpath, label = fields[:4]
			err = None
			if errpath != "-" and os.path.exists(errpath):
				with open(errpath, errors="replace") as e:
					err = e.read()
			yield jpath, None if rc == "-" else int(rc), fields[4:], err, label


def main(argv):
	c = Checker()
	files = []
	i = 0
	while i < len(argv):
		if argv[i] == "--manifest" and i + 1 < len(argv):
			files += list(manifest(argv[i + 1]))
			i += 2
			continue
		path, _, rc = argv[i].rpartition(":") if re.search(r":-?\d+$", argv[i]) else (argv[i], "", "")
		files.append((path, int(rc) if rc else None, [], None, None))
		i += 1
	for path, rc, args, err, label in files:
		c.file(path, rc, args, err, label)
	for v in c.violations:
		print(v)
	print("invariants: %d file(s), %d row(s) checked, %d violation(s)" % (
		c.files, c.rows, len(c.violations)))
	return 1 if c.violations else 0


if __name__ == "__main__":
	sys.exit(main(sys.argv[1:]))
