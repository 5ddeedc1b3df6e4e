#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The runner's folders are its layers, lowest first (LAYERS below, as
# Documentation/runner.rst lists them): a file of one includes no header
# of a folder above it, and its object needs no symbol defined there,
# each failure named by file (and line) and both folders. Its files call
# down, never round: from nm of each object of runner/*/ (build/dynamic/,
# which make all builds), what it defines and what it needs, the graph of
# which file needs which. A cycle in it (two
# files that need each other, or a ring of them) fails, named file by
# file with the symbols that make each step, as does a runner object that
# needs a family's symbol (overhead/, maps/, the programs' *_user.c): the
# runner sits under both programs. Builds nothing; needs no root and no
# BPF. (The families' own files are not held to it yet: their tables
# live in the programs' user files, which their parts call back.) First,
# from the sources: the families include no runner header but bench.h.
# Last, state is passed, not global: a runner object's writable
# file-scope variable not in tests/layers_globals.txt, with why, fails,
# as does a family object's not in tests/layers_family_globals.txt.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
OBJ=${LAYERS_OBJ:-build/dynamic}

# A family's files (overhead/, maps/, the programs' *_user.c) include one
# runner header, bench.h, their contract: any of runner/'s headers named
# in an #include of theirs fails, with the file and line. Reads the
# sources only.
family_includes() {
	local h names=() bad what

	for h in runner/*/*.h; do
		names+=("${h#runner/}")
	done
	bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' \
		overhead/*.[ch] maps/*.[ch] ./*_user.c |
	      awk -v names="${names[*]}" '
		BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) h[a[i]] = 1 }
		{
			f = $0
			sub(/^[^"]*"/, "", f)
			sub(/".*/, "", f)
			sub(/^runner\//, "", f)
			if (f in h)
				print
		}')
	what="families: include bench.h alone of the runner"
	if [ -z "${names[*]}" ]; then
		fail "$what (no runner/*/*.h found)"
	elif [ -n "$bad" ]; then
		echo "$bad" | sed 's/^/# /'
		fail "$what: $(echo "$bad" | cut -d: -f1 | sort -u | paste -sd ' ')"
	else
		pass "$what (${#names[@]} runner headers, none included)"
	fi
}
family_includes

checks_from python3 - "$OBJ" <<'EOF'
import glob, os, re, subprocess, sys

obj = sys.argv[1]

def symbols(path):
	"""what the object at @path defines, and what it needs from others"""
	out = subprocess.run(["nm", path], capture_output=True, text=True,
			     check=True).stdout
	defs, uses = set(), set()
	for line in out.splitlines():
		f = line.split()
		if len(f) == 2 and f[0] == "U":
			uses.add(f[1])
		elif len(f) == 3 and f[1].isupper() and f[1] != "U":
			defs.add(f[2])
	return defs, uses

# The layers, lowest first: what each folder offers those above it (its
# one header, runner/X/X.h), never the other way
LAYERS = [
	"core",		# messages, errors, files, parsing, JSON, progress
	"stats",	# medians, intervals, tests of them
	"kernel",	# what the kernel offers, probed
	"workers",	# the tasks that make events, their CPUs, the lock
	"rows",		# the run's rows and what each one's results say
	"attach",	# the kinds of hook and how each attaches
	"sample",	# a session, its units, their verification
	"passes",	# the sampler, the profile and prog-stats passes
	"report",	# the table, notes, summary, KTAP, the results file
	"compare",	# --compare
	"cli",		# the command line, --list, main()
]
level = {d: i for i, d in enumerate(LAYERS)}
folders = sorted(d for d in os.listdir("runner")
		 if os.path.isdir(os.path.join("runner", d)))
extra = [d for d in folders if d not in level]
missing = [d for d in LAYERS if d not in folders]
flat = sorted(glob.glob("runner/*.[ch]"))
if extra or missing or flat:
	print("not ok - runner: its folders are the layers' table's%s%s%s" % (
	      ": not in the table: " + " ".join(extra) if extra else "",
	      "; in the table, no folder: " + " ".join(missing)
	      if missing else "",
	      "; outside any folder: " + " ".join(flat) if flat else ""))
else:
	print("ok - runner: its folders are the layers' table's (%s)" %
	      " < ".join(LAYERS))

def folder(name):
	"""the layer of a runner file named by its path under runner/"""
	return name.split("/")[0]

# the sources: a file's #include of a higher folder's header
up = []
for src in sorted(glob.glob("runner/*/*.[ch]")):
	name = os.path.relpath(src, "runner")
	for i, line in enumerate(open(src), 1):
		m = re.match(r'\s*#\s*include\s*"(?:runner/)?([^"/]+)/[^"]*"', line)
		if not m or m.group(1) not in level or folder(name) not in level:
			continue
		if level[m.group(1)] > level[folder(name)]:
			up.append("runner/%s:%d: %s includes %s's %s" % (
				  name, i, folder(name), m.group(1),
				  line.split('"')[1]))
for u in up:
	print("# " + u)
if up:
	print("not ok - runner: no folder includes a higher one's header: " +
	      "; ".join(up))
else:
	print("ok - runner: no folder includes a higher one's header")

# the runner's sources, each with its object: a stale object (or an old
# one of a file since moved away) would make a graph of another tree
sources = sorted(glob.glob("runner/*/*.c"))
objects, stale = {}, []
for src in sources:
	o = os.path.join(obj, src[:-2] + ".o")
	name = os.path.relpath(src, "runner")
	if not os.path.exists(o) or os.path.getmtime(o) < os.path.getmtime(src):
		stale.append(name)
	objects[name] = o
if not sources or stale:
	print("not ok - runner: every object built from its source "
	      "(run make; missing or older: %s)" % " ".join(stale or ["all"]))
	sys.exit(0)
print("ok - runner: every object built from its source (%d files)" %
      len(sources))

defs, uses, owner = {}, {}, {}
for name, o in objects.items():
	defs[name], uses[name] = symbols(o)
	for s in defs[name]:
		owner.setdefault(s, name)
# file -> file it needs -> the symbols it needs there
need = {n: {} for n in objects}
for n in objects:
	for s in uses[n]:
		d = owner.get(s)
		if d and d != n:
			need[n].setdefault(d, []).append(s)

# a lower folder's object needs no symbol a higher folder's defines
up = sorted("%s (%s) needs %s of %s (%s)" % (n, folder(n), ", ".join(
	    sorted(need[n][d])[:3]) + (" ..." if len(need[n][d]) > 3 else ""),
	    d, folder(d)) for n in need for d in need[n]
	    if folder(n) in level and folder(d) in level and
	    level[folder(d)] > level[folder(n)])
for u in up:
	print("# " + u)
if up:
	print("not ok - runner: no folder's object needs a higher one's "
	      "symbol: " + "; ".join(up))
else:
	print("ok - runner: no folder's object needs a higher one's symbol "
	      "(%d files)" % len(need))

# Tarjan's strongly connected components: each of more than one file
# holds a cycle
index, low, stack, on, sccs = {}, {}, [], set(), []
def connect(v):
	index[v] = low[v] = len(index)
	stack.append(v)
	on.add(v)
	for w in sorted(need[v]):
		if w not in index:
			connect(w)
			low[v] = min(low[v], low[w])
		elif w in on:
			low[v] = min(low[v], index[w])
	if low[v] == index[v]:
		scc = []
		while True:
			w = stack.pop()
			on.discard(w)
			scc.append(w)
			if w == v:
				break
		if len(scc) > 1:
			sccs.append(set(scc))
sys.setrecursionlimit(10000)
for v in sorted(need):
	if v not in index:
		connect(v)

def ring(scc):
	"""one cycle through @scc's first file, by a breadth-first search"""
	start = min(scc)
	prev, todo = {start: None}, [start]
	while todo:
		v = todo.pop(0)
		for w in sorted(need[v]):
			if w == start:
				path = [v]
				while prev[path[-1]]:
					path.append(prev[path[-1]])
				path.reverse()
				return path + [start]
			if w in scc and w not in prev:
				prev[w] = v
				todo.append(w)

def step(a, b):
	syms = sorted(need[a][b])
	more = " ..." if len(syms) > 3 else ""
	return "%s -> %s (%s%s)" % (a, b, " ".join(syms[:3]), more)

# each knot of files that need each other: one cycle in it, step by step
for scc in sorted(sccs, key=min):
	path = ring(scc)
	print("cycle: " + "; ".join(step(a, b) for a, b in zip(path, path[1:])))
	if len(scc) > len(path) - 1:
		print("  one of the cycles among %s" % " ".join(sorted(scc)))
if sccs:
	print("not ok - runner: no cycle between runner objects: %s" %
	      ", ".join(" -> ".join(ring(s)) for s in sorted(sccs, key=min)))
else:
	print("ok - runner: no cycle between runner objects (%d files, %d "
	      "needs between them)" % (len(need),
				       sum(len(d) for d in need.values())))

# what the families define: the runner must need none of it
family = {}
family_objects = sorted(glob.glob(os.path.join(obj, "overhead", "*.o")) +
			glob.glob(os.path.join(obj, "maps", "*.o")) +
			glob.glob(os.path.join(obj, "*_user.o")))
for o in family_objects:
	for s in symbols(o)[0]:
		family.setdefault(s, os.path.relpath(o, obj))
up = sorted("%s -> %s (%s)" % (n, family[s], s)
	    for n in objects for s in uses[n] - set(owner) if s in family)
if not family:
	print("ok - # SKIP runner: needs nothing of a family's: no family "
	      "object in %s (run make)" % obj)
elif up:
	print("not ok - runner: needs nothing of a family's: " + "; ".join(up))
else:
	print("ok - runner: needs nothing of a family's (overhead/, maps/, "
	      "*_user.c)")

# State is passed, not global: every writable variable a runner object
# defines (objdump -t: an object in .data or .bss, not .data.rel.ro,
# where a PIE build puts a const table of pointers) is one of
# tests/layers_globals.txt's, each listed with why. Keyed by name, a
# function-static's ".N" dropped, so that a pure move passes.
def writable(path):
	out = subprocess.run(["objdump", "-t", path], capture_output=True,
			     text=True, check=True).stdout
	for line in out.splitlines():
		f = line.split()
		if len(f) < 5 or "O" not in f[1:-3]:
			continue
		sec = f[-3]
		if sec.startswith(".data.rel.ro"):
			continue
		if sec.split(".")[1:2] in (["data"], ["bss"], ["tdata"], ["tbss"]):
			yield f[-1].split(".")[0]

def check_globals(what, objs, listed):
	"""@objs' writable variables: each one of @listed's, with why"""
	allowed, uncommented = {}, []
	for line in open(listed):
		if not line.strip() or line.startswith("#"):
			continue
		name, _, why = line.partition("#")
		allowed[name.strip()] = why.strip()
		if not why.strip():
			uncommented.append(name.strip())
	found = {}
	for name, o in objs.items():
		for s in writable(o):
			found.setdefault(s, []).append(name)
	new = sorted("%s (%s)" % (s, " ".join(found[s])) for s in found
		     if s not in allowed)
	gone = sorted(s for s in allowed if s not in found)
	if new or gone or uncommented:
		print("not ok - %s%s%s%s" % (what,
		      ": new, not listed: " + ", ".join(new) if new else "",
		      "; listed, gone: " + ", ".join(gone) if gone else "",
		      "; listed without why: " + ", ".join(uncommented)
		      if uncommented else ""))
	else:
		print("ok - %s (%d, %s)" % (what, len(found), listed))

check_globals("runner: writable file-scope variables only those listed "
	      "with why", objects,
	      os.environ.get("LAYERS_GLOBALS", "tests/layers_globals.txt"))
# the families too: their options and what their rows share are their
# context (bench_main()'s ctx), passed to their callbacks
check_globals("families: writable file-scope variables only those listed "
	      "with why",
	      {os.path.relpath(o, obj): o for o in family_objects},
	      os.environ.get("LAYERS_FAMILY_GLOBALS",
			     "tests/layers_family_globals.txt"))
EOF
finish
