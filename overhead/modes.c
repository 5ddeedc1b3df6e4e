// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's modes: how the program is attached. An entry per id of
 * OVERHEAD_MODES (overhead.h), which gives each its name, indexed by
 * enum mode_id; the kinds are the runner's (attach/attach.h), the
 * programs the skeletons' (test_overhead_*_kern.c).
 */
#include "bench.h"
#include "test_overhead.h"
#include "test_overhead_kprobe_kern.skel.h"
#include "test_overhead_tp_kern.skel.h"
#include "test_overhead_raw_tp_kern.skel.h"
#include "test_overhead_fentry_kern.skel.h"
#include "test_overhead_uprobe_kern.skel.h"
#include "test_overhead_usdt_kern.skel.h"
#include "overhead.h"

/* ---- the BPF objects, through their skeletons ---- */

OVERHEAD_SKEL(test_overhead_kprobe_kern);
OVERHEAD_SKEL(test_overhead_tp_kern);
OVERHEAD_SKEL(test_overhead_raw_tp_kern);
OVERHEAD_SKEL(test_overhead_fentry_kern);
OVERHEAD_SKEL(test_overhead_uprobe_kern);
OVERHEAD_SKEL(test_overhead_usdt_kern);

/* each mode's name, as OVERHEAD_MODES gives it beside its id */
#define MODE_NAME(id, name)	[MODE_##id] = name,
static const char names[NR_MODES][OVERHEAD_NAME_MAX] = {
	OVERHEAD_MODES(MODE_NAME)
};
#undef MODE_NAME

/* no name cut short of its NUL */
#define MODE_NAME_FITS(id, name)					\
	_Static_assert(sizeof(name) <= OVERHEAD_NAME_MAX,		\
		       "mode " name ": name longer than OVERHEAD_NAME_MAX");
OVERHEAD_MODES(MODE_NAME_FITS)
#undef MODE_NAME_FITS

const struct attach_mode modes[] = {
	[MODE_BASE] = {
		.name = names[MODE_BASE],
		.header = "BASE",
		.flag = 0x1,
		.help = "nothing attached",
	},
	[MODE_KPROBE] = {
		.name = names[MODE_KPROBE],
		.header = "w/KPROBE",
		.kind = &kind_kprobe,
		.flag = 0x4,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern, kprobe_count),
		.help = "kprobe on the event's kernel function",
	},
	[MODE_KRETPROBE] = {
		.name = names[MODE_KRETPROBE],
		.header = "w/KRETPROBE",
		.kind = &kind_kretprobe,
		.flag = 0x100,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern, kretprobe_count),
		.help = "kretprobe on it",
	},
	[MODE_TRACEPOINT] = {
		.name = names[MODE_TRACEPOINT],
		.header = "w/TRACEPOINT",
		.kind = &kind_tracepoint,
		.flag = 0x10,
		.skel = &test_overhead_tp_kern_skel,
		.count_prog = PROG(test_overhead_tp_kern, tracepoint_count),
		.help = "the event's tracepoint",
	},
	[MODE_RAW_TP] = {
		.name = names[MODE_RAW_TP],
		.header = "w/RAW_TRACEPOINT",
		.kind = &kind_raw_tp,
		.flag = 0x40,
		.skel = &test_overhead_raw_tp_kern_skel,
		.count_prog = PROG(test_overhead_raw_tp_kern, raw_tp_count),
		.help = "raw tracepoint on it",
	},
	[MODE_TP_BTF] = {
		.name = names[MODE_TP_BTF],
		.header = "w/TP_BTF",
		.kind = &kind_tp_btf,
		.flag = 0x400,
		.skel = &test_overhead_raw_tp_kern_skel,
		.count_prog = PROG(test_overhead_raw_tp_kern, tp_btf_count),
		.help = "BTF-typed raw tracepoint on it",
	},
	[MODE_FENTRY] = {
		.name = names[MODE_FENTRY],
		.header = "w/FENTRY",
		.kind = &kind_fentry,
		.flag = 0x1000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, fentry_count),
		.help = "fentry on the kernel function",
	},
	[MODE_FEXIT] = {
		.name = names[MODE_FEXIT],
		.header = "w/FEXIT",
		.kind = &kind_fexit,
		.flag = 0x4000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, fexit_count),
		.help = "fexit on it",
	},
	[MODE_FMOD_RET] = {
		.name = names[MODE_FMOD_RET],
		.header = "w/FMOD_RET",
		.kind = &kind_fmod_ret,
		.flag = 0x200000,
		.skel = &test_overhead_fentry_kern_skel,
		.help = "task_rename: on prctl's LSM hook, returning 0;\n"
			"getpgid: on the syscall, returning an error so its\n"
			"body is skipped (it measures something else)",
	},
	[MODE_UPROBE] = {
		.name = names[MODE_UPROBE],
		.header = "w/UPROBE",
		.kind = &kind_uprobe,
		.skel = &test_overhead_uprobe_kern_skel,
		.count_prog = PROG(test_overhead_uprobe_kern, uprobe_count),
		.help = "uprobe on the uprobe-* functions",
	},
	[MODE_URETPROBE] = {
		.name = names[MODE_URETPROBE],
		.header = "w/URETPROBE",
		.kind = &kind_uretprobe,
		.skel = &test_overhead_uprobe_kern_skel,
		.count_prog = PROG(test_overhead_uprobe_kern, uretprobe_count),
		.help = "uretprobe on them",
	},
	[MODE_KPROBE_MULTI] = {
		.name = names[MODE_KPROBE_MULTI],
		.header = "w/KPROBE_MULTI",
		.kind = &kind_kprobe_multi,
		.flag = 0x2000000,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern,
				  kprobe_multi_count),
		.help = "kprobe.multi (fprobe) on kprobe's function",
	},
	[MODE_KRETPROBE_MULTI] = {
		.name = names[MODE_KRETPROBE_MULTI],
		.header = "w/KRETPROBE_MULTI",
		.kind = &kind_kretprobe_multi,
		.flag = 0x8000000,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern,
				  kretprobe_multi_count),
		.help = "kretprobe.multi on it",
	},
	[MODE_KPROBE_SESSION] = {
		.name = names[MODE_KPROBE_SESSION],
		.header = "w/KPROBE_SESSION",
		.kind = &kind_kprobe_session,
		.flag = 0x200000000,
		.skel = &test_overhead_kprobe_kern_skel,
		.count_prog = PROG(test_overhead_kprobe_kern,
				  kprobe_session_count),
		.help = "kprobe.session on it, entry only (libbpf 1.5)",
	},
	[MODE_LSM] = {
		.name = names[MODE_LSM],
		.header = "w/LSM",
		.kind = &kind_lsm,
		.flag = 0x20000000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, lsm_count),
		.help = "BPF LSM on prctl's hook task_prctl, returning 0",
	},
	[MODE_LSM_S] = {
		.name = names[MODE_LSM_S],
		.header = "w/LSM_S",
		.kind = &kind_lsm_s,
		.flag = 0x800000000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, lsm_s_count),
		.help = "the same, sleepable: task_prctl is among the\n"
			"hooks the kernel lets sleepable programs take",
	},
	[MODE_FENTRY_S] = {
		.name = names[MODE_FENTRY_S],
		.header = "w/FENTRY_S",
		.kind = &kind_fentry_s,
		.flag = 0x80000000,
		.skel = &test_overhead_fentry_kern_skel,
		.count_prog = PROG(test_overhead_fentry_kern, fentry_s_count),
		.help = "sleepable fentry on the kernel function, where\n"
			"the verifier allows it (error-injectable ones)",
	},
	[MODE_UPROBE_S] = {
		.name = names[MODE_UPROBE_S],
		.header = "w/UPROBE_S",
		.kind = &kind_uprobe_s,
		.skel = &test_overhead_uprobe_kern_skel,
		.count_prog = PROG(test_overhead_uprobe_kern, uprobe_s_count),
		.help = "sleepable uprobe on the uprobe-* functions",
	},
	[MODE_UPROBE_MULTI] = {
		.name = names[MODE_UPROBE_MULTI],
		.header = "w/UPROBE_MULTI",
		.kind = &kind_uprobe_multi,
		.skel = &test_overhead_uprobe_kern_skel,
		.count_prog = PROG(test_overhead_uprobe_kern,
				  uprobe_multi_count),
		.help = "uprobe.multi on them (libbpf 1.3)",
	},
	[MODE_USDT] = {
		.name = names[MODE_USDT],
		.header = "w/USDT",
		.kind = &kind_usdt,
		.skel = &test_overhead_usdt_kern_skel,
		.count_prog = PROG(test_overhead_usdt_kern, usdt_count),
		.help = "USDT probe test_overhead:nop (usdt-nop)",
	},
};

/* an entry for the last id too (a designated table ends at its last) */
_Static_assert(ARRAY_SIZE(modes) == NR_MODES,
	       "modes[] has an entry for each id of OVERHEAD_MODES");
