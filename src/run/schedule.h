/*
 * The run order of a campaign (STATS.md (c)): randomized complete blocks.
 * Each block runs every variant once, in an order shuffled by a seeded
 * splitmix64 stream, with one environment-padding size for the whole block
 * and counter group = block mod ngroups, so every variant of a block sees the
 * same conditions. The first `warmup` blocks are run and recorded but left out
 * of the statistics. Same seed, same schedule.
 */
#ifndef PMU_RUN_SCHEDULE_H
#define PMU_RUN_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"

struct sched_slot {
	int variant;
	int block;		/* 0-based, warm-up blocks included */
	int position;		/* 0-based position within the block */
	int group;		/* counter group for this block */
	int warmup;
	int sim;		/* a simulated block (set by the caller) */
	int traced;		/* a traced block: untimed (set by the caller) */
	int instrumented;	/* an instrumented block: the 1-based index of the
				 * mechanism it is for, or 0 (set by the caller) */
	size_t env_pad;		/* bytes of padding, same for the whole block */
};

/* The most variants a schedule orders (schedule_init clamps to it; the
 * campaign refuses more before it runs). */
#define SCHED_MAX_VARIANTS 64

struct schedule {
	struct rng rng;
	int nvariants;
	int ngroups;
	unsigned warmup_blocks;
	size_t env_pad_max;	/* 0: no padding */
	int shuffle;		/* 0: variants in their given order (stat) */
};

void schedule_init(struct schedule *s, uint64_t seed, int nvariants, int ngroups,
		   unsigned warmup_blocks, size_t env_pad_max, int shuffle);

/* Fill slots[0..nvariants) for block b (call with b = 0, 1, 2, ... in order). */
void schedule_block(struct schedule *s, int b, struct sched_slot *slots);

#endif
