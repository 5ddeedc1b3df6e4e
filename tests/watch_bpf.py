# SPDX-License-Identifier: GPL-2.0
"""The few bpf() and perf_event_open() calls the tests make themselves,
through ctypes: the kernel's run-time stats on, a reference of the test's
own to a program, the kernel's count of its runs and the maps it uses,
and a perf side-band event on one task tree (BPF program loads, forks and
exits). No code of the tools is involved."""
import ctypes
import mmap
import os
import platform
import struct

# the bpf() syscall, its commands, and struct bpf_prog_info's fields
SYS_BPF = {"x86_64": 321, "aarch64": 280}.get(platform.machine())
SYS_PERF_EVENT_OPEN = {"x86_64": 298, "aarch64": 241}.get(platform.machine())
BPF_PROG_GET_FD_BY_ID = 13
BPF_MAP_GET_FD_BY_ID = 14
BPF_OBJ_GET_INFO_BY_FD = 15
BPF_ENABLE_STATS = 32
BPF_STATS_RUN_TIME = 0
INFO_LEN = 232		# sizeof(struct bpf_prog_info), 6.x
INFO_NR_MAP_IDS = 52	# __u32 nr_map_ids; __u64 map_ids follows
INFO_NAME = 64		# char name[16]
INFO_RUN_CNT = 200	# __u64 run_cnt; recursion_misses follows
MAP_INFO_LEN = 80	# struct bpf_map_info: __u32 type first
libc = ctypes.CDLL(None, use_errno=True)


def bpf(cmd, attr):
	"""bpf(cmd, attr): its result, or -errno"""
	if SYS_BPF is None:
		return -38	# ENOSYS: an architecture not listed
	buf = ctypes.create_string_buffer(attr, 144)
	ret = libc.syscall(SYS_BPF, cmd, buf, 144)
	return ret if ret >= 0 else -ctypes.get_errno()


def enable_stats():
	"""an fd that keeps the run-time stats on, or -errno"""
	return bpf(BPF_ENABLE_STATS, struct.pack("I", BPF_STATS_RUN_TIME))


def prog_ref(prog_id):
	"""an fd of our own on the program, or -errno (gone already)"""
	return bpf(BPF_PROG_GET_FD_BY_ID, struct.pack("III", prog_id, 0, 0))


def prog_info(fd, nr_maps=0):
	"""the raw struct bpf_prog_info of the program fd and its first
	nr_maps map ids, or None"""
	info = ctypes.create_string_buffer(INFO_LEN)
	ids = (ctypes.c_uint32 * max(nr_maps, 1))()
	if nr_maps:
		struct.pack_into("IQ", info, INFO_NR_MAP_IDS, nr_maps,
				 ctypes.addressof(ids))
	attr = struct.pack("IIQ", fd, INFO_LEN, ctypes.addressof(info))
	if bpf(BPF_OBJ_GET_INFO_BY_FD, attr) < 0:
		return None
	return info.raw, list(ids)[:min(nr_maps, struct.unpack_from(
		"I", info.raw, INFO_NR_MAP_IDS)[0])]


def prog_runs(fd):
	"""(run_cnt, recursion_misses, name) of the program fd"""
	got = prog_info(fd)
	if got is None:
		return None
	raw = got[0]
	cnt, misses = struct.unpack_from("QQ", raw, INFO_RUN_CNT)
	name = raw[INFO_NAME:INFO_NAME + 16].split(b"\0")[0].decode()
	return cnt, misses, name or "-"


def prog_maps(fd):
	"""the ids of the maps the program fd uses"""
	got = prog_info(fd)
	if got is None:
		return []
	n = struct.unpack_from("I", got[0], INFO_NR_MAP_IDS)[0]
	got = prog_info(fd, n) if n else None
	return got[1] if got else []


def map_type(map_id):
	"""the map's type (enum bpf_map_type), or None: gone"""
	fd = bpf(BPF_MAP_GET_FD_BY_ID, struct.pack("III", map_id, 0, 0))
	if fd < 0:
		return None
	try:
		info = ctypes.create_string_buffer(MAP_INFO_LEN)
		attr = struct.pack("IIQ", fd, MAP_INFO_LEN, ctypes.addressof(info))
		if bpf(BPF_OBJ_GET_INFO_BY_FD, attr) < 0:
			return None
		return struct.unpack_from("I", info.raw, 0)[0]
	finally:
		os.close(fd)


def fd_prog_ids(pid):
	"""the ids of the BPF programs pid's fds refer to"""
	ids = set()
	base = "/proc/%d/fdinfo" % pid
	for fd in os.listdir(base):
		try:
			with open("%s/%s" % (base, fd)) as f:
				for line in f:
					if line.startswith("prog_id:"):
						ids.add(int(line.split()[1]))
		except OSError:
			pass
	return ids


# ---- a perf side-band event on one task and the tasks it starts ----

PERF_TYPE_SOFTWARE = 1
PERF_COUNT_SW_DUMMY = 9
PERF_SAMPLE_TID = 1 << 1
PERF_FLAG_FD_CLOEXEC = 1 << 3
# attr bits: inherit, task (fork/exit records), watermark (a wake-up
# past its wakeup_watermark bytes: each record), sample_id_all, bpf_event
ATTR_FLAGS = (1 << 1) | (1 << 13) | (1 << 14) | (1 << 18) | (1 << 30)
PERF_RECORD_EXIT = 4
PERF_RECORD_LOST = 2
PERF_RECORD_FORK = 7
PERF_RECORD_BPF_EVENT = 18
PERF_BPF_EVENT_PROG_LOAD = 1
DATA_PAGES = 16		# a power of two


class TaskEvents:
	"""Side-band records of the task pid and every task it starts after
	this: BPF program loads ("load", prog_id, pid), forks ("fork", pid,
	tid) and exits ("exit", pid, tid); ("lost", n) when the buffer was
	full. One event per CPU (the kernel maps no inherited per-task
	event); poll their fds, then records()."""

	def __init__(self, pid, cpus):
		self.page = mmap.PAGESIZE
		self.size = DATA_PAGES * self.page
		self.fds, self.maps = [], []
		attr = bytearray(128)
		# type, size, config, sample_period, sample_type, read_format,
		# flags, wakeup_watermark (1 byte: each record wakes the reader)
		struct.pack_into("IIQQQQQI", attr, 0, PERF_TYPE_SOFTWARE, 128,
				 PERF_COUNT_SW_DUMMY, 0, PERF_SAMPLE_TID, 0,
				 ATTR_FLAGS, 1)
		buf = ctypes.create_string_buffer(bytes(attr), 128)
		try:
			for cpu in cpus:
				fd = libc.syscall(SYS_PERF_EVENT_OPEN, buf, pid, cpu,
						  -1, PERF_FLAG_FD_CLOEXEC)
				if fd < 0:
					e = ctypes.get_errno()
					raise OSError(e, "perf_event_open: %s" %
						      os.strerror(e))
				self.fds.append(fd)
				self.maps.append(mmap.mmap(fd, self.page + self.size))
		except Exception:
			self.close()
			raise

	def close(self):
		for m in self.maps:
			m.close()
		for fd in self.fds:
			os.close(fd)
		self.fds, self.maps = [], []

	def _drain(self, m):
		head = struct.unpack_from("Q", m, 1024)[0]
		tail = struct.unpack_from("Q", m, 1032)[0]
		out = []
		while tail < head:
			at = tail % self.size
			raw = m[self.page + at:self.page + min(at + 8, self.size)]
			if len(raw) < 8:	# the header wraps
				raw += m[self.page:self.page + 8 - len(raw)]
			typ, _, size = struct.unpack("IHH", raw)
			end = at + size
			rec = m[self.page + at:self.page + min(end, self.size)]
			if end > self.size:
				rec += m[self.page:self.page + end - self.size]
			tail += size
			if typ == PERF_RECORD_BPF_EVENT:
				kind, _, prog_id = struct.unpack_from("HHI", rec, 8)
				pid = struct.unpack_from("I", rec, 24)[0]
				if kind == PERF_BPF_EVENT_PROG_LOAD:
					out.append(("load", prog_id, pid))
			elif typ in (PERF_RECORD_FORK, PERF_RECORD_EXIT):
				pid, _, tid = struct.unpack_from("III", rec, 8)
				out.append(("fork" if typ == PERF_RECORD_FORK
					    else "exit", pid, tid))
			elif typ == PERF_RECORD_LOST:
				out.append(("lost", struct.unpack_from("Q", rec, 16)[0]))
		struct.pack_into("Q", m, 1032, tail)
		return out

	def records(self):
		out = []
		for m in self.maps:
			out += self._drain(m)
		return out


def online_cpus():
	"""the CPUs the kernel has online"""
	out = []
	with open("/sys/devices/system/cpu/online") as f:
		for part in f.read().strip().split(","):
			a, _, b = part.partition("-")
			out += range(int(a), int(b or a) + 1)
	return out


BPF_LINK_GET_FD_BY_ID = 30
GET_FD_BY_ID = {"prog": BPF_PROG_GET_FD_BY_ID, "map": BPF_MAP_GET_FD_BY_ID,
		"link": BPF_LINK_GET_FD_BY_ID}


def loaded(kind, ids):
	"""those of the ids of KIND (prog, map, link) the kernel still has"""
	left = []
	for i in ids:
		fd = bpf(GET_FD_BY_ID[kind], struct.pack("III", i, 0, 0))
		if fd >= 0:
			os.close(fd)
			left.append(i)
		elif fd != -2:		# ENOENT: gone; anything else: unknown
			left.append(i)
	return left
