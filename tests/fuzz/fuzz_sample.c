/*
 * Fuzz harness: the profiler's sampling records. The input is byte 0, the
 * call-chain mode (none, fp or dwarf: what the sample records carry; 3:
 * the uprobe samples of the allocation call sites, dwarf with the probe's
 * identifier and the time, identifiers 1-3 known as probes 0-2), byte 1,
 * where in the ring the records start (so that records wrap at the end of
 * the buffer), then the bytes of a perf ring buffer: what the kernel would
 * have written. They are read by sample_read from a ring of one page laid
 * out as the kernel's (a metadata page, then the data), and every record
 * handed out is read whole; with dwarf, each sample's registers and stack
 * copy are then unwound by backend/unwind.c against this process's own
 * executable mappings, as the profiler unwinds a measured program's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/sample.h"
#include "backend/symbols.h"
#include "backend/unwind.h"
#include "fuzz.h"

static struct symbolizer *self_sy;
static volatile uint64_t sink;
static struct unwinder *self_uw;

/* This process's executable file mappings, as MMAP2 records would give them. */
static void self_space(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];

	if (!f)
		fuzz_die("/proc/self/maps", "cannot be read");
	self_sy = symbolizer_new();
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8], path[4096] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start, &end, perms, &off,
			   path) >= 4 && perms[2] == 'x' && path[0] == '/')
			symbolizer_add_map(self_sy, start, end - start, off, path, NULL);
	}
	fclose(f);
	self_uw = unwinder_new(self_sy, (uint32_t)getpid());
}

struct seen {
	uint64_t sum;
};

static void on_record(void *ctx, const struct sample_rec *r)
{
	struct seen *s = ctx;
	uint64_t pcs[32];

	s->sum += r->ip + r->period + r->pid + r->tid + r->lost + r->start + r->len + r->time +
		  (uint64_t)r->probe;
	for (size_t i = 0; i < r->nchain; i++)
		s->sum += r->chain[i];
	if (r->path)
		s->sum += strlen(r->path);
	for (size_t i = 0; i < r->stack_len; i++)
		s->sum += r->stack[i];
	if (r->type == SREC_SAMPLE && r->nregs == SAMPLE_NREGS && self_uw) {
		int n = unwinder_frames(self_uw, (uint32_t)getpid(), r->regs, r->stack,
					r->stack_len, pcs, 32);

		for (int i = 0; i < n; i++)
			s->sum += pcs[i];
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sample_set set;
	struct seen seen = { 0 };
	struct error err;
	static const char *paths[3] = { "/a", "/b", "/c" };
	static const uint64_t offsets[3] = { 0x10, 0x20, 0x30 };
	struct sample_id ids[3] = { { 1, 0 }, { 2, 1 }, { 3, 2 } };
	static int ready;

	if (!ready) {
		ready = 1;
		self_space();
	}
	if (size < 2)
		return 0;
	memset(&set, 0, sizeof(set));
	set.o.chain = (enum sample_chain)(data[0] % 4 == 3 ? SAMPLE_CHAIN_DWARF : data[0] % 4);
	if (data[0] % 4 == 3) {
		set.o.event = SAMPLE_UPROBE;
		set.o.uprobe_path = paths;
		set.o.uprobe_offset = offsets;
		set.o.nuprobes = 3;
		set.ids = ids;
		set.nids = 3;
	}
	fuzz_ring(&set, data[1], data + 2, size - 2);
	error_clear(&err);
	sample_read(&set, on_record, &seen, &err);
	sink = seen.sum;	/* every field was read */
	return 0;
}
