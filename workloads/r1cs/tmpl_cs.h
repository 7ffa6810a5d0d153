/*
 * The constraint system as bellperson's ProvingAssignment: alloc pushes a
 * witness value, enforce evaluates three LCs against the assignment, feeds
 * the density trackers, pushes the values and drops the LCs.
 *
 * Rust's enforce takes three closures and calls each with an empty LC (or,
 * for the pool variant, one with recycled buffers). Here a gadget asks
 * cs_lc() for what the closure would receive, builds on it, and hands all
 * three to cs_enforce() by value. A closure written `|_| ...` drops its
 * argument: cs_lc_dropped() does that. In witness-only mode (cs->emit false)
 * gadgets skip those bodies entirely, as the closures are never called.
 */

struct cs {
	struct assign as;
	struct lc_pool pool;
	enum synth_style style;
	bool emit;
	fr pow2[256]; /* 2^i, Montgomery form: UInt32 and MultiEq coefficients */
	const struct poseidon_params *poseidon;
};

static void cs_init(struct cs *cs, const struct synth_opts *o,
		    const struct poseidon_params *p)
{
	assign_init(&cs->as);
	lc_pool_init(&cs->pool);
	cs->style = o->style;
	cs->emit = !o->witness_only;
	cs->poseidon = p;
	cs->pow2[0] = FR_ONE;
	for (int i = 1; i < 256; i++)
		fr_double(&cs->pow2[i], &cs->pow2[i - 1]);
	/* input 0 is the constant one */
	fr_vec_push(&cs->as.input, &FR_ONE);
	density_add_element(&cs->as.b_input);
}

static inline var_t cs_alloc(struct cs *cs, const fr *value)
{
	fr_vec_push(&cs->as.aux, value);
	density_add_element(&cs->as.a_aux);
	density_add_element(&cs->as.b_aux);
	return cs->as.aux.len - 1;
}

static inline var_t cs_alloc_input(struct cs *cs, const fr *value)
{
	fr_vec_push(&cs->as.input, value);
	density_add_element(&cs->as.b_input);
	return VAR_INPUT | (cs->as.input.len - 1);
}

static inline var_t cs_alloc_bit(struct cs *cs, bool value)
{
	return cs_alloc(cs, value ? &FR_ONE : &FR_ZERO);
}

static inline lc_t cs_lc(struct cs *cs)
{
	return lc_pool_take(&cs->pool);
}

static inline void cs_lc_dropped(struct cs *cs)
{
	lc_t lc = lc_pool_take(&cs->pool);
	lc_release(&lc);
}

static inline void cs_eval(fr *acc, struct cs *cs, const lc_t *lc,
			   struct density *din, struct density *daux)
{
	const struct lc_list *in = lc_clist(lc, 0);
	const struct lc_list *aux = lc_clist(lc, 1);
	*acc = FR_ZERO;
	eval_terms(acc, list_data(in), list_len(in), cs->as.input.v, din);
	eval_terms(acc, list_data(aux), list_len(aux), cs->as.aux.v, daux);
}

static inline size_t lc_nterms(const lc_t *lc)
{
	return list_len(lc_clist(lc, 0)) + list_len(lc_clist(lc, 1));
}

LC_OP void cs_enforce(struct cs *cs, lc_t a, lc_t b, lc_t c)
{
	fr va, vb, vc;

	/* Inputs have full density in A (every input gets an x * 0 = 0 row). */
	cs_eval(&va, cs, &a, NULL, &cs->as.a_aux);
	cs_eval(&vb, cs, &b, &cs->as.b_input, &cs->as.b_aux);
	/* No C query density: that query has full density. */
	cs_eval(&vc, cs, &c, NULL, NULL);

	term_stats_add(&cs->as.stats, 0, lc_nterms(&a));
	term_stats_add(&cs->as.stats, 1, lc_nterms(&b));
	term_stats_add(&cs->as.stats, 2, lc_nterms(&c));

	fr_vec_push(&cs->as.a, &va);
	fr_vec_push(&cs->as.b, &vb);
	fr_vec_push(&cs->as.c, &vc);

	lc_pool_give(&cs->pool, &a);
	lc_pool_give(&cs->pool, &b);
	lc_pool_give(&cs->pool, &c);
}

static inline size_t cs_rows(const struct cs *cs)
{
	return cs->as.a.len;
}

/* lc + coeff * b: a temporary Boolean::lc merged in (upstream) or in place. */
static inline lc_t cs_add_bool(struct cs *cs, lc_t lc, const struct boolean *b,
			       const fr *coeff)
{
	if (cs->style == STYLE_INPLACE) {
		bool_add_to_lc(b, coeff, &lc, false);
		return lc;
	}
	lc_t t = bool_lc(b, coeff);
	lc = lc_add_lc(lc, &t);
	lc_release(&t);
	return lc;
}

/* lc - coeff * b, same two styles. */
static inline lc_t cs_sub_bool(struct cs *cs, lc_t lc, const struct boolean *b,
			       const fr *coeff)
{
	if (cs->style == STYLE_INPLACE) {
		bool_add_to_lc(b, coeff, &lc, true);
		return lc;
	}
	lc_t t = bool_lc(b, coeff);
	lc = lc_sub_lc(lc, &t);
	lc_release(&t);
	return lc;
}
