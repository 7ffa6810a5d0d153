/*
 * Safe output files (see outfile.h). Every path is looked at with lstat
 * before it is written, and every write goes either to a temporary file
 * that mkstemp created (O_EXCL: a planted link at that name cannot be
 * followed) or through an open with O_NOFOLLOW and O_NONBLOCK whose fstat
 * decides before anything is truncated. The errors say what the path is
 * ("a character device") so the user sees why it was refused.
 */
#include "core/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/owner.h"
#include "core/strbuf.h"

/* How much of the output's name goes into a temporary name: with the dot,
 * the owner (".pm-PID-START", at most 33) and ".XXXXXX" it stays below
 * NAME_MAX (255) for any output name. */
#define TEMP_BASE_MAX 200

static const struct {
	mode_t type;
	const char *what;
} file_kinds[] = {
	{ S_IFLNK, "a symbolic link" }, { S_IFCHR, "a character device" },
	{ S_IFBLK, "a block device" },  { S_IFIFO, "a FIFO" },
	{ S_IFSOCK, "a socket" },
};

static const char *file_kind(mode_t mode)
{
	for (size_t i = 0; i < sizeof(file_kinds) / sizeof(*file_kinds); i++)
		if ((mode & S_IFMT) == file_kinds[i].type)
			return file_kinds[i].what;
	return "of an unknown type";
}

/* An example file name for the option's kind of output, for the hints. */
static const char *example_name(const char *opt)
{
	if (opt && strstr(opt, "csv"))
		return "result.csv";
	if (opt && strstr(opt, "html"))
		return "report.html";
	return "result.json";
}

/* "-o" of "-o/--output": how the user spells the option in a command. */
static int opt_word_len(const char *opt)
{
	const char *slash = strchr(opt, '/');

	return slash ? (int)(slash - opt) : (int)strlen(opt);
}

static int refuse_dir(const char *path, const char *opt, enum error_kind kind,
		      struct error *err)
{
	int len = (int)strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	error_set(err, kind, "'%s' is a directory", path);
	if (opt)
		return error_hint(err, "give a file name for %s, e.g. '%.*s/%s'", opt, len, path,
				  example_name(opt));
	return error_hint(err, "give a file name, e.g. '%.*s/%s'", len, path, example_name(opt));
}

/* path exists and is not a regular file: say what it is and refuse. */
static int refuse(const char *path, mode_t mode, const char *opt, enum error_kind kind,
		  struct error *err)
{
	if (S_ISDIR(mode))
		return refuse_dir(path, opt, kind, err);
	error_set(err, kind, "'%s' is not a regular file (%s)", path, file_kind(mode));
	if (opt)
		return error_hint(err, "pmustat writes results only to regular files; use "
				       "'%.*s -' for standard output", opt_word_len(opt), opt);
	return error_hint(err, "pmustat writes results only to regular files; choose another "
			       "path, or '-' for standard output");
}

static int cannot_write(const char *path, const char *opt, enum error_kind kind, int errnum,
			struct error *err)
{
	error_set(err, kind, "cannot write '%s': %s", path, strerror(errnum));
	if (errnum == ENOSPC || errnum == EDQUOT)
		return error_hint(err, "free space on its file system (see 'df -h'), or write "
				       "elsewhere");
	if (errnum == EFBIG)
		return error_hint(err, "the file size limit is reached: see 'ulimit -f'");
	if (opt)
		return error_hint(err, "choose a writable path for %s", opt);
	return error_hint(err, "choose a writable path");
}

/*
 * A temporary file is named after its output and its owner:
 * .NAME.pm-PID-START.XXXXXX. A kill -9 while a long document streams into
 * one leaves it (hundreds of MB for a long campaign), so before making one
 * the temporaries of the same output whose owner is gone (core/owner.h)
 * are removed: regular files of this user only.
 */
static void sweep_temps(const char *dir, const char *base)
{
	struct strbuf prefix = STRBUF_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;

	strbuf_addf(&prefix, ".%.*s.pm-", TEMP_BASE_MAX, base);
	while (d && (e = readdir(d))) {
		long pid;
		unsigned long long start;
		int end = 0;
		struct stat st;

		if (strncmp(e->d_name, prefix.buf, prefix.len) ||
		    sscanf(e->d_name + prefix.len, "%ld-%llu.%*6[A-Za-z0-9]%n", &pid, &start,
			   &end) != 2 || !end || e->d_name[prefix.len + (size_t)end] ||
		    !owner_gone(pid, start))
			continue;
		if (!fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid())
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	strbuf_release(&prefix);
}

/* Create a temporary file next to path; tmp receives its name. */
static int make_temp(const char *path, struct strbuf *tmp)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	long self = (long)getpid();

	if (slash)
		strbuf_add(tmp, path, (size_t)(base - path));
	sweep_temps(tmp->len ? tmp->buf : ".", base);
	strbuf_addf(tmp, ".%.*s.pm-%ld-%llu.XXXXXX", TEMP_BASE_MAX, base, self,
		    owner_start(self));
	return mkostemp(tmp->buf, O_CLOEXEC);
}

int outfile_check(const char *path, const char *opt, struct error *err)
{
	struct strbuf tmp = STRBUF_INIT;
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return 0;
	if (!*path) {
		error_set(err, ERR_USAGE, "empty file name for %s", opt);
		return error_hint(err, "give a file name for %s, e.g. '%s'", opt,
				  example_name(opt));
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return refuse(path, st.st_mode, opt, ERR_USAGE, err);
	} else if (errno != ENOENT) {
		return cannot_write(path, opt, ERR_USAGE, errno, err);
	}
	fd = make_temp(path, &tmp);
	if (fd < 0) {
		cannot_write(path, opt, ERR_USAGE, errno, err);
		strbuf_release(&tmp);
		return -1;
	}
	close(fd);
	unlink(tmp.buf);
	strbuf_release(&tmp);
	return 0;
}

/* Umask without a way to read it but to set it: set and restore at once. */
static mode_t current_umask(void)
{
	mode_t mask = umask(022);

	umask(mask);
	return mask;
}

/* The new file looks like the old one (mode, and owner when root replaces
 * someone's file), or like a file fopen would have created. Best effort: a
 * result with other permissions is still a result. */
static void copy_mode(int fd, const char *path)
{
	struct stat st;

	if (lstat(path, &st) || !S_ISREG(st.st_mode)) {
		fchmod(fd, 0666 & ~current_umask());
		return;
	}
	if (fchown(fd, st.st_uid, st.st_gid)) {
		/* not root: the file is ours, which is what it was */
	}
	fchmod(fd, st.st_mode & 0777);
}

/* The temporary file is complete (or a write failed): close it, and say
 * what went wrong, if anything. */
static int close_temp(int fd, const char *path, int errnum, struct error *err)
{
	if (errnum) {
		close(fd);
		return cannot_write(path, NULL, ERR_RUNTIME, errnum, err);
	}
	/* Linux closes the descriptor even when close reports EINTR. */
	if (close(fd) && errno != EINTR)
		return cannot_write(path, NULL, ERR_RUNTIME, errno, err);
	return 0;
}

/* rename replaces the directory entry and never follows it, so at worst a
 * file planted between this lstat and the rename is replaced, not written
 * through. */
static int swap_in(const char *tmp, const char *path, struct error *err)
{
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return refuse(path, st.st_mode, NULL, ERR_RUNTIME, err);
	if (rename(tmp, path))
		return cannot_write(path, NULL, ERR_RUNTIME, errno, err);
	return 0;
}

static int stdout_failed(int errnum, struct error *err)
{
	error_set(err, ERR_RUNTIME, "cannot write to standard output: %s", strerror(errnum));
	return error_hint(err, "check where standard output goes, or write to a file with -o "
			       "FILE");
}

/* ---- the stream (outfile_replace is one write of it) ---------------------- */

/* Writes of this size at least: the JSON writer hands over a few bytes at a
 * time, and a system call for each would cost more than the encoding. */
#define STREAM_CHUNK (64 * 1024)

static void stream_release(struct outfile_stream *s)
{
	strbuf_release(&s->tmp);
	strbuf_release(&s->buf);
	s->fd = -1;
}

int outfile_stream_open(struct outfile_stream *s, const char *path, struct error *err)
{
	*s = (struct outfile_stream){ path, STRBUF_INIT, STRBUF_INIT, -1, 0 };
	if (!strcmp(path, "-"))
		return 0;
	s->fd = make_temp(path, &s->tmp);
	if (s->fd < 0) {
		cannot_write(path, NULL, ERR_RUNTIME, errno, err);
		stream_release(s);
		return -1;
	}
	copy_mode(s->fd, path);
	return 0;
}

static void stream_flush(struct outfile_stream *s)
{
	if (!s->errnum && s->buf.len && outfile_write_all(s->fd, s->buf.buf, s->buf.len))
		s->errnum = errno;
	strbuf_reset(&s->buf);
}

/* Through stdio, so it stays in order with what was printed before. */
static void stream_stdout(struct outfile_stream *s, const void *data, size_t len)
{
	errno = 0;
	if (fwrite(data, 1, len, stdout) != len)
		s->errnum = errno ? errno : EIO;
}

int outfile_stream_write(struct outfile_stream *s, const void *data, size_t len)
{
	if (s->errnum || !len)
		return s->errnum ? -1 : 0;
	if (s->fd < 0) {
		stream_stdout(s, data, len);
	} else if (s->buf.len + len <= STREAM_CHUNK) {
		strbuf_add(&s->buf, data, len);
	} else {
		stream_flush(s);
		if (len < STREAM_CHUNK)
			strbuf_add(&s->buf, data, len);
		else if (!s->errnum && outfile_write_all(s->fd, data, len))
			s->errnum = errno;
	}
	return s->errnum ? -1 : 0;
}

int outfile_stream_commit(struct outfile_stream *s, struct error *err)
{
	int rc;

	if (s->fd < 0) {
		if (!s->errnum && fflush(stdout))
			s->errnum = errno;
		rc = s->errnum ? stdout_failed(s->errnum, err) : 0;
	} else {
		stream_flush(s);
		rc = close_temp(s->fd, s->path, s->errnum, err);
		if (!rc)
			rc = swap_in(s->tmp.buf, s->path, err);
		if (rc)
			unlink(s->tmp.buf);
	}
	stream_release(s);
	return rc;
}

void outfile_stream_abort(struct outfile_stream *s)
{
	if (s->fd >= 0) {
		close(s->fd);
		unlink(s->tmp.buf);
	}
	stream_release(s);
}

int outfile_replace(const char *path, const void *data, size_t len, struct error *err)
{
	struct outfile_stream s;

	if (outfile_stream_open(&s, path, err))
		return -1;
	outfile_stream_write(&s, data, len);
	return outfile_stream_commit(&s, err);
}

/* The open failed: when path is something we refuse (a link under
 * O_NOFOLLOW gives ELOOP, a FIFO without reader ENXIO), say that instead. */
static int open_failed(const char *path, int errnum, struct error *err)
{
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return refuse(path, st.st_mode, NULL, ERR_RUNTIME, err);
	return cannot_write(path, NULL, ERR_RUNTIME, errnum, err);
}

static int dup_stdout(struct error *err)
{
	int fd;

	fflush(stdout);
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		error_set(err, ERR_RUNTIME, "cannot write to standard output: %s",
			  strerror(errno));
	return fd;
}

/* fd is open on a regular file: empty it if asked, then make it an
 * ordinary blocking append descriptor. */
static int ready_fd(int fd, const char *path, int truncate, struct error *err)
{
	int flags;

	if (truncate && ftruncate(fd, 0))
		return cannot_write(path, NULL, ERR_RUNTIME, errno, err);
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, (flags & ~O_NONBLOCK) | O_APPEND))
		return cannot_write(path, NULL, ERR_RUNTIME, errno, err);
	return 0;
}

int outfile_open_append(const char *path, int truncate, struct error *err)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return dup_stdout(err);
	/* Refused before the open, so a device is not even opened ... */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return refuse(path, st.st_mode, NULL, ERR_RUNTIME, err);
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY,
		  0666);
	if (fd < 0)
		return open_failed(path, errno, err);
	/* ... and after it, for one swapped in between. */
	if (fstat(fd, &st))
		cannot_write(path, NULL, ERR_RUNTIME, errno, err);
	else if (!S_ISREG(st.st_mode))
		refuse(path, st.st_mode, NULL, ERR_RUNTIME, err);
	else if (!ready_fd(fd, path, truncate, err))
		return fd;
	close(fd);
	return -1;
}

int outfile_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
