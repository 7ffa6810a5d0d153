/*
 * Choosing the catalogue for this run: which uarch (the host's, detected
 * through host/cpu.h and data/cpus.json, or --uarch / PMUSTAT_UARCH), and
 * whether resolution may check PMU presence against this host. It may only
 * when the chosen uarch is the host's own: asking about zen4 on a zen5
 * machine describes zen4, it does not report zen5's sysfs as zen4's.
 * A uarch that cpus.json knows but the catalogue has no file for yet
 * (skylake, icelake client cores) falls back to the generic catalogue, and
 * says so.
 */
#ifndef PMU_CATALOG_SELECT_H
#define PMU_CATALOG_SELECT_H

#include "catalog/catalog.h"
#include "host/cpu.h"
#include "host/sysfs.h"

struct catalog_host {
	struct catalog cat;
	struct cpu_id id;
	struct cpu_uarch u;		/* u.name = chosen, u.detected = the host's */
	struct sysfs_model model;	/* the host's PMUs (loaded when checked and
					 * not lent by the caller) */
	struct resolve_ctx ctx;		/* ready for catalog_resolve() */
	int checked;			/* ctx.model points at the host's PMUs */
	char note[320];			/* "" or how the choice was made, for humans */
};

/*
 * Select and load. uarch_opt is --uarch (NULL: $PMUSTAT_UARCH, else detect).
 * An unknown uarch name is a usage error with near names.
 */
int catalog_host_open(struct catalog_host *h, const char *uarch_opt, struct error *err);
/* The same with the host's PMUs already read by the caller (a campaign reads
 * them once): model is lent and must outlive h. */
int catalog_host_open_lent(struct catalog_host *h, const char *uarch_opt,
			   const struct sysfs_model *model, struct error *err);
void catalog_host_release(struct catalog_host *h);

#endif
