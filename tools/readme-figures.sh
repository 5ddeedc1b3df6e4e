#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documentation's example figures, from real runs on this machine, with
# the machine and kernel named beside them:
#   README.rst                 one short run of each program, to show how
#                              the output reads, and text to paste: a run's
#                              (-f short) and a compare of two (the first
#                              run's and the third's rows in both)
#   Documentation/figures.rst  both programs' default summaries (-q)
# In a command, @N is the results file of the file's Nth command.
# Prints the reStructuredText blocks; with --update, puts each into its
# file between the ".. figures-begin" and ".. figures-end" lines.
#
#   tools/readme-figures.sh [--update] [FILE...]   (as root, on a quiet machine;
#                                                   default: both files)
#   tools/readme-figures.sh --commands FILE        FILE's commands, one a line
#                                                   (tests/figures.py reads them)
set -eu
cd "$(dirname "$0")/.."
update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
[ $# -gt 0 ] || set -- README.rst Documentation/figures.rst
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# a signal ends the script through its EXIT trap too
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# the commands each file shows, one a line
commands() {
	case $1 in
	README.rst)
		echo "./test_overhead -m base,raw_tp,tracepoint -e task_rename,getpgid"
		echo "./map_perf_test 128"
		echo "./test_overhead -f short -m base,raw_tp -e task_rename,getpgid"
		echo "./test_overhead --compare @1 @3 -f short"
		;;
	Documentation/figures.rst)
		echo "./test_overhead -q"
		echo "./map_perf_test -q"
		;;
	*)
		echo "readme-figures: no figures for $1" >&2
		exit 2
		;;
	esac
}

if [ "${1:-}" = --commands ] && [ $# -eq 2 ]; then
	commands "$2"
	exit
fi

# block FILE: runs FILE's commands and prints its block
block() {
	local cmd i=0
	commands "$1" >"$TMP/commands"
	while IFS= read -r cmd; do
		i=$((i + 1))
		# a disturbed or skipped row is an answer too: keep the output
		# (a compare's --json is its verdicts', which nothing reads)
		${cmd//@/$TMP/results-} --json "$TMP/$i.json" >"$TMP/$i.txt" \
			2>/dev/null </dev/null || true
		[ ! -e "$TMP/$i.json" ] || cp "$TMP/$i.json" "$TMP/results-$i"
	done <"$TMP/commands"
	python3 - "$TMP" <<'EOF'
import json, sys
tmp = sys.argv[1]
cmds = open(tmp + "/commands").read().splitlines()
c = json.load(open(tmp + "/1.json"))["context"]
print("Measured on %s (%s), CPUs %s, kernel %s, libbpf %s, %s:" % (
	c["cpu_model"], c["machine"], c["cpus_used"], c["kernel_release"],
	c["libbpf_version"], c["timestamp"][:10]))
print("\n::\n")
# the runs a later command compares say where their results went
kept = {w[1:] for cmd in cmds for w in cmd.split() if w.startswith("@")}
for i, cmd in enumerate(cmds, 1):
	# a compare reads results files, and needs no privileges
	shown = " ".join("run%s.json" % w[1:] if w.startswith("@") else w
			 for w in cmd.split())
	if str(i) in kept:
		shown += " --json run%d.json" % i
	print("    $ " + ("" if "--compare" in cmd else "sudo ") + shown)
	# the whole output: the summary's table, its legend, the reasons
	for line in open("%s/%d.txt" % (tmp, i)).read().splitlines():
		print(("    " + line).rstrip())
	print()
EOF
}

for f in "$@"; do
	commands "$f" >/dev/null
	block "$f" >"$TMP/block"
	if [ "$update" -eq 0 ]; then
		echo "$f:"
		cat "$TMP/block"
		continue
	fi
	python3 - "$f" "$TMP/block" <<'EOF'
import sys
path, block = sys.argv[1], open(sys.argv[2]).read()
text = open(path).read()
begin, end = ".. figures-begin\n", ".. figures-end\n"
i, j = text.index(begin) + len(begin), text.index(end)
open(path, "w").write(text[:i] + "\n" + block + text[j:])
EOF
	echo "$f: figures updated"
done
