/*
 * Resolving call counters (see callcount.h): requested names -> (object,
 * file offset) through the ELF reader and the loader's own list of objects,
 * then a mechanism. The program is found as execvp finds it and a script is
 * followed to its interpreter, so the objects searched are those that will
 * run. Without @OBJECT a name binds as the dynamic loader binds it: the
 * first .dynsym definition in search order, then .symtab for functions that
 * are not exported. Two requested names at one address (glibc's memalign
 * and aligned_alloc) get one probe: a call is one call.
 */
#include "backend/callcount_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/safeopen.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "host/checks.h"

/* Shebang lines followed at most this deep (the kernel allows 4 too). */
#define MAX_INTERP_DEPTH 4

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
	int fd = safeopen_read(path, 0);
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

static void objects_release(struct cc_objects *o)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->elf[i].elf)
			elf_close(&o->elf[i]);
	free(o->elf);
	elf_paths_free(o->paths);
	memset(o, 0, sizeof(*o));
}

static int objects_load(struct cc_objects *o, const struct elf_file *prog, char *const *envp,
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

static struct elf_file *objects_elf(struct cc_objects *o, size_t i, struct error *err)
{
	if (!o->elf[i].elf && elf_open(&o->elf[i], o->paths[i], err))
		return NULL;
	return &o->elf[i];
}

/* Append an object named by path with @PATH (it may be dlopen()ed later). */
static size_t objects_add(struct cc_objects *o, const char *path)
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
static int objects_find(struct cc_objects *o, const char *want, const char *prog, size_t *idx,
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

/* Search one object's tables; 1 found, 0 not, -1 error (err set). */
static int search_object(struct cc_objects *o, size_t i, const char *sym, int tables,
			 struct cc_found *f, struct error *err)
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
int cc_search_all(struct cc_objects *o, const char *sym, struct cc_found *f, struct error *err)
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

static void unknown_symbol(struct cc_objects *o, const char *sym, const long only, struct error *err)
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

static int check_function(const struct cc_objects *o, const struct cc_found *f, const char *sym,
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

static struct callcount_probe *new_probe(struct callcount_set *s, struct cc_objects *o,
					 const char *sym, const struct cc_found *f, uint64_t off,
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
	p->slot = cc_slot_of(sym);
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

static int locate(struct cc_objects *o, const char *sym, const struct cc_found *f, uint64_t *off,
		  dev_t *dev, ino_t *ino, struct error *err)
{
	if (elf_vaddr_to_offset(&o->elf[f->obj], f->sym.value, off))
		return error_set(err, ERR_RUNTIME, "'%s' in '%s' lies outside every loaded "
				 "segment", sym, o->paths[f->obj]);
	return file_id(o->paths[f->obj], dev, ino, err);
}

/* Add a probe for sym to metric mi unless the metric already has one at
 * that code (an alias): then note "name = other". */
static int add_probe(struct callcount_set *s, struct cc_objects *o, size_t mi, const char *sym,
		     const struct cc_found *f, struct error *err)
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
int cc_add_sentinel(struct callcount_set *s, struct cc_objects *o, const char *sym,
			const struct cc_found *f, struct error *err)
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

static int resolve_metric(struct callcount_set *s, struct cc_objects *o, size_t mi,
			  struct error *err)
{
	struct callcount_metric *m = &s->metrics[mi];
	int preset = cc_is_preset(m->name);
	long only = -1;

	m->first = s->nprobes;
	if (m->object) {
		size_t idx;

		if (objects_find(o, m->object, s->program, &idx, err))
			return -1;
		only = (long)idx;
	}
	for (char **sym = m->symbols; *sym; sym++) {
		struct cc_found f;
		int r = only >= 0 ? search_object(o, (size_t)only, *sym, ELF_DYNSYM | ELF_SYMTAB,
						  &f, err)
				  : cc_search_all(o, *sym, &f, err);

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

static int choose_mech(struct callcount_set *s, const struct callcount_opts *o,
		       struct cc_objects *objs, struct error *err)
{
	char *no_preload = cc_preload_unusable(s, objs), *no_uprobe = NULL;
	int rc = -1;

	if (o->force != CALLCOUNT_UPROBE && !no_preload) {
		struct error shim_err;

		if (!cc_use_preload(s, o, o->force == CALLCOUNT_PRELOAD ? err : &shim_err))
			return 0;
		if (o->force == CALLCOUNT_PRELOAD)
			return -1;
		no_preload = xstrdup(shim_err.msg);
	}
	if (o->force == CALLCOUNT_PRELOAD) {
		error_set(err, ERR_RUNTIME, "cannot count calls in '%s' with the LD_PRELOAD shim: "
			  "%s", s->program, no_preload);
		error_hint(err, "count them with uprobes: run pmustat as root, or "
			   CHECKS_UPROBE_SETCAP);
		goto out;
	}
	no_uprobe = cc_uprobes_unusable(s, o->model);
	if (!no_uprobe) {
		rc = cc_use_uprobes(s, o, objs, no_preload, err);
		goto out;
	}
	if (o->force == CALLCOUNT_UPROBE)
		error_set(err, ERR_RUNTIME, "cannot count calls in '%s' with uprobes: %s",
			  s->program, no_uprobe);
	else
		error_set(err, ERR_RUNTIME, "cannot count calls in '%s': %s, and %s", s->program,
			  no_uprobe, no_preload);
	error_hint(err, "run pmustat as root, or " CHECKS_UPROBE_SETCAP);
out:
	free(no_preload);
	free(no_uprobe);
	return rc;
}

int callcount_resolve(struct callcount_set *s, const struct callcount_opts *o,
		      const char *program, struct error *err)
{
	struct elf_file prog;
	struct cc_objects objs;
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
