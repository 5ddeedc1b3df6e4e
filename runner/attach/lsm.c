// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF LSM kinds, lsm and lsm.s, and the probe of whether bpf is an
 * active LSM: a child that may mount securityfs privately, apart from the
 * other kinds for that.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <linux/magic.h>
#include <bpf/libbpf.h>
#include "attach/attach_int.h"
#include "kernel/kernel.h"
#include "core/core.h"
#include "workers/workers.h"

static bool has_lsm_hook(const struct attach_target *t)
{
	return t->lsm_hook;
}

/*
 * The active LSMs, from securityfs. Where it is not mounted, a child
 * mounts it in a mount namespace of its own, so nothing changes for
 * anyone else. 0, or -errno.
 */
static int read_lsm_file(int fd)
{
	char buf[512];
	ssize_t n;
	int in;

	in = open("/sys/kernel/security/lsm", O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	n = read(in, buf, sizeof(buf) - 1);
	close(in);
	if (n < 0)
		return -errno;
	return write(fd, buf, n) == n ? 0 : -EIO;
}

static bool securityfs_mounted(void)
{
	struct statfs st;

	return !statfs("/sys/kernel/security", &st) &&
	       st.f_type == SECURITYFS_MAGIC;
}

/* the probe's child mounts securityfs and reads a file: this at most */
#define LSM_PROBE_NS	(5 * 1000000000ull)

static int active_lsms(char *buf, size_t len)
{
	int p[2], status, err = 0;
	ssize_t n, got = 0;
	pid_t pid, parent = getpid();

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	if (securityfs_mounted()) {
		err = read_lsm_file(p[1]);
		close(p[1]);
		goto read;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (!pid) {
		if (!child_defaults(parent))
			_exit(ESRCH);
		/* private: the mount below is seen by this child alone */
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("securityfs", "/sys/kernel/security", "securityfs",
			  0, NULL))
			_exit(errno & 0xff);
		_exit(-read_lsm_file(p[1]) & 0xff);
	}
	close(p[1]);
	/* a child stopped or frozen is no reason to wait for ever */
	if (child_wait(pid, &status, LSM_PROBE_NS)) {
		child_kill(pid);
		err = -ETIMEDOUT;
	} else if (!WIFEXITED(status)) {
		err = -ECHILD;
	} else if (WEXITSTATUS(status)) {
		err = -WEXITSTATUS(status);
	}
read:
	while (!err && (size_t)got < len - 1 &&
	       (n = read(p[0], buf + got, len - 1 - got)) > 0)
		got += n;
	close(p[0]);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/*
 * A BPF LSM program runs only where "bpf" is among the active LSMs. The
 * answer is the kernel's, set at boot, and asking forks a child that may
 * mount securityfs: asked once a run, kept in probe_cache with the
 * kernel's other answers.
 */
static bool bpf_lsm_active(struct outcome *out)
{
	struct outcome *why = &probe_cache.bpf_lsm_why;
	int *known = &probe_cache.bpf_lsm;
	char list[512], *tok, *save = NULL;
	int err;

	if (*known) {
		*out = *why;
		return *known > 0;
	}
	*known = -1;
	if (kernel_config("CONFIG_BPF_LSM") == 0) {
		outcome_set(why, ST_SKIPPED, "kernel built without CONFIG_BPF_LSM");
		goto out;
	}
	err = active_lsms(list, sizeof(list));
	if (err) {
		outcome_set(why, ST_SKIPPED,
			    "cannot read the active LSMs (securityfs, mounted privately): %s",
			    strerror(-err));
		goto out;
	}
	outcome_set(why, ST_SKIPPED,
		    "bpf is not an active LSM (active: %.100s; boot with lsm=...,bpf)",
		    list);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, "bpf"))
			*known = 1;
	if (*known > 0)
		*why = (struct outcome){};
out:
	*out = *why;
	return *known > 0;
}

/* BPF LSM programs attach to the kernel's bpf_lsm_<hook> by hook name */
static const char *lsm_prepare(const struct attach_kind *kind,
			       struct bpf_program *prog,
			       const struct attach_target *t,
			       struct attach_refusals *refused,
			       struct outcome *out)
{
	char hook[128];

	if (!bpf_lsm_active(out))
		return NULL;
	snprintf(hook, sizeof(hook), "bpf_lsm_%s", t->lsm_hook);
	if (!btf_has_func(hook)) {
		outcome_set(out, ST_SKIPPED, "%s not in the kernel's BTF",
			    hook);
		return NULL;
	}
	return target_set(prog, t->lsm_hook, out) ? t->lsm_hook : NULL;
}

static struct bpf_link *lsm_attach(const struct attach_kind *kind,
				   struct bpf_program *prog,
				   const struct attach_target *t,
				   const char *name)
{
	return bpf_program__attach_lsm(prog);
}

const struct attach_kind kind_lsm = {
	.name = "lsm",
	/* a BPF trampoline too: arm64 has them from 6.0's direct calls on */
	.needs = { "BPF_LSM", "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT",
		   "DEBUG_INFO_BTF" },
	.applies = has_lsm_hook,
	.prepare = lsm_prepare,
	.attach = lsm_attach,
	.trampoline = true,
};

/*
 * Sleepable BPF LSM: the verifier takes it on the hooks the kernel lists
 * as sleepable (bpf_lsm_is_sleepable_hook()), task_prctl among them, and
 * says "... is not sleepable" elsewhere. Unlike fentry.s it needs no
 * error injection, so stock kernels run it where the BPF LSM is active.
 */
const struct attach_kind kind_lsm_s = {
	.name = "lsm.s",
	.needs = { "BPF_LSM", "DYNAMIC_FTRACE_WITH_DIRECT_CALLS", "BPF_JIT",
		   "DEBUG_INFO_BTF" },
	.applies = has_lsm_hook,
	.prepare = lsm_prepare,
	.attach = lsm_attach,
	.trampoline = true,
	.sleepable = true,
};
