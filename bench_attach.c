// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and attaching BPF programs, one table entry per attach kind,
 * and, when the kernel cannot do it, finding out why by probing the
 * kernel itself: never a version table.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bench_attach.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524	/* the kernel's own, not in libc's errno.h */
#endif

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

/* ---- kernel probes ---- */

/* stat(), not access(): access() drops the capabilities of a non-root uid */
static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static bool tracefs_path(const char *rel, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
		snprintf(buf, len, "%s/%s", tracefs_dirs[i], rel);
		if (exists(buf))
			return true;
	}
	return false;
}

/*
 * False with the reason when this kernel cannot attach @kind ("kprobe",
 * "uprobe") at all: no perf PMU of that name and no <kind>_events file.
 */
static bool probes_available(const char *kind, const char *config,
			     struct outcome *out)
{
	char path[256], events[32];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 kind);
	snprintf(events, sizeof(events), "%s_events", kind);
	if (exists(path) || tracefs_path(events, path, sizeof(path)))
		return true;
	if (kernel_config(config) == 0)
		outcome_set(out, ST_SKIPPED, "kernel built without %s", config);
	else if (!tracefs_mounted())
		outcome_set(out, ST_SKIPPED,
			    "no %s PMU, and tracefs is not mounted", kind);
	else
		outcome_set(out, ST_SKIPPED,
			    "kernel has no %s PMU and no %s_events", kind, kind);
	return false;
}

static bool debugfs_mounted(void)
{
	struct statfs st;

	return !statfs("/sys/kernel/debug", &st) && st.f_type == DEBUGFS_MAGIC;
}

/* fmod_ret may only change what the kernel lists as error-injectable */
static bool error_injectable(const char *func, struct outcome *out)
{
	char line[256], sym[128];
	bool found = false;
	FILE *f;

	if (kernel_config("CONFIG_FUNCTION_ERROR_INJECTION") == 0) {
		outcome_set(out, ST_SKIPPED,
			    "kernel built without CONFIG_FUNCTION_ERROR_INJECTION: %s is not modifiable",
			    func);
		return false;
	}
	f = fopen("/sys/kernel/debug/error_injection/list", "r");
	if (!f && debugfs_mounted()) {
		/* debugfs has the list whenever the kernel keeps one */
		outcome_set(out, ST_SKIPPED,
			    "kernel has no error-injection list (CONFIG_FUNCTION_ERROR_INJECTION off): %s is not modifiable",
			    func);
		return false;
	}
	if (!f)
		return true;	/* no list to read: the load will tell */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%127s", sym) == 1 && !strcmp(sym, func);
	fclose(f);
	if (!found)
		outcome_set(out, ST_SKIPPED,
			    "%s is not on the kernel's error-injection list",
			    func);
	return found;
}

static bool kallsyms_has(const char *name)
{
	char line[512], sym[256], type;
	bool found = false;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %c %255s", &type, sym) == 2 &&
			(type == 't' || type == 'T') && !strcmp(sym, name);
	fclose(f);
	return found;
}

/*
 * The first of t->kfunc the kernel has: kprobes need a symbol,
 * trampolines the function's BTF.
 */
static const char *resolve_kfunc(const struct attach_target *t, bool need_btf,
				 struct outcome *out)
{
	char names[128] = "";
	size_t i, off = 0;

	for (i = 0; i < sizeof(t->kfunc) / sizeof(t->kfunc[0]); i++) {
		if (!t->kfunc[i])
			break;
		if (btf_has_func(t->kfunc[i]) ||
		    (!need_btf && kallsyms_has(t->kfunc[i])))
			return t->kfunc[i];
		off += snprintf(names + off, sizeof(names) - off, "%s%s",
				i ? " or " : "", t->kfunc[i]);
	}
	if (need_btf && !kernel_btf())
		outcome_set(out, ST_SKIPPED,
			    "kernel has no BTF (/sys/kernel/btf/vmlinux): %s cannot be found",
			    names);
	else if (need_btf)
		outcome_set(out, ST_SKIPPED, "%s not in the kernel's BTF",
			    names);
	else
		outcome_set(out, ST_SKIPPED, "no kernel function %s", names);
	return NULL;
}

static bool target_set(struct bpf_program *prog, const char *name,
		       struct outcome *out)
{
	int err = bpf_program__set_attach_target(prog, 0, name);

	if (err)
		outcome_set(out, ST_SKIPPED, "%s: %s", name,
			    err == -ESRCH || err == -ENOENT ?
			    "not in the kernel's BTF" : strerror(-err));
	return !err;
}

/* ---- the kinds ---- */

static bool has_kfunc(const struct attach_target *t)
{
	return t->kfunc[0];
}

static const char *kprobe_prepare(struct bpf_program *prog,
				  const struct attach_target *t,
				  struct outcome *out)
{
	if (!probes_available("kprobe", "CONFIG_KPROBES", out))
		return NULL;
	return resolve_kfunc(t, false, out);
}

static struct bpf_link *kprobe_attach(struct bpf_program *prog,
				      const struct attach_target *t,
				      const char *name)
{
	return bpf_program__attach_kprobe(prog, false, name);
}

static struct bpf_link *kretprobe_attach(struct bpf_program *prog,
					 const struct attach_target *t,
					 const char *name)
{
	return bpf_program__attach_kprobe(prog, true, name);
}

const struct attach_kind kind_kprobe = {
	.name = "kprobe",
	.needs = { "KPROBES", "BPF_EVENTS" },
	.applies = has_kfunc,
	.prepare = kprobe_prepare,
	.attach = kprobe_attach,
};

const struct attach_kind kind_kretprobe = {
	.name = "kretprobe",
	.needs = { "KPROBES", "BPF_EVENTS" },
	.applies = has_kfunc,
	.prepare = kprobe_prepare,
	.attach = kretprobe_attach,
};

static bool has_syscall(const struct attach_target *t)
{
	return t->syscall;
}

static const char *ksyscall_prepare(struct bpf_program *prog,
				    const struct attach_target *t,
				    struct outcome *out)
{
	return probes_available("kprobe", "CONFIG_KPROBES", out) ?
	       t->syscall : NULL;
}

static struct bpf_link *ksyscall_attach(struct bpf_program *prog,
					const struct attach_target *t,
					const char *name)
{
	return bpf_program__attach_ksyscall(prog, name, NULL);
}

const struct attach_kind kind_ksyscall = {
	.name = "kprobe",
	.needs = { "KPROBES", "BPF_EVENTS" },
	.applies = has_syscall,
	.prepare = ksyscall_prepare,
	.attach = ksyscall_attach,
};

static bool has_tracepoint(const struct attach_target *t)
{
	return t->tp_category && t->tp_name;
}

static const char *tracepoint_prepare(struct bpf_program *prog,
				      const struct attach_target *t,
				      struct outcome *out)
{
	char rel[128], path[256];

	if (!tracefs_mounted()) {
		outcome_set(out, ST_SKIPPED, "tracefs is not mounted");
		return NULL;
	}
	snprintf(rel, sizeof(rel), "events/%s/%s", t->tp_category, t->tp_name);
	if (tracefs_path(rel, path, sizeof(path)))
		return t->tp_name;
	/* tracefs is mode 0700: without DAC override it looks empty */
	if (errno == EACCES)
		outcome_set(out, ST_SKIPPED,
			    "tracefs is root's: tracepoints need CAP_DAC_READ_SEARCH too");
	else
		outcome_set(out, ST_SKIPPED,
			    "no tracepoint %s:%s in this kernel",
			    t->tp_category, t->tp_name);
	return NULL;
}

static struct bpf_link *tracepoint_attach(struct bpf_program *prog,
					  const struct attach_target *t,
					  const char *name)
{
	return bpf_program__attach_tracepoint(prog, t->tp_category, name);
}

const struct attach_kind kind_tracepoint = {
	.name = "tracepoint",
	.needs = { "BPF_EVENTS" },
	.applies = has_tracepoint,
	.prepare = tracepoint_prepare,
	.attach = tracepoint_attach,
	.denied = "the tracepoint's id in tracefs is root's: needs CAP_DAC_READ_SEARCH too",
};

static bool has_raw_tp(const struct attach_target *t)
{
	return t->tp_name || t->raw_tp_name;
}

static const char *raw_tp_name(const struct attach_target *t)
{
	return t->raw_tp_name ? t->raw_tp_name : t->tp_name;
}

static const char *raw_tp_prepare(struct bpf_program *prog,
				  const struct attach_target *t,
				  struct outcome *out)
{
	return raw_tp_name(t);
}

static struct bpf_link *raw_tp_attach(struct bpf_program *prog,
				      const struct attach_target *t,
				      const char *name)
{
	return bpf_program__attach_raw_tracepoint(prog, name);
}

const struct attach_kind kind_raw_tp = {
	.name = "raw_tp",
	.needs = { "BPF_EVENTS" },
	.applies = has_raw_tp,
	.prepare = raw_tp_prepare,
	.attach = raw_tp_attach,
};

static const char *tp_btf_prepare(struct bpf_program *prog,
				  const struct attach_target *t,
				  struct outcome *out)
{
	const char *name = raw_tp_name(t);
	char type[128];

	if (!kernel_btf()) {
		outcome_set(out, ST_SKIPPED,
			    "kernel has no BTF (/sys/kernel/btf/vmlinux)");
		return NULL;
	}
	snprintf(type, sizeof(type), "btf_trace_%s", name);
	if (!btf_has_typedef(type)) {
		outcome_set(out, ST_SKIPPED,
			    "no tracepoint %s in the kernel's BTF", name);
		return NULL;
	}
	return target_set(prog, name, out) ? name : NULL;
}

/* tp_btf, fentry, fexit, fmod_ret: the target was set before load */
static struct bpf_link *trace_attach(struct bpf_program *prog,
				     const struct attach_target *t,
				     const char *name)
{
	return bpf_program__attach_trace(prog);
}

const struct attach_kind kind_tp_btf = {
	.name = "tp_btf",
	.needs = { "BPF_EVENTS", "DEBUG_INFO_BTF" },
	.applies = has_raw_tp,
	.prepare = tp_btf_prepare,
	.attach = trace_attach,
};

static const char *fentry_prepare(struct bpf_program *prog,
				  const struct attach_target *t,
				  struct outcome *out)
{
	const char *name = resolve_kfunc(t, true, out);

	return name && target_set(prog, name, out) ? name : NULL;
}

const struct attach_kind kind_fentry = {
	.name = "fentry",
	.needs = { "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT",
		   "DEBUG_INFO_BTF" },
	.applies = has_kfunc,
	.prepare = fentry_prepare,
	.attach = trace_attach,
	.trampoline = true,
};

const struct attach_kind kind_fexit = {
	.name = "fexit",
	.needs = { "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT",
		   "DEBUG_INFO_BTF" },
	.applies = has_kfunc,
	.prepare = fentry_prepare,
	.attach = trace_attach,
	.trampoline = true,
};

static bool fmod_ret_applies(const struct attach_target *t)
{
	return t->lsm_hook || (t->kfunc[0] && t->error_injection);
}

/*
 * fmod_ret may change only what the verifier lets it: any LSM hook
 * (security_*), or a function on the error-injection list.
 */
static const char *fmod_ret_prepare(struct bpf_program *prog,
				    const struct attach_target *t,
				    struct outcome *out)
{
	static char hook[128];
	const char *name;

	if (!t->lsm_hook) {
		name = resolve_kfunc(t, true, out);
		if (!name || !error_injectable(name, out))
			return NULL;
		return target_set(prog, name, out) ? name : NULL;
	}
	snprintf(hook, sizeof(hook), "security_%s", t->lsm_hook);
	if (btf_has_func(hook))
		return target_set(prog, hook, out) ? hook : NULL;
	if (kernel_config("CONFIG_SECURITY") == 0)
		outcome_set(out, ST_SKIPPED,
			    "kernel built without CONFIG_SECURITY: no LSM hook %s",
			    hook);
	else
		outcome_set(out, ST_SKIPPED, "%s not in the kernel's BTF",
			    hook);
	return NULL;
}

const struct attach_kind kind_fmod_ret = {
	.name = "fmod_ret",
	.needs = { "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT",
		   "DEBUG_INFO_BTF" },
	.applies = fmod_ret_applies,
	.prepare = fmod_ret_prepare,
	.attach = trace_attach,
	.trampoline = true,
};

static bool has_ufunc(const struct attach_target *t)
{
	return t->ufunc;
}

static const char *uprobe_prepare(struct bpf_program *prog,
				  const struct attach_target *t,
				  struct outcome *out)
{
	return probes_available("uprobe", "CONFIG_UPROBES", out) ?
	       t->ufunc : NULL;
}

/* every process running this executable, so forked workers too */
static struct bpf_link *uprobe_attach_opts(struct bpf_program *prog,
					   const char *func, bool retprobe)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = func,
		    .retprobe = retprobe);
	char exe[PATH_MAX];
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return NULL;
	exe[n] = '\0';
	return bpf_program__attach_uprobe_opts(prog, -1, exe, 0, &opts);
}

static struct bpf_link *uprobe_attach(struct bpf_program *prog,
				      const struct attach_target *t,
				      const char *name)
{
	return uprobe_attach_opts(prog, name, false);
}

static struct bpf_link *uretprobe_attach(struct bpf_program *prog,
					 const struct attach_target *t,
					 const char *name)
{
	return uprobe_attach_opts(prog, name, true);
}

const struct attach_kind kind_uprobe = {
	.name = "uprobe",
	.needs = { "UPROBE_EVENTS", "BPF_EVENTS" },
	.applies = has_ufunc,
	.prepare = uprobe_prepare,
	.attach = uprobe_attach,
	.denied = "the kernel requires CAP_SYS_ADMIN for uprobes (EACCES)",
};

const struct attach_kind kind_uretprobe = {
	.name = "uretprobe",
	.needs = { "UPROBE_EVENTS", "BPF_EVENTS" },
	.applies = has_ufunc,
	.prepare = uprobe_prepare,
	.attach = uretprobe_attach,
	.denied = "the kernel requires CAP_SYS_ADMIN for uprobes (EACCES)",
};

/* ---- load and attach ---- */

/* a load error the kernel gives for what it cannot do is a skip */
static int load_failed(const struct attach_kind *kind, int err,
		       struct outcome *out)
{
	/* privileges were checked first, so EPERM is the kernel's refusal */
	if (err == -EPERM && kind->trampoline)
		outcome_set(out, ST_SKIPPED,
			    "%s refused by this kernel (EPERM at load)",
			    kind->name);
	else if (err == -ENOTSUPP || err == -EOPNOTSUPP)
		outcome_set(out, ST_SKIPPED,
			    "%s programs not supported by this kernel (%s)",
			    kind->name, err == -ENOTSUPP ? "ENOTSUPP" :
			    "EOPNOTSUPP");
	else if (err == -ESRCH && !kernel_btf())
		/* CO-RE relocations found no kernel BTF to resolve against */
		outcome_set(out, ST_SKIPPED,
			    "kernel has no BTF (/sys/kernel/btf/vmlinux): CO-RE programs cannot load");
	else
		outcome_set(out, ST_FAILED, "%s program load failed: %s%s",
			    kind->name, strerror(-err),
			    verbosity < 2 ? " (-v shows libbpf's log)" : "");
	return err;
}

static void attach_failed(const struct attach_kind *kind, const char *name,
			  int err, struct outcome *out)
{
	if (kind == &kind_raw_tp && err == -ENOENT)
		outcome_set(out, ST_SKIPPED,
			    "no tracepoint %s in this kernel", name);
	else if (err == -EACCES && kind->denied)
		outcome_set(out, ST_SKIPPED, "%s on %s: %s", kind->name, name,
			    kind->denied);
	else if (err == -ENOTSUPP || err == -EOPNOTSUPP)
		outcome_set(out, ST_SKIPPED,
			    "%s on %s not supported by this kernel (%s)",
			    kind->name, name, err == -ENOTSUPP ? "ENOTSUPP" :
			    "EOPNOTSUPP");
	else if ((kind == &kind_kprobe || kind == &kind_kretprobe) &&
		 (err == -EINVAL || err == -ENOENT))
		/* blacklisted or not at a probeable address */
		outcome_set(out, ST_SKIPPED, "kernel refuses %s on %s: %s",
			    kind->name, name, strerror(-err));
	else
		outcome_set(out, ST_FAILED, "%s attach to %s failed: %s",
			    kind->name, name, strerror(-err));
}

int attach_load(const struct attach_kind *kind, struct bpf_object_skeleton *s,
		struct bpf_program *prog, const struct attach_target *t,
		const char **name, struct outcome *out)
{
	int err;

	bpf_program__set_autoload(prog, true);
	*name = kind->prepare(prog, t, out);
	if (!*name)
		return -ENOENT;
	/* the skeleton's load maps its global data where the skeleton sees it */
	err = bpf_object__load_skeleton(s);
	return err ? load_failed(kind, err, out) : 0;
}

struct bpf_link *attach_link(const struct attach_kind *kind,
			     struct bpf_program *prog,
			     const struct attach_target *t, const char *name,
			     struct outcome *out)
{
	struct bpf_link *link = kind->attach(prog, t, name);

	if (!link)
		attach_failed(kind, name, -errno, out);
	return link;
}

/* ---- run-time stats ---- */

int prog_stats_enable(struct outcome *out)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		outcome_set(out, ST_SKIPPED,
			    "kernel cannot enable BPF run-time stats (BPF_ENABLE_STATS: %s)",
			    strerror(errno));
	return fd < 0 ? -errno : fd;
}

int prog_run_totals(int fd, __u64 *run_time_ns, __u64 *run_cnt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*run_time_ns = info.run_time_ns;
	*run_cnt = info.run_cnt;
	return 0;
}

/*
 * The clock cost is a small difference of two means, so an interrupt in
 * the calibration would show as a body below zero: time it in blocks and
 * keep the quietest block, as an interrupt only ever adds time.
 */
#define CLOCK_BLOCKS 10
#define CLOCK_BLOCK_RUNS 2000

int prog_stats_clock_cost(double *ns)
{
	/* r0 = 0; exit: a program that does nothing at all */
	const struct bpf_insn empty[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	__u64 time0 = 0, cnt0 = 0, time1 = 0, cnt1 = 0;
	double block, best = 0;
	__u64 args[1] = {};
	int fd, b, i, err = 0;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "stats_clock", "GPL",
			   empty, 2, NULL);
	if (fd < 0)
		return -errno;
	opts.ctx_in = args;
	opts.ctx_size_in = sizeof(args);
	for (b = 0; b < CLOCK_BLOCKS && !err; b++) {
		for (i = 0; i < CLOCK_BLOCK_RUNS && !err; i++)
			err = bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
		if (!err)
			err = prog_run_totals(fd, &time1, &cnt1);
		if (!err && cnt1 == cnt0)
			err = -ENODATA;
		if (err)
			break;
		block = (double)(time1 - time0) / (cnt1 - cnt0);
		if (b == 0 || block < best)
			best = block;
		time0 = time1;
		cnt0 = cnt1;
	}
	if (!err)
		*ns = best;
	close(fd);
	return err;
}

/* ---- maps ---- */

/* a small map of @map's definition, with or without its flags */
static int try_map_create(struct bpf_map *map, __u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	int fd;

	/* small: only the type and the flags are in question */
	fd = bpf_map_create(bpf_map__type(map), NULL, bpf_map__key_size(map),
			    bpf_map__value_size(map), 1, &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int probe_map(struct bpf_map *map, struct outcome *out)
{
	enum bpf_map_type type = bpf_map__type(map);
	__u32 flags = bpf_map__map_flags(map);
	const char *tname = libbpf_bpf_map_type_str(type);
	struct bpf_map *inner = bpf_map__inner_map(map);
	int err;

	if (libbpf_probe_bpf_map_type(type, NULL) == 0) {
		outcome_set(out, ST_SKIPPED,
			    "kernel has no BPF_MAP_TYPE_%s maps (%s)",
			    tname ? tname : "?", bpf_map__name(map));
		return -EOPNOTSUPP;
	}
	/* a map of maps is probed through the maps it holds */
	if (inner)
		return probe_map(inner, out);
	if (!flags)
		return 0;
	err = try_map_create(map, flags);
	if (err != -EINVAL && err != -EOPNOTSUPP && err != -ENOTSUPP)
		return 0;	/* created, or a failure load will report */
	/* invalid only with the flags: the kernel does not take them */
	if (try_map_create(map, 0))
		return 0;
	outcome_set(out, ST_SKIPPED,
		    "kernel refuses map_flags 0x%x on %s maps (%s): %s", flags,
		    tname ? tname : "?", bpf_map__name(map), strerror(-err));
	return -EOPNOTSUPP;
}
