/*
 * The proving assignment: what bellperson's ProvingAssignment keeps while a
 * circuit is synthesized. Variables are input or aux; enforce() evaluates
 * the three linear combinations of a row against the assignment and pushes
 * the values onto a/b/c; density trackers (bit vectors with a running
 * count) record which variables appear in A (aux) and B (inputs and aux).
 *
 * This part does not depend on how a LinearCombination is stored: every
 * storage variant hands eval_terms() plain arrays of 40-byte terms.
 * Invariants: a, b and c always have the same length (the row count);
 * densities have one bit per variable of their kind.
 */
#ifndef R1CS_ASSIGN_H
#define R1CS_ASSIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fr.h"
#include "heap.h"

/* (index, coefficient): 8 + 32 = 40 bytes, as in Rust's (usize, Fr). */
struct term {
	uint64_t idx;
	fr coeff;
};

/* The last-inserted position of a term list: inserting the same key again
 * updates in place, the next key appends, anything else binary-searches. */
struct lc_hint {
	uint64_t valid;
	uint64_t pos;
	uint64_t key;
};

/* A growable Fr vector with Rust Vec growth (first 4, then doubling). */
struct fr_vec {
	fr *v;
	size_t len, cap;
};

struct density {
	uint64_t *bits;
	size_t len, cap_words;
	uint64_t total;
};

/* Histogram buckets of terms per row: 0, 1, 2, 3, 4..64, 65+. */
enum { TERM_BUCKETS = 6 };

struct term_stats {
	uint64_t sum[3];
	uint64_t hist[3][TERM_BUCKETS];
};

struct assign {
	struct fr_vec input, aux;
	struct fr_vec a, b, c;
	struct density a_aux, b_input, b_aux;
	struct term_stats stats;
};

void fr_vec_grow(struct fr_vec *vec);

static inline void fr_vec_push(struct fr_vec *vec, const fr *x)
{
	if (vec->len == vec->cap)
		fr_vec_grow(vec);
	vec->v[vec->len++] = *x;
}

static inline void density_add_element(struct density *d)
{
	if (d->len / 64 == d->cap_words) {
		size_t cap = d->cap_words ? 2 * d->cap_words : 4;
		d->bits = d->bits ? heap_realloc(d->bits, cap * 8) : heap_alloc(cap * 8);
		d->cap_words = cap;
	}
	if (d->len % 64 == 0)
		d->bits[d->len / 64] = 0;
	d->len++;
}

static inline void density_inc(struct density *d, uint64_t i)
{
	uint64_t bit = 1ULL << (i % 64);
	uint64_t *w = &d->bits[i / 64];
	if (!(*w & bit)) {
		*w |= bit;
		d->total++;
	}
}

/* acc += sum coeff * value over the terms; a multiply only for coeff != 1. */
static inline __attribute__((always_inline)) void eval_terms(fr *acc, const struct term *t, size_t n,
			      const fr *values, struct density *d)
{
	for (size_t i = 0; i < n; i++) {
		fr tmp = values[t[i].idx];
		if (d)
			density_inc(d, t[i].idx);
		if (!fr_is_one(&t[i].coeff))
			fr_mul(&tmp, &tmp, &t[i].coeff);
		fr_add(acc, acc, &tmp);
	}
}

static inline void term_stats_add(struct term_stats *s, int which, size_t n)
{
	int bucket = n < 4 ? (int)n : n <= 64 ? 4 : 5;
	s->sum[which] += n;
	s->hist[which][bucket]++;
}

void assign_init(struct assign *as);
void assign_release(struct assign *as);

/* 64-bit digests of the evaluated rows (a, b, c interleaved) and of aux. */
uint64_t assign_abc_hash(const struct assign *as);
uint64_t assign_aux_hash(const struct assign *as);

/* Index of the first row with a*b != c, or SIZE_MAX when all hold. */
size_t assign_first_unsatisfied(const struct assign *as);

#endif
