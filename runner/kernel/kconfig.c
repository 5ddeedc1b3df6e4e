// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's config (/proc/config.gz, or the one its package
 * installed in /boot) and the JIT's settings (its sysctls and
 * CONFIG_BPF_JIT_ALWAYS_ON): what a mode needs and what changes a
 * program's cost besides its code. Declared in kernel/kernel.h: the
 * attach kinds' probes and the run's header ask them; bench.h has
 * format_bpf_jit(), for a family's header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>
#include "kernel/kernel.h"
#include "core/core.h"

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

/*
 * The config's text, read once: "\n" first, so that every line, the first
 * too, starts after a newline. NULL when there is none to read.
 */
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

/*
 * Read once, first from bench_main(): the JIT's sysctls are the initial
 * network namespace's alone, and fib_table_lookup's rows move the run
 * into one of its own, where /proc/sys/net/core has none of them
 */
void bpf_jit_read(struct bpf_jit_state *j)
{
	struct probe_cache *c = &probe_cache;

	if (!c->jit_read) {
		c->jit.enable = read_sysctl_int("/proc/sys/net/core/bpf_jit_enable");
		c->jit.harden = read_sysctl_int("/proc/sys/net/core/bpf_jit_harden");
		c->jit.kallsyms = read_sysctl_int("/proc/sys/net/core/bpf_jit_kallsyms");
		c->jit.always_on = kernel_config("CONFIG_BPF_JIT_ALWAYS_ON");
		c->jit_read = true;
	}
	*j = c->jit;
}

static const char *sysctl_text(int v, char *buf, size_t len)
{
	if (v < 0)
		return "unreadable";
	snprintf(buf, len, "%d", v);
	return buf;
}

void format_bpf_jit(char *buf, size_t len)
{
	struct bpf_jit_state j;
	char e[16], h[16];

	bpf_jit_read(&j);
	snprintf(buf, len, "bpf_jit_enable %s, bpf_jit_harden %s, %s",
		 sysctl_text(j.enable, e, sizeof(e)),
		 sysctl_text(j.harden, h, sizeof(h)),
		 j.always_on > 0 ? "JIT always on" :
		 j.always_on == 0 ? "JIT not always on" :
		 "JIT always on: unknown (no kernel config)");
}
