/*
 * What the call-counter files share and nobody else sees. callcount.c holds
 * the request and the set; callcount_resolve.c turns names into probes (the
 * program, the objects it loads, their symbols) and picks the mechanism;
 * callcount_uprobe.c and callcount_preload.c are the two mechanisms: whether
 * each can count a request, and what it needs per run.
 */
#ifndef PMU_BACKEND_CALLCOUNT_INT_H
#define PMU_BACKEND_CALLCOUNT_INT_H

#include "backend/callcount.h"
#include "backend/callcount_abi.h"
#include "backend/elf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The functions the shim interposes, by slot (callcount_abi.h). */
extern const char *const cc_slot_names[CC_NSLOTS];

/* The shim slot counting sym, or -1 when the shim does not interpose it. */
int cc_slot_of(const char *sym);
/* Is name a preset ("allocs", "frees") rather than "call:..."? */
int cc_is_preset(const char *name);

/* The objects a program loads, in the loader's search order. */
struct cc_objects {
	char **paths;		/* NULL-terminated, search order */
	size_t n;
	struct elf_file *elf;	/* n entries, opened lazily (.elf NULL: not yet) */
};

/* A definition found: which object, which symbol. */
struct cc_found {
	size_t obj;
	struct elf_sym sym;
};

/* The loader's binding of sym (.dynsym in search order), else the first
 * .symtab definition; 1 found, 0 not, -1 error (err set). */
int cc_search_all(struct cc_objects *o, const char *sym, struct cc_found *f,
		  struct error *err);
/* A sentinel probe for sym at f, unless one already covers that code. */
int cc_add_sentinel(struct callcount_set *s, struct cc_objects *o, const char *sym,
		    const struct cc_found *f, struct error *err);

/* Each mechanism: NULL when it can count s, else why not (caller frees);
 * and taking it, which sets s->mech and s->mech_reason. */
char *cc_uprobes_unusable(struct callcount_set *s, const struct sysfs_model *model);
int cc_use_uprobes(struct callcount_set *s, const struct callcount_opts *o,
		   struct cc_objects *objs, const char *no_preload, struct error *err);
char *cc_preload_unusable(const struct callcount_set *s, const struct cc_objects *o);
int cc_use_preload(struct callcount_set *s, const struct callcount_opts *o,
		   struct error *err);

/* Check every record of a report file (callcount_abi.h) and show each to
 * fn (optional); -1 with "truncated" or "record N is corrupt". */
int cc_walk_records(const void *data, size_t len,
		    void (*fn)(void *ctx, const struct callcount_hdr *h, const void *rec),
		    void *ctx, struct error *err);
/* Append a preload run's report file to sb. */
struct strbuf;
int cc_read_report(const struct callcount_run *r, struct strbuf *sb, struct error *err);

#endif
