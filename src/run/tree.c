/*
 * Finding and ending what a run leaves behind (see tree.h). The cgroup way
 * asks the kernel: cgroup.procs lists the run's live processes, cgroup.kill
 * ends them all (forks in flight included), cgroup.events says "populated 0"
 * once they are gone (so the usual run, which leaves nothing, costs one
 * read of it and one of cgroup.stat, both kept open, and no walk). The subreaper way reads /proc: a snapshot of every
 * process's parent, marked outward from the server, gives the run's
 * processes; killing them and waiting for the server's own children repeats
 * until none is left, since each death reparents the next generation to the
 * server. Processes let go by earlier runs (--keep-children) and theirs are
 * told apart by pid and start time, and never touched again.
 */
#include "run/tree.h"
#include "core/sort.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define REAP_ROUNDS_MAX 100000	/* kill rounds; each waits for a death */

/* ---- small files ---------------------------------------------------------- */

static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (got + 1 < len) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

static int write_file(const char *dir, const char *file, const char *s)
{
	char path[4300];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do
		n = write(fd, s, strlen(s));
	while (n < 0 && errno == EINTR);
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int push_pid(pid_t **v, size_t *n, size_t *alloc, pid_t pid)
{
	if (*n == *alloc) {
		size_t na = *alloc ? 2 * *alloc : 64;
		pid_t *nv = realloc(*v, na * sizeof(pid_t));

		if (!nv)
			return -1;
		*v = nv;
		*alloc = na;
	}
	(*v)[(*n)++] = pid;
	return 0;
}

/* ---- where the server's cgroup is ----------------------------------------- */

/* The server's cgroup v2 path ("0::/a/b"). */
static int own_cgroup(char *path, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = -1;

	if (!f)
		return -1;
	while (rc && getline(&line, &cap, f) > 0) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line + 3) < len) {
			strcpy(path, line + 3);
			rc = 0;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

/* The cgroup2 mount: its mount point and the hierarchy path at its root.
 * Paths with escaped characters are skipped rather than decoded. */
static int cgroup_mount(char *mnt, char *root, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, r[4096], m[4096];
	size_t cap = 0;
	int rc = -1;

	if (!f)
		return -1;
	while (rc && getline(&line, &cap, f) > 0) {
		char *sep = strstr(line, " - ");

		if (!sep || strncmp(sep + 3, "cgroup2 ", 8) ||
		    sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2 || strchr(r, '\\') ||
		    strchr(m, '\\') || strlen(r) >= len || strlen(m) >= len)
			continue;
		strcpy(mnt, m);
		strcpy(root, r);
		rc = 0;
	}
	free(line);
	fclose(f);
	return rc;
}

static int find_home(struct run_tree *t)
{
	char path[4096], mnt[2048], root[2048];
	const char *rel = path;
	size_t n;

	if (own_cgroup(path, sizeof(path)) || cgroup_mount(mnt, root, sizeof(mnt)))
		return -1;
	if (strcmp(root, "/")) {
		n = strlen(root);
		if (strncmp(path, root, n) || (path[n] && path[n] != '/'))
			return -1;
		rel = path + n;
	}
	if (!strcmp(rel, "/"))
		rel = "";
	if (strlen(mnt) + strlen(rel) >= sizeof(t->home))
		return -1;
	snprintf(t->home, sizeof(t->home), "%s%s", mnt, rel);
	return 0;
}

void tree_init(struct run_tree *t)
{
	const char *off = getenv("PMUSTAT_NO_CGROUP");

	memset(t, 0, sizeof(*t));
	t->procs_fd = t->events_fd = t->stat_fd = -1;
	t->self = getpid();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	t->cgroups = !(off && *off && strcmp(off, "0")) && find_home(t) == 0;
}

/* ---- the cgroup way -------------------------------------------------------- */

static int cg_open(const char *dir, const char *file, int flags)
{
	char path[4300];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return open(path, flags | O_CLOEXEC);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* No cgroup for this run or the next ones. */
static void cg_drop(struct run_tree *t)
{
	close_fd(&t->procs_fd);
	close_fd(&t->events_fd);
	close_fd(&t->stat_fd);
	if (t->dir[0])
		rmdir(t->dir);
	t->dir[0] = '\0';
	t->cgroups = 0;
}

/* The runs' cgroup, made at the first run; kernels without cgroup.kill
 * (before 5.14) use the subreaper way instead. */
static int cg_make(struct run_tree *t)
{
	char kill_path[4300];

	snprintf(t->dir, sizeof(t->dir), "%s/pmustat-%ld", t->home, (long)t->self);
	snprintf(kill_path, sizeof(kill_path), "%s/cgroup.kill", t->dir);
	if ((mkdir(t->dir, 0755) && errno != EEXIST) || access(kill_path, W_OK) ||
	    (t->procs_fd = cg_open(t->dir, "cgroup.procs", O_WRONLY)) < 0) {
		cg_drop(t);
		return -1;
	}
	/* Optional: without them the run's cgroup is walked instead. */
	t->events_fd = cg_open(t->dir, "cgroup.events", O_RDONLY);
	t->stat_fd = cg_open(t->dir, "cgroup.stat", O_RDONLY);
	return 0;
}

int tree_join_fd(struct run_tree *t)
{
	if (!t->cgroups || (!t->dir[0] && cg_make(t)))
		return -1;
	return t->procs_fd;
}

void tree_begin(struct run_tree *t, pid_t child, int joined)
{
	t->main = child;
	t->in_cgroup = t->cgroups && joined;
	/* It could not move there (a delegation boundary, a threaded
	 * cgroup): this run and the next use the subreaper. */
	if (t->cgroups && !joined)
		cg_drop(t);
}

void tree_main_reaped(struct run_tree *t)
{
	t->main = 0;
}

/* Apply fn to dir and every cgroup below it, children first. */
static void cg_walk(const char *dir, void (*fn)(const char *dir, void *arg), void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char sub[4300];

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		cg_walk(sub, fn, arg);
	}
	if (d)
		closedir(d);
	fn(dir, arg);
}

struct pid_list {
	pid_t *v;
	size_t n, alloc;
	pid_t skip;
};

static void cg_read_procs(const char *dir, void *arg)
{
	struct pid_list *l = arg;
	char path[4300];
	FILE *f;
	long pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fscanf(f, "%ld", &pid) == 1)
		if ((pid_t)pid != l->skip && push_pid(&l->v, &l->n, &l->alloc, (pid_t)pid))
			break;
	fclose(f);
}

static void cg_rmdir(const char *dir, void *arg)
{
	const char *keep = arg;

	if (!keep || strcmp(dir, keep))
		rmdir(dir);
}

/* Wait for "populated 0" in cgroup.events, which the kernel announces with
 * POLLPRI; every wake-up kills again whatever may have slipped in. */
static void cg_wait_empty(const char *dir)
{
	char path[4300], buf[256];
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	while (fd >= 0) {
		struct pollfd p = { fd, POLLPRI, 0 };
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

		if (n <= 0)
			break;
		buf[n] = '\0';
		if (strstr(buf, "populated 0"))
			break;
		write_file(dir, "cgroup.kill", "1");
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
	}
	if (fd >= 0)
		close(fd);
}

/* ---- the subreaper way: a snapshot of /proc -------------------------------- */

enum { M_NONE, M_RUN, M_KEPT, M_SELF };

struct pinfo {
	pid_t pid, ppid;
	char state;
	int mark;
	unsigned long long start;
};

struct snap {
	struct pinfo *v;
	size_t n, alloc;
};

static int parse_stat(const char *buf, struct pinfo *p)
{
	const char *s = strrchr(buf, ')');
	int ppid;

	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt
	 * cmajflt utime stime cutime cstime priority nice threads itreal
	 * starttime: fields 3 to 22 of proc(5). */
	if (!s || sscanf(s + 1, " %c %d %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %*s %*s %llu", &p->state, &ppid, &p->start) != 3)
		return -1;
	p->ppid = (pid_t)ppid;
	return 0;
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct pinfo *)a)->pid, y = ((const struct pinfo *)b)->pid;

	return (x > y) - (x < y);
}

static int snap_add(struct snap *s, const struct pinfo *p)
{
	if (s->n == s->alloc) {
		size_t na = s->alloc ? 2 * s->alloc : 256;
		struct pinfo *nv = realloc(s->v, na * sizeof(*nv));

		if (!nv)
			return -1;
		s->v = nv;
		s->alloc = na;
	}
	s->v[s->n++] = *p;
	return 0;
}

static void snap_take(struct snap *s)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	s->n = 0;
	while (d && (e = readdir(d))) {
		char path[300], buf[1024];
		struct pinfo p = { 0 };

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		p.pid = (pid_t)atol(e->d_name);
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (read_small(path, buf, sizeof(buf)) <= 0 || parse_stat(buf, &p))
			continue;
		if (snap_add(s, &p))
			break;
	}
	if (d)
		closedir(d);
	sort_n(s->v, s->n, sizeof(*s->v), by_pid);
}

pid_t tree_child_of(pid_t parent)
{
	struct snap s = { NULL, 0, 0 };
	pid_t found = 0;

	snap_take(&s);
	for (size_t i = 0; i < s.n && !found; i++)
		if (s.v[i].ppid == parent)
			found = s.v[i].pid;
	free(s.v);
	return found;
}

static struct pinfo *snap_find(const struct snap *s, pid_t pid)
{
	struct pinfo key = { .pid = pid };

	return s->n ? bsearch(&key, s->v, s->n, sizeof(*s->v), by_pid) : NULL;
}

static int is_kept(const struct run_tree *t, const struct pinfo *p)
{
	for (size_t i = 0; i < t->nkept; i++)
		if (t->kept[i].pid == p->pid && t->kept[i].start == p->start)
			return 1;
	return 0;
}

/* Mark the server's descendants: M_RUN, or M_KEPT below a kept child. */
static void snap_mark(struct snap *s, const struct run_tree *t)
{
	int changed = 1;

	for (size_t i = 0; i < s->n; i++)
		s->v[i].mark = s->v[i].pid == t->self ? M_SELF : M_NONE;
	while (changed) {
		changed = 0;
		for (size_t i = 0; i < s->n; i++) {
			struct pinfo *par;

			if (s->v[i].mark != M_NONE)
				continue;
			par = snap_find(s, s->v[i].ppid);
			if (!par || par->mark == M_NONE)
				continue;
			if (par->mark == M_SELF)
				s->v[i].mark = is_kept(t, &s->v[i]) ? M_KEPT : M_RUN;
			else
				s->v[i].mark = par->mark;
			changed = 1;
		}
	}
}

/* Does the server have any child at all? Cheap, and the usual answer is no. */
static int have_children(void)
{
	siginfo_t si;

	return waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) == 0;
}

/* Forget kept processes that are gone. */
static void prune_kept(struct run_tree *t, const struct snap *s)
{
	size_t k = 0;

	for (size_t i = 0; i < t->nkept; i++) {
		const struct pinfo *p = snap_find(s, t->kept[i].pid);

		if (p && p->start == t->kept[i].start && p->state != 'Z')
			t->kept[k++] = t->kept[i];
	}
	t->nkept = k;
}

static size_t reaper_survey(struct run_tree *t, pid_t **pids)
{
	struct snap s = { 0 };
	size_t n = 0, alloc = 0;

	if (!have_children())
		return 0;
	snap_take(&s);
	snap_mark(&s, t);
	prune_kept(t, &s);
	for (size_t i = 0; i < s.n; i++)
		if (s.v[i].mark == M_RUN && s.v[i].pid != t->main && s.v[i].state != 'Z' &&
		    s.v[i].state != 'X' && push_pid(pids, &n, &alloc, s.v[i].pid))
			break;
	free(s.v);
	return n;
}

/* One round: SIGKILL every process of the run but the first, then wait for
 * those that are the server's children. Returns how many were signalled. */
static size_t reaper_round(struct run_tree *t, struct snap *s)
{
	size_t n = 0;

	snap_take(s);
	snap_mark(s, t);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].mark == M_RUN && s->v[i].pid != t->main) {
			kill(s->v[i].pid, SIGKILL);
			n++;
		}
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].mark == M_RUN && s->v[i].pid != t->main && s->v[i].ppid == t->self)
			while (waitpid(s->v[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
	return n;
}

static void reaper_kill(struct run_tree *t)
{
	struct snap s = { 0 };

	if (!have_children())
		return;
	for (int round = 0; round < REAP_ROUNDS_MAX && reaper_round(t, &s); round++)
		;
	free(s.v);
}

/* ---- the run's processes ---------------------------------------------------- */

/* Key KEY's number in a cgroup file kept open (fd), or -1 when it cannot
 * be read: "populated" in cgroup.events, "nr_descendants" in cgroup.stat. */
static long cg_key(int fd, const char *key)
{
	char buf[512], *p;
	ssize_t n;

	if (fd < 0 || (n = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return -1;
	buf[n] = '\0';
	for (p = buf; (p = strstr(p, key)); p++)
		if ((p == buf || p[-1] == '\n') && p[strlen(key)] == ' ')
			return atol(p + strlen(key) + 1);
	return -1;
}

size_t tree_survey(struct run_tree *t, pid_t **pids)
{
	struct pid_list l = { NULL, 0, 0, t->main };

	*pids = NULL;
	if (!t->in_cgroup)
		return reaper_survey(t, pids);
	/* The usual case, once the first process is reaped: the kernel says
	 * nothing of the run is alive, in its cgroup or below. */
	if (!t->main && cg_key(t->events_fd, "populated") == 0)
		return 0;
	cg_walk(t->dir, cg_read_procs, &l);
	*pids = l.v;
	return l.n;
}

void tree_signal_all(struct run_tree *t)
{
	struct snap s = { 0 };

	if (t->in_cgroup && write_file(t->dir, "cgroup.kill", "1") == 0)
		return;
	if (t->main > 0)
		kill(t->main, SIGKILL);
	snap_take(&s);
	snap_mark(&s, t);
	for (size_t i = 0; i < s.n; i++)
		if (s.v[i].mark == M_RUN)
			kill(s.v[i].pid, SIGKILL);
	free(s.v);
}

void tree_kill(struct run_tree *t)
{
	if (t->in_cgroup) {
		write_file(t->dir, "cgroup.kill", "1");
		cg_wait_empty(t->dir);
	}
	/* Killed orphans are the server's zombies now; and without a cgroup
	 * this is the whole work. */
	reaper_kill(t);
}

static int kept_add(struct run_tree *t, pid_t pid)
{
	char path[64], buf[1024];
	struct pinfo p = { .pid = pid };

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (read_small(path, buf, sizeof(buf)) <= 0 || parse_stat(buf, &p))
		return 0;	/* gone already */
	if (t->nkept == t->kept_alloc) {
		size_t na = t->kept_alloc ? 2 * t->kept_alloc : 16;
		struct tree_kept *nv = realloc(t->kept, na * sizeof(*nv));

		if (!nv)
			return -1;
		t->kept = nv;
		t->kept_alloc = na;
	}
	t->kept[t->nkept++] = (struct tree_kept){ pid, p.start };
	return 0;
}

/* Move the run's processes to the server's own cgroup, until the run's is
 * empty (a process forking meanwhile puts its child where it is). */
static void cg_move_out(struct run_tree *t)
{
	for (int round = 0; round < REAP_ROUNDS_MAX; round++) {
		struct pid_list l = { NULL, 0, 0, 0 };

		cg_walk(t->dir, cg_read_procs, &l);
		for (size_t i = 0; i < l.n; i++) {
			char pid[24];

			snprintf(pid, sizeof(pid), "%ld", (long)l.v[i]);
			write_file(t->home, "cgroup.procs", pid);
			kept_add(t, l.v[i]);
		}
		free(l.v);
		if (!l.n)
			break;
	}
}

void tree_keep(struct run_tree *t, const pid_t *pids, size_t n)
{
	if (t->in_cgroup) {
		cg_move_out(t);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (kept_add(t, pids[i]))
			break;
}

void tree_end(struct run_tree *t)
{
	/* Cgroups the program made inside the run's: empty by now. */
	if (t->in_cgroup && cg_key(t->stat_fd, "nr_descendants") != 0)
		cg_walk(t->dir, cg_rmdir, t->dir);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	t->main = 0;
	t->in_cgroup = 0;
}

void tree_release(struct run_tree *t)
{
	close_fd(&t->procs_fd);
	close_fd(&t->events_fd);
	close_fd(&t->stat_fd);
	if (t->dir[0])
		cg_walk(t->dir, cg_rmdir, NULL);
	free(t->kept);
	t->kept = NULL;
	t->nkept = t->kept_alloc = 0;
}

/* ---- names ------------------------------------------------------------------ */

static void name_of(pid_t pid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	if (read_small(path, buf, len) <= 0) {
		snprintf(buf, len, "?");
		return;
	}
	buf[strcspn(buf, "\n")] = '\0';
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
}

size_t tree_names(const pid_t *pids, size_t n, char *buf, size_t len)
{
	size_t used = 0, shown = 0;
	const size_t more = 32;	/* room for " and N more" */

	buf[0] = '\0';
	for (; shown < n; shown++) {
		char comm[64], item[96];
		int k;

		name_of(pids[shown], comm, sizeof(comm));
		k = snprintf(item, sizeof(item), "%s%s[%ld]", shown ? ", " : "", comm,
			     (long)pids[shown]);
		if (k < 0 || used + (size_t)k + more >= len)
			break;
		memcpy(buf + used, item, (size_t)k + 1);
		used += (size_t)k;
	}
	if (shown < n && used + more < len)
		used += (size_t)snprintf(buf + used, len - used, "%s%zu more", shown ? " and " : "",
					 n - shown);
	return used;
}
