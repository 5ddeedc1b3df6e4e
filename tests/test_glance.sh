#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The answer at a glance: what a terminal shows of a run's summary and of
# --compare, at 100 and at 80 columns (a tmux pane of that width, read
# back with capture-pane -J, which joins a line the terminal wrapped): no
# line wider than the terminal, one table line per row with its name and
# figure whole, its marks those its JSON's fields give and the legend's
# counts theirs (tests/glance.py); --format short, no line over 72
# columns; a FAILED row's verdict names its CPU. Small selections, short
# rows: the layout, not the figures (make first-run measures default
# runs' widths).
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

# --max-units 2: every row that is no base stops short of --precision,
# so that the legend has a mark to count
TO_SEL=(-m 'base,raw_tp,uprobe,kprobe' -e 'task_rename,getpgid,uprobe-nop'
	-n 2000 --max-units 2)
MP_SEL=(-t 'hash_lookup,bloom_lookup,ringbuf_reserve,sys_hash_lookup'
	-n 2000 --max-units 2)
# a tmux server of this test's own, never the user's
SOCK=glance-$$

# tmux_run NAME COLS CMD...: CMD on a terminal COLS columns wide, its
# stdout as the terminal shows it (scrollback too) in $T_TMP/NAME.pane,
# its stderr in NAME.err; $RC its status
tmux_run() {
	local name=$1 cols=$2 script=$T_TMP/$1.sh
	shift 2
	{
		printf '%q ' "$@"
		printf '2>%q\necho $? >%q\n' "$T_TMP/$name.err" "$T_TMP/$name.rc"
		printf 'tmux -L %q wait-for -S %q\nexec sleep 600\n' "$SOCK" "$name"
	} >"$script"
	rm -f "$T_TMP/$name.rc"
	tmux -L "$SOCK" -f /dev/null new-session -d -s "$name" -x "$cols" -y 50 \
		"bash $script"
	timeout 900 tmux -L "$SOCK" wait-for "$name"
	tmux -L "$SOCK" capture-pane -p -J -S - -E - -t "$name" >"$T_TMP/$name.pane"
	tmux -L "$SOCK" kill-session -t "$name" 2>/dev/null
	RC=$(cat "$T_TMP/$name.rc" 2>/dev/null || echo 255)
}

# glance CHECK NAME JSON COLS: tests/glance.py's checks of NAME's screen
glance() {
	checks_from python3 "$TESTS/glance.py" "$1" "$T_TMP/$2.pane" "$3" "$4" "$2"
}

have_tmux() {
	command -v tmux >/dev/null && return 0
	skip "$1: no tmux here (make deps installs it)"
	return 1
}

# --- each program's summary on a terminal of 100 and of 80 columns, and
# --compare of the two runs, with -v's units column too at 80
sec_layout() {
	local prog cols sel
	have_tmux "summaries on a terminal" || return
	at_exit tmux -L "$SOCK" kill-server
	for prog in test_overhead map_perf_test; do
		if [ $prog = test_overhead ]; then
			sel=("${TO_SEL[@]}")
		else
			sel=("${MP_SEL[@]}")
		fi
		for cols in 100 80; do
			tmux_run "$prog-$cols" "$cols" ./$prog "${sel[@]}" \
				--json "$T_TMP/$prog-$cols.json"
			expect "$prog at $cols columns: a run, exit 0 or 3 (rc=$RC)" \
				test "$RC" -eq 0 -o "$RC" -eq 3
			glance summary "$prog-$cols" "$T_TMP/$prog-$cols.json" "$cols"
		done
		./$prog --compare "$T_TMP/$prog-100.json" "$T_TMP/$prog-80.json" \
			--json "$T_TMP/$prog-cmp.json" >/dev/null
		for cols in 100 80; do
			tmux_run "$prog-cmp-$cols" "$cols" ./$prog --compare \
				"$T_TMP/$prog-100.json" "$T_TMP/$prog-80.json"
			glance compare "$prog-cmp-$cols" "$T_TMP/$prog-cmp.json" "$cols"
		done
		tmux_run "$prog-cmp-v80" 80 ./$prog -v --compare \
			"$T_TMP/$prog-100.json" "$T_TMP/$prog-80.json"
		glance compare "$prog-cmp-v80" "$T_TMP/$prog-cmp.json" 80
		expect "$prog: --compare -v at 80 columns says which columns it left out" \
			grep -q '^  (left out to fit 80 columns: .*units A/B' "$T_TMP/$prog-cmp-v80.pane"
		# text to paste is the same on any terminal
		tmux_run "$prog-cmp-short" 60 ./$prog -f short --compare \
			"$T_TMP/$prog-100.json" "$T_TMP/$prog-80.json"
		glance compare "$prog-cmp-short" "$T_TMP/$prog-cmp.json" 72
	done
}

# --- --format short: a line per row, within 72 columns, on no terminal
sec_short() {
	local prog sel
	for prog in test_overhead map_perf_test; do
		if [ $prog = test_overhead ]; then
			sel=("${TO_SEL[@]}")
		else
			sel=("${MP_SEL[@]}")
		fi
		run_capture "$prog-short" ./$prog "${sel[@]}" -f short \
			--json "$T_TMP/$prog-short.json"
		cp "$T_TMP/$prog-short.out" "$T_TMP/$prog-short.pane"
		glance short "$prog-short" "$T_TMP/$prog-short.json" 72
	done
}

# --- a FAILED row: its verdict names the CPU, its reason has a line
sec_failed() {
	need_testing || return
	BENCH_TEST_FAULT=miss-odd run_capture failed "$TESTING/test_overhead" \
		-m base,raw_tp -e getpgid -r 2 -n 2000 --json "$T_TMP/failed.json"
	expect "miss-odd: exit 1, a row failed (rc=$RC)" test "$RC" -eq 1
	jexpect "miss-odd: raw_tp getpgid failed naming a CPU" "$T_TMP/failed.json" \
		'"CPU " in row("raw_tp", "getpgid")["reason"] and row("raw_tp", "getpgid")["status"] == "failed"'
	cp "$T_TMP/failed.out" "$T_TMP/failed.pane"
	glance summary failed "$T_TMP/failed.json" 100
}

# --- --format's uses: one line and exit 2 where it cannot apply
sec_options() {
	BIN=./test_overhead
	bad_arg "--format bogus" --format bogus
	bad_arg "-f short --json -" -f short --json -
	bad_arg "-f short --list" -f short --list
	# under --ktap, kselftest's status: a usage error is a FAIL (1)
	run_capture bad "$BIN" -f short --ktap
	expect "bad argument -f short --ktap: exit 1, KTAP's plan, one line naming --ktap (rc=$RC)" \
		eval '[ "$RC" -eq 1 ] && grep -q "^Bail out!" "$T_TMP/bad.out" && [ "$(wc -l <"$T_TMP/bad.err")" -eq 1 ] && grep -q -- "--ktap" "$T_TMP/bad.err"'
	bad_arg "-f short --compare a b --json -" -f short --compare a b --json -
}

sections layout short failed options
finish
