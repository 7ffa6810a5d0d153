/*
 * Sampling with perf_event_open (see sample.h). The records of a ring buffer
 * are variable-length and may wrap at the end of the buffer; a wrapped one is
 * copied out whole before it is parsed. The layout of each record follows
 * include/uapi/linux/perf_event.h: a sample's fields come in the order of the
 * PERF_SAMPLE_* bits (IP, TID, PERIOD, CALLCHAIN, REGS_USER, STACK_USER for
 * what we ask; the registers in the order of the bits of sample_regs_user,
 * arch/x86/include/uapi/asm/perf_regs.h and arch/arm64/...), MMAP2
 * carries pid, tid, addr, len, pgoff, device and inode, prot, flags and the
 * file name.
 */
#include "backend/sample.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/sort.h"
#include "core/strbuf.h"
#include "host/sysctl.h"
#include "host/checks.h"

/*
 * The user registers asked for with SAMPLE_CHAIN_DWARF, and where each goes
 * in DWARF's numbering (the System V x86-64 psABI, figure 3.36: rax rdx rcx
 * rbx rsi rdi rbp rsp r8-r15, then the return address rip as 16; the
 * AArch64 DWARF ABI: x0-x30 0-30, sp 31, and the pc kept apart as 32).
 */
#if defined(__x86_64__)
/* perf's x86 order: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15 */
static const signed char perf_to_dwarf[24] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, -1, -1, -1, -1, -1, -1, -1,
	8, 9, 10, 11, 12, 13, 14, 15,
};
#define REGS_MASK 0xff01ffull	/* AX..IP and R8..R15 */
#define NPERF_REGS 24
#elif defined(__aarch64__)
/* perf's arm64 order: X0..X30 SP PC, the same as DWARF's with the pc as 32 */
static const signed char perf_to_dwarf[33] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
};
#define REGS_MASK 0x1ffffffffull
#define NPERF_REGS 33
#else
#define REGS_MASK 0ull
#define NPERF_REGS 0
#endif

int sample_dwarf_supported(void)
{
	return REGS_MASK != 0;
}

static void fill_attr(struct perf_event_attr *a, const struct sample_opts *o, int inherit)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (o->event == SAMPLE_UPROBE) {
		/* probe 0; sample_open sets config1/config2 for the others */
		a->type = (uint32_t)o->uprobe_type;
		a->config = 0;	/* "retprobe" (format/retprobe: config:0) off */
		a->config1 = (uint64_t)(uintptr_t)o->uprobe_path[0];
		a->config2 = o->uprobe_offset[0];
		a->sample_period = 1;
		inherit = o->uprobe_tp != NULL;	/* the PMU's config1 is our pointer: sample.h */
		if (o->uprobe_tp) {	/* a trace event: its id, no pointer */
			a->type = PERF_TYPE_TRACEPOINT;
			a->config = o->uprobe_tp[0];
			a->config1 = a->config2 = 0;
		}
		/* which probe wrote a sample, and when: the calls of a task that
		 * moved between CPUs are put back in order by the time, one
		 * clock for all CPUs */
		a->use_clockid = 1;
		a->clockid = CLOCK_MONOTONIC;
	} else if (o->event == SAMPLE_CYCLES) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_CPU_CYCLES;
	} else {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
	}
	if (o->event != SAMPLE_UPROBE && o->period) {
		a->sample_period = o->period;
	} else if (o->event != SAMPLE_UPROBE) {
		a->freq = 1;
		a->sample_freq = o->freq;
	}
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	if (o->event == SAMPLE_UPROBE)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME;
	if (o->chain == SAMPLE_CHAIN_FP)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->chain == SAMPLE_CHAIN_DWARF) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = REGS_MASK;
		a->sample_stack_user = o->stack_bytes ? o->stack_bytes : SAMPLE_STACK_MAX;
	}
	a->disabled = 1;
	a->enable_on_exec = 1;
	a->inherit = (unsigned)inherit;
	a->exclude_hv = 1;
	a->exclude_kernel = (unsigned)o->exclude_kernel;
	a->exclude_callchain_kernel = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
}

static int open_event(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* SAMPLE_UPROBE: the attributes of probe p, from probe 0's. */
static void probe_attr(struct perf_event_attr *a, const struct sample_opts *o, size_t p)
{
	unsigned f = o->uprobe_flags ? o->uprobe_flags[p] : 0;

	if (o->uprobe_tp) {	/* entry or return: the trace event says */
		a->config = o->uprobe_tp[p];
	} else {
		a->config = (f & SAMPLE_UPROBE_RET) ? 1 : 0;	/* format/retprobe: config:0 */
		a->config1 = (uint64_t)(uintptr_t)o->uprobe_path[p];
		a->config2 = o->uprobe_offset[p];
	}
	if (o->chain == SAMPLE_CHAIN_DWARF)
		a->sample_stack_user = (f & SAMPLE_UPROBE_NOSTACK) ? 0 :
				       o->stack_bytes ? o->stack_bytes : SAMPLE_STACK_MAX;
}

/* Keep the kernel's id of probe p's event fd (what PERF_SAMPLE_IDENTIFIER
 * carries); the set was sized for every probe on every CPU. */
static int keep_id(struct sample_set *s, int fd, size_t p)
{
	uint64_t id;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -1;
	s->ids[s->nids++] = (struct sample_id){ id, p };
	return 0;
}

static int id_cmp(const void *a, const void *b)
{
	const struct sample_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Which probe wrote the sample with this identifier; -1 if none. */
static long probe_of_id(const struct sample_set *s, uint64_t id)
{
	size_t lo = 0, hi = s->nids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->ids[mid].id == id)
			return (long)s->ids[mid].probe;
		if (s->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static void refusal(const struct sample_opts *o, int errnum, struct error *err)
{
	int max = 0;

	if (errnum == EINVAL && !host_sysctl_int("kernel/perf_event_max_sample_rate", &max) &&
	    max > 0 && o->freq > (unsigned)max) {
		error_set(err, ERR_USAGE, "cannot sample at %u Hz: the kernel allows at most %d",
			  o->freq, max);
		error_hint(err, "lower --profile-rate, or raise 'sysctl "
			   "kernel.perf_event_max_sample_rate'");
		return;
	}
	error_set(err, ERR_RUNTIME, "cannot sample on %s: %s",
		  o->event == SAMPLE_CYCLES ? "cycles" :
		  o->event == SAMPLE_UPROBE ? "uprobes" : "cpu-clock", strerror(errnum));
	if (o->event == SAMPLE_UPROBE && (errnum == EACCES || errnum == EPERM))
		error_hint(err, CHECKS_UPROBE_NEEDS ": run pmustat as root, or "
			   CHECKS_UPROBE_SETCAP);
	else if (errnum == EACCES || errnum == EPERM)
		error_hint(err, "run as root, or lower kernel.perf_event_paranoid ('pmustat doctor')");
	else
		error_hint(err, "see 'pmustat doctor' for what this host can measure");
}

int sample_probe(const struct sample_opts *o, struct error *err)
{
	struct perf_event_attr a;
	int fd;

	fill_attr(&a, o, 0);
	a.enable_on_exec = 0;
	if (o->event == SAMPLE_UPROBE)
		probe_attr(&a, o, 0);
	fd = open_event(&a, 0, -1);
	if (fd < 0) {
		refusal(o, errno, err);
		return -1;
	}
	close(fd);
	return 0;
}

static void cleanup(struct sample_set *s)
{
	for (size_t i = 0; s->extra && i < s->ncpu * (s->o.nuprobes - 1); i++)
		if (s->extra[i] >= 0)
			close(s->extra[i]);
	free(s->extra);
	s->extra = NULL;
	free(s->ids);
	s->ids = NULL;
	s->nids = 0;
	for (size_t i = 0; i < s->ncpu; i++) {
		if (s->map && s->map[i])
			munmap(s->map[i], (s->pages + 1) * s->page_size);
		if (s->fd && s->fd[i] >= 0)
			close(s->fd[i]);
	}
	free(s->fd);
	free(s->map);
	s->fd = NULL;
	s->map = NULL;
	s->ncpu = 0;
}

/* SAMPLE_UPROBE: probes 1.. on CPU i, writing into probe 0's buffer; the
 * side records (mmap, comm, task) come once, from probe 0. */
static int open_more(struct sample_set *s, const struct perf_event_attr *a0, pid_t pid,
		     size_t i)
{
	struct perf_event_attr a = *a0;
	size_t n = s->o.event == SAMPLE_UPROBE ? s->o.nuprobes : 0;

	if (n && keep_id(s, s->fd[i], 0))
		return -1;
	if (n < 2)
		return 0;
	if (!s->extra) {
		s->extra = xcalloc(s->ncpu * (n - 1), sizeof(int));
		for (size_t k = 0; k < s->ncpu * (n - 1); k++)
			s->extra[k] = -1;
	}
	a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = 0;
	for (size_t p = 1; p < n; p++) {
		int fd;

		probe_attr(&a, &s->o, p);
		fd = open_event(&a, pid, (int)i);
		if (fd < 0)
			return -1;
		s->extra[i * (n - 1) + p - 1] = fd;
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->fd[i]) < 0 || keep_id(s, fd, p))
			return -1;
	}
	return 0;
}

int sample_open(struct sample_set *s, pid_t pid, const struct sample_opts *o,
		struct error *err)
{
	struct perf_event_attr a;
	long n = sysconf(_SC_NPROCESSORS_CONF);
	size_t opened = 0;
	int errnum = 0;

	memset(s, 0, sizeof(*s));
	s->o = *o;
	s->ncpu = n > 0 ? (size_t)n : 1;
	s->pages = o->pages ? o->pages : 256;
	s->page_size = (size_t)sysconf(_SC_PAGESIZE);
	s->fd = xcalloc(s->ncpu, sizeof(int));
	s->map = xcalloc(s->ncpu, sizeof(void *));
	fill_attr(&a, o, 1);
	if (o->event == SAMPLE_UPROBE) {
		probe_attr(&a, o, 0);
		s->ids = xcalloc(s->ncpu * (o->nuprobes ? o->nuprobes : 1), sizeof(*s->ids));
	}
	/* Wake a reader polling the fds when a quarter of a buffer is written. */
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(s->pages * s->page_size / 4);
	for (size_t i = 0; i < s->ncpu; i++) {
		void *m;

		s->fd[i] = open_event(&a, pid, (int)i);
		if (s->fd[i] < 0) {
			errnum = errno;	/* an offline CPU: ENODEV; others say why below */
			continue;
		}
		m = mmap(NULL, (s->pages + 1) * s->page_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 s->fd[i], 0);
		if (m == MAP_FAILED) {
			errnum = errno;
			close(s->fd[i]);
			s->fd[i] = -1;
			continue;
		}
		s->map[i] = m;
		if (open_more(s, &a, pid, i)) {
			errnum = errno;
			break;
		}
		opened++;
	}
	if (o->event == SAMPLE_UPROBE && opened < s->ncpu && errnum != ENODEV)
		opened = 0;	/* a probe missing on a CPU would lose calls */
	if (!opened) {
		refusal(o, errnum, err);
		cleanup(s);
		return -1;
	}
	sort_n(s->ids, s->nids, sizeof(*s->ids), id_cmp);
	return 0;
}

/* The user frames of a call chain: after PERF_CONTEXT_USER, markers left out. */
static size_t user_chain(const uint64_t *ips, uint64_t nr, uint64_t *out)
{
	size_t n = 0;
	int user = 0;

	for (uint64_t i = 0; i < nr && n < SAMPLE_MAX_CHAIN; i++) {
		if (ips[i] >= (uint64_t)PERF_CONTEXT_MAX) {
			user = ips[i] == (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		if (user)
			out[n++] = ips[i];
	}
	return n;
}

struct cursor {
	const unsigned char *p, *end;
};

static int take(struct cursor *c, void *out, size_t len)
{
	if ((size_t)(c->end - c->p) < len)
		return -1;
	memcpy(out, c->p, len);
	c->p += len;
	return 0;
}

/* REGS_USER (abi, then one value per bit of the mask) and STACK_USER (size,
 * the bytes, and when size is not 0 the size actually copied). */
static int parse_user(struct cursor *c, struct sample_rec *r, uint64_t *regs)
{
	uint64_t abi, v, size, dyn;
	size_t k = 0;

	if (take(c, &abi, 8))
		return -1;
	if (abi != PERF_SAMPLE_REGS_ABI_NONE) {
		for (int bit = 0; bit < 64; bit++) {
			if (!(REGS_MASK & (1ull << bit)))
				continue;
			if (take(c, &v, 8))
				return -1;
#if NPERF_REGS
			if (bit < NPERF_REGS && perf_to_dwarf[bit] >= 0)
				regs[perf_to_dwarf[bit]] = v;
#endif
			k++;
		}
		r->regs = regs;
		r->nregs = k ? SAMPLE_NREGS : 0;
	}
	if (take(c, &size, 8) || size > (uint64_t)(c->end - c->p))
		return -1;
	if (!size)
		return 0;
	r->stack = c->p;
	c->p += size;
	if (take(c, &dyn, 8))
		return -1;
	r->stack_len = (size_t)(dyn < size ? dyn : size);
	if (!r->nregs)
		r->stack_len = 0;
	return 0;
}

static int parse_sample(const struct sample_set *s, struct cursor *c, struct sample_rec *r)
{
	uint32_t ids[2];
	uint64_t nr = 0;
	static __thread uint64_t chain[SAMPLE_MAX_CHAIN];
	static __thread uint64_t regs[SAMPLE_NREGS];

	r->type = SREC_SAMPLE;
	r->probe = -1;
	if (s->o.event == SAMPLE_UPROBE) {
		uint64_t id;

		if (take(c, &id, 8))
			return -1;
		r->probe = probe_of_id(s, id);
	}
	if (take(c, &r->ip, 8) || take(c, ids, 8))
		return -1;
	if (s->o.event == SAMPLE_UPROBE && take(c, &r->time, 8))
		return -1;
	if (take(c, &r->period, 8))
		return -1;
	r->pid = ids[0];
	r->tid = ids[1];
	if (s->o.chain == SAMPLE_CHAIN_FP) {
		if (take(c, &nr, 8) || nr > (uint64_t)(c->end - c->p) / 8)
			return -1;
		r->nchain = user_chain((const uint64_t *)(const void *)c->p, nr, chain);
		r->chain = chain;
	}
	if (s->o.chain == SAMPLE_CHAIN_DWARF) {
		memset(regs, 0, sizeof(regs));
		return parse_user(c, r, regs);
	}
	return 0;
}

static int parse_mmap2(struct cursor *c, struct sample_rec *r)
{
	uint32_t ids[2], devs[2], prot_flags[2];
	uint64_t ino[2];

	r->type = SREC_MMAP;
	if (take(c, ids, 8) || take(c, &r->start, 8) || take(c, &r->len, 8) ||
	    take(c, &r->pgoff, 8) || take(c, devs, 8) || take(c, ino, 16) ||
	    take(c, prot_flags, 8) || c->p >= c->end)
		return -1;
	r->pid = ids[0];
	r->tid = ids[1];
	if (!memchr(c->p, '\0', (size_t)(c->end - c->p)))
		return -1;
	r->path = (const char *)c->p;
	return (prot_flags[0] & PROT_EXEC) ? 0 : 1;
}

/* One record: 0 handed out, 1 skipped, -1 corrupt. */
static int parse_record(const struct sample_set *s, const struct perf_event_header *h,
			void (*cb)(void *, const struct sample_rec *), void *ctx)
{
	struct cursor c = { (const unsigned char *)(h + 1), (const unsigned char *)h + h->size };
	struct sample_rec r;
	uint32_t w[4];
	uint64_t v[2];
	int rc = 1;

	memset(&r, 0, sizeof(r));
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		rc = parse_sample(s, &c, &r);
		break;
	case PERF_RECORD_MMAP2:
		rc = parse_mmap2(&c, &r);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:	/* the same layout: pid, ppid, tid, ptid, time */
		rc = take(&c, w, 16);
		r.type = h->type == PERF_RECORD_FORK ? SREC_FORK : SREC_EXIT;
		r.pid = w[0];
		r.ppid = w[1];
		r.tid = w[2];
		break;
	case PERF_RECORD_COMM:
		rc = take(&c, w, 8);
		if (!rc && !(h->misc & PERF_RECORD_MISC_COMM_EXEC))
			rc = 1;
		r.type = SREC_EXEC;
		r.pid = w[0];
		r.tid = w[1];
		break;
	case PERF_RECORD_LOST:
		rc = take(&c, v, 16);
		r.type = SREC_LOST;
		r.lost = v[1];
		break;
	default:
		return 1;
	}
	if (rc == 0)
		cb(ctx, &r);
	return rc;
}

static int read_cpu(struct sample_set *s, size_t i, void (*cb)(void *, const struct sample_rec *),
		    void *ctx, struct error *err)
{
	struct perf_event_mmap_page *meta = s->map[i];
	const unsigned char *data = (const unsigned char *)s->map[i] + s->page_size;
	uint64_t size = (uint64_t)s->pages * s->page_size;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	unsigned char *copy = NULL;
	int rc = 0;

	while (tail < head && !rc) {
		struct perf_event_header h;
		uint64_t off = tail % size;

		for (size_t k = 0; k < sizeof(h); k++)
			((unsigned char *)&h)[k] = data[(off + k) % size];
		/* The kernel writes records of whole u64s: any other size is not one. */
		if (h.size < sizeof(h) || h.size > head - tail || h.size % 8) {
			rc = error_set(err, ERR_RUNTIME, "sampling buffer of CPU %zu is corrupt", i);
			break;
		}
		if (off + h.size > size) {	/* wraps: copy it out whole */
			copy = xrealloc(copy, h.size);
			memcpy(copy, data + off, size - off);
			memcpy(copy + (size - off), data, h.size - (size - off));
			parse_record(s, (const struct perf_event_header *)(void *)copy, cb, ctx);
		} else {
			parse_record(s, (const struct perf_event_header *)(const void *)(data + off),
				     cb, ctx);
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	free(copy);
	return rc;
}

double sample_fill(const struct sample_set *s)
{
	double most = 0, size = (double)s->pages * (double)s->page_size;

	for (size_t i = 0; i < s->ncpu; i++) {
		const struct perf_event_mmap_page *meta = s->map[i];
		uint64_t head, tail;

		if (!meta)
			continue;
		head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
		tail = meta->data_tail;
		if (head > tail && (double)(head - tail) / size > most)
			most = (double)(head - tail) / size;
	}
	return most;
}

int sample_read(struct sample_set *s, void (*cb)(void *ctx, const struct sample_rec *r),
		void *ctx, struct error *err)
{
	int rc = 0;

	for (size_t i = 0; i < s->ncpu; i++)
		if (s->map[i] && read_cpu(s, i, cb, ctx, err))
			rc = -1;
	return rc;
}

void sample_close(struct sample_set *s)
{
	cleanup(s);
}

/* ---- draining during the run -------------------------------------------- */

static void *reader(void *arg)
{
	struct sample_reader *rd = arg;
	size_t n = rd->set->ncpu;
	struct pollfd *pf = xcalloc(n + 1, sizeof(*pf));

	pf[0] = (struct pollfd){ rd->stop_fd, POLLIN, 0 };
	for (size_t i = 0; i < n; i++)
		pf[i + 1] = (struct pollfd){ rd->set->map[i] ? rd->set->fd[i] : -1, POLLIN, 0 };
	for (;;) {
		if (poll(pf, n + 1, -1) < 0)
			continue;	/* EINTR; signals are blocked here anyway */
		if (pf[0].revents)
			break;
		for (size_t i = 1; i <= n; i++)
			if (pf[i].revents & (POLLHUP | POLLERR))
				pf[i].fd = -1;	/* its task exited: nothing more comes */
		rd->drain(rd->ctx);
	}
	free(pf);
	return NULL;
}

void sample_reader_start(struct sample_reader *rd, struct sample_set *set,
			 void (*drain)(void *ctx), void *ctx)
{
	sigset_t all, old;

	*rd = (struct sample_reader){ set, drain, ctx, 0, -1, 0 };
	rd->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (rd->stop_fd < 0)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rd->running = pthread_create(&rd->thread, NULL, reader, rd) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!rd->running) {
		close(rd->stop_fd);
		rd->stop_fd = -1;
	}
}

void sample_reader_stop(struct sample_reader *rd)
{
	uint64_t one = 1;

	if (!rd->set)		/* never started (a zeroed reader) or stopped */
		return;
	if (rd->running) {
		while (write(rd->stop_fd, &one, sizeof(one)) < 0 && errno == EINTR)
			;
		pthread_join(rd->thread, NULL);
		rd->running = 0;
	}
	if (rd->stop_fd >= 0)
		close(rd->stop_fd);
	rd->stop_fd = -1;
	rd->set = NULL;
}
