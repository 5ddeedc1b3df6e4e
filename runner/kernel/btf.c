// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's BTF: whether it has a function, a typedef, an
 * enum's value or a struct's member, so that a mode is skipped for what
 * this kernel lacks, not for its version. Declared in kernel/kernel.h,
 * for the attach kinds' probes; bench.h has btf_struct_has(), which a
 * family asks.
 */
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kernel/kernel.h"

struct btf *kernel_btf(void)
{
	struct probe_cache *c = &probe_cache;

	if (!c->btf_tried) {
		c->btf_tried = true;
		c->btf = btf__load_vmlinux_btf();
	}
	return c->btf;
}

static bool btf_has(const char *name, int kind)
{
	struct btf *btf = kernel_btf();

	return btf && btf__find_by_name_kind(btf, name, kind) > 0;
}

bool btf_has_func(const char *name)
{
	return btf_has(name, BTF_KIND_FUNC);
}

bool btf_has_typedef(const char *name)
{
	return btf_has(name, BTF_KIND_TYPEDEF);
}

/* whether the kernel's @kind @type (an enum, a struct) has @name: 1, 0, -1 */
static int btf_type_has(const char *type, int kind, const char *name)
{
	struct btf *btf = kernel_btf();
	const struct btf_type *t;
	__u32 off;
	int id, i;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, type, kind);
	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, id);
	for (i = 0; i < btf_vlen(t); i++) {
		off = kind == BTF_KIND_ENUM ? btf_enum(t)[i].name_off :
					      btf_members(t)[i].name_off;
		if (!strcmp(btf__name_by_offset(btf, off), name))
			return 1;
	}
	return 0;
}

int btf_enum_has(const char *type, const char *value)
{
	return btf_type_has(type, BTF_KIND_ENUM, value);
}

int btf_struct_has(const char *type, const char *member)
{
	return btf_type_has(type, BTF_KIND_STRUCT, member);
}
