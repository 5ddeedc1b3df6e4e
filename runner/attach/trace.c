// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds on a tracepoint (tracepoint, raw_tp, tp_btf) or a BPF
 * trampoline (fentry, fexit, fentry.s, fmod_ret, lsm, lsm.s).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <sys/wait.h>
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

static const char *tracepoint_prepare(const struct attach_call *c)
{
	char rel[128], path[256];

	if (!tracefs_mounted()) {
		outcome_set(c->out, ST_SKIPPED, "tracefs is not mounted");
		return NULL;
	}
	snprintf(rel, sizeof(rel), "events/%s/%s", c->t->tp_category,
		 c->t->tp_name);
	if (tracefs_path(rel, path, sizeof(path)))
		return c->t->tp_name;
	/* tracefs is mode 0700: without DAC override it looks empty */
	if (errno == EACCES)
		outcome_set(c->out, ST_SKIPPED,
			    "tracefs is root's: tracepoints need CAP_DAC_READ_SEARCH too");
	else
		outcome_set(c->out, ST_SKIPPED,
			    "no tracepoint %s:%s in this kernel",
			    c->t->tp_category, c->t->tp_name);
	return NULL;
}

static struct bpf_link *tracepoint_attach(const struct attach_call *c,
					  const char *name)
{
	return bpf_program__attach_tracepoint(c->prog, c->t->tp_category, name);
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

static const char *raw_tp_prepare(const struct attach_call *c)
{
	return raw_tp_name(c->t);
}

static struct bpf_link *raw_tp_attach(const struct attach_call *c,
				      const char *name)
{
	return bpf_program__attach_raw_tracepoint(c->prog, name);
}

const struct attach_kind kind_raw_tp = {
	.name = "raw_tp",
	.needs = { "BPF_EVENTS" },
	.applies = has_raw_tp,
	.prepare = raw_tp_prepare,
	.attach = raw_tp_attach,
	.enoent_missing = true,
	.tracepoint = true,
};

static const char *tp_btf_prepare(const struct attach_call *c)
{
	const char *name = raw_tp_name(c->t);
	char type[128];

	if (!kernel_btf()) {
		outcome_set(c->out, ST_SKIPPED,
			    "kernel has no BTF (/sys/kernel/btf/vmlinux)");
		return NULL;
	}
	snprintf(type, sizeof(type), "btf_trace_%s", name);
	if (!btf_has_typedef(type)) {
		outcome_set(c->out, ST_SKIPPED,
			    "no tracepoint %s in the kernel's BTF", name);
		return NULL;
	}
	return target_set(c->prog, name, c->out) ? name : NULL;
}

/* tp_btf, fentry, fexit, fmod_ret: the target was set before load */
static struct bpf_link *trace_attach(const struct attach_call *c,
				     const char *name)
{
	return bpf_program__attach_trace(c->prog);
}

const struct attach_kind kind_tp_btf = {
	.name = "tp_btf",
	.needs = { "BPF_EVENTS", "DEBUG_INFO_BTF" },
	.applies = has_raw_tp,
	.prepare = tp_btf_prepare,
	.attach = trace_attach,
	.tracepoint = true,
};

static const char *fentry_prepare(const struct attach_call *c)
{
	const char *name = resolve_kfunc(c->t, true, c->out);

	return name && target_set(c->prog, name, c->out) ? name : NULL;
}

/* what a BPF trampoline needs of the kernel's config, and then @more */
#define TRAMPOLINE_NEEDS(more...)					\
	{ "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT", "DEBUG_INFO_BTF", more }
#define FENTRY_KIND(kind_name, sleeps, more...) {			\
	.name = kind_name, .needs = TRAMPOLINE_NEEDS(more),		\
	.applies = has_kfunc, .prepare = fentry_prepare,		\
	.attach = trace_attach, .trampoline = true, .sleepable = sleeps, \
}
const struct attach_kind kind_fentry = FENTRY_KIND("fentry", false);
const struct attach_kind kind_fexit = FENTRY_KIND("fexit", false);
/* sleepable fentry: the verifier takes only error-injectable functions */
const struct attach_kind kind_fentry_s =
	FENTRY_KIND("fentry.s", true, "FUNCTION_ERROR_INJECTION");

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

/* the kernel BTF's copy of function @name, kept as the name hooked; NULL */
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

/* fmod_ret may change an LSM hook (security_*) or an error-injectable one */
static const char *fmod_ret_prepare(const struct attach_call *c)
{
	char hook[128];
	const char *name;

	if (!c->t->lsm_hook) {
		name = resolve_kfunc(c->t, true, c->out);
		if (!name || !error_injectable(name, c->out))
			return NULL;
		return target_set(c->prog, name, c->out) ? name : NULL;
	}
	snprintf(hook, sizeof(hook), "security_%s", c->t->lsm_hook);
	name = btf_func_name(hook);
	if (name)
		return target_set(c->prog, name, c->out) ? name : NULL;
	if (kernel_config("CONFIG_SECURITY") == 0)
		outcome_set(c->out, ST_SKIPPED,
			    "kernel built without CONFIG_SECURITY: no LSM hook %s",
			    hook);
	else
		outcome_set(c->out, ST_SKIPPED, "%s not in the kernel's BTF",
			    hook);
	return NULL;
}

const struct attach_kind kind_fmod_ret = {
	.name = "fmod_ret",
	.needs = TRAMPOLINE_NEEDS(),
	.applies = fmod_ret_applies,
	.prepare = fmod_ret_prepare,
	.attach = trace_attach,
	.trampoline = true,
};

/* ---- the BPF LSM ---- */

static bool has_lsm_hook(const struct attach_target *t)
{
	return t->lsm_hook;
}

/* the active LSMs from securityfs, written to @fd: 0, or -errno */
static int read_lsm_file(int fd)
{
	char buf[512];
	ssize_t n;
	int in;

	in = open("/sys/kernel/security/lsm", O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	n = read(in, buf, sizeof(buf) - 1);
	close(in);
	if (n < 0)
		return -errno;
	return write(fd, buf, n) == n ? 0 : -EIO;
}

static bool securityfs_mounted(void)
{
	struct statfs st;

	return !statfs("/sys/kernel/security", &st) &&
	       st.f_type == SECURITYFS_MAGIC;
}

/* the probe's child mounts securityfs and reads a file: this at most */
#define LSM_PROBE_NS	(5 * 1000000000ull)

static int active_lsms(char *buf, size_t len)
{
	int p[2], status, err = 0;
	ssize_t n, got = 0;
	pid_t pid, parent = getpid();

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	if (securityfs_mounted()) {
		err = read_lsm_file(p[1]);
		close(p[1]);
		goto read;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (!pid) {
		if (!child_defaults(parent))
			_exit(ESRCH);
		/* private: the mount below is seen by this child alone */
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("securityfs", "/sys/kernel/security", "securityfs",
			  0, NULL))
			_exit(errno & 0xff);
		_exit(-read_lsm_file(p[1]) & 0xff);
	}
	close(p[1]);
	/* a child stopped or frozen is no reason to wait for ever */
	if (child_wait(pid, &status, LSM_PROBE_NS)) {
		child_kill(pid);
		err = -ETIMEDOUT;
	} else if (!WIFEXITED(status)) {
		err = -ECHILD;
	} else if (WEXITSTATUS(status)) {
		err = -WEXITSTATUS(status);
	}
read:
	while (!err && (size_t)got < len - 1 &&
	       (n = read(p[0], buf + got, len - 1 - got)) > 0)
		got += n;
	close(p[0]);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/*
 * A BPF LSM program runs only where "bpf" is an active LSM: set at boot,
 * asked once a run (a child may mount securityfs), kept in probe_cache
 */
static bool bpf_lsm_active(struct outcome *out)
{
	struct outcome *why = &probe_cache.bpf_lsm_why;
	int *known = &probe_cache.bpf_lsm;
	char list[512], *tok, *save = NULL;
	int err;

	if (*known) {
		*out = *why;
		return *known > 0;
	}
	*known = -1;
	if (kernel_config("CONFIG_BPF_LSM") == 0) {
		outcome_set(why, ST_SKIPPED, "kernel built without CONFIG_BPF_LSM");
		goto out;
	}
	err = active_lsms(list, sizeof(list));
	if (err) {
		outcome_set(why, ST_SKIPPED,
			    "cannot read the active LSMs (securityfs, mounted privately): %s",
			    strerror(-err));
		goto out;
	}
	outcome_set(why, ST_SKIPPED,
		    "bpf is not an active LSM (active: %.100s; boot with lsm=...,bpf)",
		    list);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, "bpf"))
			*known = 1;
	if (*known > 0)
		*why = (struct outcome){};
out:
	*out = *why;
	return *known > 0;
}

/* BPF LSM programs attach to the kernel's bpf_lsm_<hook> by hook name */
static const char *lsm_prepare(const struct attach_call *c)
{
	const char *name = c->t->lsm_hook;
	char hook[128];

	if (!bpf_lsm_active(c->out))
		return NULL;
	snprintf(hook, sizeof(hook), "bpf_lsm_%s", name);
	if (!btf_has_func(hook)) {
		outcome_set(c->out, ST_SKIPPED, "%s not in the kernel's BTF",
			    hook);
		return NULL;
	}
	return target_set(c->prog, name, c->out) ? name : NULL;
}

static struct bpf_link *lsm_attach(const struct attach_call *c,
				   const char *name)
{
	return bpf_program__attach_lsm(c->prog);
}

/* a BPF trampoline too: arm64 has them from 6.0's direct calls on */
#define LSM_KIND(kind_name, sleeps) {					\
	.name = kind_name,						\
	.needs = { "BPF_LSM", "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT", \
		   "DEBUG_INFO_BTF" },					\
	.applies = has_lsm_hook, .prepare = lsm_prepare,		\
	.attach = lsm_attach, .trampoline = true, .sleepable = sleeps,	\
}
const struct attach_kind kind_lsm = LSM_KIND("lsm", false);
/*
 * Sleepable BPF LSM, on the hooks bpf_lsm_is_sleepable_hook() lists
 * (task_prctl among them): no error injection needed, unlike fentry.s
 */
const struct attach_kind kind_lsm_s = LSM_KIND("lsm.s", true);
