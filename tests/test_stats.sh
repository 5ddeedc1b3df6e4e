#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Statistics, command-line parsing and compare: the unit checks of
# build/dynamic/stats_test (built by make all), then a results file written
# as bench_report.c writes one, read by python3's json and by the compare,
# and python3-written files read by the compare: params, duplicates, disturbed
# rows, a 60,000-row pair, and files built to hurt (too big, too many
# samples, escape sequences in names). Builds nothing itself; needs no root
# and no BPF.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./build/dynamic/stats_test

if [ ! -x "$BIN" ]; then
	fail "$BIN is missing: run make first"
	finish
	exit
fi

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

# --- a results file as bench_report.c writes it, through a real parser
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
assert base["samples"] == [3.60e6, 3.62e6, 3.58e6, 3.61e6, 3.59e6], base["samples"]
assert base["mean"] == 3.6e6 and base["reason"] is None
assert base["overhead_ns"] is None and base["outliers"] == [False] * 5
odd = st[("raw_tp", "task_rename", "ok")]["samples"]
assert odd == [0.1, 1 / 3, 3.6e6, 2.5e-7, 123.456], odd
assert st[("kprobe", "task_rename", "ok")]["params"] == {"progs": 4}
assert st[("fentry", "task_rename", "skipped")]["reason"] == 'no BTF: "x"\n'
assert st[("kprobe", "urandom_read", "failed")]["reason"] == want
assert d["context"]["attach_method"] is None
assert d["context"]["cpu_model"] == 'Test CPU "quoted" @ 2.0GHz'
EOF
}
expect "python3 reads back every escape, number, null, param and status" check_report

# B: the file as written, but base 10% slower and kprobe [progs=4] 25%
# faster. What --compare must say of each row is worked out here from
# the samples, not taken from the compare.
changed() {
	python3 - "$T_TMP/report.json" "$T_TMP/changed.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], "rb"))
for r in d["results"]:
	if r["status"] == "ok" and r["name"] in ("base", "kprobe"):
		r["samples"] = [x * (0.9 if r["name"] == "base" else 1.25)
				for x in r["samples"]]
json.dump(d, open(sys.argv[2], "w"))
EOF
}
# compared A B OUT: one check per ok row of A: OUT's line of it has the
# change of the mean of B's samples against A's, and the verdict that
# change makes (rows of steady samples; raw_tp's are far too noisy for
# any verdict but none)
compared() {
	python3 - "$@" <<'EOF'
import json, re, sys
a, b = (json.load(open(f, "rb"))["results"] for f in sys.argv[1:3])
out = open(sys.argv[3]).read()
for ra, rb in zip(a, b):
	if ra["status"] != "ok":
		continue
	p = ra.get("params")
	label = "%s %s%s" % (ra["name"], ra["variant"], " [progs=%d]" % p["progs"] if p else "")
	delta = (sum(rb["samples"]) / sum(ra["samples"]) - 1) * 100
	noisy = max(ra["samples"]) > 2 * min(ra["samples"])
	verdict = "no significant change" if noisy or abs(delta) < 0.005 else \
		"slower" if delta < 0 else "faster"
	line = r"^  %s +%s%s .* %s +\S+ +%s( \(|$)" % (
		ra["name"], ra["variant"], re.escape(" [progs=%d]" % p["progs"]) if p else "",
		re.escape("%+.2f%%" % delta), verdict)
	ok = re.search(line, out, re.M)
	print("%s - compare of a changed copy: %s %+.2f%% %s, as worked out from the samples" %
	      ("ok" if ok else "not ok", label, delta, verdict))
EOF
}
set_up "python3 writes the results file with two rows changed" changed
run_capture changed "$BIN" --compare "$T_TMP/report.json" "$T_TMP/changed.json" 5
expect "against a copy with a row 10% slower, --fail-on-regression 5: exit 1 (rc=$RC)" \
	test "$RC" -eq 1 -a ! -s "$T_TMP/changed.err"
checks_from compared "$T_TMP/report.json" "$T_TMP/changed.json" "$T_TMP/changed.out"
expect "... the failed row's reason printed escaped, on one line" \
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
			     "status": "ok", "reason": None, "unit": "events/s",
			     "samples": s} for n, s in rows]}
base = [3.60e6, 3.62e6, 3.58e6, 3.61e6, 3.59e6]
slow = [x * 0.9 for x in base]
json.dump(doc([("base", base), ("kprobe", base)]), open(d + "/a.json", "w"))
json.dump(doc([("base", base), ("kprobe", slow)], 4),
	  open(d + "/b.json", "w"), indent=1, ensure_ascii=True)
EOF
}
set_up "python3 writes a pair of results files" gen_pair

run_capture cmp "$BIN" --compare "$T_TMP/a.json" "$T_TMP/b.json"
expect "compare exits 0 (rc=$RC)" test "$RC" -eq 0
expect "identical rows: no significant change" \
	grep -qE '^  base +task_rename .* no significant change$' "$T_TMP/cmp.out"
expect "10% fewer events/s: slower" \
	grep -qE '^  kprobe +task_rename .*-10\.00%.* slower$' "$T_TMP/cmp.out"
expect "CPU count mismatch named" \
	grep -q '^context differs: online_cpus: A 2, B 4$' "$T_TMP/cmp.out"

run_capture cmpfail "$BIN" --compare "$T_TMP/a.json" "$T_TMP/b.json" 5
expect "--fail-on-regression 5 exits 1 (rc=$RC)" test "$RC" -eq 1
run_capture cmpok "$BIN" --compare "$T_TMP/a.json" "$T_TMP/b.json" 15
expect "--fail-on-regression 15 exits 0 (rc=$RC)" test "$RC" -eq 0

printf '{"schema": "bpf-bench/1",\n "results": [1,]}\n' >"$T_TMP/bad.json"
run_capture cmpbad "$BIN" --compare "$T_TMP/a.json" "$T_TMP/bad.json"
expect "malformed file: an error, not a comparison (rc=$RC)" test "$RC" -ne 0 -a "$RC" -ne 1
expect "malformed file: one line with line and column" \
	test "$(grep -c 'bad.json: line 2, column 16' "$T_TMP/cmpbad.err")" -eq 1 \
	-a "$(wc -l <"$T_TMP/cmpbad.err")" -eq 1


# --- params, duplicates and disturbed rows
gen_rows() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = sys.argv[1]
base = [3.60e6, 3.62e6, 3.58e6, 3.61e6, 3.59e6]
slow = [x * 0.9 for x in base]
def row(name, samples, params=None, status="ok", reason=None):
	r = {"name": name, "variant": "kprobe", "status": status,
	     "reason": reason, "unit": "events/s", "samples": samples}
	if params is not None:
		r["params"] = params
	return r
def doc(rows):
	return {"schema": "bpf-bench/1", "tool": "map_perf_test",
		"context": {"online_cpus": 2}, "results": rows}
a = [row("hash", base, {"entries": 1024, "key_size": 16, "cpus": 2}),
     row("hash", base, {"entries": 4096, "key_size": 16, "cpus": 2}),
     row("array", base, {"progs": 4}),
     row("array", base, {"progs": 4}),
     row("lru", base)]
b = [row("hash", slow, {"cpus": 2, "key_size": 16, "entries": 1024}),
     row("hash", base, {"entries": 4096, "key_size": 32, "cpus": 2}),
     row("array", base, {"progs": 4}),
     row("lru", [], status="disturbed", reason="another task ran on CPU 1")]
json.dump(doc(a), open(d + "/pa.json", "w"))
json.dump(doc(b), open(d + "/pb.json", "w"), indent=2)
EOF
}
set_up "python3 writes rows with params, duplicates and a disturbed row" gen_rows

run_capture params "$BIN" --compare "$T_TMP/pa.json" "$T_TMP/pb.json"
expect "params compare exits 0 (rc=$RC)" test "$RC" -eq 0
expect "params in another order: the same row, slower" \
	grep -qE '^  hash +kprobe \[cpus=2,entries=1024,key_size=16\] .*-10\.00%.* slower$' "$T_TMP/params.out"
expect "same name and variant, other params: only in A and only in B" \
	grep -q 'only in A .*: hash kprobe \[cpus=2,entries=4096,key_size=16\]$' "$T_TMP/params.out"
expect "... and the other one only in B" \
	grep -q 'only in B .*: hash kprobe \[cpus=2,entries=4096,key_size=32\]$' "$T_TMP/params.out"
expect "a duplicate row is noted once" \
	test "$(grep -c '^duplicate in A .*: array kprobe \[progs=4\]: results\[2\] kept, 1 later row ignored$' "$T_TMP/params.out")" -eq 1
expect "the duplicated row is still compared once" \
	test "$(grep -cE '^  array +kprobe \[progs=4\] ' "$T_TMP/params.out")" -eq 1
expect "a disturbed row is listed, without a verdict" \
	grep -q '^not compared: lru kprobe: A ok in events/s, B disturbed (another task ran on CPU 1)$' "$T_TMP/params.out"

# --- 60,000 rows a side: sorted and merged, not searched row by row
gen_big() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = sys.argv[1]
def doc(k):
	rows = [{"name": "hash%d" % (i % 600), "variant": "kprobe",
		 "params": {"entries": 1 << (i // 600 % 20), "cpus": i // 12000},
		 "status": "ok", "unit": "events/s",
		 "samples": [3.6e6 + k * i, 3.61e6 + k, 3.59e6 - k]}
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
run_capture big timeout 10 "$BIN" --compare "$T_TMP/big_a.json" "$T_TMP/big_b.json"
ms=$((($(date +%s%N) - start) / 1000000))
expect "60,000-row pair compares in under 10 s (rc=$RC, ${ms} ms)" test "$RC" -eq 0
expect "60,000-row pair: every row matched, none only in one" \
	test "$(grep -c '^  hash' "$T_TMP/big.out")" -eq 60000 -a \
	"$(grep -c '^only in' "$T_TMP/big.out")" -eq 0

# --- hostile files: each is refused in one line, or printed escaped
gen_hostile() {
	python3 - "$T_TMP" <<'EOF'
import json, sys
d = sys.argv[1]
def doc(rows, schema="bpf-bench/1"):
	return {"schema": schema, "context": {}, "results": rows}
def row(name, n=5):
	return {"name": name, "variant": "v", "status": "ok",
		"unit": "events/s", "samples": [3.6e6] * n}
json.dump(doc([row("evil\n\x1b[2J\x1b]0;owned\x07", 101)]),
	  open(d + "/samples.json", "w"))
json.dump(doc([row("evil\nfake line\x1b[2J"), row("ok")]),
	  open(d + "/esc.json", "w"))
json.dump(doc([row("ok")], "bpf-bench/2\x1b[2J"), open(d + "/schema.json", "w"))
EOF
}
set_up "python3 writes hostile files" gen_hostile

# one_error NAME WANT: an error exit, and one line matching WANT on stderr
one_error() {
	test "$RC" -eq 2 -a ! -s "$T_TMP/$1.out" -a \
		"$(wc -l <"$T_TMP/$1.err")" -eq 1 &&
		grep -q -- "$2" "$T_TMP/$1.err"
}

truncate -s 17M "$T_TMP/huge.json"
run_capture huge "$BIN" --compare "$T_TMP/a.json" "$T_TMP/huge.json"
expect "a 17 MiB file: exit 2, one line naming it and the limit (rc=$RC)" \
	one_error huge 'huge.json: 17825792 bytes, larger than 16 MiB: refused$'

run_capture samples "$BIN" --compare "$T_TMP/a.json" "$T_TMP/samples.json"
expect "101 samples: exit 2, one line naming the row, escaped (rc=$RC)" \
	one_error samples 'samples.json: results\[0\] (evil\\x0a\\x1b\[2J\\x1b\]0;owned\\x07 v): 101 samples, at most 100$'

run_capture esc "$BIN" --compare "$T_TMP/esc.json" "$T_TMP/a.json"
expect "a row named with a newline and ESC[2J compares (rc=$RC)" test "$RC" -eq 0
expect "... and is printed escaped on its own line" \
	grep -q '^only in A .*: evil\\x0afake line\\x1b\[2J v$' "$T_TMP/esc.out"
expect "... with no raw control byte in the output" \
	test "$(tr -d '\n' <"$T_TMP/esc.out" | LC_ALL=C tr -d '\040-\176\200-\377' | wc -c)" -eq 0
expect "... and no line of its own" \
	test "$(grep -c '^fake line' "$T_TMP/esc.out")" -eq 0

run_capture schema "$BIN" --compare "$T_TMP/a.json" "$T_TMP/schema.json"
expect "wrong schema: exit 2, one line, escaped (rc=$RC)" \
	one_error schema '"schema" is "bpf-bench/2\\x1b\[2J", expected "bpf-bench/1"$'

printf '{"schema": "bpf-bench/1", "context": {},\n "results": [{"name": "a" "v"}]}\n' >"$T_TMP/invalid.json"
run_capture invalid "$BIN" --compare "$T_TMP/invalid.json" "$T_TMP/a.json"
expect "invalid JSON: exit 2, one line with line and column (rc=$RC)" \
	one_error invalid 'invalid.json: line 2, column 29: .} expected near

# the programs' own --compare takes the same path to exit 2
PROG=./test_overhead
if [ -x "$PROG" ]; then
	run_capture prog_huge "$PROG" --compare "$T_TMP/a.json" "$T_TMP/huge.json"
	expect "test_overhead --compare of a 17 MiB file: exit 2, one line (rc=$RC)" \
		one_error prog_huge 'larger than 16 MiB: refused$'
	run_capture prog_params "$PROG" --compare "$T_TMP/pa.json" "$T_TMP/pb.json"
	expect "test_overhead --compare with params: the same table (rc=$RC)" \
		cmp -s "$T_TMP/prog_params.out" "$T_TMP/params.out"
else
	skip "test_overhead is not built: program-level compare not tested"
fi

finish
