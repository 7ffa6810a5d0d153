/*
 * Fuzz harness: the static-allocation tracer's records (backend/allocprobe.c).
 * The input is byte 0, where in the ring the records start, then the bytes
 * of a perf ring buffer as the kernel writes it for the allocation uprobes
 * (PERF_SAMPLE_IDENTIFIER, TIME, user registers and a stack copy; MMAP2,
 * FORK, LOST records). Identifiers 1-8 are the probes of one traced
 * program: malloc's entry and return, free, realloc's entry and return,
 * posix_memalign's entry and return (its pointer read from the stack copy),
 * and a spawning function. Every record goes through allocprobe_feed as
 * the reader thread hands it over; allocprobe_finish then unwinds the hits
 * against the mappings the records named (paths the input chooses: a FIFO
 * or a device must be refused, not opened), pairs calls with returns and
 * counts temporaries. The seeds are records of these probes in a
 * plausible order (tests/fuzz/corpus/allocprobe).
 */
#include <stdlib.h>
#include <string.h>

#include "backend/allocprobe.h"
#include "fuzz.h"

#define NPROBES 8

static const char *paths[NPROBES] = { "/p", "/p", "/p", "/p", "/p", "/p", "/p", "/p" };
static uint64_t offsets[NPROBES] = { 0x10, 0x10, 0x20, 0x30, 0x30, 0x40, 0x40, 0x50 };
static unsigned flags[NPROBES];
static enum allocprobe_size sizes[NPROBES] = { AP_ARG0, AP_RETURN, AP_FREE, AP_ARG1,
					       AP_RETURN, AP_ARG2, AP_RETURN, AP_SPAWN };
static size_t ret_of[NPROBES] = { 0, 0, 0, 0, 3, 0, 5, 0 };
static unsigned char frees_arg0[NPROBES] = { 0, 0, 0, 1, 0, 0, 0, 0 };
static unsigned char out_arg0[NPROBES] = { 0, 0, 0, 0, 0, 1, 0, 0 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct allocprobe ap = { .n = NPROBES, .path = paths, .offset = offsets, .flags = flags,
				 .size = sizes, .ret_of = ret_of, .frees_arg0 = frees_arg0,
				 .out_arg0 = out_arg0, .frames = 4 };
	struct sample_id ids[NPROBES];
	struct allocprobe_run r;
	struct callcount_sites out;
	uint64_t spawns, lost;
	struct error err;

	if (size < 1)
		return 0;
	for (size_t i = 0; i < NPROBES; i++)
		ids[i] = (struct sample_id){ i + 1, i };
	ap.so.event = SAMPLE_UPROBE;
	ap.so.chain = SAMPLE_CHAIN_DWARF;
	ap.so.uprobe_path = paths;
	ap.so.uprobe_offset = offsets;
	ap.so.uprobe_flags = flags;
	ap.so.nuprobes = NPROBES;
	allocprobe_run_offline(&r, &ap);
	r.pipe.set.o = ap.so;
	r.pipe.set.ids = ids;
	r.pipe.set.nids = NPROBES;
	fuzz_ring(&r.pipe.set, data[0], data + 1, size - 1);
	error_clear(&err);
	sample_read(&r.pipe.set, allocprobe_feed, &r, &err);	/* what was read before an error is kept */
	memset(&r.pipe.set, 0, sizeof(r.pipe.set));	/* the ring is the harness's */
	if (allocprobe_finish(&r, &out, &spawns, &lost, &err) == 0)
		callcount_sites_release(&out);
	allocprobe_run_release(&r);
	return 0;
}
