/*
 * The processes of one run, as the spawn server finds and ends them. A
 * measured program may leave processes behind: a daemon, children it never
 * waited for, a grandchild in a session of its own. They would run on into
 * the next runs (and past pmustat), unreported, so after each run the server
 * finds them, kills them (or lets them go when asked), and says how many.
 *
 * Two ways to find them. Where cgroup v2 can be written, the run's first
 * process moves itself into a cgroup of the server's own before it is
 * released (a write to a descriptor kept open for all runs):
 * whatever it starts is in that cgroup, cgroup.kill ends all of it at once,
 * and cgroup.events says when it is empty. Elsewhere, and in any case as a
 * backstop, the server is a child subreaper (PR_SET_CHILD_SUBREAPER): what a
 * run leaves is reparented to it, and its descendants in /proc are the run's.
 * PMUSTAT_NO_CGROUP=1 forces the second way.
 *
 * Linked into the spawn server, which links libc only: nothing here
 * allocates through core/ or reports through struct error.
 */
#ifndef PMU_RUN_TREE_H
#define PMU_RUN_TREE_H

#include <stddef.h>
#include <sys/types.h>

/* A process let go by an earlier run (subreaper mode): its start time tells
 * it from a later process that reused its pid. */
struct tree_kept {
	pid_t pid;
	unsigned long long start;
};

struct run_tree {
	pid_t self;		/* the server */
	int cgroups;		/* 1 = runs get a cgroup (until one cannot be made) */
	char home[4096];	/* the server's own cgroup directory */
	char dir[4200];		/* the runs' cgroup ("" until made) */
	int in_cgroup;		/* the current run's first process was moved into dir */
	int procs_fd;		/* dir's cgroup.procs, cgroup.events, cgroup.stat, */
	int events_fd;		/* kept open while dir exists (-1 otherwise): */
	int stat_fd;		/* one write or read per run instead of a walk */
	pid_t main;		/* the current run's first process, 0 when reaped */
	struct tree_kept *kept;
	size_t nkept, kept_alloc;
};

/* At server start: become a subreaper, look for a writable cgroup v2. */
void tree_init(struct run_tree *t);

/*
 * Before a run's first process starts: the descriptor it writes "0" to, to
 * move itself into the run's cgroup (the cgroup is made at the first run),
 * or -1 when runs get no cgroup. Close-on-exec.
 */
int tree_join_fd(struct run_tree *t);

/* The run's first process started (and waits to be released); joined: it
 * moved itself into the run's cgroup. When it could not, this run and the
 * next use the subreaper. */
void tree_begin(struct run_tree *t, pid_t child, int joined);

/* The first process was reaped. */
void tree_main_reaped(struct run_tree *t);

/*
 * The live processes of the current run other than its first one, into
 * *pids (malloc'd; may be NULL when 0). Before the first process is reaped
 * they are what it started; after, what it left behind.
 */
size_t tree_survey(struct run_tree *t, pid_t **pids);

/* Send SIGKILL to every process of the current run, the first one included,
 * without waiting (a timeout, a stop request, pmustat gone). */
void tree_signal_all(struct run_tree *t);

/* After the first process was reaped: kill whatever of the run is left and
 * return once it is gone. */
void tree_kill(struct run_tree *t);

/* After the first process was reaped: let the run's processes (pids, from
 * tree_survey) live on, out of the run's reach. */
void tree_keep(struct run_tree *t, const pid_t *pids, size_t n);

/* The run is over: empty its cgroup for the next one, reap what died. */
void tree_end(struct run_tree *t);

/* Server exit: remove the runs' cgroup. */
void tree_release(struct run_tree *t);

/* "name[pid], name[pid] and 3 more" for the first of pids, into buf (len > 0);
 * names are read from /proc and made printable. Returns strlen(buf). */
/* A child of parent's, found by a walk of /proc, or 0: for pmustat, when the
 * server stops answering during a run whose pid it was not told yet. */
pid_t tree_child_of(pid_t parent);

size_t tree_names(const pid_t *pids, size_t n, char *buf, size_t len);

#endif
