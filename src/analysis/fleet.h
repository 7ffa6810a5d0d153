/*
 * Results of one campaign run on many machines, merged into one answer per
 * microarchitecture (or per host): `pmustat report RESULT... --by uarch|host`
 * and `pmustat fleet`. Each result is one host (one Slurm task). Hosts of a
 * group are pooled with the host as a blocking factor: their blocks stay
 * apart (result_merge renumbers them), so every paired log ratio compares
 * variants on one host in one block, and a host's own speed cancels out.
 * The statistics are comparison.c's, unchanged, on the pooled runs; each
 * host's own ratio is kept to show the host-to-host spread. Pure.
 */
#ifndef PMU_ANALYSIS_FLEET_H
#define PMU_ANALYSIS_FLEET_H

#include <jansson.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "analysis/comparison.h"
#include "result/result.h"

enum fleet_by { FLEET_BY_UARCH, FLEET_BY_HOST };

struct fleet_host {
	char label[112];	/* host name; "name/task N" when one name ran several
				 * tasks; the file name when the result names no host */
	char uarch[32];		/* "unknown" when the result does not say */
	char *file;
	struct hostinfo host;
	double *value;		/* [variant * nmetrics + metric]: this host's ratio
				 * against the baseline (compare) or mean (stat);
				 * NaN when it has none */
};

struct fleet_group {
	char name[112];		/* the uarch or the host label */
	size_t *hosts, nhosts;	/* indices into fleet.hosts */
	struct result pooled;	/* the group's runs, blocks kept per host */
	struct comparison_set cs;	/* compare only */
	struct comparison_noise noise;	/* compare only */
};

struct fleet {
	enum fleet_by by;
	struct fleet_host *hosts;
	size_t nhosts;
	struct fleet_group *groups;
	size_t ngroups;
	int compare;		/* 2+ variants: ratios and verdicts, else means */
};

/*
 * Can b (named b_name) be merged with a (a_name)? Refused, with the reason,
 * when they were written by different pmustat versions (both named), ran
 * different commands, variants or command lines, metrics, or seeds: a merged
 * verdict must be about one campaign. A usage error; 0 when they can.
 */
int fleet_check(const struct result *a, const char *a_name, const struct result *b,
		const char *b_name, struct error *err);
/* Only the first of those checks (any merge of results makes it). */
int fleet_check_version(const struct result *a, const struct result *b, const char *b_name,
			struct error *err);

/*
 * Group n results (files[i] names rs[i]) by uarch or host, each group's
 * pooled and compared. Takes rs's contents over (rs[i] is released or moved
 * into the fleet, whatever happens). Returns -1 with err set when the
 * results cannot be merged (fleet_check).
 */
int fleet_build(struct fleet *f, struct result *rs, const char *const *files, size_t n,
		enum fleet_by by, struct error *err);
void fleet_release(struct fleet *f);

#endif
