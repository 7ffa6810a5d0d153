/*
 * The symbolizer (see symbols.h). Four small tables make it: the mappings,
 * sorted and without overlaps, for a binary search per address (the table
 * of backend/maptab.h, the one the stack-sampling pipeline keeps); the files
 * they name, each read once for its ELF type and PT_LOAD segments (what
 * the load bias is computed from); one Dwfl module per (file, bias), opened
 * at the first address that falls in it; and the answers, a hash table
 * from address to its frames, so that the thousands of repeated addresses
 * of a profile are symbolized once each. Every string handed out is
 * interned in a table owned by the symbolizer, so frames are plain
 * pointers that stay valid until symbolizer_free.
 *
 * The load bias is the difference between where the code runs and the
 * virtual address its ELF file gives it. The loader maps each PT_LOAD
 * segment at bias + p_vaddr rounded down to a page, from file offset
 * p_offset rounded down the same way, so for a mapping (start, pgoff) of
 * segment P: bias = (start - pgoff) - (P.p_vaddr - P.p_offset). Which
 * segment a mapping is of is told by pgoff: the segment whose file pages
 * hold it. LLVM's lld lets two segments share a file page (the read-only
 * headers and the code that follows them, at different virtual offsets),
 * so a page can belong to two segments; the mappings given here are
 * executable, and the executable segment wins. ET_EXEC files run where
 * they are linked: bias 0.
 */
#include "backend/symbols.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/debuginfo.h"
#include "backend/maptab.h"
#include "backend/symbols_scopes.h"
#include "core/oomguard.h"
#include "core/safeopen.h"
#include "core/strbuf.h"

#define UNKNOWN "[unknown]"
#define VDSO "[vdso]"
#define MAX_DEPTH 64		/* inline frames kept per address */

/* ---- interned strings -------------------------------------------------- */

struct strtab {
	char **slot;		/* open addressing, linear probing; NULL = empty */
	size_t cap, n;		/* cap is a power of two, n < cap / 2 */
};

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static size_t strtab_find(const struct strtab *t, const char *s, size_t len)
{
	size_t i = hash_bytes(s, len) & (t->cap - 1);

	while (t->slot[i] && (strncmp(t->slot[i], s, len) || t->slot[i][len]))
		i = (i + 1) & (t->cap - 1);
	return i;
}

static void strtab_grow(struct strtab *t)
{
	struct strtab bigger = { NULL, t->cap ? t->cap * 2 : 256, t->n };

	bigger.slot = xcalloc(bigger.cap, sizeof(char *));
	for (size_t i = 0; i < t->cap; i++)
		if (t->slot[i])
			bigger.slot[strtab_find(&bigger, t->slot[i], strlen(t->slot[i]))] =
				t->slot[i];
	free(t->slot);
	*t = bigger;
}

/* The one copy of s (NULL stays NULL). */
static const char *intern(struct strtab *t, const char *s)
{
	size_t i, len;

	if (!s)
		return NULL;
	if ((t->n + 1) * 2 > t->cap)
		strtab_grow(t);
	len = strlen(s);
	i = strtab_find(t, s, len);
	if (!t->slot[i]) {
		t->slot[i] = xstrndup(s, len);
		t->n++;
	}
	return t->slot[i];
}

static void strtab_release(struct strtab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slot[i]);
	free(t->slot);
}

/* ---- the symbolizer's tables ------------------------------------------- */

enum range_kind { RANGE_FILE, RANGE_VDSO, RANGE_ANON };

/* A mapping (m.path interned) and what is known of it. */
struct range {
	struct sym_map m;
	enum range_kind kind;
	int module;		/* index into modules; -2 not yet resolved, -1 none */
};

struct load_seg {
	uint64_t vaddr, offset, filesz;
	int exec;
};

/* A file named by the mappings, read once. */
struct object {
	const char *path;	/* interned */
	int state;		/* 1 read, -1 unreadable (why says so) */
	char *why;
	int used;		/* an address fell in it */
	int type;		/* e_type */
	struct load_seg *seg;
	size_t nseg;
};

/* The scope index of one compilation unit, by the unit's DIE offset. */
struct unit_index {
	Dwarf_Off offset;
	struct scope_index *x;
};

/* One file at one load bias. */
struct module {
	const char *path;	/* interned */
	uint64_t bias;
	Dwfl *dwfl;
	Dwfl_Module *mod;	/* NULL when libdwfl could not report the file */
	char *why;
	int used, has_symbols, has_dwarf;
	char *debug_path;	/* where its build-id debug file would be, or NULL */
	char *skipped;		/* a debug file candidate that was no regular file */
	struct unit_index *units;	/* built at the first address in each unit */
	size_t nunits, aunits;
};

struct addr_slot {
	uint64_t addr;
	uint32_t first;		/* into frames */
	uint16_t n;		/* 0 = empty slot */
	uint16_t unmapped;	/* 1 when counted in symbolizer.unmapped */
};

struct symbolizer {
	struct strtab strings;
	struct maptab ranges;		/* of struct range: sorted, disjoint */
	struct object *objects;
	size_t nobjects, aobjects;
	struct module *modules;
	size_t nmodules, amodules;
	struct addr_slot *cache;	/* power-of-two capacity */
	size_t cache_cap, cache_n;
	struct sym_frame *frames;	/* the answers, by addr_slot.first */
	size_t nframes, aframes;
	size_t unmapped;		/* distinct addresses in no file mapping */
	int broken;			/* libdw ran out of memory inside a lookup:
					 * its state is abandoned (core/oomguard.h) */
	uint64_t page;
	char **gaps;
};

struct symbolizer *symbolizer_new(void)
{
	struct symbolizer *s = xcalloc(1, sizeof(*s));
	long page = sysconf(_SC_PAGESIZE);

	s->page = page > 0 ? (uint64_t)page : 4096;
	s->ranges = (struct maptab)MAPTAB_INIT(struct range);
	return s;
}

static void gaps_free(struct symbolizer *s)
{
	strv_free(s->gaps);
	s->gaps = NULL;
}

static void module_release(struct module *m)
{
	if (m->dwfl)
		dwfl_end(m->dwfl);
	for (size_t u = 0; u < m->nunits; u++)
		scope_index_free(m->units[u].x);
	free(m->units);
	free(m->why);
	free(m->debug_path);
	free(m->skipped);
}

void symbolizer_free(struct symbolizer *s)
{
	if (!s || s->broken)
		return;	/* broken: libdw's objects may hold a lock, ours half grown */
	for (size_t i = 0; i < s->nmodules; i++)
		module_release(&s->modules[i]);
	for (size_t i = 0; i < s->nobjects; i++) {
		free(s->objects[i].why);
		free(s->objects[i].seg);
	}
	gaps_free(s);
	free(s->modules);
	free(s->objects);
	maptab_release(&s->ranges);
	free(s->cache);
	free(s->frames);
	strtab_release(&s->strings);
	free(s);
}

/* ---- the address cache ------------------------------------------------- */

static size_t slot_of(const struct addr_slot *t, size_t cap, uint64_t addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);

	while (t[i].n && t[i].addr != addr)
		i = (i + 1) & (cap - 1);
	return i;
}

static void cache_grow(struct symbolizer *s)
{
	size_t cap = s->cache_cap ? s->cache_cap * 2 : 1024;
	struct addr_slot *t = xcalloc(cap, sizeof(*t));

	for (size_t i = 0; i < s->cache_cap; i++)
		if (s->cache[i].n)
			t[slot_of(t, cap, s->cache[i].addr)] = s->cache[i];
	free(s->cache);
	s->cache = t;
	s->cache_cap = cap;
}

/* Forget the answers for addresses in [start, end): a mapping added there
 * replaces what they were found in. */
static void cache_forget(struct symbolizer *s, uint64_t start, uint64_t end)
{
	struct addr_slot *old = s->cache;
	size_t cap = s->cache_cap;

	if (!s->cache_n)
		return;
	s->cache = xcalloc(cap, sizeof(*old));
	s->cache_n = 0;
	for (size_t i = 0; i < cap; i++) {
		if (!old[i].n)
			continue;
		if (old[i].addr >= start && old[i].addr < end) {
			s->unmapped -= old[i].unmapped;
			continue;
		}
		s->cache[slot_of(s->cache, cap, old[i].addr)] = old[i];
		s->cache_n++;
	}
	free(old);
}

/* ---- mappings ---------------------------------------------------------- */

static enum range_kind kind_of(const char *path)
{
	if (!strcmp(path, VDSO))
		return RANGE_VDSO;
	return path[0] == '/' && path[1] != '/' ? RANGE_FILE : RANGE_ANON;
}

int symbolizer_add_map(struct symbolizer *s, uint64_t start, uint64_t len, uint64_t pgoff,
		       const char *path, struct error *err)
{
	struct range r = { { start, start + len, pgoff, NULL }, RANGE_ANON, -2 };

	if (!len || start + len < start)
		return error_set(err, ERR_USAGE, "invalid mapping [%#" PRIx64 ", +%#" PRIx64
				 ") of '%s'", start, len, path ? path : "");
	/* the one copy of the path is the string table's */
	r.m.path = (char *)intern(&s->strings, path ? path : "");
	r.kind = kind_of(r.m.path);
	maptab_put(&s->ranges, &r);
	cache_forget(s, r.m.start, r.m.end);
	return 0;
}

int symbolizer_add_maps(struct symbolizer *s, const struct sym_map *maps, size_t n,
			struct error *err)
{
	for (size_t i = 0; i < n; i++) {
		if (maps[i].end <= maps[i].start)
			return error_set(err, ERR_USAGE, "invalid mapping [%#" PRIx64 ", %#"
					 PRIx64 ") of '%s'", maps[i].start, maps[i].end,
					 maps[i].path ? maps[i].path : "");
		if (symbolizer_add_map(s, maps[i].start, maps[i].end - maps[i].start,
				       maps[i].pgoff, maps[i].path, err))
			return -1;
	}
	return 0;
}

static struct range *range_of(struct symbolizer *s, uint64_t addr)
{
	return maptab_find(&s->ranges, addr);
}

/* ---- files and their load bias ----------------------------------------- */

static int read_segments(struct object *o, Elf *elf)
{
	GElf_Ehdr eh;
	size_t phnum;

	if (!gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &phnum))
		return -1;
	o->type = eh.e_type;
	o->seg = xcalloc(phnum ? phnum : 1, sizeof(*o->seg));
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr p;

		if (!gelf_getphdr(elf, (int)i, &p))
			return -1;
		if (p.p_type == PT_LOAD)
			o->seg[o->nseg++] = (struct load_seg){ p.p_vaddr, p.p_offset, p.p_filesz,
								!!(p.p_flags & PF_X) };
	}
	return o->nseg ? 0 : -1;
}

/* ELF type and PT_LOAD segments of o->path; state -1 with why when not. */
static void object_read(struct object *o)
{
	int fd = safeopen_read(o->path, 0);
	Elf *elf;
	struct strbuf why = STRBUF_INIT;

	o->state = -1;
	if (fd < 0) {
		strbuf_addf(&why, "cannot read '%s': %s", o->path, safeopen_strerror(fd));
		o->why = strbuf_detach(&why);
		return;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && !read_segments(o, elf))
		o->state = 1;
	else
		strbuf_addf(&why, "'%s' is not an ELF file with loadable segments", o->path);
	if (elf)
		elf_end(elf);
	close(fd);
	if (o->state < 0)
		o->why = strbuf_detach(&why);
}

static struct object *object_get(struct symbolizer *s, const char *path)
{
	struct object *o;

	for (size_t i = 0; i < s->nobjects; i++)
		if (s->objects[i].path == path)
			return &s->objects[i];
	ALLOC_GROW(s->objects, s->nobjects + 1, s->aobjects);
	o = &s->objects[s->nobjects++];
	memset(o, 0, sizeof(*o));
	o->path = path;
	object_read(o);
	return o;
}

/* Does segment g hold file offset pgoff (in its pages)? */
static int seg_holds(const struct load_seg *g, uint64_t pgoff, uint64_t page)
{
	return (g->offset & ~(page - 1)) <= pgoff && pgoff < g->offset + g->filesz;
}

/* The bias of r's mapping (see the top of the file). */
static uint64_t load_bias(const struct object *o, const struct range *r, uint64_t page)
{
	const struct load_seg *best = NULL;

	if (o->type == ET_EXEC)
		return 0;
	for (size_t i = 0; i < o->nseg; i++) {
		const struct load_seg *g = &o->seg[i];

		if (seg_holds(g, r->m.pgoff, page) && (!best || (!best->exec && g->exec)))
			best = g;
	}
	if (!best)		/* past the segments: a mapping the file cannot explain */
		best = &o->seg[0];
	return (r->m.start - r->m.pgoff) - (best->vaddr - best->offset);
}

/* ---- modules ----------------------------------------------------------- */

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = debuginfo_find,	/* never blocks: see debuginfo.h */
	.section_address = dwfl_offline_section_address,
};

/* Is there a defined function in its symbol table(s)? */
static int count_functions(Dwfl_Module *mod)
{
	int n = dwfl_module_getsymtab(mod);

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr value;
		GElf_Word shndx;
		unsigned t;

		if (!dwfl_module_getsym_info(mod, i, &sym, &value, &shndx, NULL, NULL))
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		if ((t == STT_FUNC || t == STT_GNU_IFUNC) && shndx != SHN_UNDEF)
			return 1;
	}
	return 0;
}

/* /usr/lib/debug/.build-id/xx/rest.debug, where the -dbgsym packages put
 * the debug file libdwfl looks for; NULL without a build id. */
static char *build_id_path(Dwfl_Module *mod)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &id, &vaddr);
	struct strbuf sb = STRBUF_INIT;

	if (n < 2)
		return NULL;
	strbuf_addf(&sb, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (int i = 1; i < n; i++)
		strbuf_addf(&sb, "%02x", id[i]);
	strbuf_adds(&sb, ".debug");
	return strbuf_detach(&sb);
}

static void module_open(struct module *m)
{
	Dwarf_Addr dwbias;
	struct strbuf why = STRBUF_INIT;
	struct debuginfo_skip skip = { "" };
	void **ud;

	int fd = safeopen_read(m->path, 0);	/* a path the program's records named */

	m->dwfl = fd >= 0 ? dwfl_begin(&offline_callbacks) : NULL;
	if (m->dwfl) {
		dwfl_report_begin(m->dwfl);
		m->mod = dwfl_report_elf(m->dwfl, m->path, m->path, fd, m->bias, true);
		dwfl_report_end(m->dwfl, NULL, NULL);
	}
	if (!m->mod && fd >= 0)
		close(fd);	/* consumed only by a module reported */
	if (!m->mod) {
		strbuf_addf(&why, "cannot read '%s': %s", m->path,
			    fd < 0 ? safeopen_strerror(fd) : dwfl_errmsg(-1));
		m->why = strbuf_detach(&why);
		return;
	}
	m->has_symbols = count_functions(m->mod);
	/* debuginfo_find says what it skipped through the module's userdata,
	 * for as long as this call lasts (m may move later) */
	dwfl_module_info(m->mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	*ud = &skip;
	m->has_dwarf = dwfl_module_getdwarf(m->mod, &dwbias) != NULL;
	*ud = NULL;
	if (skip.path[0])
		m->skipped = xstrdup(skip.path);
	m->debug_path = build_id_path(m->mod);
}

static int module_get(struct symbolizer *s, const char *path, uint64_t bias)
{
	struct module *m;

	for (size_t i = 0; i < s->nmodules; i++)
		if (s->modules[i].path == path && s->modules[i].bias == bias)
			return (int)i;
	ALLOC_GROW(s->modules, s->nmodules + 1, s->amodules);
	m = &s->modules[s->nmodules];
	memset(m, 0, sizeof(*m));
	m->path = path;
	m->bias = bias;
	module_open(m);
	return (int)s->nmodules++;
}

void symbolizer_each_file(struct symbolizer *s,
			  void (*cb)(void *ctx, const char *path, uint64_t bias), void *ctx)
{
	struct { const char *path; uint64_t bias; } *seen = NULL;
	size_t nseen = 0, aseen = 0;

	for (size_t i = 0; i < s->ranges.n; i++) {
		struct range *r = (struct range *)(void *)maptab_at(&s->ranges, i);
		struct object *o;
		uint64_t bias;
		size_t k = 0;

		if (r->kind != RANGE_FILE)
			continue;
		o = object_get(s, r->m.path);
		if (o->state <= 0)
			continue;
		bias = load_bias(o, r, s->page);
		while (k < nseen && !(seen[k].path == r->m.path && seen[k].bias == bias))
			k++;
		if (k < nseen)
			continue;
		ALLOC_GROW(seen, nseen + 1, aseen);
		seen[nseen].path = r->m.path;
		seen[nseen++].bias = bias;
		cb(ctx, r->m.path, bias);
	}
	free(seen);
}

/* The module of r's file at r's bias (-1 when the file cannot be read). */
static int range_module(struct symbolizer *s, struct range *r)
{
	struct object *o;

	if (r->module != -2)
		return r->module;
	o = object_get(s, r->m.path);
	o->used = 1;
	r->module = o->state > 0 ? module_get(s, r->m.path, load_bias(o, r, s->page)) : -1;
	return r->module;
}

/* ---- names ------------------------------------------------------------- */

/* The name to show for a raw symbol or DWARF name, interned: demangled
 * (symbol_demangle), without the symbol version a shared library's symbol
 * table may append. */
static const char *display_name(struct symbolizer *s, const char *raw)
{
	char *d = symbol_demangle(raw);
	const char *out = intern(&s->strings, d);

	free(d);
	return out;
}

static const char *key_of(struct symbolizer *s, const char *function)
{
	char *k = symbol_key(function);
	const char *out = intern(&s->strings, k);

	free(k);
	return out;
}

/* DWARF's name of a subprogram or inlined instance: the linkage name when
 * there is one (C++), else DW_AT_name, through abstract origins. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));

	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	return n;
}

/* ---- frames ------------------------------------------------------------ */

/* What one symbolization has found so far. */
struct walk {
	struct symbolizer *s;
	const struct module *m;	/* NULL outside ELF files */
	const char *object;
	uint64_t addr;
	const char *file;	/* where the next frame out is */
	int line;
	const char *unit;
	size_t first;		/* its first frame in s->frames */
};

static void frame_push(struct walk *w, const char *name, int inlined)
{
	struct symbolizer *s = w->s;
	struct sym_frame *f;

	ALLOC_GROW(s->frames, s->nframes + 1, s->aframes);
	f = &s->frames[s->nframes++];
	f->vaddr = w->m ? w->addr - w->m->bias : 0;
	if (!name && f->vaddr && w->object) {
		/* code no symbol names, in a file that could be read: its 4 KiB
		 * page of the object's own addresses, the one spelling of unnamed
		 * code in every table ("[libfoo.so+0x35000]", as nm counts) */
		const char *slash = strrchr(w->object, '/');
		struct strbuf page = STRBUF_INIT;

		strbuf_addf(&page, "[%s+0x%llx]", slash ? slash + 1 : w->object,
			    (unsigned long long)(f->vaddr & ~0xfffull));
		f->function = intern(&s->strings, page.buf);
		strbuf_release(&page);
	} else {
		f->function = name ? display_name(s, name) : UNKNOWN;
	}
	f->key = key_of(s, f->function);
	f->object = w->object;
	f->file = intern(&s->strings, w->file);
	f->line = w->line;
	f->unit = intern(&s->strings, w->unit);
	f->inlined = inlined;
}

/* Where an inlined instance was called from: the next frame's position. */
static void call_site(struct walk *w, Dwarf_Die *cudie, Dwarf_Die *inl)
{
	Dwarf_Attribute attr;
	Dwarf_Word idx, line;
	Dwarf_Files *files;

	w->file = NULL;
	w->line = 0;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &attr), &idx) == 0 &&
	    dwarf_getsrcfiles(cudie, &files, NULL) == 0)
		w->file = dwarf_filesrc(files, idx, NULL, NULL);
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &attr), &line) == 0)
		w->line = (int)line;
}

static const struct scope_index *unit_index(struct module *m, Dwarf_Die *cudie)
{
	Dwarf_Off off = dwarf_dieoffset(cudie);

	for (size_t i = 0; i < m->nunits; i++)
		if (m->units[i].offset == off)
			return m->units[i].x;
	ALLOC_GROW(m->units, m->nunits + 1, m->aunits);
	m->units[m->nunits] = (struct unit_index){ off, scope_index_build(cudie) };
	return m->units[m->nunits++].x;
}

/*
 * The inlined instances at pc, innermost first, then the subprogram they
 * are in, whose DWARF name goes to *outer (NULL when the address is in no
 * subprogram DWARF knows).
 */
static void inline_frames(struct walk *w, struct module *m, Dwarf_Die *cudie, Dwarf_Addr pc,
			  const char **outer)
{
	const struct scope_index *x = unit_index(m, cudie);
	int i = scope_index_find(x, pc);

	for (; i >= 0 && scope_index_get(x, i)->inlined; i = scope_index_get(x, i)->parent) {
		Dwarf_Die die = scope_index_get(x, i)->die;

		if (w->s->nframes - w->first < MAX_DEPTH - 1)
			frame_push(w, die_name(&die), 1);
		call_site(w, cudie, &die);
	}
	if (i >= 0) {
		Dwarf_Die die = scope_index_get(x, i)->die;

		*outer = die_name(&die);
	}
}

/* "[plt]" for an address in a PLT stub (which no symbol covers), else
 * NULL. */
static const char *plt_name(Dwfl_Module *mod, uint64_t addr)
{
	Dwarf_Addr a = addr, bias;
	Elf_Scn *scn = dwfl_module_address_section(mod, &a, &bias);
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t shstrndx;
	GElf_Shdr sh;
	const char *n;

	if (!scn || !elf || elf_getshdrstrndx(elf, &shstrndx) || !gelf_getshdr(scn, &sh))
		return NULL;
	n = elf_strptr(elf, shstrndx, sh.sh_name);
	return n && !strncmp(n, ".plt", 4) ? "[plt]" : NULL;
}

/* Frames of an address in the file of module m. */
static void elf_frames(struct walk *w, struct module *m)
{
	Dwfl_Module *mod = m->mod;
	GElf_Off off;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(mod, w->addr, &off, &sym, NULL, NULL, NULL);
	const char *dwarf_name = NULL;
	Dwarf_Addr dwbias;
	Dwarf_Die *cudie = m->has_dwarf ? dwfl_module_addrdie(mod, w->addr, &dwbias) : NULL;

	if (cudie) {
		Dwfl_Line *l = dwfl_module_getsrc(mod, w->addr);

		/* A Rust unit is named after a codegen unit
		 * ("src/main.rs/@/lcbench.40000ab0-cgu.7"), which changes from
		 * build to build and names no source: the line's file says where. */
		w->unit = dwarf_srclang(cudie) == DW_LANG_Rust ? NULL : dwarf_diename(cudie);
		if (l)
			w->file = dwfl_lineinfo(l, NULL, &w->line, NULL, NULL, NULL);
		inline_frames(w, m, cudie, w->addr - dwbias, &dwarf_name);
	}
	if (!name || !*name)
		name = dwarf_name ? dwarf_name : plt_name(mod, w->addr);
	frame_push(w, name, 0);
}

/* The frames of addr appended to s->frames; 1 when addr is in no file
 * mapping. */
static int symbolize(struct symbolizer *s, uint64_t addr)
{
	struct walk w = { s, NULL, UNKNOWN, addr, NULL, 0, NULL, s->nframes };
	struct range *r = range_of(s, addr);
	int mi = r && r->kind == RANGE_FILE ? range_module(s, r) : -1;

	if (mi >= 0) {
		s->modules[mi].used = 1;
		w.object = s->modules[mi].path;
		if (s->modules[mi].mod) {
			w.m = &s->modules[mi];
			elf_frames(&w, &s->modules[mi]);
			return 0;
		}
	}
	if (r && r->kind == RANGE_VDSO) {
		w.object = VDSO;
		frame_push(&w, VDSO, 0);
		return 0;
	}
	if (r && r->kind == RANGE_FILE)		/* a file that cannot be read */
		w.object = r->m.path;
	frame_push(&w, NULL, 0);
	return !r || r->kind == RANGE_ANON;
}

/* ---- lookups ----------------------------------------------------------- */

int symbolizer_lookup(struct symbolizer *s, uint64_t addr, struct sym_frame *out, int max)
{
	struct oomguard g;
	struct addr_slot *e;
	int n;

	if (s->broken)
		return 0;
	if (sigsetjmp(g.env, 0)) {
		s->broken = 1;	/* memory ran out inside: never touched again */
		return 0;
	}
	oomguard_enter(&g);
	if ((s->cache_n + 1) * 2 > s->cache_cap)
		cache_grow(s);
	e = &s->cache[slot_of(s->cache, s->cache_cap, addr)];
	if (!e->n) {
		size_t first = s->nframes;

		e->unmapped = (uint16_t)symbolize(s, addr);
		e->addr = addr;
		e->first = (uint32_t)first;
		e->n = (uint16_t)(s->nframes - first);
		s->unmapped += e->unmapped;
		s->cache_n++;
	}
	n = (int)e->n < max ? (int)e->n : max;
	memcpy(out, &s->frames[e->first], (size_t)n * sizeof(*out));
	oomguard_leave(&g);
	return n;
}

/* ---- what is missing --------------------------------------------------- */

/* The suite of Debian's debug archive for this system ("bookworm-debug"),
 * from /etc/os-release, into sb; 0 when this is no Debian release. */
static int debug_suite(struct strbuf *sb)
{
	struct strbuf os = STRBUF_INIT;
	const char *id, *code;
	int found = 0;

	if (strbuf_read_file(&os, "/etc/os-release") == 0 && os.buf &&
	    (id = strstr(os.buf, "\nID=debian")) != NULL && (id[10] == '\n' || !id[10]) &&
	    (code = strstr(os.buf, "VERSION_CODENAME=")) != NULL) {
		code += strlen("VERSION_CODENAME=");
		strbuf_addf(sb, "%.*s-debug", (int)strcspn(code, "\n\""), code);
		found = code[0] && code[0] != '\n';
	}
	strbuf_release(&os);
	return found;
}

static void gap_hint(struct strbuf *sb, const struct module *m)
{
	struct strbuf suite = STRBUF_INIT;

	strbuf_adds(sb, "; install its debug symbols (the -dbgsym package");
	if (m->debug_path)
		strbuf_addf(sb, ", which provides %s", m->debug_path);
	/* -dbgsym packages are not in the main archive: say where they are */
	if (debug_suite(&suite))
		strbuf_addf(sb, ", from Debian's debug archive debian-debug, suite %s", suite.buf);
	strbuf_release(&suite);
	strbuf_adds(sb, ") or build it with -g");
}

static void gap_add(char ***v, size_t *n, size_t *alloc, struct strbuf *sb)
{
	ALLOC_GROW(*v, *n + 2, *alloc);
	(*v)[(*n)++] = strbuf_detach(sb);
	(*v)[*n] = NULL;
}

static void module_gap(const struct module *m, char ***v, size_t *n, size_t *alloc)
{
	struct strbuf sb = STRBUF_INIT;

	if (!m->used || !m->mod || m->has_dwarf)
		return;
	if (!m->has_symbols)
		strbuf_addf(&sb, "'%s' is stripped: self time is by address range only", m->path);
	else
		strbuf_addf(&sb, "'%s' has no DWARF: no inlined functions or source lines",
			    m->path);
	gap_hint(&sb, m);
	gap_add(v, n, alloc, &sb);
}

const char *const *symbolizer_gaps(struct symbolizer *s)
{
	size_t n = 0, alloc = 0;
	struct strbuf sb = STRBUF_INIT;

	if (s->broken)
		return NULL;	/* nothing of it is read again */
	gaps_free(s);
	ALLOC_GROW(s->gaps, 1, alloc);
	s->gaps[0] = NULL;
	for (size_t i = 0; i < s->nobjects; i++) {
		if (!s->objects[i].used || s->objects[i].state > 0)
			continue;
		strbuf_addf(&sb, "%s: its samples count as '%s'", s->objects[i].why, UNKNOWN);
		gap_add(&s->gaps, &n, &alloc, &sb);
	}
	for (size_t i = 0; i < s->nmodules; i++) {
		const struct module *m = &s->modules[i];

		if (m->used && !m->mod) {
			strbuf_addf(&sb, "%s: its samples count as '%s'", m->why, UNKNOWN);
			gap_add(&s->gaps, &n, &alloc, &sb);
		}
		if (m->used && m->skipped) {
			strbuf_addf(&sb, "'%s' is not a regular file: skipped where the debug file "
				    "of '%s' is looked up", m->skipped, m->path);
			gap_add(&s->gaps, &n, &alloc, &sb);
		}
		module_gap(m, &s->gaps, &n, &alloc);
	}
	if (s->unmapped) {
		strbuf_addf(&sb, "%zu sampled address%s in no file mapping (JIT code, or mmap "
			    "records lost): counted as '%s'", s->unmapped,
			    s->unmapped == 1 ? " lies" : "es lie", UNKNOWN);
		gap_add(&s->gaps, &n, &alloc, &sb);
	}
	return (const char *const *)s->gaps;
}
