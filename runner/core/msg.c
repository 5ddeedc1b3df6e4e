// SPDX-License-Identifier: GPL-2.0
/* Messages, outcomes and signals: how the runner speaks and is stopped. */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "core/core.h"

/* process-wide: libbpf's print callback and every pr_*() take no context */
int verbosity = 1;

/* so are printable()'s, and the signal handler says the program's name */
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

const char *status_name(enum status st)
{
	static const char *const names[] = {
		[ST_OK] = "ok", [ST_SKIPPED] = "skipped",
		[ST_FAILED] = "FAILED", [ST_DISTURBED] = "disturbed",
	};

	return names[st];
}

const char *status_json(enum status st)
{
	return st == ST_FAILED ? "failed" : status_name(st);
}

/* ---- signals ---- */

/*
 * The signals whose default ends a process and that come from outside it
 * (signal(7)); they, and the real-time ones, end a run with 128+N. The
 * program's own faults keep their default and its core dump. Named as
 * glibc names them: strsignal() is not async-signal-safe.
 */
static const struct {
	int sig;
	const char *name;
} ending_signals[] = {
	{ SIGHUP, "Hangup" },
	{ SIGINT, "Interrupt" },
	{ SIGQUIT, "Quit" },
	{ SIGUSR1, "User defined signal 1" },
	{ SIGUSR2, "User defined signal 2" },
	{ SIGPIPE, "Broken pipe" },
	{ SIGALRM, "Alarm clock" },
	{ SIGTERM, "Terminated" },
	{ SIGSTKFLT, "Stack fault" },
	{ SIGXCPU, "CPU time limit exceeded" },
	{ SIGXFSZ, "File size limit exceeded" },
	{ SIGVTALRM, "Virtual timer expired" },
	{ SIGPROF, "Profiling timer expired" },
	{ SIGIO, "I/O possible" },
	{ SIGPWR, "Power failure" },
};

static bool ends_run(int sig)
{
	size_t i;

	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		return true;
	for (i = 0; i < ARRAY_SIZE(ending_signals); i++)
		if (ending_signals[i].sig == sig)
			return true;
	return false;
}

/* @n in decimal at @p, which has room for 11 bytes: past its last digit */
static char *put_uint(char *p, unsigned int n)
{
	char digits[10];
	int i = 0;

	do {
		digits[i++] = '0' + n % 10;
		n /= 10;
	} while (n);
	while (i)
		*p++ = digits[--i];
	*p = '\0';
	return p;
}

const char *signal_name(int sig, char *buf, size_t len)
{
	const char *prefix = "Signal ";
	unsigned int n = sig;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ending_signals); i++)
		if (ending_signals[i].sig == sig)
			return ending_signals[i].name;
	if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
		prefix = "Real-time signal ";
		n = sig - SIGRTMIN;
	}
	if (len < strlen(prefix) + 11)
		return "Signal";
	strcpy(buf, prefix);
	put_uint(buf + strlen(prefix), n);
	return buf;
}

/* global: a signal handler has no other way in */
static struct {
	/* the signal that came, for bench_interrupted(); 0: none */
	volatile sig_atomic_t got;
	/* install_signal_handlers() ran: a signal now ends the run */
	volatile sig_atomic_t armed;
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

/* raised by the kernel for a write of ours, which fails with EPIPE, EFBIG */
static bool own_write_failed(int sig, const siginfo_t *si)
{
	return (sig == SIGPIPE || sig == SIGXFSZ) && si &&
	       si->si_code == SI_USER && si->si_pid == getpid();
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	char buf[32];

	(void)uc;
	if (own_write_failed(sig, si))
		return;
	/* before the run is armed: the default action, once we return */
	if (!sig_state.armed) {
		sigaction(sig, &dfl, NULL);
		raise(sig);
		return;
	}
	/* the run is over, its results in place or not: as decided */
	if (sig_state.final_status >= 0)
		_exit(sig_state.final_status);
	sig_state.got = sig;
	if (!sig_state.writing_results)
		return;
	/*
	 * stdio retries a write a signal cut short, on a pipe nobody reads
	 * for ever. Nothing is attached by now: end here, the last results
	 * file as it was.
	 */
	if (sig_state.unlink_path)
		unlink(sig_state.unlink_path);
	say(msg.name);
	say(": interrupted by ");
	say(signal_name(sig, buf, sizeof(buf)));
	say(" while writing the results\n");
	_exit(128 + sig);
}

/* every signal that ends a run: to @act, or (NULL) to its default */
static void set_actions(const struct sigaction *act)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		if (ends_run(sig))
			sigaction(sig, act ?: &dfl, NULL);
}

static void handler_action(struct sigaction *sa)
{
	/* no SA_RESTART: a signal must break the parent out of its waits */
	*sa = (struct sigaction){
		.sa_sigaction = on_signal,
		.sa_flags = SA_SIGINFO,
	};
	sigemptyset(&sa->sa_mask);
}

void default_signal_actions(void)
{
	struct sigaction sa;

	handler_action(&sa);
	set_actions(NULL);
	/* a closed pipe, a file size limit: the write fails, said so */
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGXFSZ, &sa, NULL);
}

void child_signal_actions(void)
{
	set_actions(NULL);
}

void install_signal_handlers(void)
{
	struct sigaction sa;

	handler_action(&sa);
	sig_state.armed = 1;
	set_actions(&sa);
}

void bench_block_signals(sigset_t *old)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	for (sig = 1; sig < NSIG; sig++)
		if (ends_run(sig))
			sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, old);
}

int bench_interrupted(void)
{
	return sig_state.got;
}

/* ---- the progress line ---- */

void progress(struct progress_line *line, int done, int total,
	      const struct bench_row *row, int round, int unit)
{
	if (verbosity < 1 || !isatty(STDERR_FILENO))
		return;
	if (round < 0)
		fprintf(stderr, "\r\033[K[%d/%d] %s %s, loading", done + 1,
			total, row->name, row->variant);
	else
		fprintf(stderr, "\r\033[K[%d/%d] %s %s, round %d, unit %d",
			done + 1, total, row->name, row->variant, round + 1,
			unit + 1);
	fflush(stderr);
	line->shown = true;
}

void progress_end(struct progress_line *line)
{
	if (!line->shown)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	line->shown = false;
}
