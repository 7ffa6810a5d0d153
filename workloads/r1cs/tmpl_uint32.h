/*
 * UInt32 gadgets over Booleans, and MultiEq, which packs the equality
 * checks of many UInt32 additions into single rows: each addition's
 * "sum of operand bits = sum of result bits" is shifted by the bits already
 * used and added to one accumulated lhs/rhs pair until the field's capacity
 * (254 bits) would overflow. Those packed rows are the ~0.1% of rows with
 * 65+ terms. Upstream rebuilds the accumulator from a clone on every
 * addition (`self.lhs = self.lhs.clone() + (coeff, lhs)`); the in-place
 * style adds into it and hands it to enforce without a clone.
 */

enum { FR_CAPACITY = 254 };

struct multieq {
	struct cs *cs;
	size_t ops;
	size_t bits_used;
	lc_t lhs, rhs;
};

static void multieq_init(struct multieq *me, struct cs *cs)
{
	me->cs = cs;
	me->ops = 0;
	me->bits_used = 0;
	me->lhs = lc_new();
	me->rhs = lc_new();
}

static void multieq_accumulate(struct multieq *me)
{
	struct cs *cs = me->cs;
	lc_t lhs, rhs;

	if (cs->style == STYLE_INPLACE) {
		/* hand the accumulated LCs over instead of cloning them */
		lhs = me->lhs;
		rhs = me->rhs;
	} else {
		lhs = lc_clone(&me->lhs);
		rhs = lc_clone(&me->rhs);
		lc_release(&me->lhs);
		lc_release(&me->rhs);
	}
	me->lhs = lc_new();
	me->rhs = lc_new();
	if (cs->emit) {
		/* enforce(|_| lhs, |lc| lc + one, |_| rhs) */
		cs_lc_dropped(cs);
		lc_t b = cs_lc(cs);
		b = lc_add(b, &FR_ONE, VAR_ONE);
		cs_lc_dropped(cs);
		cs_enforce(cs, lhs, b, rhs);
	} else {
		lc_release(&lhs);
		lc_release(&rhs);
	}
	me->bits_used = 0;
	me->ops++;
}

static void multieq_enforce_equal(struct multieq *me, size_t num_bits,
				  const lc_t *lhs, const lc_t *rhs)
{
	if (FR_CAPACITY <= me->bits_used + num_bits)
		multieq_accumulate(me);

	const fr *k = &me->cs->pow2[me->bits_used];
	if (me->cs->style == STYLE_INPLACE) {
		lc_add_scaled_to(&me->lhs, k, lhs);
		lc_add_scaled_to(&me->rhs, k, rhs);
	} else {
		/* self.lhs = self.lhs.clone() + (coeff, lhs) */
		lc_t t = lc_clone(&me->lhs);
		t = lc_add_scaled(t, k, lhs);
		lc_release(&me->lhs);
		me->lhs = t;
		t = lc_clone(&me->rhs);
		t = lc_add_scaled(t, k, rhs);
		lc_release(&me->rhs);
		me->rhs = t;
	}
	me->bits_used += num_bits;
}

/* Drop: flush what is pending. */
static void multieq_finish(struct multieq *me)
{
	if (me->bits_used > 0)
		multieq_accumulate(me);
	lc_release(&me->lhs);
	lc_release(&me->rhs);
}

static struct u32 u32_xor(struct cs *cs, const struct u32 *x, const struct u32 *y)
{
	struct u32 r;
	for (int i = 0; i < 32; i++)
		r.bits[i] = bool_xor(cs, x->bits[i], y->bits[i]);
	r.value = x->value ^ y->value;
	return r;
}

static struct u32 u32_ch(struct cs *cs, const struct u32 *x, const struct u32 *y,
			 const struct u32 *z)
{
	struct u32 r;
	for (int i = 0; i < 32; i++)
		r.bits[i] = bool_ch(cs, x->bits[i], y->bits[i], z->bits[i]);
	r.value = (x->value & y->value) ^ (~x->value & z->value);
	return r;
}

static struct u32 u32_maj(struct cs *cs, const struct u32 *x, const struct u32 *y,
			  const struct u32 *z)
{
	struct u32 r;
	for (int i = 0; i < 32; i++)
		r.bits[i] = bool_maj(cs, x->bits[i], y->bits[i], z->bits[i]);
	r.value = (x->value & y->value) ^ (x->value & z->value) ^ (y->value & z->value);
	return r;
}

/* Sum of 2..10 operands mod 2^32: allocate the full-width result bits and
 * hand "operand bits = result bits" to MultiEq. */
static struct u32 u32_addmany(struct multieq *me, const struct u32 *ops, size_t n)
{
	struct cs *cs = me->cs;
	uint64_t max_value = (uint64_t)n * 0xffffffffULL;
	uint64_t sum = 0;
	bool all_const = true;
	lc_t lc = lc_new();

	for (size_t k = 0; k < n; k++) {
		sum += ops[k].value;
		for (int i = 0; i < 32; i++) {
			lc = cs_add_bool(cs, lc, &ops[k].bits[i], &cs->pow2[i]);
			all_const &= ops[k].bits[i].kind == BOOL_CONST;
		}
	}
	if (all_const) {
		lc_release(&lc);
		return u32_const((uint32_t)sum);
	}

	struct u32 r;
	lc_t result_lc = lc_new();
	size_t nbits = 0;
	for (; max_value != 0; max_value >>= 1, nbits++) {
		struct abit b = abit_alloc(cs, (sum >> nbits) & 1);
		result_lc = lc_add(result_lc, &cs->pow2[nbits], b.var);
		if (nbits < 32)
			r.bits[nbits] = bool_is(b);
	}
	multieq_enforce_equal(me, nbits, &lc, &result_lc);
	lc_release(&lc);
	lc_release(&result_lc);
	r.value = (uint32_t)sum;
	return r;
}
