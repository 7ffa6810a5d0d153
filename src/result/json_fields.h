/*
 * Reading a JSON object through a table of its fields (key, type, where the
 * value goes, allowed range): each field checked in one place, a missing
 * optional field keeping its default, null counting as missing, a wrong type
 * or an out-of-range value an error naming the field and showing the value.
 * The result reader (json_read.c) is built on it; other documents read by
 * pmustat (a bisect's, result/bisect_doc.h) use the same table.
 */
#ifndef PMU_RESULT_JSON_FIELDS_H
#define PMU_RESULT_JSON_FIELDS_H

#include <stddef.h>
#include <jansson.h>

#include "core/error.h"

#define NFIELDS(a) (sizeof(a) / sizeof(*(a)))

enum field_type { F_INT, F_UINT, F_U32, F_SIZE, F_U64, F_NUM, F_BOOL, F_STR, F_CHARS };

struct field {
	const char *key;
	enum field_type type;
	void *dst;		/* int, unsigned, uint32_t, size_t, uint64_t, double, int,
				 * char * (owned, replaced), char[hi] */
	long long lo, hi;	/* integers: the allowed range; F_CHARS: hi = buffer size */
	int required;
};

/* Read the fields of object o (what: its name, for an error when it is not
 * an object; a missing o has every field missing). */
int json_fields_read(json_t *o, const char *what, const struct field *fields, size_t n,
		     struct error *err);
/* The error for member key being v (NULL: missing) instead of want:
 * "'block' is 1e+300, not an integer from 0 to 16777215". Returns -1. */
int json_field_bad(const char *key, json_t *v, const char *want, struct error *err);

#endif
