/*
 * The counters of one thread. Events are opened on the calling thread only
 * (pid 0, any CPU, no inherit), enabled at once, and never stopped: a region
 * is the difference of two readings, so nested and overlapping regions share
 * one set of counters. Each group is read with one read() (PERF_FORMAT_GROUP,
 * with time_enabled/time_running so multiplexing stays visible), or without
 * a system call through the perf mmap page and the rdpmc instruction when
 * the kernel allows it (cap_user_rdpmc: rdpmc on x86, mrs on arm64). A group whose event
 * is off its hardware counter at the instant of a read falls back to read().
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib.h"

#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
		     PERF_FORMAT_TOTAL_TIME_RUNNING)
#define SEQ_RETRIES 1000	/* the kernel's writer never holds the lock long */

#if defined(__x86_64__) || defined(__i386__)
static uint64_t native_rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t native_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

const struct pm_pmc_ops pmustat__pmc_native = { native_rdpmc, native_rdtsc };
#elif defined(__aarch64__)
/*
 * arm64 (Linux Documentation/arch/arm64/perf.rst, "User space access"): with
 * kernel.perf_user_access=1 and attr.config1 bit 1 set, the mmap page's
 * index - 1 names the counter: 0..30 an event counter PMEVCNTR<n>_EL0, 31
 * the cycle counter PMCCNTR_EL0; time runs on the virtual counter
 * CNTVCT_EL0. An mrs names its register in the instruction, so each event
 * counter needs its own.
 */
#define EVCNTR(n) case n: __asm__ volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break;

static uint64_t native_rdpmc(uint32_t counter)
{
	uint64_t v = 0;

	switch (counter) {
	EVCNTR(0) EVCNTR(1) EVCNTR(2) EVCNTR(3) EVCNTR(4) EVCNTR(5) EVCNTR(6) EVCNTR(7)
	EVCNTR(8) EVCNTR(9) EVCNTR(10) EVCNTR(11) EVCNTR(12) EVCNTR(13) EVCNTR(14)
	EVCNTR(15) EVCNTR(16) EVCNTR(17) EVCNTR(18) EVCNTR(19) EVCNTR(20) EVCNTR(21)
	EVCNTR(22) EVCNTR(23) EVCNTR(24) EVCNTR(25) EVCNTR(26) EVCNTR(27) EVCNTR(28)
	EVCNTR(29) EVCNTR(30)
	case 31:
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	}
	return v;
}

static uint64_t native_rdtsc(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

const struct pm_pmc_ops pmustat__pmc_native = { native_rdpmc, native_rdtsc };
#else
const struct pm_pmc_ops pmustat__pmc_native = { NULL, NULL };
#endif

/* arm64's request for user-space reads of an event's counter (format term
 * "rdpmc" of armv8_pmuv3: config1:1). Only the types the core PMU serves
 * take it: another PMU's config1 means something else. */
#define ARM64_USER_READ ((uint64_t)1 << 1)

static int wants_user_read_bit(const struct perf_event_attr *a)
{
#if defined(__aarch64__)
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_RAW ||
	       a->type == PERF_TYPE_HW_CACHE;
#else
	(void)a;
	return 0;
#endif
}

#define barrier() __asm__ volatile("" ::: "memory")

/* Time since the page was last updated, from the cycle counter (ns). */
static uint64_t time_delta(uint64_t cyc, uint64_t offset, uint32_t mult, uint16_t shift)
{
	uint64_t quot = cyc >> shift, rem = cyc & (((uint64_t)1 << shift) - 1);

	return offset + quot * mult + ((rem * mult) >> shift);
}

int pmustat__mmap_read(volatile struct perf_event_mmap_page *pc, const struct pm_pmc_ops *ops,
		       struct pm_reading *r)
{
	uint64_t enabled, running, cyc, toff, tcyc = 0, tmask = 0, pmc;
	uint32_t seq, idx, mult;
	uint16_t width, shift;
	int64_t count;
	int tries = 0, tshort;

	if (!ops || !ops->rdpmc || !ops->rdtsc)
		return -1;
	do {
		if (++tries > SEQ_RETRIES)
			return -1;
		seq = pc->lock;
		barrier();
		if (!pc->cap_user_rdpmc || !pc->cap_user_time)
			return -1;
		enabled = pc->time_enabled;
		running = pc->time_running;
		cyc = ops->rdtsc();
		toff = pc->time_offset;
		mult = pc->time_mult;
		shift = pc->time_shift;
		tshort = pc->cap_user_time_short;
		if (tshort) {
			tcyc = pc->time_cycles;
			tmask = pc->time_mask;
		}
		idx = pc->index;
		count = pc->offset;
		if (!idx)
			return -1;
		width = pc->pmc_width;
		pmc = ops->rdpmc(idx - 1);
		barrier();
	} while (pc->lock != seq);
	if (width == 0 || width > 64)
		return -1;
	/* sign-extend the width-bit hardware value */
	count += (int64_t)(pmc << (64 - width)) >> (64 - width);
	if (tshort)
		cyc = tcyc + ((cyc - tcyc) & tmask);
	r->value = (uint64_t)count;
	r->enabled = enabled + time_delta(cyc, toff, mult, shift);
	r->running = running + time_delta(cyc, toff, mult, shift);
	return 0;
}

static int perf_open(struct perf_event_attr *a, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* open_event()'s steps for one attr: grouped, alone, user-only. */
static int open_attr(struct pm_counters *cs, struct perf_event_attr *ap, const struct pm_event *ev,
		     int i, int *joined)
{
	struct perf_event_attr a = *ap;
	int gfd = ev->leader != i ? cs->fd[ev->leader] : -1, fd;

	fd = perf_open(&a, gfd);
	if (fd < 0 && gfd >= 0) {
		gfd = -1;
		fd = perf_open(&a, -1);
	}
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !a.exclude_kernel) {
		a.exclude_kernel = a.exclude_hv = 1;
		fd = perf_open(&a, gfd);
		cs->user_only[i] = fd >= 0;
	}
	*joined = fd >= 0 && gfd >= 0;
	return fd;
}

/* Open event i, in its leader's group if possible, else alone; with the
 * kernel excluded if counting it is not allowed; on arm64 asking for
 * user-space reads first, and without them if the kernel refuses. Returns
 * the fd or -1. */
static int open_event(struct pm_counters *cs, const struct pm_event *ev, int i, int *joined)
{
	struct perf_event_attr a = ev->attr;
	int fd;

	a.size = sizeof(a);
	a.read_format = READ_FORMAT;
	a.disabled = 0;
	a.inherit = 0;
	if (wants_user_read_bit(&a)) {
		a.config1 |= ARM64_USER_READ;
		fd = open_attr(cs, &a, ev, i, joined);
		if (fd >= 0)
			return fd;
		a.config1 &= ~ARM64_USER_READ;
	}
	return open_attr(cs, &a, ev, i, joined);
}

static struct pm_group *group_of_fd(struct pm_counters *cs, int fd)
{
	for (int g = 0; g < cs->ngrp; g++)
		if (cs->grp[g].fd == fd)
			return &cs->grp[g];
	return NULL;
}

/* Map the event's page if rdpmc could ever apply to it (never for software
 * events, whose page says index 0 forever). The event was opened enabled
 * on this running thread, so it holds a counter now: an index of 0 means
 * user-space reads are not granted (arm64 with kernel.perf_user_access=0
 * still says cap_user_rdpmc), and every read would try the page in vain. */
static void map_page(struct pm_counters *cs, const struct pm_event *ev, int i)
{
	void *p;

	if (!cs->ops || !cs->ops->rdpmc || ev->attr.type == PERF_TYPE_SOFTWARE)
		return;
	p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, cs->fd[i], 0);
	if (p == MAP_FAILED)
		return;
	if (!((struct perf_event_mmap_page *)p)->cap_user_rdpmc ||
	    !((struct perf_event_mmap_page *)p)->index) {
		munmap(p, (size_t)sysconf(_SC_PAGESIZE));
		return;
	}
	cs->page[i] = p;
}

void pmustat__counters_open(struct pm_counters *cs, const struct pm_event_list *evs)
{
	memset(cs, 0, sizeof(*cs));
	cs->n = evs->n;
	cs->ops = &pmustat__pmc_native;
	for (int i = 0; i < PMUSTAT_MAX_EVENTS; i++)
		cs->fd[i] = -1;
	for (int i = 0; i < evs->n; i++) {
		int joined, fd = open_event(cs, &evs->ev[i], i, &joined);
		struct pm_group *g;

		if (fd < 0) {
			cs->err[i] = errno;
			continue;
		}
		cs->fd[i] = fd;
		g = joined ? group_of_fd(cs, cs->fd[evs->ev[i].leader]) : &cs->grp[cs->ngrp++];
		if (!joined)
			g->fd = fd;
		g->memb[g->nmemb++] = i;
		map_page(cs, &evs->ev[i], i);
	}
	for (int g = 0; g < cs->ngrp; g++) {
		cs->grp[g].rdpmc = 1;
		for (int k = 0; k < cs->grp[g].nmemb; k++)
			cs->grp[g].rdpmc &= cs->page[cs->grp[g].memb[k]] != NULL;
	}
}

static int read_group_mmap(struct pm_counters *cs, const struct pm_group *g,
			   struct pm_reading *r)
{
	struct pm_reading tmp[PMUSTAT_MAX_EVENTS];

	for (int k = 0; k < g->nmemb; k++)
		if (pmustat__mmap_read(cs->page[g->memb[k]], cs->ops, &tmp[k]))
			return -1;
	for (int k = 0; k < g->nmemb; k++) {
		r[g->memb[k]] = tmp[k];
		cs->user_read[g->memb[k]] = 1;
	}
	return 0;
}

static int read_group_fd(const struct pm_group *g, struct pm_reading *r)
{
	uint64_t buf[3 + PMUSTAT_MAX_EVENTS];
	ssize_t want = (ssize_t)((3 + g->nmemb) * sizeof(uint64_t)), got;

	do
		got = read(g->fd, buf, sizeof(buf));
	while (got < 0 && errno == EINTR);
	if (got != want || buf[0] != (uint64_t)g->nmemb)
		return -1;
	for (int k = 0; k < g->nmemb; k++) {
		r[g->memb[k]].value = buf[3 + k];
		r[g->memb[k]].enabled = buf[1];
		r[g->memb[k]].running = buf[2];
	}
	return 0;
}

int pmustat__counters_read(struct pm_counters *cs, struct pm_reading *r)
{
	int fails = 0;

	for (int g = 0; g < cs->ngrp; g++) {
		if (cs->grp[g].rdpmc && !read_group_mmap(cs, &cs->grp[g], r))
			continue;
		if (read_group_fd(&cs->grp[g], r)) {
			fails++;
			cs->read_errors++;
		}
	}
	return fails;
}

void pmustat__counters_close(struct pm_counters *cs)
{
	for (int i = 0; i < cs->n; i++) {
		if (cs->page[i])
			munmap((void *)cs->page[i], (size_t)sysconf(_SC_PAGESIZE));
		if (cs->fd[i] >= 0)
			close(cs->fd[i]);
		cs->page[i] = NULL;
		cs->fd[i] = -1;
	}
	cs->ngrp = 0;
}
