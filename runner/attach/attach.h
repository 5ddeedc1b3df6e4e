/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __RUNNER_ATTACH_H
#define __RUNNER_ATTACH_H

#include "bench.h"

/*
 * The ways to attach a BPF program, one table entry each. Families name
 * kinds; they never switch on them.
 */

struct bpf_program;
struct bpf_object_skeleton;
struct bpf_link;
struct attach_refusals;

/* where an event can be hooked; a kind uses the fields it needs */
struct attach_target {
	/* kernel functions, in order of preference: the first found wins */
	const char *kfunc[3];
	const char *tp_category;	/* tracepoint */
	const char *tp_name;		/* tracepoint, raw_tp, tp_btf */
	const char *raw_tp_name;	/* raw_tp, tp_btf when not tp_name */
	const char *syscall;		/* ksyscall */
	bool error_injection;		/* fmod_ret may change kfunc */
	const char *lsm_hook;		/* an LSM hook on the path, no prefix */
	const char *ufunc;		/* uprobe: a function of this program */
	const char *usdt_provider;	/* usdt: a probe of this program */
	const char *usdt_name;
};

/* the architecture's syscall stubs' prefix */
#if defined(__x86_64__)
#define SYSCALL_STUB_PREFIX	"__x64_sys_"
#elif defined(__aarch64__)
#define SYSCALL_STUB_PREFIX	"__arm64_sys_"
#elif defined(__s390x__)
#define SYSCALL_STUB_PREFIX	"__s390x_sys_"
#elif defined(__riscv)
#define SYSCALL_STUB_PREFIX	"__riscv_sys_"
#else
#define SYSCALL_STUB_PREFIX	"sys_"
#endif

/*
 * .kfunc of syscall @sc: the arch's stub first (in kallsyms, and what is
 * error-injectable); where the stub is an alias (SYSCALL_DEFINE0's on
 * x86-64) only __do_sys_<sc> has BTF, for a trampoline
 */
#define SYSCALL_KFUNCS(sc)						\
	{ SYSCALL_STUB_PREFIX #sc, "__se_sys_" #sc, "__do_sys_" #sc }

/*
 * What a kind's calls are given: @out says why one failed, and a kind
 * the kernel refuses whatever the target is recorded in @refused
 */
struct attach_call {
	const struct attach_kind *kind;
	struct bpf_program *prog;
	const struct attach_target *t;
	struct attach_refusals *refused;
	struct outcome *out;
};

struct attach_kind {
	const char *name;
	/* the kernel config it needs, NULL-terminated: for --list, vmtest */
	const char *needs[4];
	bool (*applies)(const struct attach_target *t);
	/*
	 * Before load: finds what to hook, checks the kernel has it, points
	 * the program at it. The name hooked, or NULL.
	 */
	const char *(*prepare)(const struct attach_call *c);
	struct bpf_link *(*attach)(const struct attach_call *c,
				   const char *name);
	/*
	 * Attaches to each of @nr kernel functions, the whole set at once
	 * where the kind can: links into @links, their number returned, or
	 * -errno. NULL: one function only. Called via attach_link_syms().
	 */
	int (*attach_syms)(const struct attach_call *c, const char **syms,
			   int nr, struct bpf_link **links);
	bool retprobe;		/* on return: kretprobe, uretprobe */
	bool trampoline;	/* a BPF trampoline: EPERM at load is a refusal */
	bool sleepable;		/* the verifier decides where it may attach */
	bool user;		/* hooks user space: uprobe-* and usdt-* events */
	bool tracepoint;	/* hooks the event's tracepoint, by any name */
	bool enoent_missing;	/* ENOENT at attach: no such tracepoint */
	bool einval_refused;	/* EINVAL, ENOENT at attach: not probeable */
	const char *denied;	/* the privilege an EACCES at attach lacks */
	const char *link_config;	/* what an EOPNOTSUPP at attach lacks */
	const char *lacks;	/* the libbpf built against lacks the API */
	const char *may_lack;	/* why a kernel with all of @needs may not */
};

extern const struct attach_kind kind_kprobe, kind_kretprobe, kind_ksyscall,
	kind_tracepoint, kind_raw_tp, kind_tp_btf, kind_fentry, kind_fexit,
	kind_fmod_ret, kind_uprobe, kind_uretprobe, kind_kprobe_multi,
	kind_kretprobe_multi, kind_kprobe_session, kind_usdt, kind_lsm,
	kind_lsm_s, kind_uprobe_s, kind_fentry_s, kind_uprobe_multi;

/*
 * The calls below are for @row, the row the family's open() or attach()
 * was called for, through which a kind refused is recorded for the run;
 * NULL: a probe outside any row, which records nothing.
 */

/*
 * Prepares @prog of skeleton @s for @kind and loads the object: the name
 * hooked in @name. On failure @out says why.
 */
int attach_load(const struct bench_row *row, const struct attach_kind *kind,
		struct bpf_object_skeleton *s, struct bpf_program *prog,
		const struct attach_target *t, const char **name,
		struct outcome *out);
struct bpf_link *attach_link(const struct bench_row *row,
			     const struct attach_kind *kind,
			     struct bpf_program *prog,
			     const struct attach_target *t, const char *name,
			     struct outcome *out);
/* @kind's attach_syms(), which it must have, for @row */
int attach_link_syms(const struct bench_row *row,
		     const struct attach_kind *kind, struct bpf_program *prog,
		     const char **syms, int nr, struct bpf_link **links,
		     struct outcome *out);
/*
 * Whether the kernel was found to refuse @kind whatever the target: then
 * @out (if not NULL) says why, as the row that found it did
 */
bool attach_refused(const struct bench_row *row,
		    const struct attach_kind *kind, struct outcome *out);

/*
 * This program's own file, for the uprobes on it: /proc/self/exe opens
 * whatever its path's directories allow (a copy in a mktemp -d directory)
 */
#define SELF_EXE	"/proc/self/exe"

#endif /* __RUNNER_ATTACH_H */
