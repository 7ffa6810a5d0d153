/*
 * Lookup in the table of embedded data files. The table itself is generated
 * at build time (data/build.mk runs data/embedgen.c over data/) into
 * embed_table[] / embed_count; it is sorted by name, so a lookup is a binary
 * search.
 */
#include "core/embed.h"

#include <stdlib.h>
#include <string.h>

/* Defined by the generated source ($(BUILD)/gen/embed_data.c). */
extern const struct embed_file embed_table[];
extern const size_t embed_count;

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct embed_file *)elem)->name);
}

const char *embed_find(const char *name, size_t *len)
{
	const struct embed_file *f;

	if (!embed_count)
		return NULL;
	f = bsearch(name, embed_table, embed_count, sizeof(*f), cmp_name);
	if (!f)
		return NULL;
	if (len)
		*len = f->len;
	return (const char *)f->data;
}

const struct embed_file *embed_files(size_t *n)
{
	*n = embed_count;
	return embed_table;
}
