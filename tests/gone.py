#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""gone.py KIND [ID...]: within 2 s the kernel has none of the BPF
objects of KIND (prog, map, link) with these ids: it frees them
asynchronously, after the last reference. Exit 0 when gone; else 1, the
ones left on stdout. One process for them all: a bpftool call per id
took seconds for a run of a few hundred maps."""
import sys
import time

from watch_bpf import loaded


def main():
	kind, ids = sys.argv[1], [int(i) for i in sys.argv[2:]]
	for _ in range(20):
		ids = loaded(kind, ids)
		if not ids:
			return 0
		time.sleep(0.1)
	print(" ".join(map(str, ids)))
	return 1


sys.exit(main())
