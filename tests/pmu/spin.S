/*
 * pmu_spin(n), n >= 1: exactly 2n + 1 instructions (subs and b.ne per
 * iteration, then ret), for the region test program regionloop.c.
 */
	.text
	.globl	pmu_spin
	.type	pmu_spin, %function
pmu_spin:
1:	subs	x0, x0, #1
	b.ne	1b
	ret
	.size	pmu_spin, . - pmu_spin
	.section .note.GNU-stack, "", %progbits
