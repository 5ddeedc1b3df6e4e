#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""watch.py [--lock PATH | --lock-held | --no-stats] PID OUT [FIFO]:
what one run of the tools holds, while it runs.

With --lock, first takes the tools' machine-wide lock PATH (waiting for
another run as long as it takes) and holds it until it exits; the run
itself must then take a lock of its own (tests/lib.sh runs it with a
private /run/lock). Then turns the kernel's BPF run-time stats on
(BPF_ENABLE_STATS: machine-wide, so only while the tools' lock is held,
here or by the test, --lock-held: no other run of the tools measures
meanwhile; --no-stats: not at all), opens a perf side-band event on PID
and the tasks it starts, writes a line to FIFO (the run waits on it to
start), and sleeps until the kernel reports something: a BPF program
loaded by one of those tasks, a fork, an exit, or PID's end (a pidfd).
Nothing is polled: the run is not disturbed by its watcher. Keeps in OUT
  prog ID     every BPF program the run's tasks loaded
  prog_missed ID   one freed before the watcher could take a reference
              (a feature probe of libbpf's; no run counted on it)
  link ID     every BPF link, and
  map ID TYPE every BPF map (TYPE: its enum bpf_map_type), that an fd of
              the loading task held after a load, or a program of the run
              uses
  worker PID START   every process PID started (START: its start time,
              so that a recycled pid is never taken for it; "-" when it
              was gone before it could be read)
  go          the run was released: past the lock, watched
and, once PID has exited,
  runs ID RUN_CNT RECURSION_MISSES NAME   for every program it loaded:
              the kernel's own count of the program's runs over its life
              (stats on from before the run loaded anything), with no
              code of the tools involved. The watcher takes a reference
              of its own to each program as it is loaded, so the count
              is read after the run's last detach; the references are
              dropped before it exits.
  runs_unknown WHY   instead, where the kernel would not say (no
              CAP_SYS_ADMIN, stats off, records lost)
  end         last: the record is complete
It looks at nothing but PID and the tasks it starts: other runs on the
machine are none of the tests' business. OUT is written at the start and
rewritten after each change, so whatever kills the watcher leaves what it
saw, without the "end" that says it saw it all.
"""
import fcntl
import os
import select
import sys
import time

import watch_bpf as wb

LOCK_LABEL = "tests/watch.py"


def lock(path, pid):
	"""the tools' lock, held by the fd returned; None: PID ended first"""
	try:
		fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
	except PermissionError:
		fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
	while True:
		try:
			fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
			break
		except BlockingIOError:
			if stat(pid) is None:
				os.close(fd)
				return None
			time.sleep(0.1)	# another run is measuring
	try:	# the label the tools print while they wait for it
		os.ftruncate(fd, 0)
		os.pwrite(fd, b"%d %s\n" % (os.getpid(), LOCK_LABEL.encode()), 0)
	except OSError:
		pass
	return fd


def stat(pid):
	"""(state, starttime), or None when pid is gone"""
	try:
		with open("/proc/%d/stat" % pid) as f:
			s = f.read()
	except OSError:
		return None
	rest = s[s.rindex(")") + 2:].split()
	return rest[0], int(rest[19])


def fd_ids(pid):
	"""the programs, links and maps (id -> type) pid's fds refer to"""
	progs, links, maps = set(), set(), {}
	base = "/proc/%d/fdinfo" % pid
	try:
		fds = os.listdir(base)
	except OSError:
		return progs, links, maps
	for fd in fds:
		kv = {}
		try:
			with open("%s/%s" % (base, fd)) as f:
				for line in f:
					k, _, v = line.partition(":")
					kv[k] = v.strip()
		except OSError:
			continue
		try:
			if "prog_id" in kv:
				progs.add(int(kv["prog_id"]))
			if "link_id" in kv:
				links.add(int(kv["link_id"]))
			if "map_id" in kv:
				maps[int(kv["map_id"])] = int(kv.get("map_type", -1))
		except ValueError:
			pass
	return progs, links, maps


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


class Record:
	def __init__(self, path):
		self.path = path
		self.progs, self.links, self.maps, self.workers = set(), set(), {}, {}
		self.refs = {}
		self.missed = set()
		self.why = None
		self.released = False

	def write(self, runs=None, end=False):
		with open(self.path + ".tmp", "w") as f:
			if self.released:
				f.write("go\n")
			for i in sorted(self.progs):
				f.write("prog %d\n" % i)
			for i in sorted(self.links):
				f.write("link %d\n" % i)
			for i, t in sorted(self.maps.items()):
				f.write("map %d %d\n" % (i, t))
			for k, v in sorted(self.workers.items()):
				f.write("worker %d %s\n" % (k, v))
			for i in sorted(self.missed):
				f.write("prog_missed %d\n" % i)
			if isinstance(runs, str):
				f.write("runs_unknown %s\n" % runs)
			elif runs is not None:
				for i, (cnt, misses, name) in sorted(runs.items()):
					f.write("runs %d %d %d %s\n" % (i, cnt, misses, name))
			if end:
				f.write("end\n")
		os.rename(self.path + ".tmp", self.path)

	def loaded(self, prog_id):
		"""a program the run loaded: a reference, and its maps"""
		self.progs.add(prog_id)
		if prog_id in self.refs or prog_id in self.missed:
			return
		fd = wb.prog_ref(prog_id)
		if fd < 0:
			# freed at once: a feature probe's (libbpf's); a
			# row's program would be said missing by its row
			self.missed.add(prog_id)
			return
		self.refs[prog_id] = fd
		for m in wb.prog_maps(fd):
			if m not in self.maps:
				t = wb.map_type(m)
				self.maps[m] = -1 if t is None else t

	def scan(self, pid):
		"""the links and maps the loader's fds hold after a load"""
		_, l, m = fd_ids(pid)
		self.links |= l
		for i, t in m.items():
			self.maps.setdefault(i, t)

	def forked(self, pid):
		st = stat(pid)
		self.workers[pid] = st[1] if st else "-"


def watch(rec, events, pidfd, run):
	poll = select.poll()
	for fd in events.fds:
		poll.register(fd, select.POLLIN)
	poll.register(pidfd, select.POLLIN)
	done = False
	while not done:
		ready = poll.poll()
		done = any(fd == pidfd for fd, _ in ready)
		changed = False
		loaders = set()
		for r in events.records():
			if r[0] == "load":
				rec.loaded(r[1])
				loaders.add(r[2])
			elif r[0] == "fork" and r[1] == r[2] and r[1] != run:
				rec.forked(r[1])
			elif r[0] == "lost" and rec.why is None:
				rec.why = "the kernel lost %d records of the run" % r[1]
			changed = True
		for p in loaders:
			rec.scan(p)
		if changed:
			rec.write()


def main():
	args = sys.argv[1:]
	mode = None
	if args and args[0] in ("--lock", "--lock-held", "--no-stats"):
		mode = args.pop(0)
		lock_path = args.pop(0) if mode == "--lock" else None
	pid, path = int(args[0]), args[1]
	rec = Record(path)
	rec.write()
	lock_fd = None
	if mode == "--lock":
		lock_fd = lock(lock_path, pid)
		if lock_fd is None:
			rec.write("the run ended before the tools' lock was free", True)
			return
	stats = -1
	if mode == "--no-stats":
		rec.why = "the run took the tools' lock itself: stats not turned on"
	else:
		stats = wb.enable_stats()
		if stats < 0:
			rec.why = "BPF_ENABLE_STATS: %s" % os.strerror(-stats)
	pidfd = os.pidfd_open(pid)
	events = wb.TaskEvents(pid, wb.online_cpus())
	if len(args) > 2:	# a fifo the run waits on: go
		go(args[2], pid)
	rec.released = True
	rec.write()
	watch(rec, events, pidfd, pid)
	# every link of the run is closed now: the counts are final once a
	# run under way on another CPU has ended
	time.sleep(0.05)
	for r in events.records():
		if r[0] == "fork" and r[1] == r[2] and r[1] != pid:
			rec.forked(r[1])
	runs = rec.why
	if runs is None:
		runs = {}
		for i, fd in rec.refs.items():
			r = wb.prog_runs(fd)
			if r is None:
				runs = "BPF_OBJ_GET_INFO_BY_FD failed"
				break
			runs[i] = r
	for fd in rec.refs.values():
		os.close(fd)
	events.close()
	if stats >= 0:
		os.close(stats)
	rec.write(runs, True)
	if lock_fd is not None:
		os.close(lock_fd)


main()
