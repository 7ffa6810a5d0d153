/*
 * Call-chain coverage (see chains.h). Functions are numbered by first
 * sight; callers[f] is the set of functions seen above f in any stack, a
 * bit per function.
 */
#include "report/chains.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "report/attribution.h"

struct chain {
	size_t metric;
	size_t *fn, n;		/* root first */
	int complete;
};

struct chain_info {
	char **names;
	size_t nnames, anames;
	struct chain *chains;
	size_t nchains;
	uint64_t *callers;	/* nnames rows of words */
	size_t words;
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
	for (size_t i = 0; i < ci->nnames; i++)
		if (strlen(ci->names[i]) == len && !memcmp(ci->names[i], s, len))
			return i;
	ALLOC_GROW(ci->names, ci->nnames + 1, ci->anames);
	ci->names[ci->nnames] = xstrndup(s, len);
	return ci->nnames++;
}

static int find_name(const struct chain_info *ci, const char *key, size_t *id)
{
	for (size_t i = 0; i < ci->nnames; i++)
		if (!strcmp(ci->names[i], key)) {
			*id = i;
			return 0;
		}
	return -1;
}

static int is_caller(const struct chain_info *ci, size_t f, size_t a)
{
	return (ci->callers[f * ci->words + a / 64] >> (a % 64)) & 1;
}

struct chain_info *chains_build(const struct result *r)
{
	struct chain_info *ci = xcalloc(1, sizeof(*ci));
	size_t plen = strlen(PROFILE_STACK);

	for (size_t m = 0; m < r->nmetrics; m++) {
		const char *name = r->metrics[m].name, *p, *semi;
		struct chain *c;
		size_t a = 0;

		if (r->metrics[m].source != MSRC_PROFILE || strncmp(name, PROFILE_STACK, plen))
			continue;
		ci->chains = xrealloc(ci->chains, (ci->nchains + 1) * sizeof(*ci->chains));
		c = &ci->chains[ci->nchains++];
		memset(c, 0, sizeof(*c));
		c->metric = m;
		for (p = name + plen;; p = semi + 1) {
			semi = strchr(p, ';');
			ALLOC_GROW(c->fn, c->n + 1, a);
			c->fn[c->n++] = name_id(ci, p, semi ? (size_t)(semi - p) : strlen(p));
			if (!semi)
				break;
		}
		c->complete = profile_is_root(ci->names[c->fn[0]]);
	}
	if (!ci->nchains) {
		chains_free(ci);
		return NULL;
	}
	ci->words = (ci->nnames + 63) / 64;
	ci->callers = xcalloc(ci->nnames * ci->words + 1, sizeof(uint64_t));
	for (size_t i = 0; i < ci->nchains; i++) {
		const struct chain *c = &ci->chains[i];

		for (size_t k = 1; k < c->n; k++)
			for (size_t j = 0; j < k; j++)
				if (c->fn[j] != c->fn[k])
					ci->callers[c->fn[k] * ci->words + c->fn[j] / 64] |=
						1ull << (c->fn[j] % 64);
	}
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
	free(ci->names);
	free(ci->chains);
	free(ci->callers);
	free(ci);
}

/* Could chain c be missing f above its cut? */
static int could_miss(const struct chain_info *ci, const struct chain *c, size_t f)
{
	if (c->complete)
		return 0;
	for (size_t k = 0; k < c->n; k++)
		if (c->fn[k] == f || is_caller(ci, f, c->fn[k]))
			return 0;
	return 1;
}

double chains_missing(const struct chain_info *ci, const struct result *r, const char *key,
		      const size_t *runs, size_t n)
{
	size_t f;
	double sum = 0;

	if (!ci || !n || find_name(ci, key, &f))
		return 0;
	for (size_t i = 0; i < ci->nchains; i++) {
		const struct chain *c = &ci->chains[i];

		if (!could_miss(ci, c, f))
			continue;
		for (size_t k = 0; k < n; k++) {
			const struct result_value *v = &r->runs[runs[k]].values[c->metric];

			if (v->valid)
				sum += v->value;
		}
	}
	return sum / (double)n;
}
