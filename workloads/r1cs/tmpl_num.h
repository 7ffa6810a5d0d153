/*
 * Field-element gadgets: AllocatedNum, its little-endian bit decomposition
 * (255 booleanity rows plus one unpacking row), packing Booleans back into
 * a field element, and inputize (making a value a public input).
 */

struct num {
	var_t var;
	fr value;
};

static struct num num_alloc(struct cs *cs, const fr *value)
{
	return (struct num){ cs_alloc(cs, value), *value };
}

/* AllocatedNum::to_bits_le: bits[0..255), least significant first. */
static void num_to_bits_le(struct cs *cs, const struct num *x, struct boolean bits[255])
{
	uint64_t limbs[4];
	fr_to_canonical(limbs, &x->value);

	lc_t lc = lc_new();
	for (int i = 0; i < 255; i++) {
		struct abit b = abit_alloc(cs, (limbs[i / 64] >> (i % 64)) & 1);
		bits[i] = bool_is(b);
		lc = lc_add(lc, &cs->pow2[i], b.var);
	}
	lc = lc_sub(lc, &FR_ONE, x->var);
	if (cs->emit) {
		/* enforce(|lc| lc, |lc| lc, |_| lc): 0 * 0 = sum 2^i b_i - x */
		lc_t a = cs_lc(cs), b = cs_lc(cs);
		cs_lc_dropped(cs);
		cs_enforce(cs, a, b, lc);
	} else {
		lc_release(&lc);
	}
}

/* multipack-style pack_bits: the first FR_CAPACITY bits as one number. */
static struct num num_pack_bits(struct cs *cs, const struct boolean *bits, size_t n)
{
	lc_t lc = lc_new();
	fr value = FR_ZERO;
	if (n > FR_CAPACITY)
		n = FR_CAPACITY;
	for (size_t i = 0; i < n; i++) {
		lc = cs_add_bool(cs, lc, &bits[i], &cs->pow2[i]);
		if (bits[i].value)
			fr_add(&value, &value, &cs->pow2[i]);
	}
	struct num r = num_alloc(cs, &value);
	if (cs->emit) {
		/* num.lc(1) * 1 = r */
		cs_lc_dropped(cs);
		lc_t a = lc_add_scaled(lc_new(), &FR_ONE, &lc);
		lc_t b = cs_lc(cs);
		b = lc_add(b, &FR_ONE, VAR_ONE);
		lc_t c = cs_lc(cs);
		c = lc_add(c, &FR_ONE, r.var);
		cs_enforce(cs, a, b, c);
	}
	lc_release(&lc);
	return r;
}

static void num_inputize(struct cs *cs, const struct num *x)
{
	var_t in = cs_alloc_input(cs, &x->value);
	if (cs->emit) {
		lc_t a = cs_lc(cs), b = cs_lc(cs), c = cs_lc(cs);
		a = lc_add(a, &FR_ONE, in);
		b = lc_add(b, &FR_ONE, VAR_ONE);
		c = lc_add(c, &FR_ONE, x->var);
		cs_enforce(cs, a, b, c);
	}
}
