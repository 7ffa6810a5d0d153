/*
 * Inheritable uprobes through tracefs (see uprobe_trace.h). The syntax of
 * uprobe_events is the kernel's Documentation/trace/uprobetracer.rst:
 * "p[:[GRP/]EVENT] PATH:OFFSET" for an entry, "r[:[GRP/]EVENT] PATH:OFFSET"
 * for a return, "-:[GRP/]EVENT" to remove one; each made event has its
 * tracepoint id in events/GRP/EVENT/id. The file is opened for appending:
 * opened for writing without O_APPEND it would be truncated, which
 * removes every uprobe on the system.
 */
#include "backend/uprobe_trace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/strbuf.h"

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

/* Every event of group removed. */
static void remove_group(const char *root, const char *group)
{
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;
	struct dirent *d;
	DIR *dir;

	strbuf_addf(&path, "%s/events/%s", root, group);
	dir = opendir(path.buf);
	while (dir && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		strbuf_reset(&line);
		strbuf_addf(&line, "-:%s/%s\n", group, d->d_name);
		append(root, line.buf);
	}
	if (dir)
		closedir(dir);
	strbuf_release(&path);
	strbuf_release(&line);
}

/* The groups of pmustat processes no longer alive (killed before they
 * removed theirs). */
static void remove_stale(const char *root)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *d;
	DIR *dir;

	strbuf_addf(&path, "%s/events", root);
	dir = opendir(path.buf);
	while (dir && (d = readdir(dir))) {
		long pid;
		char *end;

		if (strncmp(d->d_name, "pmustat_", 8))
			continue;
		pid = strtol(d->d_name + 8, &end, 10);
		if (pid > 0 && *end == '_' && kill((pid_t)pid, 0) < 0 && errno == ESRCH)
			remove_group(root, d->d_name);
	}
	if (dir)
		closedir(dir);
	strbuf_release(&path);
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

	memset(t, 0, sizeof(*t));
	snprintf(t->group, sizeof(t->group), "pmustat_%ld_%" PRIxPTR, (long)getpid(), key);
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
	remove_stale(t->root);
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
