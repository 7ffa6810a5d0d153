/*
 * noperf: run a command the way a container runtime's seccomp profile would,
 * with perf_event_open refused. For the CLI test of `pmustat doctor`'s
 * container case, which must be real, not simulated:
 *
 *   noperf [-e EPERM|ENOSYS] -- COMMAND [ARGS...]
 *
 * Installs a seccomp BPF filter (after PR_SET_NO_NEW_PRIVS, so no privilege
 * is needed) that makes perf_event_open fail with the given errno (EPERM by
 * default, as Docker's default profile does) and lets every other system
 * call through, then execs COMMAND. The filter is inherited across exec and
 * cannot be removed by the command.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define THIS_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_ARCH AUDIT_ARCH_AARCH64
#else
#error "noperf: add this architecture's AUDIT_ARCH"
#endif

static int install(unsigned err)
{
	struct sock_filter f[] = {
		/* Another architecture's syscall numbers mean something else:
		 * refuse them rather than misjudge them. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(f) / sizeof(f[0])), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

int main(int argc, char **argv)
{
	unsigned err = EPERM;
	int i = 1;

	if (i + 1 < argc && !strcmp(argv[i], "-e")) {
		if (!strcmp(argv[i + 1], "ENOSYS"))
			err = ENOSYS;
		else if (strcmp(argv[i + 1], "EPERM"))
			goto usage;
		i += 2;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc)
		goto usage;
	if (install(err)) {
		perror("noperf: cannot install the seccomp filter");
		return 125;
	}
	execvp(argv[i], argv + i);
	perror(argv[i]);
	return 127;
usage:
	fputs("usage: noperf [-e EPERM|ENOSYS] -- COMMAND [ARGS...]\n", stderr);
	return 125;
}
