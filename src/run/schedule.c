/*
 * Block schedules. Random draws happen in a fixed order per block (padding
 * first, then the shuffle) so that a stored seed reproduces the schedule.
 */
#include "run/schedule.h"

#include <string.h>

void schedule_init(struct schedule *s, uint64_t seed, int nvariants, int ngroups,
		   unsigned warmup_blocks, size_t env_pad_max, int shuffle)
{
	memset(s, 0, sizeof(*s));
	rng_init(&s->rng, seed);
	s->nvariants = nvariants < SCHED_MAX_VARIANTS ? nvariants : SCHED_MAX_VARIANTS;
	s->ngroups = ngroups > 0 ? ngroups : 1;
	s->warmup_blocks = warmup_blocks;
	s->env_pad_max = env_pad_max;
	s->shuffle = shuffle;
}

void schedule_block(struct schedule *s, int b, struct sched_slot *slots)
{
	int order[SCHED_MAX_VARIANTS];
	int n = s->nvariants;
	size_t pad = s->env_pad_max ? (size_t)rng_below(&s->rng, s->env_pad_max + 1) : 0;

	for (int i = 0; i < n; i++)
		order[i] = i;
	if (s->shuffle)
		rng_shuffle_int(&s->rng, order, (size_t)n);
	for (int i = 0; i < n; i++) {
		slots[i].variant = order[i];
		slots[i].block = b;
		slots[i].position = i;
		slots[i].group = b % s->ngroups;
		slots[i].warmup = b < (int)s->warmup_blocks;
		slots[i].sim = 0;
		slots[i].traced = 0;
		slots[i].instrumented = 0;
		slots[i].env_pad = pad;
	}
}
