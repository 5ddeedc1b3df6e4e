// SPDX-License-Identifier: GPL-2.0
/*
 * What the running kernel has, so that a mode is skipped for what it
 * lacks, not for its version: BTF, config, tracefs, its functions, maps
 * as defined, other links on a hook, USDT notes. Each answer that stands
 * for the run is asked once, into probe_cache.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <gelf.h>
#include <zlib.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kernel/kernel.h"
#include "core/core.h"

/*
 * Global: the families' probes ask from callbacks that take no run
 * context, and each answer stands for the whole run
 */
struct probe_cache probe_cache;

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

/* the running kernel's config: its own, or the one its package installed */
static gzFile open_kernel_config(void)
{
	struct utsname uts;
	char path[128];
	gzFile f;

	f = gzopen("/proc/config.gz", "r");
	if (f || uname(&uts))
		return f;
	snprintf(path, sizeof(path), "/boot/config-%s", uts.release);
	return gzopen(path, "r");	/* reads plain text too */
}

/* what one gzread() of the config asks for at least */
#define CONFIG_CHUNK	65536

/* the config's text, read once, "\n" first so that every line follows one */
static const char *kernel_config_text(void)
{
	struct probe_cache *c = &probe_cache;
	size_t len = 1, cap = 1;
	char *text = NULL, *grown;
	gzFile f;
	int n = 0;

	if (c->config_tried)
		return c->config;
	c->config_tried = true;
	f = open_kernel_config();
	if (!f)
		return NULL;
	do {
		len += n;
		if (cap - len < CONFIG_CHUNK) {
			cap = 2 * cap + CONFIG_CHUNK;
			grown = realloc(text, cap);
			if (!grown) {
				n = -1;
				break;
			}
			text = grown;
		}
		n = gzread(f, text + len, cap - len - 1);
	} while (n > 0);
	gzclose(f);
	if (n < 0) {
		free(text);
		return NULL;
	}
	text[0] = '\n';
	text[len] = '\0';
	c->config = text;
	return text;
}

int kernel_config(const char *option)
{
	const char *text = kernel_config_text();
	char line[160];

	if (!text)
		return -1;
	snprintf(line, sizeof(line), "\n%s=", option);
	if (strstr(text, line))
		return 1;
	snprintf(line, sizeof(line), "\n# %s is not set\n", option);
	return strstr(text, line) ? 0 : -1;
}

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

bool tracefs_path(const char *rel, char *buf, size_t len)
{
	int err = ENOENT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tracefs_dirs); i++) {
		snprintf(buf, len, "%s/%s", tracefs_dirs[i], rel);
		if (exists(buf))
			return true;
		if (errno == EACCES)
			err = EACCES;
	}
	errno = err;
	return false;
}

static bool is_tracefs(const char *path)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == TRACEFS_MAGIC;
}

bool tracefs_mounted(void)
{
	return is_tracefs("/sys/kernel/tracing") ||
	       is_tracefs("/sys/kernel/debug/tracing");
}

int ensure_tracefs(void)
{
	const char *path = "/sys/kernel/tracing";

	if (tracefs_mounted())
		return 0;
	if (mount("nodev", path, "tracefs", 0, NULL)) {
		/* not fatal: only tracepoint modes need it, and they say so */
		pr_note("tracefs is not mounted and mounting it at %s failed: %s",
			path, strerror(errno));
		return -errno;
	}
	pr_note("mounted tracefs at %s", path);
	return 0;
}

struct func_entry {
	char *name;
	int order;
};

static int cmp_func_name(const void *a, const void *b)
{
	return strcmp(((const struct func_entry *)a)->name,
		      ((const struct func_entry *)b)->name);
}

static int cmp_func_order(const void *a, const void *b)
{
	return ((const struct func_entry *)a)->order -
	       ((const struct func_entry *)b)->order;
}

/* a list of the kernel's functions, growing as its file is read */
struct func_list {
	struct func_entry *l;
	int n, cap;
};

static int func_list_add(struct func_list *fl, const char *name)
{
	struct func_entry *grown;
	int cap = fl->cap ? 2 * fl->cap : 1024;

	if (fl->n == fl->cap) {
		grown = realloc(fl->l, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		fl->l = grown;
		fl->cap = cap;
	}
	fl->l[fl->n].name = strdup(name);
	if (!fl->l[fl->n].name)
		return -ENOMEM;
	fl->l[fl->n].order = fl->n;
	fl->n++;
	return 0;
}

/* the kprobe blacklist's "start-end name" */
static int blacklist_line(char *line, void *fl)
{
	char sym[256];

	return sscanf(line, "%*s %255s", sym) == 1 ? func_list_add(fl, sym) : 0;
}

/* the kernel's text symbols, no module's: a name twice is two functions */
static int kernel_text_line(char *line, void *fl)
{
	char sym[256];

	if (strchr(line, '[') || !text_symbol(line, sym))
		return 0;
	return func_list_add(fl, sym);
}

/* "name [module]": module functions come and go */
static int filter_function_line(char *line, void *fl)
{
	char sym[256];

	if (strchr(line, '[') || sscanf(line, "%255s", sym) != 1 ||
	    strchr(sym, '.'))
		return 0;
	return func_list_add(fl, sym);
}

static void free_funcs(struct func_entry *l, int n)
{
	while (n--)
		free(l[n].name);
	free(l);
}

/* the names @parse takes from @path's lines, sorted, with their order */
static int read_funcs(const char *path, line_fn parse,
		      struct func_entry **list, int *nr)
{
	struct func_list fl = {};
	int err;

	err = for_each_line(path, parse, &fl);
	if (err) {
		free_funcs(fl.l, fl.n);
		fl.l = NULL;
		fl.n = 0;
	}
	qsort(fl.l, fl.n, sizeof(*fl.l), cmp_func_name);
	*list = fl.l;
	*nr = fl.n;
	return err;
}

/* how often @e's name is in the sorted @l */
static int times_listed(const struct func_entry *e,
			const struct func_entry *l, int n)
{
	const struct func_entry *p = bsearch(e, l, n, sizeof(*l),
					     cmp_func_name);
	const struct func_entry *q;
	int times = 0;

	if (!p)
		return 0;
	while (p > l && !strcmp(p[-1].name, e->name))
		p--;
	for (q = p; q < l + n && !strcmp(q->name, e->name); q++)
		times++;
	return times;
}

/* the functions of available_filter_functions outside modules, sorted */
static int read_filter_functions(struct func_entry **list, int *nr,
				 struct outcome *out)
{
	char path[256];
	int err;

	*list = NULL;
	*nr = 0;
	if (tracefs_path("available_filter_functions", path, sizeof(path)))
		err = read_funcs(path, filter_function_line, list, nr);
	else
		err = -errno;
	if (err == -ENOMEM)
		outcome_set(out, ST_FAILED, "reading %s: %s", path,
			    strerror(-err));
	else if (err)
		outcome_set(out, ST_SKIPPED,
			    "cannot read tracefs available_filter_functions: %s%s",
			    strerror(-err), tracefs_mounted() ? "" :
			    " (tracefs is not mounted)");
	return err;
}

int traceable_functions(int want, const char ***syms, struct outcome *out)
{
	struct func_entry *l, *bl, *ks;
	int n, nbl, nks, i, j, kept = 0, order, err;
	const char **s;
	char *name;

	err = read_filter_functions(&l, &n, out);
	if (err)
		return err;
	/* a list the kernel does not show leaves its check out */
	read_funcs("/sys/kernel/debug/kprobes/blacklist", blacklist_line,
		   &bl, &nbl);
	read_funcs("/proc/kallsyms", kernel_text_line, &ks, &nks);
	/* a name listed twice is two static functions: neither is chosen */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(l[i].name, l[j].name); j++)
			;
		if (j - i > 1 ||
		    bsearch(&l[i], bl, nbl, sizeof(*bl), cmp_func_name) ||
		    (nks && times_listed(&l[i], ks, nks) != 1))
			continue;
		name = l[i].name;
		order = l[i].order;
		l[i].name = NULL;	/* moved, never freed twice */
		l[kept].name = name;
		l[kept++].order = order;
	}
	for (i = kept; i < n; i++)
		free(l[i].name);
	free_funcs(bl, nbl);
	free_funcs(ks, nks);
	qsort(l, kept, sizeof(*l), cmp_func_order);
	if (kept < want) {
		outcome_set(out, ST_SKIPPED,
			    "only %d traceable functions listed once in available_filter_functions",
			    kept);
		free_funcs(l, kept);
		return -ENOENT;
	}
	s = calloc(want, sizeof(*s));
	if (!s) {
		free_funcs(l, kept);
		return -ENOMEM;
	}
	for (i = 0; i < want; i++)
		s[i] = l[i].name;
	for (; i < kept; i++)
		free(l[i].name);
	free(l);
	*syms = s;
	return 0;
}

/* a small map of @map's definition, with or without its flags */
static int try_map_create(struct bpf_map *map, __u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	int fd;

	/* small: only the type and the flags are in question */
	fd = bpf_map_create(bpf_map__type(map), NULL, bpf_map__key_size(map),
			    bpf_map__value_size(map), 1, &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int probe_map(struct bpf_map *map, struct outcome *out)
{
	enum bpf_map_type type = bpf_map__type(map);
	__u32 flags = bpf_map__map_flags(map);
	const char *tname = libbpf_bpf_map_type_str(type);
	struct bpf_map *inner = bpf_map__inner_map(map);
	int err;

	if (libbpf_probe_bpf_map_type(type, NULL) == 0) {
		outcome_set(out, ST_SKIPPED,
			    "kernel has no BPF_MAP_TYPE_%s maps (%s)",
			    tname ? tname : "?", bpf_map__name(map));
		return -EOPNOTSUPP;
	}
	/* a map of maps is probed through the maps it holds */
	if (inner)
		return probe_map(inner, out);
	if (!flags)
		return 0;
	err = try_map_create(map, flags);
	if (err != -EINVAL && err != -EOPNOTSUPP && err != -ENOTSUPP)
		return 0;	/* created, or a failure load will report */
	/* invalid only with the flags: the kernel does not take them */
	if (try_map_create(map, 0))
		return 0;
	outcome_set(out, ST_SKIPPED,
		    "kernel refuses map_flags 0x%x on %s maps (%s): %s", flags,
		    tname ? tname : "?", bpf_map__name(map), strerror(-err));
	return -EOPNOTSUPP;
}

/*
 * struct bpf_link_info as since 6.6, as far as read here: Debian's uapi
 * header (6.1) lacks perf_event. The buffers are asked for once the type
 * says they are there: an older kernel refuses a non-zero tail (E2BIG).
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

/* an NT_STAPSDT note: three addresses, then provider, name and args */
#define NT_STAPSDT	3

static int usdt_scan(Elf *elf, const char *provider, const char *name,
		     __u64 *pc, int *nr)
{
	size_t shstrndx, off, name_off, desc_off, addr_sz;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Nhdr nh;
	Elf_Data *d;
	const char *sec, *desc;

	addr_sz = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		sec = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sec || strcmp(sec, ".note.stapsdt"))
			continue;
		d = elf_getdata(scn, NULL);
		for (off = 0; d && (off = gelf_getnote(d, off, &nh, &name_off,
						       &desc_off));) {
			desc = (const char *)d->d_buf + desc_off;
			if (nh.n_type != NT_STAPSDT ||
			    nh.n_descsz < 3 * addr_sz + 2 ||
			    strcmp((const char *)d->d_buf + name_off, "stapsdt") ||
			    strcmp(desc + 3 * addr_sz, provider) ||
			    strcmp(desc + 3 * addr_sz + strlen(provider) + 1, name))
				continue;
			if (!(*nr)++) {
				*pc = 0;
				memcpy(pc, desc, addr_sz);	/* little-endian */
			}
		}
	}
	return *nr ? 0 : -ENOENT;
}

int usdt_note_find(const char *path, const char *provider, const char *name,
		   __u64 *pc, int *nr)
{
	Elf *elf;
	int fd, err;

	*nr = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	err = elf ? usdt_scan(elf, provider, name, pc, nr) : -EINVAL;
	elf_end(elf);
	close(fd);
	return err;
}
