/*
 * The one stack-sampling pipeline: what the time profiler (cpu-clock or
 * cycles samples, campaign/mech_profile.c) and the allocation probes of
 * static programs (uprobe samples, backend/allocprobe.c) share. It opens
 * the run's per-CPU ring buffers (backend/sample.h) and a reader thread
 * that drains them while the run goes on, reads every record, keeps one
 * table of executable mappings per process (MMAP2 adds, a FORK copies the
 * parent's into the child, an EXIT retires it), finds the mapping of an
 * address by bisection, copies the user registers and stacks its user
 * wants unwound and unwinds them (backend/unwind.h) against the mappings
 * of the sample's process, with a symbolizer (backend/symbols.h) per
 * address space that the user may also look addresses up in.
 *
 * The user says what a sample means: its sample callback sees every
 * SAMPLE record (the pipeline has already taken the side-band records)
 * and hands the stacks it wants unwound back with stackpipe_keep and a
 * cookie of its own; its stack callback gets each kept stack's addresses
 * with that cookie, when the copies pass pending_max during the run (from
 * the reader thread) or at stackpipe_finish (from the caller's).
 *
 * Records of one CPU's buffer come in order; records of different CPUs do
 * not (a child's MMAP2 may be read before the FORK that made it, a
 * process's last samples after its EXIT). So mappings are looked up once
 * the records are read: a FORK puts the parent's mappings under the
 * child's own (the child's win where they overlap); an EXIT leaves the
 * table readable (samples read later are still the process's) and only
 * marks it, so that a later FORK of the same pid (the pid reused) starts
 * a new table. Within one process, a later mapping wins over the part of
 * an earlier one it overlaps, as the kernel's newer mapping replaced the
 * older; an exec maps anew over its old mappings the same way.
 *
 * Invariants: the sample callback, the stack callback and the unwinding
 * run on the reader thread while it runs, on the caller's after
 * stackpipe_finish (which joins it), never on both at once; every string
 * and table handed out stays valid until stackpipe_release.
 */
#ifndef PMU_BACKEND_STACKPIPE_H
#define PMU_BACKEND_STACKPIPE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backend/maptab.h"
#include "backend/sample.h"
#include "backend/symbols.h"
#include "core/error.h"

struct stackpipe;

struct stackpipe_user {
	/* Every SAMPLE record (pointers valid during the call). */
	void (*sample)(void *ctx, struct stackpipe *p, const struct sample_rec *r);
	/* A kept stack unwound: pcs[0] the sampled user pc, then an address
	 * inside each call (a return address - 1), innermost first; n >= 1. */
	void (*stack)(void *ctx, size_t cookie, uint32_t pid, const uint64_t *pcs, int n);
	void *ctx;
	size_t pending_max;	/* bytes of copies kept before the reader unwinds them */
	int pause;		/* stop the program (SIGSTOP through a pidfd) while the
				 * reader unwinds, and while it copies a buffer more
				 * than half full: for an untimed run whose buffers
				 * fill faster than they are drained */
	int reader;		/* drain during the run (else at stackpipe_finish) */
};

/* One process's executable mappings (paths owned by the pipeline). */
struct stackpipe_proc {
	uint32_t pid;
	int retired;		/* its EXIT was read */
	uint32_t from;		/* its FORK came before its parent had a mapping (the
				 * buffers are read one CPU after another): copy the
				 * parent's when the stacks are unwound; 0 = none */
	struct maptab maps;	/* of struct sym_map */
};

struct stackpipe_pending;
struct stackpipe_space;

struct stackpipe {
	struct stackpipe_user u;
	struct sample_set set;
	int open;
	struct sample_reader rd;
	int pidfd;			/* the sampled process, for pause; -1 */
	unsigned pauses;
	struct stackpipe_proc *procs;	/* sorted by pid */
	size_t nprocs, procs_alloc;
	char **paths;			/* interned mapping paths */
	size_t npaths, paths_alloc;
	struct stackpipe_pending *pend;	/* stacks kept, not yet unwound */
	size_t npend, pend_alloc;
	unsigned char *bytes;		/* their registers and stack copies */
	size_t nbytes, bytes_alloc;
	struct stackpipe_space *spaces;	/* address spaces made, by last use */
	size_t nspaces;
	uint64_t tick;
	char **gaps;			/* what the symbolizers freed so far lacked */
	size_t ngaps, gaps_alloc;
	uint64_t lost;			/* records the kernel could not write */
	char *corrupt;			/* the first read error, or NULL */
};

/* A pipeline fed by hand (a test's or a fuzzer's records, with
 * stackpipe_feed); stackpipe_open makes it read a run's buffers. */
void stackpipe_init(struct stackpipe *p, const struct stackpipe_user *u);

/* Open the sampling events on pid (stopped before exec) and, when the user
 * asks, start the reader. -1 with err (sample_open's). */
int stackpipe_open(struct stackpipe *p, pid_t pid, const struct sample_opts *so,
		   struct error *err);

/* One record, as sample_read hands it out (ctx the pipeline). */
void stackpipe_feed(void *ctx, const struct sample_rec *r);

/* Keep the registers and stack copy of sample r (which has registers) to
 * unwind into at most max addresses; cookie comes back with them. */
void stackpipe_keep(struct stackpipe *p, const struct sample_rec *r, size_t cookie, int max);

/* After the run: stop the reader, read what is left, unwind every stack
 * kept. Read errors are in p->corrupt, records lost in p->lost. */
void stackpipe_finish(struct stackpipe *p);

/* Give the children whose FORK was read before their parent's mappings
 * their parent's (done before every unwinding; a user looking tables up
 * itself calls it first). */
void stackpipe_settle(struct stackpipe *p);

/* The mapping of pid holding addr, or NULL (an unknown pid, no mapping). */
const struct sym_map *stackpipe_map(const struct stackpipe *p, uint32_t pid, uint64_t addr);
/* pid's mappings (n of them; NULL and 0 for an unknown pid). */
const struct sym_map *stackpipe_maps(const struct stackpipe *p, uint32_t pid, size_t *n);
/* The symbolizer of pid's address space (NULL when no mapping is known):
 * processes with the same mappings share one. */
struct symbolizer *stackpipe_symbolizer(struct stackpipe *p, uint32_t pid);
/* What the symbolizers lacked (symbolizer_gaps of each), each line once. */
void stackpipe_gaps(struct stackpipe *p, void (*cb)(void *ctx, const char *gap), void *ctx);

void stackpipe_release(struct stackpipe *p);

#endif
