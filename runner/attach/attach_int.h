/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach/'s private half, the kinds' own side of attach/attach.c: the
 * kernel probes their prepare()s share and the record of kinds the kernel
 * refuses. bench.h includes attach.h, the kinds a family names, and a
 * family must not see these.
 */
#ifndef __RUNNER_ATTACH_INT_H
#define __RUNNER_ATTACH_INT_H

#include <bpf/libbpf_version.h>
#include "attach/attach.h"

#define LIBBPF_AT_LEAST(major, minor)					\
	(LIBBPF_MAJOR_VERSION > (major) ||				\
	 (LIBBPF_MAJOR_VERSION == (major) && LIBBPF_MINOR_VERSION >= (minor)))
#define STR_(x)	#x
#define STR(x)	STR_(x)
/* what a skip says of a libbpf too old for a kind's API */
#define LIBBPF_LACKS(api)						\
	"built against libbpf " STR(LIBBPF_MAJOR_VERSION) "."		\
	STR(LIBBPF_MINOR_VERSION) ", which lacks " api

/*
 * Records in @refused that the kernel refuses @kind whatever the target,
 * as @why says; NULL records nothing
 */
void refuse_kind(struct attach_refusals *refused,
		 const struct attach_kind *kind, const struct outcome *why);
/*
 * False with the reason when this kernel cannot attach probes of @pmu
 * ("kprobe", "uprobe") at all: no perf PMU of that name and no
 * <pmu>_events file. Whatever the target, so @kind is refused from then,
 * in @refused.
 */
bool probes_available(struct attach_refusals *refused,
		      const struct attach_kind *kind, const char *pmu,
		      const char *config, struct outcome *out);
/*
 * The first of t->kfunc the kernel has: kprobes need a symbol,
 * trampolines the function's BTF.
 */
const char *resolve_kfunc(const struct attach_target *t, bool need_btf,
			  struct outcome *out);
/* points @prog at kernel function @name before load; false, @out why */
bool target_set(struct bpf_program *prog, const char *name,
		struct outcome *out);
/* whether the kernel's enum bpf_attach_type has @type, @what's links */
bool has_attach_type(const char *type, const char *what, struct outcome *out);
/* the applies() of the kinds that hook a kernel function */
bool has_kfunc(const struct attach_target *t);

#endif /* __RUNNER_ATTACH_INT_H */
