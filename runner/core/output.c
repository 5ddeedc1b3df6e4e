// SPDX-License-Identifier: GPL-2.0
/*
 * The files results are written to. A results file is the next
 * --compare's "before": a run refused, interrupted or that cannot write
 * leaves it as it was. So the results go to a temporary file beside the
 * target (rename(2) replaces it in one step), made when the run starts
 * so that a bad path is said before anything runs. Every exit removes
 * it, a signal's too; one a SIGKILL left, ".NAME.tmp.PID", the next run
 * writing NAME removes. And the JSON values every writer shares.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <jansson.h>
#include "core/core.h"

/* the bytes of NAME a temporary file's name keeps: it must fit NAME_MAX */
#define TMP_NAME_KEPT	200
#define TMP_INFIX	".tmp."

/* ".NAME.tmp." for @base, NAME cut to TMP_NAME_KEPT bytes */
static void tmp_prefix(const char *base, char *buf, size_t len)
{
	snprintf(buf, len, ".%.*s" TMP_INFIX, TMP_NAME_KEPT, base);
}

/* "123" of a temporary file's name: the pid of the run that made it */
static pid_t tmp_pid(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *digits = name + n;
	long pid;

	if (strncmp(name, prefix, n) || !*digits ||
	    digits[strspn(digits, "0123456789")] || strlen(digits) > 9)
		return 0;
	pid = atol(digits);
	return pid > 0 ? pid : 0;
}

/*
 * The temporary files of killed runs writing @base in @dir: their pid is
 * gone. One of a run alive (or of another pid namespace) is left alone.
 */
static void remove_stale(const char *dir, const char *base)
{
	char prefix[TMP_NAME_KEPT + 16], path[PATH_MAX];
	struct dirent *d;
	pid_t pid;
	DIR *dp;

	tmp_prefix(base, prefix, sizeof(prefix));
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		pid = tmp_pid(d->d_name, prefix);
		if (!pid || pid == getpid() || !kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (!unlink(path))
			pr_note("removed %s, left by a run (pid %d) that was killed before it could",
				printable(path), pid);
	}
	closedir(dp);
}

/* @link's text @to, relative to @link's directory: a new string */
static char *link_join(const char *link, const char *to)
{
	const char *slash = strrchr(link, '/');
	char *joined;

	if (to[0] == '/' || !slash)
		return strdup(to);
	if (asprintf(&joined, "%.*s/%s", (int)(slash - link), link, to) < 0)
		return NULL;
	return joined;
}

/*
 * @o's target: @path, or the file its links name as open() follows them
 * (a dangling one's made); only the last component is resolved here.
 * *@exists: it is there, *@st its stat.
 */
static int find_target(struct output_file *o, const char *path,
		       struct stat *st, bool *exists)
{
	char to[PATH_MAX];
	char *cur, *next;
	int hops, err = -ELOOP;
	ssize_t n;

	/* a link open() would refuse (fs.protected_symlinks): so do we */
	if (stat(path, st) && errno != ENOENT)
		return -errno;
	cur = strdup(path);
	for (hops = 0; cur && hops < 40; hops++) {
		*exists = !lstat(cur, st);
		err = -errno;
		if (!*exists && errno != ENOENT)
			break;
		if (!*exists || !S_ISLNK(st->st_mode)) {
			o->target = cur;
			return 0;
		}
		n = readlink(cur, to, sizeof(to) - 1);
		err = -errno;
		if (n < 0)
			break;
		err = -ELOOP;
		to[n] = '\0';
		next = link_join(cur, to);
		free(cur);
		cur = next;
	}
	err = cur ? err : -ENOMEM;
	free(cur);
	return err;
}

/* the temporary file beside @o->target, with the mode it replaces */
static int open_tmp(struct output_file *o, const struct stat *st,
		    bool exists)
{
	char *copy, *dir, *base, prefix[TMP_NAME_KEPT + 16];
	int fd, err = 0;

	copy = strdup(o->target);
	base = strdup(o->target);
	if (!copy || !base) {
		err = -ENOMEM;
		goto out;
	}
	dir = dirname(copy);
	tmp_prefix(basename(base), prefix, sizeof(prefix));
	remove_stale(dir, basename(base));
	if (asprintf(&o->tmp, "%s/%s%d", dir, prefix, getpid()) < 0) {
		o->tmp = NULL;
		err = -ENOMEM;
		goto out;
	}
	/* 0666 less the umask, as fopen() creates a file */
	fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0 && errno == EEXIST && !unlink(o->tmp))
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0666);
	if (fd < 0) {
		err = -errno;
		free(o->tmp);
		o->tmp = NULL;
		goto out;
	}
	bench_unlink_on_signal(o->tmp);
	/* what the file replaced had: fopen("w") would have kept it */
	if (exists) {
		/* without CAP_CHOWN the file becomes ours, as a copy would */
		int ignored = fchown(fd, st->st_uid, st->st_gid);

		(void)ignored;
		fchmod(fd, st->st_mode & 07777);
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		err = -errno;
		close(fd);
	}
out:
	free(copy);
	free(base);
	return err;
}

/*
 * A character device or a FIFO (a pipe at /dev/stdout): written in
 * place; opened without waiting, a FIFO nobody reads refused (ENXIO).
 */
static int open_in_place(struct output_file *o)
{
	int fd, flags;

	fd = open(o->target, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)) {
		close(fd);
		return -errno;
	}
	o->f = fdopen(fd, "w");
	if (o->f)
		return 0;
	close(fd);
	return -errno;
}

int output_open(struct output_file *o, const char *path)
{
	const char *what = NULL;
	struct stat st;
	bool exists;
	int err;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!strcmp(path, "-")) {
		output_borrow(o, stdout);
		return 0;
	}
	err = find_target(o, path, &st, &exists);
	if (err)
		goto fail;
	/* "" names nothing; "x/", a directory, never a file to make */
	if (!exists && (!o->target[0] ||
			o->target[strlen(o->target) - 1] == '/')) {
		err = o->target[0] ? -EISDIR : -ENOENT;
	} else if (!exists || S_ISREG(st.st_mode)) {
		err = open_tmp(o, &st, exists);
	} else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		err = open_in_place(o);
		if (err == -ENXIO)
			what = "a FIFO that nobody reads";
	} else {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		what = file_kind(st.st_mode);
	}
	if (!err)
		return 0;
fail:
	if (what)
		pr_err("cannot write %s: it is %s", printable(path), what);
	else
		pr_err("cannot write %s: %s", printable(path), strerror(-err));
	output_discard(o);
	return err;
}

static void forget_tmp(struct output_file *o)
{
	bench_unlink_on_signal(NULL);
	free(o->tmp);
	o->tmp = NULL;
}

int output_commit(struct output_file *o)
{
	int err = 0;

	if (!o->f || o->borrowed)
		return 0;
	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		err = errno ? -errno : -EIO;
	errno = 0;
	if (fclose(o->f) && !err)
		err = errno ? -errno : -EIO;
	o->f = NULL;
	if (!err && o->tmp && rename(o->tmp, o->target))
		err = -errno;
	if (err) {
		pr_err("writing %s failed: %s", printable(o->path),
		       strerror(-err));
		output_discard(o);
		return err;
	}
	forget_tmp(o);
	free(o->target);
	o->target = NULL;
	return 0;
}

void output_borrow(struct output_file *o, FILE *f)
{
	o->path = o->path ?: "-";
	o->f = f;
	o->borrowed = true;
}

void output_discard(struct output_file *o)
{
	if (o->f && !o->borrowed)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	forget_tmp(o);
	free(o->target);
	o->target = NULL;
}

json_t *json_number(double v)
{
	/* NAN and infinities have no JSON spelling */
	return isfinite(v) ? json_real(v) : json_null();
}

/* jansson refuses invalid UTF-8, e.g. a reason cut inside a character */
json_t *json_text(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	return j ? j : json_string(printable(s));
}
