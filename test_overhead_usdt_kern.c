// SPDX-License-Identifier: GPL-2.0
/*
 * USDT: a probe point in test_overhead itself (<sys/sdt.h>), attached by
 * libbpf from its ELF note. usdt.bpf.h brings the spec maps libbpf fills.
 */
#include "overhead_kern.h"
#include <bpf/usdt.bpf.h>

SEC("?usdt")
int BPF_USDT(usdt_count)
{
	count_hit();
	return 0;
}
