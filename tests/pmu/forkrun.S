/*
 * forkrun CMD [ARG...]: a freestanding arm64 program (no libc) that forks,
 * execs CMD in the child and waits for it, for the exact-count test of
 * counting children (tests/pmu/guest.sh, t_children_exact). Its own user
 * instructions are 25 whatever the environment holds (no libc start-up walks
 * it): 17 in the parent (7 to the clone's svc, cbz, 6 to wait4's svc, 3 to
 * exit) and 8 in the child (cbz, 6 to execve's svc, the svc). So `forkrun
 * asmloop N` counts 25 + 2N + 5d + 9 exactly, if and only if the counters
 * follow the child into its exec.
 */
	.text
	.globl	_start
_start:
	mov	x0, #17			/* SIGCHLD: a plain fork */
	mov	x1, #0
	mov	x2, #0
	mov	x3, #0
	mov	x4, #0
	mov	x8, #220		/* __NR_clone */
	svc	#0
	cbz	x0, 1f
	mov	x0, #-1			/* wait4(-1, NULL, 0, NULL) */
	mov	x1, #0
	mov	x2, #0
	mov	x3, #0
	mov	x8, #260		/* __NR_wait4 */
	svc	#0
	mov	x0, #0
	mov	x8, #93			/* __NR_exit */
	svc	#0
1:	ldr	x0, [sp, #16]		/* argv[1] (sp: argc, argv[0], argv[1]) */
	add	x1, sp, #16		/* &argv[1] */
	ldr	x2, [sp]		/* argc */
	add	x2, x2, #2		/* past argv's NULL */
	add	x2, sp, x2, lsl #3	/* envp */
	mov	x8, #221		/* __NR_execve */
	svc	#0
	mov	x0, #127
	mov	x8, #93
	svc	#0
	.section .note.GNU-stack, "", %progbits
