/* SPDX-License-Identifier: GPL-2.0 */
/* attach/'s own: the probes the kinds share; a family must not see these */
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

/* records in @refused that the kernel refuses @kind, as @why says */
void refuse_kind(struct attach_refusals *refused,
		 const struct attach_kind *kind, const struct outcome *why);
/*
 * False, the kind refused, when this kernel has no probes of @pmu
 * ("kprobe", "uprobe") at all: no such PMU, no <pmu>_events
 */
bool probes_available(const struct attach_call *c, const char *pmu,
		      const char *config);
/* the first of t->kfunc the kernel has: a symbol, or with @need_btf BTF */
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
