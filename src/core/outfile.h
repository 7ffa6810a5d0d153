/*
 * Output files that are safe to write as root. pmustat often runs as root
 * (perf counters, uprobes), and a plain fopen(path, "w") then follows
 * whatever the path names: `-o /dev/full` would be replaced by a JSON file,
 * `-o LINK` would replace the link, and a link planted at a predictable
 * temporary name would make root truncate its target. So outputs go only to
 * regular files, symbolic links are never followed (lstat, O_NOFOLLOW), and
 * temporary files are created with O_EXCL under unpredictable names.
 *
 * "-" means standard output everywhere.
 */
#ifndef PMU_CORE_OUTFILE_H
#define PMU_CORE_OUTFILE_H

#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

/*
 * Before anything runs: can path be written as an output for option opt
 * ("-o/--output", "--csv")? Refuses a directory and anything that is not a
 * regular file (checked with lstat: a symbolic link is refused, not
 * followed), then proves the directory writable by creating and removing a
 * temporary file in it. ERR_USAGE on refusal. Advisory only: the writers
 * below check again when they write.
 */
int outfile_check(const char *path, const char *opt, struct error *err);

/*
 * Replace path atomically with len bytes of data: a reader sees the old file
 * or the new one, never a part. The bytes go to a new temporary file in
 * path's directory (".NAME.XXXXXX", O_EXCL) that is renamed over path once
 * it is complete; path is checked again with lstat right before the rename
 * and left alone if it is not a regular file. On failure the temporary file
 * is removed and path is untouched (ERR_RUNTIME). A new file gets the
 * permissions fopen would give it (0666 less the umask), a replaced one
 * keeps its own. "-": data is written to stdout (through stdio, so it stays
 * in order with what was printed before).
 */
int outfile_replace(const char *path, const void *data, size_t len, struct error *err);

/*
 * The same replacement, written piece by piece: for a document too large to
 * hold whole in memory (the end of a long campaign). open makes the
 * temporary file (as outfile_replace does: beside path, O_EXCL, path's
 * permissions) or, for "-", writes to stdout; write hands it bytes, which
 * are buffered and written in chunks; commit writes what is left, closes
 * and renames the temporary over path (refused, as above, if path is no
 * longer a regular file); abort removes the temporary. After commit or
 * abort the stream is released, whatever happened; on any failure path is
 * untouched and no temporary is left. A failed write is remembered: later
 * writes do nothing and commit reports it (one line, ERR_RUNTIME), so a
 * writer may check only at the end. Bytes already written to stdout stay
 * written.
 */
struct outfile_stream {
	const char *path;	/* as given to open: must outlive the stream */
	struct strbuf tmp;	/* the temporary file's name; empty for stdout */
	struct strbuf buf;	/* bytes not yet written */
	int fd;			/* the temporary file; -1 for stdout */
	int errnum;		/* the first write's errno, or 0 */
};

int outfile_stream_open(struct outfile_stream *s, const char *path, struct error *err);
/* 0, or -1 once any write failed (see commit for the error). */
int outfile_stream_write(struct outfile_stream *s, const void *data, size_t len);
int outfile_stream_commit(struct outfile_stream *s, struct error *err);
void outfile_stream_abort(struct outfile_stream *s);

/*
 * Open path for appending (created if missing, emptied first if truncate)
 * and return the file descriptor (O_APPEND, close-on-exec, blocking), or -1.
 * A path that is not a regular file is refused before it is touched: the
 * open does not follow links and does not block on a FIFO, the fstat after
 * it refuses devices, FIFOs and sockets, and only then is the file
 * truncated. "-" returns a duplicate of stdout.
 */
int outfile_open_append(const char *path, int truncate, struct error *err);

/* Write all len bytes to fd, retrying short writes and EINTR. 0, or -1 with
 * errno set (EIO for a write that made no progress). */
int outfile_write_all(int fd, const void *buf, size_t len);

#endif
