#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""watch.py PID OUT [FIFO]: what one run of the tools holds, while it runs.

Turns the kernel's BPF run-time stats on (BPF_ENABLE_STATS, held until it
exits: other users of the stats keep theirs), writes a line to FIFO (the
run waits on it to start), then polls
/proc/PID's fds every ms while it runs on a CPU, every 5 ms while it
sleeps, and its children every 50 ms, until PID has exited, and keeps in OUT
  prog ID     every BPF program an fd of PID referred to (bpf-prog and
              bpf-link fds both show "prog_id:" in fdinfo)
  link ID     every BPF link
  map ID      every BPF map (its fdinfo's "map_id:")
  worker PID START   every child of PID (START: its start time, so that
              a recycled pid is never taken for it)
and, once PID has exited,
  runs ID RUN_CNT RECURSION_MISSES NAME   for every program it saw: the
              kernel's own count of the program's runs over its life
              (stats on from before the run loaded anything), with no
              code of the tools involved. The watcher takes a reference
              of its own to each program when it first sees it, so the
              count is read after the run's last detach; the references
              are dropped before it exits.
  runs_unknown WHY   instead, where the kernel would not say (no
              CAP_SYS_ADMIN, no BPF_ENABLE_STATS)
It looks at nothing but PID and its children: other runs on the machine
are none of the tests' business. OUT is rewritten after each change, so
whatever kills the watcher leaves what it saw.
"""
import os
import sys
import time

from watch_bpf import enable_stats, prog_ref, prog_runs

def fd_ids(pid, fds):
	progs, links, maps = set(), set(), set()
	base = "/proc/%d/fdinfo" % pid
	for fd in fds:
		try:
			with open("%s/%s" % (base, fd)) as f:
				for line in f:
					k, _, v = line.partition(":")
					if k == "prog_id":
						progs.add(int(v))
					elif k == "link_id":
						links.add(int(v))
					elif k == "map_id":
						maps.add(int(v))
		except (OSError, ValueError):
			pass
	return progs, links, maps


def stat(pid):
	"""(state, ppid, starttime), or None when pid is gone"""
	try:
		with open("/proc/%d/stat" % pid) as f:
			s = f.read()
	except OSError:
		return None
	rest = s[s.rindex(")") + 2:].split()
	return rest[0], int(rest[1]), int(rest[19])


def children(pid):
	out = {}
	for name in os.listdir("/proc"):
		if not name.isdigit():
			continue
		st = stat(int(name))
		if st and st[1] == pid:
			out[int(name)] = st[2]
	return out


def go(fifo, pid):
	"""releases the run; gives up when it was killed before reading"""
	while stat(pid):
		try:
			fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
		except OSError:		# ENXIO: not reading yet
			time.sleep(0.001)
			continue
		os.write(fd, b"go\n")
		os.close(fd)
		return


def write(path, progs, links, maps, workers, runs=None):
	with open(path + ".tmp", "w") as f:
		for i in sorted(progs):
			f.write("prog %d\n" % i)
		for i in sorted(links):
			f.write("link %d\n" % i)
		for i in sorted(maps):
			f.write("map %d\n" % i)
		for k, v in sorted(workers.items()):
			f.write("worker %d %d\n" % (k, v))
		if isinstance(runs, str):
			f.write("runs_unknown %s\n" % runs)
		elif runs is not None:
			for i, (cnt, misses, name) in sorted(runs.items()):
				f.write("runs %d %d %d %s\n" % (i, cnt, misses, name))
	os.rename(path + ".tmp", path)


def main():
	pid, path = int(sys.argv[1]), sys.argv[2]
	progs, links, maps, workers = set(), set(), set(), {}
	# the kernel's counts: stats on first, then a reference per program
	stats = enable_stats()
	why = None if stats >= 0 else \
		"BPF_ENABLE_STATS: %s" % os.strerror(-stats)
	refs = {}
	if len(sys.argv) > 3:	# a fifo the run waits on: go
		go(sys.argv[3], pid)
	polls = 0
	known = set()
	last_scan = 0.0
	while True:
		st = stat(pid)
		if st is None or st[0] in "ZX":
			break
		polls += 1
		# A listing of its fds every poll is cheap; fdinfo is read for
		# the fds that are new, and for all of them every 10th poll (an
		# fd number may be reused). A poll every ms while the run is on
		# a CPU (loading, attaching), every 5 ms while it sleeps (its
		# workers run): the watcher stays far below the run-queue delay
		# that marks their samples disturbed.
		try:
			fds = set(os.listdir("/proc/%d/fd" % pid))
		except OSError:
			fds = set()
		new_fds = fds if polls % 10 == 0 else fds - known
		known = fds
		p, l, m = fd_ids(pid, new_fds)
		w = {}
		if time.monotonic() - last_scan > 0.05:	# /proc is long to scan
			w = children(pid)
			last_scan = time.monotonic()
		for i in p - progs:
			if why is None and i not in refs:
				fd = prog_ref(i)
				if fd >= 0:
					refs[i] = fd
				elif fd != -2:	# ENOENT: freed in between
					why = "BPF_PROG_GET_FD_BY_ID: %s" % \
						os.strerror(-fd)
		if not (p <= progs and l <= links and m <= maps and
			w.items() <= workers.items()):
			progs |= p
			links |= l
			maps |= m
			workers.update(w)
			write(path, progs, links, maps, workers)
		time.sleep(0.001 if st[0] == "R" else 0.005)
	# every link of the run is closed now: the counts are final once a
	# run under way on another CPU has ended
	time.sleep(0.05)
	runs = why
	if why is None:
		runs = {}
		for i, fd in refs.items():
			r = prog_runs(fd)
			if r is None:
				runs = "BPF_OBJ_GET_INFO_BY_FD failed"
				break
			runs[i] = r
	for fd in refs.values():
		os.close(fd)
	if stats >= 0:
		os.close(stats)
	write(path, progs, links, maps, workers, runs)


main()
