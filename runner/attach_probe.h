/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The attach kinds' own side of runner/attach_probe.c: the kernel probes
 * their prepare()s share and the record of kinds the kernel refuses. The
 * families see none of it: theirs is bench_attach.h, through bench.h.
 */
#ifndef __ATTACH_PROBE_H
#define __ATTACH_PROBE_H

#include <bpf/libbpf_version.h>
#include "bench_attach.h"

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
 * Kinds this kernel refuses whatever the target: no kprobe PMU, a link
 * type its config leaves out, trampolines refused at load. The first row
 * of such a kind finds it by probing; the later ones say the same without
 * loading anything or starting workers. The run's, one for all its rows:
 * bench_add_row() makes it, struct bench_rows owns it, and each row's
 * state points at it, so that a family's open() and attach(), which get
 * the row, pass it on through attach_load(), attach_link() and the
 * kinds' prepare() and attach_syms().
 */
#define MAX_REFUSED	32
struct attach_refusals {
	int nr;
	struct {
		const struct attach_kind *kind;
		struct outcome why;
	} e[MAX_REFUSED];
};

/*
 * Records in @refused that the kernel refuses @kind whatever the target,
 * as @why says; NULL records nothing
 */
void refuse_kind(struct attach_refusals *refused,
		 const struct attach_kind *kind, const struct outcome *why);
/* attach_refused() of the record itself; NULL holds none */
bool kind_refused(const struct attach_refusals *refused,
		  const struct attach_kind *kind, struct outcome *out);
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

#endif /* __ATTACH_PROBE_H */
