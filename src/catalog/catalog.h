/*
 * The portable metric catalogue: per-uarch knowledge loaded from the JSON
 * files under data/uarch/ (embedded in the binary, see core/embed.h), and
 * resolution of portable metric names (cycles, llc-misses, l2-mpki, presets)
 * into the native events to count on one microarchitecture, with the reason
 * for every fallback.
 *
 * A uarch file holds its PMUs (sysfs names, format terms, scope, counter
 * capacity), its native events (exact encodings, the libpfm4 name of the
 * same event for the cross-check, provenance), and per metric a chain of
 * alternatives: the primary mapping first, then proxies, each with caveats.
 * data/uarch/generic.json adds what every uarch shares: the metric
 * definitions, derived formulas (ipc = instructions / cycles), presets, the
 * kernel's generic and software events. Nothing in C knows a CPU model.
 *
 * Invariants: a loaded catalogue is immutable; every formula of every chain
 * names events that exist (checked at load); resolution is pure given its
 * context (the sysfs model is read by the caller).
 */
#ifndef PMU_CATALOG_CATALOG_H
#define PMU_CATALOG_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "catalog/event.h"
#include "core/error.h"
#include "core/strbuf.h"

struct sysfs_model;
struct cat_data;	/* the parsed JSON (catalog.c) */

struct catalog {
	char *uarch;		/* canonical uarch name: "zen4", "generic" */
	char *requested;	/* the name asked for ("emeraldrapids"), or NULL */
	struct cat_data *d;
};

/* The uarch names the catalogue has (canonical names and aliases), sorted,
 * NULL-terminated; free with catalog_names_free(). */
char **catalog_uarch_names(void);
void catalog_names_free(char **names);

/*
 * Load the catalogue of `uarch` ("zen4", "emeraldrapids" = its alias of
 * sapphirerapids, "generic"). Unknown names are a usage error with near-name
 * suggestions. The data is read from the embedded files; PMUSTAT_DATA_DIR,
 * when set, names a directory holding uarch/NAME.json to read instead (for
 * trying an edited file without rebuilding).
 */
int catalog_load(struct catalog *cat, const char *uarch, struct error *err);
void catalog_release(struct catalog *cat);

/* Short description and vendor of the loaded uarch. */
const char *catalog_description(const struct catalog *cat);
/* libpfm4 PMU name that models the same core (for LIBPFM_FORCE_PMU), or NULL. */
const char *catalog_libpfm_pmu(const struct catalog *cat);

/* ---- resolution -------------------------------------------------------- */

struct resolve_ctx {
	/* The host's PMUs: PMU presence is checked against it. NULL = describe
	 * the uarch without checking a host (e.g. --uarch on another machine). */
	const struct sysfs_model *model;
	int paranoid;		/* kernel.perf_event_paranoid of the host */
	int privileged;		/* root or CAP_PERFMON: may count system-wide */
	int system_wide;	/* measuring all CPUs (-a), not one process tree;
				 * pmustat stat/compare measure a process tree: 0 */
};

enum step_status {
	STEP_CHOSEN,		/* this alternative is what will be counted */
	STEP_SKIPPED,		/* tried, not usable here: see reason */
	STEP_NOT_TRIED,		/* after the chosen one */
};

/* One alternative of a metric's chain, as considered. */
struct resolve_step {
	char *formula;		/* over event names */
	char *proxy;		/* what it measures instead, or NULL (exact) */
	enum step_status status;
	char *reason;		/* why skipped ("'amd_l3' counts per L3 complex ..."), or NULL */
	char *need;		/* what the user would need to use it, or NULL */
	char **caveats;
	size_t ncaveats;
	char *source;		/* provenance */
	size_t *events;		/* indices into resolution.events (encoded even when skipped) */
	size_t nevents;
};

/* A native event to count. */
struct resolved_event {
	char *name;		/* catalogue name: "ls_dmnd_fills_from_sys.dram_io_all" */
	struct event_spec spec;	/* the perf_event_attr to open; spec.name = name */
	int type_known;		/* 0: a dynamic PMU not present here; spec.attr.type is
				 * then 0 and must be read from sysfs at run time */
	char *pmu_role;		/* "core", "l3", "software" */
	char *syntax;		/* perf PMU syntax: "cpu/event=0x43,umask=0x48/", or the
				 * generic name ("cycles") */
	char *fields;		/* decoded terms: "event=0x43,umask=0x48", or "" */
	char *libpfm;		/* "amd64_fam19h_zen4::DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:..."
				 * (the same event named by libpfm4), or NULL */
	char *desc;
	char *source;
	int system;		/* counts system-wide (uncore), not per process */
	int anchor;		/* instructions/cycles: belongs in every group */
	int fixed;		/* may use a fixed counter */
	uint32_t counters;	/* general-purpose counters it may use (bit i =
				 * counter i), 0 = any */
	int chosen;		/* used by a chosen step (else only described) */
	int core_index;		/* which core PMU (catalog_core_pmus() order): 0 for
				 * "core" and every non-core event, 1.. for the other
				 * core types of a hybrid part ("atom") */
	int hybrid;		/* on one core type of a hybrid part: counts only
				 * while the threads run on that type */
};

enum metric_kind {
	MK_BASE,		/* counted with native events */
	MK_DERIVED,		/* a formula over other metrics (ipc, *-mpki) */
	MK_PROCESS,		/* measured by the runner (wall-time, max-rss) */
	MK_EVENT,		/* a catalogue event asked for by its name */
};

struct resolved_metric {
	char *name;		/* canonical: "llc-misses" */
	char *requested;	/* as asked: "l3-misses" */
	enum metric_kind kind;
	char *desc, *unit;
	int implied;		/* not asked for: an input of a derived metric */
	int available;		/* countable (checked against the host when
				 * ctx.model was given; else: defined on this uarch) */
	char *reason, *hint;	/* why not available, what to do */
	char *formula;		/* over event names (derived: expanded), NULL if none */
	char *metric_formula;	/* derived: over metric names ("instructions / cycles") */
	size_t *inputs;		/* derived: indices into resolution.metrics */
	size_t ninputs;
	size_t *events;		/* chosen events: indices into resolution.events */
	size_t nevents;
	char *proxy;		/* the chosen step is a proxy: what it measures */
	char **caveats;		/* of the chosen step */
	size_t ncaveats;
	char **notes;		/* for the result: every fallback, one line each */
	size_t nnotes;
	struct resolve_step *steps;	/* the whole chain as considered */
	size_t nsteps;
	int part;		/* one core type's part of a hybrid metric
				 * (instructions.cpu_core): shown, but the sum is
				 * the metric that is tested */
};

struct resolution {
	char *uarch;
	int host_checked;	/* ctx.model was given */
	struct resolved_event *events;
	size_t nevents, events_alloc;
	struct resolved_metric *metrics;
	size_t nmetrics, metrics_alloc;
};

/*
 * Resolve a comma-separated list of metric names, aliases (l3-misses),
 * presets (default, cache, branch, memory, all) and catalogue event names
 * into out. Metrics are listed once each, in request order, then the
 * implied inputs of derived metrics. An unknown name is a usage error:
 * "unknown metric 'l3-mises'" / "did you mean 'l3-misses'? (pmustat list)".
 * A metric that cannot be counted is NOT an error: it comes back with
 * available = 0 and its reason and hint, so the caller can note it.
 */
int catalog_resolve(const struct catalog *cat, const char *metric_list,
		    const struct resolve_ctx *ctx, struct resolution *out,
		    struct error *err);
void resolution_release(struct resolution *r);

/* Index of metric `name` (canonical or as requested) in r, or -1. */
int resolution_metric_index(const struct resolution *r, const char *name);

/*
 * Every metric and preset name the catalogue knows (canonical names, then
 * aliases, then presets), NULL-terminated; free the array with free().
 */
const char **catalog_metric_names(const struct catalog *cat);
/* The comma-separated expansion of a preset, or NULL if not a preset. */
const char *catalog_preset(const struct catalog *cat, const char *name);

/* ---- what the planner needs -------------------------------------------- */

struct catalog_capacity {
	unsigned gp;		/* general-purpose counters of the core PMU, per thread */
	unsigned fixed;		/* fixed counters usable by events marked fixed */
	int watchdog;		/* the NMI watchdog, when on, takes: 0 nothing,
				 * 1 a general-purpose counter, 2 a fixed counter */
	unsigned uncore_gp;	/* counters of each uncore PMU (0 = unknown) */
};

/* Counter capacity of the loaded uarch's core PMU. */
void catalog_capacity(const struct catalog *cat, struct catalog_capacity *cap);

/*
 * The core PMUs of the loaded uarch: one on most parts; on a hybrid part
 * (a file whose PMUs say "core_type") one per core type, "core" first:
 * cpu_core (P-cores) and cpu_atom (E-cores) on Alder Lake. Each has its own
 * events and its own counters, so the planner sizes groups per PMU.
 */
#define CATALOG_MAX_CORE_PMUS 4
struct catalog_core_pmu {
	const char *role;	/* "core", "atom" */
	const char *sysfs;	/* first sysfs name: "cpu_core", "cpu_atom", "cpu" */
	const char *core_type;	/* "P-core (Golden Cove)", or NULL when not hybrid */
	struct catalog_capacity cap;
};
size_t catalog_core_pmus(const struct catalog *cat, struct catalog_core_pmu *out, size_t max);
/* 1 when the uarch has more than one core PMU (a hybrid part). */
int catalog_is_hybrid(const struct catalog *cat);

/* ---- cache geometry ---------------------------------------------------- */

/*
 * One cache level of a uarch ("caches" in data/uarch/NAME.json). Neutral on
 * purpose: the catalogue sits below the backends, so the caller maps it onto
 * what a backend wants (the simulator's struct cache_geometry: its LL is l3,
 * or l2 when l3.size is 0). Checked at load: size is a whole number of sets
 * of assoc x line bytes and line is a power of two; the set count need not
 * be (an 11-way 24.75 MiB L3 is real).
 */
struct catalog_cache {
	uint64_t size;		/* bytes; 0 = the file describes no such level */
	unsigned assoc;		/* ways */
	unsigned line;		/* bytes */
	const char *shared;	/* what one instance serves: "core", "ccx", "cluster", "socket" */
	const char *note;	/* how a SKU-dependent value was chosen, or NULL */
	const char *source;	/* provenance */
};

struct catalog_caches {
	struct catalog_cache l1i, l1d, l2;	/* always present */
	struct catalog_cache l3;		/* size 0 when not described */
	const char *note;	/* about the hierarchy as a whole, or NULL */
};

/*
 * The cache geometry of the loaded uarch. Returns 0 with out filled (its
 * strings live as long as cat), or -1 with out zeroed and err saying that
 * the uarch describes none ("generic" does not: it is no particular core).
 */
int catalog_cache_geometry(const struct catalog *cat, struct catalog_caches *out,
			   struct error *err);

/* ---- formulas ---------------------------------------------------------- */

/*
 * Formulas are arithmetic over names: + - * / ( ) and decimal numbers.
 * Names may contain letters, digits, '_', '.', ':' and '-' inside a word
 * ("l2-misses", "ls_dmnd_fills_from_sys.all"), so subtraction must be
 * written with spaces: "a - b".
 */

/* The distinct names a formula uses, in order of first use (free each and
 * the array with free()); -1 on a syntax error, on nesting deeper than 64
 * parentheses or unary minus signs, and on a NULL formula. */
int formula_names(const char *formula, char ***names, size_t *n, struct error *err);

/* Value lookup for formula_eval: return 0 and set *v, or -1 if unknown. */
typedef int (*formula_lookup)(void *ctx, const char *name, double *v);

/* Evaluate; division by zero yields NaN (a ratio of nothing is not 0). */
int formula_eval(const char *formula, formula_lookup get, void *ctx, double *out,
		 struct error *err);

#endif
