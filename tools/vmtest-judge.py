#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the rows a vmtest guest printed as --json.

    vmtest-judge.py CONSOLE_LOG [CONFIG]

The console log holds, per command, "VMTEST-RUN i: cmd", "VMTEST-OUT i",
the command's stdout, "VMTEST-ERR i", its stderr and "VMTEST-END rc=N".
A stdout that is a --list document gives each row's needs; one that is a
results document is judged row by row against them:

    PASS  ok, or disturbed (TCG timing is no figure), with its events the
          whole samples the command line asked for: -n per worker and
          sample, -r units of one sample (ok) or at most -r (disturbed);
          a base row its rows ran against ("fed") two samples of each
          of their units, a multiple of -r; a map_perf_test --memory row
          (no events) ok with a charge at least its elements' own bytes,
          the tool's own check said again, since its row is all the
          guest leaves of it
    SKIP  skipped for a reason, where the config lacks what the row needs
    FAIL  failed, or skipped although the config enables every need, or
          events that are not the command line's, or hits short of them

Whether each worker's CPU saw its events is the tool's own per-CPU check
(a row that fails it is failed); the guest has nothing else that counts
them, so the judge adds no sum of hits over CPUs of its own, only the
command line's arithmetic the run cannot make up.

A stdout that is the kernel's kselftest runner's (run_kselftest.sh,
"TAP version 13") is judged test by test and, within each test's nested
KTAP (the programs' --ktap), row by row:

    PASS  a row "ok"; a test "ok" with as many rows as its plan
    SKIP  a row "ok ... # SKIP <reason>" (a disturbed row too: its KTAP
          has no counts to verify), unless the config enables all the
          row needs, as above; a test "ok ... # SKIP" whose rows all are
    FAIL  "not ok", a SKIP without a reason, a plan not kept, a test
          "ok # SKIP" with a row that is not

Prints one "PASS|SKIP|FAIL tool name variant (why)" line per row (a
test's is "kselftest collection:test"), then "ROWS n", "KSFT_OK n" (tests
the runner reported ok, not skipped) and "ENDS n", and exits 1 when any
row or test failed.
"""
import json
import re
import shlex
import sys

MARK = re.compile(r"VMTEST-(RUN|OUT|ERR|END)\b ?(.*)")
# the kernel's own messages share the console with the commands' output
KMSG = re.compile(r"^\[\s*\d+\.\d+\] ")


def sections(log):
    """(command, stdout text, rc) for each command, in order."""
    cmd, part, out, rc = None, None, [], None
    for line in log.splitlines():
        m = MARK.search(line)
        if not m:
            if part == "OUT" and not KMSG.match(line):
                out.append(line)
            continue
        kind, rest = m.groups()
        if kind == "RUN":
            cmd, out = rest, []
        if kind == "END":
            rc = rest.split("rc=")[-1].strip()
            yield cmd, "\n".join(out), rc
        part = kind


def config_options(path):
    opts = set()
    if not path:
        return None
    for line in open(path, errors="replace"):
        m = re.match(r"CONFIG_(\w+)=[ym]", line)
        if m:
            opts.add(m.group(1))
    return opts


def key(tool, r):
    params = ",".join("%s=%s" % kv for kv in sorted((r.get("params") or {}).items()))
    return (tool, r["name"], r["variant"], params)


def asked(cmd):
    """(-n, -r) of a command line, each None when not given"""
    n = r = None
    try:
        words = shlex.split(cmd or "")
    except ValueError:
        return None, None
    for i, w in enumerate(words[:-1]):
        if w in ("-n", "--count"):
            n = int(words[i + 1], 0)
        elif w in ("-r", "--repeat"):
            r = int(words[i + 1], 0)
    return n, r


def memory_wrong(m):
    """why a --memory row's figures do not hold, or None"""
    if not m.get("filled") or m.get("memcg_bytes") is None:
        return "no map filled, or no charge read"
    if m["memcg_bytes"] < (m.get("check_bytes") or 0):
        return "%d bytes charged for %d of the elements' own" % (
            m["memcg_bytes"], m["check_bytes"])
    return None


def counts_wrong(r, cmd):
    """why the row's counts are not the command line's, or None"""
    # map_perf_test --memory: no events; the memcg charge is the figure
    if r.get("memory"):
        return memory_wrong(r["memory"])
    events = r.get("events") or 0
    if events <= 0:
        return "no events"
    hits = r.get("hits")
    if hits is not None and hits < events * (r.get("hits_per_event") or 1):
        return "%d hits for %d events" % (hits, events)
    n, rep = asked(cmd)
    workers = r.get("workers")
    # no count asked, or map_perf_test's bpf() rows: a call is a batch
    if not n or not workers or r["variant"] == "syscall":
        return None
    samples, left = divmod(events, n * workers)
    if left or not samples:
        return "%d events are not whole samples of -n %d x %d workers" % (
            events, n, workers)
    if not rep:
        return None
    units = (r.get("units") or {}).get("n") or 0
    if r.get("fed"):
        # two base samples in each unit of each of its rows; not a whole
        # -r of units when one of them ended disturbed after some
        if r["status"] == "ok" and samples != 2 * units:
            return "%d samples' events for %d units of its rows, -r %d" % (
                samples, units, rep)
        if samples % 2:
            return "%d samples' events, not two a unit" % samples
    elif samples > rep or r["status"] == "ok" and samples != rep:
        return "%d samples' events, -r %d" % (samples, rep)
    return None


def judge(tool, r, listed, config, cmd=None):
    name = "%s %s %s" % (tool, r["name"], r["variant"])
    if r.get("params"):
        name += " [%s]" % ",".join("%s=%s" % kv for kv in sorted(r["params"].items()))
    st, why = r["status"], r.get("reason") or ""
    if st in ("ok", "disturbed"):
        wrong = counts_wrong(r, cmd)
        if wrong:
            return "FAIL", name, "%s, but %s" % (st, wrong)
        if st == "ok":
            return "PASS", name, ""
        return "PASS", name, "timing disturbed under emulation"
    if st == "failed":
        return "FAIL", name, why
    return judge_skip(tool, r, name, why, listed, config)


def judge_skip(tool, r, name, why, listed, config):
    entry = listed.get(key(tool, r))
    needs = entry.get("needs", []) if entry else []
    # may_lack: a kernel may lack it whatever its config; lacks: the
    # build's libbpf does
    if config is not None and entry and not entry.get("may_lack") and \
            not entry.get("lacks") and all(n in config for n in needs) and needs:
        return "FAIL", name, "skipped, but the config enables %s: %s" % (
            " ".join("CONFIG_" + n for n in needs), why)
    return "SKIP", name, why


# the kernel's runner: its result lines, and its header of each test
KSFT_RESULT = re.compile(r"(not ok|ok) \d+ selftests: (\S+): (\S+)(?: # (.*))?$")
KSFT_HEADER = re.compile(r"# selftests: (\S+): (\S+)$")
# a test's own KTAP, "# "-prefixed by the runner; a row's name has no '#'
NESTED_ROW = re.compile(r"# (not ok|ok) \d+ ([^#]*?)(?: # (.*))?$")
NESTED_PLAN = re.compile(r"# 1\.\.(\d+)$")
NESTED_FAILED = re.compile(r"# # (.*?): FAILED: (.*)$")


def ktap_row(desc):
    """a row of a KTAP description "name variant [key=value,...]" """
    m = re.match(r"(\S+) (\S+)(?: \[(.*)\])?$", desc)
    if not m:
        return {"name": desc, "variant": "", "params": {}}
    params = dict(kv.partition("=")[::2] for kv in m.group(3).split(",")) \
        if m.group(3) else {}
    return {"name": m.group(1), "variant": m.group(2), "params": params}


def judge_ktap_row(tool, result, desc, directive, failed, listed, config):
    name = "%s %s" % (tool, desc)
    if result == "not ok":
        return "FAIL", name, failed.get(desc) or "not ok"
    if not directive:
        return "PASS", name, ""
    if not directive.startswith("SKIP"):
        return "FAIL", name, "ok with directive '%s'" % directive
    why = directive[4:].strip()
    if not why:
        return "FAIL", name, "a SKIP without a reason"
    if why.startswith("disturbed:"):
        return "SKIP", name, why
    return judge_skip(tool, ktap_row(desc), name, why, listed, config)


def judge_ksft_test(test, result, directive, rows, plan):
    """the runner's verdict on one test, against the test's own KTAP"""
    name = "kselftest %s" % test
    if result == "not ok":
        return "FAIL", name, "not ok" + (" # " + directive if directive else "")
    if not rows:
        return "FAIL", name, "%s, but no KTAP test point of its own" % result
    if plan != len(rows):
        return "FAIL", name, "its plan 1..%s, %d test points" % (plan, len(rows))
    if not directive:
        return "PASS", name, ""
    if directive.strip() == "SKIP":
        # as the tool's --ktap status: a base is a reference, measured
        # for rows that all skipped counts as nothing measured
        progs = [r for r in rows if r[1].split()[1] != "base"]
        not_skip = [r for r in progs or rows if r[0] != "SKIP"]
        if not_skip:
            return "FAIL", name, "SKIP, but %s is %s" % (not_skip[0][1], not_skip[0][0])
        return "SKIP", name, "every row skipped" if len(progs) == len(rows) \
            else "only bases measured"
    return "FAIL", name, "ok with directive '%s'" % directive


def kselftest(out, listed, config):
    """verdicts of a run_kselftest.sh output, or None if it is not one"""
    lines = [l for l in out.splitlines() if not KMSG.match(l)]
    if not lines or lines[0] != "TAP version 13":
        return None
    verdicts, plan, results = [], None, 0
    tool, rows, nested_plan, failed = "?", [], None, {}
    for line in lines[1:]:
        m = KSFT_RESULT.match(line)
        if m:
            results += 1
            test = "%s:%s" % (m.group(2), m.group(3))
            verdicts += rows
            verdicts.append(judge_ksft_test(test, m.group(1), m.group(4),
                                            rows, nested_plan))
            tool, rows, nested_plan, failed = "?", [], None, {}
            continue
        m = KSFT_HEADER.match(line)
        if m:
            tool = re.sub(r"\.sh$", "", m.group(2))
            continue
        m = NESTED_FAILED.match(line)
        if m:
            failed[m.group(1)] = m.group(2)
            continue
        m = NESTED_ROW.match(line)
        if m:
            rows.append(judge_ktap_row(tool, m.group(1), m.group(2),
                                       m.group(3), failed, listed, config))
            continue
        m = NESTED_PLAN.match(line)
        if m and nested_plan is None:
            nested_plan = int(m.group(1))
            continue
        if plan is None and re.match(r"1\.\.\d+$", line):
            plan = int(line[3:])
    verdicts += rows
    if plan is None or plan != results:
        verdicts.append(("FAIL", "kselftest run_kselftest.sh",
                         "its plan 1..%s, %d results" % (plan, results)))
    return verdicts


def main():
    log = open(sys.argv[1], errors="replace").read()
    config = config_options(sys.argv[2] if len(sys.argv) > 2 else None)
    listed, verdicts, ends, failed = {}, [], 0, False
    for cmd, out, rc in sections(log):
        ends += 1
        try:
            doc = json.loads(out)
        except ValueError:
            verdicts += kselftest(out, listed, config) or []
            continue
        tool = doc.get("tool", "?")
        if "rows" in doc:
            for r in doc["rows"]:
                listed[key(tool, r)] = r
        for r in doc.get("results", []):
            verdicts.append(judge(tool, r, listed, config, cmd))
    for v, name, why in verdicts:
        failed |= v == "FAIL"
        print("%s %s%s" % (v, name, " (%s)" % why if why else ""))
    print("ROWS %d" % len(verdicts))
    print("KSFT_OK %d" % sum(1 for v, name, _ in verdicts
                             if v == "PASS" and name.startswith("kselftest ")))
    print("ENDS %d" % ends)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
