// SPDX-License-Identifier: GPL-2.0
/*
 * Other BPF links on a hook: the links of other programs on the
 * tracepoint or kernel function a row attaches to, named in the row's
 * notes, since their runs are in its figure. Declared in bench.h.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "kernel/kernel.h"

/*
 * struct bpf_link_info as kernels since 6.6 have it, as far as it is read
 * here: Debian's uapi header (6.1) lacks the perf_event member. A kernel
 * that does not know a member refuses a non-zero tail (E2BIG), so the
 * buffers are asked for only once the link's type says they are there.
 */
struct link_info {
	__u32 type;
	__u32 id;
	__u32 prog_id;
	__u32 pad;
	union {
		struct {
			__u64 tp_name;
			__u32 tp_name_len;
		} raw_tracepoint;
		struct {
			__u32 attach_type;
			__u32 target_obj_id;
			__u32 target_btf_id;
		} tracing;
		struct {
			__u32 type;
			__u32 pad;
			__u64 name;	/* tp_name, func_name or file_name */
			__u32 name_len;
		} perf_event;
		__u8 size[80];
	};
};

enum {
	LINK_RAW_TRACEPOINT = 1,
	LINK_TRACING = 2,
	LINK_PERF_EVENT = 7,
	PERF_LINK_KPROBE = 3,
	PERF_LINK_KRETPROBE = 4,
	PERF_LINK_TRACEPOINT = 5,
};

/* what link @id hooks, into @name; false when the kernel cannot say */
static bool link_target(__u32 id, char *name, size_t len, const char **what)
{
	struct link_info info = {};
	__u32 info_len = sizeof(info);
	const struct btf_type *t;
	bool known = false;
	int fd;

	fd = bpf_link_get_fd_by_id(id);
	if (fd < 0)
		return false;
	name[0] = '\0';
	if (bpf_obj_get_info_by_fd(fd, &info, &info_len))
		goto out;
	switch (info.type) {
	case LINK_RAW_TRACEPOINT:
		*what = "raw_tp";
		info.raw_tracepoint.tp_name = (unsigned long)name;
		info.raw_tracepoint.tp_name_len = len;
		known = !bpf_obj_get_info_by_fd(fd, &info, &info_len);
		break;
	case LINK_TRACING:
		*what = "fentry/fexit/tp_btf";
		/* a module's target would be in its own BTF: not named here */
		t = kernel_btf() ? btf__type_by_id(kernel_btf(),
						   info.tracing.target_btf_id) :
		    NULL;
		if (t)
			snprintf(name, len, "%s",
				 btf__name_by_offset(kernel_btf(), t->name_off));
		known = t;
		break;
	case LINK_PERF_EVENT:
		*what = "perf_event";
		info.perf_event.name = (unsigned long)name;
		info.perf_event.name_len = len;
		known = !bpf_obj_get_info_by_fd(fd, &info, &info_len) &&
			(info.perf_event.type == PERF_LINK_TRACEPOINT ||
			 info.perf_event.type == PERF_LINK_KPROBE ||
			 info.perf_event.type == PERF_LINK_KRETPROBE);
		if (known)
			*what = info.perf_event.type == PERF_LINK_TRACEPOINT ?
				"tracepoint" : "kprobe";
		break;
	}
out:
	close(fd);
	return known && name[0];
}

int other_links_on(const char *hook, char *buf, size_t len)
{
	char name[128], alias[160];
	const char *what = "";
	size_t off = 0;
	__u32 id = 0;
	int nr = 0;

	buf[0] = '\0';
	/* tp_btf's target is the tracepoint's btf_trace_ typedef */
	snprintf(alias, sizeof(alias), "btf_trace_%s", hook);
	/* listing links needs CAP_SYS_ADMIN: without it, nothing to say */
	while (!bpf_link_get_next_id(id, &id)) {
		if (!link_target(id, name, sizeof(name), &what) ||
		    (strcmp(name, hook) && strcmp(name, alias)))
			continue;
		nr++;
		if (off < len)
			off += snprintf(buf + off, len - off, "%s%s link %u",
					off ? ", " : "", what, id);
	}
	return nr;
}
