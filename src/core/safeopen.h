/*
 * Opening a file a measured program could have touched: its executable and
 * the scripts' interpreters, the objects it maps, a path one of its records
 * names, a report file it writes into. The program controls what is at
 * such a path when pmustat reads it, and during a campaign SIGINT and
 * SIGTERM wait in a signalfd: a FIFO put there would block open(2) or
 * read(2) forever, a link to /dev/zero would be read without end. So the
 * file is opened without blocking (O_NONBLOCK: a FIFO with no writer opens
 * at once), optionally without following a final symbolic link, checked to
 * be a regular file before a byte is read, and read up to a limit.
 */
#ifndef PMU_CORE_SAFEOPEN_H
#define PMU_CORE_SAFEOPEN_H

#include <stddef.h>

#include "core/strbuf.h"

#define SAFEOPEN_NOFOLLOW 1u	/* refuse a symbolic link as the last component */

/* safeopen_read's result when path is there but not a regular file. */
#define SAFEOPEN_NOTREG (-2)

/* A read-only, close-on-exec descriptor of the regular file at path; -1
 * with errno, or SAFEOPEN_NOTREG (also for a link with SAFEOPEN_NOFOLLOW). */
int safeopen_read(const char *path, unsigned flags);

/* Why safeopen_read or safeopen_slurp returned rc (errno as they left it):
 * "not a regular file", "larger than the limit" or strerror(errno). */
const char *safeopen_strerror(int rc);

/* safeopen_slurp's result when the file holds more than max bytes (the
 * first max are appended). */
#define SAFEOPEN_TOOBIG (-3)

/* Append the whole regular file at path, at most max bytes: 0; -1 with
 * errno, SAFEOPEN_NOTREG, or SAFEOPEN_TOOBIG (a file larger than max is
 * refused before anything is read; one that grows while read is cut). */
int safeopen_slurp(const char *path, unsigned flags, size_t max, struct strbuf *sb);

#endif
