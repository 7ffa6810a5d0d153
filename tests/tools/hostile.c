/*
 * hostile MODE [ARG]: measured programs that misbehave the way real ones do,
 * for the CLI tests of what a run leaves behind and what it inherits.
 *
 *   daemon         double fork: a daemon in its own session, then exit
 *   setsid         a grandchild that calls setsid(), then exit
 *   fork N         N children that wait forever, then exit
 *   hang-setsid    a setsid() grandchild, then wait forever (for --timeout)
 *   fds FILE       write the numbers of this process's open fds to FILE
 *   clean-exec CMD ARG...  exec CMD with only fds 0, 1 and 2 open
 *   stuck-server FD FILE   a spawn server that never answers: read a byte
 *                  of the request on FD, create FILE, wait forever
 *
 * Every process left behind appends "PID CGROUP" to $HOSTILE_REPORT (when
 * set) before the program exits, so a test knows exactly which processes to
 * look for, and the program exits only once all of them are in place: the
 * count left behind never depends on timing.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void report_self(void)
{
	const char *path = getenv("HOSTILE_REPORT");
	char line[4400], cg[4096] = "?";
	FILE *f;
	int fd;

	if (!path)
		return;
	f = fopen("/proc/self/cgroup", "r");
	while (f && fgets(cg, sizeof(cg), f) && strncmp(cg, "0::", 3))
		;
	if (f)
		fclose(f);
	cg[strcspn(cg, "\n")] = '\0';
	snprintf(line, sizeof(line), "%ld %s\n", (long)getpid(), strncmp(cg, "0::", 3) ? "?" : cg + 3);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0 && write(fd, line, strlen(line)) < 0)
		perror("hostile: report");
	if (fd >= 0)
		close(fd);
}

/* A process left behind: report, say it is ready, then wait forever. */
static void __attribute__((noreturn)) linger(int ready)
{
	report_self();
	if (write(ready, "r", 1) != 1)
		_exit(1);
	close(ready);
	for (;;)
		pause();
}

static void wait_ready(int rd, long n)
{
	char c;

	for (long i = 0; i < n; i++)
		if (read(rd, &c, 1) != 1) {
			fputs("hostile: a child died before it was ready\n", stderr);
			exit(1);
		}
}

static pid_t xfork(void)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("hostile: fork");
		exit(1);
	}
	return pid;
}

/* Until pid is a zombie or gone: a spin on /proc, not a sleep. */
static void wait_exited(pid_t pid)
{
	char path[64], buf[512], *s;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	for (;;) {
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

		if (f)
			fclose(f);
		buf[n] = '\0';
		s = strrchr(buf, ')');
		if (!n || !s || s[1] != ' ' || s[2] == 'Z' || s[2] == 'X')
			return;
		sched_yield();
	}
}

/* In the main process's child: fork, setsid, fork, and the daemon lingers
 * once the middle process is gone. */
static void daemonize(int p[2])
{
	pid_t middle;
	int null;

	if (xfork())
		_exit(0);
	setsid();
	middle = getpid();
	if (xfork())
		_exit(0);
	close(p[0]);
	wait_exited(middle);
	null = open("/dev/null", O_RDWR);
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	linger(p[1]);
}

/* In the main process's child: a grandchild in a session of its own. */
static void setsid_grandchild(int p[2])
{
	if (xfork())
		_exit(0);
	close(p[0]);
	setsid();
	linger(p[1]);
}

static int list_fds(const char *out)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char buf[4096] = "";
	size_t len = 0;
	FILE *f;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d) && len + 16 < sizeof(buf))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? " " : "",
						e->d_name);
	if (d)
		closedir(d);
	f = fopen(out, "w");
	if (!f || fprintf(f, "%s\n", buf) < 0 || fclose(f))
		return 1;
	return 0;
}

static int clean_exec(char **argv)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] != '.' && fd > 2 && fd != dirfd(d))
			fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	if (d)
		closedir(d);
	execvp(argv[0], argv);
	perror("hostile: exec");
	return 127;
}

static int stuck_server(int fd, const char *marker)
{
	char c;
	int m;

	if (read(fd, &c, 1) != 1)
		return 1;
	m = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (m < 0)
		return 1;
	close(m);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long n = 1;
	pid_t child = 0;
	int p[2];

	if (!strcmp(mode, "fds") && argc == 3)
		return list_fds(argv[2]);
	if (!strcmp(mode, "clean-exec") && argc > 2)
		return clean_exec(argv + 2);
	if (!strcmp(mode, "stuck-server") && argc == 4)
		return stuck_server(atoi(argv[2]), argv[3]);
	if (pipe(p)) {
		perror("hostile: pipe");
		return 1;
	}
	if (!strcmp(mode, "daemon")) {
		if (!(child = xfork()))
			daemonize(p);
	} else if (!strcmp(mode, "setsid") || !strcmp(mode, "hang-setsid")) {
		if (!(child = xfork()))
			setsid_grandchild(p);
	} else if (!strcmp(mode, "fork") && argc == 3 && (n = atol(argv[2])) > 0) {
		for (long i = 0; i < n; i++)
			if (!xfork())
				linger(p[1]);
	} else {
		fputs("usage: hostile daemon|setsid|hang-setsid|fork N|fds FILE|clean-exec CMD...|"
		      "stuck-server FD FILE\n",
		      stderr);
		return 2;
	}
	wait_ready(p[0], n);
	if (child)
		waitpid(child, NULL, 0);
	while (!strcmp(mode, "hang-setsid"))
		pause();
	return 0;
}
