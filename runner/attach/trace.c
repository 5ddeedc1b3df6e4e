// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds that hook a tracepoint (tracepoint, raw_tp, tp_btf) or a BPF
 * trampoline on a kernel function (fentry, fexit, fentry.s, fmod_ret):
 * apart from the others, each file one family of hooks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "attach/attach_int.h"
#include "kernel/kernel.h"
#include "core/core.h"

static bool has_tracepoint(const struct attach_target *t)
{
	return t->tp_category && t->tp_name;
}

static const char *tracepoint_prepare(const struct attach_kind *kind,
				      struct bpf_program *prog,
				      const struct attach_target *t,
				      struct attach_refusals *refused,
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

static struct bpf_link *tracepoint_attach(const struct attach_kind *kind,
					  struct bpf_program *prog,
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
	.tracepoint = true,
};

static bool has_raw_tp(const struct attach_target *t)
{
	return t->tp_name || t->raw_tp_name;
}

static const char *raw_tp_name(const struct attach_target *t)
{
	return t->raw_tp_name ? t->raw_tp_name : t->tp_name;
}

static const char *raw_tp_prepare(const struct attach_kind *kind,
				  struct bpf_program *prog,
				  const struct attach_target *t,
				  struct attach_refusals *refused,
				  struct outcome *out)
{
	return raw_tp_name(t);
}

static struct bpf_link *raw_tp_attach(const struct attach_kind *kind,
				      struct bpf_program *prog,
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
	.tracepoint = true,
};

static const char *tp_btf_prepare(const struct attach_kind *kind,
				  struct bpf_program *prog,
				  const struct attach_target *t,
				  struct attach_refusals *refused,
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
static struct bpf_link *trace_attach(const struct attach_kind *kind,
				     struct bpf_program *prog,
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
	.tracepoint = true,
};

static const char *fentry_prepare(const struct attach_kind *kind,
				  struct bpf_program *prog,
				  const struct attach_target *t,
				  struct attach_refusals *refused,
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

/*
 * Sleepable fentry: the verifier allows it only on functions that may
 * fault, the error-injectable ones; its log says so where not.
 */
const struct attach_kind kind_fentry_s = {
	.name = "fentry.s",
	.needs = { "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT",
		   "DEBUG_INFO_BTF", "FUNCTION_ERROR_INJECTION" },
	.applies = has_kfunc,
	.prepare = fentry_prepare,
	.attach = trace_attach,
	.trampoline = true,
	.sleepable = true,
};

static bool debugfs_mounted(void)
{
	struct statfs st;

	return !statfs("/sys/kernel/debug", &st) && st.f_type == DEBUGFS_MAGIC;
}

/* a line of the error-injection list, "name\tERRNO": 1 when it is @func */
static int names_func(char *line, void *func)
{
	char sym[128];

	return sscanf(line, "%127s", sym) == 1 && !strcmp(sym, func);
}

/* fmod_ret may only change what the kernel lists as error-injectable */
static bool error_injectable(const char *func, struct outcome *out)
{
	const char *list = "/sys/kernel/debug/error_injection/list";
	int found;

	if (kernel_config("CONFIG_FUNCTION_ERROR_INJECTION") == 0) {
		outcome_set(out, ST_SKIPPED,
			    "kernel built without CONFIG_FUNCTION_ERROR_INJECTION: %s is not modifiable",
			    func);
		return false;
	}
	found = for_each_line(list, names_func, (void *)func);
	if (found < 0 && debugfs_mounted()) {
		/* debugfs has the list whenever the kernel keeps one */
		outcome_set(out, ST_SKIPPED,
			    "kernel has no error-injection list (CONFIG_FUNCTION_ERROR_INJECTION off): %s is not modifiable",
			    func);
		return false;
	}
	if (found < 0)
		return true;	/* no list to read: the load will tell */
	if (!found)
		outcome_set(out, ST_SKIPPED,
			    "%s is not on the kernel's error-injection list",
			    func);
	return found;
}

/*
 * The kernel BTF's own copy of function @name, or NULL when it has none:
 * a name that lives as long as the BTF kernel_btf() keeps, so a row may
 * keep it as the name it hooked.
 */
static const char *btf_func_name(const char *name)
{
	struct btf *btf = kernel_btf();
	int id = btf ? btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) : -1;

	if (id <= 0)
		return NULL;
	return btf__name_by_offset(btf, btf__type_by_id(btf, id)->name_off);
}

static bool fmod_ret_applies(const struct attach_target *t)
{
	return t->lsm_hook || (t->kfunc[0] && t->error_injection);
}

/*
 * fmod_ret may change only what the verifier lets it: any LSM hook
 * (security_*), or a function on the error-injection list.
 */
static const char *fmod_ret_prepare(const struct attach_kind *kind,
				    struct bpf_program *prog,
				    const struct attach_target *t,
				    struct attach_refusals *refused,
				    struct outcome *out)
{
	char hook[128];
	const char *name;

	if (!t->lsm_hook) {
		name = resolve_kfunc(t, true, out);
		if (!name || !error_injectable(name, out))
			return NULL;
		return target_set(prog, name, out) ? name : NULL;
	}
	snprintf(hook, sizeof(hook), "security_%s", t->lsm_hook);
	name = btf_func_name(hook);
	if (name)
		return target_set(prog, name, out) ? name : NULL;
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
