#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --profile on the host kernel, through --json: a known extra cost shows
# where it is. Four copies of a raw_tp program on getpgid put more of the
# row's time into bpf_prog_* than one copy does, in one run, and never
# any into its base's; map_perf_test's hash lookup spends its time in the
# hash table's functions. The profiled samples give no figure, the JIT's
# settings are in the context, a kernel that hides its addresses skips
# the profile (never the run), and --profile is a run option. Never an
# absolute rate: shares within one run.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

# the shares of the row's (or with base=True, its base's) samples in
# symbols of BPF programs
BPF_SHARE='(lambda p, base=False: sum(s["base_share" if base else "share"] or 0 for s in p["symbols"] if s["name"].startswith("bpf_prog_")))'
profiled() { echo "[r for r in R if r[\"name\"] == \"raw_tp\" and r[\"params\"][\"progs\"] == $1][0][\"profile\"]"; }

# both raw_tp rows ran undisturbed
PROGS_OK="len(rows(name='raw_tp', status='ok')) == 2"

sec_progs() {
	local try P1 P4 more
	BIN=./test_overhead
	P1=$(profiled 1)
	P4=$(profiled 4)
	# the --progs 4 row with more of its samples in bpf_prog_*
	more="$PROGS_OK and $BPF_SHARE($P4) > 1.5 * $BPF_SHARE($P1) > 0"
	# shares in one run; run again when the machine disturbed a row, or
	# its noise made the comparison close
	for try in 1 2 3; do
		run_json progs$try --profile -r 3 -m base,raw_tp -e getpgid --progs 1,4
		J "$T_TMP/progs$try.json" "$more" && break
	done
	if ! J "$T_TMP/progs$try.json" "$PROGS_OK"; then
		skip "--profile: a raw_tp row was disturbed in each of 3 runs"
		return
	fi
	jexpect "--progs 4: more of the row's samples in bpf_prog_* than --progs 1's (try $try)" "$T_TMP/progs$try.json" "$more"
	expect "--profile: exit status fits the rows (rc=$RC)" exit_matches progs$try
	jexpect "--profile: each raw_tp row profiled against base getpgid, the workers' samples in both arms" "$T_TMP/progs$try.json" \
		'all(p["status"] == "ok" and p["base"] == {"name": "base", "variant": "getpgid"} and p["samples"] > 0 and p["base_samples"] > 0 and p["clock"] == "cpu-clock" and p["period_ns"] > 0 for p in [r["profile"] for r in rows(name="raw_tp")])'
	jexpect "--profile: no base sample in bpf_prog_*: the base never runs the programs" "$T_TMP/progs$try.json" \
		"$BPF_SHARE($P1, True) == 0 and $BPF_SHARE($P4, True) == 0"
	jexpect "--profile: the bpf_prog_* symbols explain extra ns, within the overhead" "$T_TMP/progs$try.json" \
		"0 < sum(s['extra_ns'] for s in ${P4}['symbols'] if s['name'].startswith('bpf_prog_')) < ${P4}['overhead_ns']"
	jexpect "--profile: the top symbols explain most of the overhead, never much more" "$T_TMP/progs$try.json" \
		'all(0.5 < r["profile"]["explained_share"] < 1.5 for r in rows(name="raw_tp"))'
	# profiled units are apart: -r 3 is 3 units, 3 samples, whatever
	# the profile ran
	jexpect "--profile: the figures are -r 3's units alone, none profiled" "$T_TMP/progs$try.json" \
		'all(r["units"]["n"] == 3 and len(r["samples"]) == 3 and r["profile"]["units"] > 0 for r in rows(name="raw_tp"))'
	jexpect "--profile: the base row has no profile of its own (its rows' arms are it)" "$T_TMP/progs$try.json" \
		'all(r["profile"] is None for r in rows(name="base"))'
	jexpect "context: the JIT's settings, as the kernel says them" "$T_TMP/progs$try.json" \
		"c['bpf_jit_enable'] == $(cat /proc/sys/net/core/bpf_jit_enable) and c['bpf_jit_harden'] == $(cat /proc/sys/net/core/bpf_jit_harden) and c['bpf_jit_always_on'] in (True, False, None)"
}

sec_maps() {
	local try
	BIN=./map_perf_test
	for try in 1 2 3; do
		run_json maps --profile -r 2 128
		J "$T_TMP/maps.json" 'len(rows(name="hash_lookup", status="ok")) == 1' && break
	done
	expect "map_perf_test --profile 128: exit status fits the rows (rc=$RC)" exit_matches maps
	jexpect "map_perf_test --profile 128: hash_lookup's time in the hash table's functions and its program" "$T_TMP/maps.json" \
		'all(r["profile"]["status"] == "ok" and sum(s["share"] for s in r["profile"]["symbols"] if "htab" in s["name"]) > 0 and any(s["name"].startswith("bpf_prog_") and s["share"] > 0 for s in r["profile"]["symbols"]) for r in rows(name="hash_lookup", status="ok"))'
	jexpect "map_perf_test --profile 128: none of the base's time in them" "$T_TMP/maps.json" \
		'all(sum(s["base_share"] or 0 for s in r["profile"]["symbols"] if "htab" in s["name"]) == 0 for r in rows(name="hash_lookup", status="ok"))'
}

# kptr_restrict=2 hides kallsyms' addresses from root too: the profile
# is skipped, saying so, and the run measures as ever
sec_hidden() {
	local was try
	BIN=./test_overhead
	was=$(cat /proc/sys/kernel/kptr_restrict)
	if [ "$was" -ge 2 ] || ! echo 2 >/proc/sys/kernel/kptr_restrict 2>/dev/null; then
		skip "kernel.kptr_restrict cannot be set to 2 here"
		return
	fi
	at_exit sh -c "echo $was >/proc/sys/kernel/kptr_restrict"
	# a row disturbed has no figure and no profile: run again, up to 3
	# times, until it was not
	for try in 1 2 3; do
		run_json hidden --profile -r 1 -m base,raw_tp -e getpgid
		J "$T_TMP/hidden.json" 'row("raw_tp", "getpgid")["status"] != "disturbed"' && break
	done
	echo "$was" >/proc/sys/kernel/kptr_restrict
	jexpect "kptr_restrict=2: raw_tp getpgid measured, its profile skipped naming kptr_restrict" "$T_TMP/hidden.json" \
		'verified(row("raw_tp", "getpgid")) and row("raw_tp", "getpgid")["profile"]["status"] == "skipped" and "kptr_restrict" in row("raw_tp", "getpgid")["profile"]["reason"]'
	expect "kptr_restrict=2: exit 0 (rc=$RC)" test "$RC" -eq 0
}

sec_usage() {
	BIN=./test_overhead
	bad_arg "--profile --list" --profile --list
	bad_arg "--profile --compare" --profile --compare a.json b.json
	# shellcheck disable=SC2034 # read by lib.sh's bad_arg
	BIN=./map_perf_test
	bad_arg "map_perf_test --profile --list" --profile --list
}

sections usage progs maps hidden
finish
