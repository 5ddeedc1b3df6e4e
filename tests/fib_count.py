#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""fib_count.py HOLD_HOOK: fib_table_lookup calls per UDP datagram to a
socket on 127.0.0.1, counted without test_overhead.

HOLD_HOOK (build/*/hold_hook) attaches a program to the tracepoint
fib_table_lookup. This script sends datagrams itself, from a network
namespace of its own with only lo up, to a socket of its own there that
is full, as test_overhead's are (the least buffer, filled until it drops
one), so that every datagram counted is dropped as theirs are, and
reads the kernel's run count of that program (BPF run-time stats on,
tests/watch.py's way) before and after: the lookups the kernel made,
counted by the kernel. The least of 3 rounds of 1000 (other lookups on
the machine only add), to the nearest whole number, is printed; on
failure one line on stderr and exit 1. Run it holding the tools' lock,
so that no run of theirs sends datagrams meanwhile.
"""
import ctypes
import fcntl
import os
import socket
import struct
import subprocess
import sys

import watch_bpf

CLONE_NEWNET = 0x40000000
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
ROUNDS, DATAGRAMS = 3, 1000
SO_MEMINFO, SK_MEMINFO_DROPS, FILL_MAX = 55, 8, 64


def own_netns():
	libc = ctypes.CDLL(None, use_errno=True)
	if libc.unshare(CLONE_NEWNET):
		sys.exit("fib_count.py: unshare(CLONE_NEWNET): %s" %
			 os.strerror(ctypes.get_errno()))
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	ifr = struct.pack("16sH14x", b"lo", 0)
	flags = struct.unpack_from("H", fcntl.ioctl(s, SIOCGIFFLAGS, ifr), 16)[0]
	fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))
	s.close()


def fill(rx, tx):
	"""datagrams until rx drops one: full, it drops every next one"""
	for _ in range(FILL_MAX):
		tx.sendto(b"test\n", rx.getsockname())
		mem = rx.getsockopt(socket.SOL_SOCKET, SO_MEMINFO,
				    4 * (SK_MEMINFO_DROPS + 1))
		if struct.unpack_from("I", mem, 4 * SK_MEMINFO_DROPS)[0]:
			return
	sys.exit("fib_count.py: the receiver dropped none of %d datagrams" %
		 FILL_MAX)


def main():
	stats = watch_bpf.enable_stats()
	if stats < 0:
		sys.exit("fib_count.py: BPF_ENABLE_STATS: %s" % os.strerror(-stats))
	hold = subprocess.Popen([sys.argv[1], "fib_table_lookup"],
				stdout=subprocess.PIPE, text=True)
	try:
		if hold.stdout.readline().strip() != "attached":
			sys.exit("fib_count.py: hold_hook did not attach")
		ids = watch_bpf.fd_prog_ids(hold.pid)
		if len(ids) != 1:
			sys.exit("fib_count.py: hold_hook holds programs %s" % ids)
		fd = watch_bpf.prog_ref(ids.pop())
		if fd < 0:
			sys.exit("fib_count.py: BPF_PROG_GET_FD_BY_ID: %s" %
				 os.strerror(-fd))
		own_netns()
		rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
		rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 0)
		rx.bind(("127.0.0.1", 0))
		tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
		fill(rx, tx)
		least = None
		for _ in range(ROUNDS):
			cnt0, miss0, _ = watch_bpf.prog_runs(fd)
			for _ in range(DATAGRAMS):
				tx.sendto(b"test\n", rx.getsockname())
			cnt1, miss1, _ = watch_bpf.prog_runs(fd)
			n = cnt1 + miss1 - cnt0 - miss0
			least = n if least is None else min(least, n)
		print((least + DATAGRAMS // 2) // DATAGRAMS)
	finally:
		hold.kill()
		hold.wait()


main()
