/*
 * Allocation call sites from sampling uprobes (see allocprobe.h).
 *
 * Every call carries ALLOCPROBE_STACK bytes of stack, and a program that
 * allocates in a loop fills a ring buffer in a fraction of a millisecond,
 * faster than libdwfl unwinds: a reader thread only copies the hits out
 * while the run goes on (woken by the kernel when a quarter of a buffer is
 * written), and they are unwound after the run, when the campaign asks.
 * A traced run is untimed, so the copies cost the run nothing that counts.
 *
 * The size argument is read from the sampled registers at the function's
 * first instruction, where the arguments are still where the caller put
 * them: the System V AMD64 psABI (section 3.2.3, "Parameter Passing":
 * INTEGER arguments in %rdi, %rsi, %rdx, %rcx, %r8, %r9; DWARF numbers 5,
 * 4, 1, 2, 8, 9 in its figure 3.36) and the AAPCS64 (section 6.8.2,
 * "Parameter passing rules": x0-x7, DWARF numbers 0-7). The functions'
 * arguments are C's (ISO C 7.22.3, POSIX for posix_memalign and valloc):
 * malloc(n), calloc(n, size), realloc(p, n), aligned_alloc(align, n),
 * memalign(align, n), posix_memalign(out, align, n), valloc(n). These are
 * the sizes the shim counts (lib/count/count.c).
 */
#include "backend/allocprobe.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "backend/uprobe_trace.h"
#include "core/sort.h"
#include "core/strbuf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__x86_64__)
static const int arg_reg[3] = { 5, 4, 1 };	/* rdi, rsi, rdx */
#define RET_REG 0				/* rax */
#define SP_REG 7				/* rsp */
#elif defined(__aarch64__)
static const int arg_reg[3] = { 0, 1, 2 };	/* x0, x1, x2 */
#define RET_REG 0				/* x0 */
#define SP_REG 31				/* sp */
#else
static const int arg_reg[3] = { -1, -1, -1 };
#define RET_REG 0
#define SP_REG 0
#endif

/* Ring buffer pages per CPU: 16 MiB, some 3800 hits of 4.3 KB before the
 * reader must have drained it (on a loaded host it may not be scheduled
 * for a while; a traced run is untimed, its memory is what matters). */
#define AP_PAGES 4096
/* Stack copies kept before the reader unwinds them: memory stays bounded
 * for a program that allocates millions of times. */
#define AP_PENDING ((size_t)64 << 20)

static const struct {
	const char *name;
	enum allocprobe_size size;
} sizes[] = {
	{ "malloc", AP_ARG0 },	      { "calloc", AP_ARG0_X_ARG1 },   { "realloc", AP_ARG1 },
	{ "aligned_alloc", AP_ARG1 }, { "memalign", AP_ARG1 },	      { "posix_memalign", AP_ARG2 },
	{ "valloc", AP_ARG0 },
};

/* Calls nested deeper than this inside probed functions are not glibc's. */
#define AP_DEPTH 16
#define NO_SITE UINT32_MAX

/*
 * One heap event, in the order its CPU's buffer gave it (seq), put in the
 * thread's order by time after the run. ptr: free's argument; an entry's
 * first argument when it frees it (realloc) or receives the pointer
 * (posix_memalign); a return's value, or for posix_memalign's return
 * 1 + the offset of its stack copy in outs. site/img: the entry's site
 * once unwound (NO_SITE: unsited in image img).
 */
struct allocprobe_event {
	uint64_t time, ptr, bytes;
	uint32_t site, seq, img, probe, tid;
};

/* Probe number e at p's function: what it is (size, free, spawn). */
static size_t add_probe(struct allocprobe *ap, const struct callcount_probe *p,
			enum allocprobe_size what, unsigned flags)
{
	size_t e = ap->n++;

	ap->path[e] = p->object;
	ap->offset[e] = p->offset;
	ap->size[e] = what;
	ap->flags[e] = flags;
	return e;
}

/* An allocating function: its entry (registers and stack, to unwind) and
 * its return (the pointer; posix_memalign's from the stack its first
 * argument points into, so that one keeps a copy). -1 if its size
 * argument is not known. */
static int add_allocator(struct allocprobe *ap, const struct callcount_probe *p)
{
	size_t k = 0, e, ret;

	while (k < ARRAY_SIZE(sizes) && strcmp(sizes[k].name, p->symbol))
		k++;
	if (k == ARRAY_SIZE(sizes))
		return -1;
	e = add_probe(ap, p, sizes[k].size, 0);
	ap->frees_arg0[e] = !strcmp(p->symbol, "realloc");
	ap->out_arg0[e] = !strcmp(p->symbol, "posix_memalign");
	ret = add_probe(ap, p, AP_RETURN,
			SAMPLE_UPROBE_RET | (ap->out_arg0[e] ? 0 : SAMPLE_UPROBE_NOSTACK));
	ap->ret_of[ret] = e;
	return 0;
}

/* The probes of cs's functions: the spawning functions' too when the
 * probes see the main thread only (spawns). -1 with err when a probed
 * function's size argument is not known. */
static int add_probes(struct allocprobe *ap, const struct callcount_set *cs, int spawns,
		      struct error *err)
{
	size_t max = 2 * cs->nprobes + 1;	/* an entry and a return each, at most */

	ap->path = xcalloc(max, sizeof(char *));
	ap->offset = xcalloc(max, sizeof(uint64_t));
	ap->flags = xcalloc(max, sizeof(unsigned));
	ap->size = xcalloc(max, sizeof(*ap->size));
	ap->ret_of = xcalloc(max, sizeof(size_t));
	ap->frees_arg0 = xcalloc(max, 1);
	ap->out_arg0 = xcalloc(max, 1);
	for (size_t i = 0; i < cs->nprobes; i++) {
		const struct callcount_probe *p = &cs->probes[i];

		if (p->metric == CALLCOUNT_SENTINEL) {
			if (spawns)
				add_probe(ap, p, AP_SPAWN, SAMPLE_UPROBE_NOSTACK);
		} else if (!strcmp(p->symbol, "free")) {
			add_probe(ap, p, AP_FREE, SAMPLE_UPROBE_NOSTACK);
		} else if (add_allocator(ap, p)) {
			return error_set(err, ERR_RUNTIME, "no known size argument of '%s'",
					 p->symbol);
		}
	}
	return 0;
}

static void probes_free(struct allocprobe *ap)
{
	free(ap->path);
	free(ap->offset);
	free(ap->flags);
	free(ap->size);
	free(ap->ret_of);
	free(ap->frees_arg0);
	free(ap->out_arg0);
	ap->n = 0;
}

/* The probes as inheritable trace events (backend/uprobe_trace.h): every
 * thread and process of the run sampled, no spawning function to watch.
 * 0, or -1 (why in ap->trace_why) to use the uprobe PMU instead. */
static int trace_events(struct allocprobe *ap, const struct callcount_set *cs)
{
	struct error e;
	unsigned char *ret;
	int rc;

	error_clear(&e);
	if (add_probes(ap, cs, 0, &e))
		return -1;
	ret = xcalloc(ap->n ? ap->n : 1, 1);
	for (size_t i = 0; i < ap->n; i++)
		ret[i] = (ap->flags[i] & SAMPLE_UPROBE_RET) != 0;
	rc = uprobe_trace_make(&ap->tp, ap->path, ap->offset, ret, ap->n, (uintptr_t)ap, &e);
	free(ret);
	if (rc) {
		ap->trace_why = xstrdup(e.msg);
		probes_free(ap);
	}
	return rc;
}

int allocprobe_init(struct allocprobe *ap, const struct callcount_set *cs, int uprobe_type,
		    unsigned frames, int trace, struct error *err)
{
	memset(ap, 0, sizeof(*ap));
	if (!sample_dwarf_supported() || arg_reg[0] < 0)
		return error_set(err, ERR_RUNTIME, "this build reads no user registers on "
				 "this architecture (x86-64 and arm64 only)");
	if (!trace)
		ap->trace_why = xstrdup("PMUSTAT_UPROBES=pmu");
	ap->inherit = trace && !trace_events(ap, cs);
	if (!ap->inherit && add_probes(ap, cs, 1, err)) {
		allocprobe_release(ap);
		return -1;
	}
	ap->frames = frames;
	ap->so.event = SAMPLE_UPROBE;
	ap->so.chain = SAMPLE_CHAIN_DWARF;
	ap->so.stack_bytes = ALLOCPROBE_STACK;
	ap->so.pages = AP_PAGES;
	ap->so.uprobe_type = uprobe_type;
	ap->so.uprobe_path = ap->path;
	ap->so.uprobe_offset = ap->offset;
	ap->so.uprobe_flags = ap->flags;
	ap->so.nuprobes = ap->n;
	ap->so.uprobe_tp = ap->inherit ? ap->tp.ids : NULL;
	return 0;
}

void allocprobe_release(struct allocprobe *ap)
{
	if (ap->inherit)
		uprobe_trace_remove(&ap->tp);
	probes_free(ap);
	free(ap->trace_why);
	memset(ap, 0, sizeof(*ap));
}

/* ---- during the run: copying the records out --------------------------- */

static uint64_t size_of(enum allocprobe_size how, const uint64_t *regs)
{
	switch (how) {
	case AP_ARG0:
		return regs[arg_reg[0]];
	case AP_ARG1:
		return regs[arg_reg[1]];
	case AP_ARG2:
		return regs[arg_reg[2]];
	case AP_ARG0_X_ARG1:
		return regs[arg_reg[0]] * regs[arg_reg[1]];
	default:
		return 0;
	}
}

static struct allocprobe_event *new_event(struct allocprobe_run *r,
					  const struct sample_rec *rec)
{
	struct allocprobe_event *e;

	ALLOC_GROW(r->ev, r->nev + 1, r->ev_alloc);
	e = &r->ev[r->nev];
	*e = (struct allocprobe_event){ rec->time, 0, 0, NO_SITE, (uint32_t)r->nev, 0,
					(uint32_t)rec->probe, rec->tid };
	r->nev++;
	return e;
}

/* posix_memalign's return: its value and the stack copied there, kept
 * (sp, length, value, bytes) until the call's *out can be read from it. */
static uint64_t keep_out(struct allocprobe_run *r, const struct sample_rec *rec)
{
	uint64_t head[3] = { rec->regs[SP_REG], rec->stack_len, rec->regs[RET_REG] };
	size_t at = r->nouts, need = sizeof(head) + ((rec->stack_len + 7) & ~(size_t)7);

	ALLOC_GROW(r->outs, r->nouts + need, r->outs_alloc);
	memcpy(r->outs + at, head, sizeof(head));
	if (rec->stack_len)
		memcpy(r->outs + at + sizeof(head), rec->stack, rec->stack_len);
	r->nouts += need;
	return at + 1;
}

/* A uprobe sample: a spawn counted, a free or a return kept as an event,
 * an allocating call's entry kept as an event and a stack to unwind. */
static void on_hit(void *ctx, struct stackpipe *p, const struct sample_rec *rec)
{
	struct allocprobe_run *r = ctx;
	const struct allocprobe *ap = r->ap;
	struct allocprobe_event *e;
	enum allocprobe_size how;
	unsigned frames = ap->frames < CALLCOUNT_MAX_FRAMES ? ap->frames : CALLCOUNT_MAX_FRAMES;

	if (rec->probe < 0 || (size_t)rec->probe >= ap->n) {
		if (!r->bad)
			r->bad = xstrdup("a uprobe sample of no probe opened");
		return;
	}
	how = ap->size[rec->probe];
	if (how == AP_SPAWN) {
		r->spawns++;
		return;
	}
	if (rec->nregs != SAMPLE_NREGS) {
		r->noregs++;	/* nothing to read the pointer or size from */
		return;
	}
	e = new_event(r, rec);
	if (how == AP_FREE) {
		e->ptr = rec->regs[arg_reg[0]];
		return;
	}
	if (how == AP_RETURN) {
		e->ptr = ap->out_arg0[ap->ret_of[rec->probe]] ? keep_out(r, rec)
							    : rec->regs[RET_REG];
		return;
	}
	if (ap->frees_arg0[rec->probe] || ap->out_arg0[rec->probe])
		e->ptr = rec->regs[arg_reg[0]];
	e->bytes = size_of(how, rec->regs);
	/* pcs[0] is the probed function: one more than the site's frames */
	stackpipe_keep(p, rec, r->nev - 1, (int)frames + 1);
}

void allocprobe_feed(void *ctx, const struct sample_rec *rec)
{
	struct allocprobe_run *r = ctx;

	stackpipe_feed(&r->pipe, rec);
}

/* ---- the entries unwound: summed into sites ----------------------------- */

/* The image of pid's sites in r->sites, made on first need. */
static size_t image_of(struct allocprobe_run *r, uint32_t pid)
{
	struct callcount_sites *out = &r->sites;

	for (size_t i = 0; i < out->n; i++)
		if (r->img_pid[i] == pid)
			return i;
	out->img = xrealloc(out->img, (out->n + 1) * sizeof(*out->img));
	r->sites_alloc = xrealloc(r->sites_alloc, (out->n + 1) * sizeof(size_t));
	r->img_pid = xrealloc(r->img_pid, (out->n + 1) * sizeof(uint32_t));
	r->sites_alloc[out->n] = 0;
	r->img_pid[out->n] = pid;
	memset(&out->img[out->n], 0, sizeof(out->img[0]));
	out->img[out->n].pid = (int32_t)pid;
	out->img[out->n].ended = 1;
	return out->n++;
}

/* Count a call of bytes at the site of these frames; its index. */
static size_t add_site(struct allocprobe_run *r, size_t img, const uint64_t *frames, unsigned n,
		       uint64_t bytes)
{
	struct callcount_image *im = &r->sites.img[img];
	struct callcount_site *x;

	for (size_t i = 0; i < im->nsites; i++) {
		x = &im->sites[i];
		if (x->nframes == n && !memcmp(x->frames, frames, n * sizeof(*frames))) {
			x->calls++;
			x->bytes += bytes;
			return i;
		}
	}
	ALLOC_GROW(im->sites, im->nsites + 1, r->sites_alloc[img]);
	x = &im->sites[im->nsites++];
	memset(x, 0, sizeof(*x));
	x->calls = 1;
	x->bytes = bytes;
	x->nframes = n;
	memcpy(x->frames, frames, n * sizeof(*frames));
	return im->nsites - 1;
}

/* An entry unwound (cookie its event): pcs[1..] are inside the calls
 * (return address - 1), and the shim's frames are return addresses. */
static void on_stack(void *ctx, size_t cookie, uint32_t pid, const uint64_t *pcs, int n)
{
	struct allocprobe_run *r = ctx;
	struct allocprobe_event *e = &r->ev[cookie];
	uint64_t fr[CALLCOUNT_MAX_FRAMES];
	size_t img = image_of(r, pid);

	e->img = (uint32_t)img;
	if (n < 2) {
		r->sites.img[img].unsited++;
		return;
	}
	for (int f = 1; f < n && f <= CALLCOUNT_MAX_FRAMES; f++)
		fr[f - 1] = pcs[f] + 1;
	e->site = (uint32_t)add_site(r, img, fr, (unsigned)(n - 1), e->bytes);
}

static void run_init(struct allocprobe_run *r, const struct allocprobe *ap)
{
	/* The copies of a program that allocates in a loop outrun the reader:
	 * it is paused while the reader catches up (stackpipe.h); a traced run
	 * is not timed, so the pauses cost nothing that is measured. */
	struct stackpipe_user u = { on_hit, on_stack, r, AP_PENDING, 1, 1 };

	memset(r, 0, sizeof(*r));
	r->ap = ap;
	stackpipe_init(&r->pipe, &u);
}

int allocprobe_attach(struct allocprobe_run *r, const struct allocprobe *ap, pid_t pid,
		      struct error *err)
{
	run_init(r, ap);
	/* The reader before the program when both want one CPU: the run is
	 * untimed, and a reader that does not run lets the buffers fill. */
	setpriority(PRIO_PROCESS, (id_t)pid, 19);
	return stackpipe_open(&r->pipe, pid, &ap->so, err);
}

void allocprobe_run_offline(struct allocprobe_run *r, const struct allocprobe *ap)
{
	run_init(r, ap);
	r->offline = 1;
}

/* ---- after the run: the calls in order, for the temporaries ------------ */

static int event_cmp(const void *a, const void *b)
{
	const struct allocprobe_event *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A call made inside another probed function is that call's: not counted. */
static void uncount(struct allocprobe_run *r, const struct allocprobe_event *e)
{
	struct callcount_image *im = &r->sites.img[e->img];

	if (e->site == NO_SITE) {
		if (im->unsited)
			im->unsited--;
		return;
	}
	im->sites[e->site].calls--;
	im->sites[e->site].bytes -= e->bytes;
}

/* posix_memalign's pointer: *out, read from the stack copied at its return
 * (kept at outs + ref - 1), 0 when the call failed or out is not in it. */
static uint64_t out_value(const struct allocprobe_run *r, uint64_t out, uint64_t ref)
{
	uint64_t head[3], v;

	if (!ref || ref - 1 + sizeof(head) > r->nouts)
		return 0;
	memcpy(head, r->outs + ref - 1, sizeof(head));
	if (head[2] != 0 || out < head[0] || out - head[0] > head[1] ||
	    head[1] - (out - head[0]) < 8)
		return 0;
	memcpy(&v, r->outs + ref - 1 + sizeof(head) + (out - head[0]), 8);
	return v;
}

struct heap_last {
	uint64_t ptr;			/* the thread's last allocation, if nothing since */
	const struct allocprobe_event *at;	/* its entry, when it has a site */
};

/* free(p), or realloc's free of its argument: temporary when p is the
 * allocation just made; any free ends that chance. */
static void heap_free(struct allocprobe_run *r, struct heap_last *last, uint64_t p)
{
	if (p && p == last->ptr && last->at)
		r->sites.img[last->at->img].sites[last->at->site].temps++;
	last->ptr = 0;
	last->at = NULL;
}

/* The sites only nested calls reached are no sites of the program's. */
static void drop_empty_sites(struct allocprobe_run *r)
{
	for (size_t i = 0; i < r->sites.n; i++) {
		struct callcount_image *im = &r->sites.img[i];
		size_t kept = 0;

		for (size_t k = 0; k < im->nsites; k++)
			if (im->sites[k].calls)
				im->sites[kept++] = im->sites[k];
		im->nsites = kept;
	}
}

/* The calls still open in the thread, innermost last, and its last heap
 * allocation. */
struct heap_walk {
	size_t open[AP_DEPTH], depth, bad;
	struct heap_last last;
};

/* A return: it closes the innermost open call; an outermost call is the
 * program's allocation (realloc first frees its argument). */
static void on_return(struct allocprobe_run *r, struct heap_walk *w,
		      const struct allocprobe_event *e)
{
	const struct allocprobe *ap = r->ap;
	const struct allocprobe_event *in;

	if (!w->depth || ap->ret_of[e->probe] != r->ev[w->open[w->depth - 1]].probe) {
		w->bad++;
		return;
	}
	in = &r->ev[w->open[--w->depth]];
	if (w->depth)
		return;		/* a nested call's return */
	if (ap->frees_arg0[in->probe] && in->ptr)
		heap_free(r, &w->last, in->ptr);
	w->last.ptr = ap->out_arg0[in->probe] ? out_value(r, in->ptr, e->ptr) : e->ptr;
	w->last.at = in->site != NO_SITE ? in : NULL;
}

/*
 * The events of each thread in its order (every thread's with trace
 * events; with the PMU's, the main thread's, a run that starts another
 * being left out): each return pairs with the innermost call still open;
 * the outermost calls are the program's, counted as the shim counts them,
 * and temporaries are the thread's own, as the shim's. -1 with err when
 * the returns do not pair up.
 */
static int pair_events(struct allocprobe_run *r, struct error *err)
{
	struct heap_walk w = { .depth = 0 };

	sort_n(r->ev, r->nev, sizeof(*r->ev), event_cmp);
	for (size_t i = 0; i < r->nev && w.depth < AP_DEPTH; i++) {
		const struct allocprobe_event *e = &r->ev[i];
		enum allocprobe_size how = r->ap->size[e->probe];

		if (i && e->tid != r->ev[i - 1].tid) {	/* the next thread's */
			w.depth = 0;
			w.last = (struct heap_last){ 0, NULL };
		}

		if (how == AP_FREE) {
			if (!w.depth && e->ptr)
				heap_free(r, &w.last, e->ptr);
		} else if (how == AP_RETURN) {
			on_return(r, &w, e);
		} else {			/* an allocating call's entry */
			if (w.depth)
				uncount(r, e);
			w.open[w.depth++] = i;
		}
	}
	if (w.bad || w.depth == AP_DEPTH)
		return error_set(err, ERR_RUNTIME, "%zu returns of the allocation functions "
				 "did not pair with their calls", w.bad + (w.depth == AP_DEPTH));
	drop_empty_sites(r);
	return 0;
}

int allocprobe_finish(struct allocprobe_run *r, struct callcount_sites *out, uint64_t *spawns,
		      uint64_t *lost, struct error *err)
{
	memset(out, 0, sizeof(*out));
	*spawns = 0;
	*lost = 0;
	if (!r->pipe.open && !r->offline)
		return error_set(err, ERR_RUNTIME, "the uprobes were not opened");
	stackpipe_finish(&r->pipe);
	*lost = r->pipe.lost;
	*spawns = r->spawns;
	if (r->pipe.corrupt || r->bad)
		return error_set(err, ERR_RUNTIME, "%s", r->pipe.corrupt ? r->pipe.corrupt : r->bad);
	if (r->noregs)
		return error_set(err, ERR_RUNTIME, "%llu uprobe samples came without the user "
				 "registers", (unsigned long long)r->noregs);
	if (!r->pipe.lost && !r->spawns && pair_events(r, err))
		return -1;
	/* Each image symbolized with its process's mappings (its parent's
	 * too when it was forked). */
	for (size_t i = 0; i < r->sites.n; i++) {
		struct callcount_image *im = &r->sites.img[i];
		size_t n;
		const struct sym_map *m = stackpipe_maps(&r->pipe, r->img_pid[i], &n);

		im->maps = xcalloc(n ? n : 1, sizeof(struct sym_map));
		for (im->nmaps = 0; im->nmaps < n; im->nmaps++) {
			im->maps[im->nmaps] = m[im->nmaps];
			im->maps[im->nmaps].path = xstrdup(m[im->nmaps].path);
		}
	}
	*out = r->sites;
	memset(&r->sites, 0, sizeof(r->sites));
	return 0;
}

void allocprobe_run_release(struct allocprobe_run *r)
{
	if (!r->ap)
		return;	/* never attached */
	stackpipe_release(&r->pipe);
	free(r->ev);
	free(r->outs);
	free(r->bad);
	free(r->sites_alloc);
	free(r->img_pid);
	callcount_sites_release(&r->sites);
	memset(r, 0, sizeof(*r));
}
