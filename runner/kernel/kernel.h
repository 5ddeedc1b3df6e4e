/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_KERNEL_H
#define __RUNNER_KERNEL_H

#include "bench.h"

/* CONFIG_x: 1 =y/=m, 0 not set, -1 unknown */
int kernel_config(const char *option);
struct btf;
struct btf *kernel_btf(void);
bool btf_has_func(const char *name);
bool btf_has_typedef(const char *name);
/* whether the kernel's enum @type has @value: 1, 0, or -1 unknown (no BTF) */
int btf_enum_has(const char *type, const char *value);
bool tracefs_mounted(void);

/* what changes a program's cost besides its code; -1: unknown */
struct bpf_jit_state {
	int enable;		/* net.core.bpf_jit_enable */
	int harden;		/* net.core.bpf_jit_harden */
	int kallsyms;		/* net.core.bpf_jit_kallsyms */
	int always_on;		/* CONFIG_BPF_JIT_ALWAYS_ON */
};

void bpf_jit_read(struct bpf_jit_state *j);

/* what the kernel answered, asked once a run: kernel/probes.c */
struct probe_cache {
	struct btf *btf;		/* kernel_btf(): NULL when none loads */
	bool btf_tried;
	char *config;			/* kernel_config_text(): NULL when none */
	bool config_tried;
	struct bpf_jit_state jit;	/* bpf_jit_read() */
	bool jit_read;
	int nr_cpus_possible;		/* 0 until asked */
	int bpf_lsm;			/* attach/trace.c: 0 not asked, 1 active, -1 not */
	struct outcome bpf_lsm_why;	/* why not, when bpf_lsm < 0 */
	/* libbpf_version_text(), the library's: "" until asked */
	char libbpf_version[48];
};
extern struct probe_cache probe_cache;

/* online CPUs this process may run on (cpuset, affinity) */
int usable_cpus(struct cpu_list *out);
/* root, or the capabilities BPF needs, in the initial user namespace */
int check_privileges(void);
/* mounts tracefs when it is missing, and says so */
int ensure_tracefs(void);
/* notes a cgroup CPU quota smaller than @nr_cpus CPUs */
void warn_cpu_quota(int nr_cpus);
/*
 * One run at a time: waits up to @wait_s for the holder, naming it. 0;
 * -EBUSY still held, -EINTR on a signal, another -errno (all said)
 */
int bench_lock(const char *tool, double wait_s);

/* stat(), not access(): access() drops the capabilities of a non-root uid */
bool exists(const char *path);
/* @rel in the first tracefs mount that has it; false, errno EACCES or ENOENT */
bool tracefs_path(const char *rel, char *buf, size_t len);

#endif /* __RUNNER_KERNEL_H */
