// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and attaching one BPF program, and, when the kernel cannot do it,
 * finding out why by probing the kernel itself: never a version table.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <zlib.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bench.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524	/* the kernel's own, not in libc's errno.h */
#endif

static const char *const kind_names[] = {
	[ATTACH_NONE] = "none",
	[ATTACH_KPROBE] = "kprobe",
	[ATTACH_KRETPROBE] = "kretprobe",
	[ATTACH_KSYSCALL] = "ksyscall",
	[ATTACH_TRACEPOINT] = "tracepoint",
	[ATTACH_RAW_TP] = "raw_tp",
	[ATTACH_TP_BTF] = "tp_btf",
	[ATTACH_FENTRY] = "fentry",
	[ATTACH_FEXIT] = "fexit",
	[ATTACH_FMOD_RET] = "fmod_ret",
	[ATTACH_UPROBE] = "uprobe",
	[ATTACH_URETPROBE] = "uretprobe",
};

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

const char *attach_kind_name(enum attach_kind kind)
{
	return kind_names[kind];
}

bool attach_applies(enum attach_kind kind, const struct attach_target *t)
{
	switch (kind) {
	case ATTACH_KPROBE:
	case ATTACH_KRETPROBE:
	case ATTACH_FENTRY:
	case ATTACH_FEXIT:
		return t->kfunc[0];
	case ATTACH_FMOD_RET:
		return t->lsm_hook || (t->kfunc[0] && t->error_injection);
	case ATTACH_KSYSCALL:
		return t->syscall;
	case ATTACH_TRACEPOINT:
		return t->tp_category && t->tp_name;
	case ATTACH_RAW_TP:
	case ATTACH_TP_BTF:
		return t->tp_name || t->raw_tp_name;
	case ATTACH_UPROBE:
	case ATTACH_URETPROBE:
		return t->ufunc;
	default:
		return true;
	}
}

/* ---- kernel probes ---- */

static struct btf *kernel_btf(void)
{
	static struct btf *btf;
	static bool tried;

	if (!tried) {
		tried = true;
		btf = btf__load_vmlinux_btf();
	}
	return btf;
}

static bool btf_has(const char *name, int kind)
{
	struct btf *btf = kernel_btf();

	return btf && btf__find_by_name_kind(btf, name, kind) > 0;
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

/* 1: CONFIG_x=y or =m, 0: "is not set", -1: the kernel does not say */
static int kernel_config(const char *option)
{
	char line[256], unset[128];
	size_t len = strlen(option);
	int found = -1;
	gzFile f;

	f = open_kernel_config();
	if (!f)
		return -1;
	snprintf(unset, sizeof(unset), "# %s is not set", option);
	while (found < 0 && gzgets(f, line, sizeof(line))) {
		if (!strncmp(line, option, len) && line[len] == '=')
			found = 1;
		else if (!strncmp(line, unset, strlen(unset)))
			found = 0;
	}
	gzclose(f);
	return found;
}

static bool tracefs_path(const char *rel, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
		snprintf(buf, len, "%s/%s", tracefs_dirs[i], rel);
		if (!access(buf, F_OK))
			return true;
	}
	return false;
}

static bool tracefs_mounted(void)
{
	char path[256];

	return tracefs_path("events", path, sizeof(path));
}

/*
 * False with the reason when this kernel cannot attach @kind ("kprobe",
 * "uprobe") at all: no perf PMU of that name and no <kind>_events file.
 */
static bool probes_available(const char *kind, const char *config,
			     struct outcome *out)
{
	char path[256], events[32];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 kind);
	snprintf(events, sizeof(events), "%s_events", kind);
	if (!access(path, F_OK) || tracefs_path(events, path, sizeof(path)))
		return true;
	if (kernel_config(config) == 0)
		outcome_set(out, ST_SKIPPED, "kernel built without %s", config);
	else if (!tracefs_mounted())
		outcome_set(out, ST_SKIPPED,
			    "no %s PMU, and tracefs is not mounted", kind);
	else
		outcome_set(out, ST_SKIPPED,
			    "kernel has no %s PMU and no %s_events", kind, kind);
	return false;
}

static bool debugfs_mounted(void)
{
	struct statfs st;

	return !statfs("/sys/kernel/debug", &st) && st.f_type == DEBUGFS_MAGIC;
}

/* fmod_ret may only change what the kernel lists as error-injectable */
static bool error_injectable(const char *func, struct outcome *out)
{
	char line[256], sym[128];
	bool found = false;
	FILE *f;

	if (kernel_config("CONFIG_FUNCTION_ERROR_INJECTION") == 0) {
		outcome_set(out, ST_SKIPPED,
			    "kernel built without CONFIG_FUNCTION_ERROR_INJECTION: %s is not modifiable",
			    func);
		return false;
	}
	f = fopen("/sys/kernel/debug/error_injection/list", "r");
	if (!f && debugfs_mounted()) {
		/* debugfs has the list whenever the kernel keeps one */
		outcome_set(out, ST_SKIPPED,
			    "kernel has no error-injection list (CONFIG_FUNCTION_ERROR_INJECTION off): %s is not modifiable",
			    func);
		return false;
	}
	if (!f)
		return true;	/* no list to read: the load will tell */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%127s", sym) == 1 && !strcmp(sym, func);
	fclose(f);
	if (!found)
		outcome_set(out, ST_SKIPPED,
			    "%s is not on the kernel's error-injection list",
			    func);
	return found;
}

static bool kallsyms_has(const char *name)
{
	char line[512], sym[256], type;
	bool found = false;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %c %255s", &type, sym) == 2 &&
			(type == 't' || type == 'T') && !strcmp(sym, name);
	fclose(f);
	return found;
}

static bool kfunc_exists(enum attach_kind kind, const char *name)
{
	/* kprobes need a symbol; trampolines need the function's BTF */
	if (kind == ATTACH_KPROBE || kind == ATTACH_KRETPROBE)
		return kallsyms_has(name) || btf_has(name, BTF_KIND_FUNC);
	return btf_has(name, BTF_KIND_FUNC);
}

static bool is_trampoline(enum attach_kind kind)
{
	return kind == ATTACH_FENTRY || kind == ATTACH_FEXIT ||
	       kind == ATTACH_FMOD_RET;
}

static const char *resolve_kfunc(enum attach_kind kind,
				 const struct attach_target *t,
				 struct outcome *out)
{
	char names[128] = "";
	size_t i, off = 0;

	for (i = 0; i < sizeof(t->kfunc) / sizeof(t->kfunc[0]); i++) {
		if (!t->kfunc[i])
			break;
		if (kfunc_exists(kind, t->kfunc[i]))
			return t->kfunc[i];
		off += snprintf(names + off, sizeof(names) - off, "%s%s",
				i ? " or " : "", t->kfunc[i]);
	}
	if (is_trampoline(kind))
		outcome_set(out, ST_SKIPPED, "%s not in the kernel's BTF",
			    names);
	else
		outcome_set(out, ST_SKIPPED, "no kernel function %s", names);
	return NULL;
}

/*
 * fmod_ret may change only what the verifier lets it: any LSM hook
 * (security_*), or a function on the error-injection list.
 */
static const char *resolve_fmod_ret(const struct attach_target *t,
				    struct outcome *out)
{
	const char *name;

	if (!t->lsm_hook) {
		name = resolve_kfunc(ATTACH_FMOD_RET, t, out);
		return name && error_injectable(name, out) ? name : NULL;
	}
	if (btf_has(t->lsm_hook, BTF_KIND_FUNC))
		return t->lsm_hook;
	if (kernel_config("CONFIG_SECURITY") == 0)
		outcome_set(out, ST_SKIPPED,
			    "kernel built without CONFIG_SECURITY: no LSM hook %s",
			    t->lsm_hook);
	else
		outcome_set(out, ST_SKIPPED, "%s not in the kernel's BTF",
			    t->lsm_hook);
	return NULL;
}

static bool tracepoint_exists(const char *category, const char *name,
			      struct outcome *out)
{
	char rel[128], path[256];

	if (!tracefs_mounted()) {
		outcome_set(out, ST_SKIPPED, "tracefs is not mounted");
		return false;
	}
	snprintf(rel, sizeof(rel), "events/%s/%s", category, name);
	if (tracefs_path(rel, path, sizeof(path)))
		return true;
	outcome_set(out, ST_SKIPPED, "no tracepoint %s:%s in this kernel",
		    category, name);
	return false;
}

static bool btf_tracepoint_exists(const char *name, struct outcome *out)
{
	char type[128];

	if (!kernel_btf()) {
		outcome_set(out, ST_SKIPPED, "kernel has no BTF");
		return false;
	}
	snprintf(type, sizeof(type), "btf_trace_%s", name);
	if (btf_has(type, BTF_KIND_TYPEDEF))
		return true;
	outcome_set(out, ST_SKIPPED, "no tracepoint %s in the kernel's BTF",
		    name);
	return false;
}

/* ---- load and attach ---- */

int bpf_run_open(struct bpf_run *run, const void *elf, size_t size,
		 const char *obj_name, const char *prog_name,
		 struct outcome *out)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = obj_name);
	struct bpf_program *p;
	int err;

	memset(run, 0, sizeof(*run));
	run->obj = bpf_object__open_mem(elf, size, &opts);
	if (!run->obj) {
		err = -errno;
		outcome_set(out, ST_FAILED, "opening %s: %s", obj_name,
			    strerror(-err));
		return err;
	}
	run->prog = bpf_object__find_program_by_name(run->obj, prog_name);
	if (!run->prog) {
		outcome_set(out, ST_FAILED, "no program %s in %s", prog_name,
			    obj_name);
		bpf_run_close(run);
		return -ENOENT;
	}
	bpf_object__for_each_program(p, run->obj)
		bpf_program__set_autoload(p, p == run->prog);
	return 0;
}

static const char *raw_tp_name(const struct attach_target *t)
{
	return t->raw_tp_name ? t->raw_tp_name : t->tp_name;
}

/*
 * Finds the kernel name to hook and checks the kernel has what the kind
 * needs; returns the name to attach to (or "" when none is needed).
 */
static const char *prepare_target(struct bpf_run *run, enum attach_kind kind,
				  const struct attach_target *t,
				  struct outcome *out)
{
	const char *name;

	switch (kind) {
	case ATTACH_KPROBE:
	case ATTACH_KRETPROBE:
		if (!probes_available("kprobe", "CONFIG_KPROBES", out))
			return NULL;
		return resolve_kfunc(kind, t, out);
	case ATTACH_KSYSCALL:
		return probes_available("kprobe", "CONFIG_KPROBES", out) ?
		       t->syscall : NULL;
	case ATTACH_FENTRY:
	case ATTACH_FEXIT:
		name = resolve_kfunc(kind, t, out);
		break;
	case ATTACH_FMOD_RET:
		name = resolve_fmod_ret(t, out);
		break;
	case ATTACH_TP_BTF:
		name = raw_tp_name(t);
		if (!btf_tracepoint_exists(name, out))
			return NULL;
		break;
	case ATTACH_UPROBE:
	case ATTACH_URETPROBE:
		return probes_available("uprobe", "CONFIG_UPROBES", out) ?
		       t->ufunc : NULL;
	case ATTACH_TRACEPOINT:
		return tracepoint_exists(t->tp_category, t->tp_name, out) ?
			t->tp_name : NULL;
	case ATTACH_RAW_TP:
		return raw_tp_name(t);
	default:
		return "";
	}
	if (name && bpf_program__set_attach_target(run->prog, 0, name)) {
		outcome_set(out, ST_FAILED, "cannot target %s", name);
		return NULL;
	}
	return name;
}

/* a load error the kernel gives for what it cannot do is a skip */
static int load_failed(enum attach_kind kind, int err, struct outcome *out)
{
	const char *kname = kind_names[kind];

	/* privileges were checked first, so EPERM is the kernel's refusal */
	if (err == -EPERM && is_trampoline(kind))
		outcome_set(out, ST_SKIPPED,
			    "%s refused by this kernel (EPERM at load)",
			    kname);
	else if (err == -ENOTSUPP || err == -EOPNOTSUPP)
		outcome_set(out, ST_SKIPPED,
			    "%s programs not supported by this kernel (%s)",
			    kname, err == -ENOTSUPP ? "ENOTSUPP" :
			    "EOPNOTSUPP");
	else
		outcome_set(out, ST_FAILED, "%s program load failed: %s%s",
			    kname, strerror(-err),
			    verbosity < 2 ? " (-v shows libbpf's log)" : "");
	return err;
}

/* every process running this executable, so forked workers too */
static struct bpf_link *attach_uprobe(struct bpf_program *prog, bool retprobe,
				      const char *func)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = func,
		    .retprobe = retprobe);
	char exe[PATH_MAX];
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return NULL;
	exe[n] = '\0';
	return bpf_program__attach_uprobe_opts(prog, -1, exe, 0, &opts);
}

static struct bpf_link *attach(struct bpf_program *prog,
			       enum attach_kind kind,
			       const struct attach_target *t,
			       const char *name)
{
	switch (kind) {
	case ATTACH_KPROBE:
	case ATTACH_KRETPROBE:
		return bpf_program__attach_kprobe(prog,
						  kind == ATTACH_KRETPROBE,
						  name);
	case ATTACH_KSYSCALL:
		return bpf_program__attach_ksyscall(prog, name, NULL);
	case ATTACH_TRACEPOINT:
		return bpf_program__attach_tracepoint(prog, t->tp_category,
						      name);
	case ATTACH_RAW_TP:
		return bpf_program__attach_raw_tracepoint(prog, name);
	case ATTACH_UPROBE:
	case ATTACH_URETPROBE:
		return attach_uprobe(prog, kind == ATTACH_URETPROBE, name);
	default:
		/* tp_btf, fentry, fexit: the target was set at load */
		return bpf_program__attach_trace(prog);
	}
}

static int attach_failed(enum attach_kind kind, const char *name, int err,
			 struct outcome *out)
{
	const char *kname = kind_names[kind];

	if (kind == ATTACH_RAW_TP && err == -ENOENT)
		outcome_set(out, ST_SKIPPED,
			    "no tracepoint %s in this kernel", name);
	else if (err == -ENOTSUPP || err == -EOPNOTSUPP)
		outcome_set(out, ST_SKIPPED,
			    "%s on %s not supported by this kernel", kname,
			    name);
	else if ((kind == ATTACH_KPROBE || kind == ATTACH_KRETPROBE) &&
		 (err == -EINVAL || err == -ENOENT))
		/* blacklisted or not at a probeable address */
		outcome_set(out, ST_SKIPPED, "kernel refuses %s on %s: %s",
			    kname, name, strerror(-err));
	else
		outcome_set(out, ST_FAILED, "%s attach to %s failed: %s",
			    kname, name, strerror(-err));
	return err;
}

int bpf_run_attach(struct bpf_run *run, enum attach_kind kind,
		   const struct attach_target *t, struct outcome *out)
{
	const char *name;
	int err;

	name = prepare_target(run, kind, t, out);
	if (!name)
		return -ENOENT;
	err = bpf_object__load(run->obj);
	if (err)
		return load_failed(kind, err, out);
	run->link = attach(run->prog, kind, t, name);
	if (!run->link)
		return attach_failed(kind, name, -errno, out);
	return 0;
}

void bpf_run_close(struct bpf_run *run)
{
	/* the link first: the program stops firing before it is freed */
	bpf_link__destroy(run->link);
	bpf_object__close(run->obj);
	memset(run, 0, sizeof(*run));
}

int prog_stats_enable(struct outcome *out)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		outcome_set(out, ST_SKIPPED,
			    "kernel cannot enable BPF run-time stats (BPF_ENABLE_STATS: %s)",
			    strerror(errno));
	return fd < 0 ? -errno : fd;
}

static int prog_run_totals(int fd, __u64 *run_time_ns, __u64 *run_cnt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*run_time_ns = info.run_time_ns;
	*run_cnt = info.run_cnt;
	return 0;
}

int prog_run_time(const struct bpf_run *run, double *ns_per_run)
{
	__u64 run_time_ns, run_cnt;
	int err;

	err = prog_run_totals(bpf_program__fd(run->prog), &run_time_ns,
			      &run_cnt);
	if (!err && !run_cnt)
		err = -ENODATA;
	if (!err)
		*ns_per_run = (double)run_time_ns / run_cnt;
	return err;
}

int percpu_sum_fields(struct bpf_map *map, __u32 key, __u64 *sums, int n)
{
	int i, err, ncpu = libbpf_num_possible_cpus();
	__u64 *vals;

	if (ncpu < 0)
		return ncpu;
	vals = calloc((size_t)ncpu * n, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	err = bpf_map__lookup_elem(map, &key, sizeof(key), vals,
				   (size_t)ncpu * n * sizeof(*vals), 0);
	memset(sums, 0, n * sizeof(*sums));
	for (i = 0; !err && i < ncpu * n; i++)
		sums[i % n] += vals[i];
	free(vals);
	return err;
}

void measure_prog_stats(const struct bpf_run *run, struct measurement *m)
{
	int err = prog_run_time(run, &m->prog_ns);

	if (err)
		outcome_set(&m->out, ST_FAILED, "reading run-time stats: %s",
			    strerror(-err));
}

/*
 * The clock cost is a small difference of two means, so an interrupt in
 * the calibration would show as a body below zero: time it in blocks and
 * keep the quietest block, as an interrupt only ever adds time.
 */
#define CLOCK_BLOCKS 10
#define CLOCK_BLOCK_RUNS 2000

int prog_stats_clock_cost(double *ns)
{
	/* r0 = 0; exit: a program that does nothing at all */
	const struct bpf_insn empty[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	__u64 time0 = 0, cnt0 = 0, time1 = 0, cnt1 = 0;
	double block, best = 0;
	__u64 args[1] = {};
	int fd, b, i, err = 0;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "stats_clock", "GPL",
			   empty, 2, NULL);
	if (fd < 0)
		return -errno;
	opts.ctx_in = args;
	opts.ctx_size_in = sizeof(args);
	for (b = 0; b < CLOCK_BLOCKS && !err; b++) {
		for (i = 0; i < CLOCK_BLOCK_RUNS && !err; i++)
			err = bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
		if (!err)
			err = prog_run_totals(fd, &time1, &cnt1);
		if (!err && cnt1 == cnt0)
			err = -ENODATA;
		if (err)
			break;
		block = (double)(time1 - time0) / (cnt1 - cnt0);
		if (b == 0 || block < best)
			best = block;
		time0 = time1;
		cnt0 = cnt1;
	}
	if (!err)
		*ns = best;
	close(fd);
	return err;
}

int run_sample(const struct sample_spec *spec, const struct sample_ops *ops,
	       void *ctx, struct measurement *m, struct worker_result *res)
{
	struct bpf_run run = {};
	struct worker_pool pool;
	int err;

	err = pool_start(&pool, spec->cpus, spec->trigger, spec->count,
			 spec->duration_ns);
	if (err) {
		outcome_set(&m->out, ST_FAILED, "starting workers: %s",
			    strerror(-err));
		goto out;
	}
	if (ops->prepare(ctx, &pool, &run, &m->out) || bench_interrupted()) {
		pool_stop(&pool);
		goto cleanup;
	}
	err = pool_run(&pool, res);
	if (err) {
		outcome_set(&m->out, ST_FAILED, "%s", err == -ECHILD ?
			    "a worker died before its result" : strerror(-err));
		goto cleanup;
	}
	measure(m, res, spec->cpus->nr);
	ops->verify(ctx, &run, m, res);
	if (spec->prog_stats && m->out.status == ST_OK)
		measure_prog_stats(&run, m);
cleanup:
	bpf_run_close(&run);
out:
	return bench_interrupted() ? -EINTR : 0;
}

int percpu_sum(struct bpf_map *map, __u32 key, __u64 *sum)
{
	return percpu_sum_fields(map, key, sum, 1);
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
