/*
 * strlist_has (see strlist.h): a walk over the items, comparing each by
 * length first, so no copy of the list is made and a name that is a prefix,
 * suffix or middle part of an item never matches.
 */
#include "core/strlist.h"

#include <string.h>

int strlist_has_sep(const char *list, const char *name, char sep)
{
	size_t n = strlen(name);

	if (!list || !n)
		return 0;
	for (;;) {
		const char *end = strchr(list, sep);
		size_t len = end ? (size_t)(end - list) : strlen(list);

		if (len == n && !memcmp(list, name, n))
			return 1;
		if (!end)
			return 0;
		list = end + 1;
	}
}

int strlist_has(const char *list, const char *name)
{
	return strlist_has_sep(list, name, ',');
}
