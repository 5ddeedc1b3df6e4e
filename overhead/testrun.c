// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead's BPF_PROG_TEST_RUN driver: kernel-batch's trigger, and
 * the check that the kernel can test-run it at all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "testrun.h"
#include "test_overhead_batch_kern.skel.h"

struct batch_driver {
	struct test_overhead_batch_kern *skel;
	int fd;
	__u64 args[1];	/* the driver's ctx: how many helper calls */
};

static int batch_driver_load(struct batch_driver *d)
{
	d->skel = test_overhead_batch_kern__open_and_load();
	if (!d->skel)
		return -errno;
	d->fd = bpf_program__fd(d->skel->progs.kernel_batch_driver);
	d->args[0] = KERNEL_BATCH;
	return 0;
}

/* each worker loads its own driver: workers hold no parent's BPF fds */
int batch_setup(void **state)
{
	/* the worker's own until it exits, as is its program */
	struct batch_driver *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	*state = d;
	return batch_driver_load(d);
}

void batch_run(void *state, __u64 count)
{
	struct batch_driver *d = state;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = d->args,
		    .ctx_size_in = sizeof(d->args));
	__u64 i;

	for (i = 0; i < count; i++)
		bpf_prog_test_run_opts(d->fd, &opts);
}

/*
 * The kernel must be able to test-run a raw_tp program at all: asked
 * once, for every mode's row.
 */
bool batch_ok(struct outcome *out)
{
	static struct outcome known;
	static bool asked;
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct batch_driver d;
	int err;

	if (asked) {
		*out = known;
		return known.status == ST_OK;
	}
	asked = true;
	err = batch_driver_load(&d);
	if (err) {
		outcome_set(&known, ST_FAILED, "loading the batch driver: %s",
			    strerror(-err));
		*out = known;
		return false;
	}
	opts.ctx_in = d.args;
	opts.ctx_size_in = sizeof(d.args);
	err = bpf_prog_test_run_opts(d.fd, &opts) ? -errno : 0;
	test_overhead_batch_kern__destroy(d.skel);
	if (err)
		outcome_set(&known, ST_SKIPPED,
			    "kernel cannot BPF_PROG_TEST_RUN a raw_tp program: %s",
			    strerror(-err));
	*out = known;
	return !err;
}
