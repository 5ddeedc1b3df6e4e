// SPDX-License-Identifier: GPL-2.0
/*
 * What the attach kinds ask of the kernel before they load anything, and
 * the kinds it was found to refuse whatever the target: kernel probes the
 * kinds share, apart from any one kind's file, never a version table.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "attach/attach_int.h"
#include "rows/rows.h"	/* the refusals' record */
#include "kernel/kernel.h"
#include "core/core.h"

/* ---- the kinds the kernel refuses (struct attach_refusals) ---- */

void refuse_kind(struct attach_refusals *refused,
		 const struct attach_kind *kind, const struct outcome *why)
{
	if (refused && why->status == ST_SKIPPED &&
	    refused->nr < MAX_REFUSED && !kind_refused(refused, kind, NULL))
		refused->e[refused->nr++] =
			(typeof(refused->e[0])){ kind, *why };
}

bool kind_refused(const struct attach_refusals *refused,
		  const struct attach_kind *kind, struct outcome *out)
{
	int i;

	for (i = 0; refused && i < refused->nr; i++) {
		if (refused->e[i].kind != kind)
			continue;
		if (out)
			*out = refused->e[i].why;
		return true;
	}
	return false;
}

/* ---- kernel probes the kinds share ---- */

/*
 * False with the reason when this kernel cannot attach probes of @pmu
 * ("kprobe", "uprobe") at all: no perf PMU of that name and no
 * <pmu>_events file. Whatever the target, so @kind is refused from then,
 * in @refused.
 */
bool probes_available(struct attach_refusals *refused,
		      const struct attach_kind *kind, const char *pmu,
		      const char *config, struct outcome *out)
{
	char path[256], events[32];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 pmu);
	snprintf(events, sizeof(events), "%s_events", pmu);
	if (exists(path) || tracefs_path(events, path, sizeof(path)))
		return true;
	if (kernel_config(config) == 0)
		outcome_set(out, ST_SKIPPED, "kernel built without %s", config);
	else if (!tracefs_mounted())
		outcome_set(out, ST_SKIPPED,
			    "no %s PMU, and tracefs is not mounted", pmu);
	else
		outcome_set(out, ST_SKIPPED,
			    "kernel has no %s PMU and no %s_events", pmu, pmu);
	refuse_kind(refused, kind, out);
	return false;
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
const char *resolve_kfunc(const struct attach_target *t, bool need_btf,
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

bool target_set(struct bpf_program *prog, const char *name,
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
bool has_attach_type(const char *type, const char *what,
		     struct outcome *out)
{
	if (btf_enum_has("bpf_attach_type", type))
		return true;
	outcome_set(out, ST_SKIPPED,
		    "kernel has no %s links (no %s in its enum bpf_attach_type)",
		    what, type);
	return false;
}

/* the applies() of the kinds that hook a kernel function */
bool has_kfunc(const struct attach_target *t)
{
	return t->kfunc[0];
}
