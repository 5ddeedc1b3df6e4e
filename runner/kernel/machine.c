// SPDX-License-Identifier: GPL-2.0
/*
 * The machine a run starts on: the JIT's settings, the CPUs, the
 * privileges and namespaces, asked of the kernel, never assumed from the
 * uid. tests/stats_test stubs bpf_jit_read() and usable_cpus() instead.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/libbpf.h>
#include "kernel/kernel.h"
#include "core/core.h"

/*
 * Read once, first from bench_main(): the JIT's sysctls are the initial
 * network namespace's, and fib_table_lookup's rows move into their own
 */
void bpf_jit_read(struct bpf_jit_state *j)
{
	struct probe_cache *c = &probe_cache;

	if (!c->jit_read) {
		c->jit.enable = read_sysctl_int("/proc/sys/net/core/bpf_jit_enable");
		c->jit.harden = read_sysctl_int("/proc/sys/net/core/bpf_jit_harden");
		c->jit.kallsyms = read_sysctl_int("/proc/sys/net/core/bpf_jit_kallsyms");
		c->jit.always_on = kernel_config("CONFIG_BPF_JIT_ALWAYS_ON");
		c->jit_read = true;
	}
	*j = c->jit;
}

static const char *sysctl_text(int v, char *buf, size_t len)
{
	if (v < 0)
		return "unreadable";
	snprintf(buf, len, "%d", v);
	return buf;
}

void format_bpf_jit(char *buf, size_t len)
{
	struct bpf_jit_state j;
	char e[16], h[16];

	bpf_jit_read(&j);
	snprintf(buf, len, "bpf_jit_enable %s, bpf_jit_harden %s, %s",
		 sysctl_text(j.enable, e, sizeof(e)),
		 sysctl_text(j.harden, h, sizeof(h)),
		 j.always_on > 0 ? "JIT always on" :
		 j.always_on == 0 ? "JIT not always on" :
		 "JIT always on: unknown (no kernel config)");
}

int nr_cpus_possible(void)
{
	int *nr = &probe_cache.nr_cpus_possible;

	if (!*nr)
		*nr = libbpf_num_possible_cpus();
	return *nr;
}

static int online_cpus(struct cpu_list *out)
{
	char buf[4096];
	FILE *f;
	int err;

	f = fopen("/sys/devices/system/cpu/online", "r");
	if (!f)
		return -errno;
	err = fgets(buf, sizeof(buf), f) ? parse_cpu_ranges(buf, out) : -EIO;
	fclose(f);
	return err;
}

int usable_cpus(struct cpu_list *out)
{
	struct cpu_list online = {};
	size_t size = CPU_ALLOC_SIZE(8192);
	cpu_set_t *set;
	int cpu, err;

	set = CPU_ALLOC(8192);
	if (!set)
		return -ENOMEM;
	if (sched_getaffinity(0, size, set)) {
		err = -errno;
		goto out;
	}
	/* without the online list, the affinity mask alone says it */
	if (online_cpus(&online))
		online.nr = -1;
	out->nr = 0;
	out->cpu = malloc(CPU_COUNT_S(size, set) * sizeof(int));
	err = out->cpu ? 0 : -ENOMEM;
	for (cpu = 0; !err && cpu < 8192; cpu++) {
		if (!CPU_ISSET_S(cpu, size, set))
			continue;
		if (online.nr < 0 || cpu_list_has(&online, cpu))
			out->cpu[out->nr++] = cpu;
	}
	if (!err && !out->nr)
		err = -ENODEV;
out:
	cpu_list_free(&online);
	CPU_FREE(set);
	return err;
}

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
