/*
 * AllocatedBit and Boolean gadgets (bellman/bellpepper semantics): alloc
 * with its booleanity row, xor, and, and_not, nor, and SHA-256's ch and maj
 * with the same constant folding, so that one constant-IV compression comes
 * to exactly 25,840 rows. The match order of the folding cases matters for
 * that count and follows upstream.
 */

static struct abit abit_alloc(struct cs *cs, bool value)
{
	var_t v = cs_alloc_bit(cs, value);
	if (cs->emit) {
		/* (1 - v) * v = 0 */
		lc_t a = cs_lc(cs), b = cs_lc(cs), c = cs_lc(cs);
		a = lc_add(a, &FR_ONE, VAR_ONE);
		a = lc_sub(a, &FR_ONE, v);
		b = lc_add(b, &FR_ONE, v);
		cs_enforce(cs, a, b, c);
	}
	return (struct abit){ v, value };
}

static struct abit abit_xor(struct cs *cs, struct abit x, struct abit y)
{
	bool value = x.value ^ y.value;
	var_t r = cs_alloc_bit(cs, value);
	if (cs->emit) {
		/* (x + x) * y = x + y - r */
		lc_t a = cs_lc(cs), b = cs_lc(cs), c = cs_lc(cs);
		a = lc_add(a, &FR_ONE, x.var);
		a = lc_add(a, &FR_ONE, x.var);
		b = lc_add(b, &FR_ONE, y.var);
		c = lc_add(c, &FR_ONE, x.var);
		c = lc_add(c, &FR_ONE, y.var);
		c = lc_sub(c, &FR_ONE, r);
		cs_enforce(cs, a, b, c);
	}
	return (struct abit){ r, value };
}

/* r = (x or 1-x) * (y or 1-y), the four-way family of and/and_not/nor. */
static struct abit abit_and_family(struct cs *cs, struct abit x, bool neg_x,
				   struct abit y, bool neg_y)
{
	bool value = (x.value ^ neg_x) & (y.value ^ neg_y);
	var_t r = cs_alloc_bit(cs, value);
	if (cs->emit) {
		lc_t a = cs_lc(cs), b = cs_lc(cs), c = cs_lc(cs);
		if (neg_x) {
			a = lc_add(a, &FR_ONE, VAR_ONE);
			a = lc_sub(a, &FR_ONE, x.var);
		} else {
			a = lc_add(a, &FR_ONE, x.var);
		}
		if (neg_y) {
			b = lc_add(b, &FR_ONE, VAR_ONE);
			b = lc_sub(b, &FR_ONE, y.var);
		} else {
			b = lc_add(b, &FR_ONE, y.var);
		}
		c = lc_add(c, &FR_ONE, r);
		cs_enforce(cs, a, b, c);
	}
	return (struct abit){ r, value };
}

static struct boolean bool_xor(struct cs *cs, struct boolean x, struct boolean y)
{
	if (x.kind == BOOL_CONST && !x.value)
		return y;
	if (y.kind == BOOL_CONST && !y.value)
		return x;
	if (x.kind == BOOL_CONST)
		return bool_not(y);
	if (y.kind == BOOL_CONST)
		return bool_not(x);
	/* x xor not y = not (x xor y) */
	if (x.kind == BOOL_IS && y.kind == BOOL_NOT)
		return bool_not(bool_is(abit_xor(cs, bool_bit(x), bool_bit(y))));
	if (x.kind == BOOL_NOT && y.kind == BOOL_IS)
		return bool_not(bool_is(abit_xor(cs, bool_bit(y), bool_bit(x))));
	/* not x xor not y = x xor y */
	return bool_is(abit_xor(cs, bool_bit(x), bool_bit(y)));
}

static struct boolean bool_and(struct cs *cs, struct boolean x, struct boolean y)
{
	if ((x.kind == BOOL_CONST && !x.value) || (y.kind == BOOL_CONST && !y.value))
		return bool_const(false);
	if (x.kind == BOOL_CONST)
		return y;
	if (y.kind == BOOL_CONST)
		return x;
	if (x.kind == BOOL_IS && y.kind == BOOL_NOT)
		return bool_is(abit_and_family(cs, bool_bit(x), false, bool_bit(y), true));
	if (x.kind == BOOL_NOT && y.kind == BOOL_IS)
		return bool_is(abit_and_family(cs, bool_bit(y), false, bool_bit(x), true));
	if (x.kind == BOOL_NOT)
		return bool_is(abit_and_family(cs, bool_bit(x), true, bool_bit(y), true));
	return bool_is(abit_and_family(cs, bool_bit(x), false, bool_bit(y), false));
}

static inline bool is_const(struct boolean b, bool v)
{
	return b.kind == BOOL_CONST && b.value == v;
}

/* What a closure that starts from coeff*b returns: upstream writes
 * `|_| b.lc(one, 1)` (drops its argument, builds a fresh LC), in-place
 * `|lc| b.add_to_lc(one, 1, lc)`. */
static inline lc_t cs_lc_from_bool(struct cs *cs, const struct boolean *b)
{
	if (cs->style == STYLE_INPLACE) {
		lc_t lc = cs_lc(cs);
		bool_add_to_lc(b, &FR_ONE, &lc, false);
		return lc;
	}
	cs_lc_dropped(cs);
	return bool_lc(b, &FR_ONE);
}

/* (x and y) xor ((not x) and z) */
static struct boolean bool_ch(struct cs *cs, struct boolean x, struct boolean y,
			      struct boolean z)
{
	bool value = (x.value & y.value) ^ (!x.value & z.value);

	if (x.kind == BOOL_CONST && y.kind == BOOL_CONST && z.kind == BOOL_CONST)
		return bool_const(value);
	if (is_const(x, false))
		return z;
	if (is_const(y, false))
		return bool_and(cs, bool_not(x), z);
	if (is_const(z, false))
		return bool_and(cs, x, y);
	if (is_const(z, true))
		return bool_not(bool_and(cs, x, bool_not(y)));
	if (is_const(y, true))
		return bool_not(bool_and(cs, bool_not(x), bool_not(z)));
	/* x constant true, or nothing constant: the general row */
	var_t ch = cs_alloc_bit(cs, value);
	if (cs->emit) {
		/* x * (y - z) = ch - z */
		lc_t a = cs_lc_from_bool(cs, &y);
		a = cs_sub_bool(cs, a, &z, &FR_ONE);
		lc_t b = cs_lc_from_bool(cs, &x);
		lc_t c = cs_lc(cs);
		c = lc_add(c, &FR_ONE, ch);
		c = cs_sub_bool(cs, c, &z, &FR_ONE);
		cs_enforce(cs, a, b, c);
	}
	return bool_is((struct abit){ ch, value });
}

/* (x and y) xor (x and z) xor (y and z) */
static struct boolean bool_maj(struct cs *cs, struct boolean x, struct boolean y,
			       struct boolean z)
{
	bool value = (x.value & y.value) ^ (x.value & z.value) ^ (y.value & z.value);

	if (x.kind == BOOL_CONST && y.kind == BOOL_CONST && z.kind == BOOL_CONST)
		return bool_const(value);
	if (is_const(x, false))
		return bool_and(cs, y, z);
	if (is_const(y, false))
		return bool_and(cs, x, z);
	if (is_const(z, false))
		return bool_and(cs, x, y);
	if (is_const(z, true))
		return bool_not(bool_and(cs, bool_not(x), bool_not(y)));
	if (is_const(y, true))
		return bool_not(bool_and(cs, bool_not(x), bool_not(z)));
	if (is_const(x, true))
		return bool_not(bool_and(cs, bool_not(y), bool_not(z)));

	var_t maj = cs_alloc_bit(cs, value);
	struct boolean yz = bool_and(cs, y, z);
	if (cs->emit) {
		/* (2yz - y - z) * x = yz - maj */
		lc_t a = cs_lc_from_bool(cs, &yz);
		a = cs_add_bool(cs, a, &yz, &FR_ONE);
		a = cs_sub_bool(cs, a, &y, &FR_ONE);
		a = cs_sub_bool(cs, a, &z, &FR_ONE);
		lc_t b = cs_lc_from_bool(cs, &x);
		lc_t c = cs_lc_from_bool(cs, &yz);
		c = lc_sub(c, &FR_ONE, maj);
		cs_enforce(cs, a, b, c);
	}
	return bool_is((struct abit){ maj, value });
}
