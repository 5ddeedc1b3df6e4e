#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every check the tools make has a test that makes it fail: delete the
# check, and the test that names it must fail. Copies the tree to a
# scratch directory, then for each mutation below: takes the check out,
# rebuilds (make's programs and the test build, whose faults the tests
# inject), runs the test file until the named check reports, and calls
# the mutation killed when that check fails. The same check must pass on
# the tree as it is (a check that fails anyway kills nothing). One line
# per mutation; exit 1 when any survived.
#
#   tests/mutation-check.sh [NAME...]    (default: every mutation)
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD
SCRATCH=$(mktemp -d /tmp/mutation-check.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT

# name | file | the code, exactly | what replaces it | test | check (ERE)
MUTATIONS=$(cat <<'EOF'
per-cpu-hits|bench_verify.c|if (hits[cpu] >= need)|if (1)|test_faults.sh|miss-cpu=0: raw_tp getpgid failed naming CPU 0
per-cpu-hits-odd|bench_verify.c|if (hits[cpu] >= need)|if (hits[cpu] * 2 >= need)|test_faults.sh|miss-odd: every raw_tp row failed
disturbed-unpinned|bench_verify.c|if (r->unpinned) {|if (0) {|test_faults.sh|affinity widened in every sample
disturbed-slept|bench_verify.c|if (r->nvcsw) {|if (0) {|test_faults.sh|a 10 ms stop in every sample
disturbed-share|bench_verify.c|if (share < MIN_CPU_SHARE \|\||if (0 \&\&|test_faults.sh|a busy loop on the worker's CPU
map-update-fails|map_perf_test_user.c|else if (c->update_fails)|else if (0)|test_map_perf.sh|-E 1 hash_prealloc: failed
map-hits-all|map_perf_test_user.c|else if (r->hits == HITS_ALL \&\& c->found < c->lookups)|else if (0)|test_map_perf.sh|wrong-key: hash_lookup raw_tp failed
map-hits-none|map_perf_test_user.c|else if (r->hits == HITS_NONE \&\& c->found)|else if (0)|test_map_perf.sh|fill-all: hash_lookup raw_tp --miss failed
map-hits-kept|map_perf_test_user.c|else if (r->hits == HITS_KEPT \&\& c->found < min_found)|else if (0)|test_map_perf.sh|wrong-key: lru_hash_lookup raw_tp failed
uprobe-usable|test_overhead_user.c|if (r->ev->usable \&\& !r->ev->usable(out))|if (0)|test_faults.sh|another uprobe on uprobe_nop
usdt-site|test_overhead_user.c|return target_state_ok(uprobe_nop_check(|return true; target_state_ok(uprobe_nop_check(|test_modes.sh|USDT site not a nop: usdt failed
compare-fault|bench_compare.c|ret = refuse_fault(f);|ret = 0;|test_faults.sh|--compare uncounted shipped
records-kept|map_perf_test_user.c|if (!records_kept(r, s, n))|if (0)|test_map_families.sh|drop-all: every ring and perf buffer row FAILED
lru-kept-at-fill|map_perf_test_user.c|read_kept_keys(fd, nr_windows, r->lru_kept);|;|test_map_perf.sh|empty-map: lru_hash_lookup raw_tp failed
EOF
)

# run_until DIR TEST CHECK: runs DIR/tests/TEST until a line of CHECK
# reports; prints that line ("" when none did). The test runs in a
# session of its own, ended with SIGTERM: its runs clean up after it.
run_until() {
	local dir=$1 test=$2 check=$3 line= pid fifo
	fifo=$(mktemp -u "$SCRATCH/fifo.XXXXXX")
	mkfifo "$fifo"
	setsid bash "$dir/tests/$test" >"$fifo" 2>&1 &
	pid=$!
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ )?ok\ -\ .*($check) ]]; then
			break
		fi
		line=
	done <"$fifo"
	kill -TERM -- -"$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$fifo"
	echo "$line"
}

# mutate DIR FILE OLD NEW: OLD, which must be there once, becomes NEW
mutate() {
	python3 - "$1/$2" "$3" "$4" <<'PY'
import sys
path, old, new = sys.argv[1:]
s = open(path).read()
if s.count(old) != 1:
	sys.exit("%s: '%s' found %d times" % (path, old, s.count(old)))
open(path, "w").write(s.replace(old, new))
PY
}

start=$(date +%s)
base=$SCRATCH/base
mkdir -p "$base"
git ls-files -z | xargs -0 cp --parents -t "$base"
cp -r build "$base/" 2>/dev/null
make -C "$base" -s all testing >/dev/null 2>&1 || { echo "the tree does not build"; exit 1; }
killed=0
survived=0
invalid=0
declare -A baseline
# read without -r: \| and \& in the table are a | and an & in the code
while IFS='|' read name file old new test check; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then
		continue
	fi
	t0=$(date +%s)
	key="$test|$check"
	if [ -z "${baseline[$key]}" ]; then
		baseline[$key]=$(run_until "$base" "$test" "$check")
	fi
	case ${baseline[$key]} in
	"ok - "*) ;;
	*)
		echo "invalid  $name: '$check' does not pass on the tree as it is: ${baseline[$key]:-never reported}"
		invalid=$((invalid + 1))
		continue ;;
	esac
	dir=$SCRATCH/$name
	cp -a "$base" "$dir"
	if ! mutate "$dir" "$file" "$old" "$new" ||
	   ! make -C "$dir" -s all testing >/dev/null 2>&1; then
		echo "invalid  $name: the mutant does not build"
		invalid=$((invalid + 1))
		rm -rf "$dir"
		continue
	fi
	line=$(run_until "$dir" "$test" "$check")
	rm -rf "$dir"
	case $line in
	"not ok - "*)
		echo "killed   $name ($(($(date +%s) - t0)) s): ${line#not ok - }"
		killed=$((killed + 1)) ;;
	*)
		echo "survived $name ($(($(date +%s) - t0)) s): ${line:-'$check' never reported}"
		survived=$((survived + 1)) ;;
	esac
done <<<"$MUTATIONS"
echo "mutation check: $killed killed, $survived survived, $invalid invalid in $(($(date +%s) - start)) s"
[ "$survived" -eq 0 ] && [ "$invalid" -eq 0 ]
