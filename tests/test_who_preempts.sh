#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/who-preempts.py's reading of a trace, on lines written here in the
# kernel's own formats (sched_process_fork: "comm= pid= child_comm=
# child_pid=", the parent's pid being "pid"): who ran while a worker of
# the command waited, and nothing charged while the worker's CPU idled.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

# report EXPR: EXPR over parse()'s tables (taken, taken_n, works, softirq)
# of the trace below, the command being pid 100
report() {
	python3 - "$1" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("wp", "tools/who-preempts.py")
wp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wp)
trace = """\
 cmd-100 [000] d..2. 1.000000: sched_process_fork: comm=cmd pid=100 child_comm=cmd child_pid=101
 cmd-101 [001] d..2. 1.100000: sched_switch: prev_comm=cmd prev_pid=101 prev_prio=120 prev_state=R+ ==> next_comm=kworker/1:3 next_pid=55 next_prio=120
 kworker/1:3-55 [001] ...1. 1.100500: workqueue_execute_start: work struct 0000 function process_srcu
 kworker/1:3-55 [001] d..2. 1.102000: sched_switch: prev_comm=kworker/1:3 prev_pid=55 prev_prio=120 prev_state=I ==> next_comm=cmd next_pid=101 next_prio=120
 cmd-101 [001] d..2. 1.200000: sched_switch: prev_comm=cmd prev_pid=101 prev_prio=120 prev_state=R ==> next_comm=swapper/1 next_pid=0 next_prio=120
 swapper/1-0 [001] d..2. 1.900000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=other next_pid=77 next_prio=120
 other-77 [001] d..2. 1.950000: sched_switch: prev_comm=other prev_pid=77 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
"""
taken, taken_n, works, softirq = wp.parse(trace.splitlines(), 100)
sys.exit(0 if eval(sys.argv[1]) else 1)
PY
}

expect "the forked worker's preemption is charged to the kworker: 2 ms, once" \
	report 'abs(taken["kworker/1:3"] - 2000000) < 10 and taken_n["kworker/1:3"] == 1'
expect "the kworker's work item on the worker's CPU is listed" \
	report 'works["process_srcu"] == 1'
expect "nothing charged while the worker's CPU idled, nor to what ran after" \
	report '"swapper/1" not in taken and "other" not in taken'
finish
