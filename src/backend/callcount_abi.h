/*
 * The contract between pmustat and its LD_PRELOAD shim libpmustat-count.so
 * (lib/count/count.c), the call-counter fallback when uprobes are not
 * permitted. Both sides include this header; the shim is built from it
 * without the rest of pmustat.
 *
 * The parent creates an empty file in a private directory and names it in
 * CALLCOUNT_FILE_ENV. Each process the shim is loaded into appends one START
 * record when it begins (constructor, or fork), and one END record when its
 * image ends (exit, _exit, or just before an exec), opening the file with
 * O_APPEND for each record. Records are small fixed-size appends, so the
 * kernel keeps them whole and ordered even when many processes report at
 * once; a file named by path, rather than an inherited pipe or descriptor,
 * means no process ever blocks on a parent still waiting for it, the
 * descriptor cannot be lost to a program that closes what it inherited, and
 * it works whoever forks the measured child (pmustat's spawn server passes
 * no descriptors but stderr). A process whose START has no END (killed by a
 * signal, or unable to open the file) lost its counts: the reader says so.
 *
 * Call sites (version 2): when CALLCOUNT_SITES_ENV names a frame count, the
 * shim also records, per distinct call stack of an allocating call (the
 * return addresses of the innermost frames, the allocation function's own
 * frame left out), the calls, the bytes asked for and the temporaries
 * (heaptrack's definition, see lib/count/count.c). An image ending writes
 * one SITE record per stack and one MAP record per executable segment of
 * every object it has loaded, then its END record: the reader symbolizes
 * the addresses with the maps of the same image. Records have a common
 * header whose size field gives the record's length.
 */
#ifndef PMU_BACKEND_CALLCOUNT_ABI_H
#define PMU_BACKEND_CALLCOUNT_ABI_H

#include <stdint.h>

#define CALLCOUNT_FILE_ENV "PMUSTAT_COUNT_FILE"
#define CALLCOUNT_MAGIC 0x746e6370u	/* "pcnt" little-endian */
#define CALLCOUNT_VERSION 2u
/* Frames per call site to record (1 .. CALLCOUNT_MAX_FRAMES); unset: none. */
#define CALLCOUNT_SITES_ENV "PMUSTAT_COUNT_SITES"
#define CALLCOUNT_MAX_FRAMES 8

/* The functions the shim interposes, in record order. */
enum callcount_slot {
	CC_MALLOC,
	CC_CALLOC,
	CC_REALLOC,
	CC_FREE,
	CC_ALIGNED_ALLOC,
	CC_POSIX_MEMALIGN,
	CC_MEMALIGN,
	CC_VALLOC,
	CC_NSLOTS
};

#define CALLCOUNT_SLOT_NAMES                                                  \
	{ "malloc", "calloc", "realloc", "free", "aligned_alloc",             \
	  "posix_memalign", "memalign", "valloc" }

enum callcount_rec_kind {
	CC_REC_START = 1,	/* a process image began counting (counts are 0) */
	CC_REC_EXIT = 2,	/* it ended: exit(), return from main, _exit() */
	CC_REC_EXEC = 3,	/* it is about to exec: its image's counts so far */
	CC_REC_SITE = 4,	/* one call site of the image ending (before its END) */
	CC_REC_MAP = 5,		/* one executable mapping of that image */
};

/* The first 16 bytes of every record. */
struct callcount_hdr {
	uint32_t magic;		/* CALLCOUNT_MAGIC */
	uint16_t version;	/* CALLCOUNT_VERSION */
	uint16_t kind;		/* enum callcount_rec_kind */
	int32_t pid;
	uint32_t size;		/* bytes of the whole record, a multiple of 8 */
};

/* The shim's table of distinct call stacks per process (a power of two). */
#define CC_SITE_SLOTS 16384u

/* The stacks were unwound by libunwind's unw_backtrace (else by glibc's
 * backtrace(), libgcc's unwinder). */
#define CC_FLAG_LIBUNWIND 1u

/* START, EXIT, EXEC. */
struct callcount_record {
	uint32_t magic;		/* the header's fields, flat */
	uint16_t version;
	uint16_t kind;
	int32_t pid;
	uint32_t size;		/* sizeof(struct callcount_record) */
	uint32_t nslots;	/* CC_NSLOTS */
	uint32_t flags;		/* CC_FLAG_*: how the image's sites were taken */
	uint64_t counts[CC_NSLOTS];
	uint64_t unsited;	/* allocating calls whose stack found no room in the
				 * shim's site table (counted, not placed) */
};

/* SITE: counts of one call stack, innermost return address first. */
struct callcount_site_rec {
	struct callcount_hdr h;
	uint32_t nframes;	/* 1 .. CALLCOUNT_MAX_FRAMES */
	uint32_t pad;
	uint64_t calls;		/* allocating calls (malloc ... valloc, realloc) */
	uint64_t bytes;		/* bytes they asked for */
	uint64_t temps;		/* of them, temporaries */
	uint64_t frames[CALLCOUNT_MAX_FRAMES];	/* return addresses */
};

/* MAP: [start, end) maps path from file offset pgoff (as /proc/PID/maps). */
struct callcount_map_rec {
	struct callcount_hdr h;
	uint64_t start, end, pgoff;
	char path[];		/* NUL-terminated; padded to h.size */
};

#endif
