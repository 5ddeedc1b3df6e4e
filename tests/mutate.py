#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
A mutation of tests/mutation-check.sh: OLD, which must be there once
inside the body of the function FUNC ("file.c:FUNC" where two files
define one), becomes NEW. The function is looked up in every source file
of DIR (and of its folders, and runner/'s: "maps/file.c:FUNC" names one
there), so that the mutation survives code moved between files or renamed around it; a
function not found, or OLD not found once in it, is said and the
mutation counts as invalid, never as killed. A checker of the tests' own
in Python is named by its file: "tests/invariants.py:FUNC", a def (a
method too) whose body ends where the indentation does. "file.c:",
no function named, is the whole file: for what lives outside a body,
an #include line.

  mutate.py DIR FUNC OLD NEW   the mutation made in DIR; exit 1, said,
                               when it does not apply
  mutate.py --dry-run DIR      each mutation on stdin (NAME, FUNC, OLD,
                               NEW, each ended by a NUL) tried, nothing
                               changed: "NAME: why" for each that does
                               not apply. One process for them all: the
                               sources are read once, not once a mutation.
"""
import glob
import os
import re
import sys


def sources(root):
	"""
	the top's sources and its folders' (overhead/ ..., and runner/'s
	folders: runner/core/ ...), never build/'s
	"""
	return sorted(f for f in glob.glob(os.path.join(root, "*.[ch]")) +
		      glob.glob(os.path.join(root, "*", "*.[ch]")) +
		      glob.glob(os.path.join(root, "runner", "*", "*.[ch]"))
		      if not os.path.relpath(f, root).startswith("build" + os.sep))


def python_bodies(s, func):
	"""each def @func in @s: where its body starts and ends"""
	head = re.compile(r"^([ \t]*)def %s\(.*\):[ \t]*\n" % re.escape(func),
			  re.M)
	for m in head.finditer(s):
		end = m.end()
		for line in s[m.end():].splitlines(True):
			outside = line.strip() and \
				  not line.startswith(m.group(1) + "\t") and \
				  not line.startswith(m.group(1) + " ")
			if outside:
				break
			end += len(line)
		yield m.end(), end


def c_bodies(s, func):
	"""
	each definition of @func in @s: a line starting with a type, the
	name, the parameters (on one line or more), and the body's brace
	alone on the next line; its body ends at the first "}" alone
	"""
	head = re.compile(r"^[A-Za-z_][^;{}\n]*\b%s\([^;{}]*\)\s*\n\{\n" %
			  re.escape(func), re.M)
	for m in head.finditer(s):
		end = s.find("\n}\n", m.end())
		if end >= 0:
			yield m.end(), end


def read(path, cache):
	if path not in cache:
		try:
			cache[path] = open(path).read()
		except OSError:
			cache[path] = None
	return cache[path]


def mutate(root, func, old, new, dry, cache):
	"""None when done (or, @dry, when it would be), else why not"""
	files = sources(root)
	if ":" in func:
		name, func = func.split(":")
		files = [os.path.join(root, name)]
	found = []
	for path in files:
		s = read(path, cache)
		if s is None:
			continue
		if not func:
			found.append((path, s, 0, len(s)))
			continue
		bodies = python_bodies if path.endswith(".py") else c_bodies
		found += [(path, s, a, b) for a, b in bodies(s, func)]
	if len(found) != 1:
		return "function %s defined %d times in %s" % \
		       (func, len(found), ", ".join(sorted(set(
			os.path.basename(f[0]) for f in found))) or "no file")
	path, s, start, end = found[0]
	n = s.count(old, start, end)
	if n != 1:
		return "%s: '%s' found %d times in %s" % \
		       (os.path.basename(path), old, n,
			func + "()" if func else "the file")
	if not dry:
		at = s.index(old, start, end)
		open(path, "w").write(s[:at] + new + s[at + len(old):])
	return None


def main(argv):
	cache = {}
	if len(argv) == 3 and argv[1] == "--dry-run":
		fields = sys.stdin.buffer.read().decode().split("\0")
		for i in range(0, len(fields) - 3, 4):
			name, func, old, new = fields[i:i + 4]
			why = mutate(argv[2], func, old, new, True, cache)
			if why:
				print("%s: %s" % (name, why))
		return 0
	if len(argv) != 5:
		sys.exit("usage: mutate.py DIR FUNC OLD NEW | --dry-run DIR")
	why = mutate(argv[1], argv[2], argv[3], argv[4], False, cache)
	if why:
		sys.exit(why)
	return 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
