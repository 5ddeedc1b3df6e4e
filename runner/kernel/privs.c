// SPDX-License-Identifier: GPL-2.0
/*
 * Privileges and namespaces: whether this process may load and attach
 * BPF (root, or CAP_BPF and CAP_PERFMON, in the initial user namespace),
 * and which pid namespace it runs in, which the programs' own-task test
 * needs. Asked of the kernel, never assumed from the uid.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include "kernel/kernel.h"
#include "core/core.h"

/* the inodes the kernel gives its initial namespaces */
#define PROC_USER_INIT_INO	0xEFFFFFFDU
#define PROC_PID_INIT_INO	0xEFFFFFFCU

static bool has_cap(const struct __user_cap_data_struct *data, int cap)
{
	return data[cap / 32].effective & (1U << (cap % 32));
}

static bool in_initial_userns(void)
{
	struct stat st;

	/* without /proc we cannot tell: let the kernel answer later */
	return stat("/proc/self/ns/user", &st) || st.st_ino == PROC_USER_INIT_INO;
}

int check_privileges(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (!in_initial_userns()) {
		pr_err("runs in a user namespace: the kernel allows BPF only with CAP_BPF or CAP_SYS_ADMIN in the initial one");
		return -EPERM;
	}
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	if (has_cap(data, CAP_SYS_ADMIN) ||
	    (has_cap(data, CAP_BPF) && has_cap(data, CAP_PERFMON)))
		return 0;
	pr_err("needs root, or CAP_BPF and CAP_PERFMON (try sudo)");
	return -EPERM;
}

int pid_namespace(__u64 *dev, __u64 *ino, bool *initial)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st))
		return -errno;
	*dev = st.st_dev;
	*ino = st.st_ino;
	*initial = st.st_ino == PROC_PID_INIT_INO;
	return 0;
}
