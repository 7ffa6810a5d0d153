/*
 * Allocation call sites without the preload shim: for a statically linked
 * program, where LD_PRELOAD cannot interpose malloc, a sampling uprobe on
 * each allocation function the program's ELF defines (backend/sample.h,
 * SAMPLE_UPROBE: one sample per call, with the user registers and a copy
 * of the top of the user stack), unwound with backend/unwind.h into the
 * same return addresses the shim records. The result is a callcount_sites
 * (backend/callcount.h) like the shim's report, so the call-site mechanism
 * symbolizes both the same way.
 *
 * What it gives: calls, bytes and temporaries per call stack, for every
 * thread and process of the run where the probes can be trace events made
 * in tracefs (backend/uprobe_trace.h: inherited); else, with the uprobe
 * PMU's events, which cannot be inherited (backend/callcount.h), for the
 * main thread only: the spawning functions are then probed too, and a run
 * whose main thread called one is incomplete. Temporaries as the shim counts them (lib/count/count.c,
 * heaptrack's: an allocation freed as the thread's very next heap event)
 * come from a return probe on each allocating function (the pointer it
 * returned: %rax, x0; posix_memalign's is read from the stack copied at its
 * return, where its first argument points) and an entry probe on free (its
 * argument), put back in each thread's order by the samples' times: the
 * kernel writes a task's samples into the buffer of the CPU it ran on.
 * Calls made from inside another probed function (glibc's realloc(NULL, n)
 * calls malloc, realloc(p, 0) calls free) are the outer call's, not calls
 * of their own, as the shim, which sees only calls into libc, counts them.
 *
 * Invariants: the callcount set (uprobe mode) outlives its allocprobe (its
 * probe paths are the PMU events' config1); the allocprobe outlives its
 * runs (its trace events are removed with it); a run's reader thread (the
 * pipeline's) touches only the run's own state; allocprobe_finish joins
 * it before reading it.
 */
#ifndef PMU_BACKEND_ALLOCPROBE_H
#define PMU_BACKEND_ALLOCPROBE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backend/callcount.h"
#include "backend/sample.h"
#include "backend/stackpipe.h"
#include "backend/uprobe_trace.h"
#include "core/error.h"

/* Bytes of user stack copied per call: allocation sites are a few frames
 * (--profile-frames, 4 by default), and every byte of it is copied through
 * the ring buffer for every call; a frame beyond the copy ends the site. */
#define ALLOCPROBE_STACK 4096

/* How a probed function's size is found in its arguments; or what else
 * the probe is. */
enum allocprobe_size {
	AP_ARG0, AP_ARG1, AP_ARG2, AP_ARG0_X_ARG1,
	AP_FREE,		/* free(p): entry only */
	AP_RETURN,		/* the return of probe ret_of[i] */
	AP_SPAWN,		/* a thread- or process-creating function */
};

struct allocprobe {
	size_t n;
	const char **path;		/* per probe, owned by the callcount set */
	uint64_t *offset;
	unsigned *flags;		/* SAMPLE_UPROBE_* */
	enum allocprobe_size *size;
	size_t *ret_of;			/* AP_RETURN: its entry probe */
	unsigned char *frees_arg0;	/* realloc: the entry frees its first argument */
	unsigned char *out_arg0;	/* posix_memalign: the pointer goes to *arg0 */
	struct sample_opts so;
	unsigned frames;		/* frames per site (--profile-frames) */
	int inherit;			/* trace events (tp): every thread and process */
	struct uprobe_trace tp;
	char *trace_why;		/* why not inherit, or NULL */
};

/* From a callcount set resolved in uprobe mode for "allocs". With trace,
 * the probes are made as trace events in tracefs where pmustat may
 * (inherit set: every thread and process of the run is sampled), else and
 * without trace they are the uprobe PMU's (the main thread only, the
 * spawning functions probed too; trace_why says why). -1 with err when a
 * probed function's arguments are not known here. */
int allocprobe_init(struct allocprobe *ap, const struct callcount_set *cs, int uprobe_type,
		    unsigned frames, int trace, struct error *err);
void allocprobe_release(struct allocprobe *ap);

struct allocprobe_event;

/* The records, mappings, stack copies and unwinding are the stack-sampling
 * pipeline's (backend/stackpipe.h), shared with the time profiler; a run
 * here says what a uprobe sample means. */
struct allocprobe_run {
	const struct allocprobe *ap;
	struct stackpipe pipe;		/* the traced process stopped while it unwinds */
	int offline;			/* fed by allocprobe_feed, not by perf */
	uint64_t spawns, noregs;
	char *bad;			/* a sample of no probe opened */
	/* every heap event in the order the CPUs' buffers gave them, for the
	 * temporaries; posix_memalign's stack copies at its returns */
	struct allocprobe_event *ev;
	size_t nev, ev_alloc;
	unsigned char *outs;
	size_t nouts, outs_alloc;
	/* the entries unwound so far, summed into sites (one image per pid) */
	struct callcount_sites sites;
	size_t *sites_alloc;		/* per image */
	uint32_t *img_pid;		/* per image: its process */
};

/* Open the probes on pid (stopped before exec) and start the reader. */
int allocprobe_attach(struct allocprobe_run *r, const struct allocprobe *ap, pid_t pid,
		      struct error *err);

/* What the reader does with each record it copies out (a sample_read
 * callback, ctx the run). A run of records that came from elsewhere than
 * perf, a test's or a fuzzer's, starts with allocprobe_run_offline, is fed
 * record by record, and ends with allocprobe_finish like any other. */
void allocprobe_feed(void *ctx, const struct sample_rec *rec);
void allocprobe_run_offline(struct allocprobe_run *r, const struct allocprobe *ap);

/*
 * After the run: stop the reader, unwind every hit and sum the sites into
 * out (one image per process), temporaries included. spawns = calls of the
 * spawning functions; lost = hits the kernel could not write (then the
 * counts are low). -1 with err when a buffer was corrupt or the calls and
 * returns do not pair up.
 */
int allocprobe_finish(struct allocprobe_run *r, struct callcount_sites *out, uint64_t *spawns,
		      uint64_t *lost, struct error *err);
void allocprobe_run_release(struct allocprobe_run *r);

#endif
