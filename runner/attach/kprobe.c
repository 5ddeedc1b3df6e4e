// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds on probes: kprobe, kretprobe, their multi links (fprobe),
 * kprobe.session and the syscall's kprobe; and on this program itself
 * through SELF_EXE: uprobe, uretprobe, uprobe.s, uprobe.multi, usdt.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "attach/attach_int.h"
#include "kernel/kernel.h"

/* ---- kprobes and fprobe ---- */

static const char *kprobe_prepare(const struct attach_call *c)
{
	if (!probes_available(c, "kprobe", "CONFIG_KPROBES"))
		return NULL;
	return resolve_kfunc(c->t, false, c->out);
}

static struct bpf_link *kprobe_attach(const struct attach_call *c,
				      const char *name)
{
	return bpf_program__attach_kprobe(c->prog, c->kind->retprobe, name);
}

/* one kprobe, so one perf event and one link, per function */
static int kprobes_attach_syms(const struct attach_call *c, const char **syms,
			       int nr, struct bpf_link **links)
{
	int i, err;

	for (i = 0; i < nr; i++) {
		links[i] = kprobe_attach(c, syms[i]);
		if (links[i])
			continue;
		err = -errno;
		outcome_set(c->out, ST_FAILED,
			    "%s on %s (function %d of %d): %s", c->kind->name,
			    syms[i], i + 1, nr, strerror(-err));
		while (i--)
			bpf_link__destroy(links[i]);
		return err;
	}
	return nr;
}

#define KPROBE_KIND(kind_name, ret) {					\
	.name = kind_name, .needs = { "KPROBES", "BPF_EVENTS" },	\
	.applies = has_kfunc, .prepare = kprobe_prepare,		\
	.attach = kprobe_attach, .attach_syms = kprobes_attach_syms,	\
	.retprobe = ret, .einval_refused = true,			\
}
const struct attach_kind kind_kprobe = KPROBE_KIND("kprobe", false);
const struct attach_kind kind_kretprobe = KPROBE_KIND("kretprobe", true);

/*
 * kprobe.multi rides on fprobe (ftrace), not on kprobes: the kernel's
 * EOPNOTSUPP at link creation is what tells it is missing.
 */
static const char *kprobe_multi_prepare(const struct attach_call *c)
{
	return resolve_kfunc(c->t, false, c->out);
}

static struct bpf_link *kprobe_multi_link(const struct attach_call *c,
					  const char **syms, int nr)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .syms = syms, .cnt = nr,
		    .retprobe = c->kind->retprobe);

	return bpf_program__attach_kprobe_multi_opts(c->prog, NULL, &opts);
}

static struct bpf_link *kprobe_multi_attach(const struct attach_call *c,
					    const char *name)
{
	return kprobe_multi_link(c, &name, 1);
}

/* every function in one link: one syscall however many there are */
static int multi_attach_syms(const struct attach_call *c, const char **syms,
			     int nr, struct bpf_link **links)
{
	const char *name = c->kind->name;
	int err;

	links[0] = kprobe_multi_link(c, syms, nr);
	if (links[0])
		return 1;
	err = -errno;
	if (err == -EOPNOTSUPP && kernel_config("CONFIG_FPROBE") == 0) {
		outcome_set(c->out, ST_SKIPPED,
			    "kernel built without CONFIG_FPROBE (%s link: EOPNOTSUPP)",
			    name);
		refuse_kind(c->refused, c->kind, c->out);
	} else if (err == -EOPNOTSUPP && kernel_config("CONFIG_FPROBE") < 0)
		outcome_set(c->out, ST_SKIPPED,
			    "%s link to %d functions: EOPNOTSUPP (it needs CONFIG_FPROBE; the kernel config is not readable here)",
			    name, nr);
	else
		outcome_set(c->out, err == -EOPNOTSUPP ? ST_SKIPPED : ST_FAILED,
			    "%s link to %d functions: %s", name, nr,
			    strerror(-err));
	return err;
}

#define KPROBE_MULTI_KIND(kind_name, ret) {				\
	.name = kind_name, .needs = { "FPROBE", "BPF_EVENTS" },		\
	.applies = has_kfunc, .prepare = kprobe_multi_prepare,		\
	.attach = kprobe_multi_attach, .attach_syms = multi_attach_syms, \
	.retprobe = ret, .link_config = "CONFIG_FPROBE",		\
}
const struct attach_kind kind_kprobe_multi =
	KPROBE_MULTI_KIND("kprobe_multi", false);
const struct attach_kind kind_kretprobe_multi =
	KPROBE_MULTI_KIND("kretprobe_multi", true);

/*
 * kprobe.session: one program at entry and, when it returns 0, at exit
 * too. libbpf 1.5 brought it; older ones are told at build time.
 */
#if LIBBPF_AT_LEAST(1, 5)
static struct bpf_link *kprobe_session_attach(const struct attach_call *c,
					      const char *name)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .syms = &name, .cnt = 1,
		    .session = true);

	return bpf_program__attach_kprobe_multi_opts(c->prog, NULL, &opts);
}
#define KPROBE_SESSION_LACKS	NULL
#else
#define kprobe_session_attach	kprobe_multi_attach
#define KPROBE_SESSION_LACKS	LIBBPF_LACKS("kprobe.session (bpf_kprobe_multi_opts.session)")
#endif

static const char *kprobe_session_prepare(const struct attach_call *c)
{
	if (!has_attach_type("BPF_TRACE_KPROBE_SESSION", "kprobe.session",
			     c->out))
		return NULL;
	return kprobe_multi_prepare(c);
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

static const char *ksyscall_prepare(const struct attach_call *c)
{
	return probes_available(c, "kprobe", "CONFIG_KPROBES") ?
	       c->t->syscall : NULL;
}

static struct bpf_link *ksyscall_attach(const struct attach_call *c,
					const char *name)
{
	return bpf_program__attach_ksyscall(c->prog, name, NULL);
}

const struct attach_kind kind_ksyscall = {
	.name = "kprobe",
	.needs = { "KPROBES", "BPF_EVENTS" },
	.applies = has_syscall,
	.prepare = ksyscall_prepare,
	.attach = ksyscall_attach,
};

/* ---- uprobes and usdt ---- */

static bool has_ufunc(const struct attach_target *t)
{
	return t->ufunc;
}

/*
 * Whether uprobes can be placed on this program: the kernel has them,
 * and its file can be read (not an executable without read)
 */
static bool uprobes_on_self(const struct attach_call *c)
{
	int fd;

	if (!probes_available(c, "uprobe", "CONFIG_UPROBES"))
		return false;
	fd = open(SELF_EXE, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	outcome_set(c->out, ST_SKIPPED,
		    "this program's own file cannot be read (%s: %s): libbpf reads it to place a uprobe",
		    SELF_EXE, strerror(errno));
	return false;
}

static const char *uprobe_prepare(const struct attach_call *c)
{
	return uprobes_on_self(c) ? c->t->ufunc : NULL;
}

/* every process running this executable, so forked workers too */
static struct bpf_link *uprobe_attach(const struct attach_call *c,
				      const char *name)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = name,
		    .retprobe = c->kind->retprobe);

	return bpf_program__attach_uprobe_opts(c->prog, -1, SELF_EXE, 0, &opts);
}

#define UPROBE_DENIED	"the kernel requires CAP_SYS_ADMIN for uprobes (EACCES)"
#define UPROBE_KIND(kind_name, ret, sleeps) {				\
	.name = kind_name, .needs = { "UPROBE_EVENTS", "BPF_EVENTS" },	\
	.applies = has_ufunc, .prepare = uprobe_prepare,		\
	.attach = uprobe_attach, .retprobe = ret, .sleepable = sleeps,	\
	.user = true, .denied = UPROBE_DENIED,				\
}
const struct attach_kind kind_uprobe = UPROBE_KIND("uprobe", false, false);
const struct attach_kind kind_uretprobe = UPROBE_KIND("uretprobe", true, false);
/* the same uprobe, its program sleepable: it may fault user memory in */
const struct attach_kind kind_uprobe_s = UPROBE_KIND("uprobe.s", false, true);

/* uprobe.multi: one link for many user functions (libbpf 1.3) */
static const char *uprobe_multi_prepare(const struct attach_call *c)
{
	if (!has_attach_type("BPF_TRACE_UPROBE_MULTI", "uprobe.multi", c->out))
		return NULL;
	return uprobe_prepare(c);
}

#if LIBBPF_AT_LEAST(1, 3)
static struct bpf_link *uprobe_multi_attach(const struct attach_call *c,
					    const char *name)
{
	return bpf_program__attach_uprobe_multi(c->prog, -1, SELF_EXE, name,
						NULL);
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
	.denied = UPROBE_DENIED,
	.lacks = UPROBE_MULTI_LACKS,
	.may_lack = "uprobe.multi links came in Linux 6.6",
};

static bool has_usdt(const struct attach_target *t)
{
	return t->usdt_provider && t->usdt_name;
}

static const char *usdt_prepare(const struct attach_call *c)
{
	return uprobes_on_self(c) ? c->t->usdt_name : NULL;
}

/* every process running this executable: libbpf finds the sites */
static struct bpf_link *usdt_attach(const struct attach_call *c,
				    const char *name)
{
	return bpf_program__attach_usdt(c->prog, -1, SELF_EXE,
					c->t->usdt_provider, name, NULL);
}

const struct attach_kind kind_usdt = {
	.name = "usdt",
	.needs = { "UPROBE_EVENTS", "BPF_EVENTS" },
	.applies = has_usdt,
	.prepare = usdt_prepare,
	.attach = usdt_attach,
	.user = true,
	.denied = UPROBE_DENIED,
};
