/*
 * Numeric assertions shared by the statistics tests (cmocka). STATS.md
 * prints its reference values rounded (se 0.168325082 has 9 significant
 * digits, so 1e-9 relative is finer than the printed value): near_printed
 * checks to half a unit of the last printed decimal; near_rel checks a
 * relative tolerance, for values known to full precision.
 */
#ifndef PMU_TESTS_NUMCHECK_H
#define PMU_TESTS_NUMCHECK_H

#include <math.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static inline void near_rel(double got, double want, double tol, const char *what)
{
	double err = fabs(got - want) / fmax(fabs(want), 1e-300);

	if (!(err <= tol))
		fail_msg("%s: got %.17g, want %.17g (rel err %.3g > %.3g)",
			 what, got, want, err, tol);
}

static inline void near_printed(double got, double want, int decimals, const char *what)
{
	double tol = 0.5 * pow(10.0, -decimals) * (1.0 + 1e-9);

	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, want %.*f (to %d decimals)",
			 what, got, decimals, want, decimals);
}

#endif
