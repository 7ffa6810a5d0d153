/*
 * asmloop N: a freestanding arm64 program (no libc, no dynamic loader) that
 * executes a number of user-space instructions known from its code alone,
 * for the exact-count tests of tests/pmu/guest.sh. Counting starts at exec,
 * so every user instruction the process retires is one of these:
 *
 *   3                    ldr, mov, mov (argv[1] and the constant 10)
 *   5 per digit of N     ldrb, cbz, sub, madd, b (decimal parse)
 *   2                    ldrb, cbz at the terminating NUL
 *   1                    cbz (N == 0 skips the loop)
 *   2N                   subs, b.ne per iteration
 *   3                    mov, mov, svc (exit(0))
 *
 * = 2N + 5d + 9 for N >= 1 with d decimal digits; guest.sh computes the same.
 */
	.text
	.globl	_start
_start:
	ldr	x1, [sp, #16]		/* argv[1] (sp: argc, argv[0], argv[1]) */
	mov	x0, #0
	mov	x3, #10
1:	ldrb	w2, [x1], #1
	cbz	w2, 2f
	sub	x2, x2, #'0'
	madd	x0, x0, x3, x2
	b	1b
2:	cbz	x0, 4f
3:	subs	x0, x0, #1
	b.ne	3b
4:	mov	x0, #0
	mov	x8, #93			/* __NR_exit */
	svc	#0
	.section .note.GNU-stack, "", %progbits
