/*
 * safeopen_read and safeopen_slurp (see safeopen.h). O_NOCTTY as well: a
 * terminal device put in a file's place must not become pmustat's
 * controlling terminal. O_NONBLOCK stays set on the descriptor; a regular
 * file's reads ignore it.
 */
#include "core/safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int safeopen_read(const char *path, unsigned flags)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
		      ((flags & SAFEOPEN_NOFOLLOW) ? O_NOFOLLOW : 0));
	struct stat st;

	if (fd < 0 && errno == ELOOP && (flags & SAFEOPEN_NOFOLLOW))
		return SAFEOPEN_NOTREG;	/* a symbolic link */
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		int errnum = errno;

		close(fd);
		errno = errnum;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return SAFEOPEN_NOTREG;
	}
	return fd;
}

const char *safeopen_strerror(int rc)
{
	if (rc == SAFEOPEN_NOTREG)
		return "not a regular file";
	if (rc == SAFEOPEN_TOOBIG)
		return "larger than the limit";
	return strerror(errno);
}

int safeopen_slurp(const char *path, unsigned flags, size_t max, struct strbuf *sb)
{
	int fd = safeopen_read(path, flags), errnum, rc;
	struct stat st;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > max) {
		close(fd);	/* refused before a byte is read */
		return SAFEOPEN_TOOBIG;
	}
	rc = strbuf_read_fd(sb, fd, max);
	errnum = errno;
	close(fd);
	errno = errnum;
	return rc < 0 ? -1 : rc ? SAFEOPEN_TOOBIG : 0;
}
