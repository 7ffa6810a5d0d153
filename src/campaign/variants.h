/*
 * From what the user wrote to the variants a campaign runs (variants.c):
 * command words after "--" or hyperfine-style command strings, run without
 * a shell or through --shell SHELL; parameters (--parameter-scan,
 * --parameter-list) that turn one command with {NAME} in it into one
 * variant per value; and the hook commands (--setup, --prepare, --conclude,
 * --cleanup) of each variant, with its parameters put in. Pure (no
 * process is started; tests/unit/test_variants.c); shared by stat and
 * compare, whose option rows (cli/options.c) fill it.
 */
#ifndef PMU_CAMPAIGN_VARIANTS_H
#define PMU_CAMPAIGN_VARIANTS_H

#include <stddef.h>

#include "campaign/campaign.h"
#include "core/error.h"
#include "core/parseopt.h"
#include "result/result.h"

#define VARIANT_MAX_PARAMS 8

struct variant_param {
	char *name;
	char **values;
	size_t n;
};

/* One command as written: words after "--", or one command string. */
struct variant_segment {
	const char *name;	/* -n NAME (may hold {param}), or NULL */
	const char *const *words;
	size_t nwords;
	int is_string;		/* a positional command string (hyperfine's form) */
};

struct variant_args;
struct hook_row {
	struct variant_args *va;
	enum hook_kind kind;
};

struct variant_args {
	const char *shell;		/* --shell, NULL = none */
	int split;			/* -N: split command strings into words, no shell */
	const char *scan;		/* --parameter-scan's words, joined */
	double step;			/* --parameter-step-size */
	int step_given;
	struct variant_param params[VARIANT_MAX_PARAMS];
	size_t nparams;
	const char **hook_str[HOOK_KINDS];	/* as given, in order */
	size_t nhook[HOOK_KINDS];
	struct hook_row rows[HOOK_KINDS];	/* the hook options' cb_data */
	struct variant_segment seg[RESULT_MAX_VARIANTS];
	size_t nseg;
	/* After variants_build: the variants, baseline first. */
	const char *names[RESULT_MAX_VARIANTS];	/* NULL: the caller's default */
	char **argv[RESULT_MAX_VARIANTS];
	char **hooks[HOOK_KINDS][RESULT_MAX_VARIANTS];
	size_t n;
	void **owned;			/* everything allocated, freed at release */
	size_t nowned;
};

void variant_args_init(struct variant_args *va);
void variant_args_release(struct variant_args *va);

/* Option callbacks (options.c's rows): -S/--shell, the four hooks (cb_data
 * a struct hook_row), --parameter-scan, --parameter-list. */
int variant_opt_shell(const struct option *opt, const char *arg, struct error *err);
int variant_opt_hook(const struct option *opt, const char *arg, struct error *err);
int variant_opt_scan(const struct option *opt, const char *arg, struct error *err);
int variant_opt_list(const struct option *opt, const char *arg, struct error *err);

/* Keep p until variant_args_release; returns p. */
void *variant_own(struct variant_args *va, void *p);

/* --parameter-scan's values into a parameter (params.c); -1 with a usage
 * error for bad bounds or more than RESULT_MAX_VARIANTS values. */
int variant_scan_values(struct variant_args *va, struct error *err);

/* Add a command as written; -1 with err beyond RESULT_MAX_VARIANTS. */
int variant_add(struct variant_args *va, const char *name, const char *const *words,
		size_t nwords, int is_string, struct error *err);

/*
 * Expand the commands into va->names/argv/hooks (va->n variants): each
 * command that names a parameter ({cap}) becomes one variant per value (per
 * combination, with several parameters), named "cap=2" unless -n gives a
 * name with {cap} in it; a command without parameters stays one variant.
 * The order is the commands' order, then the values' order, so the baseline
 * (the first variant) is a command written before the swept one, else the
 * sweep's first value. -1 with a usage error for a command string with
 * blanks but no --shell, a parameter no command uses, a hook given neither
 * once nor once per command, or too many variants.
 */
int variants_build(struct variant_args *va, struct error *err);

/* The hooks into the campaign's options (after variants_build). */
void variants_apply(struct variant_args *va, struct campaign_opts *o);

#endif
