/*
 * LinearCombination operators, written once over the storage primitives of
 * lc_<storage>.h (list_data, list_len, list_reserve1, lc_list, ...).
 *
 * A term list stays sorted by variable index. Insert follows bellpepper's
 * indexer: the same key as the last insert updates it, the next key
 * appends (or inserts right after it), anything else binary-searches and
 * then updates or inserts with a memmove of the tail. Because lists are
 * kept sorted and merged, every storage and both gadget styles end with
 * identical term lists, which is what lets runs be compared by hash.
 *
 * The operators that Rust implements as `impl Add for LinearCombination`
 * take and return the LC by value and are never inlined, so each call moves
 * the whole LC in and out (96 bytes for vec, up to 400 for sv4, 8 for csr).
 */

#define LC_OP static __attribute__((noinline, unused))

static inline size_t list_find(const struct lc_list *l, uint64_t key, bool *found)
{
	const struct term *d = list_data(l);
	size_t n = list_len(l);
	const struct lc_hint *h = &l->hint;

	if (h->valid && h->key == key) {
		*found = true;
		return h->pos;
	}
	if (h->valid && h->key + 1 == key) {
		size_t p = h->pos + 1;
		if (p == n || d[p].idx > key) {
			*found = false;
			return p;
		}
		if (d[p].idx == key) {
			*found = true;
			return p;
		}
	}
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d[mid].idx < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < n && d[lo].idx == key;
	return lo;
}

static inline void list_insert(struct lc_list *l, uint64_t key, const fr *coeff, bool neg)
{
	bool found;
	size_t pos = list_find(l, key, &found);

	if (found) {
		struct term *t = &list_data(l)[pos];
		if (neg)
			fr_sub(&t->coeff, &t->coeff, coeff);
		else
			fr_add(&t->coeff, &t->coeff, coeff);
	} else {
		list_reserve1(l);
		struct term *d = list_data(l);
		size_t n = list_len(l);
		memmove(d + pos + 1, d + pos, (n - pos) * sizeof(*d));
		d[pos].idx = key;
		if (neg)
			fr_neg(&d[pos].coeff, coeff);
		else
			d[pos].coeff = *coeff;
		list_set_len(l, n + 1);
	}
	l->hint.valid = 1;
	l->hint.pos = pos;
	l->hint.key = key;
}

static inline void lc_insert(lc_t *lc, var_t v, const fr *coeff, bool neg)
{
	list_insert(lc_list(lc, !var_is_input(v)), var_index(v), coeff, neg);
}

/* lc += sign * scale * o, term by term; scale NULL means 1 (no multiply). */
static inline void lc_merge(lc_t *lc, const lc_t *o, const fr *scale, bool neg)
{
	for (int which = 0; which < 2; which++) {
		const struct lc_list *src = lc_clist(o, which);
		const struct term *t = list_data(src);
		size_t n = list_len(src);
		for (size_t i = 0; i < n; i++) {
			fr c = t[i].coeff;
			if (scale)
				fr_mul(&c, &c, scale);
			list_insert(lc_list(lc, which), t[i].idx, &c, neg);
		}
	}
}

/* lc + (coeff, v) */
LC_OP lc_t lc_add(lc_t lc, const fr *coeff, var_t v)
{
	lc_insert(&lc, v, coeff, false);
	return lc;
}

/* lc - (coeff, v) */
LC_OP lc_t lc_sub(lc_t lc, const fr *coeff, var_t v)
{
	lc_insert(&lc, v, coeff, true);
	return lc;
}

/* lc + &o */
LC_OP lc_t lc_add_lc(lc_t lc, const lc_t *o)
{
	lc_merge(&lc, o, NULL, false);
	return lc;
}

/* lc - &o */
LC_OP lc_t lc_sub_lc(lc_t lc, const lc_t *o)
{
	lc_merge(&lc, o, NULL, true);
	return lc;
}

/* lc + (k, &o) */
LC_OP lc_t lc_add_scaled(lc_t lc, const fr *k, const lc_t *o)
{
	lc_merge(&lc, o, k, false);
	return lc;
}

/* lc += (k, &o) without moving lc: the in-place form of the above. */
LC_OP void lc_add_scaled_to(lc_t *lc, const fr *k, const lc_t *o)
{
	lc_merge(lc, o, k, false);
}

/* Boolean::lc(one, coeff): a fresh LC worth coeff * b (upstream style). */
LC_OP lc_t bool_lc(const struct boolean *b, const fr *coeff)
{
	lc_t lc = lc_new();
	switch (b->kind) {
	case BOOL_CONST:
		if (b->value)
			lc = lc_add(lc, coeff, VAR_ONE);
		break;
	case BOOL_IS:
		lc = lc_add(lc, coeff, b->var);
		break;
	case BOOL_NOT:
		lc = lc_add(lc, coeff, VAR_ONE);
		lc = lc_sub(lc, coeff, b->var);
		break;
	}
	return lc;
}

/* Boolean::add_to_lc / sub_from_lc: the same terms, straight into lc. */
LC_OP void bool_add_to_lc(const struct boolean *b, const fr *coeff, lc_t *lc, bool neg)
{
	switch (b->kind) {
	case BOOL_CONST:
		if (b->value)
			lc_insert(lc, VAR_ONE, coeff, neg);
		break;
	case BOOL_IS:
		lc_insert(lc, b->var, coeff, neg);
		break;
	case BOOL_NOT:
		lc_insert(lc, VAR_ONE, coeff, neg);
		lc_insert(lc, b->var, coeff, !neg);
		break;
	}
}
