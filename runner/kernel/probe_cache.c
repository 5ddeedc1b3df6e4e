// SPDX-License-Identifier: GPL-2.0
/*
 * What the running kernel answered, asked once a run: its BTF, its
 * config, the JIT's settings, the number of possible CPUs, whether bpf
 * is an active LSM; and libbpf's version, the library's. Apart so that
 * the files that ask (bench_btf.c, bench_kconfig.c, bench_usable_cpus.c,
 * attach_lsm.c, bench_summary.c) share one cache and none needs another
 * for it.
 */
#include "kernel/kernel.h"

/*
 * Global on purpose, and the runner's only cache of the kernel's
 * answers: the families' probes ask kernel_config(), btf_has_func(),
 * nr_cpus_possible() through bench.h from callbacks that take no run
 * context, and each answer stands for the whole run (libbpf's version
 * too: the families print libbpf_version_text() as it is, with no
 * buffer of theirs). The JIT's sysctls
 * must be read before a row moves the run into a network namespace of
 * its own (fib_table_lookup), so a later reader must find them here.
 */
struct probe_cache probe_cache;
