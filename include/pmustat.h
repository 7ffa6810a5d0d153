/*
 * libpmustat: region markers. Count hardware/software performance events for
 * just a part of a program (a "region"), either under `pmustat stat/compare`
 * (regions become rows such as `synth:instructions`) or standalone:
 *
 *   PMUSTAT_EVENTS=task-clock,instructions PMUSTAT_OUTPUT=regions.json ./prog
 *
 * Build:   cc prog.c $(pkg-config --cflags --libs pmustat)
 * Example: docs/regions.md.
 *
 * Invariants
 * - Off by default. Unless the program runs under pmustat or PMUSTAT_EVENTS
 *   is set, every marker returns after one load and compare: no counter is
 *   opened, nothing is allocated, nothing is written.
 * - A marker never fails, never prints in its fast path and never changes
 *   errno. Problems (an event that does not open, an unknown event name, too
 *   many regions) are recorded in the report, not returned.
 * - Regions are independent intervals keyed by name: they may nest or even
 *   overlap, and each counts everything its thread did between enter and
 *   exit (nested regions are inclusive). Re-entering a region that is already
 *   open on the same thread (recursion) counts the entry, but values only
 *   accrue over the outermost enter/exit.
 * - Counters are per thread (opened lazily on a thread's first marker, on
 *   that thread only). A region's report is the sum over all threads that
 *   used it, merged when a thread exits and at process exit.
 * - count = completed enter/exit pairs. An exit without an enter is counted
 *   as "unbalanced" and otherwise ignored; entries still open at exit are
 *   reported as "open" and contribute no values.
 * - The report is written once, at process exit (exit() or return from
 *   main; not _exit() or a fatal signal). A forked child starts with empty
 *   regions and writes its own report if it used any.
 * - Every call is thread-safe. Region names are copied; the caller's string
 *   may change or go away after the call.
 * - At most 1024 distinct region names and 16 events per process; regions
 *   past the limit are not measured and are counted in the report.
 */
#ifndef PMUSTAT_H
#define PMUSTAT_H

#ifdef __cplusplus
extern "C" {
#endif

/* A region looked up once, for hot loops. NULL when measuring is off
 * (enter/exit accept NULL and do nothing). Valid on every thread, for the
 * life of the process. */
typedef struct pmustat_region_s *pmustat_region_t;

/* Enter / leave the region called name (looked up by name on each call:
 * a per-thread cache makes this cheap, but the handle form is cheaper). */
void pmustat_region_begin(const char *name);
void pmustat_region_end(const char *name);

/* Look up (creating it if needed) the region called name. */
pmustat_region_t pmustat_region(const char *name);

/* Enter / leave a region by handle. */
void pmustat_region_enter(pmustat_region_t region);
void pmustat_region_exit(pmustat_region_t region);

/* 1 if markers are measuring in this process, else 0. */
int pmustat_active(void);

#ifdef __cplusplus
}
#endif

#endif
