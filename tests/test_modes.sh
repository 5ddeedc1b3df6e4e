#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_overhead's attach modes that are not upstream's (kprobe_multi,
# kretprobe_multi, kprobe_session, usdt, lsm, lsm.s, uprobe.s, fentry.s,
# uprobe_multi, uprobe, uretprobe, fmod_ret and any added later: --list
# names them), --progs and --attach-time on the host kernel: real runs
# with small counts, asserted through --json. A row may end "disturbed"
# on a shared machine; it still carries verified counts. Never a rate.
# TEST_OVERHEAD= names another build's binary (make LIBBPF=bookworm's).
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BIN=${TEST_OVERHEAD:-./test_overhead}
N=20000
L=$T_TMP/list.json
EVENTS=task_rename,getpgid,uprobe-nop,usdt-nop
set_up "--list --json" jrun "$BIN" --list --json "$L"
# the modes none of whose rows is upstream's
NEW=$(jget "$L" '",".join(sorted({r["name"] for r in R} - {r["name"] for r in R if r["upstream"]}))')

# jcheck NAME FILE PYTHON: the check passes when PYTHON, given the parsed
# JSON as d and its rows as rows, exits 0; what it prints is shown. It
# calls skip(why) when it had nothing to look at (every row skipped or
# disturbed): a skip, never a pass. verified(r): the row ran, and where
# the run was watched the kernel's count of its programs' runs agrees
# (tests/kernel_runs.py).
jcheck() {
	local name=$1 file=$2 code=$3 out rc
	out=$(python3 - "$file" "$TESTS" 2>&1 <<EOF
import json, os, sys
sys.path.insert(0, sys.argv[2])
import kernel_runs
d = json.load(open(sys.argv[1]))
rows = d["results"]
ids = sys.argv[1][:-5] + ".ids"
runs = kernel_runs.load(ids) if os.path.exists(ids) else None
def fail(msg):
	print(msg)
	sys.exit(1)
def skip(msg):
	print(msg)
	sys.exit(3)
def verified(r):
	if r["status"] not in ("ok", "disturbed") or r["events"] <= 0 or \
	   r["hits"] < r["events"] * r["hits_per_event"]:
		return False
	k = kernel_runs.row(d, r, runs) if isinstance(runs, dict) else None
	return not k or k[0]
$code
EOF
	)
	rc=$?
	case $rc in
	0) pass "$name" ;;
	3) skip "$name: $out" ;;
	*) fail "$name: $out" ;;
	esac
}

config_unset() { zcat /proc/config.gz 2>/dev/null | grep -q "^# $1 is not set"; }
# the kernel's own enum bpf_attach_type has the link type
kernel_has_link() {
	bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null | grep -q "'$1' val="
}

# --- the new modes: verified, or skipped with the kernel's reason
run_json modes -r 1 -n $N -c 1 -m base,$NEW -e $EVENTS
expect "new modes: exit 0, 1 or 3, never 2 (rc=$RC)" test "$RC" -ne 2 -a "$RC" -le 3
jcheck "new modes: every row verified or skipped with a reason" "$T_TMP/modes.json" '
ran = 0
for r in rows:
	if r["name"] == "base":
		continue
	if r["status"] == "skipped":
		if not r["reason"]:
			fail("%s %s skipped without a reason" % (r["name"], r["variant"]))
	elif not verified(r):
		fail("%s %s: %s %s" % (r["name"], r["variant"], r["status"], r["reason"]))
	else:
		ran += 1
	if r["status"] == "failed":
		fail("%s %s failed: %s" % (r["name"], r["variant"], r["reason"]))
if not ran:
	skip("every row was skipped: %s" % "; ".join(sorted({r["reason"] for r in rows if r["name"] != "base"}))[:300])'
jcheck "new modes: every mode has its rows, the ones --list has" "$T_TMP/modes.json" '
listed = json.load(open("'"$L"'"))["rows"]
want = {(l["name"], l["variant"]) for l in listed
	if l["name"] in "base,'"$NEW"'".split(",") and
	l["variant"] in "'"$EVENTS"'".split(",")}
have = {(r["name"], r["variant"]) for r in rows}
if want != have or not {n for n, _ in have} >= set("base,'"$NEW"'".split(",")):
	fail("missing %s, extra %s" % (sorted(want - have), sorted(have - want)))
if ("lsm", "getpgid") in have or ("lsm.s", "getpgid") in have or \
   ("usdt", "task_rename") in have:
	fail("a mode runs an event it does not apply to")'
# the libbpf the binary was built against, from the build: the
# libbpf_version.h of the libbpf the Makefile built it with (LIBBPF=
# bookworm or trixie: build/libbpf/<name>-<arch>/, by the binary's
# directory; else the installed libbpf-dev's). Not from the run's own
# JSON: a wrong version there would be the expectation too.
build_libbpf() {
	local inc=/usr/include name
	name=$(readlink -f "$1" | sed -n 's#^'"$TOP"'/build/\(arm64/\)\{0,1\}\(bookworm\|trixie\)/.*#\2#p')
	[ -z "$name" ] || inc=$TOP/build/libbpf/$name-$(uname -m | sed 's/x86_64/x86/; s/aarch64/arm64/')/include
	awk '$2 == "LIBBPF_MAJOR_VERSION" { M = $3 } $2 == "LIBBPF_MINOR_VERSION" { m = $3 }
		END { if (M != "") print M "." m }' "$inc/bpf/libbpf_version.h"
}
libbpf=$(build_libbpf "$BIN")
IFS=. read -r libbpf_major libbpf_minor <<<"$libbpf"
libbpf_at_least() { [ "$libbpf_major" -gt "$1" ] || { [ "$libbpf_major" -eq "$1" ] && [ "$libbpf_minor" -ge "$2" ]; }; }
set_up "the build's libbpf version, from its libbpf_version.h: '$libbpf'" test -n "$libbpf"
jexpect "context.libbpf_version is the build's libbpf $libbpf (or says it was built against it)" "$T_TMP/modes.json" \
	'c["libbpf_version"] == "'"$libbpf"'" or c["libbpf_version"].endswith("(built against '"$libbpf"')")'
expect "the summary names the kernel and libbpf $libbpf" \
	grep -qE "^Summary: .*, kernel $(uname -r | sed 's/[.+]/\\&/g'), libbpf ([0-9.]+ \(built against )?$libbpf\)?\$" "$T_TMP/modes.out"

# uprobes work here: usdt and the sleepable uprobe must be verified
if [ -e /sys/bus/event_source/devices/uprobe/type ]; then
	jcheck "usdt and uprobe.s verified on this kernel" "$T_TMP/modes.json" '
these = [r for r in rows if r["name"] in ("usdt", "uprobe.s")]
if len(these) != 2:
	fail("rows %s" % [(r["name"], r["variant"]) for r in these])
for r in these:
	if not verified(r):
		fail("%s %s: %s %s" % (r["name"], r["variant"], r["status"], r["reason"]))'
else
	skip "no uprobe PMU: usdt and uprobe.s cannot be verified here"
fi
if config_unset CONFIG_FPROBE; then
	jcheck "kprobe_multi skip names CONFIG_FPROBE" "$T_TMP/modes.json" '
if not [r for r in rows if r["name"] in ("kprobe_multi", "kretprobe_multi")]:
	fail("no kprobe_multi or kretprobe_multi row")
for r in rows:
	if r["name"] in ("kprobe_multi", "kretprobe_multi") and "CONFIG_FPROBE" not in (r["reason"] or ""):
		fail("%s %s: %s" % (r["name"], r["variant"], r["reason"]))'
fi
# libbpf 1.3 brought uprobe.multi, 1.5 kprobe.session: older builds say so
lacks_check() {
	jcheck "$1: built against libbpf $libbpf, which lacks it" "$T_TMP/modes.json" '
if not [r for r in rows if r["name"] == "'"$1"'"]:
	fail("no '"$1"' row")
for r in rows:
	if r["name"] == "'"$1"'" and not (r["status"] == "skipped" and
	   "built against libbpf '"$libbpf"', which lacks" in r["reason"]):
		fail("%s %s: %s %s" % (r["name"], r["variant"], r["status"], r["reason"]))'
}
if ! libbpf_at_least 1 3; then
	lacks_check uprobe_multi
elif ! kernel_has_link BPF_TRACE_UPROBE_MULTI; then
	skip "uprobe_multi: this kernel has no uprobe.multi links"
elif [ -e /sys/bus/event_source/devices/uprobe/type ]; then
	jcheck "uprobe_multi verified on this kernel (libbpf $libbpf)" "$T_TMP/modes.json" '
if not [r for r in rows if r["name"] == "uprobe_multi"]:
	fail("no uprobe_multi row")
for r in rows:
	if r["name"] == "uprobe_multi" and not verified(r):
		fail("%s %s: %s %s" % (r["name"], r["variant"], r["status"], r["reason"]))'
fi
if ! libbpf_at_least 1 5; then
	lacks_check kprobe_session
elif config_unset CONFIG_FPROBE; then
	jcheck "kprobe_session skip names CONFIG_FPROBE (libbpf $libbpf)" "$T_TMP/modes.json" '
if not [r for r in rows if r["name"] == "kprobe_session"]:
	fail("no kprobe_session row")
for r in rows:
	if r["name"] == "kprobe_session" and "CONFIG_FPROBE" not in (r["reason"] or ""):
		fail("%s %s: %s %s" % (r["name"], r["variant"], r["status"], r["reason"]))'
fi
jcheck "lsm, lsm.s: verified, or a reason from the kernel" "$T_TMP/modes.json" '
import re
lsm = [r for r in rows if r["name"] in ("lsm", "lsm.s")]
if not lsm:
	fail("no lsm or lsm.s row")
for r in lsm:
	if r["status"] == "skipped":
		if not re.search("active LSM|EPERM|CONFIG_BPF_LSM|BTF|securityfs|not sleepable", r["reason"]):
			fail(r["reason"])
	elif not verified(r):
		fail("%s %s: %s %s" % (r["name"], r["variant"], r["status"], r["reason"]))'

# the LSM probe mounts securityfs privately, if at all: nothing changes
# in the mount namespace the run is in (one of the test's own, whose
# table sh reads before and after)
# run_json runs unshare; sh is handed the program, $BIN
# shellcheck disable=SC2097,SC2098
BIN=unshare run_json lsm -m sh -c 'before=$(grep -c " securityfs " /proc/self/mounts)
	"$@"; rc=$?
	echo "securityfs mounts: $before before, $(grep -c " securityfs " /proc/self/mounts) after" >&2
	exit $rc' sh "$BIN" -r 1 -n $N -c 1 -m lsm -e task_rename
expect "lsm: the run's mount namespace keeps its securityfs mounts ($(grep 'securityfs mounts' "$T_TMP/lsm.err"))" \
	grep -qE 'securityfs mounts: ([0-9]+) before, \1 after' "$T_TMP/lsm.err"

# the USDT note is checked before a run: without it, the row fails
if command -v objcopy >/dev/null; then
	objcopy --remove-section .note.stapsdt "$BIN" "$T_TMP/no_note"
	BIN=$T_TMP/no_note run_json nonote -r 1 -n $N -c 1 -m usdt
	expect "no USDT note: exit 1 (rc=$RC)" test "$RC" -eq 1
	jcheck "no USDT note: usdt failed, saying so" "$T_TMP/nonote.json" '
r = [r for r in rows if r["name"] == "usdt"][0]
if r["status"] != "failed" or "no USDT note" not in r["reason"]:
	fail("%s %s" % (r["status"], r["reason"]))'
else
	skip "objcopy missing: the USDT note check is not exercised"
fi
# and so is its site: a site that is no nop fails the row
off=$(usdt_site_offset "$BIN")
if [ "$(uname -m)" != x86_64 ]; then
	skip "the USDT site check is exercised on x86-64"
elif [ -n "$off" ]; then
	cp "$BIN" "$T_TMP/no_nop"
	# clc: harmless where the base row runs it, and no nop
	printf '\370' | dd of="$T_TMP/no_nop" bs=1 seek="$off" conv=notrunc status=none
	BIN=$T_TMP/no_nop run_json nonop -r 1 -n $N -c 1 -m usdt
	expect "USDT site not a nop: exit 1 (rc=$RC)" test "$RC" -eq 1
	jexpect "USDT site not a nop: usdt failed, saying so" "$T_TMP/nonop.json" \
		'(lambda r: r["status"] == "failed" and "starts with 0xf8, not a nop" in r["reason"])(row("usdt", "usdt-nop"))'
else
	fail "no file offset for the site of $BIN's USDT note test_overhead:nop"
fi

# --- --progs: a row per count, every program verified on every CPU
run_json_fig progs 'r["name"] != "base"' -r 1 -n $N -c 1 -m tracepoint,raw_tp,uprobe.s,usdt \
	-e task_rename,uprobe-nop,usdt-nop --progs 1,2,4
expect "--progs: exit 0 or 3 (rc=$RC)" test "$RC" -eq 0 -o "$RC" -eq 3
jcheck "--progs: 3 rows per mode, N programs each, all verified" "$T_TMP/progs.json" '
from collections import Counter
groups = Counter()
for r in rows:
	if r["name"] == "base":
		if "params" in r:
			fail("base row has params")
		continue
	n = r["params"]["progs"]
	if r["programs"] != n:
		fail("%s %s: %d programs for progs=%d" % (r["name"], r["variant"], r["programs"], n))
	if not verified(r):
		fail("%s %s progs=%d: %s %s" % (r["name"], r["variant"], n, r["status"], r["reason"]))
	groups[(r["name"], r["variant"])] += 1
if sorted(groups.values()) != [3] * 4:
	fail("groups %s" % dict(groups))'
jcheck "--progs: the cost per program is the least-squares slope of the rows" "$T_TMP/progs.json" '
groups = {}
for r in rows:
	if "params" in r:
		groups.setdefault((r["name"], r["variant"]), []).append(r)
fitted = 0
for key, g in groups.items():
	pts = [(r["params"]["progs"], r["ns_per_event"]["mean"]) for r in g if r["status"] == "ok"]
	# the fit is a figure: on each row that has one, none on the rest
	ok = [r for r in g if r["status"] == "ok"]
	if any(r["marginal_ns_per_prog"] is not None for r in g if r["status"] != "ok"):
		fail("%s: a fit on a row that is not ok" % (key,))
	if not ok:
		continue
	fits = {str(r["marginal_ns_per_prog"]) for r in ok}
	if len(fits) != 1:
		fail("%s: rows disagree on the fit" % (key,))
	fit = ok[0]["marginal_ns_per_prog"]
	if len(pts) < 2:
		if fit is not None:
			fail("%s: a fit from %d points" % (key, len(pts)))
		continue
	fitted += 1
	mx = sum(x for x, _ in pts) / len(pts)
	my = sum(y for _, y in pts) / len(pts)
	slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
	if fit["points"] != len(pts) or abs(fit["value"] - slope) > 1e-6 * max(1, abs(slope)) \
	   or not fit["uncertainty"] >= 0:
		fail("%s: fit %s, expected slope %g over %d points" % (key, fit, slope, len(pts)))
if not fitted:
	skip("no mode had 2 undisturbed rows to fit on this busy machine")'
fig_guard "--progs: attach and detach times of every measured row" progs 'r["name"] != "base"' &&
jcheck "--progs: attach and detach times of every measured row" "$T_TMP/progs.json" '
for r in rows:
	if r["status"] == "ok" and r["name"] != "base" and \
	   not (r["attach_ns"] > 0 and r["detach_ns"] > 0):
		fail("%s %s: attach %s detach %s" % (r["name"], r["variant"], r["attach_ns"], r["detach_ns"]))'

# exactly one program of N misses events: the row fails, naming it
need_testing
BENCH_TEST_FAULT=miss-one BIN=$TESTING/test_overhead run_json missone -r 1 -n $N -c 1 -m raw_tp \
	-e task_rename --progs 1,4
expect "miss-one: exit 1 (rc=$RC)" test "$RC" -eq 1
jcheck "miss-one: each row FAILED, the 4-program row on program 4" "$T_TMP/missone.json" '
if len(rows) != 2:
	fail("%d rows" % len(rows))
for r in rows:
	if r["status"] != "failed":
		fail("%s progs=%d: %s" % (r["name"], r["params"]["progs"], r["status"]))
	if r["params"]["progs"] == 4 and "program 4 of 4" not in r["reason"]:
		fail(r["reason"])'

# --- bad values: one line, exit 2
bad_arg "--progs 0" --progs 0
bad_arg "--progs abc" --progs abc
bad_arg "--progs twice the same" --progs 1,1
bad_arg "--progs above the most" --progs 257
bad_arg "--progs more counts than allowed" --progs 1-17
bad_arg "--progs empty" --progs ,
bad_arg "--progs with --attach-time" --progs 1 --attach-time

# --- --attach-time: verified or skipped with a reason, never an event cost
run_json_fig at True -r 1 -n 2000 -c 1 --attach-time
expect "--attach-time: exit 0, 1 or 3 (rc=$RC)" test "$RC" -ne 2 -a "$RC" -le 3
jcheck "--attach-time: 100 and 1000 functions per mode, each verified or skipped" "$T_TMP/at.json" '
names = sorted({r["name"] for r in rows})
if names != ["kprobe", "kprobe_multi", "kretprobe", "kretprobe_multi"]:
	fail("modes %s" % names)
ran = 0
for r in rows:
	if r["params"]["functions"] not in (100, 1000):
		fail("params %s" % r["params"])
	if r["status"] == "skipped":
		if not r["reason"]:
			fail("skip without a reason")
	elif not verified(r) or r["functions"] != r["params"]["functions"]:
		fail("%s %s: %s %s" % (r["name"], r["params"], r["status"], r["reason"]))
	else:
		ran += 1
	if r.get("overhead_ns") is not None:
		fail("an event cost for an attach-time row")
if not ran:
	skip("every row was skipped: %s" % "; ".join(sorted({r["reason"] for r in rows}))[:300])'
fig_guard "--attach-time: the attach time per function of every measured row" at True &&
jcheck "--attach-time: the attach time per function of every measured row" "$T_TMP/at.json" '
for r in rows:
	if r["status"] == "ok" and not r["attach_ns_per_function"] > 0:
		fail("%s %s: no attach time" % (r["name"], r["params"]))'

# --- SIGINT with 16 programs attached: none of this run's stays loaded
links() { grep -ls '^link_id:' /proc/"$PID"/fdinfo/* 2>/dev/null | wc -l; }
run_bg int16 -m raw_tp -e task_rename -c 1 --progs 16 -n 2000000000
started int16
for _ in $(seq 600); do
	[ "$(links)" -ge 16 ] && break
	kill -0 "$PID" 2>/dev/null || break
	sleep 0.1
done
expect "16 programs: 16 links attached mid-run ($(links))" test "$(links)" -ge 16
kill -INT "$PID"
run_end int16
expect "16 programs, SIGINT: exit 130 (rc=$RC)" test "$RC" -eq 130
expect "16 programs: the run loaded 16 programs or more ($(ids int16 prog | wc -w))" \
	test "$(ids int16 prog | wc -w)" -ge 16
cleanup_checked int16

# --- the help text names every mode and event of --list, and the options
$BIN --help >"$T_TMP/help" 2>&1
for w in $(jget "$L" '" ".join(sorted({r[k] for r in R for k in ("name", "variant")}))') --progs --attach-time; do
	expect "--help names $w" grep -qF -- "$w" "$T_TMP/help"
done

finish
