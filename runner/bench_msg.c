// SPDX-License-Identifier: GPL-2.0
/* Messages, outcomes and signals: how the runner speaks and is stopped. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "bench_msg.h"

/*
 * Process-wide on purpose: libbpf's print callback (libbpf_print()) and
 * every pr_*() take no context. The run's own copy is @rs->verbosity.
 */
int verbosity = 1;

/*
 * Process-wide for the same reason: pr_*() and printable() take no
 * context, and the signal handler says the program's name too.
 */
static struct {
	const char *name;
	/* the last error said, for what --ktap says of a run that ends early */
	char last_error[256];
	/* printable()'s: two, as one message may quote two inputs */
	char quoted[2][256];
	unsigned int next;
} msg = { .name = "bench" };

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	if (verbosity < 2)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void bench_init(const char *prog_name)
{
	msg.name = prog_name;
	libbpf_set_print(libbpf_print);
}

static void vprint_line(const char *fmt, va_list ap)
{
	/* what stdout holds goes first, so the two read in order */
	fflush(stdout);
	fprintf(stderr, "%s: ", msg.name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg.last_error, sizeof(msg.last_error), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vprint_line(fmt, ap);
	va_end(ap);
}

const char *bench_last_error(void)
{
	return msg.last_error;
}

void pr_note(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	vprint_line(fmt, ap);
	va_end(ap);
}

const char *printable(const char *s)
{
	char *buf = msg.quoted[msg.next++ & 1];
	size_t off = 0, len = sizeof(msg.quoted[0]);

	for (; *s && off + 8 < len; s++) {
		unsigned char c = *s;

		/* controls, and every non-ASCII byte: C1 controls hide there */
		if (c < 0x20 || c >= 0x7f)
			off += snprintf(buf + off, len - off, "\\x%02x", c);
		else
			buf[off++] = c;
	}
	if (*s)
		off += snprintf(buf + off, len - off, "...");
	buf[off] = '\0';
	return buf;
}

void outcome_set(struct outcome *o, enum status st, const char *fmt, ...)
{
	va_list ap;

	o->status = st;
	va_start(ap, fmt);
	vsnprintf(o->reason, sizeof(o->reason), fmt, ap);
	va_end(ap);
}

static const char *const status_names[][2] = {
	[ST_OK] = { "ok", "ok" },
	[ST_SKIPPED] = { "skipped", "skipped" },
	[ST_FAILED] = { "FAILED", "failed" },
	[ST_DISTURBED] = { "disturbed", "disturbed" },
};

const char *status_name(enum status st)
{
	return status_names[st][0];
}

const char *status_json(enum status st)
{
	return status_names[st][1];
}

/* ---- signals ---- */

/*
 * Global because a signal handler has no other way in: what on_signal()
 * reads and sets, and the run's path reads and sets around it.
 */
static struct {
	/* the signal that came, for bench_interrupted(); 0: none */
	volatile sig_atomic_t got;
	volatile sig_atomic_t writing_results;
	/* the run's exit status once its results are in place; -1 before */
	volatile sig_atomic_t final_status;
	/* a temporary results file that a signal's exit removes */
	const char *volatile unlink_path;
} sig_state = { .final_status = -1 };

/* async-signal-safe: write(2) alone */
static void say(const char *s)
{
	ssize_t n = write(STDERR_FILENO, s, strlen(s));

	(void)n;
}

void bench_writing_results(void)
{
	sig_state.writing_results = 1;
}

void bench_unlink_on_signal(const char *path)
{
	sig_state.unlink_path = path;
}

void bench_exit_with(int status)
{
	sig_state.final_status = status;
}

static void on_signal(int sig)
{
	const char *name = sig == SIGINT ? "Interrupt" :
			   sig == SIGTERM ? "Terminated" : "Hangup";

	/* the run is over, its results in place or not: as decided */
	if (sig_state.final_status >= 0)
		_exit(sig_state.final_status);
	sig_state.got = sig;
	if (!sig_state.writing_results)
		return;
	/*
	 * stdio retries a write a signal cut short: on a pipe nobody
	 * reads, for ever. Nothing is attached by now, and the kernel
	 * frees what is loaded: end here, saying so, the last results
	 * file as it was.
	 */
	if (sig_state.unlink_path)
		unlink(sig_state.unlink_path);
	say(msg.name);
	say(": interrupted by ");
	say(name);
	say(" while writing the results\n");
	_exit(128 + sig);
}

void default_signal_actions(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

void install_signal_handlers(void)
{
	/* no SA_RESTART: a signal must break the parent out of its waits */
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int bench_interrupted(void)
{
	return sig_state.got;
}
