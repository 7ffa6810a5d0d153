/*
 * Slow-path Fr helpers: conversions, exponentiation and inversion. None of
 * these run per constraint (the hot add/sub/mul are inline in fr.h); they
 * set up constants and serve the self-test.
 */
#include "fr.h"

#include <string.h>

const fr FR_MODULUS = { { FR_Q0, FR_Q1, FR_Q2, FR_Q3 } };
const fr FR_ZERO = { { 0, 0, 0, 0 } };
const fr FR_ONE = { { 0x00000001fffffffeULL, 0x5884b7fa00034802ULL,
		      0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL } };
const fr FR_R2 = { { 0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL,
		     0x05d314967254398fULL, 0x0748d9d99f59ff11ULL } };

void fr_from_canonical(fr *out, const uint64_t limbs[4])
{
	fr t;
	memcpy(t.l, limbs, sizeof(t.l));
	fr_mul(out, &t, &FR_R2);
}

void fr_from_u64(fr *out, uint64_t v)
{
	uint64_t limbs[4] = { v, 0, 0, 0 };
	fr_from_canonical(out, limbs);
}

void fr_to_canonical(uint64_t limbs[4], const fr *a)
{
	static const fr one_plain = { { 1, 0, 0, 0 } };
	fr t;
	fr_mul(&t, a, &one_plain);
	memcpy(limbs, t.l, sizeof(t.l));
}

void fr_to_bytes_le(uint8_t out[32], const fr *a)
{
	uint64_t limbs[4];
	fr_to_canonical(limbs, a);
	for (int i = 0; i < 32; i++)
		out[i] = (uint8_t)(limbs[i / 8] >> (8 * (i % 8)));
}

void fr_pow(fr *out, const fr *a, const uint64_t e[4])
{
	fr acc = FR_ONE;
	for (int i = 255; i >= 0; i--) {
		fr_square(&acc, &acc);
		if ((e[i / 64] >> (i % 64)) & 1)
			fr_mul(&acc, &acc, a);
	}
	*out = acc;
}

int fr_inv(fr *out, const fr *a)
{
	static const uint64_t r_minus_2[4] = { FR_Q0 - 2, FR_Q1, FR_Q2, FR_Q3 };
	if (fr_is_zero(a))
		return -1;
	fr_pow(out, a, r_minus_2);
	return 0;
}

void fr_from_random(fr *out, const uint64_t w[4])
{
	/* < 2^255 < 2r, so one conditional subtraction makes it canonical. */
	fr t;
	fr_reduce_once(&t, w[0], w[1], w[2], w[3] & 0x7fffffffffffffffULL);
	fr_from_canonical(out, t.l);
}
