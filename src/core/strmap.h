/*
 * A map from strings to numbers (an index into the caller's array), for
 * finding a name among many in constant time where a linear search would
 * make a loop over names quadratic: the function names of a profile's
 * stacks, the metric names of a result read from a journal. The map does
 * not own its keys: they must stay where they are (and unchanged) while the
 * map is used — typically the names the caller's array holds anyway.
 */
#ifndef PMU_CORE_STRMAP_H
#define PMU_CORE_STRMAP_H

#include <stddef.h>

struct strmap_slot;

struct strmap {
	struct strmap_slot *slot;	/* open addressing, linear probing */
	size_t cap, n;			/* cap a power of two, n < cap / 2 */
};

#define STRMAP_INIT { NULL, 0, 0 }

/* The value of the len bytes at s: 0 and *value set, or -1 when absent. */
int strmap_get(const struct strmap *m, const char *s, size_t len, size_t *value);

/* Map key (len bytes, not copied) to value, replacing an earlier value. */
void strmap_put(struct strmap *m, const char *key, size_t len, size_t value);

void strmap_release(struct strmap *m);

#endif
