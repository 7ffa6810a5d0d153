/*
 * A Poseidon-shaped hash of two field elements: width-3 state kept as LCs,
 * x^5 S-boxes as three multiplication rows (x2 = x*x, x4 = x2*x2,
 * x5 = x4*x), full rounds S-box every element, partial rounds only the
 * first, and an MDS mix with general Fr coefficients after each round (so
 * evaluation pays real multiplies). Partial rounds materialize the other
 * two elements into variables to keep the LCs bounded, one linear row each.
 */

struct elt {
	lc_t lc;
	fr value;
};

static lc_t lc_of_var(var_t v)
{
	return lc_add(lc_new(), &FR_ONE, v);
}

/* Replace e's LC by a fresh variable equal to it: lc * 1 = v. */
static var_t elt_materialize(struct cs *cs, struct elt *e)
{
	var_t v = cs_alloc(cs, &e->value);
	if (cs->emit) {
		cs_lc_dropped(cs);
		lc_t b = cs_lc(cs);
		b = lc_add(b, &FR_ONE, VAR_ONE);
		lc_t c = cs_lc(cs);
		c = lc_add(c, &FR_ONE, v);
		cs_enforce(cs, e->lc, b, c);
	} else {
		lc_release(&e->lc);
	}
	e->lc = lc_of_var(v);
	return v;
}

static void elt_sbox(struct cs *cs, struct elt *e)
{
	fr x2, x4, x5;
	fr_square(&x2, &e->value);
	fr_square(&x4, &x2);
	fr_mul(&x5, &x4, &e->value);
	var_t v2 = cs_alloc(cs, &x2), v4 = cs_alloc(cs, &x4), v5 = cs_alloc(cs, &x5);

	if (cs->emit) {
		cs_lc_dropped(cs);
		lc_t a = lc_clone(&e->lc);
		cs_lc_dropped(cs);
		lc_t b = lc_clone(&e->lc);
		lc_t c = lc_add(cs_lc(cs), &FR_ONE, v2);
		cs_enforce(cs, a, b, c);

		a = lc_add(cs_lc(cs), &FR_ONE, v2);
		b = lc_add(cs_lc(cs), &FR_ONE, v2);
		c = lc_add(cs_lc(cs), &FR_ONE, v4);
		cs_enforce(cs, a, b, c);

		a = lc_add(cs_lc(cs), &FR_ONE, v4);
		cs_lc_dropped(cs);
		b = lc_clone(&e->lc);
		c = lc_add(cs_lc(cs), &FR_ONE, v5);
		cs_enforce(cs, a, b, c);
	}
	lc_release(&e->lc);
	e->lc = lc_of_var(v5);
	e->value = x5;
}

static void poseidon_mix(struct elt s[POSEIDON_T], const struct poseidon_params *p,
			 const fr rc[POSEIDON_T])
{
	struct elt next[POSEIDON_T];
	for (int j = 0; j < POSEIDON_T; j++) {
		next[j].lc = lc_new();
		next[j].value = rc[j];
		for (int i = 0; i < POSEIDON_T; i++) {
			fr t;
			next[j].lc = lc_add_scaled(next[j].lc, &p->mds[j][i], &s[i].lc);
			fr_mul(&t, &p->mds[j][i], &s[i].value);
			fr_add(&next[j].value, &next[j].value, &t);
		}
		next[j].lc = lc_add(next[j].lc, &rc[j], VAR_ONE);
	}
	for (int i = 0; i < POSEIDON_T; i++) {
		lc_release(&s[i].lc);
		s[i] = next[i];
	}
}

static struct num poseidon2(struct cs *cs, const struct num *x, const struct num *y)
{
	const struct poseidon_params *p = cs->poseidon;
	struct elt s[POSEIDON_T];
	fr tag;

	fr_from_u64(&tag, 3); /* domain tag in the capacity element */
	fr_add(&s[0].value, &tag, &p->rc[0][0]);
	s[0].lc = lc_add(lc_new(), &s[0].value, VAR_ONE);
	fr_add(&s[1].value, &x->value, &p->rc[0][1]);
	s[1].lc = lc_add(lc_add(lc_new(), &FR_ONE, x->var), &p->rc[0][1], VAR_ONE);
	fr_add(&s[2].value, &y->value, &p->rc[0][2]);
	s[2].lc = lc_add(lc_add(lc_new(), &FR_ONE, y->var), &p->rc[0][2], VAR_ONE);

	for (int r = 0; r < POSEIDON_ROUNDS; r++) {
		bool full = r < POSEIDON_RF / 2 || r >= POSEIDON_RF / 2 + POSEIDON_RP;
		for (int i = 0; i < (full ? POSEIDON_T : 1); i++)
			elt_sbox(cs, &s[i]);
		poseidon_mix(s, p, p->rc[r + 1]);
		if (!full)
			for (int i = 1; i < POSEIDON_T; i++)
				elt_materialize(cs, &s[i]);
	}
	struct num out = { elt_materialize(cs, &s[1]), s[1].value };
	for (int i = 0; i < POSEIDON_T; i++)
		lc_release(&s[i].lc);
	return out;
}
