/*
 * path_search, tmpdir_make and tmpdir_sweep (see path.h). The search mirrors
 * glibc's execvpe: entries are taken left to right, an empty one (a leading,
 * trailing or doubled ':') stands for the current directory, and a candidate
 * that is not an executable regular file is skipped rather than ending the
 * search. The sweep removes only what tmpdir_make makes, by its names.
 */
#include "core/path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/owner.h"
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

/* Every prefix tmpdir_make is given: the sweep removes these only. */
static const char *const tmp_prefixes[] = { "pmustat-calls.", "pmustat-exec-", "pmustat-sim." };

/* pmustat's deepest: DIR/<index>/<link> (run/execpath.c). */
#define SWEEP_DEPTH 3

static const char *tmp_root(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

/*
 * Remove directory name of parent with what it holds, down to depth
 * levels: this user's entries on file system dev only. A link is removed,
 * never followed; a mount point, another user's entry or a deeper
 * directory is left, and so is the directory holding it. 0 when name is
 * gone.
 */
static int remove_tree(int parent, const char *name, dev_t dev, int depth)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	struct dirent *e;
	DIR *d;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_dev != dev || st.st_uid != geteuid() ||
	    !(d = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    st.st_uid != geteuid())
			continue;
		if (!S_ISDIR(st.st_mode))
			unlinkat(dirfd(d), e->d_name, 0);
		else if (depth > 1 && st.st_dev == dev)
			remove_tree(dirfd(d), e->d_name, dev, depth - 1);
	}
	closedir(d);
	return unlinkat(parent, name, AT_REMOVEDIR);
}

/* Is name one of tmpdir_make's, <prefix><pid>-<start>-XXXXXX? Its owner
 * into *pid and *start. */
static int tmp_name(const char *name, long *pid, unsigned long long *start)
{
	for (size_t i = 0; i < sizeof(tmp_prefixes) / sizeof(tmp_prefixes[0]); i++) {
		size_t plen = strlen(tmp_prefixes[i]);
		int used = 0;

		if (!strncmp(name, tmp_prefixes[i], plen) &&
		    sscanf(name + plen, "%ld-%llu-%n", pid, start, &used) == 2 && used &&
		    *pid > 0 && strlen(name + plen + used) == 6)
			return 1;
	}
	return 0;
}

size_t tmpdir_sweep(struct strbuf *removed)
{
	const char *tmp = tmp_root();
	DIR *d = opendir(tmp);
	struct stat top;
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	if (fstat(dirfd(d), &top)) {
		closedir(d);
		return 0;
	}
	while ((e = readdir(d))) {
		long pid;
		unsigned long long start;
		struct stat st;

		if (!tmp_name(e->d_name, &pid, &start) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || !owner_gone(pid, start) ||
		    remove_tree(dirfd(d), e->d_name, top.st_dev, SWEEP_DEPTH))
			continue;
		if (removed)
			strbuf_addf(removed, "%s%s/%s", n ? ", " : "", tmp, e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

int tmpdir_make(const char *prefix, char **out, struct error *err)
{
	const char *tmp = tmp_root();
	struct strbuf sb = STRBUF_INIT;
	long pid = (long)getpid();

	*out = NULL;
	strbuf_addf(&sb, "%s/%s%ld-%llu-XXXXXX", tmp, prefix, pid, owner_start(pid));
	if (!mkdtemp(sb.buf)) {
		error_set(err, ERR_RUNTIME, "cannot create a directory in '%s': %s", tmp,
			  strerror(errno));
		strbuf_release(&sb);
		return error_hint(err, "point TMPDIR at a writable directory");
	}
	*out = strbuf_detach(&sb);
	return 0;
}
