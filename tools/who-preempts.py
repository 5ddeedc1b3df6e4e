#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Who takes the workers' CPUs: runs a command of these tools under a
tracefs instance of its own (sched_switch, workqueue_execute_start,
softirq_entry/exit) and reports, per cause, the time other tasks ran on
a CPU while a worker of the command was runnable but off it (preempted),
the work items the kworkers ran, and the softirq time on the workers'
CPUs.

  sudo tools/who-preempts.py [-o report.txt] -- ./test_overhead -q -m base -e fib_table_lookup -r 5

Workers are the command's child processes, found by the trace's fork
events, never by name. Needs root and tracefs (mounted if missing).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import time

TRACEFS = "/sys/kernel/tracing"
EVENTS = [
    "sched/sched_switch",
    "sched/sched_process_fork",
    "workqueue/workqueue_execute_start",
    "irq/softirq_entry",
    "irq/softirq_exit",
]
LINE = re.compile(r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+\S+\s+"
                  r"(?P<ts>\d+\.\d+):\s+(?P<event>\w+):\s+(?P<rest>.*)$")


def write(path, value):
    with open(path, "w") as f:
        f.write(value)


def ensure_tracefs():
    if not os.path.exists(os.path.join(TRACEFS, "events")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS],
                       check=True)


def fields(rest):
    return dict(re.findall(r"(\w+)=(\S+)", rest))


def parse(lines, root):
    """Returns the report's tables from the trace's lines."""
    ours = {root}           # the command and its descendants
    running = {}            # cpu -> (pid, comm, since)
    waiting = {}            # worker pid -> (cpu, since) while preempted
    taken = collections.Counter()   # comm -> ns run while a worker waited
    taken_n = collections.Counter()
    works = collections.Counter()   # work function -> count
    softirq = collections.Counter() # vector -> ns on our CPUs
    soft_open = {}
    our_cpus = set()
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        ts = int(float(m["ts"]) * 1e9)
        cpu = int(m["cpu"])
        ev, rest = m["event"], m["rest"]
        if ev == "sched_process_fork":
            # "comm=P pid=N child_comm=C child_pid=M": pid is the parent's
            f = fields(rest)
            if int(f.get("pid", -1)) in ours:
                ours.add(int(f["child_pid"]))
        elif ev == "sched_switch":
            f = re.match(r"prev_comm=(.*) prev_pid=(\d+) prev_prio=\S+ "
                         r"prev_state=(\S+) ==> next_comm=(.*) "
                         r"next_pid=(\d+)", rest)
            if not f:
                continue
            prev, state, ncomm, nxt = (int(f[2]), f[3], f[4], int(f[5]))
            cur = running.get(cpu)
            if nxt == 0:
                # a CPU that idles has no runnable worker of ours: a
                # preemption seen before the trace lost events is over
                for pid in [p for p, (c, _) in waiting.items() if c == cpu]:
                    del waiting[pid]
            if cur and cur[0] not in ours and cur[0] != 0:
                # another task ran: charge it to every waiting worker here
                for pid, (wcpu, since) in waiting.items():
                    if wcpu == cpu:
                        taken[cur[1]] += ts - max(cur[2], since)
            if prev in ours and prev != root and state.startswith("R"):
                waiting[prev] = (cpu, ts)
                taken_n[ncomm if nxt not in ours else "(ours)"] += 1
                our_cpus.add(cpu)
            if nxt in waiting:
                del waiting[nxt]
            running[cpu] = (nxt, ncomm, ts)
        elif ev == "workqueue_execute_start":
            f = re.search(r"function (\S+)", rest)
            if f and cpu in our_cpus:
                works[f[1]] += 1
        elif ev == "softirq_entry":
            soft_open[cpu] = (fields(rest).get("action", "?"), ts)
        elif ev == "softirq_exit":
            if cpu in soft_open and cpu in our_cpus:
                action, since = soft_open.pop(cpu)
                softirq[action] += ts - since
    return taken, taken_n, works, softirq


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", help="also write the report here")
    ap.add_argument("--buffer-kb", type=int, default=65536)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        ap.error("give the command after --")
    ensure_tracefs()
    inst = os.path.join(TRACEFS, "instances", "who-preempts-%d" % os.getpid())
    os.mkdir(inst)
    try:
        write(os.path.join(inst, "buffer_size_kb"), str(args.buffer_kb))
        for e in EVENTS:
            write(os.path.join(inst, "events", e, "enable"), "1")
        write(os.path.join(inst, "tracing_on"), "1")
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        rc = proc.wait()
        wall = time.monotonic() - t0
        write(os.path.join(inst, "tracing_on"), "0")
        with open(os.path.join(inst, "trace")) as f:
            lines = f.readlines()
    finally:
        for e in EVENTS:
            try:
                write(os.path.join(inst, "events", e, "enable"), "0")
            except OSError:
                pass
        os.rmdir(inst)
    taken, taken_n, works, softirq = parse(lines, proc.pid)
    out = ["%s: exit %d, %.1f s, %d trace lines" %
           (" ".join(cmd), rc, wall, len(lines)),
           "", "who ran while a worker was preempted (ms, times):"]
    for comm, ns in taken.most_common(15):
        out.append("  %-24s %9.3f ms %6d" % (comm, ns / 1e6, taken_n[comm]))
    out += ["", "work items the kworkers ran on the workers' CPUs:"]
    for fn, n in works.most_common(15):
        out.append("  %-40s %6d" % (fn, n))
    out += ["", "softirq time on the workers' CPUs (ms):"]
    for action, ns in softirq.most_common():
        out.append("  %-12s %9.3f" % (action, ns / 1e6))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if args.output:
        # whole or not at all, as the programs write their results
        tmp = "%s.tmp.%d" % (args.output, os.getpid())
        try:
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, args.output)
        except OSError as e:
            if os.path.exists(tmp):
                os.unlink(tmp)
            print("who-preempts: cannot write %s: %s" % (args.output, e.strerror),
                  file=sys.stderr)
            return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
