/*
 * path_search and tmpdir_make (see path.h). The search mirrors glibc's
 * execvpe: entries are taken left to right, an empty one (a leading, trailing
 * or doubled ':') stands for the current directory, and a candidate that is
 * not an executable regular file is skipped rather than ending the search.
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

/* The start time of process pid (clock ticks after boot, field 22 of
 * /proc/PID/stat), 0 when it is not running. With the pid it names one
 * process: a pid reused later has another start time. */
static unsigned long long proc_start(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the command name may hold anything */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %*d %*d %llu", &start) != 1)
		return 0;
	return start;
}

/* Empty and remove dir (the files of one pmustat directory: no
 * subdirectories, a link is removed, not followed). */
static void remove_flat(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	unlinkat(parent, name, AT_REMOVEDIR);
}

/*
 * Remove what pmustat processes killed before they could clean up left in
 * tmp: directories <prefix><pid>-<start>-XXXXXX of this user whose process
 * (pid with that start time) is gone. A live campaign's directory, another
 * user's, a link or a name of another form is never touched.
 */
static void tmpdir_sweep(const char *tmp, const char *prefix)
{
	DIR *d = opendir(tmp);
	size_t plen = strlen(prefix);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		long pid;
		unsigned long long start;
		int used = 0;
		struct stat st;

		if (strncmp(e->d_name, prefix, plen) ||
		    sscanf(e->d_name + plen, "%ld-%llu-%n", &pid, &start, &used) != 2 || !used ||
		    pid <= 0 || strlen(e->d_name + plen + used) != 6)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (proc_start(pid) != start)
			remove_flat(dirfd(d), e->d_name);
	}
	closedir(d);
}

int tmpdir_make(const char *prefix, char **out, struct error *err)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;
	long pid = (long)getpid();

	if (!tmp || !*tmp)
		tmp = "/tmp";
	*out = NULL;
	tmpdir_sweep(tmp, prefix);
	strbuf_addf(&sb, "%s/%s%ld-%llu-XXXXXX", tmp, prefix, pid, proc_start(pid));
	if (!mkdtemp(sb.buf)) {
		error_set(err, ERR_RUNTIME, "cannot create a directory in '%s': %s", tmp,
			  strerror(errno));
		strbuf_release(&sb);
		return error_hint(err, "point TMPDIR at a writable directory");
	}
	*out = strbuf_detach(&sb);
	return 0;
}
