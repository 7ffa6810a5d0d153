/*
 * Allocation call sites from the preload shim's report file (see
 * callcount_abi.h): the SITE and MAP records each process image wrote
 * before its END record, grouped per image. A pid's records are in order
 * (one process writes them, at its end), and an image of a pid begins with
 * its START record, so an exec'd program's sites are never symbolized with
 * the mappings of the image before it.
 */
#include "backend/callcount_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

struct parse {
	struct callcount_sites *out;
	size_t alloc;
	size_t *site_alloc, *map_alloc;	/* per image */
};

/* The image pid is in now: its latest that has not ended, else a new one
 * (records of a pid whose START was lost). */
static struct callcount_image *current(struct parse *p, int32_t pid, int start)
{
	struct callcount_sites *o = p->out;

	for (size_t i = o->n; !start && i-- > 0;)
		if (o->img[i].pid == pid)
			return o->img[i].ended ? NULL : &o->img[i];
	if (o->n == p->alloc) {
		ALLOC_GROW(o->img, o->n + 1, p->alloc);
		p->site_alloc = xrealloc(p->site_alloc, p->alloc * sizeof(size_t));
		p->map_alloc = xrealloc(p->map_alloc, p->alloc * sizeof(size_t));
	}
	memset(&o->img[o->n], 0, sizeof(o->img[o->n]));
	p->site_alloc[o->n] = p->map_alloc[o->n] = 0;
	o->img[o->n].pid = pid;
	return &o->img[o->n++];
}

static void on_record(void *ctx, const struct callcount_hdr *h, const void *rec)
{
	struct parse *p = ctx;
	struct callcount_image *im = current(p, h->pid, h->kind == CC_REC_START);
	size_t k;

	if (!im)
		im = current(p, h->pid, 1);
	k = (size_t)(im - p->out->img);
	if (h->kind == CC_REC_SITE) {
		const struct callcount_site_rec *r = rec;
		struct callcount_site *s;

		ALLOC_GROW(im->sites, im->nsites + 1, p->site_alloc[k]);
		s = &im->sites[im->nsites++];
		s->calls = r->calls;
		s->bytes = r->bytes;
		s->temps = r->temps;
		s->nframes = r->nframes > CALLCOUNT_MAX_FRAMES ? CALLCOUNT_MAX_FRAMES : r->nframes;
		memcpy(s->frames, r->frames, sizeof(s->frames));
	} else if (h->kind == CC_REC_MAP) {
		const struct callcount_map_rec *r = rec;

		if (r->end <= r->start)
			return;
		ALLOC_GROW(im->maps, im->nmaps + 1, p->map_alloc[k]);
		im->maps[im->nmaps++] = (struct sym_map){ r->start, r->end, r->pgoff,
							  xstrdup(r->path) };
	} else if (h->kind != CC_REC_START) {
		im->unsited += ((const struct callcount_record *)rec)->unsited;
		im->flags |= ((const struct callcount_record *)rec)->flags;
		im->ended = 1;
	}
}

int callcount_parse_sites(const void *data, size_t len, struct callcount_sites *out,
			  struct error *err)
{
	struct parse p = { out, 0, NULL, NULL };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = cc_walk_records(data, len, on_record, &p, err);
	free(p.site_alloc);
	free(p.map_alloc);
	if (rc)
		callcount_sites_release(out);
	return rc;
}

int callcount_run_sites(const struct callcount_run *r, struct callcount_sites *out,
			struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = cc_read_report(r, &sb, err);
	if (!rc)
		rc = callcount_parse_sites(sb.buf, sb.len, out, err);
	strbuf_release(&sb);
	return rc;
}

void callcount_sites_release(struct callcount_sites *s)
{
	for (size_t i = 0; i < s->n; i++) {
		for (size_t m = 0; m < s->img[i].nmaps; m++)
			free(s->img[i].maps[m].path);
		free(s->img[i].maps);
		free(s->img[i].sites);
	}
	free(s->img);
	memset(s, 0, sizeof(*s));
}
