/*
 * strbuf and allocation helpers. The empty strbuf points at a shared static
 * byte so that sb.buf is always a valid C string without allocating.
 */
#include "core/strbuf.h"

#include "core/oomguard.h"

#include "core/safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char strbuf_empty[1];

/*
 * The reserve (see strbuf.h): address space set aside, untouched, and given
 * back at the first allocation that fails, so that the allocation is tried
 * again and the program gets as far as its next safe point.
 */
static void *reserve;
static int reserve_spent;

void xalloc_reserve(size_t n)
{
	if (!reserve && !reserve_spent)
		reserve = malloc(n);
}

int xalloc_reserve_spent(void)
{
	return __atomic_load_n(&reserve_spent, __ATOMIC_SEQ_CST);
}

/* Taken atomically: the profiler's reader thread allocates too. */
static int spend_reserve(void)
{
	void *r = __atomic_exchange_n(&reserve, NULL, __ATOMIC_SEQ_CST);

	if (!r)
		return 0;
	free(r);
	__atomic_store_n(&reserve_spent, 1, __ATOMIC_SEQ_CST);
	return 1;
}

void xalloc_exhausted(void)
{
	spend_reserve();
	__atomic_store_n(&reserve_spent, 1, __ATOMIC_SEQ_CST);
}

/*
 * Out of memory with the reserve spent, outside a guarded region: nothing
 * useful can go on, so pmustat ends as after any runtime error — one line
 * with a hint, exit code 1 — rather than by abort() (exit 134, a core
 * dump, an undocumented code). Nothing is flushed: that could need memory.
 */
static void *out_of_memory(void)
{
	static const char msg[] = "error: out of memory\nhint: pmustat needs more memory than "
				  "it may use here: raise the limit ('ulimit -v') or ask for less "
				  "(fewer runs or blocks)\n";

	/* inside an oomguard region (libdw work): back to its start */
	oomguard_fail("out of memory");
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p && spend_reserve())
		p = malloc(n ? n : 1);
	return p ? p : out_of_memory();
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p && spend_reserve())
		p = calloc(n ? n : 1, size ? size : 1);
	return p ? p : out_of_memory();
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q && spend_reserve())
		q = realloc(p, n ? n : 1);
	return q ? q : out_of_memory();
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	if (sb->alloc) {
		sb->len = 0;
		sb->buf[0] = '\0';
	} else {
		strbuf_init(sb);
	}
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (!sb->buf)
		strbuf_init(sb);
	if (need <= sb->alloc)
		return;
	if (!sb->alloc)
		sb->buf = NULL;
	sb->alloc = need < 64 ? 64 : need * 3 / 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (!sb->len)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	strbuf_grow(sb, 64);
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p = sb->alloc ? sb->buf : xstrdup("");

	strbuf_init(sb);
	return p;
}

int strbuf_read_fd(struct strbuf *sb, int fd, size_t max)
{
	size_t start = sb->len;
	ssize_t n;

	for (;;) {
		strbuf_grow(sb, 8192);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		sb->len += (size_t)n;
		if (sb->len - start > max) {
			sb->len = start + max;
			sb->buf[sb->len] = '\0';
			return 1;
		}
		sb->buf[sb->len] = '\0';
	}
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), errnum, rc;

	if (fd < 0)
		return -1;
	rc = strbuf_read_fd(sb, fd, SIZE_MAX - 1);
	errnum = errno;
	close(fd);
	errno = errnum;
	return rc < 0 ? -1 : 0;
}

int strbuf_read_regular(struct strbuf *sb, const char *path, size_t max)
{
	int rc = safeopen_slurp(path, 0, max, sb);

	return rc == SAFEOPEN_NOTREG ? 2 : rc == SAFEOPEN_TOOBIG ? 1 : rc;
}

void strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}
