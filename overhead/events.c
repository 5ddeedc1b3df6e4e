// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's events: what every worker repeats. An entry per id of
 * OVERHEAD_EVENTS (overhead.h), which gives each its name, indexed by
 * enum event_id: its trigger (triggers.c, fib.c, testrun.c), what the
 * modes hook for it, its test_flags bit and count, and the programs of
 * the modes that need one of their own (test_overhead_*_kern.c).
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include "bench.h"
#include "test_overhead.h"
#include "test_overhead_kprobe_kern.skel.h"
#include "test_overhead_tp_kern.skel.h"
#include "test_overhead_raw_tp_kern.skel.h"
#include "test_overhead_fentry_kern.skel.h"
#include "overhead.h"
#include "triggers.h"
#include "fib.h"
#include "testrun.h"

/* each event's name, as OVERHEAD_EVENTS gives it beside its id */
#define EVENT_NAME(id, name)	[EV_##id] = name,
static const char names[NR_EVENTS][OVERHEAD_NAME_MAX] = {
	OVERHEAD_EVENTS(EVENT_NAME)
};
#undef EVENT_NAME

/* no name cut short of its NUL */
#define EVENT_NAME_FITS(id, name)					\
	_Static_assert(sizeof(name) <= OVERHEAD_NAME_MAX,		\
		       "event " name ": name longer than OVERHEAD_NAME_MAX");
OVERHEAD_EVENTS(EVENT_NAME_FITS)
#undef EVENT_NAME_FITS

const struct overhead_event events[] = {
	[EV_TASK_RENAME] = {
		.trigger = { .name = names[EV_TASK_RENAME], .run = rename_run },
		.target = {
			.kfunc = { "__set_task_comm" },
			.tp_category = "task",
			.tp_name = "task_rename",
			.lsm_hook = "task_prctl",
		},
		.flag = PAIR_LOW,
		.count = 70000,
		.prog = {
			[MODE_KPROBE] = PROG(test_overhead_kprobe_kern, kprobe_rename),
			[MODE_KRETPROBE] = PROG(test_overhead_kprobe_kern, kretprobe_rename),
			[MODE_TRACEPOINT] = PROG(test_overhead_tp_kern, tracepoint_rename),
			[MODE_RAW_TP] = PROG(test_overhead_raw_tp_kern, raw_tp_rename),
			[MODE_TP_BTF] = PROG(test_overhead_raw_tp_kern, tp_btf_rename),
			[MODE_FENTRY] = PROG(test_overhead_fentry_kern, fentry_rename),
			[MODE_FEXIT] = PROG(test_overhead_fentry_kern, fexit_rename),
			[MODE_FMOD_RET] = PROG(test_overhead_fentry_kern, fmod_ret_rename),
			[MODE_KPROBE_MULTI] = PROG(test_overhead_kprobe_kern, kprobe_multi_rename),
			[MODE_KRETPROBE_MULTI] = PROG(test_overhead_kprobe_kern, kretprobe_multi_rename),
			[MODE_LSM] = PROG(test_overhead_fentry_kern, lsm_rename),
			[MODE_LSM_S] = PROG(test_overhead_fentry_kern, lsm_s_rename),
			[MODE_FENTRY_S] = PROG(test_overhead_fentry_kern, fentry_s_rename),
		},
		.help = "prctl(PR_SET_NAME)",
	},
	[EV_FIB_TABLE_LOOKUP] = {
		.trigger = {
			.name = names[EV_FIB_TABLE_LOOKUP],
			.setup = fib_setup,
			.run = fib_run,
		},
		.target = {
			.kfunc = { "fib_table_lookup" },
			.tp_category = "fib",
			.tp_name = "fib_table_lookup",
		},
		.flag = PAIR_HIGH,
		.count = 12000,
		.calibrated = true,
		.prepare = fib_prepare,
		.help = "a UDP datagram to a socket on 127.0.0.1, in a\n"
			"network namespace of the run's own",
	},
	[EV_GETPGID] = {
		.trigger = { .name = names[EV_GETPGID], .run = getpgid_run },
		.target = {
			.kfunc = SYSCALL_KFUNCS(getpgid),
			.tp_category = "syscalls",
			.tp_name = "sys_enter_getpgid",
			.raw_tp_name = "sys_enter",
			.error_injection = true,
		},
		.flag = 0x10000,
		.syscall_nr = __NR_getpgid,
		.count = 110000,
		.prog = {
			[MODE_RAW_TP] = PROG(test_overhead_raw_tp_kern, raw_tp_sys_enter),
			[MODE_TP_BTF] = PROG(test_overhead_raw_tp_kern, tp_btf_sys_enter),
			[MODE_FMOD_RET] = PROG(test_overhead_fentry_kern, fmod_ret_error),
		},
		.help = "getpgid(0): cheap, and rarely called by others;\n"
			"raw_tp and tp_btf hook sys_enter, which fires for\n"
			"every syscall, and keep getpgid's",
	},
	[EV_UPROBE_NOP] = {
		.trigger = { .name = names[EV_UPROBE_NOP], .run = uprobe_nop_run },
		.copied = true,
		.copy_of = COPIED_NOP,
		.target = { .ufunc = "uprobe_nop" },
		.flag = 0x20000,
		.count = 32000,
		.base_is_call = true,
		.base_count = 20000000,
		.help = "calls of a function of this program that starts\n"
			"with a nop (uprobe modes; base is the bare call)",
	},
	[EV_UPROBE_PUSH] = {
		.trigger = { .name = names[EV_UPROBE_PUSH], .run = uprobe_push_run },
		.copied = true,
		.copy_of = COPIED_PUSH,
		.target = { .ufunc = "uprobe_push" },
		.flag = 0x40000,
		.count = 32000,
		.base_is_call = true,
		.base_count = 20000000,
		.help = "the same, starting with push %rbp",
	},
	[EV_UPROBE_RET] = {
		.trigger = { .name = names[EV_UPROBE_RET], .run = uprobe_ret_run },
		.copied = true,
		.copy_of = COPIED_RET,
		.target = { .ufunc = "uprobe_ret" },
		.flag = 0x80000,
		.count = 3500,
		.base_is_call = true,
		.base_count = 20000000,
		.help = "the same, starting with ret",
	},
	[EV_USDT_NOP] = {
		.trigger = { .name = names[EV_USDT_NOP], .run = usdt_nop_run },
		.copied = true,
		.copy_of = COPIED_USDT,
		.target = {
			.usdt_provider = "test_overhead",
			.usdt_name = "nop",
		},
		.flag = 0x1000000,
		.count = 80000,
		.base_is_call = true,
		.base_count = 20000000,
		.help = "a USDT probe point of this program (<sys/sdt.h>):\n"
			"a nop and its ELF note (usdt mode; base is the\n"
			"bare probe site)",
	},
	[EV_KERNEL_BATCH] = {
		.trigger = {
			.name = names[EV_KERNEL_BATCH],
			.setup = batch_setup,
			.run = batch_run,
			.events_per_call = KERNEL_BATCH,
		},
		.target = { .kfunc = { "bpf_get_numa_node_id" } },
		.flag = 0x100000,
		.usable = batch_ok,
		.count = 1000000,
		.help = "BPF_PROG_TEST_RUN of a program calling\n"
			"bpf_get_numa_node_id() 100 times: no syscall per\n"
			"event (kprobe, kretprobe, fentry, fexit)",
	},
	[EV_URANDOM_READ] = {
		.trigger = {
			.name = names[EV_URANDOM_READ],
			.setup = urandom_setup,
			.run = urandom_run,
		},
		.target = {
			/* renamed in 5.19 */
			.kfunc = { "urandom_read_iter", "urandom_read" },
			.tp_category = "random",
			.tp_name = "urandom_read",
		},
		.flag = 0x800000,
		.count = 80000,
		.tp_may_lack = "random:urandom_read left the kernel in 5.18",
		.help = "read(2) of 4 bytes of /dev/urandom: upstream's\n"
			"second event before 5.18 removed its tracepoint",
	},
	[EV_SIGNAL_GENERATE] = {
		.trigger = {
			.name = names[EV_SIGNAL_GENERATE],
			.setup = kill_setup,
			.run = kill_run,
		},
		.target = {
			.kfunc = SYSCALL_KFUNCS(kill),
			.tp_category = "signal",
			.tp_name = "signal_generate",
		},
		.flag = 0x2000000000,
		.count = 70000,
		.help = "kill(SIGURG) of the worker itself, which ignores\n"
			"it: the signal is generated and dropped",
	},
};

/* an entry for the last id too (a designated table ends at its last) */
_Static_assert(ARRAY_SIZE(events) == NR_EVENTS,
	       "events[] has an entry for each id of OVERHEAD_EVENTS");
