/*
 * The perf_event sampling backend: where a measured run spends its time.
 * One sampling event per CPU is opened on the child before it execs
 * (disabled, enable_on_exec, inherit: the run's whole process tree), each
 * with its own ring buffer, because the kernel refuses to mmap an inherited
 * per-task event that is not bound to a CPU. Samples carry the IP, pid/tid,
 * the period and, when asked, the user call chain; the kernel's MMAP2,
 * FORK, COMM and EXIT records say which file each address belongs to, so
 * the run can be symbolized after it ended.
 *
 * The event is the hardware `cycles` where the host counts it, else the
 * software `cpu-clock` (hrtimer-driven; works in VMs without a PMU); the
 * caller says which and says so in a note. A sample's period is then cycles
 * or nanoseconds of CPU time.
 *
 * Invariants: records are read after the run (the buffers are sized for
 * it; what did not fit is counted in lost, never silently dropped); a set
 * owns its fds and mappings and frees them on close.
 */
#ifndef PMU_BACKEND_SAMPLE_H
#define PMU_BACKEND_SAMPLE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/error.h"

/*
 * SAMPLE_UPROBE: every call of the functions at the given file offsets, one
 * sample per call (sample_period 1), through the kernel's uprobe PMU
 * (attr.type from sysfs, config1 a pointer to the path, config2 the file
 * offset, config bit 0 "retprobe" set for a return probe: the kernel's
 * /sys/bus/event_source/devices/uprobe/format/retprobe is "config:0"). The
 * probes of a CPU share one ring buffer (PERF_EVENT_IOC_SET_OUTPUT); a
 * sample's ip is the probed address (an entry probe) or the return address
 * (a return probe). Each sample says which probe wrote it
 * (PERF_SAMPLE_IDENTIFIER, mapped back through PERF_EVENT_IOC_ID) and when
 * (PERF_SAMPLE_TIME on CLOCK_MONOTONIC, one clock for every CPU), so that
 * the calls of a task that moved between CPUs can be put back in order.
 * Not inherited: an inherited uprobe event re-reads config1, a pointer
 * valid in this process only (backend/callcount.h), so the samples are the
 * task's (main thread's) own, across exec. Unless uprobe_tp gives the
 * probes as trace events made in tracefs (backend/uprobe_trace.h): then
 * they are PERF_TYPE_TRACEPOINT events of those ids, inherited like the
 * other sampling events, so every thread and process of the run is sampled.
 */
enum sample_event { SAMPLE_CPU_CLOCK, SAMPLE_CYCLES, SAMPLE_UPROBE };

/*
 * User call chains: none; the kernel's walk of the frame-pointer chain
 * (PERF_SAMPLE_CALLCHAIN: cheap, but garbage above a function built without
 * frame pointers); or a copy of the top of the user stack with the user
 * registers (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER), unwound after
 * the run from the objects' DWARF call-frame information (backend/unwind.h),
 * as `perf record --call-graph dwarf` does. x86-64 and arm64 only.
 */
enum sample_chain { SAMPLE_CHAIN_NONE, SAMPLE_CHAIN_FP, SAMPLE_CHAIN_DWARF };

/* Bytes of user stack copied per sample in SAMPLE_CHAIN_DWARF: the most
 * the kernel takes (a record's size is 16 bits; perf's limit too). */
#define SAMPLE_STACK_MAX 65528
/* User registers per sample in SAMPLE_CHAIN_DWARF, in DWARF numbering. */
#define SAMPLE_NREGS 33

struct sample_opts {
	enum sample_event event;
	unsigned freq;		/* samples per second of CPU time (attr.freq) */
	enum sample_chain chain;	/* how user call chains are recorded */
	unsigned stack_bytes;		/* SAMPLE_CHAIN_DWARF: stack copied, a multiple of 8 */
	size_t pages;		/* ring buffer data pages per CPU (a power of two) */
	int exclude_kernel;	/* user space only (perf_event_paranoid forbids more) */
	unsigned period;	/* a sample every period events (attr.sample_period); 0: freq */
	/* SAMPLE_UPROBE: nuprobes probes, each at (uprobe_path[i],
	 * uprobe_offset[i]); the strings must outlive the set. freq unused. */
	int uprobe_type;
	const char *const *uprobe_path;
	const uint64_t *uprobe_offset;
	const unsigned *uprobe_flags;	/* per probe, SAMPLE_UPROBE_*; NULL: all 0 */
	size_t nuprobes;
	const uint64_t *uprobe_tp;	/* per probe, its tracepoint id; NULL: the PMU */
};

/* uprobe_flags: a return probe; no stack copy (registers only). */
#define SAMPLE_UPROBE_RET 1u
#define SAMPLE_UPROBE_NOSTACK 2u

#define SAMPLE_MAX_CHAIN 64

enum sample_rec_type { SREC_SAMPLE, SREC_MMAP, SREC_FORK, SREC_EXEC, SREC_EXIT, SREC_LOST };

/* One record, as the reader hands it out (pointers valid during the call). */
struct sample_rec {
	enum sample_rec_type type;
	uint32_t pid, tid;
	uint64_t ip, period;		/* SREC_SAMPLE */
	uint64_t time;			/* SREC_SAMPLE of SAMPLE_UPROBE: CLOCK_MONOTONIC ns */
	long probe;			/* SREC_SAMPLE of SAMPLE_UPROBE: which probe, -1
					 * when the identifier is none of the set's */
	const uint64_t *chain;		/* SAMPLE_CHAIN_FP: user frames, ip first */
	size_t nchain;
	/* SAMPLE_CHAIN_DWARF: the user registers in DWARF numbering (nregs of
	 * them, 0 when the sample hit the kernel with no user context), and the
	 * copy of the user stack from the stack pointer up. */
	const uint64_t *regs;
	size_t nregs;
	const unsigned char *stack;
	size_t stack_len;
	uint64_t start, len, pgoff;	/* SREC_MMAP (executable mappings only) */
	const char *path;		/* SREC_MMAP */
	uint32_t ppid;			/* SREC_FORK, SREC_EXIT */
	uint64_t lost;			/* SREC_LOST: records the kernel could not write */
};

struct sample_id {
	uint64_t id;
	size_t probe;
};

struct sample_set {
	int *fd;		/* per CPU, -1 when not opened */
	int *extra;		/* SAMPLE_UPROBE: the other probes' fds, per CPU
				 * (nuprobes - 1 each), writing into fd's buffer */
	void **map;		/* per CPU ring buffer, or NULL */
	struct sample_id *ids;	/* SAMPLE_UPROBE: the kernel's id of each probe's
				 * event (per CPU), sorted by id once opened */
	size_t nids;
	size_t ncpu, pages, page_size;
	struct sample_opts o;
};

/* Does this build know the user registers of its architecture (dwarf chains)? */
int sample_dwarf_supported(void);

/* Can this host sample this event at all? Opens and closes one on the
 * calling process. -1 with err (the kernel's refusal in words, with the
 * perf_event_max_sample_rate when the rate is too high). */
int sample_probe(const struct sample_opts *o, struct error *err);

/* Open the per-CPU sampling events on pid (stopped before exec). */
int sample_open(struct sample_set *s, pid_t pid, const struct sample_opts *o,
		struct error *err);

/* The fullest buffer's unread share (0 empty, 1 full). */
double sample_fill(const struct sample_set *s);

/* Hand every record to cb, oldest first per CPU. Returns 0, or -1 with err
 * when a buffer is corrupt (the records before it were handed out). */
int sample_read(struct sample_set *s, void (*cb)(void *ctx, const struct sample_rec *r),
		void *ctx, struct error *err);

void sample_close(struct sample_set *s);

/*
 * A thread that drains a set's ring buffers while the run goes on: it
 * sleeps in poll() on the set's fds (woken when a quarter of a buffer is
 * written, see sample_open) and calls drain(ctx) each time; drain reads
 * with sample_read. It runs with every signal blocked (the campaign's
 * signal fd keeps them), touches only what drain touches, and is joined by
 * sample_reader_stop before the caller looks at what drain collected.
 * When the thread cannot be made, reading is left to the caller at the
 * end (a full buffer then shows as lost samples).
 */
struct sample_reader {
	struct sample_set *set;
	void (*drain)(void *ctx);
	void *ctx;
	pthread_t thread;
	int stop_fd;		/* eventfd: the thread stops */
	int running;
};

void sample_reader_start(struct sample_reader *rd, struct sample_set *set,
			 void (*drain)(void *ctx), void *ctx);
/* Stop and join the thread; nothing for a reader never started (zeroed)
 * or already stopped. */
void sample_reader_stop(struct sample_reader *rd);

#endif
