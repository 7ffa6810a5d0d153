/*
 * SHA-256 as bellman's gadget builds it: message schedule with UInt32 xors
 * and 4-operand additions, 64 rounds where the additions that produce the
 * next a and e are deferred and merged into one addmany each, all additions
 * sharing one MultiEq. The compression function and the padded hash.
 */

struct maybe_u32 {
	bool deferred;
	size_t n;
	struct u32 v[8]; /* concrete: v[0]; deferred: the operands to add */
};

static struct u32 maybe_compute(struct multieq *me, struct maybe_u32 *m,
				const struct u32 *extra)
{
	if (!m->deferred)
		return m->v[0];
	if (extra)
		m->v[m->n++] = *extra;
	return u32_addmany(me, m->v, m->n);
}

static struct u32 sigma_xor3(struct cs *cs, const struct u32 *x, unsigned r1,
			     unsigned r2, unsigned r3, bool third_is_shift)
{
	struct u32 s = u32_rotr(x, r1);
	struct u32 t = u32_rotr(x, r2);
	s = u32_xor(cs, &s, &t);
	t = third_is_shift ? u32_shr(x, r3) : u32_rotr(x, r3);
	return u32_xor(cs, &s, &t);
}

/* One compression of a 512-bit block (big-endian bit order) into cur. */
static void sha256_compression(struct cs *cs, const struct boolean *in,
			       const struct u32 cur[8], struct u32 out[8])
{
	struct u32 w[64];
	struct multieq me;
	multieq_init(&me, cs);

	for (int i = 0; i < 16; i++)
		w[i] = u32_from_bits_be(in + 32 * i);
	for (int i = 16; i < 64; i++) {
		struct u32 ops[4];
		ops[0] = w[i - 16];
		ops[1] = sigma_xor3(cs, &w[i - 15], 7, 18, 3, true);
		ops[2] = w[i - 7];
		ops[3] = sigma_xor3(cs, &w[i - 2], 17, 19, 10, true);
		w[i] = u32_addmany(&me, ops, 4);
	}

	struct maybe_u32 a = { .deferred = false, .n = 1 };
	struct maybe_u32 e = { .deferred = false, .n = 1 };
	a.v[0] = cur[0];
	e.v[0] = cur[4];
	struct u32 b = cur[1], c = cur[2], d = cur[3];
	struct u32 f = cur[5], g = cur[6], h = cur[7];

	for (int i = 0; i < 64; i++) {
		struct u32 new_e = maybe_compute(&me, &e, NULL);
		struct u32 s1 = sigma_xor3(cs, &new_e, 6, 11, 25, false);
		struct u32 ch = u32_ch(cs, &new_e, &f, &g);
		struct u32 new_a = maybe_compute(&me, &a, NULL);
		struct u32 s0 = sigma_xor3(cs, &new_a, 2, 13, 22, false);
		struct u32 maj = u32_maj(cs, &new_a, &b, &c);

		/* temp1 = h + S1 + ch + k[i] + w[i]; e = d + temp1;
		 * a = temp1 + S0 + maj; both additions deferred. */
		struct u32 temp1[5] = { h, s1, ch, u32_const(SHA256_K[i]), w[i] };
		h = g;
		g = f;
		f = new_e;
		e.deferred = true;
		e.n = 6;
		memcpy(e.v, temp1, sizeof(temp1));
		e.v[5] = d;
		d = c;
		c = b;
		b = new_a;
		a.deferred = true;
		a.n = 7;
		memcpy(a.v, temp1, sizeof(temp1));
		a.v[5] = s0;
		a.v[6] = maj;
	}

	out[0] = maybe_compute(&me, &a, &cur[0]);
	struct u32 pair[2];
	const struct u32 *mid[3] = { &b, &c, &d };
	for (int i = 1; i <= 3; i++) {
		pair[0] = cur[i];
		pair[1] = *mid[i - 1];
		out[i] = u32_addmany(&me, pair, 2);
	}
	out[4] = maybe_compute(&me, &e, &cur[4]);
	const struct u32 *tail[3] = { &f, &g, &h };
	for (int i = 5; i <= 7; i++) {
		pair[0] = cur[i];
		pair[1] = *tail[i - 5];
		out[i] = u32_addmany(&me, pair, 2);
	}
	multieq_finish(&me);
}

static void sha256_iv(struct u32 iv[8])
{
	for (int i = 0; i < 8; i++)
		iv[i] = u32_const(SHA256_IV[i]);
}

static void sha256_digest_bits(struct boolean digest[256], const struct u32 st[8])
{
	for (int i = 0; i < 8; i++)
		u32_to_bits_be(digest + 32 * i, &st[i]);
}

/* SHA-256 of nbits message bits (a multiple of 8), padding with constants. */
static void sha256_gadget(struct cs *cs, const struct boolean *msg, size_t nbits,
			  struct boolean digest[256])
{
	size_t total = (nbits + 1 + 64 + 511) / 512 * 512;
	struct boolean *p = heap_alloc(total * sizeof(*p));
	struct u32 cur[8], next[8];

	memcpy(p, msg, nbits * sizeof(*p));
	p[nbits] = bool_const(true);
	for (size_t i = nbits + 1; i < total - 64; i++)
		p[i] = bool_const(false);
	for (int i = 0; i < 64; i++)
		p[total - 64 + i] = bool_const(((uint64_t)nbits >> (63 - i)) & 1);

	sha256_iv(cur);
	for (size_t blk = 0; blk < total / 512; blk++) {
		sha256_compression(cs, p + 512 * blk, cur, next);
		memcpy(cur, next, sizeof(cur));
	}
	sha256_digest_bits(digest, cur);
	heap_free(p);
}
