// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds that hook this program itself: uprobe, uretprobe, uprobe.s,
 * uprobe.multi and usdt, placed through SELF_EXE. Apart from the others,
 * each file one family of hooks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <bpf/libbpf.h>
#include "attach/attach_int.h"

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

static const char *uprobe_prepare(const struct attach_kind *kind,
				  struct bpf_program *prog,
				  const struct attach_target *t,
				  struct attach_refusals *refused,
				  struct outcome *out)
{
	return probes_available(refused, kind, "uprobe", "CONFIG_UPROBES", out) &&
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
static const char *uprobe_multi_prepare(const struct attach_kind *kind,
					struct bpf_program *prog,
					const struct attach_target *t,
					struct attach_refusals *refused,
					struct outcome *out)
{
	if (!has_attach_type("BPF_TRACE_UPROBE_MULTI", "uprobe.multi", out))
		return NULL;
	return uprobe_prepare(kind, prog, t, refused, out);
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

static const char *usdt_prepare(const struct attach_kind *kind,
				struct bpf_program *prog,
				const struct attach_target *t,
				struct attach_refusals *refused,
				struct outcome *out)
{
	return probes_available(refused, kind, "uprobe", "CONFIG_UPROBES", out) &&
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
