/*
 * The stack-sampling pipeline (see stackpipe.h). Three small tables make
 * it: the processes, sorted by pid, each with its mappings (maptab.h), so
 * that a process is found and an address placed by bisection; the stacks
 * kept, their registers and copies in one byte
 * buffer until they are unwound; and the address spaces made from the
 * tables (a symbolizer and an unwinder each), at most SPACES of them,
 * the least recently used given up first. A space is keyed by the mappings
 * it was made from, not by pid, so a parent and the children it forked
 * share one until one of them maps something new.
 */
#include "backend/stackpipe.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend/unwind.h"
#include "core/strbuf.h"

/* Address spaces kept at once: each holds libdwfl's view of every file
 * mapped, so a program forking many children does not keep one per child. */
#define SPACES 8
/* Addresses unwound per stack, at most. */
#define MAX_PCS 64

/* A stack kept: SAMPLE_NREGS registers then len bytes, at bytes + at. */
struct stackpipe_pending {
	uint32_t pid, tid;
	size_t cookie, at, len;
	int max;
};

struct stackpipe_space {
	struct sym_map *maps;	/* the mappings it was made from (paths interned) */
	size_t nmaps;
	struct symbolizer *sy;
	struct unwinder *uw;
	int uw_tried;
	uint64_t used;		/* p->tick at its last use */
};

void stackpipe_init(struct stackpipe *p, const struct stackpipe_user *u)
{
	memset(p, 0, sizeof(*p));
	p->u = *u;
	p->pidfd = -1;
}

/* ---- the processes and their mappings ----------------------------------- */

/* The index of pid's table, or where it would go. */
static size_t proc_slot(const struct stackpipe *p, uint32_t pid)
{
	size_t lo = 0, hi = p->nprocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct stackpipe_proc *proc_find(const struct stackpipe *p, uint32_t pid)
{
	size_t i = proc_slot(p, pid);

	return i < p->nprocs && p->procs[i].pid == pid ? &p->procs[i] : NULL;
}

static struct stackpipe_proc *proc_get(struct stackpipe *p, uint32_t pid)
{
	size_t i = proc_slot(p, pid);

	if (i < p->nprocs && p->procs[i].pid == pid)
		return &p->procs[i];
	ALLOC_GROW(p->procs, p->nprocs + 1, p->procs_alloc);
	memmove(p->procs + i + 1, p->procs + i, (p->nprocs - i) * sizeof(*p->procs));
	p->procs[i] = (struct stackpipe_proc){ pid, 0, 0, MAPTAB_INIT(struct sym_map) };
	p->nprocs++;
	return &p->procs[i];
}

/* The one copy of a mapping's path: tables and spaces compare pointers. */
static char *intern(struct stackpipe *p, const char *path)
{
	for (size_t i = 0; i < p->npaths; i++)
		if (!strcmp(p->paths[i], path))
			return p->paths[i];
	ALLOC_GROW(p->paths, p->npaths + 1, p->paths_alloc);
	return p->paths[p->npaths++] = xstrdup(path);
}

/* The parent's mappings under the child's own (those read before). */
static void copy_parent(struct stackpipe_proc *child, const struct stackpipe_proc *parent)
{
	struct maptab own = child->maps;

	child->maps = (struct maptab)MAPTAB_INIT(struct sym_map);
	maptab_copy(&child->maps, &parent->maps);
	for (size_t i = 0; i < own.n; i++)
		maptab_put(&child->maps, maptab_at(&own, i));
	maptab_release(&own);
}

/* A new process: the parent's mappings, under those the child already
 * reported (read before its FORK); a retired table is a dead process's
 * whose pid was reused, and is dropped. Records come one CPU's buffer after
 * another, so a FORK made on one CPU can be read before the parent's MMAPs
 * written on another (it ran there before it migrated): then the copy waits
 * for the stacks' unwinding (settle), when every record so far is read. */
static void on_fork(struct stackpipe *p, uint32_t pid, uint32_t ppid)
{
	struct stackpipe_proc *child = proc_get(p, pid), *parent;

	if (child->retired) {
		maptab_release(&child->maps);
		child->maps = (struct maptab)MAPTAB_INIT(struct sym_map);
		child->retired = 0;
	}
	child->from = 0;
	parent = proc_find(p, ppid);
	if (parent && parent->maps.n && !parent->from)
		copy_parent(child, parent);
	else
		child->from = ppid;
}

/* Make the copies that waited for their parents' mappings (parents first,
 * a chain of forks at most a few deep). */
void stackpipe_settle(struct stackpipe *p)
{
	for (int round = 0; round < 8; round++) {
		int left = 0;

		for (size_t i = 0; i < p->nprocs; i++) {
			struct stackpipe_proc *t = &p->procs[i], *parent;

			if (!t->from)
				continue;
			parent = proc_find(p, t->from);
			if (parent && parent->from) {
				left = 1;	/* its own copy first */
				continue;
			}
			if (parent && parent->maps.n) {	/* else: not read yet */
				copy_parent(t, parent);
				t->from = 0;
			}
		}
		if (!left)
			break;
	}
}

void stackpipe_feed(void *ctx, const struct sample_rec *r)
{
	struct stackpipe *p = ctx;
	struct stackpipe_proc *t;

	switch (r->type) {
	case SREC_SAMPLE:
		if (p->u.sample)
			p->u.sample(p->u.ctx, p, r);
		break;
	case SREC_MMAP:
		if (!r->len || r->start + r->len < r->start)
			break;	/* not a range: nothing can be in it */
		maptab_put(&proc_get(p, r->pid)->maps,
			   &(struct sym_map){ r->start, r->start + r->len, r->pgoff,
					      intern(p, r->path) });
		break;
	case SREC_FORK:
		if (r->pid != r->ppid)	/* else a thread: the same address space */
			on_fork(p, r->pid, r->ppid);
		break;
	case SREC_EXIT:
		t = proc_find(p, r->pid);
		if (t && r->pid == r->tid)	/* the process, not one of its threads */
			t->retired = 1;
		break;
	case SREC_LOST:
		p->lost += r->lost;
		break;
	default:
		break;
	}
}

const struct sym_map *stackpipe_map(const struct stackpipe *p, uint32_t pid, uint64_t addr)
{
	const struct stackpipe_proc *t = proc_find(p, pid);

	return t ? maptab_find(&t->maps, addr) : NULL;
}

const struct sym_map *stackpipe_maps(const struct stackpipe *p, uint32_t pid, size_t *n)
{
	const struct stackpipe_proc *t = proc_find(p, pid);

	*n = t ? t->maps.n : 0;
	return t && t->maps.n ? maptab_at(&t->maps, 0) : NULL;
}

/* ---- address spaces ------------------------------------------------------ */

static void gap_keep(struct stackpipe *p, const char *gap)
{
	for (size_t i = 0; i < p->ngaps; i++)
		if (!strcmp(p->gaps[i], gap))
			return;
	ALLOC_GROW(p->gaps, p->ngaps + 1, p->gaps_alloc);
	p->gaps[p->ngaps++] = xstrdup(gap);
}

static void space_gaps(struct stackpipe *p, struct stackpipe_space *s)
{
	for (const char *const *g = symbolizer_gaps(s->sy); g && *g; g++)
		gap_keep(p, *g);
}

static void space_free(struct stackpipe *p, struct stackpipe_space *s)
{
	space_gaps(p, s);
	unwinder_free(s->uw);
	symbolizer_free(s->sy);
	free(s->maps);
	memset(s, 0, sizeof(*s));
}

static int same_maps(const struct stackpipe_space *s, const struct stackpipe_proc *t)
{
	return s->nmaps == t->maps.n &&
	       (!s->nmaps || !memcmp(s->maps, t->maps.v, s->nmaps * sizeof(*s->maps)));
}

/* The space of pid's mappings as they are now, made on first need. */
static struct stackpipe_space *space_of(struct stackpipe *p, uint32_t pid)
{
	const struct stackpipe_proc *t = proc_find(p, pid);
	struct stackpipe_space *s = NULL;

	if (!t || !t->maps.n)
		return NULL;
	for (size_t i = 0; i < p->nspaces && !s; i++)
		if (same_maps(&p->spaces[i], t))
			s = &p->spaces[i];
	if (!s && p->nspaces < SPACES) {
		p->spaces = xrealloc(p->spaces, (p->nspaces + 1) * sizeof(*p->spaces));
		s = &p->spaces[p->nspaces++];
		memset(s, 0, sizeof(*s));
	} else if (!s) {
		s = &p->spaces[0];	/* the least recently used goes */
		for (size_t i = 1; i < p->nspaces; i++)
			if (p->spaces[i].used < s->used)
				s = &p->spaces[i];
		space_free(p, s);
	}
	if (!s->sy) {
		s->nmaps = t->maps.n;
		s->maps = xmalloc(s->nmaps * sizeof(*s->maps));
		memcpy(s->maps, t->maps.v, s->nmaps * sizeof(*s->maps));
		s->sy = symbolizer_new();
		symbolizer_add_maps(s->sy, s->maps, s->nmaps, NULL);
	}
	s->used = ++p->tick;
	return s;
}

struct symbolizer *stackpipe_symbolizer(struct stackpipe *p, uint32_t pid)
{
	struct stackpipe_space *s = space_of(p, pid);

	return s ? s->sy : NULL;
}

void stackpipe_gaps(struct stackpipe *p, void (*cb)(void *ctx, const char *gap), void *ctx)
{
	for (size_t i = 0; i < p->nspaces; i++)
		space_gaps(p, &p->spaces[i]);
	for (size_t i = 0; i < p->ngaps; i++)
		cb(ctx, p->gaps[i]);
}

/* ---- the stacks kept, unwound ------------------------------------------- */

void stackpipe_keep(struct stackpipe *p, const struct sample_rec *r, size_t cookie, int max)
{
	size_t need = SAMPLE_NREGS * 8 + r->stack_len;

	ALLOC_GROW(p->pend, p->npend + 1, p->pend_alloc);
	p->pend[p->npend++] = (struct stackpipe_pending){ r->pid, r->tid, cookie, p->nbytes,
							  r->stack_len, max };
	ALLOC_GROW(p->bytes, p->nbytes + need, p->bytes_alloc);
	memcpy(p->bytes + p->nbytes, r->regs, SAMPLE_NREGS * 8);
	if (r->stack_len)
		memcpy(p->bytes + p->nbytes + SAMPLE_NREGS * 8, r->stack, r->stack_len);
	p->nbytes += need;
}

static void unwind_one(struct stackpipe *p, const struct stackpipe_pending *k)
{
	uint64_t regs[SAMPLE_NREGS], pcs[MAX_PCS];
	struct stackpipe_space *s = space_of(p, k->pid);
	int max = k->max < MAX_PCS ? k->max : MAX_PCS;
	int n = 1;

	/* Copied out: registers follow the previous stack copy, of any
	 * length, so they need not be 8-byte aligned. */
	memcpy(regs, p->bytes + k->at, sizeof(regs));
	pcs[0] = unwind_regs_pc(regs);
	if (s && !s->uw && !s->uw_tried) {
		s->uw = unwinder_new(s->sy, k->pid);
		s->uw_tried = 1;
	}
	if (s && s->uw && max > 0)
		n = unwinder_frames(s->uw, k->tid, regs, p->bytes + k->at + SAMPLE_NREGS * 8,
				    k->len, pcs, max);
	p->u.stack(p->u.ctx, k->cookie, k->pid, pcs, n);
}

static void unwind_pending(struct stackpipe *p)
{
	stackpipe_settle(p);
	for (size_t i = 0; i < p->npend; i++)
		unwind_one(p, &p->pend[i]);
	p->npend = 0;
	p->nbytes = 0;
}

/* ---- reading ------------------------------------------------------------ */

/* Signal the sampled process through its pidfd, which names that process
 * and no later one that reuses its pid once it has been reaped; no pidfd
 * (before Linux 5.3), no pause. 1 if sent. */
static int signal_run(struct stackpipe *p, int sig)
{
	return p->pidfd >= 0 && syscall(SYS_pidfd_send_signal, p->pidfd, sig, NULL, 0) == 0;
}

/* Copy out what the buffers hold; past pending_max bytes of copies, unwind
 * them now, so memory stays bounded on long runs. With pause, the program
 * is stopped while the reader unwinds and while it copies a buffer found
 * more than half full (it writes faster than the reader copies). */
static void drain(struct stackpipe *p, int all)
{
	struct error err;
	int stopped = p->u.pause && sample_fill(&p->set) > 0.5 && signal_run(p, SIGSTOP);

	error_clear(&err);
	if (p->open && sample_read(&p->set, stackpipe_feed, p, &err) && !p->corrupt)
		p->corrupt = xstrdup(err.msg);
	if (all || p->nbytes > p->u.pending_max) {
		if (p->u.pause && !all)
			stopped |= signal_run(p, SIGSTOP);
		unwind_pending(p);
	}
	if (stopped) {
		p->pauses++;
		signal_run(p, SIGCONT);
	}
}

static void drain_during(void *ctx)
{
	drain(ctx, 0);
}

int stackpipe_open(struct stackpipe *p, pid_t pid, const struct sample_opts *so,
		   struct error *err)
{
	if (p->u.pause)
		p->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);	/* close-on-exec, always */
	if (sample_open(&p->set, pid, so, err))
		return -1;
	p->open = 1;
	if (p->u.reader)
		sample_reader_start(&p->rd, &p->set, drain_during, p);
	return 0;
}

void stackpipe_finish(struct stackpipe *p)
{
	sample_reader_stop(&p->rd);
	drain(p, 1);
}

void stackpipe_release(struct stackpipe *p)
{
	sample_reader_stop(&p->rd);
	if (p->open)
		sample_close(&p->set);
	if (p->pidfd >= 0)
		close(p->pidfd);
	for (size_t i = 0; i < p->nspaces; i++)
		space_free(p, &p->spaces[i]);
	free(p->spaces);
	for (size_t i = 0; i < p->nprocs; i++)
		maptab_release(&p->procs[i].maps);
	free(p->procs);
	for (size_t i = 0; i < p->npaths; i++)
		free(p->paths[i]);
	free(p->paths);
	for (size_t i = 0; i < p->ngaps; i++)
		free(p->gaps[i]);
	free(p->gaps);
	free(p->pend);
	free(p->bytes);
	free(p->corrupt);
	memset(p, 0, sizeof(*p));
	p->pidfd = -1;
}
