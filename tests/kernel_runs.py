# SPDX-License-Identifier: GPL-2.0
"""The kernel's own count of a run's programs, against the run's JSON.

tests/watch.py records, for every BPF program the run's fds held, the
kernel's run count (run_cnt, kept with the BPF run-time stats on from
before the run loaded anything) once the run has exited: a count no code
of the tools takes part in. A results row names its programs (prog_ids,
each load's in turn where the row was loaded afresh each session: loads)
and every run they counted over every sample the tool ran, warm-up and
samples run again included (runs_counted). So, for a row that ran (ok or
disturbed; a failed row may have lost a sample's counts on purpose):

  - each program it names is one of the run's own, seen in its fds;
  - the kernel ran them as often as they counted (but for the late
    runs below); a program that filters inside (sys_enter's raw_tp and
    tp_btf, map_perf_test's raw_tp) runs for other syscalls too and
    counts only its own: there the kernel's count bounds it from above;
  - the first program (the one "hits" is of) ran, by the kernel's count
    with the runs it skipped, at least hits_per_event times each event
    of the counted samples.

The kernel may run a program after the tool has read its count, never
before; so what the row counted is never more than the kernel's count,
and the kernel's is more by at most:
  SLACK: a run already under way on another CPU when the link is closed
    (the kernel does not wait for it): one per CPU and sample;
  LATE: other processes' events while the link's release is held up:
    whoever reads the run's /proc/PID/fd (this watcher too) holds a
    reference to the link's file for the read, and when the run closes
    it meanwhile, the release comes when the reader lets go: measured,
    tens of ms on a busy machine. Bounded by the foreign hits the row's
    programs counted, a sample's worth for each sample.
A program double-counting, or a sample's counts lost or added twice,
is far outside both.
"""

FILTERED = {
	# tool: (row name or None for any, variant or None for any)
	"test_overhead": [("raw_tp", "getpgid"), ("tp_btf", "getpgid")],
	"map_perf_test": [(None, "raw_tp")],
}


def load(path):
	"""{id: (run_cnt, recursion_misses, name)}, or a string: why none"""
	runs = {}
	try:
		lines = open(path).read().splitlines()
	except OSError as e:
		return "no record of the run: %s" % e
	for line in lines:
		f = line.split(None, 4)
		if f and f[0] == "runs_unknown":
			return "the kernel would not say: %s" % line[13:]
		if f and f[0] == "runs" and len(f) >= 4:
			runs[int(f[1])] = (int(f[2]), int(f[3]),
					   f[4] if len(f) > 4 else "")
	if not runs and not any(l.startswith("prog ") for l in lines):
		return "the watcher saw no program"
	if not runs:
		return "no run count recorded (the watcher was killed?)"
	return runs


def filtered(tool, r):
	return any((n is None or r["name"] == n) and
		   (v is None or r["variant"] == v)
		   for n, v in FILTERED.get(tool, []))


def samples_bound(d, r):
	"""the samples a row may have run at most, for SLACK: what it says it
	ran, or, from a file that does not say, what its settings allow"""
	if r.get("samples_run") is not None:
		return r["samples_run"] + 1
	c = d.get("context", {})
	counted = c.get("repeat") or c.get("max_units") or 16
	return (counted + (c.get("warmup") or 0)) * 3 + 1


def slack(d, r):
	"""SLACK and LATE above"""
	n = samples_bound(d, r)
	return n * (d.get("context", {}).get("online_cpus") or 1) + \
		n * (r.get("foreign_hits") or 0)


def checkable(r):
	"""a row that ran programs: map_perf_test's bpf() rows (attach_method
	null) count their workers' calls and run none"""
	return r["status"] in ("ok", "disturbed") and \
		r.get("hits") is not None and r.get("prog_ids") is not None and \
		r.get("attach_method", "") is not None


def row(d, r, runs):
	"""(ok, what) of the kernel's count against the row's, or None when
	the row has nothing to compare (no program, or it did not run)"""
	if not checkable(r):
		return None
	ids = r["prog_ids"]
	want = (r.get("programs") or 1) * (r.get("loads") or 1)
	if len(ids) != want:
		return False, "names %d programs (%s), runs %d" % (len(ids), ids, want)
	missing = [i for i in ids if i not in runs]
	if missing:
		return False, "program(s) %s are none of the run's own" % missing
	kernel = sum(runs[i][0] for i in ids)
	first = sum(runs[i][0] for i in first_ids(r))
	misses = sum(runs[i][1] for i in first_ids(r))
	counted = r["runs_counted"]
	k = r.get("hits_per_event") or 1
	if filtered(d["tool"], r):
		ok = kernel >= counted
		how = "no fewer than"
	else:
		ok = 0 <= kernel - counted <= slack(d, r)
		how = "as many as (or a few late runs more)"
	what = "the kernel ran its %d program(s) %d times: %s the %d runs they counted" % \
		(len(ids), kernel, how, counted)
	if ok and first + misses < k * r["events"]:
		ok = False
		what += "; but the first ran %d (+%d skipped) times for %d events x %d" % \
			(first, misses, r["events"], k)
	return ok, what


def first_ids(r):
	"""the ids of the row's first program, one per load: a row loaded
	afresh each session (map_perf_test's) names each load's programs in
	turn"""
	n = r.get("programs") or 1
	return (r.get("prog_ids") or [])[::n]


def first_runs(r, runs):
	"""the kernel's run count of the row's first program (over all its
	loads), or None"""
	if isinstance(runs, str) or not r.get("prog_ids"):
		return None
	counts = [runs.get(i, (None,))[0] for i in first_ids(r)]
	return None if None in counts else sum(counts)
