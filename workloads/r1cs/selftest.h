/*
 * Built-in correctness checks of the pieces the workload's numbers rest on:
 * Fr arithmetic (against an independent shift-and-add reduction), software
 * SHA-256 (FIPS 180-2 test vectors), and the SHA-256 gadget (known digests,
 * satisfiability, and the 25,840-row count of one constant-IV compression).
 */
#ifndef R1CS_SELFTEST_H
#define R1CS_SELFTEST_H

#include <stdio.h>

/* Runs every check, reports failures on err; returns the failure count and
 * stores the number of checks run in *nchecks. */
int selftest_run(FILE *err, int *nchecks);

/* Average CPU ns of one Montgomery multiply in a dependent chain (latency). */
double selftest_fr_mul_ns(void);

#endif
