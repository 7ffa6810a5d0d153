/*
 * Reading the host's cache geometry from sysfs (see caches.h). Each
 * cpu0/cache/index<N>/ directory is one cache as the kernel's
 * drivers/base/cacheinfo.c shows it: `size` is printed as "%uK", and an
 * attribute whose value is 0 is hidden rather than shown as 0. The entries
 * are visited in index order so that "the first of a level and type wins"
 * does not depend on readdir(). As in host/sysfs.c, a file that is there but
 * unreadable or malformed is an error naming it: a geometry quietly built
 * from half the files would simulate the wrong machine.
 */
#include "host/caches.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "host/sysfs.h"

/* Read dir/name: 0 with *out malloc'd, 1 when absent, -1 on error. */
static int attr(const char *dir, const char *name, char **out, struct error *err)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s/%s", dir, name);
	r = sysfs_read_text(p.buf, out, err);
	strbuf_release(&p);
	return r;
}

/* A decimal number; with suffixes, also "32K", "1024K" (what the kernel
 * prints for size), "16M" or "1G". */
static int parse_num(const char *text, int suffixes, uint64_t *v)
{
	uint64_t mul = 1;
	char *end;

	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	*v = strtoull(text, &end, 10);
	if (errno)
		return -1;
	if (suffixes && (*end == 'K' || *end == 'k'))
		mul = 1ull << 10;
	else if (suffixes && (*end == 'M' || *end == 'm'))
		mul = 1ull << 20;
	else if (suffixes && (*end == 'G' || *end == 'g'))
		mul = 1ull << 30;
	if (mul > 1)
		end++;
	if (*end || *v > UINT64_MAX / mul)
		return -1;
	*v *= mul;
	return 0;
}

/* A number attribute ("size" may carry a K/M/G suffix); absent = 0. */
static int attr_num(const char *dir, const char *name, uint64_t *v, struct error *err)
{
	char *text;
	int r = attr(dir, name, &text, err);

	*v = 0;
	if (r)
		return r < 0 ? -1 : 0;
	if (parse_num(text, !strcmp(name, "size"), v) < 0)
		r = error_set(err, ERR_RUNTIME, "cannot parse '%s/%s': '%s' is not a %s", dir,
			      name, text, strcmp(name, "size") ? "number" : "size");
	free(text);
	return r;
}

/*
 * One index<N> directory into c, with its level and type. Returns 0, 1 when
 * it describes no usable cache (no level, type or size), -1 on error.
 */
static int read_index(const char *dir, struct host_cache *c, uint64_t *level, char **type,
		      struct error *err)
{
	uint64_t size, ways, line, sets, parts;
	char *cpus = NULL;
	int r;

	memset(c, 0, sizeof(*c));
	*type = NULL;
	if (attr_num(dir, "level", level, err) || attr_num(dir, "size", &size, err) ||
	    attr_num(dir, "ways_of_associativity", &ways, err) ||
	    attr_num(dir, "coherency_line_size", &line, err) ||
	    attr_num(dir, "number_of_sets", &sets, err) ||
	    attr_num(dir, "physical_line_partition", &parts, err))
		return -1;
	if ((r = attr(dir, "type", type, err)) < 0)
		return -1;
	if (r == 1 || !*level || !size)
		return 1;
	if (!parts)
		parts = 1;
	/* ways is hidden when the kernel has 0 for it; the other three give it. */
	if (!ways && sets && line && size % (sets * line * parts) == 0)
		ways = size / (sets * line * parts);
	if (ways > 0xffffffffu || line > 0xffffffffu)
		return error_set(err, ERR_RUNTIME, "implausible cache in '%s': %llu ways, "
				 "%llu B lines", dir, (unsigned long long)ways,
				 (unsigned long long)line);
	c->size = size;
	c->assoc = (unsigned)ways;
	c->line = (unsigned)line;
	if ((r = attr(dir, "shared_cpu_list", &cpus, err)) < 0)
		return -1;
	if (!r)
		snprintf(c->shared_cpus, sizeof(c->shared_cpus), "%s", cpus);
	free(cpus);
	return 0;
}

/* Put c where its level and type say; the first of each slot wins. */
static void place(struct host_caches *out, uint64_t level, const char *type,
		  const struct host_cache *c)
{
	struct host_cache *slot[2] = { NULL, NULL };

	if (level == 1 && !strcmp(type, "Data"))
		slot[0] = &out->l1d;
	else if (level == 1 && !strcmp(type, "Instruction"))
		slot[0] = &out->l1i;
	else if (level == 1 && !strcmp(type, "Unified"))
		slot[0] = &out->l1d, slot[1] = &out->l1i;
	else if ((level == 2 || level == 3) && (!strcmp(type, "Unified") || !strcmp(type, "Data")))
		slot[0] = level == 2 ? &out->l2 : &out->l3;
	for (int i = 0; i < 2; i++)
		if (slot[i] && !slot[i]->size)
			*slot[i] = *c;
}

/* index<N> entries of dir in numeric order; *n = 0 when there are none. */
static int index_numbers(const char *dir, long **nums, size_t *n, struct error *err)
{
	char **names;
	size_t count, alloc = 0;
	int r = sysfs_list_dir(dir, &names, &count, err);

	*nums = NULL;
	*n = 0;
	if (r)
		return r;
	for (size_t i = 0; i < count; i++) {
		char *end = names[i];
		long k = strncmp(names[i], "index", 5) ? -1 : strtol(names[i] + 5, &end, 10);

		if (k >= 0 && end != names[i] + 5 && !*end) {
			ALLOC_GROW(*nums, *n + 1, alloc);
			(*nums)[(*n)++] = k;
		}
		free(names[i]);
	}
	free(names);
	/* Names sort as text (index10 < index2): order the numbers. */
	for (size_t i = 1; i < *n; i++)
		for (size_t j = i; j && (*nums)[j - 1] > (*nums)[j]; j--) {
			long t = (*nums)[j];

			(*nums)[j] = (*nums)[j - 1];
			(*nums)[j - 1] = t;
		}
	return 0;
}

int host_cache_geometry(const char *root, struct host_caches *out, struct error *err)
{
	struct strbuf dir = STRBUF_INIT, idx = STRBUF_INIT;
	long *nums;
	size_t n;
	int r;

	memset(out, 0, sizeof(*out));
	strbuf_addf(&dir, "%s/devices/system/cpu/cpu0/cache", root ? root : sysfs_root());
	r = index_numbers(dir.buf, &nums, &n, err);
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct host_cache c;
		uint64_t level;
		char *type;

		strbuf_reset(&idx);
		strbuf_addf(&idx, "%s/index%ld", dir.buf, nums[i]);
		r = read_index(idx.buf, &c, &level, &type, err);
		if (r == 0)
			place(out, level, type, &c);
		free(type);
		r = r < 0 ? -1 : 0;
	}
	free(nums);
	if (r >= 0 && !out->l1i.size && !out->l1d.size && !out->l2.size && !out->l3.size) {
		error_set(err, ERR_RUNTIME, "'%s' describes no caches: %s", dir.buf,
			  r == 1 ? "it does not exist" : "no index entry with a level, type "
			  "and size");
		error_hint(err, "virtual machines often hide the cache topology; pass "
			   "'--uarch NAME' to simulate a known core's caches");
		r = -1;
	}
	strbuf_release(&dir);
	strbuf_release(&idx);
	return r < 0 ? -1 : 0;
}
