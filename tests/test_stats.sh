#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Statistics, command-line parsing and compare: the unit checks of
# build/dynamic/stats_test (built by make all), then a results file written
# as report/results_json.c writes one, read by python3's json and by the compare,
# and python3-written files read by test_overhead --compare (which needs no
# root): copies with known changes, A/A copies, files pooled per side,
# --ignore-param, params, duplicates, disturbed rows, a 60,000-row pair,
# usage errors, and files built to hurt (too big, too many samples or
# units, too much in all, escape sequences in names). Every verdict is read
# from --compare --json. Builds nothing itself; needs no root and no BPF.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./build/dynamic/stats_test
PROG=./test_overhead

for b in "$BIN" "$PROG"; do
	[ -x "$b" ] && continue
	fail "$b is missing: run make first"
	finish
	exit
done

# the unit checks print their own ok/not ok lines; count them as ours
# (as run.sh does: an "ok - # SKIP" line is not a pass)
out=$("$BIN")
rc=$?
echo "$out"
T_PASS=$((T_PASS + $(grep -c '^ok - [^#]' <<<"$out")))
T_FAIL=$((T_FAIL + $(grep -c '^not ok' <<<"$out")))
expect "stats_test exits 0 (rc=$rc)" test "$rc" -eq 0

if ! command -v python3 >/dev/null; then
	skip "python3 json checks: no python3"
	finish
	exit
fi

# --- a results file as report/results_json.c writes it, through a real parser
run_capture write "$BIN" --write-results "$T_TMP/report.json"
expect "--write-results exits 0 (rc=$RC)" test "$RC" -eq 0 -a ! -s "$T_TMP/write.err"
expect "python3 json reads the results file" \
	python3 -c 'import json,sys; json.load(open(sys.argv[1], "rb"))' "$T_TMP/report.json"

# the strings, numbers and nulls python3 reads are the ones written
check_report() {
	python3 - "$T_TMP/report.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], 'rb'))
assert d["schema"] == "bpf-bench/1", d["schema"]
assert list(d)[:5] == ["schema", "tool", "version", "context", "results"], list(d)
want = "q\"b\\s/ \b\f\n\r\t \x01\x1f\x7f \u00b5s \u2713 \U0001f600"
st = {(r["name"], r["variant"], r["status"]): r for r in d["results"]}
base = st[("base", "task_rename", "ok")]
u = base["units"]
assert u["quantity"] == "ns_per_event" and u["values"] == [60.0, 60.3, 59.7, 60.1, 59.9], u
assert u["base_ns"] is None and u["n"] == 5 and base["reason"] is None
assert base["overhead_ns"] is None and base["outliers"] == [False] * 5
odd = st[("raw_tp", "task_rename", "ok")]["units"]
assert odd["quantity"] == "overhead_ns", odd
assert odd["values"] == [0.1, 1 / 3, 3.6e6, 2.5e-7, 123.456], odd["values"]
assert st[("kprobe", "task_rename", "ok")]["params"] == {"progs": 4}
assert st[("fentry", "task_rename", "skipped")]["reason"] == 'no BTF: "x"\n'
assert st[("kprobe", "urandom_read", "failed")]["reason"] == want
assert d["context"]["attach_method"] is None
assert d["context"]["cpu_model"] == 'Test CPU "quoted" @ 2.0GHz'
EOF
}
expect "python3 reads back every escape, number, null, param and status" check_report

# --- A/A: a copy of one file against it draws no verdict
cp "$T_TMP/report.json" "$T_TMP/copy.json"
run_capture aa "$PROG" --compare "$T_TMP/report.json" "$T_TMP/copy.json" \
	--fail-on-regression 0 --json "$T_TMP/aa.json"
expect "A/A, a file against its copy, --fail-on-regression 0: exit 0 (rc=$RC)" \
	test "$RC" -eq 0 -a ! -s "$T_TMP/aa.err"
jexpect "A/A: every ok row compared, no significant change, delta 0" "$T_TMP/aa.json" \
	'd["schema"] == "bpf-bench-compare/1" and len(R) == 3 and all(r["verdict"] == "no significant change" and r["delta"] == 0 and r["p"] == 1 for r in R) and d["summary"]["slower"] == d["summary"]["faster"] == 0'

# B: the file as written, but kprobe [progs=4]'s units 5 ns higher, base's
# 4 ns lower (the overheads' own bases too, so their shares of them move),
# and raw_tp's (spread over 7 decades) 1 ns higher. What --compare must
# say of each row is worked out here from the units, not taken from the
# compare.
changed() {
	python3 - "$T_TMP/report.json" "$T_TMP/changed.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], "rb"))
shift = {"base": -4, "kprobe": 5, "raw_tp": 1}
for r in d["results"]:
	if r["status"] == "ok":
		u = r["units"]
		u["values"] = [x + shift[r["name"]] for x in u["values"]]
		if u.get("shares"):
			u["base_ns"] = [x + shift["base"] for x in u["base_ns"]]
			u["ns"] = [v + x for v, x in zip(u["values"], u["base_ns"])]
			u["shares"] = [100 * v / x for v, x in zip(u["values"], u["base_ns"])]
json.dump(d, open(sys.argv[2], "w"))
EOF
}
# compared A B OUT: one check per ok row of A: OUT's row of it has the
# difference of the means of B's units and A's, and the verdict that
# shift makes (steady units; raw_tp's are far too spread for any verdict),
# on an overhead row's shares of its base where it has them
compared() {
	python3 - "$@" <<'EOF'
import json, sys
a, b = (json.load(open(f, "rb"))["results"] for f in sys.argv[1:3])
out = json.load(open(sys.argv[3]))
avg = lambda x: sum(x) / len(x)
mean = lambda r: avg(r["units"]["values"])
# 7%, --help's default, and twice the base rows' median shift: single runs
bases = sorted(100 * (mean(rb) - mean(ra)) / mean(ra) for ra, rb in zip(a, b)
	       if ra["status"] == "ok" and ra["name"] == "base")
thr = 7 + 2 * abs((bases[(len(bases) - 1) // 2] + bases[len(bases) // 2]) / 2 if bases else 0)
for ra, rb in zip(a, b):
	if ra["status"] != "ok":
		continue
	p = ",".join("%s=%s" % kv for kv in sorted((ra.get("params") or {}).items()))
	delta = mean(rb) - mean(ra)
	on = "shares" if ra["units"].get("shares") else "values"
	x, y = avg(ra["units"][on]), avg(rb["units"][on])
	spread = max(ra["units"][on]) > 2 * min(ra["units"][on])
	# within the threshold of A's figure, or 1 ns: none
	within = abs(delta) <= 1 or abs(y - x) <= thr / 100 * abs(x)
	verdict = "no significant change" if spread or within else \
		"slower" if y > x else "faster"
	got = [r for r in out["rows"] if (r["name"], r["variant"], r["params"]) ==
	       (ra["name"], ra["variant"], p)]
	ok = len(got) == 1 and abs(got[0]["delta"] - delta) < 1e-6 * max(1, abs(delta)) \
		and got[0]["verdict"] == verdict and \
		got[0]["verdict_on"] == ("overhead_share" if on == "shares" else ra["units"]["quantity"])
	print("%s - compare of a changed copy: %s %s [%s] %+.3f ns %s on its %s, as worked out from the units%s" %
	      ("ok" if ok else "not ok", ra["name"], ra["variant"], p, delta, verdict, on,
	       "" if ok else ": got %s" % got))
EOF
}
set_up "python3 writes the results file with three rows' units shifted" changed
run_capture changed "$PROG" --compare "$T_TMP/report.json" "$T_TMP/changed.json" \
	--fail-on-regression 5 --json "$T_TMP/changed.cmp.json"
expect "against a copy with a row 5 ns (23%) slower, --fail-on-regression 5: exit 1 (rc=$RC)" \
	test "$RC" -eq 1 -a ! -s "$T_TMP/changed.err"
checks_from compared "$T_TMP/report.json" "$T_TMP/changed.json" "$T_TMP/changed.cmp.json"
jexpect "... the failed row listed, its reason escaped" "$T_TMP/changed.cmp.json" \
	'[n["reason"] for n in d["not_compared"] if n["name"] == "kprobe" and n["variant"] == "urandom_read"] == ["A failed (q\"b\\s/ \\x08\\x0c\\x0a\\x0d\\x09 \\x01\\x1f\\x7f \u00b5s \u2713 \U0001f600); B failed (q\"b\\s/ \\x08\\x0c\\x0a\\x0d\\x09 \\x01\\x1f\\x7f \u00b5s \u2713 \U0001f600)"]'
expect "... and the table says so on one line" \
	grep -q '^not compared: kprobe urandom_read: A failed (q"b\\s/ \\x08\\x0c\\x0a\\x0d\\x09 ' "$T_TMP/changed.out"

# --- python3-written files through the compare
gen_pair() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = sys.argv[1]
def doc(rows, cpus=2):
	return {"schema": "bpf-bench/1", "tool": "test_overhead", "version": "t",
		"context": {"kernel_release": "6.1.0", "online_cpus": cpus,
			    "cpus_used": "0-1", "attach_method": None,
			    "count": 1000, "timestamp": "2026-11-30T05:10:00Z"},
		"results": [{"name": n, "variant": "task_rename",
			     "status": "ok", "reason": None,
			     "units": {"quantity": q, "values": v}}
			    for n, q, v in rows]}
base = [60.0, 60.3, 59.7, 60.1, 59.9]
ov = [22.0, 22.4, 21.6, 22.2, 21.8]
json.dump(doc([("base", "ns_per_event", base), ("kprobe", "overhead_ns", ov)]),
	  open(d + "/a.json", "w"))
json.dump(doc([("base", "ns_per_event", base),
	       ("kprobe", "overhead_ns", [x * 1.1 for x in ov])], 4),
	  open(d + "/b.json", "w"), indent=1, ensure_ascii=True)
# a.json's units split over two files, and b.json's over three
for name, parts in (("a", [(0, 3), (3, 5)]), ("b", [(0, 2), (2, 4), (4, 5)])):
	for i, (lo, hi) in enumerate(parts):
		part = json.load(open("%s/%s.json" % (d, name)))
		for r in part["results"]:
			r["units"]["values"] = r["units"]["values"][lo:hi]
		json.dump(part, open("%s/%s%d.json" % (d, name, i + 1), "w"))
EOF
}
set_up "python3 writes a pair of results files, and each split in parts" gen_pair

run_capture cmp "$PROG" --compare "$T_TMP/a.json" "$T_TMP/b.json" --json "$T_TMP/cmp.json"
expect "compare exits 0 (rc=$RC)" test "$RC" -eq 0
jexpect "identical units: no significant change" "$T_TMP/cmp.json" \
	'row("base", "task_rename")["verdict"] == "no significant change"'
jexpect "units 10% higher: slower, +10.00%" "$T_TMP/cmp.json" \
	'row("kprobe", "task_rename")["verdict"] == "slower" and abs(row("kprobe", "task_rename")["delta_pct"] - 10) < 1e-9'
jexpect "CPU count mismatch listed" "$T_TMP/cmp.json" \
	'[(x["key"], x["within"], [v["value"] for v in x["values"]]) for x in d["context_differences"]] == [("online_cpus", None, [2, 4])]'
jexpect "files without shares: no share compared, the verdict on the ns" "$T_TMP/cmp.json" \
	'all(r["share"] is None and r["verdict_on"] == r["quantity"] for r in R)'

# --- the share of the base beside the ns: B's base and overhead both 10%
# higher (a slower machine), so the ns are slower and the share the
# same; shares pooled as the values are, a round's units one observation.
# An overhead row's verdict is its share's where both sides have shares.
# sh_c and sh_d: a base row 10% dearer in B, the overhead 5% (within the
# threshold) over its own base 20% cheaper: the share 31% higher; sh_e:
# the overhead the same over a base 20% cheaper, the share 25% higher
gen_share() {
	python3 - "$T_TMP" <<'EOF2'
import json, sys
d = sys.argv[1]
BASE = (60.0, 60.3, 59.7, 60.1, 59.9, 60.2)
ROUNDS = [0, 0, 1, 1, 2, 3]
def doc(k, shares=True, kb=None, base_row=None):
	base = [x * (k if kb is None else kb) for x in BASE]
	ov = [x * k for x in (22.0, 22.4, 21.6, 22.2, 21.8, 22.1)]
	u = {"quantity": "overhead_ns", "values": ov, "base_ns": base,
	     "rounds": ROUNDS}
	if shares:
		u["shares"] = [100 * o / b for o, b in zip(ov, base)]
	rows = [{"name": "kprobe", "variant": "task_rename",
		 "status": "ok", "reason": None, "units": u}]
	if base_row:
		rows.insert(0, {"name": "base", "variant": "task_rename",
				"status": "ok", "reason": None,
				"units": {"quantity": "ns_per_event", "rounds": ROUNDS,
					  "values": [x * base_row for x in BASE]}})
	return {"schema": "bpf-bench/1", "tool": "test_overhead", "version": "t",
		"context": {"kernel_release": "6.1.0", "online_cpus": 2},
		"results": rows}
json.dump(doc(1), open(d + "/sh_a.json", "w"))
json.dump(doc(1.1), open(d + "/sh_b.json", "w"))
json.dump(doc(1.1, False), open(d + "/sh_old.json", "w"))
bad = doc(1.1)
bad["results"][0]["units"]["shares"].pop()
json.dump(bad, open(d + "/sh_bad.json", "w"))
json.dump(doc(1, base_row=1), open(d + "/sh_c.json", "w"))
json.dump(doc(1.05, kb=0.8, base_row=1.1), open(d + "/sh_d.json", "w"))
json.dump(doc(1, kb=0.8, base_row=1), open(d + "/sh_e.json", "w"))
EOF2
}
set_up "python3 writes results with shares of the base, B 10% slower throughout" gen_share
run_capture share "$PROG" --compare "$T_TMP/sh_a.json" "$T_TMP/sh_b.json" --json "$T_TMP/share.json"
jexpect "share: ns 10% slower, the share the same: no significant change, on the share" "$T_TMP/share.json" \
	'(lambda r: r["verdict"] == "no significant change" and r["verdict_on"] == "overhead_share" and not r["regression"] and abs(r["delta_pct"] - 10) < 1e-9 and r["p"] < 0.001)(row("kprobe", "task_rename"))'
expect "share: the table says the verdict on an overhead row is its share's" \
	grep -q "^Verdicts on overhead rows: their share of the base" "$T_TMP/share.out"
run_capture shareshort "$PROG" --compare "$T_TMP/sh_a.json" "$T_TMP/sh_b.json" --format short
expect "share: --format short says it too, within 72 columns" \
	eval 'grep -q "^verdicts on overhead rows: their share of the base" "$T_TMP/shareshort.out" && ! awk "length > 72" "$T_TMP/shareshort.out" | grep -q .'
run_capture sharecd "$PROG" --compare "$T_TMP/sh_c.json" "$T_TMP/sh_d.json" --fail-on-regression 10 \
	--json "$T_TMP/sharecd.json"
expect "share: overhead 5% dearer, its share 31%, --fail-on-regression 10: exit 1 (rc=$RC)" \
	test "$RC" -eq 1
jexpect "... slower on the share beyond the threshold (27%), a regression; the ns' 5% kept" "$T_TMP/sharecd.json" \
	'(lambda r: r["verdict"] == "slower" and r["verdict_on"] == "overhead_share" and r["regression"] and not r["within_threshold"] and abs(r["threshold_pct"] - 27) < 1e-9 and abs(r["delta_pct"] - 5) < 1e-9 and abs(r["share"]["delta_pct"] - 31.25) < 1e-9 and r["share"]["verdict"] == "slower")(row("kprobe", "task_rename")) and d["summary"]["regressions"] == 1'
jexpect "... the base row judged on its own ns: no share, within the threshold" "$T_TMP/sharecd.json" \
	'(lambda r: r["verdict_on"] == "ns_per_event" and r["share"] is None and r["verdict"] == "no significant change" and r["within_threshold"])(row("base", "task_rename"))'
run_capture sharecd0 "$PROG" --compare "$T_TMP/sh_c.json" "$T_TMP/sh_d.json" --threshold 0 \
	--json "$T_TMP/sharecd0.json"
jexpect "share: --threshold 0: the base row slower on its ns, the overhead on its share" "$T_TMP/sharecd0.json" \
	'row("base", "task_rename")["verdict"] == "slower" and row("base", "task_rename")["verdict_on"] == "ns_per_event" and row("kprobe", "task_rename")["verdict"] == "slower" and row("kprobe", "task_rename")["verdict_on"] == "overhead_share"'
run_capture sharefloor "$PROG" --compare "$T_TMP/sh_c.json" "$T_TMP/sh_e.json" --threshold 0 \
	--json "$T_TMP/sharefloor.json"
jexpect "share: 25% higher, the ns the same (within 1 ns), --threshold 0: no significant change" "$T_TMP/sharefloor.json" \
	'(lambda r: r["verdict"] == "no significant change" and r["verdict_on"] == "overhead_share" and r["within_threshold"] and r["share"]["p"] < 0.001)(row("kprobe", "task_rename"))'
jexpect "share: A's share the mean of its 4 rounds' means, B's the same, no change" "$T_TMP/share.json" \
	'(lambda r, m: r["share"]["a"]["n"] == 4 and abs(r["share"]["a"]["mean"] - m) < 1e-9 and abs(r["share"]["delta"]) < 1e-9 and r["share"]["verdict"] == "no significant change")(row("kprobe", "task_rename"), (lambda s: (sum(s[0:2]) / 2 + sum(s[2:4]) / 2 + s[4] + s[5]) / 4)([100 * o / b for o, b in zip((22.0, 22.4, 21.6, 22.2, 21.8, 22.1), (60.0, 60.3, 59.7, 60.1, 59.9, 60.2))]))'
expect "share: the table has the share's change beside the ns'" \
	grep -qE '^  kprobe task_rename .* \+10% +[+-]0\.0% ' "$T_TMP/share.out"
run_capture shareold "$PROG" --compare "$T_TMP/sh_a.json" "$T_TMP/sh_old.json" --json "$T_TMP/shareold.json"
jexpect "share: B written before shares: no share compared, the verdict on the ns" "$T_TMP/shareold.json" \
	'(lambda r: r["share"] is None and r["verdict"] == "slower" and r["verdict_on"] == "overhead_ns")(row("kprobe", "task_rename"))'
run_capture sharebad "$PROG" --compare "$T_TMP/sh_a.json" "$T_TMP/sh_bad.json"
expect "share: fewer shares than values refused, exit 2 (rc=$RC)" \
	eval '[ "$RC" -eq 2 ] && grep -q "needs \"shares\" as an array of one share per value" "$T_TMP/sharebad.err"'

# base rows moved by 2, 4 and 10%: the compare says their median, 4%
shift_pair() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1] + "/a.json"))
base = d["results"][0]
d["results"] = [dict(base, variant=v) for v in ("task_rename", "getpgid", "fib")] + d["results"][1:]
# s_a2 and s_b2 other runs: the same units but the last's 1e-6 higher (a
# run given twice is refused by its content)
def again(d, name):
	d2 = json.loads(json.dumps(d))
	for r in d2["results"]:
		r["units"]["values"][-1] *= 1 + 1e-6
	json.dump(d2, open(sys.argv[1] + name, "w"))
json.dump(d, open(sys.argv[1] + "/s_a.json", "w"))
again(d, "/s_a2.json")
for r, k in zip(d["results"], (1.02, 1.04, 1.10, 1.13)):
	r["units"] = dict(r["units"], values=[x * k for x in r["units"]["values"]])
json.dump(d, open(sys.argv[1] + "/s_b.json", "w"))
again(d, "/s_b2.json")
d["results"] = d["results"][3:]
json.dump(d, open(sys.argv[1] + "/s_none.json", "w"))
EOF
}
set_up "python3 writes a.json with three base rows, and again with them 2, 4 and 10% dearer, kprobe 13%" shift_pair
run_capture shift "$PROG" --compare "$T_TMP/s_a.json" "$T_TMP/s_b.json" --json "$T_TMP/shift.json"
jexpect "base rows 2, 4 and 10% dearer: base_shift is their median, 4% of 3 rows, taken twice (weight)" "$T_TMP/shift.json" \
	'd["base_shift"]["rows"] == 3 and abs(d["base_shift"]["median_pct"] - 4) < 1e-9 and d["base_shift"]["widens_threshold"] and d["base_shift"]["weight"] == 2'
jexpect "single runs: kprobe 13% dearer is within 7% + twice the bases' 4%, no significant change" "$T_TMP/shift.json" \
	'row("kprobe", "task_rename")["verdict"] == "no significant change" and row("kprobe", "task_rename")["within_threshold"] and abs(row("kprobe", "task_rename")["threshold_pct"] - 15) < 1e-9'
run_capture shift0 "$PROG" --compare "$T_TMP/s_a.json" "$T_TMP/s_b.json" --threshold 0 --json "$T_TMP/shift0.json"
jexpect "--threshold 0: the test alone, not widened: kprobe slower" "$T_TMP/shift0.json" \
	'row("kprobe", "task_rename")["verdict"] == "slower" and row("kprobe", "task_rename")["threshold_pct"] == 0 and not d["base_shift"]["widens_threshold"]'
run_capture shiftrun "$PROG" --compare "$T_TMP/s_a.json" "$T_TMP/s_a2.json" -- "$T_TMP/s_b.json" "$T_TMP/s_b2.json" --json "$T_TMP/shiftrun.json"
jexpect "two runs a side: a run the observation, the threshold not widened" "$T_TMP/shiftrun.json" \
	'row("kprobe", "task_rename")["observation"] == "run" and row("kprobe", "task_rename")["threshold_pct"] == 7 and not d["base_shift"]["widens_threshold"]'
run_capture noshift "$PROG" --compare "$T_TMP/s_none.json" "$T_TMP/s_none.json" --json "$T_TMP/noshift.json"
jexpect "no base row: base_shift null" "$T_TMP/noshift.json" 'd["base_shift"] is None'

# the JIT hardened on one side: its programs cost another thing
jit_pair() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
for v in (0, 2):
	d = json.load(open(sys.argv[1] + "/a.json"))
	d["context"]["bpf_jit_harden"] = v
	json.dump(d, open("%s/jit%d.json" % (sys.argv[1], v), "w"))
EOF
}
set_up "python3 writes a.json again with bpf_jit_harden 0, and with 2" jit_pair
run_capture jit "$PROG" --compare "$T_TMP/jit0.json" "$T_TMP/jit2.json" --json "$T_TMP/jit.json"
jexpect "bpf_jit_harden 0 against 2: listed as a context difference" "$T_TMP/jit.json" \
	'[(x["key"], [v["value"] for v in x["values"]]) for x in d["context_differences"]] == [("bpf_jit_harden", [0, 2])]'

run_capture cmpfail "$PROG" --compare "$T_TMP/a.json" "$T_TMP/b.json" --fail-on-regression 5
expect "--fail-on-regression 5 exits 1 (rc=$RC)" test "$RC" -eq 1
run_capture cmpok "$PROG" --compare "$T_TMP/a.json" "$T_TMP/b.json" --fail-on-regression 15
expect "--fail-on-regression 15 exits 0 (rc=$RC)" test "$RC" -eq 0

# --- several runs a side, pooled: A1 A2 -- B1 B2 B3
run_capture pool "$PROG" --compare "$T_TMP/a1.json" "$T_TMP/a2.json" -- \
	"$T_TMP/b1.json" "$T_TMP/b2.json" "$T_TMP/b3.json" --json "$T_TMP/pool.json"
expect "--compare A1 A2 -- B1 B2 B3: exit 0 (rc=$RC)" test "$RC" -eq 0 -a ! -s "$T_TMP/pool.err"
jexpect "... every file of a side named, in order" "$T_TMP/pool.json" \
	'[f.rsplit("/", 1)[1] for f in d["files"]["A"] + d["files"]["B"]] == ["a1.json", "a2.json", "b1.json", "b2.json", "b3.json"]'
# two runs or more a side: a run is an observation, its units' mean
jexpect "... two files of A and three of B: a run an observation, the mean of each file's units" "$T_TMP/pool.json" \
	'(lambda m: R and all(r["observation"] == "run" and r["a"]["n"] == 2 and r["b"]["n"] == 3 and r["a"]["files"] == 2 and r["b"]["files"] == 3 and abs(r["a"]["mean"] - m("a", 2, r["name"])) < 1e-9 and abs(r["b"]["mean"] - m("b", 3, r["name"])) < 1e-9 for r in R))(lambda side, k, name: sum((lambda u: sum(u) / len(u))([x for x in json.load(open("'"$T_TMP"'/%s%d.json" % (side, i + 1)))["results"] if x["name"] == name][0]["units"]["values"]) for i in range(k)) / k)'
jexpect "... no difference between the sides' files but the CPU count" "$T_TMP/pool.json" \
	'sorted(set((x["key"], x["within"]) for x in d["context_differences"])) == [("online_cpus", None)]'
run_capture poolstdout "$PROG" --compare "$T_TMP/a1.json" "$T_TMP/a2.json" -- \
	"$T_TMP/b.json" --json -
jexpect "--json -: stdout is the JSON alone" "$T_TMP/poolstdout.out" \
	'row("kprobe", "task_rename")["verdict"] == "slower" and row("kprobe", "task_rename")["a"]["files"] == 2'

# --- --ignore-param: a --progs 1 run against a --progs 2 run
gen_progs() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = sys.argv[1]
ov = [22.0, 22.4, 21.6, 22.2, 21.8]
def doc(progs, k):
	return {"schema": "bpf-bench/1", "tool": "test_overhead", "context": {},
		"results": [{"name": "kprobe", "variant": "getpgid",
			     "params": {"progs": progs}, "status": "ok",
			     "units": {"quantity": "overhead_ns",
				       "values": [x * k for x in ov]}}]}
json.dump(doc(1, 1), open(d + "/p1.json", "w"))
json.dump(doc(2, 2), open(d + "/p2.json", "w"))
EOF
}
set_up "python3 writes runs of one and of two programs" gen_progs
run_capture progs "$PROG" --compare "$T_TMP/p1.json" "$T_TMP/p2.json" --json "$T_TMP/progs.json"
jexpect "without --ignore-param: --progs 1 and --progs 2 are other rows" "$T_TMP/progs.json" \
	'not R and sorted(n["kind"] for n in d["not_compared"]) == ["only_in_a", "only_in_b"]'
run_capture ign "$PROG" --compare "$T_TMP/p1.json" "$T_TMP/p2.json" --ignore-param progs \
	--json "$T_TMP/ign.json"
jexpect "--ignore-param progs: one row, twice the overhead: slower by 100%" "$T_TMP/ign.json" \
	'len(R) == 1 and R[0]["params"] == "" and R[0]["verdict"] == "slower" and abs(R[0]["delta_pct"] - 100) < 1e-9 and d["ignored_params"] == ["progs"]'

# --- what --compare refuses: one line, exit 2, nothing on stdout
bad_cmp() {
	local name=$1
	shift
	BIN=$PROG bad_arg "$name" "$@"
}
A=$T_TMP/a.json
B=$T_TMP/b.json
bad_cmp "--compare with one file" --compare "$A"
bad_cmp "--compare with three files and no --" --compare "$A" "$A" "$B"
bad_cmp "--compare A --" --compare "$A" --
bad_cmp "--compare -- B" --compare -- "$B"
bad_cmp "--compare A -- B -- B" --compare "$A" -- "$B" -- "$B"
many=()
for _ in $(seq 65); do many+=("$A"); done
bad_cmp "--compare with 65 files for A" --compare "${many[@]}" -- "$B"
bad_cmp "--compare twice" --compare "$A" "$B" --compare "$A" "$B"
bad_cmp "--compare with one file given twice for A" --compare "$A" "$A" -- "$B"
bad_cmp "--ignore-param without --compare" --ignore-param progs
bad_cmp "--ignore-param with an empty key" --compare "$A" "$B" --ignore-param progs,
# an output that cannot be written is no bad input: 1, not 2
run_capture cmpdir "$PROG" --compare "$A" "$B" --json "$T_TMP"
expect "--compare --json to a directory: exit 1, one line naming it (rc=$RC)" \
	eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$T_TMP/cmpdir.err")" -eq 1 ] && grep -q "cannot write .*: it is a directory" "$T_TMP/cmpdir.err"'

printf '{"schema": "bpf-bench/1",\n "results": [1,]}\n' >"$T_TMP/bad.json"
run_capture cmpbad "$PROG" --compare "$T_TMP/a.json" "$T_TMP/bad.json"
expect "malformed file: an error, not a comparison (rc=$RC)" test "$RC" -eq 2
expect "malformed file: one line with line and column" \
	test "$(grep -c 'bad.json: line 2, column 16' "$T_TMP/cmpbad.err")" -eq 1 \
	-a "$(wc -l <"$T_TMP/cmpbad.err")" -eq 1

# --- params, duplicates, disturbed rows and files from before units
gen_rows() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = sys.argv[1]
ov = [22.0, 22.4, 21.6, 22.2, 21.8]
up = [x * 1.1 for x in ov]
def row(name, values, params=None, status="ok", reason=None, q="overhead_ns"):
	r = {"name": name, "variant": "kprobe", "status": status,
	     "reason": reason, "units": {"quantity": q, "values": values}}
	if params is not None:
		r["params"] = params
	return r
old = {"name": "old", "variant": "kprobe", "status": "ok", "unit": "events/s",
       "samples": [3.6e6, 3.61e6]}
def doc(rows):
	return {"schema": "bpf-bench/1", "tool": "map_perf_test",
		"context": {"online_cpus": 2}, "results": rows}
a = [row("hash", ov, {"entries": 1024, "key_size": 16, "cpus": 2}),
     row("hash", ov, {"entries": 4096, "key_size": 16, "cpus": 2}),
     row("array", ov, {"progs": 4}),
     row("array", ov, {"progs": 4}),
     row("lru", ov), old, row("q", ov), row("few", [22.0])]
b = [row("hash", up, {"cpus": 2, "key_size": 16, "entries": 1024}),
     row("hash", ov, {"entries": 4096, "key_size": 32, "cpus": 2}),
     row("array", ov, {"progs": 4}),
     row("lru", [], status="disturbed", reason="another task ran on CPU 1"),
     old, row("q", ov, q="ns_per_event"), row("few", ov)]
json.dump(doc(a), open(d + "/pa.json", "w"))
json.dump(doc(b), open(d + "/pb.json", "w"), indent=2)
EOF
}
set_up "python3 writes rows with params, duplicates, a disturbed row and one without units" gen_rows

run_capture params "$PROG" --compare "$T_TMP/pa.json" "$T_TMP/pb.json" --json "$T_TMP/params.json"
expect "params compare exits 0 (rc=$RC)" test "$RC" -eq 0
jexpect "params in another order: the same row, slower" "$T_TMP/params.json" \
	'[r["verdict"] for r in R if r["params"] == "cpus=2,entries=1024,key_size=16"] == ["slower"]'
jexpect "same name and variant, other params: only in A and only in B" "$T_TMP/params.json" \
	'sorted((n["params"], n["kind"]) for n in d["not_compared"] if n["name"] == "hash") == [("cpus=2,entries=4096,key_size=16", "only_in_a"), ("cpus=2,entries=4096,key_size=32", "only_in_b")]'
jexpect "a duplicate row is listed once, the first kept" "$T_TMP/params.json" \
	'[(x["side"], x["name"], x["params"], x["kept"], x["ignored"]) for x in d["duplicates"]] == [("A", "array", "progs=4", 2, 1)]'
jexpect "the duplicated row is still compared once" "$T_TMP/params.json" \
	'len(rows("array", "kprobe")) == 1'
jexpect "a disturbed row is listed, without a verdict" "$T_TMP/params.json" \
	'[(n["kind"], n["reason"]) for n in d["not_compared"] if n["name"] == "lru"] == [("not_ok", "A ok, 5 units of overhead_ns from 1 file; B disturbed (another task ran on CPU 1)")]'
jexpect "a row of a file from before units: not compared, no units" "$T_TMP/params.json" \
	'[n["kind"] for n in d["not_compared"] if n["name"] == "old"] == ["no_units"]'
jexpect "overhead_ns in A, ns_per_event in B: not compared" "$T_TMP/params.json" \
	'[n["kind"] for n in d["not_compared"] if n["name"] == "q"] == ["quantity_differs"]'
jexpect "one unit in A: cannot tell" "$T_TMP/params.json" \
	'row("few", "kprobe")["verdict"] == "cannot tell" and row("few", "kprobe")["p"] is None and d["summary"]["cannot_tell"] == 1'

# one_error NAME WANT: an error exit, and one line matching WANT on stderr
one_error() {
	test "$RC" -eq 2 -a ! -s "$T_TMP/$1.out" -a \
		"$(wc -l <"$T_TMP/$1.err")" -eq 1 &&
		grep -q -- "$2" "$T_TMP/$1.err"
}

# --- an ok row whose units.values is empty measured nothing: listed as
# having no units, never pooled as a run of 0 ns (A: one such file and one
# with units; B: two runs). And one run given twice for a side, whatever
# its path: a copy, a pipe of it, is found by its content and refused.
gen_empty() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = sys.argv[1]
ov = [22.0, 22.4, 21.6, 22.2, 21.8]
def doc(values, k=1):
	return {"schema": "bpf-bench/1", "tool": "map_perf_test",
		"context": {"online_cpus": 2},
		"results": [{"name": "e", "variant": "kprobe", "status": "ok",
			     "reason": None,
			     "units": {"quantity": "overhead_ns",
				       "values": [x * k for x in values]}}]}
json.dump(doc([]), open(d + "/ea1.json", "w"))
json.dump(doc(ov), open(d + "/ea2.json", "w"))
json.dump(doc(ov, 1.001), open(d + "/eb1.json", "w"))
json.dump(doc(ov, 1.002), open(d + "/eb2.json", "w"))
EOF
}
set_up "python3 writes a row with no units, and runs of it with units" gen_empty
run_capture empty1 "$PROG" --compare "$T_TMP/ea1.json" "$T_TMP/eb1.json" --json "$T_TMP/empty1.json"
expect "an ok row with units.values [] against one with units: exit 0 (rc=$RC)" \
	test "$RC" -eq 0 -a ! -s "$T_TMP/empty1.err"
jexpect "... listed as having no units, not compared" "$T_TMP/empty1.json" \
	'not R and [(n["kind"], n["reason"]) for n in d["not_compared"]] == [("no_units", "A ok, no units (units.values is empty); B ok, 5 units of overhead_ns from 1 file")]'
expect "... and the table says so" \
	grep -q '^not compared: e kprobe: A ok, no units (units.values is empty); B ok' "$T_TMP/empty1.out"
run_capture empty2 "$PROG" --compare "$T_TMP/ea1.json" "$T_TMP/ea2.json" -- \
	"$T_TMP/eb1.json" "$T_TMP/eb2.json" --json "$T_TMP/empty2.json"
jexpect "two files for A, one without units: A pooled from the other alone, no 0 ns run" "$T_TMP/empty2.json" \
	'(lambda r: r["a"]["files"] == 1 and abs(r["a"]["mean"] - 22.0) < 1e-9 and r["verdict"] == "no significant change")(row("e", "kprobe"))'
jexpect "... the row without units listed as left out of A, saying why" "$T_TMP/empty2.json" \
	'[(x["side"], x["file"].rsplit("/", 1)[1], x["reason"]) for x in d["left_out"]] == [("A", "ea1.json", "ok, no units (units.values is empty)")]'

cp "$T_TMP/ea2.json" "$T_TMP/ea2-copy.json"
run_capture twicecopy "$PROG" --compare "$T_TMP/ea2.json" "$T_TMP/ea2-copy.json" -- "$T_TMP/eb1.json"
expect "a copy of A's run given as another run of A: exit 2, one line naming both (rc=$RC)" \
	one_error twicecopy 'ea2-copy.json: the run of .*ea2.json given twice for A: its units would count twice$'
run_capture twicepipe "$PROG" --compare "$T_TMP/eb1.json" -- "$T_TMP/eb2.json" <(cat "$T_TMP/eb2.json")
expect "a run of B and a pipe of it: exit 2, one line naming both (rc=$RC)" \
	one_error twicepipe '/dev/fd/[0-9]*: the run of .*eb2.json given twice for B: its units would count twice$'
python3 - "$T_TMP/ea2.json" "$T_TMP/ea2-moved.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["context"]["timestamp"] = "2026-12-01T00:00:00Z"
json.dump(d, open(sys.argv[2], "w"), indent=3)
EOF
run_capture twicemoved "$PROG" --compare "$T_TMP/ea2.json" "$T_TMP/ea2-moved.json" -- "$T_TMP/eb1.json"
expect "... and a copy written anew with another timestamp: the same units, refused (rc=$RC)" \
	one_error twicemoved 'ea2-moved.json: the run of .*ea2.json given twice for A'
run_capture tworuns "$PROG" --compare "$T_TMP/eb1.json" "$T_TMP/eb2.json" -- "$T_TMP/ea2.json" \
	--json "$T_TMP/tworuns.json"
expect "two runs that differ in one unit's last digits: pooled (rc=$RC)" \
	test "$RC" -eq 0 -a ! -s "$T_TMP/tworuns.err"
jexpect "... two files of A pooled" "$T_TMP/tworuns.json" 'row("e", "kprobe")["a"]["files"] == 2'

# --- 60,000 rows a side: sorted and merged, not searched row by row (about
# 5 s here; a search row by row, 3.6e9 comparisons, would take minutes:
# the bound is far from both, so that a busy machine does not fail it)
gen_big() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = sys.argv[1]
def doc(k):
	rows = [{"name": "hash%d" % (i % 600), "variant": "kprobe",
		 "params": {"entries": 1 << (i // 600 % 20), "cpus": i // 12000},
		 "status": "ok", "units": {"quantity": "overhead_ns",
		 "values": [22.0 + k * i, 22.1 + k, 21.9 - k]}}
		for i in range(60000)]
	return {"schema": "bpf-bench/1", "context": {}, "results": rows}
json.dump(doc(0), open(d + "/big_a.json", "w"))
b = doc(1)
b["results"].reverse()
json.dump(b, open(d + "/big_b.json", "w"))
EOF
}
set_up "python3 writes two 60,000-row files" gen_big
start=$(date +%s%N)
run_capture big timeout 60 "$PROG" --compare "$T_TMP/big_a.json" "$T_TMP/big_b.json" \
	--json "$T_TMP/big.json"
ms=$((($(date +%s%N) - start) / 1000000))
expect "60,000-row pair compares in under 60 s, not row by row (rc=$RC, ${ms} ms)" test "$RC" -eq 0
jexpect "60,000-row pair: every row matched, none only in one" "$T_TMP/big.json" \
	'len(R) == 60000 and not d["not_compared"] and not d["duplicates"]'

# --- hostile files: each is refused in one line, or printed escaped
gen_hostile() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = sys.argv[1]
def doc(rows, schema="bpf-bench/1"):
	return {"schema": schema, "context": {}, "results": rows}
def row(name, n=5, units=5):
	return {"name": name, "variant": "v", "status": "ok",
		"samples": [3.6e6] * n,
		"units": {"quantity": "overhead_ns", "values": [22.0] * units}}
json.dump(doc([row("evil\n\x1b[2J\x1b]0;owned\x07", 513)]),
	  open(d + "/samples.json", "w"))
json.dump(doc([row("evil\n\x1b[2J", units=201)]), open(d + "/units.json", "w"))
json.dump(doc([row("evil\nfake line\x1b[2J"), row("ok")]),
	  open(d + "/esc.json", "w"))
json.dump(doc([row("ok")], "bpf-bench/2\x1b[2J"), open(d + "/schema.json", "w"))
# 15 MiB of valid results file: nine of them are more than 128 MiB
json.dump({"schema": "bpf-bench/1", "context": {"pad": "x" * (15 << 20)},
	   "results": []}, open(d + "/15m.json", "w"))
EOF
}
set_up "python3 writes hostile files" gen_hostile

truncate -s 17M "$T_TMP/huge.json"
run_capture huge "$PROG" --compare "$T_TMP/a.json" "$T_TMP/huge.json"
expect "a 17 MiB file: exit 2, one line naming it and the limit (rc=$RC)" \
	one_error huge 'huge.json: 17825792 bytes, larger than 16 MiB: refused$'

run_capture samples "$PROG" --compare "$T_TMP/a.json" "$T_TMP/samples.json"
expect "513 samples: exit 2, one line naming the row, escaped (rc=$RC)" \
	one_error samples 'samples.json: results\[0\] (evil\\x0a\\x1b\[2J\\x1b\]0;owned\\x07 v): 513 samples, at most 512$'
run_capture units "$PROG" --compare "$T_TMP/a.json" "$T_TMP/units.json"
expect "201 units: exit 2, one line naming the row, escaped (rc=$RC)" \
	one_error units 'units.json: results\[0\] (evil\\x0a\\x1b\[2J v): 201 units, at most 200$'

# nine pipes of 15 MiB: no stat tells their size, the reading does
run_capture total "$PROG" --compare <(cat "$T_TMP/15m.json") <(cat "$T_TMP/15m.json") \
	<(cat "$T_TMP/15m.json") <(cat "$T_TMP/15m.json") -- <(cat "$T_TMP/15m.json") \
	<(cat "$T_TMP/15m.json") <(cat "$T_TMP/15m.json") <(cat "$T_TMP/15m.json") \
	<(cat "$T_TMP/15m.json")
expect "nine 15 MiB files: exit 2, one line, more than 128 MiB in all (rc=$RC)" \
	one_error total 'the files of the compare are larger than 128 MiB together: refused$'
run_capture total8 "$PROG" --compare <(cat "$T_TMP/15m.json") <(cat "$T_TMP/15m.json") \
	<(cat "$T_TMP/15m.json") <(cat "$T_TMP/15m.json") -- <(cat "$T_TMP/15m.json") \
	<(cat "$T_TMP/15m.json") <(cat "$T_TMP/15m.json") <(cat "$T_TMP/15m.json")
expect "... while eight of them, 120 MiB, are read (rc=$RC)" test "$RC" -eq 0

run_capture esc "$PROG" --compare "$T_TMP/esc.json" "$T_TMP/a.json"
expect "a row named with a newline and ESC[2J compares (rc=$RC)" test "$RC" -eq 0
expect "... and is printed escaped on its own line" \
	grep -q '^only in A: evil\\x0afake line\\x1b\[2J v$' "$T_TMP/esc.out"
expect "... with no raw control byte in the output" \
	test "$(tr -d '\n' <"$T_TMP/esc.out" | LC_ALL=C tr -d '\040-\176\200-\377' | wc -c)" -eq 0
expect "... and no line of its own" \
	test "$(grep -c '^fake line' "$T_TMP/esc.out")" -eq 0

run_capture schema "$PROG" --compare "$T_TMP/a.json" "$T_TMP/schema.json"
expect "wrong schema: exit 2, one line, escaped (rc=$RC)" \
	one_error schema '"schema" is "bpf-bench/2\\x1b\[2J", expected "bpf-bench/1"$'

printf '{"schema": "bpf-bench/1", "context": {},\n "results": [{"name": "a" "v"}]}\n' >"$T_TMP/invalid.json"
run_capture invalid "$PROG" --compare "$T_TMP/invalid.json" "$T_TMP/a.json"
expect "invalid JSON: exit 2, one line with line and column (rc=$RC)" \
	one_error invalid 'invalid.json: line 2, column 29: .}. expected near ."v".$'

# map_perf_test's --compare is the same code: the same verdicts
if [ -x ./map_perf_test ]; then
	run_capture mapcmp ./map_perf_test --compare "$T_TMP/pa.json" "$T_TMP/pb.json" \
		--json "$T_TMP/mapcmp.json"
	expect "map_perf_test --compare: the same JSON as test_overhead's (rc=$RC)" \
		cmp -s "$T_TMP/mapcmp.json" "$T_TMP/params.json"
else
	skip "map_perf_test is not built: its compare not tested"
fi

finish
