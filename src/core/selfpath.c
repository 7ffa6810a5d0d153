/*
 * selfpath_find. /proc/self/exe gives the real executable even when pmustat
 * was started through a symlink or from PATH.
 */
#include "core/selfpath.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/strbuf.h"

char *selfpath_find(const char *env, const char *name, int mode)
{
	static const char *const dirs[] = { "", "/../libexec/pmustat", "/../lib/pmustat" };
	/* secure_getenv: a pmustat given capabilities (setcap) or setuid runs
	 * in secure mode, where a variable naming a program to execute or a
	 * library to preload is the caller's to choose no more. */
	const char *over = env ? secure_getenv(env) : NULL;
	struct strbuf sb = STRBUF_INIT;
	char self[4096], *slash;
	ssize_t n;

	if (over && *over)
		return access(over, mode) == 0 ? xstrdup(over) : NULL;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%s/%s", self, dirs[i], name);
		if (access(sb.buf, mode) == 0)
			return strbuf_detach(&sb);
	}
	strbuf_release(&sb);
	return NULL;
}
