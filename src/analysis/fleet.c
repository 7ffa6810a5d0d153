/*
 * Merging one campaign's results from many hosts (analysis/fleet.h): the
 * checks that they are one campaign, the grouping by uarch or host, and the
 * pooling. A group's pooled result is its first host's result with the
 * others merged into it (result_merge keeps each host's blocks apart); the
 * comparison of a group is comparisons_compute() on it, so a group of one
 * host gives exactly that host's own report. The table and the JSON view
 * are in fleet_render.c.
 */
#include "analysis/fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int argv_equal(char **a, char **b)
{
	for (; *a && *b; a++, b++)
		if (strcmp(*a, *b))
			return 0;
	return !*a && !*b;
}

static int refuse(struct error *err, const char *b_name, const char *hint, const char *fmt,
		  const char *x, const char *y)
{
	char what[512];

	snprintf(what, sizeof(what), fmt, x, y);
	error_set(err, ERR_USAGE, "cannot merge '%s': %s", b_name, what);
	return error_hint(err, "%s", hint);
}

/* Where the two command lines differ, in words; "" when they do not. */
static void shape_difference(const struct result *a, const struct result *b, char *out,
			     size_t len)
{
	out[0] = '\0';
	if (strcmp(a->command, b->command))
		snprintf(out, len, "it ran '%s', not '%s'", b->command, a->command);
	else if (a->nvariants != b->nvariants)
		snprintf(out, len, "it has %zu variants, not %zu", b->nvariants, a->nvariants);
	else if (a->nmetrics != b->nmetrics)
		snprintf(out, len, "it has %zu metrics, not %zu", b->nmetrics, a->nmetrics);
	for (size_t i = 0; !out[0] && i < a->nvariants; i++)
		if (strcmp(a->variants[i].name, b->variants[i].name) ||
		    !argv_equal(a->variants[i].argv, b->variants[i].argv))
			snprintf(out, len, "variant %zu ('%s') ran another command line", i + 1,
				 b->variants[i].name);
	for (size_t i = 0; !out[0] && i < a->nmetrics; i++)
		if (strcmp(a->metrics[i].name, b->metrics[i].name))
			snprintf(out, len, "metric %zu is '%s', not '%s'", i + 1,
				 b->metrics[i].name, a->metrics[i].name);
	if (!out[0] && (a->repeat != b->repeat || a->warmup != b->warmup))
		snprintf(out, len, "it ran with other block limits (-r %u --warmup %u, not "
			 "-r %u --warmup %u)", b->repeat, b->warmup, a->repeat, a->warmup);
}

int fleet_check_version(const struct result *a, const struct result *b, const char *b_name,
			struct error *err)
{
	if (!strcmp(a->tool_version, b->tool_version))
		return 0;
	return refuse(err, b_name, "run the same pmustat on every machine (a shared "
		      "installation, or the same release), then the campaign again",
		      "it was written by pmustat %s, the others by pmustat %s",
		      *b->tool_version ? b->tool_version : "(version not recorded)",
		      *a->tool_version ? a->tool_version : "(version not recorded)");
}

int fleet_check(const struct result *a, const char *a_name, const struct result *b,
		const char *b_name, struct error *err)
{
	char diff[384], sa[24], sb[24];

	if (fleet_check_version(a, b, b_name, err))
		return -1;
	shape_difference(a, b, diff, sizeof(diff));
	if (diff[0]) {
		error_set(err, ERR_USAGE, "cannot merge '%s' with '%s': %s", b_name, a_name, diff);
		return error_hint(err, "merge only results of one command line (same command, "
				       "variants, -m/-e and block limits)");
	}
	if (a->seed != b->seed) {
		snprintf(sa, sizeof(sa), "%llu", (unsigned long long)a->seed);
		snprintf(sb, sizeof(sb), "%llu", (unsigned long long)b->seed);
		return refuse(err, b_name, "run every machine with the same '--seed N' "
			      "(pmustat fleet does)", "its seed is %s, the others' %s", sb, sa);
	}
	return 0;
}

/* This host's ratio (compare) or mean (stat) per variant and metric. */
static void host_values(struct fleet_host *h, const struct result *r, int compare)
{
	size_t nm = r->nmetrics;
	struct comparison_set cs;

	h->value = xcalloc(r->nvariants * nm, sizeof(double));
	for (size_t i = 0; i < r->nvariants * nm; i++)
		h->value[i] = NAN;
	if (!compare) {
		for (size_t m = 0; m < nm; m++) {
			double *x = NULL, sum = 0;
			size_t n = result_collect(r, 0, m, &x);

			for (size_t i = 0; i < n; i++)
				sum += x[i];
			if (n)
				h->value[m] = sum / (double)n;
			free(x);
		}
		return;
	}
	comparisons_compute(r, &cs);
	for (size_t i = 0; i < cs.n; i++)
		if (cs.c[i].method != CMP_NONE)
			h->value[cs.c[i].variant * nm + cs.c[i].metric] = cs.c[i].ratio;
	comparisons_release(&cs);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Host names, made unique: several tasks on one node (a test, or srun -n
 * larger than -N) are told apart by their Slurm task. */
static void label_hosts(struct fleet *f)
{
	for (size_t i = 0; i < f->nhosts; i++) {
		struct fleet_host *h = &f->hosts[i];
		int shared = 0;

		for (size_t j = 0; j < f->nhosts; j++)
			shared |= j != i && !strcmp(f->hosts[j].host.hostname, h->host.hostname);
		if (!h->host.hostname[0])
			snprintf(h->label, sizeof(h->label), "%s", base_name(h->file));
		else if (shared && h->host.slurm_task >= 0)
			snprintf(h->label, sizeof(h->label), "%s/task %d", h->host.hostname,
				 h->host.slurm_task);
		else if (shared)
			snprintf(h->label, sizeof(h->label), "%s (%s)", h->host.hostname,
				 base_name(h->file));
		else
			snprintf(h->label, sizeof(h->label), "%s", h->host.hostname);
		snprintf(h->uarch, sizeof(h->uarch), "%s",
			 h->host.uarch[0] ? h->host.uarch : "unknown");
	}
}

static struct fleet_group *group_of(struct fleet *f, const char *name)
{
	struct fleet_group *g;

	for (size_t i = 0; i < f->ngroups; i++)
		if (!strcmp(f->groups[i].name, name))
			return &f->groups[i];
	g = &f->groups[f->ngroups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->hosts = xcalloc(f->nhosts, sizeof(size_t));
	return g;
}

/* Host i's runs into its group: the first host's result becomes the pool. */
static int pool_host(struct fleet *f, struct result *r, size_t i, struct error *err)
{
	struct fleet_host *h = &f->hosts[i];
	struct fleet_group *g = group_of(f, f->by == FLEET_BY_UARCH ? h->uarch : h->label);
	int rc = 0;

	if (!g->nhosts) {
		g->pooled = *r;
		memset(r, 0, sizeof(*r));
	} else {
		rc = result_merge(&g->pooled, r, h->file, err);
		result_release(r);
	}
	g->hosts[g->nhosts++] = i;
	return rc;
}

static void release_results(struct result *rs, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		result_release(&rs[i]);
}

int fleet_build(struct fleet *f, struct result *rs, const char *const *files, size_t n,
		enum fleet_by by, struct error *err)
{
	memset(f, 0, sizeof(*f));
	f->by = by;
	for (size_t i = 1; i < n; i++)
		if (fleet_check(&rs[0], files[0], &rs[i], files[i], err)) {
			release_results(rs, 0, n);
			return -1;
		}
	f->compare = n && rs[0].nvariants >= 2;
	f->hosts = xcalloc(n ? n : 1, sizeof(*f->hosts));
	f->groups = xcalloc(n ? n : 1, sizeof(*f->groups));
	f->nhosts = n;
	for (size_t i = 0; i < n; i++) {
		f->hosts[i].file = xstrdup(files[i]);
		f->hosts[i].host = rs[i].host;
		host_values(&f->hosts[i], &rs[i], f->compare);
	}
	label_hosts(f);
	for (size_t i = 0; i < n; i++)
		if (pool_host(f, &rs[i], i, err)) {
			release_results(rs, i + 1, n);
			fleet_release(f);
			return -1;
		}
	for (size_t g = 0; f->compare && g < f->ngroups; g++) {
		comparisons_compute(&f->groups[g].pooled, &f->groups[g].cs);
		comparisons_noise(&f->groups[g].pooled, &f->groups[g].cs, &f->groups[g].noise);
	}
	return 0;
}

void fleet_release(struct fleet *f)
{
	for (size_t i = 0; i < f->nhosts; i++) {
		free(f->hosts[i].file);
		free(f->hosts[i].value);
	}
	for (size_t g = 0; g < f->ngroups; g++) {
		free(f->groups[g].hosts);
		if (f->compare)
			comparisons_release(&f->groups[g].cs);
		result_release(&f->groups[g].pooled);
	}
	free(f->hosts);
	free(f->groups);
	memset(f, 0, sizeof(*f));
}
