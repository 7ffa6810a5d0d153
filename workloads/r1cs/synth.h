/*
 * Interface between the CLI and the synthesis back ends. The circuit code is
 * written once (tmpl_*.h) and compiled once per LC storage variant
 * (synth_<storage>.c), the way Rust monomorphizes a generic
 * LinearCombination: each variant gets its own struct size, its own by-value
 * moves and its own inlining. The CLI picks one entry point at run time.
 */
#ifndef R1CS_SYNTH_H
#define R1CS_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "assign.h"
#include "heap.h"

enum synth_style { STYLE_UPSTREAM, STYLE_INPLACE };

enum synth_circuit {
	CIRCUIT_PARTITION,   /* L labels: decompose, SHA-256, pack, Poseidon */
	CIRCUIT_SHA256_BLOCK, /* bellperson's test_full_block: 512 bits, one compression */
	CIRCUIT_SHA256_MSG,  /* SHA-256 with padding over opts.msg (self-test) */
};

struct synth_opts {
	enum synth_style style;
	enum synth_circuit circuit;
	unsigned labels;
	unsigned blocks; /* SHA-256 compressions per label */
	bool witness_only;
	const uint8_t *msg;
	size_t msg_len;
};

struct synth_result {
	struct assign as;        /* owned */
	struct heap_counts heap; /* heap calls made during synthesis */
	uint64_t ns;             /* synthesis wall time */
	uint64_t cpu_ns;         /* synthesis CPU time of the process (user + sys) */
	size_t lc_bytes;         /* sizeof one LinearCombination */
	size_t compression_rows; /* rows of the constant-IV compression (sha256-block) */
	unsigned ndigests;       /* one per label (or one for sha256-msg) */
	uint8_t (*digest)[32];   /* circuit output bits, as bytes */
	uint8_t *message;        /* hashed message bytes, ndigests * message_len */
	size_t message_len;
};

typedef int (*synth_fn)(const struct synth_opts *o, struct synth_result *r);

int synth_run_vec(const struct synth_opts *o, struct synth_result *r);
int synth_run_pool(const struct synth_opts *o, struct synth_result *r);
int synth_run_sv1(const struct synth_opts *o, struct synth_result *r);
int synth_run_sv2(const struct synth_opts *o, struct synth_result *r);
int synth_run_sv4(const struct synth_opts *o, struct synth_result *r);
int synth_run_csr(const struct synth_opts *o, struct synth_result *r);

void synth_result_release(struct synth_result *r);

/* Poseidon-shaped permutation, width 3 (arity 2), x^5 S-box. Round counts
 * are those of Poseidon for t=3 over a 255-bit field at 128-bit security;
 * constants come from a seeded PRNG, not the reference generator. */
enum { POSEIDON_T = 3, POSEIDON_RF = 8, POSEIDON_RP = 57 };
enum { POSEIDON_ROUNDS = POSEIDON_RF + POSEIDON_RP };

struct poseidon_params {
	fr rc[POSEIDON_ROUNDS + 1][POSEIDON_T];
	fr mds[POSEIDON_T][POSEIDON_T];
};

void poseidon_params_init(struct poseidon_params *p, uint64_t seed);

#endif
