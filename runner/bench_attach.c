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
#include <sched.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <bpf/libbpf_version.h>
#include "bench_attach.h"
#include "bench_msg.h"
#include "bench_kernel.h"
#include "bench_util.h"
#include "bench_workers.h"

#define LIBBPF_AT_LEAST(major, minor)					\
	(LIBBPF_MAJOR_VERSION > (major) ||				\
	 (LIBBPF_MAJOR_VERSION == (major) && LIBBPF_MINOR_VERSION >= (minor)))
#define STR_(x)	#x
#define STR(x)	STR_(x)
/* what a skip says of a libbpf too old for a kind's API */
#define LIBBPF_LACKS(api)						\
	"built against libbpf " STR(LIBBPF_MAJOR_VERSION) "."		\
	STR(LIBBPF_MINOR_VERSION) ", which lacks " api

/* ---- kernel probes ---- */

/*
 * Kinds this kernel refuses whatever the target: no kprobe PMU, a link
 * type its config leaves out, trampolines refused at load. The first row
 * of such a kind finds it by probing; the later ones say the same without
 * loading anything or starting workers.
 */
#define MAX_REFUSED	32
static struct {
	const struct attach_kind *kind;
	struct outcome why;
} refused[MAX_REFUSED];
static int nr_refused;
/* set by a probe whose answer holds for every target of the kind */
static bool refused_everywhere;

static void refuse_kind(const struct attach_kind *kind,
			const struct outcome *why)
{
	if (why->status == ST_SKIPPED && nr_refused < MAX_REFUSED &&
	    !attach_refused(kind, NULL))
		refused[nr_refused++] = (typeof(refused[0])){ kind, *why };
}

bool attach_refused(const struct attach_kind *kind, struct outcome *out)
{
	int i;

	for (i = 0; i < nr_refused; i++) {
		if (refused[i].kind != kind)
			continue;
		if (out)
			*out = refused[i].why;
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
	refused_everywhere = true;
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


static int names_text_symbol(char *line, void *name)
{
	char sym[256];

	return text_symbol(line, sym) && !strcmp(sym, name);
}

static bool kallsyms_has(const char *name)
{
	return for_each_line("/proc/kallsyms", names_text_symbol,
			     (void *)name) == 1;
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

	for (i = 0; i < ARRAY_SIZE(t->kfunc); i++) {
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

/*
 * A link type newer than the kernel is missing from the kernel's own
 * enum bpf_attach_type. Without BTF nobody can tell: the attach will.
 */
static bool has_attach_type(const char *type, const char *what,
			    struct outcome *out)
{
	if (btf_enum_has("bpf_attach_type", type))
		return true;
	outcome_set(out, ST_SKIPPED,
		    "kernel has no %s links (no %s in its enum bpf_attach_type)",
		    what, type);
	return false;
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

static struct bpf_link *kprobe_attach(const struct attach_kind *kind,
				      struct bpf_program *prog,
				      const struct attach_target *t,
				      const char *name)
{
	return bpf_program__attach_kprobe(prog, kind->retprobe, name);
}

/* one kprobe, so one perf event and one link, per function */
static int kprobes_attach_syms(const struct attach_kind *kind,
			       struct bpf_program *prog, const char **syms,
			       int nr, struct bpf_link **links,
			       struct outcome *out)
{
	int i, err;

	for (i = 0; i < nr; i++) {
		links[i] = bpf_program__attach_kprobe(prog, kind->retprobe,
						      syms[i]);
		if (links[i])
			continue;
		err = -errno;
		outcome_set(out, ST_FAILED,
			    "%s on %s (function %d of %d): %s", kind->name,
			    syms[i], i + 1, nr, strerror(-err));
		while (i--)
			bpf_link__destroy(links[i]);
		return err;
	}
	return nr;
}

const struct attach_kind kind_kprobe = {
	.name = "kprobe",
	.needs = { "KPROBES", "BPF_EVENTS" },
	.applies = has_kfunc,
	.prepare = kprobe_prepare,
	.attach = kprobe_attach,
	.attach_syms = kprobes_attach_syms,
};

const struct attach_kind kind_kretprobe = {
	.name = "kretprobe",
	.needs = { "KPROBES", "BPF_EVENTS" },
	.applies = has_kfunc,
	.prepare = kprobe_prepare,
	.attach = kprobe_attach,
	.attach_syms = kprobes_attach_syms,
	.retprobe = true,
};

/*
 * kprobe.multi rides on fprobe (ftrace), not on kprobes: the kernel's
 * EOPNOTSUPP at link creation is what tells it is missing.
 */
static const char *kprobe_multi_prepare(struct bpf_program *prog,
					const struct attach_target *t,
					struct outcome *out)
{
	return resolve_kfunc(t, false, out);
}

static struct bpf_link *kprobe_multi_link(struct bpf_program *prog,
					  const char **syms, int nr,
					  bool retprobe)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .syms = syms, .cnt = nr,
		    .retprobe = retprobe);

	return bpf_program__attach_kprobe_multi_opts(prog, NULL, &opts);
}

static struct bpf_link *kprobe_multi_attach(const struct attach_kind *kind,
					    struct bpf_program *prog,
					    const struct attach_target *t,
					    const char *name)
{
	return kprobe_multi_link(prog, &name, 1, kind->retprobe);
}

/* every function in one link: one syscall however many there are */
static int multi_attach_syms(const struct attach_kind *kind,
			     struct bpf_program *prog, const char **syms,
			     int nr, struct bpf_link **links,
			     struct outcome *out)
{
	int err;

	links[0] = kprobe_multi_link(prog, syms, nr, kind->retprobe);
	if (links[0])
		return 1;
	err = -errno;
	if (err == -EOPNOTSUPP && kernel_config("CONFIG_FPROBE") == 0) {
		outcome_set(out, ST_SKIPPED,
			    "kernel built without CONFIG_FPROBE (%s link: EOPNOTSUPP)",
			    kind->name);
		refuse_kind(kind, out);
	} else if (err == -EOPNOTSUPP && kernel_config("CONFIG_FPROBE") < 0)
		outcome_set(out, ST_SKIPPED,
			    "%s link to %d functions: EOPNOTSUPP (it needs CONFIG_FPROBE; the kernel config is not readable here)",
			    kind->name, nr);
	else
		outcome_set(out, err == -EOPNOTSUPP ? ST_SKIPPED : ST_FAILED,
			    "%s link to %d functions: %s", kind->name, nr,
			    strerror(-err));
	return err;
}

const struct attach_kind kind_kprobe_multi = {
	.name = "kprobe_multi",
	.needs = { "FPROBE", "BPF_EVENTS" },
	.applies = has_kfunc,
	.prepare = kprobe_multi_prepare,
	.attach = kprobe_multi_attach,
	.attach_syms = multi_attach_syms,
	.link_config = "CONFIG_FPROBE",
};

const struct attach_kind kind_kretprobe_multi = {
	.name = "kretprobe_multi",
	.needs = { "FPROBE", "BPF_EVENTS" },
	.applies = has_kfunc,
	.prepare = kprobe_multi_prepare,
	.attach = kprobe_multi_attach,
	.attach_syms = multi_attach_syms,
	.retprobe = true,
	.link_config = "CONFIG_FPROBE",
};

/*
 * kprobe.session: one program at entry and, when it returns 0, at exit
 * too. libbpf 1.5 brought it; older ones are told at build time.
 */
#if LIBBPF_AT_LEAST(1, 5)
static struct bpf_link *kprobe_session_attach(const struct attach_kind *kind,
					      struct bpf_program *prog,
					      const struct attach_target *t,
					      const char *name)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .syms = &name, .cnt = 1,
		    .session = true);

	return bpf_program__attach_kprobe_multi_opts(prog, NULL, &opts);
}
#define KPROBE_SESSION_LACKS	NULL
#else
#define kprobe_session_attach	kprobe_multi_attach
#define KPROBE_SESSION_LACKS	LIBBPF_LACKS("kprobe.session (bpf_kprobe_multi_opts.session)")
#endif

static const char *kprobe_session_prepare(struct bpf_program *prog,
					  const struct attach_target *t,
					  struct outcome *out)
{
	if (!has_attach_type("BPF_TRACE_KPROBE_SESSION", "kprobe.session", out))
		return NULL;
	return kprobe_multi_prepare(prog, t, out);
}

const struct attach_kind kind_kprobe_session = {
	.name = "kprobe_session",
	.needs = { "FPROBE", "BPF_EVENTS" },
	.applies = has_kfunc,
	.prepare = kprobe_session_prepare,
	.attach = kprobe_session_attach,
	.link_config = "CONFIG_FPROBE",
	.lacks = KPROBE_SESSION_LACKS,
	.may_lack = "kprobe.session links came in Linux 6.10",
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

static struct bpf_link *ksyscall_attach(const struct attach_kind *kind,
					struct bpf_program *prog,
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

static const char *raw_tp_prepare(struct bpf_program *prog,
				  const struct attach_target *t,
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

static bool has_lsm_hook(const struct attach_target *t)
{
	return t->lsm_hook;
}

/*
 * The active LSMs, from securityfs. Where it is not mounted, a child
 * mounts it in a mount namespace of its own, so nothing changes for
 * anyone else. 0, or -errno.
 */
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

/* a BPF LSM program runs only where "bpf" is among the active LSMs */
static bool bpf_lsm_active(struct outcome *out)
{
	static struct outcome why;
	static int known;	/* 0: not asked yet, 1: active, -1: not */
	char list[512], *tok, *save = NULL;
	int err;

	if (known) {
		*out = why;
		return known > 0;
	}
	known = -1;
	if (kernel_config("CONFIG_BPF_LSM") == 0) {
		outcome_set(&why, ST_SKIPPED, "kernel built without CONFIG_BPF_LSM");
		goto out;
	}
	err = active_lsms(list, sizeof(list));
	if (err) {
		outcome_set(&why, ST_SKIPPED,
			    "cannot read the active LSMs (securityfs, mounted privately): %s",
			    strerror(-err));
		goto out;
	}
	outcome_set(&why, ST_SKIPPED,
		    "bpf is not an active LSM (active: %.100s; boot with lsm=...,bpf)",
		    list);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, "bpf"))
			known = 1;
	if (known > 0)
		why = (struct outcome){};
out:
	*out = why;
	return known > 0;
}

/* BPF LSM programs attach to the kernel's bpf_lsm_<hook> by hook name */
static const char *lsm_prepare(struct bpf_program *prog,
			       const struct attach_target *t,
			       struct outcome *out)
{
	char hook[128];

	if (!bpf_lsm_active(out))
		return NULL;
	snprintf(hook, sizeof(hook), "bpf_lsm_%s", t->lsm_hook);
	if (!btf_has_func(hook)) {
		outcome_set(out, ST_SKIPPED, "%s not in the kernel's BTF",
			    hook);
		return NULL;
	}
	return target_set(prog, t->lsm_hook, out) ? t->lsm_hook : NULL;
}

static struct bpf_link *lsm_attach(const struct attach_kind *kind,
				   struct bpf_program *prog,
				   const struct attach_target *t,
				   const char *name)
{
	return bpf_program__attach_lsm(prog);
}

const struct attach_kind kind_lsm = {
	.name = "lsm",
	/* a BPF trampoline too: arm64 has them from 6.0's direct calls on */
	.needs = { "BPF_LSM", "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT",
		   "DEBUG_INFO_BTF" },
	.applies = has_lsm_hook,
	.prepare = lsm_prepare,
	.attach = lsm_attach,
	.trampoline = true,
};

/*
 * Sleepable BPF LSM: the verifier takes it on the hooks the kernel lists
 * as sleepable (bpf_lsm_is_sleepable_hook()), task_prctl among them, and
 * says "... is not sleepable" elsewhere. Unlike fentry.s it needs no
 * error injection, so stock kernels run it where the BPF LSM is active.
 */
const struct attach_kind kind_lsm_s = {
	.name = "lsm.s",
	.needs = { "BPF_LSM", "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT",
		   "DEBUG_INFO_BTF" },
	.applies = has_lsm_hook,
	.prepare = lsm_prepare,
	.attach = lsm_attach,
	.trampoline = true,
	.sleepable = true,
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

/* whether the file can be read at all: not an executable without read */
static bool self_readable(struct outcome *out)
{
	int fd = open(SELF_EXE, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	outcome_set(out, ST_SKIPPED,
		    "this program's own file cannot be read (%s: %s): libbpf reads it to place a uprobe",
		    SELF_EXE, strerror(errno));
	return false;
}

static const char *uprobe_prepare(struct bpf_program *prog,
				  const struct attach_target *t,
				  struct outcome *out)
{
	return probes_available("uprobe", "CONFIG_UPROBES", out) &&
	       self_readable(out) ? t->ufunc : NULL;
}

/* every process running this executable, so forked workers too */
static struct bpf_link *uprobe_attach(const struct attach_kind *kind,
				      struct bpf_program *prog,
				      const struct attach_target *t,
				      const char *name)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = name,
		    .retprobe = kind->retprobe);

	return bpf_program__attach_uprobe_opts(prog, -1, SELF_EXE, 0, &opts);
}

const struct attach_kind kind_uprobe = {
	.name = "uprobe",
	.needs = { "UPROBE_EVENTS", "BPF_EVENTS" },
	.applies = has_ufunc,
	.prepare = uprobe_prepare,
	.attach = uprobe_attach,
	.user = true,
	.denied = "the kernel requires CAP_SYS_ADMIN for uprobes (EACCES)",
};

const struct attach_kind kind_uretprobe = {
	.name = "uretprobe",
	.needs = { "UPROBE_EVENTS", "BPF_EVENTS" },
	.applies = has_ufunc,
	.prepare = uprobe_prepare,
	.attach = uprobe_attach,
	.retprobe = true,
	.user = true,
	.denied = "the kernel requires CAP_SYS_ADMIN for uprobes (EACCES)",
};

/* the same uprobe, its program sleepable: it may fault user memory in */
const struct attach_kind kind_uprobe_s = {
	.name = "uprobe.s",
	.needs = { "UPROBE_EVENTS", "BPF_EVENTS" },
	.applies = has_ufunc,
	.prepare = uprobe_prepare,
	.attach = uprobe_attach,
	.user = true,
	.sleepable = true,
	.denied = "the kernel requires CAP_SYS_ADMIN for uprobes (EACCES)",
};

/* uprobe.multi: one link for many user functions (libbpf 1.3) */
static const char *uprobe_multi_prepare(struct bpf_program *prog,
					const struct attach_target *t,
					struct outcome *out)
{
	if (!has_attach_type("BPF_TRACE_UPROBE_MULTI", "uprobe.multi", out))
		return NULL;
	return uprobe_prepare(prog, t, out);
}

#if LIBBPF_AT_LEAST(1, 3)
static struct bpf_link *uprobe_multi_attach(const struct attach_kind *kind,
					    struct bpf_program *prog,
					    const struct attach_target *t,
					    const char *name)
{
	return bpf_program__attach_uprobe_multi(prog, -1, SELF_EXE, name, NULL);
}
#define UPROBE_MULTI_LACKS	NULL
#else
#define uprobe_multi_attach	uprobe_attach
#define UPROBE_MULTI_LACKS	LIBBPF_LACKS("bpf_program__attach_uprobe_multi()")
#endif

/* uprobe_register() itself, not fprobe: CONFIG_UPROBES is enough */
const struct attach_kind kind_uprobe_multi = {
	.name = "uprobe_multi",
	.needs = { "UPROBES", "BPF_EVENTS" },
	.applies = has_ufunc,
	.prepare = uprobe_multi_prepare,
	.attach = uprobe_multi_attach,
	.user = true,
	.denied = "the kernel requires CAP_SYS_ADMIN for uprobes (EACCES)",
	.lacks = UPROBE_MULTI_LACKS,
	.may_lack = "uprobe.multi links came in Linux 6.6",
};

static bool has_usdt(const struct attach_target *t)
{
	return t->usdt_provider && t->usdt_name;
}

static const char *usdt_prepare(struct bpf_program *prog,
				const struct attach_target *t,
				struct outcome *out)
{
	return probes_available("uprobe", "CONFIG_UPROBES", out) &&
	       self_readable(out) ? t->usdt_name : NULL;
}

/* every process running this executable: libbpf finds the sites */
static struct bpf_link *usdt_attach(const struct attach_kind *kind,
				    struct bpf_program *prog,
				    const struct attach_target *t,
				    const char *name)
{
	return bpf_program__attach_usdt(prog, -1, SELF_EXE, t->usdt_provider,
					name, NULL);
}

const struct attach_kind kind_usdt = {
	.name = "usdt",
	.needs = { "UPROBE_EVENTS", "BPF_EVENTS" },
	.applies = has_usdt,
	.prepare = usdt_prepare,
	.attach = usdt_attach,
	.user = true,
	.denied = "the kernel requires CAP_SYS_ADMIN for uprobes (EACCES)",
};

/* ---- load and attach ---- */

/* the verifier's log of the last load of a sleepable program */
static char verifier_log[16384];

/* the log's line that names what the verifier refused, or "" */
static const char *verifier_says(const char *needle)
{
	static char line[REASON_LEN];
	const char *p = strstr(verifier_log, needle), *start, *end;

	if (!p)
		return "";
	for (start = p; start > verifier_log && start[-1] != '\n'; start--)
		;
	end = strchrnul(p, '\n');
	snprintf(line, sizeof(line), "%.*s", (int)(end - start), start);
	return line;
}

/* a load error the kernel gives for what it cannot do is a skip */
static int load_failed(const struct attach_kind *kind, int err,
		       struct outcome *out)
{
	/* privileges were checked first, so EPERM is the kernel's refusal */
	if (err == -EPERM && kind->trampoline) {
		outcome_set(out, ST_SKIPPED,
			    "%s refused by this kernel (EPERM at load)",
			    kind->name);
		refuse_kind(kind, out);
	} else if (err == -EINVAL && kind->sleepable && *verifier_says("sleepable"))
		/* e.g. "__set_task_comm is not sleepable" */
		outcome_set(out, ST_SKIPPED, "verifier: %s",
			    verifier_says("sleepable"));
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
	else if (err == -EOPNOTSUPP && kind->link_config &&
		 kernel_config(kind->link_config) == 0) {
		/* the link type exists only with that config */
		outcome_set(out, ST_SKIPPED,
			    "kernel built without %s (%s link: EOPNOTSUPP)",
			    kind->link_config, kind->name);
		refuse_kind(kind, out);
	} else if (err == -EOPNOTSUPP && kind->link_config)
		/* a kernel whose config cannot be read: the likely cause */
		outcome_set(out, ST_SKIPPED,
			    "%s on %s not supported by this kernel (EOPNOTSUPP: %s link types need %s; the kernel config is not readable here)",
			    kind->name, name, kind->name, kind->link_config);
	else if (err == -E2BIG)
		/* more programs on one hook than the kernel takes */
		outcome_set(out, ST_SKIPPED,
			    "kernel takes no more %s programs on %s (E2BIG)",
			    kind->name, name);
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

	if (kind->lacks) {
		outcome_set(out, ST_SKIPPED, "%s", kind->lacks);
		return -EOPNOTSUPP;
	}
	if (attach_refused(kind, out))
		return -EOPNOTSUPP;
	bpf_program__set_autoload(prog, true);
	/* where a sleepable program may attach is the verifier's to say */
	if (kind->sleepable) {
		verifier_log[0] = '\0';
		bpf_program__set_log_buf(prog, verifier_log,
					 sizeof(verifier_log));
	}
	refused_everywhere = false;
	*name = kind->prepare(prog, t, out);
	if (!*name) {
		if (refused_everywhere)
			refuse_kind(kind, out);
		return -ENOENT;
	}
	/* the skeleton's load maps its global data where the skeleton sees it */
	err = bpf_object__load_skeleton(s);
	return err ? load_failed(kind, err, out) : 0;
}

struct bpf_link *attach_link(const struct attach_kind *kind,
			     struct bpf_program *prog,
			     const struct attach_target *t, const char *name,
			     struct outcome *out)
{
	struct bpf_link *link = kind->attach(kind, prog, t, name);
	int err = errno;

	if (!link) {
		attach_failed(kind, name, -err, out);
		errno = err;	/* the caller's to read, whatever was probed */
	}
	return link;
}
