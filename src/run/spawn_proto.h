/*
 * The private protocol between pmustat and its spawn server (spawner.c):
 * length-prefixed messages on a stream socket, file descriptors passed with
 * SCM_RIGHTS. Only run/spawn.c and run/spawner.c include this.
 *
 *   pmustat -> server  'd' + spawn_request, in one message (+ stderr memfd),
 *                      then argv/envp strings. 'd' says the run before is
 *                      over: the server drops any 'k' before it (a kill
 *                      request that crossed spawn_finished on the wire).
 *   server  -> pmustat spawn_started  (child pid, or errno of fork); sent
 *                      by the child itself, which the server waits for;
 *                      a quick request's by the server once the child has
 *                      exec'd (or failed to)
 *   pmustat -> server  one byte: 'g' go, or 'k' kill the child unreleased;
 *                      read by the child itself (spawner.c); not for a
 *                      quick request, whose child execs at once
 *   pmustat -> server  'k' while the child runs: kill every process of the
 *                      run (timeout, stop request)
 *   server  -> pmustat spawn_finished (exec errno, wait status, rusage, wall
 *                      ns, processes left behind) + names_len bytes of names
 *
 * A quick request is for a run whose counters pmustat opened on the server
 * itself, disabled, inherited and enabled on exec (run/measure.c): the child
 * inherits them when it is forked, so there is nothing to wait for between
 * its fork and its exec. That saves the go byte's wakeup, and sending 'd'
 * with the next request saves another: five wakeups per run instead of
 * seven (docs/spawn.md: what that did and did not change).
 * When the socket closes (pmustat died, or the campaign ended), the server
 * kills every process of the current run and exits.
 */
#ifndef PMU_RUN_SPAWN_PROTO_H
#define PMU_RUN_SPAWN_PROTO_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#define SPAWN_MAGIC 0x706d7577u	/* "pmuw": quick requests, 'd' before each request,
				 * output_both */
#define SPAWN_NAMES_MAX 240	/* bytes of "name[pid]" list after spawn_finished */

struct spawn_request {
	uint32_t magic;
	uint32_t payload;	/* bytes of NUL-terminated strings that follow */
	int32_t show_output;
	int32_t pin_cpu;
	int32_t nargv;
	int32_t nenv;		/* -1: keep the server's environment */
	int32_t has_stderr_fd;	/* an fd rides along with this message */
	int32_t keep_children;	/* 1: let what the run leaves behind live on */
	int32_t has_input;	/* 1: one more string after envp, the stdin file */
	int32_t quick;		/* 1: no go byte; the server reports the pid after exec */
	int32_t has_cwd;	/* 1: one more string, the directory to run in */
	int32_t output_both;	/* 1: stdout goes to the fd that came along, as stderr */
};

struct spawn_started {
	int32_t pid;		/* > 0, or 0 when fork failed */
	int32_t err;		/* errno of the failure */
};

struct spawn_finished {
	int32_t exec_errno;	/* 0 when exec succeeded */
	int32_t wait_status;	/* as from wait4 */
	uint64_t wall_ns;
	struct rusage ru;
	uint32_t left;		/* processes of the run alive when its first one ended
				 * (or when the run was killed), the first excluded */
	int32_t left_kept;	/* 1: they were let go, 0: killed */
	uint32_t names_len;	/* bytes that follow, no NUL */
};

/* Whole-buffer I/O on the socket, retrying short transfers and EINTR; never
 * raises SIGPIPE. */
int proto_write(int fd, const void *buf, size_t len);
int proto_read(int fd, void *buf, size_t len);
/* Send/receive len bytes with an optional fd (-1 = none). */
int proto_send_fd(int sock, const void *buf, size_t len, int fd);
int proto_recv_fd(int sock, void *buf, size_t len, int *fd);

/* The server's main loop; never returns. */
void spawner_serve(int sock) __attribute__((noreturn));

#endif
