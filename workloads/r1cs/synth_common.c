/*
 * Pieces of synthesis that do not depend on LC storage: Poseidon constants
 * and releasing a result.
 */
#include "synth.h"

#include <stdlib.h>
#include <string.h>

#include "gadget.h"

static void random_fr(fr *out, uint64_t *state)
{
	uint64_t w[4];
	for (int i = 0; i < 4; i++)
		w[i] = rng_next(state);
	fr_from_random(out, w);
}

void poseidon_params_init(struct poseidon_params *p, uint64_t seed)
{
	uint64_t st = seed;
	for (int r = 0; r <= POSEIDON_ROUNDS; r++)
		for (int i = 0; i < POSEIDON_T; i++)
			random_fr(&p->rc[r][i], &st);
	for (int i = 0; i < POSEIDON_T; i++)
		for (int j = 0; j < POSEIDON_T; j++)
			random_fr(&p->mds[i][j], &st);
}

void synth_result_release(struct synth_result *r)
{
	assign_release(&r->as);
	free(r->digest);
	free(r->message);
	memset(r, 0, sizeof(*r));
}
