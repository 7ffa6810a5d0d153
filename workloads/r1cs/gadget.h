/*
 * Storage-independent gadget values: variables, AllocatedBit, Boolean and
 * UInt32, plus the operations on them that make no constraints (not, rotr,
 * shr, constants, bit order changes). The constraint-making gadgets are in
 * tmpl_boolean.h / tmpl_uint32.h because they build LCs.
 *
 * Witness values are always known (this is proving, not key generation),
 * so a value is a plain bool/uint32_t instead of Rust's Option.
 */
#ifndef R1CS_GADGET_H
#define R1CS_GADGET_H

#include <stdbool.h>
#include <stdint.h>

/* A variable: aux index, or input index with VAR_INPUT set. */
typedef uint64_t var_t;
#define VAR_INPUT (1ULL << 63)
#define VAR_ONE VAR_INPUT /* input 0 is the constant 1 */

static inline bool var_is_input(var_t v)
{
	return (v & VAR_INPUT) != 0;
}

static inline uint64_t var_index(var_t v)
{
	return v & ~VAR_INPUT;
}

struct abit {
	var_t var;
	bool value;
};

enum bool_kind { BOOL_CONST, BOOL_IS, BOOL_NOT };

/* value is the Boolean's own value (for NOT, the negation of the bit). */
struct boolean {
	enum bool_kind kind;
	bool value;
	var_t var;
};

struct u32 {
	struct boolean bits[32]; /* little-endian: bits[0] is the LSB */
	uint32_t value;
};

static inline struct boolean bool_const(bool v)
{
	return (struct boolean){ BOOL_CONST, v, 0 };
}

static inline struct boolean bool_is(struct abit b)
{
	return (struct boolean){ BOOL_IS, b.value, b.var };
}

static inline struct boolean bool_not(struct boolean b)
{
	b.value = !b.value;
	if (b.kind == BOOL_IS)
		b.kind = BOOL_NOT;
	else if (b.kind == BOOL_NOT)
		b.kind = BOOL_IS;
	return b;
}

/* The AllocatedBit under an IS/NOT Boolean. */
static inline struct abit bool_bit(struct boolean b)
{
	return (struct abit){ b.var, b.kind == BOOL_NOT ? !b.value : b.value };
}

static inline struct u32 u32_const(uint32_t v)
{
	struct u32 r;
	for (int i = 0; i < 32; i++)
		r.bits[i] = bool_const((v >> i) & 1);
	r.value = v;
	return r;
}

static inline struct u32 u32_rotr(const struct u32 *x, unsigned by)
{
	struct u32 r;
	by %= 32;
	for (unsigned i = 0; i < 32; i++)
		r.bits[i] = x->bits[(i + by) % 32];
	r.value = (x->value >> by) | (by ? x->value << (32 - by) : 0);
	return r;
}

static inline struct u32 u32_shr(const struct u32 *x, unsigned by)
{
	struct u32 r;
	by %= 32;
	for (unsigned i = 0; i < 32; i++)
		r.bits[i] = i + by < 32 ? x->bits[i + by] : bool_const(false);
	r.value = x->value >> by;
	return r;
}

/* 32 Booleans, most significant first, to a UInt32. */
static inline struct u32 u32_from_bits_be(const struct boolean *be)
{
	struct u32 r;
	r.value = 0;
	for (int i = 0; i < 32; i++) {
		r.bits[i] = be[31 - i];
		r.value |= (uint32_t)be[31 - i].value << i;
	}
	return r;
}

static inline void u32_to_bits_be(struct boolean *be, const struct u32 *x)
{
	for (int i = 0; i < 32; i++)
		be[i] = x->bits[31 - i];
}

/* splitmix64: seeds witness values and Poseidon constants reproducibly. */
static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
