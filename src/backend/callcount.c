/*
 * Call counters (see callcount.h). Planning happens once per program:
 * requested names -> (object, file offset) through the ELF reader and the
 * loader's own list of objects -> a mechanism -> uprobe events, or the
 * preload shim's slots. Counting itself is someone else's: the perf_event
 * backend reads uprobe events like any counter, and the shim writes records
 * that callcount_sum_records() adds up.
 *
 * Uprobe specifics (kernel perf_uprobe PMU, perf_event_open(2) "kprobe and
 * uprobe"): attr.type is the PMU's dynamic type from sysfs, config1 a
 * pointer to the object's path, config2 the file offset, and config bit 0
 * ("retprobe" in the format directory) stays 0 for an entry probe. Opening
 * one requires CAP_PERFMON whatever perf_event_paranoid says, which is why
 * a failed probe with EACCES/EPERM means "use the shim", not "lower
 * paranoid". Two requested names at one address (glibc's memalign and
 * aligned_alloc) get one probe: a call is one call.
 */
#include "backend/callcount.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "backend/callcount_abi.h"
#include "backend/perf_event.h"
#include "core/path.h"
#include "core/selfpath.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "host/elf.h"
#include "host/sysfs.h"

extern char **environ;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const slot_names[CC_NSLOTS] = CALLCOUNT_SLOT_NAMES;

static const struct preset {
	const char *name;
	const char *const syms[8];
} presets[] = {
	{ "allocs", { "malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign",
		      "memalign", "valloc", NULL } },
	{ "frees", { "free", NULL } },
};

/* Shebang lines followed at most this deep (the kernel allows 4 too). */
#define MAX_INTERP_DEPTH 4

/* ---- names ------------------------------------------------------------- */

const char *callcount_mech_name(enum callcount_mech m)
{
	switch (m) {
	case CALLCOUNT_UPROBE:
		return "uprobe";
	case CALLCOUNT_PRELOAD:
		return "preload";
	default:
		return "auto";
	}
}

int callcount_mech_parse(const char *s, enum callcount_mech *m, struct error *err)
{
	static const enum callcount_mech all[] = { CALLCOUNT_AUTO, CALLCOUNT_UPROBE,
						    CALLCOUNT_PRELOAD };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (!strcmp(s, callcount_mech_name(all[i]))) {
			*m = all[i];
			return 0;
		}
	error_set(err, ERR_USAGE, "unknown call-counter mechanism '%s'", s);
	return error_hint(err, "use 'auto', 'uprobe' or 'preload'");
}

static const struct preset *preset_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

int callcount_is_call(const char *item)
{
	return !strncmp(item, "call:", 5) || preset_find(item) != NULL;
}

static int slot_of(const char *sym)
{
	for (int i = 0; i < CC_NSLOTS; i++)
		if (!strcmp(slot_names[i], sym))
			return i;
	return -1;
}

/* ---- the set ----------------------------------------------------------- */

void callcount_init(struct callcount_set *s)
{
	memset(s, 0, sizeof(*s));
}

static void free_strv(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

void callcount_release(struct callcount_set *s)
{
	for (size_t i = 0; i < s->nmetrics; i++) {
		free(s->metrics[i].name);
		free_strv(s->metrics[i].symbols);
		free(s->metrics[i].object);
		free(s->metrics[i].aliases);
	}
	for (size_t i = 0; i < s->nprobes; i++) {
		free(s->probes[i].symbol);
		event_spec_release(&s->probes[i].ev);
	}
	for (size_t i = 0; i < s->nobjects; i++)
		free(s->objects[i]);
	free(s->objects);
	free(s->metrics);
	free(s->probes);
	free(s->mech_reason);
	free(s->program);
	free(s->shim);
	memset(s, 0, sizeof(*s));
}

static char **strv_one(const char *a, size_t len)
{
	char **v = xcalloc(2, sizeof(char *));

	v[0] = xstrndup(a, len);
	return v;
}

static char **strv_preset(const struct preset *p)
{
	size_t n = 0;
	char **v;

	while (p->syms[n])
		n++;
	v = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(p->syms[i]);
	return v;
}

int callcount_add(struct callcount_set *s, const char *item, struct error *err)
{
	const struct preset *p = preset_find(item);
	struct callcount_metric *m;
	const char *sym = item + 5, *at;

	for (size_t i = 0; i < s->nmetrics; i++)
		if (!strcmp(s->metrics[i].name, item)) {
			error_set(err, ERR_USAGE, "metric '%s' is listed twice", item);
			return error_hint(err, "list each metric once in -e/-m");
		}
	at = p ? NULL : strchr(sym, '@');
	if (!p && (at == sym || !*sym)) {
		error_set(err, ERR_USAGE, "no function named in '%s'", item);
		return error_hint(err, "write call:SYMBOL or call:SYMBOL@OBJECT, as in 'call:malloc'");
	}
	if (at && !at[1]) {
		error_set(err, ERR_USAGE, "no object named after '@' in '%s'", item);
		return error_hint(err, "write call:SYMBOL@OBJECT, as in 'call:malloc@libc.so.6', "
				  "or leave '@' out");
	}
	ALLOC_GROW(s->metrics, s->nmetrics + 1, s->metrics_alloc);
	m = &s->metrics[s->nmetrics++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(item);
	m->symbols = p ? strv_preset(p) : strv_one(sym, at ? (size_t)(at - sym) : strlen(sym));
	m->object = at ? xstrdup(at + 1) : NULL;
	return 0;
}

static const char *intern_object(struct callcount_set *s, const char *path)
{
	for (size_t i = 0; i < s->nobjects; i++)
		if (!strcmp(s->objects[i], path))
			return s->objects[i];
	s->objects = xrealloc(s->objects, (s->nobjects + 1) * sizeof(char *));
	s->objects[s->nobjects] = xstrdup(path);
	return s->objects[s->nobjects++];
}

/* ---- finding the program ----------------------------------------------- */

/* argv[0] -> a path, the way execvp searches PATH. */
static char *program_path(const char *name, struct error *err)
{
	char *path = path_search(name, NULL, X_OK);

	if (path)
		return path;
	error_set(err, ERR_RUNTIME, "cannot run '%s': not found in PATH", name);
	error_hint(err, "give the program's path, as in './%s'", name);
	return NULL;
}

/* The interpreter a "#!" script names, or NULL when path is not a script. */
static char *shebang_interp(const char *path)
{
	char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *p, *end;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return NULL;
	buf[n] = '\0';
	for (p = buf + 2; *p == ' ' || *p == '\t'; p++)
		;
	for (end = p; *end && !strchr(" \t\r\n", *end); end++)
		;
	return end > p ? xstrndup(p, (size_t)(end - p)) : NULL;
}

/* The ELF file that will run: argv[0], or the interpreter of a script. */
static char *program_elf(const char *argv0, struct error *err)
{
	char *path = program_path(argv0, err), *interp;

	for (int depth = 0; path && depth < MAX_INTERP_DEPTH; depth++) {
		interp = shebang_interp(path);
		if (!interp)
			return path;
		free(path);
		path = interp;
	}
	if (path) {
		error_set(err, ERR_RUNTIME, "cannot follow the interpreters of '%s': nested "
			  "more than %d deep", argv0, MAX_INTERP_DEPTH);
		free(path);
	}
	return NULL;
}

/* ---- the objects a program loads --------------------------------------- */

struct objects {
	char **paths;		/* NULL-terminated, search order */
	size_t n;
	struct elf_file *elf;	/* n entries, opened lazily (map == NULL: not yet) */
};

static void objects_release(struct objects *o)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->elf[i].map)
			elf_close(&o->elf[i]);
	free(o->elf);
	elf_paths_free(o->paths);
	memset(o, 0, sizeof(*o));
}

static int objects_load(struct objects *o, const struct elf_file *prog, char *const *envp,
			struct error *err)
{
	memset(o, 0, sizeof(*o));
	if (elf_interp(prog)) {
		if (elf_loaded_objects(prog, envp, &o->paths, err))
			return -1;
	} else {
		o->paths = xcalloc(2, sizeof(char *));
		o->paths[0] = xstrdup(prog->path);
	}
	while (o->paths[o->n])
		o->n++;
	o->elf = xcalloc(o->n ? o->n : 1, sizeof(*o->elf));
	return 0;
}

static struct elf_file *objects_elf(struct objects *o, size_t i, struct error *err)
{
	if (!o->elf[i].map && elf_open(&o->elf[i], o->paths[i], err))
		return NULL;
	return &o->elf[i];
}

/* Append an object named by path with @PATH (it may be dlopen()ed later). */
static size_t objects_add(struct objects *o, const char *path)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->paths[i], path))
			return i;
	o->paths = xrealloc(o->paths, (o->n + 2) * sizeof(char *));
	o->paths[o->n] = xstrdup(path);
	o->paths[o->n + 1] = NULL;
	o->elf = xrealloc(o->elf, (o->n + 1) * sizeof(*o->elf));
	memset(&o->elf[o->n], 0, sizeof(*o->elf));
	return o->n++;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* @NAME: a path, or an object's file name, or its name before ".so...". */
static int objects_find(struct objects *o, const char *want, const char *prog, size_t *idx,
			struct error *err)
{
	size_t len = strlen(want);
	struct strbuf names = STRBUF_INIT;

	if (strchr(want, '/')) {
		*idx = objects_add(o, want);
		return 0;
	}
	for (size_t i = 0; i < o->n; i++) {
		const char *b = base_name(o->paths[i]);

		if (!strcmp(b, want) || (!strncmp(b, want, len) && b[len] == '.')) {
			*idx = i;
			return 0;
		}
	}
	for (size_t i = 0; i < o->n; i++)
		strbuf_addf(&names, "%s'%s'", i ? ", " : "", base_name(o->paths[i]));
	error_set(err, ERR_USAGE, "'%s' is not an object '%s' loads", want, prog);
	error_hint(err, "it loads %s; or give a path, as in 'call:SYMBOL@/path/lib.so'",
		   names.buf);
	strbuf_release(&names);
	return -1;
}

/* ---- resolving symbols ------------------------------------------------- */

struct found {
	size_t obj;
	struct elf_sym sym;
};

/* Search one object's tables; 1 found, 0 not, -1 error (err set). */
static int search_object(struct objects *o, size_t i, const char *sym, int tables,
			 struct found *f, struct error *err)
{
	struct elf_file *elf = objects_elf(o, i, err);
	enum elf_lookup r;

	if (!elf)
		return -1;
	r = elf_find_symbol(elf, sym, tables, &f->sym);
	if (r == ELF_SYM_AMBIGUOUS) {
		error_set(err, ERR_USAGE, "'%s' names several file-local functions in '%s'",
			  sym, o->paths[i]);
		return error_hint(err, "count a function with a unique name");
	}
	f->obj = i;
	return r == ELF_SYM_FOUND;
}

/* The loader's binding first (.dynsym in search order), then every .symtab. */
static int search_all(struct objects *o, const char *sym, struct found *f, struct error *err)
{
	static const int passes[] = { ELF_DYNSYM, ELF_SYMTAB };

	for (size_t p = 0; p < ARRAY_SIZE(passes); p++)
		for (size_t i = 0; i < o->n; i++) {
			int r = search_object(o, i, sym, passes[p], f, err);

			if (r)
				return r;
		}
	return 0;
}

static void unknown_symbol(struct objects *o, const char *sym, const long only, struct error *err)
{
	const char **names = NULL, **all = NULL;
	size_t nall = 0, picks[3], n;
	struct strbuf sb = STRBUF_INIT;
	const char *shown[3];
	int symtab = 0;

	for (size_t i = 0; i < o->n; i++) {
		struct elf_file *elf;
		size_t k;

		if ((only >= 0 && (size_t)only != i) || !(elf = objects_elf(o, i, NULL)))
			continue;
		k = elf_function_names(elf, &names);
		all = xrealloc(all, (nall + k + 1) * sizeof(*all));
		memcpy(all + nall, names, k * sizeof(*names));
		nall += k;
		symtab |= k > 0;
		free(names);
	}
	if (only >= 0)
		error_set(err, ERR_USAGE, "no function '%s' in '%s'", sym, o->paths[only]);
	else
		error_set(err, ERR_USAGE, "no function '%s' in '%s' or the libraries it loads",
			  sym, o->paths[0]);
	n = suggest_pick(sym, all, nall, picks, ARRAY_SIZE(picks));
	for (size_t i = 0; i < n; i++)
		shown[i] = all[picks[i]];
	suggest_format(&sb, shown, n);
	if (n)
		error_hint(err, "%s", sb.buf);
	else if (!symtab)
		error_hint(err, "'%s' has no symbol table (stripped?): rebuild it without -s",
			   o->paths[only >= 0 ? only : 0]);
	else
		error_hint(err, "list the functions with 'nm -D --defined-only %s'",
			   o->paths[only >= 0 ? only : 0]);
	strbuf_release(&sb);
	free(all);
}

static int check_function(const struct objects *o, const struct found *f, const char *sym,
			  struct error *err)
{
	if (f->sym.type == STT_FUNC)
		return 0;
	if (f->sym.type == STT_GNU_IFUNC) {
		error_set(err, ERR_USAGE, "'%s' in '%s' is an indirect function (IFUNC): calls "
			  "go to the implementation its resolver picks at load time", sym,
			  o->paths[f->obj]);
		return error_hint(err, "count a function of the program that calls it instead");
	}
	error_set(err, ERR_USAGE, "'%s' in '%s' is not a function", sym, o->paths[f->obj]);
	return error_hint(err, "call counters count functions; see 'nm -D %s'", o->paths[f->obj]);
}

static int file_id(const char *path, dev_t *dev, ino_t *ino, struct error *err)
{
	struct stat st;

	if (stat(path, &st))
		return error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
	*dev = st.st_dev;
	*ino = st.st_ino;
	return 0;
}

static struct callcount_probe *new_probe(struct callcount_set *s, struct objects *o,
					 const char *sym, const struct found *f, uint64_t off,
					 dev_t dev, ino_t ino, size_t metric)
{
	struct callcount_probe *p;

	ALLOC_GROW(s->probes, s->nprobes + 1, s->probes_alloc);
	p = &s->probes[s->nprobes++];
	memset(p, 0, sizeof(*p));
	p->symbol = xstrdup(sym);
	p->object = intern_object(s, o->paths[f->obj]);
	p->offset = off;
	p->dev = dev;
	p->ino = ino;
	p->metric = metric;
	p->slot = slot_of(sym);
	return p;
}

/* The probe at the same code in probes[first, first+n), or NULL. */
static struct callcount_probe *same_code(struct callcount_set *s, size_t first, size_t n,
					 uint64_t off, dev_t dev, ino_t ino)
{
	for (size_t i = first; i < first + n; i++)
		if (s->probes[i].dev == dev && s->probes[i].ino == ino && s->probes[i].offset == off)
			return &s->probes[i];
	return NULL;
}

static int locate(struct objects *o, const char *sym, const struct found *f, uint64_t *off,
		  dev_t *dev, ino_t *ino, struct error *err)
{
	if (elf_vaddr_to_offset(&o->elf[f->obj], f->sym.value, off))
		return error_set(err, ERR_RUNTIME, "'%s' in '%s' lies outside every loaded "
				 "segment", sym, o->paths[f->obj]);
	return file_id(o->paths[f->obj], dev, ino, err);
}

/* Add a probe for sym to metric mi unless the metric already has one at
 * that code (an alias): then note "name = other". */
static int add_probe(struct callcount_set *s, struct objects *o, size_t mi, const char *sym,
		     const struct found *f, struct error *err)
{
	struct callcount_metric *m = &s->metrics[mi];
	struct callcount_probe *dup;
	uint64_t off = 0;
	dev_t dev = 0;
	ino_t ino = 0;

	if (locate(o, sym, f, &off, &dev, &ino, err))
		return -1;
	dup = same_code(s, m->first, m->n, off, dev, ino);
	if (dup) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s%s%s = %s", m->aliases ? m->aliases : "",
			    m->aliases ? ", " : "", sym, dup->symbol);
		free(m->aliases);
		m->aliases = strbuf_detach(&sb);
		return 0;
	}
	new_probe(s, o, sym, f, off, dev, ino, mi);
	m->n++;
	return 0;
}

/* Sentinels follow every metric's probes; one per distinct code address. */
static int add_sentinel(struct callcount_set *s, struct objects *o, const char *sym,
			const struct found *f, struct error *err)
{
	size_t first = 0;
	uint64_t off = 0;
	dev_t dev = 0;
	ino_t ino = 0;

	if (locate(o, sym, f, &off, &dev, &ino, err))
		return -1;
	while (first < s->nprobes && s->probes[first].metric != CALLCOUNT_SENTINEL)
		first++;
	if (!same_code(s, first, s->nprobes - first, off, dev, ino))
		new_probe(s, o, sym, f, off, dev, ino, CALLCOUNT_SENTINEL);
	return 0;
}

static int resolve_metric(struct callcount_set *s, struct objects *o, size_t mi,
			  struct error *err)
{
	struct callcount_metric *m = &s->metrics[mi];
	int preset = preset_find(m->name) != NULL;
	long only = -1;

	m->first = s->nprobes;
	if (m->object) {
		size_t idx;

		if (objects_find(o, m->object, s->program, &idx, err))
			return -1;
		only = (long)idx;
	}
	for (char **sym = m->symbols; *sym; sym++) {
		struct found f;
		int r = only >= 0 ? search_object(o, (size_t)only, *sym, ELF_DYNSYM | ELF_SYMTAB,
						  &f, err)
				  : search_all(o, *sym, &f, err);

		if (r < 0)
			return -1;
		if (!r) {
			/* A preset member nobody defines cannot be called. */
			if (preset)
				continue;
			unknown_symbol(o, *sym, only, err);
			return -1;
		}
		if (check_function(o, &f, *sym, err) || add_probe(s, o, mi, *sym, &f, err))
			return -1;
		m = &s->metrics[mi];
	}
	if (!m->n) {
		error_set(err, ERR_RUNTIME, "none of the functions of '%s' is defined in '%s' or "
			  "the libraries it loads", m->name, s->program);
		return error_hint(err, "name the allocator's object with call:malloc@OBJECT");
	}
	return 0;
}

/* ---- choosing the mechanism -------------------------------------------- */

/*
 * The functions that start another thread or process. uprobes count the
 * main thread only, so a call of one of these there means calls elsewhere
 * went uncounted. glibc's system() and popen() spawn through posix_spawn
 * internally; both are listed in case that changes.
 */
static const char *const spawn_syms[] = {
	"pthread_create", "fork", "_Fork", "vfork", "clone", "posix_spawn", "posix_spawnp",
	"system", "popen", "daemon",
};

static void uprobe_event(struct callcount_probe *p, int type)
{
	struct strbuf name = STRBUF_INIT;

	strbuf_addf(&name, "call:%s", p->symbol);
	event_spec_release(&p->ev);
	p->ev.name = strbuf_detach(&name);
	p->ev.pmu = xstrdup("uprobe");
	p->ev.unit = xstrdup("");
	p->ev.origin = EVO_PMU;
	p->ev.scale = 1.0;
	p->ev.attr.size = sizeof(p->ev.attr);
	p->ev.attr.type = (__u32)type;
	p->ev.attr.config = 0;	/* not a return probe */
	p->ev.attr.config1 = (__u64)(uintptr_t)p->object;
	p->ev.attr.config2 = p->offset;
}

/* errno of opening ev on ourselves, 0 when it opens. */
static int probe_errno(const struct event_spec *ev)
{
	struct perf_set set;
	int e;

	perf_set_open(&set, ev, NULL, 1, 0);
	e = set.c[0].fd >= 0 ? 0 : set.c[0].open_errno;
	perf_set_release(&set);
	return e;
}

/* Build the events; NULL when the first one opens here, else why not. */
static char *uprobes_unusable(struct callcount_set *s, const struct sysfs_model *model)
{
	const struct sysfs_pmu *pmu = model ? sysfs_pmu_find(model, "uprobe") : NULL;
	struct strbuf why = STRBUF_INIT;
	int e;

	if (!pmu)
		return xstrdup("the kernel exposes no uprobe PMU (CONFIG_UPROBE_EVENTS)");
	for (size_t i = 0; i < s->nprobes; i++)
		uprobe_event(&s->probes[i], pmu->type);
	e = probe_errno(&s->probes[0].ev);
	if (!e)
		return NULL;
	if (e == EACCES || e == EPERM)
		strbuf_adds(&why, "uprobes need CAP_PERFMON or root");
	else
		strbuf_addf(&why, "a uprobe on '%s' did not open (%s)", s->probes[0].symbol,
			    strerror(e));
	for (size_t i = 0; i < s->nprobes; i++)
		event_spec_release(&s->probes[i].ev);
	return strbuf_detach(&why);
}

static int setuid_like(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	if (st.st_mode & (S_ISUID | S_ISGID))
		return 1;
	/* File capabilities put the loader in secure mode too. */
	return getxattr(path, "security.capability", NULL, 0) > 0;
}

/* Does the program load a sanitizer runtime (libasan, libtsan, ...)? */
static int sanitized(const struct objects *o)
{
	static const char *const rt[] = { "libasan.so", "libtsan.so", "libhwasan.so",
					  "liblsan.so", "libmsan.so" };

	for (size_t i = 0; i < o->n; i++) {
		const char *base = strrchr(o->paths[i], '/');

		base = base ? base + 1 : o->paths[i];
		for (size_t k = 0; k < ARRAY_SIZE(rt); k++)
			if (!strncmp(base, rt[k], strlen(rt[k])))
				return 1;
	}
	return 0;
}

/* NULL when the shim can count everything asked, else why not. */
static char *preload_unusable(const struct callcount_set *s, const struct objects *o)
{
	struct strbuf why = STRBUF_INIT;

	if (s->is_static)
		return xstrdup("it is statically linked");
	if (setuid_like(s->program))
		return xstrdup("it is setuid, setgid or has file capabilities, and the loader "
			       "then ignores LD_PRELOAD");
	if (sanitized(o))
		return xstrdup("it is built with a sanitizer, whose runtime must be the first "
			       "library loaded and which takes the allocation functions itself");
	for (size_t i = 0; i < s->nprobes; i++) {
		if (s->probes[i].slot >= 0)
			continue;
		strbuf_adds(&why, "the LD_PRELOAD shim interposes only ");
		for (int k = 0; k < CC_NSLOTS; k++)
			strbuf_addf(&why, "%s%s", k ? ", " : "", slot_names[k]);
		strbuf_addf(&why, ", not '%s'", s->probes[i].symbol);
		return strbuf_detach(&why);
	}
	return NULL;
}

/* Probe the spawning functions the program can reach (uprobe mode). */
static int add_sentinels(struct callcount_set *s, struct objects *o, int type, struct error *err)
{
	for (size_t k = 0; k < ARRAY_SIZE(spawn_syms); k++) {
		struct found f;
		struct error ignore;
		size_t before = s->nprobes;

		/* Best effort: a spawn function that cannot be found cannot
		 * be called either. */
		if (search_all(o, spawn_syms[k], &f, &ignore) <= 0 || f.sym.type != STT_FUNC)
			continue;
		if (add_sentinel(s, o, spawn_syms[k], &f, err))
			return -1;
		if (s->nprobes > before)
			uprobe_event(&s->probes[before], type);
	}
	return 0;
}

static int use_preload(struct callcount_set *s, const struct callcount_opts *o,
		       struct error *err)
{
	if (o->shim)
		s->shim = xstrdup(o->shim);
	else if (callcount_shim_path(&s->shim, err))
		return -1;
	if (strpbrk(s->shim, ": ")) {
		error_set(err, ERR_RUNTIME, "cannot preload '%s': LD_PRELOAD cannot hold a path "
			  "with ':' or ' '", s->shim);
		return error_hint(err, "set PMUSTAT_COUNT_LIB to a path without them");
	}
	s->mech = CALLCOUNT_PRELOAD;
	if (o->force == CALLCOUNT_PRELOAD)
		s->mech_reason = xstrdup("the LD_PRELOAD shim was requested");
	return 0;
}

static int use_uprobes(struct callcount_set *s, const struct callcount_opts *o,
		       struct objects *objs, const char *no_preload, struct error *err)
{
	struct strbuf why = STRBUF_INIT;

	if (add_sentinels(s, objs, sysfs_pmu_find(o->model, "uprobe")->type, err))
		return -1;
	strbuf_adds(&why, "uprobes count the main thread only");
	if (no_preload)
		strbuf_addf(&why, " (the LD_PRELOAD shim cannot be used: %s)", no_preload);
	else
		strbuf_adds(&why, " (uprobes were requested)");
	s->mech = CALLCOUNT_UPROBE;
	s->mech_reason = strbuf_detach(&why);
	return 0;
}

static int choose_mech(struct callcount_set *s, const struct callcount_opts *o,
		       struct objects *objs, struct error *err)
{
	char *no_preload = preload_unusable(s, objs), *no_uprobe = NULL;
	int rc = -1;

	if (o->force != CALLCOUNT_UPROBE && !no_preload) {
		struct error shim_err;

		if (!use_preload(s, o, o->force == CALLCOUNT_PRELOAD ? err : &shim_err))
			return 0;
		if (o->force == CALLCOUNT_PRELOAD)
			return -1;
		no_preload = xstrdup(shim_err.msg);
	}
	if (o->force == CALLCOUNT_PRELOAD) {
		error_set(err, ERR_RUNTIME, "cannot count calls in '%s' with the LD_PRELOAD shim: "
			  "%s", s->program, no_preload);
		error_hint(err, "count them with uprobes: run pmustat as root, or grant it "
			   "CAP_PERFMON");
		goto out;
	}
	no_uprobe = uprobes_unusable(s, o->model);
	if (!no_uprobe) {
		rc = use_uprobes(s, o, objs, no_preload, err);
		goto out;
	}
	if (o->force == CALLCOUNT_UPROBE)
		error_set(err, ERR_RUNTIME, "cannot count calls in '%s' with uprobes: %s",
			  s->program, no_uprobe);
	else
		error_set(err, ERR_RUNTIME, "cannot count calls in '%s': %s, and %s", s->program,
			  no_uprobe, no_preload);
	error_hint(err, "run pmustat as root, or grant it CAP_PERFMON "
		   "('setcap cap_perfmon+ep pmustat')");
out:
	free(no_preload);
	free(no_uprobe);
	return rc;
}

int callcount_resolve(struct callcount_set *s, const struct callcount_opts *o,
		      const char *program, struct error *err)
{
	struct elf_file prog;
	struct objects objs;
	int rc = -1;

	if (!s->nmetrics)
		return 0;
	s->program = program_elf(program, err);
	if (!s->program)
		return -1;
	if (elf_open(&prog, s->program, err))
		return -1;
	s->is_static = elf_interp(&prog) == NULL;
	if (objects_load(&objs, &prog, o->envp, err))
		goto out_prog;
	for (size_t i = 0; i < s->nmetrics; i++)
		if (resolve_metric(s, &objs, i, err))
			goto out;
	rc = choose_mech(s, o, &objs, err);
out:
	objects_release(&objs);
out_prog:
	elf_close(&prog);
	return rc;
}

/* ---- using the set ----------------------------------------------------- */

void callcount_event_copy(const struct callcount_set *s, size_t i, struct event_spec *out)
{
	if (s->mech != CALLCOUNT_UPROBE) {	/* no events: nothing to copy */
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = s->probes[i].ev;
	out->name = xstrdup(s->probes[i].ev.name);
	out->pmu = xstrdup(s->probes[i].ev.pmu);
	out->unit = xstrdup(s->probes[i].ev.unit);
}

int callcount_same_probes(const struct callcount_set *a, const struct callcount_set *b)
{
	if (a->mech != b->mech || a->nprobes != b->nprobes || a->nmetrics != b->nmetrics)
		return 0;
	for (size_t i = 0; i < a->nprobes; i++) {
		const struct callcount_probe *p = &a->probes[i], *q = &b->probes[i];

		if (p->dev != q->dev || p->ino != q->ino || p->offset != q->offset ||
		    p->metric != q->metric)
			return 0;
	}
	return 1;
}

char *callcount_describe(const struct callcount_set *s, size_t mi)
{
	const struct callcount_metric *m = &s->metrics[mi];
	struct strbuf sb = STRBUF_INIT;
	const char *obj = NULL;

	strbuf_adds(&sb, "calls of ");
	if (s->mech == CALLCOUNT_PRELOAD) {
		for (char **sym = m->symbols; *sym; sym++)
			strbuf_addf(&sb, "%s%s", sym == m->symbols ? "" : ", ", *sym);
		strbuf_adds(&sb, " by name, through the LD_PRELOAD shim (preload)");
		return strbuf_detach(&sb);
	}
	for (size_t i = m->first; i < m->first + m->n; i++) {
		const struct callcount_probe *p = &s->probes[i];

		if (obj && strcmp(obj, p->object))
			strbuf_addf(&sb, " in %s; ", obj);
		else if (obj)
			strbuf_adds(&sb, ", ");
		strbuf_adds(&sb, p->symbol);
		obj = p->object;
	}
	if (obj)
		strbuf_addf(&sb, " in %s", obj);
	if (m->aliases)
		strbuf_addf(&sb, " (one function: %s, counted once)", m->aliases);
	strbuf_adds(&sb, " (uprobe)");
	return strbuf_detach(&sb);
}

int callcount_uprobe_values(const struct callcount_set *s, const uint64_t *raw, const int *ok,
			    struct callcount_values *v, struct error *err)
{
	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < s->nprobes; i++)
		if (!ok[i])
			return error_set(err, ERR_RUNTIME, "the uprobe on '%s' in '%s' was not "
					 "read", s->probes[i].symbol, s->probes[i].object);
	v->value = xcalloc(s->nmetrics ? s->nmetrics : 1, sizeof(double));
	for (size_t i = 0; i < s->nprobes; i++) {
		if (s->probes[i].metric == CALLCOUNT_SENTINEL)
			v->spawns += raw[i];
		else
			v->value[s->probes[i].metric] += (double)raw[i];
	}
	return 0;
}

int callcount_values_incomplete(const struct callcount_values *v, char *why, size_t len)
{
	if (v->spawns)
		snprintf(why, len, "the program started threads or processes (%lu calls), and "
			 "uprobes count its main thread only", v->spawns);
	else if (v->lost)
		snprintf(why, len, "%u of %u processes ended without reporting their counts "
			 "(killed by a signal, or they closed the descriptor)", v->lost,
			 v->processes);
	else
		return 0;
	return 1;
}

int callcount_shim_path(char **out, struct error *err)
{
	const char *env = getenv("PMUSTAT_COUNT_LIB");

	*out = selfpath_find("PMUSTAT_COUNT_LIB", "libpmustat-count.so", R_OK);
	if (*out)
		return 0;
	if (env && *env) {
		error_set(err, ERR_RUNTIME, "cannot read '%s' (PMUSTAT_COUNT_LIB): %s", env,
			  strerror(errno));
		return error_hint(err, "point PMUSTAT_COUNT_LIB at libpmustat-count.so");
	}
	error_set(err, ERR_RUNTIME, "cannot find libpmustat-count.so next to pmustat or in "
		  "../lib/pmustat/");
	return error_hint(err, "build it with 'make', or set PMUSTAT_COUNT_LIB to its path");
}

/* ---- preload runs ------------------------------------------------------ */

static int env_is(const char *entry, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(entry, name, n) && entry[n] == '=';
}

static char **preload_env(const char *shim, const char *path, char *const *base)
{
	const char *old = NULL;
	size_t n = 0, k = 0;
	struct strbuf sb = STRBUF_INIT;
	char **env;

	if (!base)
		base = environ;
	while (base[n])
		n++;
	env = xcalloc(n + 3, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		if (env_is(base[i], "LD_PRELOAD")) {
			old = base[i] + strlen("LD_PRELOAD=");
			continue;
		}
		if (!env_is(base[i], CALLCOUNT_FILE_ENV))
			env[k++] = xstrdup(base[i]);
	}
	/* First in the list, so the shim sees calls before any other preload. */
	strbuf_addf(&sb, "LD_PRELOAD=%s%s%s", shim, old && *old ? ":" : "", old ? old : "");
	env[k++] = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s=%s", CALLCOUNT_FILE_ENV, path);
	env[k++] = strbuf_detach(&sb);
	return env;
}

int callcount_run_begin(const struct callcount_set *s, char *const *base,
			struct callcount_run *r, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int fd;

	memset(r, 0, sizeof(*r));
	if (s->mech != CALLCOUNT_PRELOAD)
		return 0;
	if (tmpdir_make("pmustat-calls.", &r->dir, err))
		return -1;
	strbuf_addf(&sb, "%s/counts", r->dir);
	r->path = strbuf_detach(&sb);
	fd = open(r->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		error_set(err, ERR_RUNTIME, "cannot create '%s': %s", r->path, strerror(errno));
		callcount_run_release(r);
		return -1;
	}
	close(fd);
	r->envp = preload_env(s->shim, r->path, base);
	return 0;
}

void callcount_run_release(struct callcount_run *r)
{
	if (r->path)
		unlink(r->path);
	if (r->dir)
		rmdir(r->dir);
	free(r->path);
	free(r->dir);
	free_strv(r->envp);
	memset(r, 0, sizeof(*r));
}

void callcount_values_release(struct callcount_values *v)
{
	free(v->value);
	memset(v, 0, sizeof(*v));
}

struct pid_balance {
	int32_t pid;
	int delta;	/* +1 START, -1 EXIT/EXEC */
};

static int cmp_pid(const void *a, const void *b)
{
	const struct pid_balance *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Images that began but never reported: per pid, STARTs beyond ENDs. */
static unsigned count_lost(struct pid_balance *b, size_t n)
{
	unsigned lost = 0;

	qsort(b, n, sizeof(*b), cmp_pid);
	for (size_t i = 0; i < n;) {
		long sum = 0;
		size_t j = i;

		for (; j < n && b[j].pid == b[i].pid; j++)
			sum += b[j].delta;
		if (sum > 0)
			lost += (unsigned)sum;
		i = j;
	}
	return lost;
}

int callcount_sum_records(const struct callcount_set *s, const void *data, size_t len,
			  struct callcount_values *v, struct error *err)
{
	const struct callcount_record *rec = data;
	size_t n = len / sizeof(*rec);
	uint64_t total[CC_NSLOTS] = { 0 };
	struct pid_balance *bal;

	memset(v, 0, sizeof(*v));
	if (len % sizeof(*rec))
		return error_set(err, ERR_RUNTIME, "the call-count records are truncated "
				 "(%zu bytes)", len);
	bal = xcalloc(n ? n : 1, sizeof(*bal));
	for (size_t i = 0; i < n; i++) {
		if (rec[i].magic != CALLCOUNT_MAGIC || rec[i].version != CALLCOUNT_VERSION ||
		    rec[i].nslots != CC_NSLOTS || rec[i].kind < CC_REC_START ||
		    rec[i].kind > CC_REC_EXEC) {
			free(bal);
			error_set(err, ERR_RUNTIME, "call-count record %zu is corrupt", i);
			return error_hint(err, "the shim and pmustat must come from one build");
		}
		bal[i].pid = rec[i].pid;
		bal[i].delta = rec[i].kind == CC_REC_START ? 1 : -1;
		v->processes += rec[i].kind == CC_REC_START;
		for (int k = 0; k < CC_NSLOTS; k++)
			total[k] += rec[i].counts[k];
	}
	v->lost = count_lost(bal, n);
	free(bal);
	if (!v->processes) {
		error_set(err, ERR_RUNTIME, "no call counts from '%s': the LD_PRELOAD shim was "
			  "not loaded", s->program ? s->program : "the program");
		return error_hint(err, "check that it is dynamically linked and not setuid "
				  "('ldd %s')", s->program ? s->program : "PROG");
	}
	v->value = xcalloc(s->nmetrics ? s->nmetrics : 1, sizeof(double));
	for (size_t m = 0; m < s->nmetrics; m++)
		for (char **sym = s->metrics[m].symbols; *sym; sym++)
			if (slot_of(*sym) >= 0)
				v->value[m] += (double)total[slot_of(*sym)];
	return 0;
}

int callcount_run_end(const struct callcount_set *s, struct callcount_run *r,
		      struct callcount_values *v, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	ssize_t got;
	int rc, fd;

	memset(v, 0, sizeof(*v));
	if (!r->path)
		return error_set(err, ERR_RUNTIME, "no call-count file: not a preload run");
	fd = open(r->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_set(err, ERR_RUNTIME, "cannot read '%s': %s", r->path, strerror(errno));
	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			error_set(err, ERR_RUNTIME, "cannot read '%s': %s", r->path, strerror(errno));
			close(fd);
			strbuf_release(&sb);
			return -1;
		}
		strbuf_add(&sb, buf, (size_t)got);
	}
	close(fd);
	rc = callcount_sum_records(s, sb.buf, sb.len, v, err);
	strbuf_release(&sb);
	return rc;
}
