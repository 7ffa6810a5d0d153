/*
 * The circuits and the entry point of one storage instantiation.
 *
 * The partition is a miniature PoRep: each label allocates 2B-1 "parent"
 * field elements (witness from a seeded PRNG), decomposes each into 255
 * bits, hashes their 32-byte little-endian encodings with SHA-256 (B
 * compressions once padded: 1248 bytes for B = 20, as a real label hashes
 * 39 parents' worth), packs the digest into a field element, runs one
 * Poseidon hash of (label, first parent) and makes the result public.
 * About 98% of its rows are SHA-256, close to PoRep's 97%.
 */

enum { PARTITION_SEED = 0x5a17a5eed0000001ULL, POSEIDON_SEED = 0x706f736569646f6eULL };

static void record_digest(uint8_t out[32], const struct boolean digest[256])
{
	memset(out, 0, 32);
	for (int i = 0; i < 256; i++)
		out[i / 8] |= (uint8_t)(digest[i].value << (7 - i % 8));
}

/* The message bits of one parent: its 32 little-endian bytes, each byte
 * most significant bit first (SHA-256 order); bit 255 is a constant 0. */
static void parent_message_bits(struct boolean *msg, const struct boolean bits[255])
{
	for (int byte = 0; byte < 32; byte++)
		for (int j = 0; j < 8; j++) {
			int idx = 8 * byte + 7 - j;
			msg[8 * byte + j] = idx < 255 ? bits[idx] : bool_const(false);
		}
}

static void synth_label(struct cs *cs, unsigned label, unsigned blocks,
			struct synth_result *r)
{
	unsigned nparents = 2 * blocks - 1;
	uint64_t rng = PARTITION_SEED ^ ((uint64_t)label * 0x9e3779b97f4a7c15ULL);
	struct boolean *msg = heap_alloc((size_t)nparents * 256 * sizeof(*msg));
	struct boolean bits[255], digest[256];
	struct num first = { 0, FR_ZERO };

	for (unsigned p = 0; p < nparents; p++) {
		uint64_t w[4];
		fr value;
		for (int i = 0; i < 4; i++)
			w[i] = rng_next(&rng);
		fr_from_random(&value, w);
		struct num x = num_alloc(cs, &value);
		if (p == 0)
			first = x;
		num_to_bits_le(cs, &x, bits);
		parent_message_bits(msg + 256 * p, bits);
		fr_to_bytes_le(r->message + label * r->message_len + 32 * p, &value);
	}
	sha256_gadget(cs, msg, (size_t)nparents * 256, digest);
	record_digest(r->digest[label], digest);
	heap_free(msg);

	struct num packed = num_pack_bits(cs, digest, 256);
	struct num out = poseidon2(cs, &packed, &first);
	num_inputize(cs, &out);
}

/* bellperson's test_full_block: 512 allocated bits, one compression from
 * the constant IV, no padding. */
static void synth_sha256_block(struct cs *cs, struct synth_result *r)
{
	uint64_t rng = PARTITION_SEED;
	struct boolean in[512], digest[256];
	struct u32 iv[8], out[8];

	memset(r->message, 0, 64);
	for (int i = 0; i < 512; i++) {
		bool bit = rng_next(&rng) & 1;
		in[i] = bool_is(abit_alloc(cs, bit));
		r->message[i / 8] |= (uint8_t)(bit << (7 - i % 8));
	}
	size_t before = cs_rows(cs);
	sha256_iv(iv);
	sha256_compression(cs, in, iv, out);
	r->compression_rows = cs_rows(cs) - before;
	sha256_digest_bits(digest, out);
	record_digest(r->digest[0], digest);
}

/* SHA-256 of given bytes, every message bit an allocated bit. */
static void synth_sha256_msg(struct cs *cs, const struct synth_opts *o,
			     struct synth_result *r)
{
	size_t nbits = o->msg_len * 8;
	struct boolean *bits = heap_alloc((nbits ? nbits : 1) * sizeof(*bits));
	struct boolean digest[256];

	for (size_t i = 0; i < nbits; i++)
		bits[i] = bool_is(abit_alloc(cs, (o->msg[i / 8] >> (7 - i % 8)) & 1));
	memcpy(r->message, o->msg, o->msg_len);
	sha256_gadget(cs, bits, nbits, digest);
	record_digest(r->digest[0], digest);
	heap_free(bits);
}

/* The prover's x * 0 = 0 row for every input, appended after synthesis. */
static void synth_input_rows(struct cs *cs)
{
	if (!cs->emit)
		return;
	for (size_t i = 0; i < cs->as.input.len; i++) {
		lc_t a = cs_lc(cs), b = cs_lc(cs), c = cs_lc(cs);
		a = lc_add(a, &FR_ONE, VAR_INPUT | i);
		cs_enforce(cs, a, b, c);
	}
}

static int synth_prepare(const struct synth_opts *o, struct synth_result *r)
{
	switch (o->circuit) {
	case CIRCUIT_PARTITION:
		if (o->labels < 1 || o->blocks < 1)
			return -1;
		r->ndigests = o->labels;
		r->message_len = (size_t)(2 * o->blocks - 1) * 32;
		break;
	case CIRCUIT_SHA256_BLOCK:
		r->ndigests = 1;
		r->message_len = 64;
		break;
	case CIRCUIT_SHA256_MSG:
		r->ndigests = 1;
		r->message_len = o->msg_len;
		break;
	}
	r->digest = calloc(r->ndigests, 32);
	r->message = calloc(r->ndigests, r->message_len ? r->message_len : 1);
	return r->digest && r->message ? 0 : -1;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int SYNTH_ENTRY(const struct synth_opts *o, struct synth_result *r)
{
	struct poseidon_params params;
	struct cs *cs;

	memset(r, 0, sizeof(*r));
	if (synth_prepare(o, r) < 0 || !(cs = calloc(1, sizeof(*cs)))) {
		synth_result_release(r);
		return -1;
	}
	poseidon_params_init(&params, POSEIDON_SEED);
	storage_init();
	cs_init(cs, o, &params);

	memset(&heap_counter, 0, sizeof(heap_counter));
	uint64_t t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	/* The region pmustat reports as synth:* (libpmustat, include/pmustat.h):
	 * the synthesis phase alone, without start-up and the checks. */
	pmustat_region_begin("synth");
	switch (o->circuit) {
	case CIRCUIT_PARTITION:
		for (unsigned l = 0; l < o->labels; l++)
			synth_label(cs, l, o->blocks, r);
		break;
	case CIRCUIT_SHA256_BLOCK:
		synth_sha256_block(cs, r);
		break;
	case CIRCUIT_SHA256_MSG:
		synth_sha256_msg(cs, o, r);
		break;
	}
	synth_input_rows(cs);
	pmustat_region_end("synth");
	r->cpu_ns = now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	r->ns = now_ns(CLOCK_MONOTONIC) - t0;
	r->heap = heap_counter;

	r->as = cs->as;
	r->lc_bytes = sizeof(lc_t);
	lc_pool_release(&cs->pool);
	storage_fini();
	free(cs);
	return 0;
}
