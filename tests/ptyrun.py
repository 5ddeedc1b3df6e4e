#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ptyrun.py LOG CMD...: CMD with its stderr on a terminal, copied to LOG.

The tools show their progress line ("[1/1] raw_tp getpgid, sample 2") on
a terminal only: a test that must know which sample a run is in reads it
from LOG. CMD replaces this process, keeping its pid (the one the test's
watcher looks at); the copier is no child of it, so that it is never
taken for one of the run's workers. It ends when CMD and everything that
inherited its stderr have.
"""
import os
import pty
import sys


def copy(master, path):
	with open(path, "wb", buffering=0) as log:
		while True:
			try:
				b = os.read(master, 4096)
			except OSError:		# EIO: no one holds the terminal
				return
			if not b:
				return
			log.write(b)


def main():
	if len(sys.argv) < 3:
		sys.exit("usage: ptyrun.py LOG CMD...")
	master, slave = pty.openpty()
	pid = os.fork()
	if pid == 0:
		# the copier: a grandchild, handed to init at once
		os.close(slave)
		if os.fork() == 0:
			copy(master, sys.argv[1])
		os._exit(0)
	os.waitpid(pid, 0)
	os.close(master)
	os.dup2(slave, 2)
	os.close(slave)
	os.execvp(sys.argv[2], sys.argv[2:])


main()
