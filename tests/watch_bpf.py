# SPDX-License-Identifier: GPL-2.0
"""The few bpf() calls the tests make themselves, through ctypes: the
kernel's run-time stats on, a reference of the test's own to a program,
and the kernel's count of its runs. No code of the tools is involved."""
import ctypes
import os
import platform
import struct

# the bpf() syscall, its commands, and struct bpf_prog_info's fields
SYS_BPF = {"x86_64": 321, "aarch64": 280}.get(platform.machine())
BPF_PROG_GET_FD_BY_ID = 13
BPF_OBJ_GET_INFO_BY_FD = 15
BPF_ENABLE_STATS = 32
BPF_STATS_RUN_TIME = 0
INFO_LEN = 232		# sizeof(struct bpf_prog_info), 6.x
INFO_NAME = 64		# char name[16]
INFO_RUN_CNT = 200	# __u64 run_cnt; recursion_misses follows
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


def prog_runs(fd):
	"""(run_cnt, recursion_misses, name) of the program fd"""
	info = ctypes.create_string_buffer(INFO_LEN)
	attr = struct.pack("IIQ", fd, INFO_LEN, ctypes.addressof(info))
	err = bpf(BPF_OBJ_GET_INFO_BY_FD, attr)
	if err < 0:
		return None
	raw = info.raw
	cnt, misses = struct.unpack_from("QQ", raw, INFO_RUN_CNT)
	name = raw[INFO_NAME:INFO_NAME + 16].split(b"\0")[0].decode()
	return cnt, misses, name or "-"


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
