/*
 * ELF reading (see elf.h) on libelf. The file is opened with
 * ELF_C_READ_MMAP and read whole at once (ELF_C_FDREAD), so no descriptor
 * stays open and every later access is to memory libelf has bounds-checked:
 * sections are walked with elf_nextscn (which honours extended numbering),
 * entries are fetched with gelf_getsym and gelf_getversym (which check the
 * index against the data), and names with elf_strptr (which checks the
 * string table and its terminating NUL). The symbol ranking mirrors the
 * dynamic loader's binding rules (System V gABI, "Symbol Table"; GNU symbol
 * versioning, where bit 15 of a .gnu.version entry marks a non-default
 * version). The list of loaded objects is not re-derived from DT_NEEDED,
 * RUNPATH and ld.so.cache: asking the program's own loader (`ld.so --list`,
 * what ldd does) is the only way to agree with it on glibc-hwcaps, $ORIGIN
 * and the environment.
 */
#include "backend/elf.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/safeopen.h"
#include "core/sort.h"
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

/* libelf's reason for the last failure (clearing it), or a generic one when
 * libelf saw none: it shortens or drops tables that run off the file. */
static const char *elf_reason(void)
{
	int e = elf_errno();

	return e ? elf_errmsg(e) : "out of bounds";
}

/* A descriptor over the whole file, read into memory; the fd is closed. */
static int begin(struct elf_file *f, const char *path, struct error *err)
{
	struct stat st;
	int fd = safeopen_read(path, 0);

	if (fd == SAFEOPEN_NOTREG) {
		error_set(err, ERR_RUNTIME, "cannot read '%s': not a regular file", path);
		return error_hint(err, "name a program or library file, not a FIFO or a device");
	}
	if (fd < 0)
		return error_set(err, ERR_RUNTIME, "cannot read '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) || st.st_size < (off_t)EI_NIDENT) {
		close(fd);
		return error_set(err, ERR_RUNTIME, "'%s' is not an ELF file", path);
	}
	elf_version(EV_CURRENT);
	(void)elf_errno();	/* no stale reason from an earlier file */
	f->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (f->elf && elf_cntl(f->elf, ELF_C_FDREAD)) {
		elf_end(f->elf);
		f->elf = NULL;
	}
	close(fd);
	if (!f->elf)	/* only a header libelf cannot even index gets here */
		return error_set(err, ERR_RUNTIME, "'%s' has corrupt ELF headers: %s", path,
				 elf_reason());
	f->image = elf_rawfile(f->elf, &f->size);
	return 0;
}

static int check_ident(const struct elf_file *f, struct error *err)
{
	const unsigned char *id = (const unsigned char *)f->image;

	if (elf_kind(f->elf) != ELF_K_ELF || !id || f->size < EI_NIDENT)
		return error_set(err, ERR_RUNTIME, "'%s' is not an ELF file", f->path);
	if (id[EI_CLASS] != ELFCLASS64) {
		error_set(err, ERR_RUNTIME, "'%s' is a 32-bit ELF file", f->path);
		return error_hint(err, "call counters read 64-bit programs and libraries only");
	}
	if (id[EI_DATA] != ELF_NATIVE_DATA)
		return error_set(err, ERR_RUNTIME, "'%s' is an ELF file of the other byte order",
				 f->path);
	return 0;
}

/* The program header count the file declares: e_phnum, or with PN_XNUM
 * section 0's sh_info; SIZE_MAX when that cannot be read. */
static size_t declared_phnum(const struct elf_file *f)
{
	GElf_Shdr sh0;

	if (f->eh->e_phnum != PN_XNUM)
		return f->eh->e_phnum;
	return gelf_getshdr(elf_getscn(f->elf, 0), &sh0) ? sh0.sh_info : SIZE_MAX;
}

/*
 * 0 when the section headers are all in bounds (libelf loads the whole
 * table on the first gelf_getshdr and checks it against the file). libelf
 * counts a table whose first entry lies past the end of the file as no
 * table at all; a header that declares one (e_shnum, or e_shoff with
 * extended numbering) and has none is damaged.
 */
static int sections_ok(const struct elf_file *f)
{
	size_t shnum;
	GElf_Shdr sh;

	if (elf_getshdrnum(f->elf, &shnum))
		return -1;
	if (!shnum)
		return f->eh->e_shnum || f->eh->e_shoff ? -1 : 0;
	return gelf_getshdr(elf_getscn(f->elf, 0), &sh) ? 0 : -1;
}

/*
 * The header and both header tables, each loaded (and so bounds-checked)
 * now: a file that opens has no corrupt table to trip over later. libelf
 * quietly shortens a program header table that runs past the end of the
 * file; that is a damaged file too.
 */
static int check_headers(struct elf_file *f, struct error *err)
{
	GElf_Phdr ph;

	f->eh = elf64_getehdr(f->elf);
	if (!f->eh)
		return error_set(err, ERR_RUNTIME, "'%s' is truncated", f->path);
	if (sections_ok(f))
		return error_set(err, ERR_RUNTIME, "'%s' has corrupt section headers: %s",
				 f->path, elf_reason());
	if (elf_getphdrnum(f->elf, &f->phnum) || (f->phnum && !gelf_getphdr(f->elf, 0, &ph)) ||
	    f->phnum != declared_phnum(f))
		return error_set(err, ERR_RUNTIME, "'%s' has corrupt program headers: %s",
				 f->path, elf_reason());
	return 0;
}

int elf_open(struct elf_file *f, const char *path, struct error *err)
{
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	if (begin(f, path, err) || check_ident(f, err) || check_headers(f, err)) {
		elf_close(f);
		return -1;
	}
	return 0;
}

void elf_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	free(f->path);
	memset(f, 0, sizeof(*f));
}

int elf_is_pie(const char *path, int *pie, struct error *err)
{
	struct elf_file f;

	if (elf_open(&f, path, err))
		return -1;
	*pie = f.eh->e_type == ET_DYN;
	elf_close(&f);
	return 0;
}

const char *elf_interp(const struct elf_file *f)
{
	GElf_Phdr p;

	for (size_t i = 0; i < f->phnum; i++) {
		if (!gelf_getphdr(f->elf, (int)i, &p) || p.p_type != PT_INTERP)
			continue;
		if (!p.p_filesz || !range_ok(f, p.p_offset, p.p_filesz) ||
		    f->image[p.p_offset + p.p_filesz - 1] != '\0')
			return NULL;
		return f->image + p.p_offset;
	}
	return NULL;
}

int elf_vaddr_to_offset(const struct elf_file *f, uint64_t vaddr, uint64_t *off)
{
	GElf_Phdr p;

	for (size_t i = 0; i < f->phnum; i++) {
		if (!gelf_getphdr(f->elf, (int)i, &p))
			continue;
		if (p.p_type == PT_LOAD && vaddr >= p.p_vaddr && vaddr - p.p_vaddr < p.p_filesz) {
			*off = p.p_offset + (vaddr - p.p_vaddr);
			return 0;
		}
	}
	return -1;
}

/* ---- symbol tables ----------------------------------------------------- */

struct symview {
	const struct elf_file *f;
	int table;
	Elf_Data *syms;
	size_t n;
	size_t strndx;		/* the linked string table */
	Elf_Data *versym;	/* .dynsym only, may be NULL */
};

/* The first section of type, with its header; NULL if none. */
static Elf_Scn *section_of_type(const struct elf_file *f, uint32_t type, GElf_Shdr *sh)
{
	for (Elf_Scn *s = elf_nextscn(f->elf, NULL); s; s = elf_nextscn(f->elf, s))
		if (gelf_getshdr(s, sh) && sh->sh_type == type)
			return s;
	return NULL;
}

/* The section's data when it is there in full (not SHT_NOBITS, in bounds). */
static Elf_Data *section_data(Elf_Scn *s, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(s, NULL);

	if (!d || (d->d_size && !d->d_buf) || d->d_size != sh->sh_size)
		return NULL;
	return d;
}

static void view_versym(struct symview *v)
{
	GElf_Shdr sh;
	Elf_Scn *s = section_of_type(v->f, SHT_GNU_versym, &sh);
	Elf_Data *d = s ? section_data(s, &sh) : NULL;

	if (d && d->d_size == v->n * sizeof(GElf_Versym))
		v->versym = d;
}

/* 0 with v filled, -1 when the table is absent or malformed (then unused). */
static int symview_get(const struct elf_file *f, int table, struct symview *v)
{
	GElf_Shdr sh;
	Elf_Scn *s = section_of_type(f, table == ELF_DYNSYM ? SHT_DYNSYM : SHT_SYMTAB, &sh);

	memset(v, 0, sizeof(*v));
	v->f = f;
	v->table = table;
	if (!s || sh.sh_entsize != sizeof(Elf64_Sym) || !(v->syms = section_data(s, &sh)))
		return -1;
	v->n = v->syms->d_size / sizeof(Elf64_Sym);
	v->strndx = sh.sh_link;
	if (table == ELF_DYNSYM)
		view_versym(v);
	return 0;
}

/* Entry i (0 with *sym filled), and its NUL-terminated name or NULL. */
static int sym_get(const struct symview *v, size_t i, GElf_Sym *sym, const char **name)
{
	if (!gelf_getsym(v->syms, (int)i, sym))
		return -1;
	*name = elf_strptr(v->f->elf, v->strndx, sym->st_name);
	return 0;
}

static int sym_defined(const GElf_Sym *sym)
{
	unsigned t = GELF_ST_TYPE(sym->st_info);

	return sym->st_shndx != SHN_UNDEF && t != STT_SECTION && t != STT_FILE;
}

static int sym_hidden_version(const struct symview *v, size_t i)
{
	GElf_Versym vs;

	return v->versym && gelf_getversym(v->versym, (int)i, &vs) && (vs & VERSYM_HIDDEN);
}

/* Binding preference, higher wins; 0 = not a candidate. */
static int sym_rank(const struct symview *v, size_t i, const GElf_Sym *sym)
{
	unsigned bind = GELF_ST_BIND(sym->st_info);
	int global = bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE;

	if (v->table == ELF_DYNSYM) {
		if (!global)
			return 0;
		return sym_hidden_version(v, i) ? 3 : 4;
	}
	return global ? 2 : 1;
}

struct best {
	int rank;
	int ambiguous;
	struct elf_sym sym;
};

static void consider(struct best *b, const struct symview *v, size_t i, const GElf_Sym *s,
		     const char *name)
{
	int rank = sym_rank(v, i, s);

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
	b->sym.type = GELF_ST_TYPE(s->st_info);
	b->sym.bind = GELF_ST_BIND(s->st_info);
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
			GElf_Sym s;
			const char *n;

			if (!sym_get(&v, i, &s, &n) && sym_defined(&s) && n && !strcmp(n, name))
				consider(&b, &v, i, &s, n);
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

static int is_function(const GElf_Sym *s)
{
	unsigned t = GELF_ST_TYPE(s->st_info);

	return sym_defined(s) && (t == STT_FUNC || t == STT_GNU_IFUNC);
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
			GElf_Sym s;
			const char *nm;

			if (sym_get(&v, i, &s, &nm) || !is_function(&s) || !nm || !*nm)
				continue;
			ALLOC_GROW(out, n + 1, alloc);
			out[n++] = nm;
		}
	}
	if (n)
		sort_n(out, n, sizeof(*out), cmp_str);
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
	strv_free(paths);
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
