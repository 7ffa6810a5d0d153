/*
 * Building the equal-length links. The directory lives under $TMPDIR (or
 * /tmp); a link's target is the program's absolute, symlink-resolved path so
 * that the link stays valid whatever the working directory.
 */
#include "run/execpath.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/strbuf.h"
#include "core/words.h"

static char *realpath_or_error(const char *path, const char *prog, struct error *err)
{
	char *r = realpath(path, NULL);

	if (!r)
		error_set(err, ERR_RUNTIME, "cannot run '%s': %s", prog, strerror(errno));
	return r;
}

char *execpath_resolve(const char *prog, struct error *err)
{
	char *path, *found;

	if (strchr(prog, '/')) {
		if (path_usable(prog, X_OK))
			return realpath_or_error(prog, prog, err);
		error_set(err, ERR_RUNTIME, "cannot run '%s': %s", prog,
			  access(prog, F_OK) ? strerror(ENOENT) : strerror(EACCES));
		error_hint(err, "check the path and that the file is executable");
		return NULL;
	}
	path = path_search(prog, NULL, X_OK);
	if (!path) {
		error_set(err, ERR_RUNTIME, "cannot run '%s': %s", prog, strerror(ENOENT));
		/* One word with blanks is a command line typed as one argument. */
		if (words_has_blank(prog))
			error_hint(err, "it is one word with blanks: give the program and its "
				   "arguments as separate words (-- %s), or run it as a command "
				   "line with --shell sh", prog);
		else
			error_hint(err, "'%s' is not in PATH; give its path (e.g. ./%s)", prog,
				   prog);
		return NULL;
	}
	found = realpath_or_error(path, prog, err);
	free(path);
	return found;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

int execpaths_make(struct execpaths *e, const char *const *progs, size_t n, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t maxbase = 0;

	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < n; i++)
		if (strlen(base_name(progs[i])) > maxbase)
			maxbase = strlen(base_name(progs[i]));
	if (tmpdir_make("pmustat-exec-", &e->dir, err))
		return -1;
	e->paths = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		char *target = execpath_resolve(progs[i], err);
		const char *base = base_name(progs[i]);
		size_t padding = maxbase - strlen(base);

		if (!target)
			return -1;
		/* Directory "<i>" padded with '_' so dir + base lengths match;
		 * the index is zero-padded so it has the same width for all. */
		strbuf_addf(&sb, "%s/%0*zu", e->dir, (int)snprintf(NULL, 0, "%zu", n), i);
		for (size_t k = 0; k < padding; k++)
			strbuf_addch(&sb, '_');
		if (mkdir(sb.buf, 0700)) {
			error_set(err, ERR_RUNTIME, "cannot create '%s': %s", sb.buf, strerror(errno));
			free(target);
			strbuf_release(&sb);
			return -1;
		}
		strbuf_addf(&sb, "/%s", base);
		if (symlink(target, sb.buf)) {
			error_set(err, ERR_RUNTIME, "cannot link '%s': %s", sb.buf, strerror(errno));
			free(target);
			strbuf_release(&sb);
			return -1;
		}
		free(target);
		e->paths[i] = strbuf_detach(&sb);
		e->n = i + 1;
	}
	return 0;
}

void execpaths_release(struct execpaths *e)
{
	for (size_t i = 0; i < e->n; i++) {
		char *slash;

		unlink(e->paths[i]);
		slash = strrchr(e->paths[i], '/');
		*slash = '\0';
		rmdir(e->paths[i]);
		free(e->paths[i]);
	}
	if (e->dir)
		rmdir(e->dir);
	free(e->dir);
	free(e->paths);
	memset(e, 0, sizeof(*e));
}
