/*
 * The self-test behind `r1cs-synth --self-test`. Each check states what it
 * compares; failures are reported one line each in the tool's error grammar.
 */
#include "selftest.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "fr.h"
#include "gadget.h"
#include "sha256.h"
#include "synth.h"

struct tally {
	FILE *err;
	int checks, failures;
};

static void expect(struct tally *t, int ok, const char *name)
{
	t->checks++;
	if (!ok) {
		t->failures++;
		fprintf(t->err, "error: self-test '%s' failed\n", name);
	}
}

static void random_canonical(uint64_t out[4], uint64_t *rng)
{
	uint64_t w[4];
	fr x;
	for (int i = 0; i < 4; i++)
		w[i] = rng_next(rng);
	fr_from_random(&x, w);
	fr_to_canonical(out, &x);
}

/* x * y mod r by double-and-add on canonical values: shares nothing with
 * the Montgomery code except the modular add. */
static void slow_mulmod(uint64_t out[4], const uint64_t x[4], const uint64_t y[4])
{
	fr acc = FR_ZERO, xx;
	memcpy(xx.l, x, sizeof(xx.l));
	for (int i = 255; i >= 0; i--) {
		fr_add(&acc, &acc, &acc);
		if ((y[i / 64] >> (i % 64)) & 1)
			fr_add(&acc, &acc, &xx);
	}
	memcpy(out, acc.l, sizeof(acc.l));
}

static void test_fr(struct tally *t)
{
	uint64_t rng = 0xf00dULL;
	fr one, a, b, c, x, y;
	uint64_t lim[4];

	fr_from_u64(&one, 1);
	expect(t, fr_eq(&one, &FR_ONE), "fr: 1 * R^2 * R^-1 = R (constants agree)");
	fr_from_u64(&a, 123456789);
	fr_to_canonical(lim, &a);
	expect(t, lim[0] == 123456789 && !lim[1] && !lim[2] && !lim[3], "fr: small round trip");

	const uint64_t rm1[4] = { FR_Q0 - 1, FR_Q1, FR_Q2, FR_Q3 };
	fr_from_canonical(&a, rm1);
	fr_square(&b, &a);
	expect(t, fr_eq(&b, &FR_ONE), "fr: (r-1)^2 = 1");
	fr_add(&b, &a, &FR_ONE);
	expect(t, fr_is_zero(&b), "fr: (r-1) + 1 = 0");

	for (int i = 0; i < 64; i++) {
		uint64_t xc[4], yc[4], want[4], got[4], back[4];
		random_canonical(xc, &rng);
		random_canonical(yc, &rng);
		fr_from_canonical(&x, xc);
		fr_from_canonical(&y, yc);
		fr_to_canonical(back, &x);
		expect(t, !memcmp(back, xc, sizeof(back)), "fr: Montgomery round trip");
		fr_mul(&a, &x, &y);
		fr_to_canonical(got, &a);
		slow_mulmod(want, xc, yc);
		expect(t, !memcmp(got, want, sizeof(got)), "fr: mul = double-and-add reference");
		if (fr_inv(&b, &x) == 0) {
			fr_mul(&c, &x, &b);
			expect(t, fr_eq(&c, &FR_ONE), "fr: a * a^-1 = 1");
		}
		fr_add(&a, &x, &y);
		fr_sub(&a, &a, &y);
		expect(t, fr_eq(&a, &x), "fr: (a + b) - b = a");
		fr_neg(&a, &x);
		fr_add(&a, &a, &x);
		expect(t, fr_is_zero(&a), "fr: a + (-a) = 0");
		fr_double(&a, &x);
		fr_add(&b, &x, &x);
		expect(t, fr_eq(&a, &b), "fr: double(a) = a + a");
	}
	expect(t, fr_inv(&a, &FR_ZERO) < 0, "fr: 0 has no inverse");
}

static int hex_eq(const uint8_t d[32], const char *hex)
{
	char buf[65];
	for (int i = 0; i < 32; i++)
		snprintf(buf + 2 * i, 3, "%02x", d[i]);
	return strcmp(buf, hex) == 0;
}

/* FIPS 180-2 appendix B vectors, plus the empty message. */
static const struct {
	const char *msg;
	const char *digest;
} sha_vectors[] = {
	{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
};

static void test_sha256(struct tally *t)
{
	uint8_t d[32];
	for (size_t i = 0; i < sizeof(sha_vectors) / sizeof(sha_vectors[0]); i++) {
		sha256(d, (const uint8_t *)sha_vectors[i].msg, strlen(sha_vectors[i].msg));
		expect(t, hex_eq(d, sha_vectors[i].digest), "sha256: software vector");
	}
}

static void test_circuit(struct tally *t)
{
	struct synth_opts o = { .style = STYLE_UPSTREAM, .circuit = CIRCUIT_SHA256_MSG };
	struct synth_result r;

	/* "abc" in both styles, the two-block vector in one: enough to cover
	 * padding, chaining and both ways of building LCs without making the
	 * sanitizer build slow. */
	static const struct { size_t vec; enum synth_style style; } runs[] = {
		{ 1, STYLE_UPSTREAM }, { 1, STYLE_INPLACE }, { 2, STYLE_INPLACE },
	};
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		o.style = runs[i].style;
		o.msg = (const uint8_t *)sha_vectors[runs[i].vec].msg;
		o.msg_len = strlen(sha_vectors[runs[i].vec].msg);
		if (synth_run_vec(&o, &r) < 0) {
			expect(t, 0, "circuit: synthesis runs");
			continue;
		}
		expect(t, hex_eq(r.digest[0], sha_vectors[runs[i].vec].digest),
		       "circuit: SHA-256 gadget digest = test vector");
		expect(t, assign_first_unsatisfied(&r.as) == SIZE_MAX,
		       "circuit: every row satisfies a*b = c");
		synth_result_release(&r);
	}

	o.circuit = CIRCUIT_SHA256_BLOCK;
	o.style = STYLE_UPSTREAM;
	if (synth_run_vec(&o, &r) < 0) {
		expect(t, 0, "circuit: synthesis runs");
		return;
	}
	uint32_t st[8];
	uint8_t want[32];
	memcpy(st, SHA256_IV, sizeof(st));
	sha256_compress(st, r.message);
	for (int i = 0; i < 32; i++)
		want[i] = (uint8_t)(st[i / 4] >> (24 - 8 * (i % 4)));
	expect(t, r.compression_rows == 25840, "circuit: constant-IV compression = 25840 rows");
	expect(t, !memcmp(want, r.digest[0], 32), "circuit: compression = software compression");
	expect(t, assign_first_unsatisfied(&r.as) == SIZE_MAX, "circuit: block rows satisfied");
	synth_result_release(&r);
}

int selftest_run(FILE *err, int *nchecks)
{
	struct tally t = { err, 0, 0 };
	test_fr(&t);
	test_sha256(&t);
	test_circuit(&t);
	*nchecks = t.checks;
	return t.failures;
}

double selftest_fr_mul_ns(void)
{
	enum { N = 20000000 };
	fr a, b;
	struct timespec t0, t1;

	fr_from_u64(&a, 7);
	fr_from_u64(&b, 0x1234567);
	/* thread CPU time: on a shared VM wall time also counts stolen time */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	for (int i = 0; i < N; i++)
		fr_mul(&a, &a, &b);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	/* keep the chain observable so it is not optimized away */
	volatile uint64_t sink = a.l[0];
	(void)sink;
	return ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / N;
}
