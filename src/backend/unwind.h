/*
 * The unwinder of the time profiler's dwarf call chains: a sample's user
 * registers and its copy of the top of the user stack (backend/sample.h,
 * SAMPLE_CHAIN_DWARF) turned into the return addresses of the calls it was
 * in, from the call-frame information of the objects mapped then (.eh_frame,
 * or .debug_frame from the debug file), with elfutils' libdwfl unwinder.
 *
 * Invariants: an unwinder describes the address space of one process, as
 * its symbolizer does (the files and biases are taken from it); unwinding
 * reads nothing of the process but the copied stack, so it stops where the
 * copy ends or where an object has no call-frame information. Not
 * thread-safe.
 */
#ifndef PMU_BACKEND_UNWIND_H
#define PMU_BACKEND_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "backend/symbols.h"

struct unwinder;

/* An unwinder for the address space sy describes; NULL when libdwfl cannot
 * unwind for this architecture, or memory ran out inside libdw (then the
 * campaign stops after the run: core/oomguard.h). An unwinder inside which
 * memory ran out unwinds nothing more (1 pc) and is left alone by
 * unwinder_free. */
struct unwinder *unwinder_new(struct symbolizer *sy, uint32_t pid);
void unwinder_free(struct unwinder *u);

/*
 * The frames of one sample of thread tid: pcs[0] the sampled address, then
 * one address inside each call instruction the stack holds (a return
 * address minus one, what a symbolizer should look up), innermost first.
 * regs are SAMPLE_NREGS user registers in DWARF numbering; stack the copy
 * of stack_len bytes from the stack pointer up. Returns the number of pcs
 * filled (at least 1), at most max.
 */
/* The pc among SAMPLE_NREGS user registers in DWARF numbering. */
uint64_t unwind_regs_pc(const uint64_t *regs);

int unwinder_frames(struct unwinder *u, uint32_t tid, const uint64_t *regs,
		    const unsigned char *stack, size_t stack_len, uint64_t *pcs, int max);

#endif
