/*
 * CPU and id lists (see idlist.h). The grammar is the kernel's cpulist
 * format (Documentation/admin-guide/kernel-parameters.rst, "cpu lists"),
 * without its stride form ("0-7:2"), which perf's -C does not take either.
 */
#include "core/idlist.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* A decimal number at *p (no sign, no blanks), advanced past it. */
static int number(const char **p, long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	*v = strtol(*p, &end, 10);
	if (*v > IDLIST_MAX)
		return -1;
	*p = end;
	return 0;
}

static int bad_item(const char *what, const char *list, const char *item, size_t len,
		    struct error *err)
{
	error_set(err, ERR_USAGE, "invalid %s '%s': bad item '%.*s'", what, list, (int)len, item);
	return error_hint(err, "give numbers and ascending ranges separated by commas, "
			  "e.g. '0-3,8'");
}

static void push(int **ids, size_t *n, size_t *alloc, long v)
{
	if (*n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 16;
		*ids = xrealloc(*ids, *alloc * sizeof(int));
	}
	(*ids)[(*n)++] = (int)v;
}

/* One item "a" or "a-b" at the start of s, ending at a comma or the end. */
static int parse_item(const char *s, size_t len, int ranges, long *lo, long *hi)
{
	const char *p = s;

	if (number(&p, lo))
		return -1;
	*hi = *lo;
	if (ranges && *p == '-') {
		p++;
		if (number(&p, hi) || *hi < *lo)
			return -1;
	}
	return p == s + len ? 0 : -1;
}

int idlist_parse(const char *list, int ranges, const char *what, int **ids, size_t *n,
		 struct error *err)
{
	const char *s = list;
	size_t alloc = 0;

	*ids = NULL;
	*n = 0;
	if (!*list) {
		error_set(err, ERR_USAGE, "empty %s", what);
		return error_hint(err, "give at least one number, e.g. '0'");
	}
	for (;;) {
		size_t len = strcspn(s, ",");
		long lo, hi;

		if (!len || parse_item(s, len, ranges, &lo, &hi))
			goto bad;
		if (hi - lo >= IDLIST_MAX)
			goto bad;
		for (long v = lo; v <= hi; v++)
			push(ids, n, &alloc, v);
		if (!s[len])
			break;
		s += len + 1;
		continue;
bad:
		bad_item(what, list, s, len, err);
		free(*ids);
		*ids = NULL;
		*n = 0;
		return -1;
	}
	sort_n(*ids, *n, sizeof(int), cmp_int);
	for (size_t i = 1; i < *n; i++)
		if ((*ids)[i] == (*ids)[i - 1]) {
			error_set(err, ERR_USAGE, "invalid %s '%s': %d is listed twice", what,
				  list, (*ids)[i]);
			error_hint(err, "list each number once");
			free(*ids);
			*ids = NULL;
			*n = 0;
			return -1;
		}
	return 0;
}

void idlist_format(const int *ids, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		if (i)
			strbuf_addch(out, ',');
		if (j - i >= 2)
			strbuf_addf(out, "%d-%d", ids[i], ids[j]);
		else if (j == i + 1)
			strbuf_addf(out, "%d,%d", ids[i], ids[j]);
		else
			strbuf_addf(out, "%d", ids[i]);
		i = j + 1;
	}
}

int idlist_has(const int *ids, size_t n, int id)
{
	return bsearch(&id, ids, n, sizeof(int), cmp_int) != NULL;
}
