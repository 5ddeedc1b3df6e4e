#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fleets' formats (Documentation/fleet.rst), offline: the LAVA test
# definition held to Debian's lava-common schema (and the job of
# fleet.rst to its job schema), its run script to shellcheck; the run
# script over real runs with a stub lava-test-case on PATH (its exact
# arguments) and without one (the signal lines), result.txt, a FAILED row
# from the test build's fault, a disturbed one from a doctored copy, a
# run that wrote nothing, bad usage, SIGTERM; the KCIDB report of real
# runs held to kcidb-io v5.3's rules (tests/kcidb.py), and copies broken
# in each rule failing them. Never an absolute figure.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

FLEET=$TOP/tools/bench-fleet.py
RUNSH=$TOP/tools/lava/run.sh
YAML=$TOP/tools/lava/bpf-overhead-bench.yaml
# lava-common is Debian's (make deps): its python, not a version manager's
DEBPY=/usr/bin/python3
export TMPDIR=$T_TMP/tmpdir
mkdir -p "$TMPDIR" "$T_TMP/stub"
# a stub lava-test-case: each call's arguments, NUL-ended, a call a line
cat >"$T_TMP/stub/lava-test-case" <<EOF
#!/bin/sh
printf '%s\\0' "\$@" >>"$T_TMP/calls"
echo >>"$T_TMP/calls"
EOF
chmod +x "$T_TMP/stub/lava-test-case"

# expected_cases JSON: what bench-fleet must report of the run's rows, one
# case a line, "NAME RESULT [MEASUREMENT ns]": worked out here from the
# rows' statuses and figures, as Documentation/fleet.rst says them
expected_cases() {
	python3 - "$1" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
	name = ".".join(re.sub(r"[^A-Za-z0-9_-]", "_", str(p)) for p in
			[d["tool"], r["name"], r["variant"]] +
			["%s_%s" % kv for kv in (r.get("params") or {}).items()])
	res = {"ok": "pass", "failed": "fail"}.get(r["status"], "skip")
	fig = ""
	if r["status"] == "ok":
		if r.get("ns_per_op"):
			fig = " %.2f ns" % r["ns_per_op"]["value"]
		elif r.get("overhead_ns"):
			fig = " %.1f ns" % r["overhead_ns"]["value"]
		else:
			fig = " %.1f ns" % r["units"]["mean"]
	print(name + " " + res + fig)
EOF
}

# calls_as_lines: the stub's calls as result.txt's lines (NAME RESULT
# [MEASUREMENT UNITS]), when each is NAME --result R [--measurement M
# --units U] exactly
calls_as_lines() {
	python3 - "$T_TMP/calls" <<'EOF'
import sys
for call in open(sys.argv[1], "rb").read().split(b"\0\n"):
	if not call:
		continue
	a = call.decode().split("\0")
	if len(a) == 3 and a[1] == "--result":
		print(a[0], a[2])
	elif len(a) == 7 and a[1] == "--result" and a[3] == "--measurement" and a[5] == "--units":
		print(a[0], a[2], a[4], a[6])
	else:
		print("bad call:", a)
EOF
}

# signals_as_lines FILE: the <LAVA_SIGNAL_TESTCASE ...> lines of FILE as
# result.txt's
signals_as_lines() {
	sed -n 's/^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=\([^ ]*\) RESULT=\([a-z]*\)\( MEASUREMENT=\([^ ]*\) UNITS=\([^ >]*\)\)\{0,1\}>$/\1 \2 \4 \5/p' "$1" |
		sed 's/ *$//'
}

# lava_run NAME [PATH_PREFIX] ARGS...: run.sh ARGS, watched as the tools'
# runs are, result.txt in $T_TMP/NAME.out.d, the run's --json kept as
# $T_TMP/NAME.json
lava_run() {
	local name=$1
	shift
	rm -f "$T_TMP/calls"
	BIN=$RUNSH run_bg "$name" -o "$T_TMP/$name.d" -j "$T_TMP/$name.json" "$@"
	run_end "$name"
	cleanup_checked "$name"
}

sec_yaml() {
	if ! $DEBPY -c 'import lava_common' 2>/dev/null; then
		fail "lava-common is installed: make deps (tools/install-deps.sh check)"
		return
	fi
	expect "the test definition is valid by lava-common's schema (lava_common.schemas.test.testdef)" \
		$DEBPY -c 'import sys, yaml
from lava_common.schemas.test.testdef import validate
validate(yaml.safe_load(open(sys.argv[1])))' "$YAML"
	sed 's/^  format: .*/  format: Lava-Test Test Definition 2.0/' "$YAML" >"$T_TMP/bad.yaml"
	expect "lava-common's schema refuses a definition of another format: the check bites" \
		eval '! $DEBPY -c "import sys, yaml
from lava_common.schemas.test.testdef import validate
validate(yaml.safe_load(open(sys.argv[1])))" "$T_TMP/bad.yaml" 2>/dev/null'
	expect "the definition's steps run run.sh with each of its params" \
		$DEBPY -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
steps = " ".join(d["run"]["steps"])
sys.exit(not ("./run.sh" in steps and d["params"] and
	      all("${%s}" % p in steps for p in d["params"])))' "$YAML"
	# fleet.rst's job, as a lab would be given it: valid by LAVA's job
	# schema, its definition the repository's file
	expect "Documentation/fleet.rst's LAVA job is valid by lava-common's job schema, and names the definition's path in the tree" \
		$DEBPY -c 'import re, sys, os, yaml
from lava_common.schemas import validate
text = open("Documentation/fleet.rst").read()
m = re.search(r"\n\.\. code-block:: yaml\n\n((?:    .*\n|\n)+)", text)
job = yaml.safe_load(re.sub(r"(?m)^    ", "", m.group(1)))
validate(job)
defs = [d for a in job["actions"] if "test" in a for d in a["test"]["definitions"]]
sys.exit(not (defs and all(os.path.isfile(d["path"]) for d in defs)))'
	expect "shellcheck tools/lava/run.sh" shellcheck "$RUNSH"
}

sec_lava() {
	local n
	# a real run, lava-test-case on PATH
	PATH=$T_TMP/stub:$PATH lava_run lava -d "$TOP" -r 1 -s "-m base,raw_tp,kprobe -e getpgid"
	set_up "run.sh wrote the run's results" test -s "$T_TMP/lava.json" || return
	expected_cases "$T_TMP/lava.json" >"$T_TMP/lava.want"
	calls_as_lines >"$T_TMP/lava.calls"
	expect "run.sh, lava-test-case on PATH: exit 0 (rc=$RC), one call a row, its exact arguments" \
		eval '[ "$RC" -eq 0 ] && diff "$T_TMP/lava.want" "$T_TMP/lava.calls"'
	expect "run.sh: output/result.txt has Linaro's lines, NAME RESULT [MEASUREMENT UNITS]" \
		diff "$T_TMP/lava.want" "$T_TMP/lava.d/result.txt"
	if J "$T_TMP/lava.json" 'row("raw_tp", "getpgid")["status"] == "ok"'; then
		expect "run.sh: an ok row passes with its measurement in ns" \
			grep -qx "test_overhead.raw_tp.getpgid pass -\{0,1\}[0-9]*\.[0-9] ns" "$T_TMP/lava.calls"
	else
		skip "an ok row's measurement: raw_tp getpgid was disturbed on this busy machine"
	fi
	expect "run.sh: a skipped row skips without a measurement" \
		eval '[ "$KPROBES_OFF" = 0 ] || grep -qx "test_overhead.kprobe.getpgid skip" "$T_TMP/lava.calls"'
	if [ "$KPROBES_OFF" = 1 ]; then
		expect "run.sh: a skipped row's reason printed on the line before its case" \
			grep -qx "# test_overhead.kprobe.getpgid: skip: kernel built without CONFIG_KPROBES" "$T_TMP/lava.out"
	else
		skip "a skipped row's reason: this kernel has kprobes"
	fi
	expect "run.sh: nothing left in TMPDIR, nothing but result.txt in output/" \
		eval '[ -z "$(ls -A "$TMPDIR")" ] && [ "$(ls -A "$T_TMP/lava.d")" = result.txt ]'

	# the same file again, no lava-test-case: the signal lines
	env PATH="/usr/bin:/bin" $DEBPY "$FLEET" lava -o "$T_TMP/sig.d" "$T_TMP/lava.json" >"$T_TMP/sig.out"
	signals_as_lines "$T_TMP/sig.out" >"$T_TMP/sig.lines"
	expect "no lava-test-case on PATH: a <LAVA_SIGNAL_TESTCASE TEST_CASE_ID= RESULT= [MEASUREMENT= UNITS=]> line a row, the same cases" \
		eval 'diff "$T_TMP/lava.want" "$T_TMP/sig.lines" &&
			[ "$(grep -c "^<LAVA_SIGNAL" "$T_TMP/sig.out")" -eq "$(wc -l <"$T_TMP/lava.want")" ]'

	# map_perf_test: ns per map operation
	PATH=$T_TMP/stub:$PATH lava_run maps -p map_perf_test -d "$TOP" -r 1 -s "-t hash_lookup -a raw_tp"
	expected_cases "$T_TMP/maps.json" >"$T_TMP/maps.want"
	calls_as_lines >"$T_TMP/maps.calls"
	expect "run.sh -p map_perf_test: exit 0 (rc=$RC), one call a row, its exact arguments" \
		eval '[ "$RC" -eq 0 ] && diff "$T_TMP/maps.want" "$T_TMP/maps.calls"'
	if J "$T_TMP/maps.json" 'row("hash_lookup", "raw_tp")["status"] == "ok"'; then
		expect "run.sh -p map_perf_test: hash_lookup's measurement its ns per operation, two decimals" \
			grep -qx "map_perf_test.hash_lookup.raw_tp pass [0-9]*\.[0-9][0-9] ns" "$T_TMP/maps.calls"
	else
		skip "hash_lookup's ns per operation: the row was disturbed on this busy machine"
	fi

	# a FAILED row: the test build's fault
	if need_testing; then
		BENCH_TEST_FAULT=miss-odd PATH=$T_TMP/stub:$PATH lava_run failed \
			-d "$TESTING" -r 1 -s "-m base,raw_tp -e getpgid"
		calls_as_lines >"$T_TMP/failed.calls"
		expect "a FAILED row (miss-odd): fail, no measurement, its reason printed before" \
			eval 'grep -qx "test_overhead.raw_tp.getpgid fail" "$T_TMP/failed.calls" &&
				grep -q "^# test_overhead.raw_tp.getpgid: fail: ." "$T_TMP/failed.out"'
	fi

	# a disturbed row, from a doctored copy that keeps its figures
	python3 - "$T_TMP/lava.json" "$T_TMP/dist.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
	if r["name"] == "raw_tp":
		r["status"], r["reason"] = "disturbed", "a worker was preempted\nin 3 samples"
json.dump(d, open(sys.argv[2], "w"))
EOF
	rm -f "$T_TMP/calls"
	PATH=$T_TMP/stub:$PATH $DEBPY "$FLEET" lava -o "$T_TMP/dist.d" "$T_TMP/dist.json" >"$T_TMP/dist.out"
	calls_as_lines >"$T_TMP/dist.calls"
	expect "a disturbed row: skip, never a measurement, 'disturbed: reason' on one line before it" \
		eval 'grep -qx "test_overhead.raw_tp.getpgid skip" "$T_TMP/dist.calls" &&
			grep -qx "test_overhead.raw_tp.getpgid skip" "$T_TMP/dist.d/result.txt" &&
			grep -qx "# test_overhead.raw_tp.getpgid: skip: disturbed: a worker was preempted in 3 samples" "$T_TMP/dist.out"'

	# names: [A-Za-z0-9_.-], a row's params in it, two rows never one
	python3 - "$T_TMP/lava.json" "$T_TMP/names.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
d["results"] = [dict(r, name="uprobe.s", variant="uprobe-push", params={"entries": 1000, "key_size": 16}),
		dict(r, name="a.b", variant="x"), dict(r, name="a_b", variant="x")]
json.dump(d, open(sys.argv[2], "w"))
EOF
	env PATH="/usr/bin:/bin" $DEBPY "$FLEET" lava -o "$T_TMP/names.d" "$T_TMP/names.json" >/dev/null
	expect "names: test_overhead.uprobe_s.uprobe-push.entries_1000.key_size_16 for uprobe.s [entries=1000,key_size=16]" \
		grep -q "^test_overhead\.uprobe_s\.uprobe-push\.entries_1000\.key_size_16 " "$T_TMP/names.d/result.txt"
	expect "names: two rows that would share one (a.b, a_b) do not" \
		test "$(cut -d' ' -f1 "$T_TMP/names.d/result.txt" | sort -u | wc -l)" -eq 3
	expect "names: [A-Za-z0-9_.-] only, in every case reported here" \
		eval '! cat "$T_TMP"/*.d/result.txt | cut -d" " -f1 | grep -q "[^A-Za-z0-9_.-]"'

	# a run that wrote no results: one failed case, the program's
	PATH=$T_TMP/stub:$PATH lava_run none -d "$TOP" -s "-m nosuch"
	# shellcheck disable=SC2034 # read in the eval below
	n=$(calls_as_lines)
	expect "a run that wrote nothing (a bad selection): exit 1 (rc=$RC), one case, 'test_overhead --result fail', its reason printed" \
		eval '[ "$RC" -eq 1 ] && [ "$n" = "test_overhead fail" ] &&
			grep -q "^# test_overhead: fail: exit 2, no results: .*nosuch" "$T_TMP/none.out" &&
			[ ! -e "$T_TMP/none.json" ]'
	for bad in "-p bpftool" "-r 0" "-r x" "-d $T_TMP/nowhere" "extra"; do
		# shellcheck disable=SC2086
		run_capture usage "$RUNSH" $bad
		expect "run.sh $bad: exit 2, one line, no case (rc=$RC)" \
			eval '[ "$RC" -eq 2 ] && [ "$(wc -l <"$T_TMP/usage.err")" -eq 1 ] && [ ! -s "$T_TMP/usage.out" ]'
	done

	# SIGTERM while the program runs: 143, the run gone, nothing left
	rm -f "$T_TMP/calls"
	PATH=$T_TMP/stub:$PATH BIN=$RUNSH run_bg term -o "$T_TMP/term.d" -d "$TOP" -r 3 \
		-s "-m base,raw_tp -e getpgid -n 2000000"
	started term
	for _ in $(seq 100); do
		[ -n "$(pgrep -P "$PID")" ] && break
		sleep 0.05
	done
	sleep 0.5
	kill -TERM "$PID"
	ends_within 30
	run_end term
	cleanup_checked term
	echo "# calls: $(ls "$T_TMP/calls" 2>&1), output: $(ls -A "$T_TMP/term.d" 2>&1), TMPDIR: $(ls -A "$TMPDIR")"
	expect "run.sh, SIGTERM mid-run: exit 143 (rc=$RC), no case, no result.txt, nothing in TMPDIR" \
		eval '[ "$RC" -eq 143 ] && [ ! -e "$T_TMP/calls" ] && [ ! -e "$T_TMP/term.d" ] && [ -z "$(ls -A "$TMPDIR")" ]'
}

# kcidb_fails NAME RULE PYTHON: a copy of the good report changed by
# PYTHON (over r, the report) fails tests/kcidb.py naming RULE
kcidb_fails() {
	python3 - "$T_TMP/kc.json" "$T_TMP/kc-$1.json" "$3" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
EOF
	python3 "$TESTS/kcidb.py" "$T_TMP/kc-$1.json" >"$T_TMP/kc-$1.out"
	expect "KCIDB v5.3 rules: $1 fails, naming '$2' (rc=$?: $(head -n 1 "$T_TMP/kc-$1.out"))" \
		grep -q "^$2: " "$T_TMP/kc-$1.out"
}

sec_kcidb() {
	local f=$T_TMP/kcin.json arch
	# one command: the program run for the report
	BIN=$FLEET run_bg kcrun kcidb --origin test_ci -o "$T_TMP/kc.json" -- \
		"$TOP/test_overhead" -m base,raw_tp,kprobe -e getpgid -r 1
	run_end kcrun
	cleanup_checked kcrun
	set_up "bench-fleet kcidb -- test_overhead ...: exit 0 (rc=$RC), the report written" \
		test "$RC" -eq 0 -a -s "$T_TMP/kc.json" || return
	checks_from sh -c 'python3 "$1" "$2" && echo "ok - the report of a real run holds to KCIDB v5.3 rules" ||
		echo "not ok - the report of a real run holds to KCIDB v5.3 rules"' sh "$TESTS/kcidb.py" "$T_TMP/kc.json"
	expect "bench-fleet kcidb: nothing left in TMPDIR" test -z "$(ls -A "$TMPDIR")"
	arch=$(uname -m)
	[ "$arch" != aarch64 ] || arch=arm64
	jexpect "the report: version 5.3, one checkout, one build of the running kernel (its architecture, its release the config name)" \
		"$T_TMP/kc.json" "(d['version'] == {'major': 5, 'minor': 3} and len(d['checkouts']) == 1 and
		len(d['builds']) == 1 and d['builds'][0]['architecture'] == '$arch' and
		d['builds'][0]['config_name'] == '$(uname -r)' and d['builds'][0]['checkout_id'] == d['checkouts'][0]['id'])"
	jexpect "the report: each test's environment names the CPU model, the CPUs used and whether a hypervisor is there" \
		"$T_TMP/kc.json" "bool(d['tests']) and all(isinstance(t['environment']['misc'].get('hypervisor'), bool) and
		bool(t['environment']['misc'].get('cpu_model')) and bool(t['environment']['misc'].get('cpus_used')) for t in d['tests'])"
	jexpect "the report: ids of origin test_ci, paths bpf_overhead.test_overhead.MODE.EVENT" \
		"$T_TMP/kc.json" "all(t['origin'] == 'test_ci' and t['id'].startswith('test_ci:') and t['path'].startswith('bpf_overhead.test_overhead.') for t in d['tests'])"

	# every status, from the real run's file and copies doctored to have
	# a failed and a disturbed row (with its figures kept)
	BIN=./test_overhead run_json kcin -m base,raw_tp,kprobe -e getpgid -r 1
	python3 - "$T_TMP/kcin.json" "$T_TMP/kcall.json" <<'EOF'
import copy, json, sys
d = json.load(open(sys.argv[1]))
rows = d["results"]
raw = [r for r in rows if r["name"] == "raw_tp"][0]
f = copy.deepcopy(raw)
f.update(variant="failedone", status="failed", reason="CPU 1: 3 hits short")
g = copy.deepcopy(raw)
g.update(variant="disturbedone", status="disturbed", reason="preempted")
d["results"] = rows + [f, g]
json.dump(d, open(sys.argv[2], "w"))
EOF
	run_capture kcall $DEBPY "$FLEET" kcidb --origin test_ci "$T_TMP/kcall.json"
	checks_from sh -c 'python3 "$1" "$2" && echo "ok - a report of every status holds to KCIDB v5.3 rules" ||
		echo "not ok - a report of every status holds to KCIDB v5.3 rules"' sh "$TESTS/kcidb.py" "$T_TMP/kcall.out"
	python3 - "$T_TMP/kcall.json" "$T_TMP/kcall.out" >"$T_TMP/kcall.check" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["path"]: x for x in json.load(open(sys.argv[2]))["tests"]}
bad = []
for r in d["results"]:
	x = t.get("bpf_overhead.test_overhead.%s.%s" % (r["name"], r["variant"]))
	want = {"ok": "DONE", "skipped": "SKIP", "failed": "FAIL", "disturbed": "ERROR"}[r["status"]]
	if not x or x["status"] != want:
		bad.append("%s %s: %s" % (r["name"], r["variant"], x and x["status"]))
	elif want == "DONE":
		v = (r.get("overhead_ns") or {}).get("value", r["units"]["mean"])
		if x["number"] != {"value": v, "unit": "ns"} or x["misc"]["verdict"] not in ("ok", "verified") or \
		   "notes" not in x["misc"] or x["misc"]["events"] != r["events"]:
			bad.append("%s %s: number %s misc %s" % (r["name"], r["variant"], x["number"], x["misc"]))
	elif "number" in x or r["reason"] not in x.get("comment", ""):
		bad.append("%s %s: a number, or no reason: %s" % (r["name"], r["variant"], x))
if bad:
	print("; ".join(bad))
EOF
	expect "the report: one test a row, ok DONE with its number in ns and its verdict, counts and notes under misc; skipped SKIP, failed FAIL, disturbed ERROR, each with its reason and no number ($(head -c 300 "$T_TMP/kcall.check"))" \
		test ! -s "$T_TMP/kcall.check"
	cp "$T_TMP/kcall.out" "$T_TMP/kc.json"

	# the rules bite: each broken in a copy
	kcidb_fails "a test without its build_id" required 'del r["tests"][0]["build_id"]'
	kcidb_fails "a build without its checkout_id" required 'del r["builds"][0]["checkout_id"]'
	kcidb_fails "an id without its origin" pattern 'r["tests"][0]["id"] = "no-origin"'
	kcidb_fails "an id of an upper-case origin" pattern 'r["tests"][0]["id"] = "Test_CI:x"'
	kcidb_fails "a status not in the enum (OK)" status 'r["tests"][0]["status"] = "OK"'
	kcidb_fails "an origin of a dash" pattern 'r["tests"][0]["origin"] = "test-ci"'
	kcidb_fails "an id of another origin" id-origin 'r["tests"][0]["id"] = "other_ci:x"'
	kcidb_fails "a path with a dot in a part's place" pattern 'r["tests"][0]["path"] = "bpf_overhead..x"'
	kcidb_fails "a number's prefix neither metric nor binary" prefix 'r["tests"][0]["number"]["prefix"] = "si"'
	kcidb_fails "a property the schema lacks" additional 'r["tests"][0]["figure"] = 1'
	kcidb_fails "a test of a build not in the report" link 'r["tests"][0]["build_id"] = "test_ci:gone"'
	kcidb_fails "DONE without its number" done-number 'del r["tests"][0]["number"]'
	kcidb_fails "version 5.4" version 'r["version"]["minor"] = 4'

	# the tool's own refusals
	echo keep >"$T_TMP/kc-keep.json"
	run_capture badorigin $DEBPY "$FLEET" kcidb --origin My-CI -o "$T_TMP/kc-keep.json" "$T_TMP/kcin.json"
	expect "bench-fleet kcidb --origin My-CI: exit 2, one line naming KCIDB's origins, the output as it was (rc=$RC)" \
		eval '[ "$RC" -eq 2 ] && [ "$(wc -l <"$T_TMP/badorigin.err")" -eq 1 ] &&
			grep -q "a-z0-9_" "$T_TMP/badorigin.err" && [ "$(cat "$T_TMP/kc-keep.json")" = keep ]'
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["schema"] = "other/1"; json.dump(d, open(sys.argv[2], "w"))' \
		"$T_TMP/kcin.json" "$T_TMP/other.json"
	for f in other "$TOP/README.rst"; do
		[ "$f" = other ] && f=$T_TMP/other.json
		run_capture notours $DEBPY "$FLEET" kcidb --origin test_ci "$f"
		expect "bench-fleet kcidb on $(basename "$f"), no run's --json: exit 2, one line (rc=$RC)" \
			eval '[ "$RC" -eq 2 ] && [ "$(wc -l <"$T_TMP/notours.err")" -eq 1 ] && [ ! -s "$T_TMP/notours.out" ]'
	done
	run_capture full $DEBPY "$FLEET" kcidb --origin test_ci -o /dev/full "$T_TMP/kcin.json"
	expect "bench-fleet kcidb -o /dev/full: exit 1, one line (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$T_TMP/full.err")" -eq 1 ]'
}

sections yaml lava kcidb
finish
