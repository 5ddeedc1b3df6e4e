#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A run's --json as the fleets keep results: LAVA test cases, a KCIDB report.

  bench-fleet lava [-o DIR] FILE.json
  bench-fleet kcidb --origin ORIGIN [-o OUT] FILE.json
  bench-fleet kcidb --origin ORIGIN [-o OUT] -- PROGRAM [ARGS...]

lava: one LAVA test case a row, named TOOL.NAME.VARIANT[.KEY_VALUE...]
([A-Za-z0-9_.-] only, the same from run to run): an ok row passes with
its figure as the measurement (ns: the overhead over its base, or ns per
map operation; a base row's ns per event; --memory's bytes per element),
a skipped or disturbed row skips and a FAILED one fails, both without a
measurement, the reason printed on the line before. Each case goes to
lava-test-case when it is on PATH, else its <LAVA_SIGNAL_TESTCASE ...>
line is printed; DIR/result.txt (default ./output) gets the lines of
Linaro's test-definitions, "NAME RESULT [MEASUREMENT UNITS]".

kcidb: a KCIDB v5.3 report (kernelci/kcidb-io), for kcidb-submit: one
checkout and one build for the running kernel (its release the config
name, the machine's architecture), one test a row, with path
bpf_overhead.TOOL.NAME.VARIANT[.KEY_VALUE...]: DONE with its number for
an ok row, SKIP, FAIL, or ERROR for a disturbed one, with the reason;
the environment (CPU model, CPUs used, a hypervisor or not) and the
row's interval, verdict, counts and notes under misc. ORIGIN ([a-z0-9_]+)
names the CI system. After "--" PROGRAM runs with --json to a temporary
file first; its exit status is then bench-fleet's.

Written whole or not at all. Exit 2 on bad input (one line), 1 when the
output cannot be written.
"""
import argparse
import hashlib
import json
import math
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile

PROG = "bench-fleet"
KCIDB_MAJOR, KCIDB_MINOR = 5, 3
ORIGIN_RE = re.compile(r"^[a-z0-9_]+$")
PART_BAD = re.compile(r"[^A-Za-z0-9_-]")
# uname's machine as the kernel's ARCH, which KCIDB's builds name
ARCHES = {"aarch64": "arm64", "armv7l": "arm", "armv6l": "arm",
          "i386": "i386", "i686": "i386", "ppc64le": "powerpc",
          "ppc64": "powerpc", "s390x": "s390", "riscv64": "riscv",
          "loongarch64": "loongarch", "mips64": "mips", "mips": "mips"}
STATUSES = ("ok", "skipped", "failed", "disturbed")


class BadInput(Exception):
    pass


def die(msg, code):
    print("%s: %s" % (PROG, msg), file=sys.stderr)
    sys.exit(code)


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput("%s: not readable JSON (%s)" % (path, e))
    if not isinstance(doc, dict) or doc.get("schema") != "bpf-bench/1" or \
       not isinstance(doc.get("results"), list) or \
       not isinstance(doc.get("context"), dict):
        raise BadInput("%s: not a run's --json of these tools (schema bpf-bench/1)" % path)
    for r in doc["results"]:
        if not isinstance(r, dict) or r.get("status") not in STATUSES or \
           not isinstance(r.get("name"), str) or not isinstance(r.get("variant"), str):
            raise BadInput("%s: a row without its name, variant or status" % path)
    return doc


def one_line(s):
    """A reason on one line: no control character"""
    return re.sub(r"[\x00-\x1f\x7f]+", " ", str(s or "")).strip()


def parts(doc, row):
    """The row's name, as parts of [A-Za-z0-9_-] (uprobe.s: uprobe_s)"""
    ps = [doc.get("tool") or "bench", row["name"], row["variant"]]
    params = row.get("params")
    if isinstance(params, dict):
        ps += ["%s_%s" % (k, params[k]) for k in params]
    return [PART_BAD.sub("_", str(p)) or "_" for p in ps]


def case_names(doc):
    """Each row's name, stable from run to run; a name two rows would share
    after the characters outside [A-Za-z0-9_-] became '_' gets -2, -3, ..."""
    names, seen = [], {}
    for r in doc["results"]:
        n = ".".join(parts(doc, r))
        seen[n] = seen.get(n, 0) + 1
        names.append(n if seen[n] == 1 else "%s-%d" % (n, seen[n]))
    return names


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def figure(row):
    """An ok row's figure, as the summary and --ktap print it: (value, ci95,
    unit, quantity, decimals), None without one"""
    if row.get("status") != "ok":
        return None
    mem = row.get("memory")
    if isinstance(mem, dict):
        v = mem.get("bytes_per_element")
        return (v, None, "bytes", "bytes_per_element", 1) if number(v) else None
    if number(row.get("functions")):
        v = row.get("attach_ns")
        return (v, None, "ns", "attach_ns", 0) if number(v) else None
    for key, quantity, dec in (("ns_per_op", "ns_per_op", 2),
                               ("overhead_ns", "overhead_ns", 1)):
        o = row.get(key)
        if isinstance(o, dict):
            v = o.get("value")
            return (v, o.get("ci95"), "ns", quantity, dec) if number(v) else None
    u = row.get("units")
    if isinstance(u, dict) and number(u.get("mean")):
        return (u["mean"], u.get("ci95"), "ns", u.get("quantity") or "ns_per_event", 1)
    return None


def reason(row):
    why = one_line(row.get("reason")) or "no reason given"
    return "disturbed: " + why if row["status"] == "disturbed" else why


def write_whole(path, text):
    """text into path, whole or not at all (a device or pipe in place)"""
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, "w") as f:
            f.write(text)
        return
    d = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(d, ".%s.tmp.%d" % (os.path.basename(path), os.getpid()))
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


# ---- LAVA ----

def lava_cases(doc):
    """(name, result, measurement or None, units or None, reason or None)"""
    out = []
    for name, r in zip(case_names(doc), doc["results"]):
        fig = figure(r)
        if r["status"] == "ok" and fig:
            out.append((name, "pass", "%.*f" % (fig[4], fig[0]), fig[2], None))
        elif r["status"] == "ok":
            out.append((name, "pass", None, None, None))
        elif r["status"] == "failed":
            out.append((name, "fail", None, None, reason(r)))
        else:
            # skipped: the kernel cannot; disturbed: the machine was busy.
            # Neither is a fault of the kernel, and neither has a figure.
            out.append((name, "skip", None, None, reason(r)))
    return out


def lava_report(args):
    doc = load(args.file)
    cases = lava_cases(doc)
    os.makedirs(args.output, exist_ok=True)
    tool = shutil.which("lava-test-case")
    lines = []
    for name, result, meas, units, why in cases:
        if why:
            print("# %s: %s: %s" % (name, result, why), flush=True)
        cmd = ["--result", result]
        sig = "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s" % (name, result)
        line = "%s %s" % (name, result)
        if meas is not None:
            cmd += ["--measurement", meas, "--units", units]
            sig += " MEASUREMENT=%s UNITS=%s" % (meas, units)
            line += " %s %s" % (meas, units)
        if tool:
            rc = subprocess.call([tool, name] + cmd)
            if rc:
                die("lava-test-case %s: exit %d" % (name, rc), 1)
        else:
            print(sig + ">", flush=True)
        lines.append(line + "\n")
    write_whole(os.path.join(args.output, "result.txt"), "".join(lines))
    return 0


# ---- KCIDB ----

def hypervisor():
    """True, False, or None when this machine cannot tell"""
    try:
        with open("/sys/hypervisor/type") as f:
            if f.read().strip():
                return True
    except OSError:
        pass
    if os.path.exists("/proc/device-tree/hypervisor"):
        return True
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
    except OSError:
        return None
    flags = re.search(r"^flags\s*:(.*)$", info, re.M)
    if flags:
        return "hypervisor" in flags.group(1).split()
    return None


def architecture(machine):
    m = str(machine or platform.machine())
    return ARCHES.get(m, PART_BAD.sub("_", m).lower().replace("-", "_"))


def kcidb_report(doc, origin, raw):
    ctx = doc["context"]
    release = str(ctx.get("kernel_release") or platform.release())
    kbuild = str(ctx.get("kernel_build") or "")
    arch = architecture(ctx.get("machine"))
    kernel = hashlib.sha256(("%s\n%s\n%s" % (release, kbuild, arch)).encode()).hexdigest()[:16]
    run = hashlib.sha256(raw).hexdigest()[:16]
    checkout_id = "%s:kernel-%s" % (origin, kernel)
    build_id = "%s:kernel-%s-%s" % (origin, kernel, arch)
    env_misc = {k: ctx[k] for k in ("cpu_model", "online_cpus", "cpus_used",
                                     "machine", "libbpf_version")
                if ctx.get(k) is not None}
    hv = hypervisor() if release == platform.release() else None
    if hv is not None:
        env_misc["hypervisor"] = hv
    comment = "%s, CPUs %s of %s%s" % (
        ctx.get("cpu_model") or "CPU", ctx.get("cpus_used"), ctx.get("online_cpus"),
        "" if hv is None else ", under a hypervisor" if hv else ", no hypervisor")
    environment = {"comment": one_line(comment), "misc": env_misc}
    tests = []
    for name, r in zip(case_names(doc), doc["results"]):
        t = {"id": "%s:%s.%s" % (origin, run, name), "build_id": build_id,
             "origin": origin, "path": "bpf_overhead." + name,
             "environment": environment}
        if ctx.get("timestamp"):
            t["start_time"] = ctx["timestamp"]
        misc = {"tool": doc.get("tool"), "name": r["name"], "variant": r["variant"],
                "status": r["status"]}
        if isinstance(r.get("params"), dict):
            misc["params"] = r["params"]
        fig = figure(r)
        if fig:
            t["status"] = "DONE"
            t["number"] = {"value": fig[0], "unit": fig[2]}
            if fig[2] == "bytes":
                t["number"]["prefix"] = "binary"
            misc["quantity"] = fig[3]
            if number(fig[1]):
                misc["ci95"] = fig[1]
            misc["verdict"] = "unverified" if ctx.get("fault") else \
                "verified" if r.get("hits") is not None else "ok"
            for k in ("events", "hits", "workers", "cpus", "disturbed_retries",
                      "marks"):
                if r.get(k) is not None:
                    misc[k] = r[k]
            for k in ("overhead_ns", "ns_per_op", "overhead_share", "units"):
                o = r.get(k)
                if isinstance(o, dict):
                    misc[k] = {kk: o[kk] for kk in ("value", "mean", "ci95", "n",
                                                    "units", "observations")
                               if o.get(kk) is not None}
            misc["notes"] = [one_line(n.get("text")) for n in r.get("notes") or []
                             if isinstance(n, dict)]
        else:
            t["status"] = {"failed": "FAIL", "disturbed": "ERROR"}.get(r["status"], "SKIP")
            if r["status"] == "ok":
                t["status"] = "PASS"
            else:
                t["comment"] = reason(r)
                misc["reason"] = one_line(r.get("reason"))
        t["misc"] = misc
        tests.append(t)
    return {
        "version": {"major": KCIDB_MAJOR, "minor": KCIDB_MINOR},
        "checkouts": [{"id": checkout_id, "origin": origin, "valid": True,
                       "comment": one_line("Linux %s %s" % (release, kbuild))}],
        "builds": [{"id": build_id, "checkout_id": checkout_id, "origin": origin,
                    "architecture": arch, "config_name": release, "status": "PASS",
                    "comment": one_line("the running kernel, %s %s" % (release, kbuild))}],
        "tests": tests,
    }


def run_program(cmd, tmpdir):
    """cmd with --json to a file in tmpdir: (its exit status, the file's
    bytes or None); a signal to us goes to it, and ends us as it"""
    path = os.path.join(tmpdir, "run.json")
    try:
        child = subprocess.Popen(cmd + ["--json", path])
    except OSError as e:
        raise BadInput("%s: %s" % (cmd[0], e.strerror))
    got = []

    def forward(sig, _frame):
        got.append(sig)
        child.send_signal(sig)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, forward)
    rc = child.wait()
    if got:
        shutil.rmtree(tmpdir, ignore_errors=True)
        sys.exit(128 + got[0])
    if rc < 0:
        rc = 128 - rc
    try:
        with open(path, "rb") as f:
            return rc, f.read()
    except OSError:
        return rc, None


def kcidb_main(args):
    if not ORIGIN_RE.match(args.origin):
        raise BadInput("--origin %r: KCIDB's origins are [a-z0-9_]+" % args.origin)
    rc = 0
    if args.command:
        cmd = args.command[1:] if args.command[0] == "--" else args.command
        if not cmd:
            raise BadInput("no program after --")
        tmpdir = tempfile.mkdtemp(prefix="bench-fleet.")
        try:
            rc, raw = run_program(cmd, tmpdir)
            if raw is None:
                die("%s wrote no results (exit %d): no report" % (cmd[0], rc), rc or 1)
            doc = load(os.path.join(tmpdir, "run.json"))
        finally:
            shutil.rmtree(tmpdir, ignore_errors=True)
    else:
        if not args.file:
            raise BadInput("give a --json file, or -- PROGRAM ARGS")
        try:
            with open(args.file, "rb") as f:
                raw = f.read()
        except OSError as e:
            raise BadInput("%s: %s" % (args.file, e.strerror))
        doc = load(args.file)
    write_whole(args.output, json.dumps(kcidb_report(doc, args.origin, raw),
                                        indent=1, sort_keys=True) + "\n")
    return rc


class Parser(argparse.ArgumentParser):
    def error(self, message):
        die(message, 2)


def main():
    ap = Parser(prog=PROG, description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd")
    la = sub.add_parser("lava", help="LAVA test cases and output/result.txt")
    la.add_argument("-o", "--output", default="output", help="result.txt's directory")
    la.add_argument("file", help="a run's --json file")
    kc = sub.add_parser("kcidb", help="a KCIDB v5.3 report")
    kc.add_argument("--origin", required=True, help="the CI system's name, [a-z0-9_]+")
    kc.add_argument("-o", "--output", default="-", help="the report's file (default stdout)")
    kc.add_argument("file", nargs="?", help="a run's --json file")
    kc.add_argument("command", nargs=argparse.REMAINDER,
                    help="-- PROGRAM ARGS: run it for the report")
    for p in (la, kc):
        p.error = ap.error
    argv = sys.argv[1:]
    if "--" in argv and argv[:1] == ["kcidb"]:
        i = argv.index("--")
        args = ap.parse_args(argv[:i])
        args.command = argv[i + 1:] or ["--"]
        if args.file:
            raise BadInput("a --json file or -- PROGRAM, not both")
    else:
        args = ap.parse_args(argv)
    if args.cmd == "lava":
        return lava_report(args)
    if args.cmd == "kcidb":
        return kcidb_main(args)
    ap.error("give a command: lava or kcidb")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BadInput as e:
        die(str(e), 2)
    except BrokenPipeError:
        die("stdout: broken pipe", 1)
    except OSError as e:
        die("%s: %s" % (e.filename or "output", e.strerror), 1)
