/*
 * Software SHA-256 (FIPS 180-4): the reference the circuit's output bits
 * are checked against, and the source of the round constants and initial
 * hash value the gadget uses, so both sides share one copy of the facts.
 */
#ifndef R1CS_SHA256_H
#define R1CS_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* FIPS 180-4 section 4.2.2: first 32 bits of the fractional parts of the
 * cube roots of the first 64 primes. */
extern const uint32_t SHA256_K[64];
/* FIPS 180-4 section 5.3.3: first 32 bits of the fractional parts of the
 * square roots of the first 8 primes. */
extern const uint32_t SHA256_IV[8];

void sha256_compress(uint32_t state[8], const uint8_t block[64]);
void sha256(uint8_t digest[32], const uint8_t *msg, size_t len);

#endif
