#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""glance.py CHECK OUT JSON COLS TAG: the summaries as a reader sees them.

OUT is what a run printed (a terminal's screen from tmux's capture-pane
-J, which joins a line the terminal wrapped, or a file), JSON the same
run's --json. CHECK is
  summary   a run's summary: no line wider than COLS; one table line per
            row that ran, its name and figure whole (the figure as the
            JSON gives it, shown to the precision its interval gives it),
            its verdict, its share of its base (vs base) the JSON's
            overhead_share, its notes' marks those the JSON's fields give;
            the legend's count of each mark that of the rows' marks; a
            disturbed or failed row's reason on a line of its own
  short     --format short: no line wider than COLS (72), one line per
            row that ran with its figure
  compare   --compare (JSON its --json): no line wider than COLS; one
            table line per compared row with A's and B's figures, its
            share of the base's change where the table has that column,
            and its verdict
  width     no line wider than COLS, nothing else
Prints "ok - ..." / "not ok - ..." lines (tests/lib.sh's checks_from).
"""
import json
import math
import re
import sys

MARKS = "<bmsnofkrwph"


def say(ok, what, why=""):
	print("%s - %s%s" % ("ok" if ok else "not ok", what,
			     "" if ok or not why else " (%s)" % why))


def width_check(lines, cols, tag):
	wide = [l for l in lines if len(l.rstrip()) > cols]
	say(not wide, "%s: no line wider than %d columns, none wrapped" % (tag, cols),
	    "%d: '%s'" % (len(wide[0].rstrip()), wide[0].rstrip()) if wide else "")


# ---- figures, as report/summary.c's format_estimate() shows them ----

def decimals(ci, value):
	if ci is not None and math.isfinite(ci):
		if not ci > 0:
			return 2
		return min(2, max(0, 1 - math.floor(math.log10(ci))))
	if value is None or not abs(value) > 0:
		return 1
	return min(2, max(0, 2 - math.floor(math.log10(abs(value)))))


def estimate(value, ci, sign):
	if value is None:
		return "-"
	d = decimals(ci, value)
	v = ("%+.*f" if sign else "%.*f") % (d, value)
	return v + " " + ("± %.*f" % (d, ci) if ci is not None else "± -")


def share(pct):
	if pct is None:
		return "-"
	return "%+.*f%%" % (1 if abs(pct) < 9.95 else 0, pct)


def params(r, space=True):
	p = r.get("params") or {}
	if not p:
		return ""
	return (" " if space else "") + "[%s]" % ",".join("%s=%s" % kv for kv in p.items())


def row_name(r):
	"""format_row_name(): "raw_tp task_rename [progs=4]" """
	return "%s %s%s" % (r["name"], r["variant"], params(r))


def figure(tool, r):
	"""the row's figure and its unit, as the table shows it"""
	if tool == "test_overhead":
		oh = r.get("overhead_ns")
		if oh:
			return estimate(oh["value"], oh["ci95"], True)
		return estimate(r["units"]["mean"], r["units"]["ci95"], False)
	if r["name"] == "base":
		return estimate(r["units"]["mean"], r["units"]["ci95"], False)
	op = r.get("ns_per_op")
	return estimate(op["value"], op["ci95"], False) if op else "-"


def marks(r):
	"""a row's marks, from the JSON's own fields (not its "marks")"""
	m = ""
	if r.get("below_base"):
		m += "<"
	if r["stop"] == "budget":
		m += "b"
	elif r["stop"] == "max-units":
		m += "m"
	if r.get("bpf_stats_runs"):
		m += "s"
	ns = r["ns_per_event"]
	if len(ns["samples"]) > 1 and not (ns["cv"] is not None and ns["cv"] <= 0.05):
		m += "n"
	if any(r["outliers"]):
		m += "o"
	if r.get("hits_window") and r["foreign_hits"] / r["hits_window"] > 0.01:
		m += "f"
	if r.get("kernel_skipped"):
		m += "k"
	if r["disturbed_retries"] + r["base_retries"]:
		m += "r"
	if r["settle_capped"]:
		m += "w"
	if r.get("prog_stats_reason"):
		m += "p"
	if r.get("other_links"):
		m += "h"
	return m


def verdict(r):
	if r["status"] == "ok":
		return "ok" if r["name"] == "base" else "verified"
	if r["status"] == "failed":
		m = re.search(r"(?<![\w.])CPU (\d+)", r["reason"] or "")
		return "FAILED CPU %s" % m.group(1) if m else "FAILED"
	return r["status"]


def unfold(lines):
	"""the folded sentences joined: a line 4 spaces further in goes on"""
	out = []
	for l in lines:
		ind = len(l) - len(l.lstrip(" "))
		if out and l.strip() and ind >= 4 and \
		   ind == len(out[-1][1]) - len(out[-1][1].lstrip(" ")) + 4:
			out[-1] = (out[-1][0], out[-1][1] + " " + l.strip())
		else:
			out.append((len(out), l))
	return [l for _, l in out]


def table_lines(lines, heads):
	"""the summary table: its heading line's index and its rows"""
	for i, l in enumerate(lines):
		if any(l.startswith("  " + h + " ") for h in heads):
			rows = []
			for m in lines[i + 1:]:
				if not m.startswith("  ") or m.startswith("  ("):
					break
				rows.append(m)
			return i, rows
	return None, []


def summary(out, d, cols, tag):
	lines = out.splitlines()
	width_check(lines, cols, tag)
	tool = d["tool"]
	ran = [r for r in d["results"] if r["status"] != "skipped"]
	head_i, table = table_lines(lines, ("mode", "test"))
	if head_i is None:
		say(False, "%s: a summary table" % tag, "no heading line")
		return
	head = lines[head_i]
	say(len(table) == len(ran),
	    "%s: one table line per row that ran (%d)" % (tag, len(ran)),
	    "%d lines" % len(table))
	notes_at = head.find("notes") if re.search(r"\bnotes$", head.rstrip()) else -1
	bad_name, bad_fig, bad_verdict, bad_marks, bad_json_marks = [], [], [], [], []
	bad_share = []
	has_share = re.search(r"\bvs base\b", head) is not None
	count = {m: 0 for m in MARKS}
	for r in ran:
		if tool == "test_overhead":
			first = r["name"]
			second = r["variant"] + params(r, False)
		else:
			first = r["name"] + params(r)
			second = r["variant"]
		pat = re.compile(r"^  %s +%s(\s|$)" % (re.escape(first), re.escape(second)))
		mine = [l for l in table if pat.match(l)]
		if len(mine) != 1:
			bad_name.append("%s: %d lines" % (row_name(r), len(mine)))
			continue
		line = mine[0]
		fig = figure(tool, r) if r["status"] == "ok" else "-"
		if not re.search(r"(^|\s)%s(\s|$)" % re.escape(fig), line):
			bad_fig.append("%s: '%s' not in '%s'" % (row_name(r), fig, line))
		if not re.search(r"\s%s(\s|$)" % re.escape(verdict(r)), line):
			bad_verdict.append("%s: '%s'" % (row_name(r), verdict(r)))
		if r["status"] != "ok":
			continue
		sh = (r.get("overhead_share") or {}).get("value")
		if has_share and sh is not None and \
		   not re.search(r"\s%s(\s|$)" % re.escape(share(sh)), line):
			bad_share.append("%s: '%s' not in '%s'" % (row_name(r), share(sh), line))
		want = marks(r)
		if r["marks"] != want:
			bad_json_marks.append("%s: JSON '%s', its fields '%s'" %
					      (row_name(r), r["marks"], want))
		if notes_at >= 0:
			got = line[notes_at:].strip() if len(line) > notes_at else ""
			if got != want:
				bad_marks.append("%s: '%s', wanted '%s'" % (row_name(r), got, want))
			for m in got:
				count[m] = count.get(m, 0) + 1
	say(not bad_name, "%s: each row that ran on one table line, its name whole" % tag,
	    "; ".join(bad_name[:3]))
	say(not bad_fig, "%s: each row's figure whole, ± its interval, as the JSON gives it" % tag,
	    "; ".join(bad_fig[:3]))
	say(not bad_verdict, "%s: each row's verdict (verified, FAILED and its CPU)" % tag,
	    "; ".join(bad_verdict[:3]))
	say(not bad_share, "%s: each row's vs base is the JSON's overhead_share" % tag,
	    "; ".join(bad_share[:3]))
	say(not bad_json_marks, "%s: the JSON's marks are those its fields give" % tag,
	    "; ".join(bad_json_marks[:3]))
	text = unfold(lines)
	if notes_at < 0:
		# a terminal too narrow for the notes: the table says it left
		# them out, and the legend still counts the JSON's marks
		said = any(re.match(r"^  \(left out to fit %d columns: .*\bnotes\b" % cols, l)
			   for l in text)
		none = not any(marks(r) for r in ran if r["status"] == "ok")
		say(said or none, "%s: a notes column, or a line saying it was left "
		    "out, or no row with a mark" % tag, "heading '%s'" % head)
		for r in ran:
			if r["status"] == "ok":
				for m in marks(r):
					count[m] += 1
	else:
		say(not bad_marks, "%s: each row's notes column has its marks" % tag,
		    "; ".join(bad_marks[:3]))
	legend = {}
	for l in text:
		m = re.match(r"^(?:Notes:| {6}) (\S) +(\d+) rows? ", l)
		if m:
			legend[m.group(1)] = int(m.group(2))
	want = {m: n for m, n in count.items() if n}
	say(legend == want, "%s: the legend counts the rows of each mark %s" % (tag, want),
	    "legend %s" % legend)
	missing = []
	for r in ran:
		if r["status"] in ("disturbed", "failed"):
			said = "%s: %s: %s" % (row_name(r), "FAILED" if r["status"] == "failed"
					       else "disturbed", " ".join(r["reason"].split()))
			if not any(l.strip() == said for l in text):
				missing.append(said)
	say(not missing, "%s: each disturbed or failed row says why on a line of its own" % tag,
	    "; ".join(missing[:2]))


def short(out, d, cols, tag):
	lines = out.splitlines()
	width_check(lines, cols, tag)
	text = unfold(lines)
	tool = d["tool"]
	bad = []
	for r in d["results"]:
		if r["status"] == "skipped":
			continue
		name = row_name(r)
		mine = [l for l in text if re.match(r"^%s +: " % re.escape(name), l)]
		if len(mine) != 1:
			bad.append("%s: %d lines" % (name, len(mine)))
			continue
		want = figure(tool, r) if r["status"] == "ok" else verdict(r)
		if want not in mine[0]:
			bad.append("%s: '%s' not in '%s'" % (name, want, mine[0]))
	say(not bad, "%s: one line per row that ran, with its figure" % tag,
	    "; ".join(bad[:3]))
	say(len(text) == sum(r["status"] != "skipped" for r in d["results"]),
	    "%s: nothing but those lines" % tag, "%d lines" % len(text))


def compare(out, d, cols, tag):
	lines = out.splitlines()
	width_check(lines, cols, tag)
	bad = []
	names = {"no significant change": "no change"}
	# the share of the base's change, where the table kept its column
	has_share = any(re.match(r"^ +row .*\bchange +share\b", l) for l in lines)
	for r in d["rows"]:
		label = "%s %s%s" % (r["name"], r["variant"],
				     " [%s]" % r["params"] if r["params"] else "")
		at = [i for i, l in enumerate(lines)
		      if re.match(r"^ *%s(  |$)" % re.escape(label), l)]
		if len(at) != 1:
			bad.append("%s: %d lines" % (label, len(at)))
			continue
		# a name too wide for text to paste has a line of its own
		mine = [lines[at[0]] if lines[at[0]].strip() != label or
			at[0] + 1 == len(lines) else lines[at[0] + 1]]
		sign = r["quantity"] == "overhead_ns"
		for side in ("a", "b"):
			s = r[side]
			fig = estimate(s["mean"], s["ci95"], sign)
			# the paste's intervals may have gone
			if fig not in mine[0] and fig.split(" ±")[0] not in mine[0].split():
				bad.append("%s: %s's '%s' not in '%s'" % (label, side, fig, mine[0]))
		sh = (r.get("share") or {}).get("delta_pct")
		if has_share and sh is not None and share(sh) not in mine[0].split():
			bad.append("%s: share '%s' not in '%s'" % (label, share(sh), mine[0]))
		v = names.get(r["verdict"], r["verdict"])
		if not mine[0].rstrip().endswith(v) and " %s " % v not in mine[0]:
			bad.append("%s: verdict '%s' not in '%s'" % (label, v, mine[0]))
	say(not bad, "%s: one line per compared row, A, B and the verdict whole (%d rows)" %
	    (tag, len(d["rows"])), "; ".join(bad[:3]))


def main():
	check, out_path, json_path, cols, tag = sys.argv[1:6]
	out = open(out_path, encoding="utf-8").read()
	if check == "width":
		width_check(out.splitlines(), int(cols), tag)
		return
	d = json.load(open(json_path))
	{"summary": summary, "short": short, "compare": compare}[check](
		out, d, int(cols), tag)


main()
