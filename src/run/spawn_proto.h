/*
 * The private protocol between pmustat and its spawn server (spawner.c):
 * length-prefixed messages on a stream socket, file descriptors passed with
 * SCM_RIGHTS. Only run/spawn.c and run/spawner.c include this.
 *
 *   pmustat -> server  spawn_request + argv/envp strings (+ stderr memfd)
 *   server  -> pmustat spawn_started  (child pid, or errno of fork)
 *   pmustat -> server  one byte: 'g' go
 *   server  -> pmustat spawn_finished (exec errno, wait status, rusage, wall ns)
 */
#ifndef PMU_RUN_SPAWN_PROTO_H
#define PMU_RUN_SPAWN_PROTO_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#define SPAWN_MAGIC 0x706d7573u	/* "pmus" */

struct spawn_request {
	uint32_t magic;
	uint32_t payload;	/* bytes of NUL-terminated strings that follow */
	int32_t show_output;
	int32_t pin_cpu;
	int32_t nargv;
	int32_t nenv;		/* -1: keep the server's environment */
	int32_t has_stderr_fd;	/* an fd rides along with this message */
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
};

/* Whole-buffer I/O on the socket, retrying short transfers and EINTR. */
int proto_write(int fd, const void *buf, size_t len);
int proto_read(int fd, void *buf, size_t len);
/* Send/receive len bytes with an optional fd (-1 = none). */
int proto_send_fd(int sock, const void *buf, size_t len, int fd);
int proto_recv_fd(int sock, void *buf, size_t len, int *fd);

/* The server's main loop; never returns. */
void spawner_serve(int sock) __attribute__((noreturn));

#endif
