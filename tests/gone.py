#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""gone.py KIND [ID...] [KIND [ID...]]...: within 2 s the kernel has none
of the BPF objects of each KIND (prog, map, link) with these ids: it
frees them asynchronously, after the last reference. Exit 0 when gone;
else 1, the ones left on stdout: their ids (one KIND), or a line "KIND
ID..." for each KIND with some left. One process for them all: a bpftool
call per id took seconds for a run of a few hundred maps, and a Python
a kind a tenth of a second for every case of the matrix."""
import sys
import time

from watch_bpf import GET_FD_BY_ID, loaded


def parse(args):
	"""{KIND: [ID...]} of the command line, in its order"""
	want = {}
	kind = None
	for a in args:
		if a in GET_FD_BY_ID:
			kind = a
			want.setdefault(kind, [])
		else:
			want[kind].append(int(a))
	return want


def main():
	want = parse(sys.argv[1:])
	for _ in range(20):
		want = {k: loaded(k, ids) for k, ids in want.items()}
		if not any(want.values()):
			return 0
		time.sleep(0.1)
	if len(want) == 1:
		print(" ".join(map(str, *want.values())))
	else:
		for k, ids in want.items():
			if ids:
				print(k, " ".join(map(str, ids)))
	return 1


sys.exit(main())
