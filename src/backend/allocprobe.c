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
#include <unistd.h>

#include "backend/unwind.h"
#include "core/strbuf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__x86_64__)
static const int arg_reg[3] = { 5, 4, 1 };	/* rdi, rsi, rdx */
#elif defined(__aarch64__)
static const int arg_reg[3] = { 0, 1, 2 };	/* x0, x1, x2 */
#else
static const int arg_reg[3] = { -1, -1, -1 };
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

/* One hit as the reader copied it: regs (SAMPLE_NREGS words) then the
 * stack copy, at bytes + at. */
struct allocprobe_hit {
	uint32_t pid, tid;
	uint64_t ip;
	size_t at, stack_len;
	int regs;		/* the sample had user registers */
};

int allocprobe_init(struct allocprobe *ap, const struct callcount_set *cs, int uprobe_type,
		    unsigned frames, struct error *err)
{
	memset(ap, 0, sizeof(*ap));
	if (!sample_dwarf_supported() || arg_reg[0] < 0)
		return error_set(err, ERR_RUNTIME, "this build reads no user registers on "
				 "this architecture (x86-64 and arm64 only)");
	ap->n = cs->nprobes;
	ap->path = xcalloc(ap->n ? ap->n : 1, sizeof(char *));
	ap->offset = xcalloc(ap->n ? ap->n : 1, sizeof(uint64_t));
	ap->size = xcalloc(ap->n ? ap->n : 1, sizeof(*ap->size));
	for (size_t i = 0; i < ap->n; i++) {
		const struct callcount_probe *p = &cs->probes[i];
		size_t k = 0;

		ap->path[i] = p->object;
		ap->offset[i] = p->offset;
		if (p->metric == CALLCOUNT_SENTINEL) {
			ap->size[i] = AP_SPAWN;
			continue;
		}
		while (k < ARRAY_SIZE(sizes) && strcmp(sizes[k].name, p->symbol))
			k++;
		if (k == ARRAY_SIZE(sizes)) {
			allocprobe_release(ap);
			return error_set(err, ERR_RUNTIME, "no known size argument of '%s'",
					 p->symbol);
		}
		ap->size[i] = sizes[k].size;
	}
	ap->frames = frames;
	ap->so.event = SAMPLE_UPROBE;
	ap->so.chain = SAMPLE_CHAIN_DWARF;
	ap->so.stack_bytes = ALLOCPROBE_STACK;
	ap->so.pages = AP_PAGES;
	ap->so.uprobe_type = uprobe_type;
	ap->so.uprobe_path = ap->path;
	ap->so.uprobe_offset = ap->offset;
	ap->so.nuprobes = ap->n;
	return 0;
}

void allocprobe_release(struct allocprobe *ap)
{
	free(ap->path);
	free(ap->offset);
	free(ap->size);
	memset(ap, 0, sizeof(*ap));
}

/* ---- during the run: copying the records out --------------------------- */

static void on_record(void *ctx, const struct sample_rec *rec)
{
	struct allocprobe_run *r = ctx;

	if (rec->type == SREC_LOST) {
		r->lost += rec->lost;
	} else if (rec->type == SREC_MMAP) {
		for (size_t i = 0; i < r->nmaps; i++)
			if (r->map_pid[i] == rec->pid && r->maps[i].start == rec->start &&
			    r->maps[i].end == rec->start + rec->len &&
			    !strcmp(r->maps[i].path, rec->path))
				return;	/* the same image again (an exec of itself) */
		if (r->nmaps == r->maps_alloc) {
			ALLOC_GROW(r->maps, r->nmaps + 1, r->maps_alloc);
			r->map_pid = xrealloc(r->map_pid, r->maps_alloc * sizeof(uint32_t));
		}
		r->maps[r->nmaps] = (struct sym_map){ rec->start, rec->start + rec->len, rec->pgoff,
						      xstrdup(rec->path) };
		r->map_pid[r->nmaps++] = rec->pid;
	} else if (rec->type == SREC_SAMPLE) {
		struct allocprobe_hit *h;
		size_t need = SAMPLE_NREGS * 8 + rec->stack_len;

		ALLOC_GROW(r->hits, r->nhits + 1, r->hits_alloc);
		h = &r->hits[r->nhits++];
		*h = (struct allocprobe_hit){ rec->pid, rec->tid, rec->ip, r->nbytes, 0,
					      rec->nregs == SAMPLE_NREGS };
		if (!h->regs)
			return;
		ALLOC_GROW(r->bytes, r->nbytes + need, r->bytes_alloc);
		memcpy(r->bytes + r->nbytes, rec->regs, SAMPLE_NREGS * 8);
		memcpy(r->bytes + r->nbytes + SAMPLE_NREGS * 8, rec->stack, rec->stack_len);
		h->stack_len = rec->stack_len;
		r->nbytes += need;
	}
}

static void unwind_hits(struct allocprobe_run *r);

/* Copy out what the buffers hold; past AP_PENDING bytes of copies, unwind
 * them now (the run waits meanwhile only if its buffer fills up). */
static void drain(struct allocprobe_run *r)
{
	struct error err;

	error_clear(&err);
	if (sample_read(&r->set, on_record, r, &err) && !r->corrupt)
		r->corrupt = xstrdup(err.msg);
	if (r->nbytes > AP_PENDING)
		unwind_hits(r);
}

static void drain_ctx(void *ctx)
{
	drain(ctx);
}

int allocprobe_attach(struct allocprobe_run *r, const struct allocprobe *ap, pid_t pid,
		      struct error *err)
{
	memset(r, 0, sizeof(*r));
	r->ap = ap;
	if (sample_open(&r->set, pid, &ap->so, err))
		return -1;
	r->open = 1;
	sample_reader_start(&r->reader, &r->set, drain_ctx, r);
	return 0;
}


/* ---- after the run: unwinding and summing ------------------------------- */

/* The probe hit at ip of pid: its mapping's file offset, matched against
 * the probes' (a static program is its only object). -1 if none. */
static long probe_of(const struct allocprobe_run *r, uint32_t pid, uint64_t ip)
{
	for (size_t i = 0; i < r->nmaps; i++) {
		uint64_t off;

		if (r->map_pid[i] != pid || ip < r->maps[i].start || ip >= r->maps[i].end)
			continue;
		off = ip - r->maps[i].start + r->maps[i].pgoff;
		for (size_t k = 0; k < r->ap->n; k++)
			if (r->ap->offset[k] == off)
				return (long)k;
	}
	return -1;
}

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

/* The address space of a process whose hits are unwound: remade when the
 * mappings known change. */
struct allocprobe_space {
	uint32_t pid;
	size_t img;			/* its image in r->sites */
	size_t nmaps;			/* the mappings known when it was made */
	struct symbolizer *sy;
	struct unwinder *uw;
};

static void space_free(struct allocprobe_space *s)
{
	unwinder_free(s->uw);
	symbolizer_free(s->sy);
	s->uw = NULL;
	s->sy = NULL;
}

static struct allocprobe_space *space_of(struct allocprobe_run *r, uint32_t pid)
{
	struct allocprobe_space *s = NULL;
	struct callcount_sites *out = &r->sites;
	struct error e;

	for (size_t i = 0; i < r->nspaces && !s; i++)
		if (r->spaces[i].pid == pid)
			s = &r->spaces[i];
	if (!s) {
		r->spaces = xrealloc(r->spaces, (r->nspaces + 1) * sizeof(*r->spaces));
		s = &r->spaces[r->nspaces++];
		memset(s, 0, sizeof(*s));
		s->pid = pid;
		s->img = out->n;
		out->img = xrealloc(out->img, (out->n + 1) * sizeof(*out->img));
		r->sites_alloc = xrealloc(r->sites_alloc, (out->n + 1) * sizeof(size_t));
		r->sites_alloc[out->n] = 0;
		memset(&out->img[out->n], 0, sizeof(out->img[0]));
		out->img[out->n].pid = (int32_t)pid;
		out->img[out->n++].ended = 1;
		s->nmaps = (size_t)-1;
	}
	if (s->nmaps == r->nmaps)
		return s;
	space_free(s);
	s->nmaps = r->nmaps;
	s->sy = symbolizer_new();
	for (size_t i = 0; i < r->nmaps; i++) {
		if (r->map_pid[i] != pid)
			continue;
		error_clear(&e);
		symbolizer_add_map(s->sy, r->maps[i].start, r->maps[i].end - r->maps[i].start,
				   r->maps[i].pgoff, r->maps[i].path, &e);
	}
	s->uw = unwinder_new(s->sy, pid);
	return s;
}

static void add_site(struct allocprobe_run *r, size_t img, const uint64_t *frames, unsigned n,
		     uint64_t bytes)
{
	struct callcount_image *im = &r->sites.img[img];
	struct callcount_site *x;

	for (size_t i = 0; i < im->nsites; i++) {
		x = &im->sites[i];
		if (x->nframes == n && !memcmp(x->frames, frames, n * sizeof(*frames))) {
			x->calls++;
			x->bytes += bytes;
			return;
		}
	}
	ALLOC_GROW(im->sites, im->nsites + 1, r->sites_alloc[img]);
	x = &im->sites[im->nsites++];
	memset(x, 0, sizeof(*x));
	x->calls = 1;
	x->bytes = bytes;
	x->nframes = n;
	memcpy(x->frames, frames, n * sizeof(*frames));
}

/* Unwind the hits copied so far into sites, and drop their copies. */
static void unwind_hits(struct allocprobe_run *r)
{
	unsigned frames = r->ap->frames;

	if (frames > CALLCOUNT_MAX_FRAMES)
		frames = CALLCOUNT_MAX_FRAMES;
	for (size_t i = 0; i < r->nhits; i++) {
		const struct allocprobe_hit *h = &r->hits[i];
		long k = probe_of(r, h->pid, h->ip);
		struct allocprobe_space *s;
		uint64_t pcs[CALLCOUNT_MAX_FRAMES + 1], fr[CALLCOUNT_MAX_FRAMES];
		const uint64_t *regs = (const uint64_t *)(const void *)(r->bytes + h->at);
		int n;

		if (k >= 0 && r->ap->size[k] == AP_SPAWN) {
			r->spawns++;
			continue;
		}
		s = space_of(r, h->pid);
		if (k < 0 || !h->regs || !s->uw) {
			r->sites.img[s->img].unsited++;
			continue;
		}
		n = unwinder_frames(s->uw, h->tid, regs, r->bytes + h->at + SAMPLE_NREGS * 8,
				    h->stack_len, pcs, (int)frames + 1);
		/* pcs[0] is the probed function; pcs[1..] are inside the calls
		 * (return address - 1): the shim's frames are return addresses. */
		for (int f = 1; f < n; f++)
			fr[f - 1] = pcs[f] + 1;
		if (n < 2)
			r->sites.img[s->img].unsited++;
		else
			add_site(r, s->img, fr, (unsigned)(n - 1), size_of(r->ap->size[k], regs));
	}
	r->nhits = 0;
	r->nbytes = 0;
}

int allocprobe_finish(struct allocprobe_run *r, struct callcount_sites *out, uint64_t *spawns,
		      uint64_t *lost, struct error *err)
{
	memset(out, 0, sizeof(*out));
	*spawns = 0;
	*lost = 0;
	if (!r->open)
		return error_set(err, ERR_RUNTIME, "the uprobes were not opened");
	sample_reader_stop(&r->reader);
	drain(r);
	unwind_hits(r);
	*lost = r->lost;
	*spawns = r->spawns;
	if (r->corrupt)
		return error_set(err, ERR_RUNTIME, "%s", r->corrupt);
	/* Each image symbolized with every mapping its process reported. */
	for (size_t i = 0; i < r->sites.n; i++) {
		struct callcount_image *im = &r->sites.img[i];

		for (size_t m = 0; m < r->nmaps; m++) {
			if (r->map_pid[m] != (uint32_t)im->pid)
				continue;
			im->maps = xrealloc(im->maps, (im->nmaps + 1) * sizeof(struct sym_map));
			im->maps[im->nmaps] = r->maps[m];
			im->maps[im->nmaps++].path = xstrdup(r->maps[m].path);
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
	sample_reader_stop(&r->reader);
	if (r->open)
		sample_close(&r->set);
	for (size_t i = 0; i < r->nmaps; i++)
		free(r->maps[i].path);
	free(r->maps);
	free(r->map_pid);
	free(r->hits);
	free(r->bytes);
	free(r->corrupt);
	for (size_t i = 0; i < r->nspaces; i++)
		space_free(&r->spaces[i]);
	free(r->spaces);
	free(r->sites_alloc);
	callcount_sites_release(&r->sites);
	memset(r, 0, sizeof(*r));
}
