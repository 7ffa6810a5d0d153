/*
 * Inheritable uprobes through tracefs (see uprobe_trace.h). The syntax of
 * uprobe_events is the kernel's Documentation/trace/uprobetracer.rst:
 * "p[:[GRP/]EVENT] PATH:OFFSET" for an entry, "r[:[GRP/]EVENT] PATH:OFFSET"
 * for a return, "-:[GRP/]EVENT" to remove one; each made event has its
 * tracepoint id in events/GRP/EVENT/id. The file is opened for appending:
 * opened for writing without O_APPEND it would be truncated, which
 * removes every uprobe on the system. uprobe_events lists the events made,
 * one a line in the syntax that made them ("p:GRP/EVENT PATH:0x..."), which
 * is how the sweep finds ours without reading the directory of every
 * trace event the kernel has.
 */
#include "backend/uprobe_trace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/owner.h"
#include "core/strbuf.h"

#define GROUP_PREFIX "pmustat_"

static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/* Append one line to root/uprobe_events; errno when not. */
static int append(const char *root, const char *line)
{
	struct strbuf path = STRBUF_INIT;
	size_t len = strlen(line);
	ssize_t w;
	int fd, e;

	strbuf_addf(&path, "%s/uprobe_events", root);
	fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
	strbuf_release(&path);
	if (fd < 0)
		return -1;
	w = write(fd, line, len);
	e = errno;
	close(fd);
	errno = e;
	return w == (ssize_t)len ? 0 : -1;
}

static int read_id(const char *root, const char *group, size_t i, uint64_t *id)
{
	char path[512], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/events/%s/p%zu/id", root, group, i);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	*id = strtoull(buf, NULL, 10);
	return *id ? 0 : -1;
}

/* Digits only (strtoull would take a sign or blanks): the value, the
 * end in *end; NULL *end when there are none. */
static unsigned long long digits(const char *s, const char **end)
{
	unsigned long long v = 0;
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		v = v * 10 + (unsigned)(*p++ - '0');
	*end = p > s ? p : NULL;
	return v;
}

/*
 * The owner a group name records: "pmustat_PID_START_KEY", or an earlier
 * pmustat's "pmustat_PID_KEY" (start unknown: 0); KEY in hex. 0, or -1 for
 * a group of another form (never ours to remove).
 */
static int group_owner(const char *g, long *pid, unsigned long long *start)
{
	const char *p, *q;

	if (strncmp(g, GROUP_PREFIX, strlen(GROUP_PREFIX)))
		return -1;
	*pid = (long)digits(g + strlen(GROUP_PREFIX), &p);
	if (!p || *p != '_' || *pid <= 0)
		return -1;
	*start = digits(p + 1, &q);
	if (q && *q == '_')
		p = q;
	else
		*start = 0;
	p++;
	return *p && strspn(p, "0123456789abcdef") == strlen(p) ? 0 : -1;
}

/* The tracefs mount whose uprobe_events can be read, or NULL. */
static const char *readable_root(void)
{
	char path[128];

	for (size_t r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		snprintf(path, sizeof(path), "%s/uprobe_events", roots[r]);
		if (access(path, R_OK) == 0)
			return roots[r];
		if (errno != ENOENT)
			return NULL;
	}
	return NULL;
}

/* One line of uprobe_events, "p:GROUP/EVENT PATH:OFFSET ...": GROUP and
 * EVENT copied out; -1 for a line of another form. */
static int event_name(const char *line, size_t len, char *group, char *event)
{
	const char *slash, *blank;

	if (len < 2 || (line[0] != 'p' && line[0] != 'r') || line[1] != ':')
		return -1;
	line += 2;
	len -= 2;
	slash = memchr(line, '/', len);
	blank = memchr(line, ' ', len);
	if (!slash || !blank || slash > blank || slash - line >= UPROBE_NAME_MAX ||
	    blank - slash - 1 >= UPROBE_NAME_MAX || blank == slash + 1)
		return -1;
	memcpy(group, line, (size_t)(slash - line));
	group[slash - line] = '\0';
	memcpy(event, slash + 1, (size_t)(blank - slash - 1));
	event[blank - slash - 1] = '\0';
	return 0;
}

/* Remove one event of a gone owner's group; its group appended to removed
 * when it is not the last one there. 1 when removed. */
static int sweep_event(const char *root, const char *group, const char *event,
		       struct strbuf *removed, char *last)
{
	long pid;
	unsigned long long start;
	char line[2 * UPROBE_NAME_MAX + 8];

	if (group_owner(group, &pid, &start) || !owner_gone(pid, start))
		return 0;
	snprintf(line, sizeof(line), "-:%s/%s\n", group, event);
	if (append(root, line))
		return 0;	/* in use (an orphaned run still has it open): next time */
	if (removed && strcmp(last, group)) {
		strbuf_addf(removed, "%s%s", removed->len ? ", " : "", group);
		snprintf(last, UPROBE_NAME_MAX, "%s", group);
	}
	return 1;
}

size_t uprobe_trace_sweep(struct strbuf *removed)
{
	const char *root = readable_root();
	struct strbuf path = STRBUF_INIT, list = STRBUF_INIT;
	char group[UPROBE_NAME_MAX], event[UPROBE_NAME_MAX], last[UPROBE_NAME_MAX] = "";
	size_t n = 0;

	if (!root)
		return 0;
	strbuf_addf(&path, "%s/uprobe_events", root);
	if (strbuf_read_file(&list, path.buf))
		strbuf_reset(&list);
	for (const char *p = list.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!event_name(p, len, group, event))
			n += (size_t)sweep_event(root, group, event, removed, last);
		p = nl ? nl + 1 : NULL;
	}
	strbuf_release(&path);
	strbuf_release(&list);
	return n;
}

/* The file as the syntax can carry it: absolute (a relative path would be
 * the kernel's lookup from our directory, the same file but said less
 * plainly), without white space, which ends it. NULL with errno if not. */
static char *plain_path(const char *path)
{
	char *abs = realpath(path, NULL);

	if (abs && strpbrk(abs, " \t\n\r\v\f")) {
		free(abs);
		errno = EINVAL;
		return NULL;
	}
	return abs;
}

static int make_all(struct uprobe_trace *t, const char *const *path, const uint64_t *offset,
		    const unsigned char *ret, size_t n)
{
	struct strbuf line = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		char *abs = plain_path(path[i]);

		if (!abs) {
			rc = -1;
			break;
		}
		strbuf_reset(&line);
		strbuf_addf(&line, "%c:%s/p%zu %s:0x%" PRIx64 "\n", ret && ret[i] ? 'r' : 'p',
			    t->group, i, abs, offset[i]);
		free(abs);
		rc = append(t->root, line.buf);
		if (!rc) {
			t->n = i + 1;
			rc = read_id(t->root, t->group, i, &t->ids[i]);
		}
	}
	strbuf_release(&line);
	return rc;
}

int uprobe_trace_make(struct uprobe_trace *t, const char *const *path, const uint64_t *offset,
		      const unsigned char *ret, size_t n, uintptr_t key, struct error *err)
{
	char probe[512];
	int errnum = ENOENT;
	long pid = (long)getpid();

	memset(t, 0, sizeof(*t));
	snprintf(t->group, sizeof(t->group), GROUP_PREFIX "%ld_%llu_%" PRIxPTR, pid,
		 owner_start(pid), key);
	for (size_t r = 0; r < sizeof(roots) / sizeof(roots[0]) && !t->root; r++) {
		snprintf(probe, sizeof(probe), "%s/uprobe_events", roots[r]);
		if (access(probe, W_OK) == 0)
			t->root = roots[r];
		else if (errno != ENOENT)
			errnum = errno;
	}
	if (!t->root)
		return error_set(err, ERR_RUNTIME, "no writable uprobe_events in tracefs: %s",
				 strerror(errnum));
	t->ids = xcalloc(n ? n : 1, sizeof(*t->ids));
	if (make_all(t, path, offset, ret, n)) {
		errnum = errno;
		uprobe_trace_remove(t);
		return error_set(err, ERR_RUNTIME, "cannot make uprobe trace events: %s",
				 strerror(errnum));
	}
	return 0;
}

void uprobe_trace_remove(struct uprobe_trace *t)
{
	char line[128];

	for (size_t i = 0; t->root && i < t->n; i++) {
		snprintf(line, sizeof(line), "-:%s/p%zu\n", t->group, i);
		append(t->root, line);
	}
	free(t->ids);
	memset(t, 0, sizeof(*t));
}
