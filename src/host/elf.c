/*
 * ELF reading (see elf.h). The file is mapped once; every table is reached
 * through a bounds-checked view (offset, entry size, count, linked string
 * table), so the lookups below never index past the mapping whatever the
 * file says. The symbol ranking mirrors the dynamic loader's binding rules
 * (System V gABI, "Symbol Table"; GNU symbol versioning, where bit 15 of a
 * .gnu.version entry marks a non-default version). The list of loaded
 * objects is not re-derived from DT_NEEDED, RUNPATH and ld.so.cache: asking
 * the program's own loader (`ld.so --list`, what ldd does) is the only way
 * to agree with it on glibc-hwcaps, $ORIGIN and the environment.
 */
#include "host/elf.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/strbuf.h"

extern char **environ;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELF_NATIVE_DATA ELFDATA2LSB
#else
#define ELF_NATIVE_DATA ELFDATA2MSB
#endif

/* Bit 15 of a .gnu.version entry: a non-default (hidden, "@" not "@@") version. */
#define VERSYM_HIDDEN 0x8000

static int range_ok(const struct elf_file *f, uint64_t off, uint64_t len)
{
	return off <= f->size && len <= f->size - off;
}

/* ---- opening ----------------------------------------------------------- */

static int map_file(struct elf_file *f, const char *path, struct error *err)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)EI_NIDENT) {
		close(fd);
		return error_set(err, ERR_RUNTIME, "'%s' is not an ELF file", path);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return error_set(err, ERR_RUNTIME, "cannot map '%s': %s", path, strerror(errno));
	f->map = m;
	f->size = (size_t)st.st_size;
	return 0;
}

static int check_ident(const struct elf_file *f, struct error *err)
{
	const unsigned char *id = f->map;

	if (memcmp(id, ELFMAG, SELFMAG))
		return error_set(err, ERR_RUNTIME, "'%s' is not an ELF file", f->path);
	if (id[EI_CLASS] != ELFCLASS64) {
		error_set(err, ERR_RUNTIME, "'%s' is a 32-bit ELF file", f->path);
		return error_hint(err, "call counters read 64-bit programs and libraries only");
	}
	if (id[EI_DATA] != ELF_NATIVE_DATA)
		return error_set(err, ERR_RUNTIME, "'%s' is an ELF file of the other byte order",
				 f->path);
	if (f->size < sizeof(Elf64_Ehdr))
		return error_set(err, ERR_RUNTIME, "'%s' is truncated", f->path);
	return 0;
}

static int check_headers(struct elf_file *f, struct error *err)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->map;
	uint64_t shnum = eh->e_shnum;

	f->eh = eh;
	/* Headers are read in place, so they must be aligned as well as in bounds. */
	if (eh->e_phnum && (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff % 8 ||
			    !range_ok(f, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr))))
		return error_set(err, ERR_RUNTIME, "'%s' has corrupt program headers", f->path);
	f->ph = eh->e_phnum ? (const Elf64_Phdr *)(f->map + eh->e_phoff) : NULL;
	if (!eh->e_shoff)
		return 0;
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff % 8 ||
	    !range_ok(f, eh->e_shoff, sizeof(Elf64_Shdr)))
		return error_set(err, ERR_RUNTIME, "'%s' has corrupt section headers", f->path);
	f->sh = (const Elf64_Shdr *)(f->map + eh->e_shoff);
	if (!shnum)	/* extended numbering: the count is in section 0 */
		shnum = f->sh[0].sh_size;
	if (!range_ok(f, eh->e_shoff, shnum * sizeof(Elf64_Shdr)))
		return error_set(err, ERR_RUNTIME, "'%s' has corrupt section headers", f->path);
	return 0;
}

int elf_open(struct elf_file *f, const char *path, struct error *err)
{
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	if (map_file(f, path, err) || check_ident(f, err) || check_headers(f, err)) {
		elf_close(f);
		return -1;
	}
	return 0;
}

void elf_close(struct elf_file *f)
{
	if (f->map)
		munmap((void *)f->map, f->size);
	free(f->path);
	memset(f, 0, sizeof(*f));
}

static size_t section_count(const struct elf_file *f)
{
	if (!f->sh)
		return 0;
	return f->eh->e_shnum ? f->eh->e_shnum : f->sh[0].sh_size;
}

const char *elf_interp(const struct elf_file *f)
{
	for (size_t i = 0; i < f->eh->e_phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];

		if (p->p_type != PT_INTERP)
			continue;
		if (!p->p_filesz || !range_ok(f, p->p_offset, p->p_filesz) ||
		    f->map[p->p_offset + p->p_filesz - 1] != '\0')
			return NULL;
		return (const char *)f->map + p->p_offset;
	}
	return NULL;
}

int elf_vaddr_to_offset(const struct elf_file *f, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < f->eh->e_phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];

		if (p->p_type == PT_LOAD && vaddr >= p->p_vaddr &&
		    vaddr - p->p_vaddr < p->p_filesz) {
			*off = p->p_offset + (vaddr - p->p_vaddr);
			return 0;
		}
	}
	return -1;
}

/* ---- symbol tables ----------------------------------------------------- */

struct symview {
	int table;
	const Elf64_Sym *syms;
	size_t n;
	const char *str;
	size_t strsz;
	const Elf64_Half *versym;	/* .dynsym only, may be NULL */
};

static const Elf64_Shdr *section_of_type(const struct elf_file *f, uint32_t type)
{
	size_t n = section_count(f);

	for (size_t i = 0; i < n; i++)
		if (f->sh[i].sh_type == type)
			return &f->sh[i];
	return NULL;
}

static void view_versym(const struct elf_file *f, struct symview *v)
{
	const Elf64_Shdr *vs = section_of_type(f, SHT_GNU_versym);

	if (vs && vs->sh_size == v->n * sizeof(Elf64_Half) &&
	    range_ok(f, vs->sh_offset, vs->sh_size) && !(vs->sh_offset % 2))
		v->versym = (const Elf64_Half *)(f->map + vs->sh_offset);
}

/* 0 with v filled, -1 when the table is absent or malformed (then unused). */
static int symview_get(const struct elf_file *f, int table, struct symview *v)
{
	const Elf64_Shdr *s = section_of_type(f, table == ELF_DYNSYM ? SHT_DYNSYM : SHT_SYMTAB);
	const Elf64_Shdr *strs;

	memset(v, 0, sizeof(*v));
	v->table = table;
	if (!s || s->sh_entsize != sizeof(Elf64_Sym) || s->sh_link >= section_count(f) ||
	    !range_ok(f, s->sh_offset, s->sh_size) || s->sh_offset % 8)
		return -1;
	strs = &f->sh[s->sh_link];
	if (!range_ok(f, strs->sh_offset, strs->sh_size))
		return -1;
	v->syms = (const Elf64_Sym *)(f->map + s->sh_offset);
	v->n = s->sh_size / sizeof(Elf64_Sym);
	v->str = (const char *)f->map + strs->sh_offset;
	v->strsz = strs->sh_size;
	if (table == ELF_DYNSYM)
		view_versym(f, v);
	return 0;
}

/* The NUL-terminated name of sym, or NULL if it runs off its table. */
static const char *sym_name(const struct symview *v, const Elf64_Sym *sym)
{
	if (sym->st_name >= v->strsz || !memchr(v->str + sym->st_name, '\0',
						v->strsz - sym->st_name))
		return NULL;
	return v->str + sym->st_name;
}

static int sym_defined(const Elf64_Sym *sym)
{
	unsigned t = ELF64_ST_TYPE(sym->st_info);

	return sym->st_shndx != SHN_UNDEF && t != STT_SECTION && t != STT_FILE;
}

/* Binding preference, higher wins; 0 = not a candidate. */
static int sym_rank(const struct symview *v, size_t i)
{
	unsigned bind = ELF64_ST_BIND(v->syms[i].st_info);
	int global = bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE;

	if (v->table == ELF_DYNSYM) {
		if (!global)
			return 0;
		return v->versym && (v->versym[i] & VERSYM_HIDDEN) ? 3 : 4;
	}
	return global ? 2 : 1;
}

struct best {
	int rank;
	int ambiguous;
	struct elf_sym sym;
};

static void consider(struct best *b, const struct symview *v, size_t i, const char *name)
{
	const Elf64_Sym *s = &v->syms[i];
	int rank = sym_rank(v, i);

	if (!rank || rank < b->rank)
		return;
	if (rank == b->rank) {
		/* Two globals are one function under aliases or versions;
		 * two file-local statics of one name are different functions. */
		if (rank == 1 && s->st_value != b->sym.value)
			b->ambiguous = 1;
		return;
	}
	b->rank = rank;
	b->ambiguous = 0;
	b->sym.name = name;
	b->sym.value = s->st_value;
	b->sym.size = s->st_size;
	b->sym.type = ELF64_ST_TYPE(s->st_info);
	b->sym.bind = ELF64_ST_BIND(s->st_info);
	b->sym.table = v->table;
}

enum elf_lookup elf_find_symbol(const struct elf_file *f, const char *name, int tables,
				struct elf_sym *out)
{
	static const int order[] = { ELF_DYNSYM, ELF_SYMTAB };
	struct best b = { 0 };

	for (size_t t = 0; t < 2; t++) {
		struct symview v;

		if (!(tables & order[t]) || symview_get(f, order[t], &v))
			continue;
		for (size_t i = 1; i < v.n; i++) {
			const char *n;

			if (!sym_defined(&v.syms[i]))
				continue;
			n = sym_name(&v, &v.syms[i]);
			if (n && !strcmp(n, name))
				consider(&b, &v, i, n);
		}
	}
	if (!b.rank)
		return ELF_SYM_NONE;
	if (b.ambiguous)
		return ELF_SYM_AMBIGUOUS;
	*out = b.sym;
	return ELF_SYM_FOUND;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t elf_function_names(const struct elf_file *f, const char ***names)
{
	const char **out = NULL;
	size_t n = 0, alloc = 0, u = 0;

	for (int table = ELF_DYNSYM; table <= ELF_SYMTAB; table++) {
		struct symview v;

		if (symview_get(f, table, &v))
			continue;
		for (size_t i = 1; i < v.n; i++) {
			unsigned t = ELF64_ST_TYPE(v.syms[i].st_info);
			const char *nm = sym_name(&v, &v.syms[i]);

			if (!sym_defined(&v.syms[i]) || (t != STT_FUNC && t != STT_GNU_IFUNC) ||
			    !nm || !*nm)
				continue;
			ALLOC_GROW(out, n + 1, alloc);
			out[n++] = nm;
		}
	}
	if (n)
		qsort(out, n, sizeof(*out), cmp_str);
	for (size_t i = 0; i < n; i++)
		if (!u || strcmp(out[u - 1], out[i]))
			out[u++] = out[i];
	*names = out;
	return u;
}

/* ---- the loader's list of objects -------------------------------------- */

static void paths_add(char ***paths, size_t *n, char *p)
{
	*paths = xrealloc(*paths, (*n + 2) * sizeof(char *));
	(*paths)[(*n)++] = p;
	(*paths)[*n] = NULL;
}

void elf_paths_free(char **paths)
{
	if (!paths)
		return;
	for (char **p = paths; *p; p++)
		free(*p);
	free(paths);
}

/* One line of --list output: the path it names, or NULL (vDSO, blank).
 * *missing is set to the library name for "NAME => not found". */
static char *list_line_path(const char *line, size_t len, char **missing)
{
	const char *end = line + len, *arrow, *paren;

	while (line < end && (*line == '\t' || *line == ' '))
		line++;
	arrow = memmem(line, (size_t)(end - line), " => ", 4);
	if (arrow) {
		const char *p = arrow + 4;

		if ((size_t)(end - p) >= 9 && !memcmp(p, "not found", 9)) {
			*missing = xstrndup(line, (size_t)(arrow - line));
			return NULL;
		}
		line = p;
	}
	if (line >= end || *line != '/')
		return NULL;
	/* The load address " (0x...)" ends the line; a path may hold spaces. */
	for (paren = end - line > 4 ? end - 4 : line; paren > line; paren--)
		if (!memcmp(paren, " (0x", 4))
			return xstrndup(line, (size_t)(paren - line));
	return xstrndup(line, (size_t)(end - line));
}

int elf_parse_loader_list(const char *text, const char *prog, char ***paths,
			  struct error *err)
{
	size_t n = 0;

	*paths = NULL;
	if (prog)
		paths_add(paths, &n, xstrdup(prog));
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char *missing = NULL, *p = list_line_path(text, len, &missing);

		if (missing) {
			error_set(err, ERR_RUNTIME, "'%s' needs '%s', which the dynamic loader "
				  "cannot find", prog ? prog : "the program", missing);
			error_hint(err, "run 'ldd %s', and set LD_LIBRARY_PATH if needed",
				   prog ? prog : "PROG");
			free(missing);
			elf_paths_free(*paths);
			*paths = NULL;
			return -1;
		}
		if (p)
			paths_add(paths, &n, p);
		text += len + (nl != NULL);
	}
	if (!*paths)
		*paths = xcalloc(1, sizeof(char *));
	return 0;
}

/* Run argv with stdout+stderr captured in out; returns the wait status or -1. */
static int run_capture(char *const *argv, char *const *envp, struct strbuf *out,
		       struct error *err)
{
	posix_spawn_file_actions_t fa;
	int pfd[2], status = -1;
	pid_t pid;
	char buf[4096];
	ssize_t got;

	if (pipe2(pfd, O_CLOEXEC))
		return error_set(err, ERR_RUNTIME, "cannot create a pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
	errno = posix_spawn(&pid, argv[0], &fa, NULL, argv, envp ? envp : environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (errno) {
		error_set(err, ERR_RUNTIME, "cannot run '%s': %s", argv[0], strerror(errno));
		close(pfd[0]);
		return -1;
	}
	while ((got = read(pfd[0], buf, sizeof(buf))) > 0 || (got < 0 && errno == EINTR))
		if (got > 0)
			strbuf_add(out, buf, (size_t)got);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_set(err, ERR_RUNTIME, "cannot wait for '%s': %s", argv[0],
					 strerror(errno));
	return status;
}

int elf_loaded_objects(const struct elf_file *prog, char *const *envp, char ***paths,
		       struct error *err)
{
	const char *interp = elf_interp(prog);
	struct strbuf out = STRBUF_INIT, arg = STRBUF_INIT;
	char *argv[4];
	int status, rc = -1;

	*paths = NULL;
	if (!interp)
		return error_set(err, ERR_RUNTIME, "'%s' is not dynamically linked", prog->path);
	/* Without a slash the loader would search its library path for it. */
	strbuf_addf(&arg, "%s%s", strchr(prog->path, '/') ? "" : "./", prog->path);
	argv[0] = (char *)interp;
	argv[1] = (char *)"--list";
	argv[2] = arg.buf;
	argv[3] = NULL;
	status = run_capture(argv, envp, &out, err);
	if (status == -1)
		goto done;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char *nl = strchr(out.buf, '\n');

		if (nl)
			*nl = '\0';
		error_set(err, ERR_RUNTIME, "cannot list the libraries '%s' loads: %s",
			  prog->path, out.len ? out.buf : "the dynamic loader failed");
		error_hint(err, "run 'ldd %s' to see what the loader says", prog->path);
		goto done;
	}
	rc = elf_parse_loader_list(out.buf, prog->path, paths, err);
done:
	strbuf_release(&out);
	strbuf_release(&arg);
	return rc;
}
