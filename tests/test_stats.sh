#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Statistics, JSON and compare: the unit checks of build/dynamic/stats_test
# (built by make all), then the writer's output read by python3's json and
# python3-written files read by the compare. Builds nothing itself.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=./build/dynamic/stats_test

if [ ! -x "$BIN" ]; then
	fail "$BIN is missing: run make first"
	finish
	exit
fi

# the unit checks print their own ok/not ok lines; count them as ours
out=$("$BIN")
rc=$?
echo "$out"
T_PASS=$((T_PASS + $(grep -c '^ok - ' <<<"$out")))
T_FAIL=$((T_FAIL + $(grep -c '^not ok' <<<"$out")))
expect "stats_test exits 0 (rc=$rc)" test "$rc" -eq 0

if ! command -v python3 >/dev/null; then
	skip "python3 json checks: no python3"
	finish
	exit
fi

# --- the writer's output through a real parser
run_capture emit "$BIN" --emit-json
expect "emit-json exits 0 (rc=$RC)" test "$RC" -eq 0
expect "python3 json reads the writer's output" \
	python3 -c 'import json,sys; json.load(sys.stdin)' <"$T_TMP/emit.out"

# the strings and numbers python3 reads are the ones written
check_emitted() {
	python3 - "$T_TMP/emit.out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], 'rb'))
assert d["schema"] == "bpf-bench/1", d["schema"]
want = "q\"b\\s/ \b\f\n\r\t \x01\x1f\x7f \u00b5s \u2713 \U0001f600"
assert d["tricky"] == want, repr(d["tricky"])
assert d["tenth"] == 0.1 and d["nan"] is None
st = {(r["name"], r["status"]): r for r in d["results"]}
assert st[("base", "ok")]["samples"][0] == 3.6e6
assert st[("fentry", "skipped")]["reason"] == 'no BTF: "x"\n'
assert st[("kprobe", "failed")]["reason"] == want
assert d["context"]["attach_method"] is None
EOF
}
expect "python3 reads back every escape, number, null and status" check_emitted

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
expect "python3 writes a pair of results files" gen_pair

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

finish
