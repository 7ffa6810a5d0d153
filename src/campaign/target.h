/*
 * The campaign's target (target.c): what the runs of `stat` count when it is
 * not a child spawned per run, but running threads (-p/-t), every task on
 * some CPUs (-a/-C), or one command counted in intervals (-I). Such a
 * campaign is one attach session (run/attach.h) and its runs are the
 * session's intervals; the block loop calls campaign_target_measure() in
 * place of measure_run() and asks campaign_target_ended() after each run.
 */
#ifndef PMU_CAMPAIGN_TARGET_H
#define PMU_CAMPAIGN_TARGET_H

#include "campaign/campaign.h"
#include "core/strbuf.h"
#include "run/measure.h"

/* Does this campaign count through an attach session? */
int campaign_target_session(const struct campaign_opts *o);

/* Check the target (ids exist, CPUs online, options that do not apply)
 * and note what it means; before the mechanisms plan. */
int campaign_target_plan(struct campaign *c, struct error *err);

/* After the mechanisms planned: notes and metrics that depend on them
 * (rusage is not known for tasks we do not reap). */
int campaign_target_plan_done(struct campaign *c, struct error *err);

/* One interval: open the session on the first, wait, read. */
int campaign_target_measure(struct campaign *c, const struct measure_spec *spec,
			    struct measure_outcome *out, struct error *err);

/* After the mechanisms ended run run_index: the per-thread values. */
void campaign_target_end(struct campaign *c, size_t run_index);

/* Is the session over? 1 with the reason in why. */
int campaign_target_ended(struct campaign *c, struct strbuf *why);

/* The launcher of a session: its intervals, measured by
 * campaign_target_measure, until campaign_target_ended. */
extern const struct campaign_launcher campaign_target_launcher;

/* What --dry-run adds: the pid and cpu every counter is opened with. */
void campaign_target_dry_run(const struct campaign *c, struct strbuf *out);

/* The CPU to probe events on (system-wide: the first counted), or -1:
 * probe on pmustat itself. */
int campaign_target_probe_cpu(const struct campaign *c);

void campaign_target_release(struct campaign *c);

#endif
