/*
 * The --backend policy applied to a planned campaign (policy.c): after every
 * mechanism planned, decide per metric who serves it, and which runs the
 * campaign needs (c->native, *sim).
 */
#ifndef PMU_CAMPAIGN_POLICY_H
#define PMU_CAMPAIGN_POLICY_H

#include "campaign/campaign.h"

int campaign_apply_backend(struct campaign *c, int *sim, struct error *err);

#endif
