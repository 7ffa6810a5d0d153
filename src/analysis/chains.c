/*
 * Call-chain coverage (see chains.h). Functions are numbered by first
 * sight (a hash map from name to number). What a cut chain c vouches for
 * is its coverage: the functions of c, and every function seen below one
 * of them in any chain (f is below a in some chain: a is a caller of f, so
 * c, which holds a, cannot be missing f above its cut). A function's
 * missing time is then the weight of the cut chains that do not cover it.
 *
 * The coverage of c is found chain by chain: in a chain d, everything
 * below the first frame that c also holds is covered, and which chains
 * hold which function (and first where) is indexed once. So the work is
 * the frames of the chains that share a function with c, per cut chain —
 * linear in the depth of a stack, where comparing every pair of frames of
 * a deep stack (and a bit per pair of functions) was quadratic in time and
 * memory. chains_work counts it, for the tests.
 */
#include "analysis/chains.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/strmap.h"
#include "analysis/attribution.h"

struct chain {
	size_t metric;
	size_t *fn, n;		/* root first */
	int complete;
};

/* Lists in one array: list i is at[start[i] .. start[i + 1]). */
struct lists {
	size_t *start, *at;
};

struct sizes {
	size_t *v, n, alloc;
};

static void sizes_add(struct sizes *s, size_t x)
{
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = x;
}

static size_t *sizes_dup(const size_t *v, size_t n)
{
	size_t *d = xmalloc((n + 1) * sizeof(size_t));

	memcpy(d, v, n * sizeof(size_t));
	return d;
}

struct chain_info {
	char **names;
	size_t nnames, anames;
	struct strmap ids;		/* name -> its index in names */
	struct chain *chains;
	size_t nchains, achains;
	size_t *cut;			/* the indices of the cut chains */
	size_t ncut;
	struct lists covering;		/* per function: the cut chains (in cut[]
					 * order) that cover it */
	size_t work;			/* frames visited (chains_work) */
};

int profile_is_root(const char *key)
{
	static const char *const roots[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "start_thread",
		"clone", "clone3", "__clone", "__clone3", "thread_start", "_dl_start",
		"_dl_start_user", "_dl_start_final",
	};

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!strcmp(key, roots[i]))
			return 1;
	return 0;
}

static size_t name_id(struct chain_info *ci, const char *s, size_t len)
{
	size_t id;

	if (!strmap_get(&ci->ids, s, len, &id))
		return id;
	ALLOC_GROW(ci->names, ci->nnames + 1, ci->anames);
	ci->names[ci->nnames] = xstrndup(s, len);
	strmap_put(&ci->ids, ci->names[ci->nnames], len, ci->nnames);
	return ci->nnames++;
}

static void add_chain(struct chain_info *ci, size_t m, const char *p)
{
	struct chain *c;
	size_t a = 0;

	ALLOC_GROW(ci->chains, ci->nchains + 1, ci->achains);
	c = &ci->chains[ci->nchains++];
	memset(c, 0, sizeof(*c));
	c->metric = m;
	for (const char *semi;; p = semi + 1) {
		semi = strchr(p, ';');
		ALLOC_GROW(c->fn, c->n + 1, a);
		c->fn[c->n++] = name_id(ci, p, semi ? (size_t)(semi - p) : strlen(p));
		if (!semi)
			break;
	}
	c->complete = profile_is_root(ci->names[c->fn[0]]);
}

/* Turn per-list counts (in start[1..n]) into starts, and room for them. */
static void lists_alloc(struct lists *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		l->start[i + 1] += l->start[i];
	l->at = xmalloc((l->start[n] + 1) * sizeof(size_t));
}

/* Where each function first appears in each chain: occ lists per function
 * of (chain, position) pairs, flattened two numbers per entry. */
static void index_occurrences(struct chain_info *ci, struct lists *occ)
{
	size_t *seen = xmalloc((ci->nnames + 1) * sizeof(size_t)), *fill = NULL;

	occ->start = xcalloc(ci->nnames + 1, sizeof(size_t));
	for (int pass = 0; pass < 2; pass++) {
		memset(seen, 0xff, (ci->nnames + 1) * sizeof(size_t));
		if (pass)
			fill = sizes_dup(occ->start, ci->nnames + 1);
		for (size_t d = 0; d < ci->nchains; d++)
			for (size_t k = 0; k < ci->chains[d].n; k++) {
				size_t f = ci->chains[d].fn[k];

				ci->work++;
				if (seen[f] == d)
					continue;
				seen[f] = d;
				if (!pass) {
					occ->start[f + 1] += 2;
				} else {
					occ->at[fill[f]++] = d;
					occ->at[fill[f]++] = k;
				}
			}
		if (!pass)
			lists_alloc(occ, ci->nnames);
	}
	free(fill);
	free(seen);
}

/* The functions cut chain c covers, in cov (each once; mark[f] == stamp
 * once listed). first[d] is scratch, SIZE_MAX between calls. */
static void coverage(struct chain_info *ci, const struct chain *c, const struct lists *occ,
		     size_t *first, size_t *mark, size_t stamp, struct sizes *cov)
{
	size_t *touched = NULL, nt = 0, at = 0;

	for (size_t k = 0; k < c->n; k++) {
		size_t g = c->fn[k];

		if (mark[g] == stamp)
			continue;
		mark[g] = stamp;
		sizes_add(cov, g);
		for (size_t o = occ->start[g]; o < occ->start[g + 1]; o += 2) {
			size_t d = occ->at[o], pos = occ->at[o + 1];

			ci->work++;
			if (first[d] == SIZE_MAX) {
				ALLOC_GROW(touched, nt + 1, at);
				touched[nt++] = d;
			}
			if (pos < first[d])
				first[d] = pos;
		}
	}
	for (size_t t = 0; t < nt; t++) {
		const struct chain *d = &ci->chains[touched[t]];

		for (size_t k = first[touched[t]] + 1; k < d->n; k++) {
			ci->work++;
			if (mark[d->fn[k]] != stamp) {
				mark[d->fn[k]] = stamp;
				sizes_add(cov, d->fn[k]);
			}
		}
		first[touched[t]] = SIZE_MAX;
	}
	free(touched);
}

/* ci->covering: per function, the cut chains covering it. */
static void index_coverage(struct chain_info *ci)
{
	struct lists occ = { 0 };
	struct sizes *cov = xcalloc(ci->ncut + 1, sizeof(*cov));
	size_t *first = xmalloc((ci->nchains + 1) * sizeof(size_t));
	size_t *mark = xcalloc(ci->nnames + 1, sizeof(size_t)), *fill;

	index_occurrences(ci, &occ);
	memset(first, 0xff, (ci->nchains + 1) * sizeof(size_t));
	ci->covering.start = xcalloc(ci->nnames + 1, sizeof(size_t));
	for (size_t i = 0; i < ci->ncut; i++) {
		coverage(ci, &ci->chains[ci->cut[i]], &occ, first, mark, i + 1, &cov[i]);
		for (size_t j = 0; j < cov[i].n; j++)
			ci->covering.start[cov[i].v[j] + 1]++;
	}
	lists_alloc(&ci->covering, ci->nnames);
	fill = sizes_dup(ci->covering.start, ci->nnames + 1);
	for (size_t i = 0; i < ci->ncut; i++) {
		for (size_t j = 0; j < cov[i].n; j++)
			ci->covering.at[fill[cov[i].v[j]]++] = i;
		free(cov[i].v);
	}
	free(fill);
	free(cov);
	free(first);
	free(mark);
	free(occ.start);
	free(occ.at);
}

struct chain_info *chains_build(const struct result *r)
{
	struct chain_info *ci = xcalloc(1, sizeof(*ci));
	size_t plen = strlen(PROFILE_STACK), acut = 0;

	for (size_t m = 0; m < r->nmetrics; m++)
		if (r->metrics[m].source == MSRC_PROFILE &&
		    !strncmp(r->metrics[m].name, PROFILE_STACK, plen))
			add_chain(ci, m, r->metrics[m].name + plen);
	if (!ci->nchains) {
		chains_free(ci);
		return NULL;
	}
	for (size_t i = 0; i < ci->nchains; i++)
		if (!ci->chains[i].complete) {
			ALLOC_GROW(ci->cut, ci->ncut + 1, acut);
			ci->cut[ci->ncut++] = i;
		}
	index_coverage(ci);
	return ci;
}

void chains_free(struct chain_info *ci)
{
	if (!ci)
		return;
	for (size_t i = 0; i < ci->nnames; i++)
		free(ci->names[i]);
	for (size_t i = 0; i < ci->nchains; i++)
		free(ci->chains[i].fn);
	strmap_release(&ci->ids);
	free(ci->names);
	free(ci->chains);
	free(ci->cut);
	free(ci->covering.start);
	free(ci->covering.at);
	free(ci);
}

double *chains_weights(const struct chain_info *ci, const struct result *r, const size_t *runs,
		       size_t n)
{
	double *w;

	if (!ci)
		return NULL;
	w = xcalloc(ci->ncut + 1, sizeof(double));
	for (size_t i = 0; i < ci->ncut; i++) {
		size_t m = ci->chains[ci->cut[i]].metric;

		for (size_t k = 0; k < n; k++) {
			const struct result_value *v = &r->runs[runs[k]].values[m];

			if (v->valid)
				w[i] += v->value;
		}
		w[i] = n ? w[i] / (double)n : 0;
		w[ci->ncut] += w[i];
	}
	return w;
}

double chains_missing(const struct chain_info *ci, const double *weights, const char *key)
{
	double covered = 0, miss;
	size_t f;

	if (!ci || !weights || strmap_get(&ci->ids, key, strlen(key), &f))
		return 0;
	for (size_t i = ci->covering.start[f]; i < ci->covering.start[f + 1]; i++)
		covered += weights[ci->covering.at[i]];
	miss = weights[ci->ncut] - covered;
	return miss > 0 ? miss : 0;
}

size_t chains_work(const struct chain_info *ci)
{
	return ci ? ci->work : 0;
}
