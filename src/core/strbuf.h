/*
 * A growable, always NUL-terminated byte string (after git's strbuf). Used
 * wherever a string is assembled piecewise; allocation failure aborts via
 * xmalloc, since a tool that cannot allocate a few bytes has nothing useful
 * left to do.
 */
#ifndef PMU_CORE_STRBUF_H
#define PMU_CORE_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;	/* never NULL after init; buf[len] == '\0' */
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append the whole content of the file at path. 0, or -1 with errno set
 * (sb keeps what was read). */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* Append what fd gives until end of file, at most max bytes: 0, 1 when
 * there was more (the first max bytes are kept), -1 with errno. */
int strbuf_read_fd(struct strbuf *sb, int fd, size_t max);
/*
 * Append the content of path if it is a regular file, at most max bytes. It
 * is opened without blocking and checked before anything is read, so a FIFO
 * or a device where a file belongs (a recorded sysfs tree, a data
 * directory, a journal named by a result) is refused at once instead of
 * hanging or reading /dev/zero forever. 0; 1 when there was more than max
 * (the first max bytes are kept); 2 when path is not a regular file; -1
 * with errno.
 */
int strbuf_read_regular(struct strbuf *sb, const char *path, size_t max);
/* Give up ownership of the buffer; sb is re-initialised. */
char *strbuf_detach(struct strbuf *sb);

/* Free a NULL-terminated array of malloc'd strings and the array itself
 * (argv-style vectors); NULL is harmless. */
void strv_free(char **v);

/* Allocation that never returns NULL. */
/*
 * Running out of memory in the middle of a campaign should stop it like any
 * other runtime error (the table of the finished runs, the journal intact),
 * not abort. xalloc_reserve(n) sets n bytes of address space aside; the
 * first x*alloc that fails gives them back and tries again, and
 * xalloc_reserve_spent() then says so to whoever can stop cleanly (the
 * campaign loop, after each run). A failure with the reserve spent aborts.
 */
void xalloc_reserve(size_t n);
int xalloc_reserve_spent(void);
/* Memory ran out where no x*alloc saw it (libdw, core/oomguard.h): give
 * the reserve back and say it is spent, so that the campaign stops. */
void xalloc_exhausted(void);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Grow an array to hold at least `need` elements (amortised doubling). */
#define ALLOC_GROW(arr, need, alloc)                                          \
	do {                                                                  \
		if ((size_t)(need) > (alloc)) {                               \
			size_t n_ = (alloc) ? (alloc) * 2 : 8;                \
			while (n_ < (size_t)(need))                           \
				n_ *= 2;                                      \
			(arr) = xrealloc((arr), n_ * sizeof(*(arr)));         \
			(alloc) = n_;                                         \
		}                                                             \
	} while (0)

#endif
