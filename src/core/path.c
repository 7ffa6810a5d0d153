/*
 * path_search and tmpdir_make (see path.h). The search mirrors glibc's
 * execvpe: entries are taken left to right, an empty one (a leading, trailing
 * or doubled ':') stands for the current directory, and a candidate that is
 * not an executable regular file is skipped rather than ending the search.
 */
#include "core/path.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strbuf.h"

int path_usable(const char *path, int mode)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, mode) == 0;
}

char *path_search(const char *name, const char *path_env, int mode)
{
	const char *p = path_env ? path_env : getenv("PATH");
	struct strbuf sb = STRBUF_INIT;

	if (!*name)
		return NULL;
	if (strchr(name, '/'))
		return xstrdup(name);
	if (!p)
		p = PATH_DEFAULT;
	for (;;) {
		size_t len = strcspn(p, ":");

		strbuf_reset(&sb);
		if (len)
			strbuf_addf(&sb, "%.*s/%s", (int)len, p, name);
		else
			strbuf_addf(&sb, "./%s", name);
		if (path_usable(sb.buf, mode))
			return strbuf_detach(&sb);
		if (!p[len])
			break;
		p += len + 1;
	}
	strbuf_release(&sb);
	return NULL;
}

int tmpdir_make(const char *prefix, char **out, struct error *err)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	*out = NULL;
	strbuf_addf(&sb, "%s/%sXXXXXX", tmp, prefix);
	if (!mkdtemp(sb.buf)) {
		error_set(err, ERR_RUNTIME, "cannot create a directory in '%s': %s", tmp,
			  strerror(errno));
		strbuf_release(&sb);
		return error_hint(err, "point TMPDIR at a writable directory");
	}
	*out = strbuf_detach(&sb);
	return 0;
}
