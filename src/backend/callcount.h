/*
 * Call counters: how many times a program calls a function, counted per
 * process like any other counter. `-e call:SYMBOL[@OBJECT]` counts one
 * function; the metric presets `allocs` (malloc, calloc, realloc,
 * aligned_alloc, posix_memalign, memalign, valloc, summed) and `frees`
 * (free) count families. Allocation churn, invisible to cache counters,
 * shows up here directly.
 *
 * Two mechanisms, always named in the result (metric backend field):
 *   "preload"  the LD_PRELOAD shim libpmustat-count.so interposes the
 *              functions and appends counts to a file named in its
 *              environment (callcount_abi.h). Counts every thread and every
 *              process of the tree that keeps LD_PRELOAD, exactly, at the
 *              cost of an atomic add per call; any user. But only the allocation family
 *              (malloc ... valloc, free), and never static, setuid, setgid or
 *              file-capability programs.
 *   "uprobe"   a uprobe perf event at the function's file offset, opened on
 *              the child before exec like every other counter (the
 *              perf_event backend reads it). Any function with a symbol,
 *              static binaries too; needs the uprobe PMU and CAP_PERFMON.
 *              It counts the measured process's MAIN THREAD only (across
 *              exec): the kernel's perf_uprobe events cannot be inherited
 *              (an inherited event re-reads attr.config1, a pointer valid in
 *              pmustat only, and fork()/pthread_create() in the program then
 *              fail with EFAULT), and a per-task uprobe event does not count
 *              the task's other threads (both observed on Linux 6.18; the
 *              perf_event backend therefore opens uprobe events without
 *              inherit). To never pass a lower bound off as a count, the
 *              thread- and process-creating functions (pthread_create, fork,
 *              vfork, clone, posix_spawn, system, popen, ...) are probed too:
 *              when the main thread called one, the run's counts are marked
 *              incomplete (callcount_values.spawns).
 * CALLCOUNT_AUTO picks preload when it can cover the request (a dynamically
 * linked, non-secure program and only shim functions), else uprobes; the
 * choice and its reason are in set->mech and set->mech_reason.
 *
 * Which object: with @OBJECT, that file (a path, or the name of an object
 * the program loads: `@libc.so.6`, `@libc`). Without it, the object the
 * dynamic loader binds the name to: the first in its search order (the
 * program, LD_PRELOAD, then the DT_NEEDED libraries breadth-first, as
 * `ld.so --list` reports them) whose .dynsym defines it; then the .symtab
 * of each, for functions that are not exported. For malloc in an ordinary
 * program that is libc; for a program that brings its own allocator it is
 * that allocator, which is what its calls reach. A static program is its
 * own only object. Objects loaded later with dlopen() are found only when
 * named with @PATH. A script (#!) is followed to its interpreter.
 *
 * Invariant: a uprobe event's attr.config1 points at a path string owned
 * by the callcount_set; the set must outlive every open of its events
 * (perf_probe and the runs), so release it after the counters.
 */
#ifndef PMU_BACKEND_CALLCOUNT_H
#define PMU_BACKEND_CALLCOUNT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backend/callcount_abi.h"
#include "backend/symbols.h"
#include "catalog/event.h"
#include "core/error.h"

struct sysfs_model;

enum callcount_mech {
	CALLCOUNT_AUTO = 0,	/* preload when it covers the request, else uprobe */
	CALLCOUNT_UPROBE,
	CALLCOUNT_PRELOAD,
};

/* "uprobe", "preload" (the result's metric backend), "auto". */
const char *callcount_mech_name(enum callcount_mech m);
/* "auto", "uprobe", "preload"; -1 with a usage error otherwise. */
int callcount_mech_parse(const char *s, enum callcount_mech *m, struct error *err);

/* Probes of thread/process creation, not of any metric (uprobe mode). */
#define CALLCOUNT_SENTINEL ((size_t)-1)

/* One code address counted: a symbol resolved to (object, file offset). */
struct callcount_probe {
	char *symbol;		/* "malloc" */
	const char *object;	/* path, owned by the set (attr.config1 points here) */
	uint64_t offset;	/* file offset of the first instruction */
	dev_t dev;		/* the object's file: uprobes attach to the inode */
	ino_t ino;
	size_t metric;		/* index into set->metrics, or CALLCOUNT_SENTINEL */
	int slot;		/* preload shim slot (callcount_abi.h), -1 if none */
	struct event_spec ev;	/* uprobe mode: the perf event; else zeroed */
};

struct callcount_metric {
	char *name;		/* as requested: "call:malloc", "call:free@libc", "allocs" */
	char **symbols;		/* requested symbols, NULL-terminated */
	char *object;		/* the @OBJECT given, or NULL */
	size_t first, n;	/* its probes: probes[first .. first+n) */
	char *aliases;		/* "memalign = aligned_alloc" when two requested names
				 * are one function (one probe: a call counts once), or
				 * NULL; the shim counts them by name, apart */
};

struct callcount_set {
	enum callcount_mech mech;	/* after resolve: UPROBE or PRELOAD */
	char *mech_reason;		/* NULL, or one line for a note saying why:
					 * "uprobes count the main thread only (the
					 * LD_PRELOAD shim cannot be used: it is
					 * statically linked)" */
	char *program;			/* the ELF file resolved: argv[0] found in PATH,
					 * or the interpreter of a #! script */
	int is_static;
	struct callcount_metric *metrics;
	size_t nmetrics, metrics_alloc;
	struct callcount_probe *probes;
	size_t nprobes, probes_alloc;
	char **objects;			/* interned object paths */
	size_t nobjects;
	char *shim;			/* preload: path of libpmustat-count.so */
	unsigned sites;			/* preload: frames per allocation call site the
					 * shim records (callcount_sites below); 0 = none */
};

struct callcount_opts {
	enum callcount_mech force;	/* CALLCOUNT_AUTO to choose */
	const struct sysfs_model *model;	/* for the uprobe PMU's type; NULL = none */
	char *const *envp;		/* the runs' environment; NULL = ours */
	const char *shim;		/* libpmustat-count.so; NULL = callcount_shim_path() */
};

/* Is item (one -e / -m entry) a call counter: "call:..." or a preset? */
int callcount_is_call(const char *item);

void callcount_init(struct callcount_set *s);
void callcount_release(struct callcount_set *s);

/*
 * Add one requested metric (syntax only; nothing is resolved yet).
 * Usage errors: "no function named in 'call:'", "metric 'call:malloc' is
 * listed twice".
 */
int callcount_add(struct callcount_set *s, const char *item, struct error *err);

/*
 * Resolve every metric for program (argv[0] of the runs; looked up in PATH
 * like execvp when it has no '/'), choose the mechanism and build the
 * events. Errors name the symbol and object, with near names from the
 * objects' symbol tables: "no function 'mallco' in './prog' or the
 * libraries it loads" / "hint: did you mean 'malloc'?". When neither
 * mechanism can count the request, the error gives both reasons.
 */
int callcount_resolve(struct callcount_set *s, const struct callcount_opts *o,
		      const char *program, struct error *err);

/*
 * uprobe mode: an independent copy of probe i's event (name, pmu, unit
 * duplicated; attr.config1 still points into the set) for the campaign's
 * counter list; release it with event_spec_release. Every probe, sentinels
 * included, must be counted in each run: i in [0, nprobes).
 */
void callcount_event_copy(const struct callcount_set *s, size_t i, struct event_spec *out);

/* uprobe mode: do a and b count the same code (same inodes and offsets)?
 * Variants of a compare may share one event list only if so. */
int callcount_same_probes(const struct callcount_set *a, const struct callcount_set *b);

/* One line for explain/notes: "calls of malloc, calloc, ... in
 * /lib/x86_64-linux-gnu/libc.so.6 (uprobe)", or "calls of malloc, ... by
 * name, through the LD_PRELOAD shim (preload)". Caller frees. */
char *callcount_describe(const struct callcount_set *s, size_t metric);

/* ---- preload mode, per run --------------------------------------------- */

/* The most of a run's report file that is read: a process image writes
 * some hundred bytes and a few KiB of sites, so this is millions of
 * processes; a file larger than this is refused, not read without end. */
#define CALLCOUNT_FILE_MAX ((size_t)256 << 20)

struct callcount_run {
	char *dir;		/* private directory holding the report file, or NULL */
	char *path;		/* the report file the shim appends to */
	char **envp;		/* the child's environment (LD_PRELOAD, file) */
};

/*
 * Before spawning a run: create the report file and the environment (base
 * with LD_PRELOAD=<shim>[:previous] and PMUSTAT_COUNT_FILE set; base NULL =
 * ours). Pass r->envp as the run's envp. Nothing to do (and r->envp NULL)
 * in uprobe mode.
 */
int callcount_run_begin(const struct callcount_set *s, char *const *base,
			struct callcount_run *r, struct error *err);

struct callcount_values {
	double *value;		/* nmetrics: the count of each metric */
	unsigned processes;	/* preload: process images that reported */
	unsigned lost;		/* preload: images that began but never reported
				 * (killed by a signal, or the file unreachable) */
	unsigned long spawns;	/* uprobe: thread/process creations by the main
				 * thread, whose calls were not counted */
};

/* Are the counts lower bounds (lost or spawns)? Then 1, and why in one
 * line ("the program started threads or processes (2 calls), and uprobes
 * count its main thread only"); leave the run's values invalid and note it. */
int callcount_values_incomplete(const struct callcount_values *v, char *why, size_t len);

/*
 * After the run has been reaped: read and sum the records. -1 with an
 * error when nothing reported at all (the shim was not loaded: a static or
 * secure-mode program, or the loader refused it), or records are corrupt.
 * v->value is malloc'd (free with callcount_values_release).
 */
int callcount_run_end(const struct callcount_set *s, struct callcount_run *r,
		      struct callcount_values *v, struct error *err);
void callcount_values_release(struct callcount_values *v);
void callcount_run_release(struct callcount_run *r);

/* Sum records already read (the pure part of callcount_run_end). */
int callcount_sum_records(const struct callcount_set *s, const void *data, size_t len,
			  struct callcount_values *v, struct error *err);

/* ---- preload mode: allocation call sites (set->sites > 0) ---------------- */

/* One call stack of allocating calls, innermost return address first. */
struct callcount_site {
	uint64_t calls, bytes, temps;	/* temps: heaptrack's temporaries */
	unsigned nframes;
	uint64_t frames[CALLCOUNT_MAX_FRAMES];
};

/* What one process image reported: its sites and the executable mappings
 * to symbolize them with (symbols.h). */
struct callcount_image {
	int32_t pid;
	struct callcount_site *sites;
	size_t nsites;
	struct sym_map *maps;
	size_t nmaps;
	uint64_t unsited;	/* allocating calls the shim's table had no room for */
	int ended;		/* its END record arrived (else it lost its sites) */
	unsigned flags;		/* CC_FLAG_* of its END record */
};

struct callcount_sites {
	struct callcount_image *img;
	size_t n;
};

/* The images of a report file, in the order they began. -1 on corrupt
 * records (as callcount_sum_records). */
int callcount_parse_sites(const void *data, size_t len, struct callcount_sites *out,
			  struct error *err);
/* The same from a preload run's report file, after the run. */
int callcount_run_sites(const struct callcount_run *r, struct callcount_sites *out,
			struct error *err);
void callcount_sites_release(struct callcount_sites *s);

/* ---- uprobe mode, per run ---------------------------------------------- */

/*
 * Metric values from the probes' readings (raw[i] for probe i; ok[i] = 0
 * when it could not be read): probes of one metric are summed; sentinel
 * counts go to v->spawns. -1 with an error when a probe was not read.
 * v->value is malloc'd (callcount_values_release).
 */
int callcount_uprobe_values(const struct callcount_set *s, const uint64_t *raw, const int *ok,
			    struct callcount_values *v, struct error *err);

/*
 * Where libpmustat-count.so is: $PMUSTAT_COUNT_LIB, else next to the
 * running executable, else <exe dir>/../lib/pmustat/. Caller frees; -1 with
 * an error naming the places tried.
 */
int callcount_shim_path(char **out, struct error *err);

#endif
