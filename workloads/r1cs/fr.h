/*
 * Fr: the BLS12-381 scalar field, as bellperson/blstrs use it: four 64-bit
 * limbs, little-endian, always kept in Montgomery form (x * 2^256 mod r).
 *
 * The multiply is the hot operation of constraint evaluation (one per
 * coefficient that is not 1), so it lives here as a static inline CIOS
 * loop on unsigned __int128. Because r's top limb is below 2^63 - 1 the
 * "no-carry" CIOS variant applies: the running value never needs a fifth
 * limb, and one conditional subtraction at the end gives a result < r.
 *
 * Constants are public facts of the curve (r is the BLS12-381 group order;
 * R = 2^256 mod r, R^2 mod r and -r^-1 mod 2^64 follow from it). They are
 * cross-checked at run time by the self-test (fr_selftest in selftest.c).
 */
#ifndef R1CS_FR_H
#define R1CS_FR_H

#include <stdbool.h>
#include <stdint.h>

typedef unsigned __int128 fr_u128;

typedef struct fr {
	uint64_t l[4];
} fr;

/* r, little-endian limbs (BLS12-381 scalar field modulus). */
#define FR_Q0 0xffffffff00000001ULL
#define FR_Q1 0x53bda402fffe5bfeULL
#define FR_Q2 0x3339d80809a1d805ULL
#define FR_Q3 0x73eda753299d7d48ULL
/* -r^-1 mod 2^64 */
#define FR_INV 0xfffffffeffffffffULL

extern const fr FR_MODULUS; /* r itself (not a field element) */
extern const fr FR_ZERO;
extern const fr FR_ONE;     /* R mod r: 1 in Montgomery form */
extern const fr FR_R2;      /* R^2 mod r: converts into Montgomery form */

static inline uint64_t fr_adc(uint64_t a, uint64_t b, uint64_t *carry)
{
	fr_u128 s = (fr_u128)a + b + *carry;
	*carry = (uint64_t)(s >> 64);
	return (uint64_t)s;
}

static inline uint64_t fr_sbb(uint64_t a, uint64_t b, uint64_t *borrow)
{
	fr_u128 d = (fr_u128)a - b - *borrow;
	*borrow = (uint64_t)(d >> 127);
	return (uint64_t)d;
}

/* out = t - r if t >= r, else t (t < 2r). */
static inline void fr_reduce_once(fr *out, uint64_t t0, uint64_t t1,
				  uint64_t t2, uint64_t t3)
{
	uint64_t br = 0;
	uint64_t s0 = fr_sbb(t0, FR_Q0, &br);
	uint64_t s1 = fr_sbb(t1, FR_Q1, &br);
	uint64_t s2 = fr_sbb(t2, FR_Q2, &br);
	uint64_t s3 = fr_sbb(t3, FR_Q3, &br);
	uint64_t keep = 0 - br; /* all ones when t < r */
	out->l[0] = (t0 & keep) | (s0 & ~keep);
	out->l[1] = (t1 & keep) | (s1 & ~keep);
	out->l[2] = (t2 & keep) | (s2 & ~keep);
	out->l[3] = (t3 & keep) | (s3 & ~keep);
}

static inline void fr_add(fr *out, const fr *a, const fr *b)
{
	uint64_t c = 0;
	uint64_t t0 = fr_adc(a->l[0], b->l[0], &c);
	uint64_t t1 = fr_adc(a->l[1], b->l[1], &c);
	uint64_t t2 = fr_adc(a->l[2], b->l[2], &c);
	uint64_t t3 = fr_adc(a->l[3], b->l[3], &c);
	fr_reduce_once(out, t0, t1, t2, t3);
}

static inline void fr_sub(fr *out, const fr *a, const fr *b)
{
	uint64_t br = 0, c = 0;
	uint64_t t0 = fr_sbb(a->l[0], b->l[0], &br);
	uint64_t t1 = fr_sbb(a->l[1], b->l[1], &br);
	uint64_t t2 = fr_sbb(a->l[2], b->l[2], &br);
	uint64_t t3 = fr_sbb(a->l[3], b->l[3], &br);
	uint64_t mask = 0 - br; /* add r back when we borrowed */
	out->l[0] = fr_adc(t0, FR_Q0 & mask, &c);
	out->l[1] = fr_adc(t1, FR_Q1 & mask, &c);
	out->l[2] = fr_adc(t2, FR_Q2 & mask, &c);
	out->l[3] = fr_adc(t3, FR_Q3 & mask, &c);
}

static inline bool fr_is_zero(const fr *a)
{
	return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}

static inline void fr_neg(fr *out, const fr *a)
{
	fr_sub(out, &FR_ZERO, a);
}

static inline void fr_double(fr *out, const fr *a)
{
	fr_add(out, a, a);
}

static inline bool fr_eq(const fr *a, const fr *b)
{
	return ((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) |
		(a->l[2] ^ b->l[2]) | (a->l[3] ^ b->l[3])) == 0;
}

static inline bool fr_is_one(const fr *a)
{
	return fr_eq(a, &FR_ONE);
}

/* (acc + x*y + carry) split into low word (returned) and high word (carry). */
static inline uint64_t fr_mac(uint64_t acc, uint64_t x, uint64_t y, uint64_t *carry)
{
	fr_u128 t = (fr_u128)x * y + acc + *carry;
	*carry = (uint64_t)(t >> 64);
	return (uint64_t)t;
}

/* One CIOS step: t = (t + a*bi + m*r) / 2^64 with m chosen to clear the low
 * word. No fifth limb is needed because the top limb of r is below
 * 2^63 - 1 (the no-carry case). Each
 * step is written as word-sized multiply-accumulates: gcc turns whole
 * 128-bit accumulators into about twice as many instructions. */
static inline __attribute__((always_inline)) void fr_mul_step(uint64_t t[4], const fr *a, uint64_t bi)
{
	uint64_t c = 0;
	uint64_t t0 = fr_mac(t[0], a->l[0], bi, &c);
	uint64_t t1 = fr_mac(t[1], a->l[1], bi, &c);
	uint64_t t2 = fr_mac(t[2], a->l[2], bi, &c);
	uint64_t t3 = fr_mac(t[3], a->l[3], bi, &c);
	uint64_t t4 = c;
	uint64_t m = t0 * FR_INV;
	c = 0;
	(void)fr_mac(t0, m, FR_Q0, &c);
	t[0] = fr_mac(t1, m, FR_Q1, &c);
	t[1] = fr_mac(t2, m, FR_Q2, &c);
	t[2] = fr_mac(t3, m, FR_Q3, &c);
	t[3] = t4 + c;
}

/* Montgomery product: out = a * b * R^-1 mod r. out may alias a or b. */
static inline __attribute__((always_inline)) void fr_mul(fr *out, const fr *a, const fr *b)
{
	uint64_t t[4] = { 0, 0, 0, 0 };
	fr_mul_step(t, a, b->l[0]);
	fr_mul_step(t, a, b->l[1]);
	fr_mul_step(t, a, b->l[2]);
	fr_mul_step(t, a, b->l[3]);
	fr_reduce_once(out, t[0], t[1], t[2], t[3]);
}

static inline void fr_square(fr *out, const fr *a)
{
	fr_mul(out, a, a);
}

/* Conversions between canonical integers (< r) and Montgomery form. */
void fr_from_u64(fr *out, uint64_t v);
void fr_from_canonical(fr *out, const uint64_t limbs[4]);
void fr_to_canonical(uint64_t limbs[4], const fr *a);
/* 32 little-endian bytes of the canonical value (the encoding Filecoin hashes). */
void fr_to_bytes_le(uint8_t out[32], const fr *a);
/* a^e for a little-endian 256-bit exponent. */
void fr_pow(fr *out, const fr *a, const uint64_t e[4]);
/* a^-1 by Fermat (a^(r-2)); returns -1 for a == 0. */
int fr_inv(fr *out, const fr *a);
/* A uniformly-ish random element from 256 random bits (top bit dropped). */
void fr_from_random(fr *out, const uint64_t w[4]);

#endif
