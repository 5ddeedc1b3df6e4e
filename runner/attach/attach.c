// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and attaching through a kind's entry, the kernel's refusals
 * read as skips; the run's record of the kinds refused; the probes the
 * kinds share, never a version table.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "attach/attach_int.h"
#include "core/core.h"
#include "kernel/kernel.h"
#include "rows/rows.h"	/* the refusals' record */

/* ---- the kinds refused, the run's (struct attach_refusals) ---- */

/* attach_refused() of the record itself; NULL holds none */
static bool kind_refused(const struct attach_refusals *refused,
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

void refuse_kind(struct attach_refusals *refused,
		 const struct attach_kind *kind, const struct outcome *why)
{
	if (refused && why->status == ST_SKIPPED &&
	    refused->nr < MAX_REFUSED && !kind_refused(refused, kind, NULL))
		refused->e[refused->nr++] =
			(typeof(refused->e[0])){ kind, *why };
}

/* the run's record of the kinds refused, through @row's state; NULL: none */
static struct attach_refusals *refusals(const struct bench_row *row)
{
	return row && row->state ? row->state->refused : NULL;
}

bool attach_refused(const struct bench_row *row,
		    const struct attach_kind *kind, struct outcome *out)
{
	return kind_refused(refusals(row), kind, out);
}

/* ---- kernel probes the kinds share ---- */

bool probes_available(const struct attach_call *c, const char *pmu,
		      const char *config)
{
	struct outcome *out = c->out;
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
	refuse_kind(c->refused, c->kind, out);
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

/* a link type newer than the kernel is missing from its enum bpf_attach_type */
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

bool has_kfunc(const struct attach_target *t)
{
	return t->kfunc[0];
}

/* ---- load and attach ---- */

/* what the verifier's log of a sleepable program's load may hold */
#define VERIFIER_LOG_LEN	16384

/* the line of the verifier's @log that has @needle, into @line */
static bool verifier_says(const char *log, const char *needle, char *line,
			  size_t len)
{
	const char *p = strstr(log, needle), *start, *end;

	if (!p)
		return false;
	for (start = p; start > log && start[-1] != '\n'; start--)
		;
	end = strchrnul(p, '\n');
	snprintf(line, len, "%.*s", (int)(end - start), start);
	return true;
}

/* a load error for what the kernel cannot do is a skip; @log: the verifier's */
static int load_failed(struct attach_refusals *refused,
		       const struct attach_kind *kind, int err,
		       const char *log, struct outcome *out)
{
	char line[REASON_LEN];

	/* privileges were checked first, so EPERM is the kernel's refusal */
	if (err == -EPERM && kind->trampoline) {
		outcome_set(out, ST_SKIPPED,
			    "%s refused by this kernel (EPERM at load)",
			    kind->name);
		refuse_kind(refused, kind, out);
	} else if (err == -EINVAL && kind->sleepable &&
		   verifier_says(log, "sleepable", line, sizeof(line)))
		/* e.g. "__set_task_comm is not sleepable" */
		outcome_set(out, ST_SKIPPED, "verifier: %s", line);
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

static void attach_failed(struct attach_refusals *refused,
			  const struct attach_kind *kind, const char *name,
			  int err, struct outcome *out)
{
	if (kind->enoent_missing && err == -ENOENT)
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
		refuse_kind(refused, kind, out);
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
	else if (kind->einval_refused && (err == -EINVAL || err == -ENOENT))
		/* blacklisted or not at a probeable address */
		outcome_set(out, ST_SKIPPED, "kernel refuses %s on %s: %s",
			    kind->name, name, strerror(-err));
	else
		outcome_set(out, ST_FAILED, "%s attach to %s failed: %s",
			    kind->name, name, strerror(-err));
}

int attach_load(const struct bench_row *row, const struct attach_kind *kind,
		struct bpf_object_skeleton *s, struct bpf_program *prog,
		const struct attach_target *t, const char **name,
		struct outcome *out)
{
	struct attach_call c = { kind, prog, t, refusals(row), out };
	/* libbpf writes it in the load below alone: it need not outlive it */
	char log[VERIFIER_LOG_LEN];
	int err;

	log[0] = '\0';
	if (kind->lacks) {
		outcome_set(out, ST_SKIPPED, "%s", kind->lacks);
		return -EOPNOTSUPP;
	}
	if (kind_refused(c.refused, kind, out))
		return -EOPNOTSUPP;
	bpf_program__set_autoload(prog, true);
	/* where a sleepable program may attach is the verifier's to say */
	if (kind->sleepable)
		bpf_program__set_log_buf(prog, log, sizeof(log));
	*name = kind->prepare(&c);
	if (!*name)
		return -ENOENT;
	/* the skeleton's load maps its global data where the skeleton sees it */
	err = bpf_object__load_skeleton(s);
	return err ? load_failed(c.refused, kind, err, log, out) : 0;
}

struct bpf_link *attach_link(const struct bench_row *row,
			     const struct attach_kind *kind,
			     struct bpf_program *prog,
			     const struct attach_target *t, const char *name,
			     struct outcome *out)
{
	struct attach_call c = { kind, prog, t, refusals(row), out };
	struct bpf_link *link = kind->attach(&c, name);
	int err = errno;

	if (!link) {
		attach_failed(c.refused, kind, name, -err, out);
		errno = err;	/* the caller's to read, whatever was probed */
	}
	return link;
}

int attach_link_syms(const struct bench_row *row,
		     const struct attach_kind *kind, struct bpf_program *prog,
		     const char **syms, int nr, struct bpf_link **links,
		     struct outcome *out)
{
	struct attach_call c = { kind, prog, NULL, refusals(row), out };

	return kind->attach_syms(&c, syms, nr, links);
}
