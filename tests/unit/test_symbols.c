/*
 * Unit tests for backend/symbols. The truth comes from outside the code
 * under test: build/symprog (tests/tools/sym/symprog.c) runs as a child and
 * prints the addresses of marks inside its functions with the source lines
 * they are written on; the mappings are the child's own /proc/PID/maps; the
 * symbol tables are read here with libelf (which function holds an
 * address, which translation unit a static function comes from: its
 * STT_FILE entry); and eu-addr2line, given the live process (-p PID), has
 * to agree on functions and lines. The layouts a profiler meets are
 * separate builds of symprog (workloads/symprog/build.mk): default PIE,
 * code moved away from its file offset, lld, non-PIE, stripped, without
 * DWARF, DWARF behind .gnu_debuglink. No test depends on timing.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/elf.h"
#include "backend/symbols.h"
#include "core/strbuf.h"

static char build_dir[4096];

static char *tool(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", build_dir, name);
	return strbuf_detach(&sb);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = s ? strlen(s) : 0, t = strlen(tail);

	return s && n >= t && !strcmp(s + n - t, tail);
}

static const char *base_name(const char *p)
{
	const char *slash = strrchr(p, '/');

	return slash ? slash + 1 : p;
}

/* ---- a live symprog ---------------------------------------------------- */

struct mark {
	char name[32];
	uint64_t addr;
	int line;
};

struct child {
	pid_t pid;
	int in;				/* its stdin: closing it ends it */
	struct mark marks[16];
	int nmarks;
	struct sym_map maps[64];	/* its executable mappings */
	int nmaps;
};

static const struct mark *mark_of(const struct child *c, const char *name)
{
	for (int i = 0; i < c->nmarks; i++)
		if (!strcmp(c->marks[i].name, name))
			return &c->marks[i];
	fail_msg("symprog printed no mark '%s'", name);
	return NULL;
}

static const struct sym_map *map_named(const struct child *c, const char *tail)
{
	for (int i = 0; i < c->nmaps; i++)
		if (ends_with(c->maps[i].path, tail))
			return &c->maps[i];
	return NULL;
}

static void read_marks(struct child *c, FILE *out)
{
	char line[256], name[32];
	void *addr;
	int ln;

	while (fgets(line, sizeof(line), out)) {
		if (!strncmp(line, "ready", 5))
			return;
		assert_int_equal(sscanf(line, "%31s %p %d", name, &addr, &ln), 3);
		assert_true(c->nmarks < 16);
		strcpy(c->marks[c->nmarks].name, name);
		c->marks[c->nmarks].addr = (uint64_t)(uintptr_t)addr;
		c->marks[c->nmarks++].line = ln;
	}
	fail_msg("symprog ended before it was ready");
}

/* The executable mappings of pid, as the kernel reports them. */
static int read_maps(pid_t pid, struct sym_map *maps, int max)
{
	char path[64], line[4200];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		char perm[8];
		int at = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &a, &b, perm, &off, &at) < 4 ||
		    !strchr(perm, 'x'))
			continue;
		line[strcspn(line, "\n")] = '\0';
		assert_true(n < max);
		maps[n++] = (struct sym_map){ a, b, off, xstrdup(line + at) };
	}
	fclose(f);
	return n;
}

static void child_start(struct child *c, const char *prog)
{
	int in[2], out[2];
	char *path = tool(prog);
	FILE *f;

	memset(c, 0, sizeof(*c));
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (!c->pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	c->in = in[1];
	f = fdopen(out[0], "r");
	read_marks(c, f);
	fclose(f);
	c->nmaps = read_maps(c->pid, c->maps, 64);
	free(path);
}

static void child_stop(struct child *c)
{
	int st;

	close(c->in);
	assert_int_equal(waitpid(c->pid, &st, 0), c->pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	for (int i = 0; i < c->nmaps; i++)
		free(c->maps[i].path);
}

static struct symbolizer *symbolizer_of(const struct child *c)
{
	struct symbolizer *s = symbolizer_new();
	struct error err;

	if (symbolizer_add_maps(s, c->maps, (size_t)c->nmaps, &err))
		fail_msg("%s", err.msg);
	return s;
}

/* ---- the symbol table, read here --------------------------------------- */

struct elf_fn {
	uint64_t value, size;
	char file[256];		/* the STT_FILE entry it follows */
};

/*
 * The functions in path's .symtab whose name is key or key with a suffix
 * ("sp_norm" finds sp_norm.constprop.0); returns how many, up to max.
 */
static int symtab_functions(const char *path, const char *key, struct elf_fn *out, int max)
{
	int fd = open(path, O_RDONLY), n = 0;
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t klen = strlen(key);

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		char file[256] = "";

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *nm;

			if (!gelf_getsym(d, (int)i, &sym) ||
			    !(nm = elf_strptr(elf, sh.sh_link, sym.st_name)))
				continue;
			if (GELF_ST_TYPE(sym.st_info) == STT_FILE)
				snprintf(file, sizeof(file), "%s", nm);
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || strncmp(nm, key, klen) ||
			    (nm[klen] && nm[klen] != '.') || n >= max)
				continue;
			out[n].value = sym.st_value;
			out[n].size = sym.st_size;
			snprintf(out[n++].file, sizeof(out[0].file), "%s", file);
		}
	}
	elf_end(elf);
	close(fd);
	return n;
}

/* vaddr lies in the function key of path's symbol table. */
static void assert_in_function(const char *path, const char *key, uint64_t vaddr)
{
	struct elf_fn fn[4];
	int n = symtab_functions(path, key, fn, 4);

	for (int i = 0; i < n; i++)
		if (vaddr >= fn[i].value && vaddr < fn[i].value + fn[i].size)
			return;
	fail_msg("%#" PRIx64 " is not in %s of %s (%d candidates)", vaddr, key, path, n);
}

/* The name of the section of path holding vaddr, or "". */
static void section_at(const char *path, uint64_t vaddr, char *out, size_t size)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	snprintf(out, size, "%s", "");
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && vaddr >= sh.sh_addr &&
		    vaddr < sh.sh_addr + sh.sh_size)
			snprintf(out, size, "%s", elf_strptr(elf, shstrndx, sh.sh_name));
	}
	elf_end(elf);
	close(fd);
}

/* ---- eu-addr2line ------------------------------------------------------ */

struct a2l {
	char function[256];	/* the innermost function; "??" when unknown */
	char file[1024];
	int line;
	int call_line;		/* "F inlined at FILE:LINE:COL in G": LINE; else 0 */
	char caller[256];	/* G */
};

/* eu-addr2line's answer for addr in the live process pid. */
static void addr2line(pid_t pid, uint64_t addr, struct a2l *a)
{
	char cmd[128], fn[1024], loc[1024];
	FILE *p;
	char *colon, *at;

	memset(a, 0, sizeof(*a));
	snprintf(cmd, sizeof(cmd), "eu-addr2line -p %d -f %#" PRIx64 " 2>/dev/null", (int)pid,
		 addr);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(fn, sizeof(fn), p));
	assert_non_null(fgets(loc, sizeof(loc), p));
	assert_int_equal(pclose(p), 0);
	fn[strcspn(fn, "\n")] = loc[strcspn(loc, "\n")] = '\0';
	sscanf(fn, "%255s", a->function);
	if ((at = strstr(fn, " inlined at ")) && (colon = strchr(at + 12, ':'))) {
		a->call_line = atoi(colon + 1);
		if ((at = strstr(colon, " in ")))
			snprintf(a->caller, sizeof(a->caller), "%s", at + 4);
	}
	colon = strchr(loc, ':');	/* FILE:LINE:COL, or ??:0 */
	assert_non_null(colon);
	*colon = '\0';
	snprintf(a->file, sizeof(a->file), "%s", loc);
	a->line = atoi(colon + 1);
}

/* Our frame f and eu-addr2line agree on the function (by key) and line. */
static void assert_agrees(const struct sym_frame *f, const struct a2l *a)
{
	char *theirs = symbol_key(strcmp(a->function, "??") ? a->function : "[unknown]");

	if (strcmp(f->key, theirs))
		fail_msg("symbolizer says %s, eu-addr2line %s", f->function, a->function);
	free(theirs);
	assert_int_equal(f->line, a->line);
	if (f->file)
		assert_true(ends_with(a->file, f->file));
	else
		assert_string_equal(a->file, "??");
}

/* ---- tests ------------------------------------------------------------- */

static void test_key(void **state)
{
	static const char *const cases[][2] = {
		{ "bool_lc.isra.0", "bool_lc" },
		{ "foo.constprop.3.cold", "foo" },
		{ "foo.cold", "foo" },
		{ "foo.part.0.isra.0", "foo" },
		{ "foo.lto_priv.0", "foo" },
		{ "foo.localalias", "foo" },
		{ "foo.llvm.1234567", "foo" },
		{ "foo", "foo" },
		{ "main.main", "main.main" },	/* Go: a dot inside the name */
		{ "a.b.isra.0", "a.b" },
		{ "foo.7", "foo.7" },		/* a number alone is no clone suffix */
		{ "foo.isra", "foo" },
		{ "foo.", "foo." },
		{ ".isra.0", ".isra.0" },
		{ "ns::f(int) [clone .isra.0]", "ns::f(int)" },
		{ "ns::f(int) [clone .constprop.0] [clone .cold]", "ns::f(int)" },
		{ "[unknown]", "[unknown]" },
		{ "", "" },
		/* Rust: build hashes are not part of the function */
		{ "core::ptr::write::h0219fb2a31b7c5e1", "core::ptr::write" },
		{ "core::ptr::write::h0219fb2a31b7c5e1.llvm.42", "core::ptr::write" },
		{ "f::h0219fb2a31b7c5eZ", "f::h0219fb2a31b7c5eZ" },	/* not hex */
		{ "core[5b1e7c8d9a0f1234]::ptr::write::<lcbench[77aa]::LC>",
		  "core::ptr::write::<lcbench::LC>" },
		{ "std::vector<int>::operator[](unsigned long)",
		  "std::vector<int>::operator[](unsigned long)" },
		{ "f(char [16])", "f(char [16])" },
		{ "[lib.so+0x35000]", "[lib.so+0x35000]" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *k = symbol_key(cases[i][0]);

		if (strcmp(k, cases[i][1]))
			fail_msg("symbol_key(\"%s\") = \"%s\", want \"%s\"", cases[i][0], k,
				 cases[i][1]);
		free(k);
	}
}

/* The one demangler: C++, Rust legacy and Rust v0 names as perf shows
 * them (the symbols are from g++ 12 and Debian's rustc 1.63 builds of
 * workloads/lcbench), C names and versioned names untouched. */
static void test_symbol_demangle(void **state)
{
	static const char *const cases[][2] = {
		{ "_ZN4core3ptr5write17h0219fb2a31b7c5e1E", "core::ptr::write" },
		{ "_RNvCskxoeWCBqGMC_7lcbench4main", "lcbench::main" },
		{ "_RINvNtCs6IL9ONYDOZW_4core3ptr13drop_in_placeNtCskxoeWCBqGMC_7lcbench"
		  "17LinearCombinationEBI_",
		  "core::ptr::drop_in_place::<lcbench::LinearCombination>" },
		{ "_RNCINvNtCsdyIG5SqMl5y_3std2rt10lang_startuE0CskxoeWCBqGMC_7lcbench"
		  ".llvm.107786592485128319", "std::rt::lang_start::<()>::{closure#0}" },
		{ "_ZNSt6vectorIiSaIiEE9push_backERKi",
		  "std::vector<int, std::allocator<int> >::push_back(int const&)" },
		{ "malloc@@GLIBC_2.2.5", "malloc" },
		{ "main", "main" },
		{ "_Robert", "_Robert" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = symbol_demangle(cases[i][0]);

		if (strcmp(d, cases[i][1]))
			fail_msg("symbol_demangle(\"%s\") = \"%s\", want \"%s\"", cases[i][0],
				 d, cases[i][1]);
		free(d);
	}
}

/* main, sp_leaf and the inlined sp_square of a child running prog: names,
 * files, lines, inline frames, and where in the ELF the address is. */
static void check_own_code(const char *prog, const char *symfile)
{
	struct child c;
	struct symbolizer *s;
	struct sym_frame f[8];
	const struct mark *m;
	char *elfpath = tool(symfile);
	struct a2l a;
	int n;

	child_start(&c, prog);
	s = symbolizer_of(&c);

	m = mark_of(&c, "main");
	n = symbolizer_lookup(s, m->addr, f, 8);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].function, "main");
	assert_string_equal(f[0].key, "main");
	assert_true(ends_with(f[0].object, prog) && f[0].object[0] == '/');
	assert_true(ends_with(f[0].file, "tests/tools/sym/symprog.c"));
	assert_true(ends_with(f[0].unit, "tests/tools/sym/symprog.c"));
	assert_int_equal(f[0].line, m->line);
	assert_int_equal(f[0].inlined, 0);
	assert_in_function(elfpath, "main", f[0].vaddr);
	addr2line(c.pid, m->addr, &a);
	assert_agrees(&f[0], &a);

	m = mark_of(&c, "leaf");
	assert_int_equal(symbolizer_lookup(s, m->addr, f, 8), 1);
	assert_string_equal(f[0].key, "sp_leaf");
	assert_int_equal(f[0].line, m->line);
	assert_in_function(elfpath, "sp_leaf", f[0].vaddr);
	addr2line(c.pid, m->addr, &a);
	assert_agrees(&f[0], &a);

	/* sp_square inlined into sp_norm (which gcc may clone: its key) */
	m = mark_of(&c, "square");
	n = symbolizer_lookup(s, m->addr, f, 8);
	assert_int_equal(n, 2);
	assert_string_equal(f[0].function, "sp_square");
	assert_int_equal(f[0].inlined, 1);
	assert_int_equal(f[0].line, m->line);
	assert_true(ends_with(f[0].file, "tests/tools/sym/symprog.c"));
	assert_string_equal(f[1].key, "sp_norm");
	assert_int_equal(f[1].inlined, 0);
	assert_int_equal(f[1].line, mark_of(&c, "call")->line);
	assert_true(ends_with(f[1].file, "tests/tools/sym/symprog.c"));
	assert_int_equal(f[0].vaddr, f[1].vaddr);
	assert_in_function(elfpath, "sp_norm", f[1].vaddr);
	addr2line(c.pid, m->addr, &a);
	assert_agrees(&f[0], &a);
	assert_int_equal(a.call_line, f[1].line);
	assert_string_equal(a.caller, f[1].function);
	assert_int_equal(symbolizer_lookup(s, m->addr, f, 1), 1);	/* the innermost */
	assert_string_equal(f[0].function, "sp_square");

	symbolizer_free(s);
	child_stop(&c);
	free(elfpath);
}

static void test_pie(void **state)
{
	(void)state;
	check_own_code("symprog", "symprog");
}

/* .text at a virtual address far from its file offset: the bias is not
 * the mapping's start minus its offset. */
static void test_pie_shifted(void **state)
{
	(void)state;
	check_own_code("symprog-shifted", "symprog-shifted");
}

/* lld: the code shares its first file page with the read-only segment
 * before it, at another virtual offset. */
static void test_pie_lld(void **state)
{
	(void)state;
	check_own_code("symprog-lld", "symprog-lld");
}

static void test_not_pie(void **state)
{
	(void)state;
	check_own_code("symprog-nopie", "symprog-nopie");
}

/* A non-PIE program's cos is its PLT stub (the canonical address of a
 * function it imports): no symbol, but a bucket of its own. */
static void test_plt(void **state)
{
	struct child c;
	struct symbolizer *s;
	struct sym_frame f[4];
	char *path = tool("symprog-nopie"), sec[64];

	(void)state;
	child_start(&c, "symprog-nopie");
	s = symbolizer_of(&c);
	assert_int_equal(symbolizer_lookup(s, mark_of(&c, "cos")->addr, f, 4), 1);
	section_at(path, f[0].vaddr, sec, sizeof(sec));
	assert_memory_equal(sec, ".plt", 4);
	assert_string_equal(f[0].function, "[plt]");
	assert_string_equal(f[0].object, path);
	symbolizer_free(s);
	child_stop(&c);
	free(path);
}

/* Symbols and DWARF only in the file .gnu_debuglink names. */
static void test_debuglink(void **state)
{
	(void)state;
	check_own_code("symprog-dbglink", "symprog-dbglink.debug");
}

/* Lookups are cached: the same address gives the same strings. */
static void test_repeat(void **state)
{
	struct child c;
	struct symbolizer *s;
	struct sym_frame a[4], b[4];

	(void)state;
	child_start(&c, "symprog");
	s = symbolizer_of(&c);
	assert_int_equal(symbolizer_lookup(s, mark_of(&c, "square")->addr, a, 4), 2);
	for (int i = 0; i < c.nmarks; i++)
		if (c.marks[i].addr)
			symbolizer_lookup(s, c.marks[i].addr, b, 4);
	assert_int_equal(symbolizer_lookup(s, mark_of(&c, "square")->addr, b, 4), 2);
	assert_memory_equal(a, b, 2 * sizeof(a[0]));
	symbolizer_free(s);
	child_stop(&c);
}

/*
 * Shared libraries: cos (libm; an IFUNC, so whichever implementation the
 * loader chose), qsort and an address inside libc's sort (where it called
 * back into symprog). Whether libc's DWARF is installed (libc6-dbg) or not,
 * eu-addr2line must agree.
 */
static void test_shared_libraries(void **state)
{
	struct child c;
	struct symbolizer *s;
	struct sym_frame f[8];
	const struct sym_map *libm, *libc;
	struct a2l a;
	int n;

	(void)state;
	child_start(&c, "symprog");
	s = symbolizer_of(&c);
	libm = map_named(&c, "/libm.so.6");
	libc = map_named(&c, "/libc.so.6");
	assert_non_null(libm);
	assert_non_null(libc);

	n = symbolizer_lookup(s, mark_of(&c, "cos")->addr, f, 8);
	assert_string_equal(f[n - 1].object, libm->path);
	addr2line(c.pid, mark_of(&c, "cos")->addr, &a);
	assert_agrees(&f[0], &a);

	n = symbolizer_lookup(s, mark_of(&c, "qsort")->addr, f, 8);
	assert_string_equal(f[n - 1].object, libc->path);
	if (strcmp(f[n - 1].key, "qsort")) {	/* an alias at the same address */
		struct elf_file lf;
		struct elf_sym mine, want;
		struct error err;

		assert_int_equal(elf_open(&lf, libc->path, &err), 0);
		assert_int_equal(elf_find_symbol(&lf, "qsort", ELF_DYNSYM, &want), ELF_SYM_FOUND);
		assert_int_equal(elf_find_symbol(&lf, f[n - 1].function, ELF_DYNSYM | ELF_SYMTAB,
						 &mine), ELF_SYM_FOUND);
		assert_int_equal(mine.value, want.value);
		elf_close(&lf);
	}

	n = symbolizer_lookup(s, mark_of(&c, "qsort-ret")->addr, f, 8);
	assert_string_equal(f[n - 1].object, libc->path);
	addr2line(c.pid, mark_of(&c, "qsort-ret")->addr, &a);
	assert_agrees(&f[0], &a);

	symbolizer_free(s);
	child_stop(&c);
}

static int has_gap(struct symbolizer *s, const char *start, const char *part)
{
	for (const char *const *g = symbolizer_gaps(s); *g; g++)
		if (!strncmp(*g, start, strlen(start)) && strstr(*g, part))
			return 1;
	return 0;
}

/* No symbols at all: the address is named by its place in the file only,
 * and the gap says so with what to install. */
static void test_stripped(void **state)
{
	struct child c;
	struct symbolizer *s;
	struct sym_frame f[4];
	char *full = tool("symprog"), *path = tool("symprog-stripped");
	struct strbuf want = STRBUF_INIT;
	const struct mark *m;

	(void)state;
	child_start(&c, "symprog-stripped");
	s = symbolizer_of(&c);
	m = mark_of(&c, "leaf");
	assert_int_equal(symbolizer_lookup(s, m->addr, f, 4), 1);
	/* unnamed code: its page of the object, one spelling everywhere */
	assert_true(f[0].function[0] == '[' && strstr(f[0].function, "+0x"));
	assert_true(!strncmp(f[0].function + 1, strrchr(path, '/') + 1, strlen(strrchr(path, '/') + 1)));
	assert_string_equal(f[0].key, f[0].function);
	assert_string_equal(f[0].object, path);
	assert_null(f[0].file);
	assert_int_equal(f[0].line, 0);
	assert_in_function(full, "sp_leaf", f[0].vaddr);	/* same layout, unstripped */
	strbuf_addf(&want, "'%s' is stripped: self time is by address range only", path);
	assert_true(has_gap(s, want.buf, "; install its debug symbols (the -dbgsym package, "
			    "which provides /usr/lib/debug/.build-id/"));
	assert_true(has_gap(s, want.buf, ") or build it with -g"));
	if (system("grep -qx ID=debian /etc/os-release") == 0)	/* which archive has them */
		assert_true(has_gap(s, want.buf, ", from Debian's debug archive debian-debug, "
				    "suite "));
	strbuf_release(&want);
	symbolizer_free(s);
	child_stop(&c);
	free(full);
	free(path);
}

/* Symbols without DWARF: functions, but no inline frames and no lines. */
static void test_no_dwarf(void **state)
{
	struct child c;
	struct symbolizer *s;
	struct sym_frame f[4];
	char *path = tool("symprog-nodebug");
	struct strbuf want = STRBUF_INIT;

	(void)state;
	child_start(&c, "symprog-nodebug");
	s = symbolizer_of(&c);
	assert_int_equal(symbolizer_lookup(s, mark_of(&c, "leaf")->addr, f, 4), 1);
	assert_string_equal(f[0].function, "sp_leaf");
	assert_null(f[0].file);
	assert_null(f[0].unit);
	assert_int_equal(f[0].line, 0);
	assert_int_equal(symbolizer_lookup(s, mark_of(&c, "square")->addr, f, 4), 1);
	assert_string_equal(f[0].key, "sp_norm");
	assert_int_equal(f[0].inlined, 0);
	strbuf_addf(&want, "'%s' has no DWARF: no inlined functions or source lines", path);
	assert_true(has_gap(s, want.buf, "or build it with -g"));
	strbuf_reset(&want);
	strbuf_addf(&want, "'%s' is stripped", path);
	assert_false(has_gap(s, want.buf, ""));
	strbuf_release(&want);
	symbolizer_free(s);
	child_stop(&c);
	free(path);
}

/* The vDSO, anonymous memory, no mapping at all, a file that is gone. */
static void test_not_files(void **state)
{
	struct child c;
	struct symbolizer *s;
	struct sym_frame f[4];
	const struct sym_map *vdso;
	struct error err;
	uint64_t anon = 0x10000000, gone = 0x20000000;

	(void)state;
	child_start(&c, "symprog");
	s = symbolizer_of(&c);
	vdso = map_named(&c, "[vdso]");
	assert_non_null(vdso);
	assert_int_equal(symbolizer_lookup(s, vdso->start + 0x10, f, 4), 1);
	assert_string_equal(f[0].function, "[vdso]");
	assert_string_equal(f[0].object, "[vdso]");
	assert_false(has_gap(s, "", "no file mapping"));

	assert_int_equal(symbolizer_add_map(s, anon, 0x1000, 0, "//anon", &err), 0);
	assert_int_equal(symbolizer_lookup(s, anon + 8, f, 4), 1);
	assert_string_equal(f[0].function, "[unknown]");
	assert_string_equal(f[0].object, "[unknown]");
	assert_int_equal(symbolizer_lookup(s, 0x1000, f, 4), 1);	/* page 1: never mapped */
	assert_string_equal(f[0].function, "[unknown]");
	assert_string_equal(f[0].object, "[unknown]");
	assert_int_equal(f[0].vaddr, 0);
	assert_true(has_gap(s, "2 sampled addresses lie in no file mapping", "'[unknown]'"));

	assert_int_equal(symbolizer_add_map(s, gone, 0x1000, 0, "/nonexistent/libgone.so", &err),
			 0);
	assert_int_equal(symbolizer_lookup(s, gone + 8, f, 4), 1);
	assert_string_equal(f[0].function, "[unknown]");
	assert_string_equal(f[0].object, "/nonexistent/libgone.so");
	assert_true(has_gap(s, "cannot read '/nonexistent/libgone.so': No such file or directory: "
			    "its samples count as '[unknown]'", ""));
	symbolizer_free(s);
	child_stop(&c);
}

/* Records read in order: an address sampled before its mapping is known,
 * then again after. */
static void test_map_after_lookup(void **state)
{
	struct child c;
	struct symbolizer *s = symbolizer_new();
	struct sym_frame f[4];
	const struct sym_map *prog;
	const struct mark *m;
	struct error err;

	(void)state;
	child_start(&c, "symprog");
	m = mark_of(&c, "leaf");
	prog = map_named(&c, "/symprog");
	assert_non_null(prog);
	assert_int_equal(symbolizer_lookup(s, m->addr, f, 4), 1);
	assert_string_equal(f[0].function, "[unknown]");
	assert_true(has_gap(s, "1 sampled address lies in no file mapping", ""));
	assert_int_equal(symbolizer_add_maps(s, prog, 1, &err), 0);
	assert_int_equal(symbolizer_lookup(s, m->addr, f, 4), 1);
	assert_string_equal(f[0].key, "sp_leaf");
	assert_null(symbolizer_gaps(s)[0]);
	symbolizer_free(s);
	child_stop(&c);
}

static void test_bad_maps(void **state)
{
	struct symbolizer *s = symbolizer_new();
	struct error err;
	struct sym_map bad = { 0x2000, 0x1000, 0, "/bin/true" };

	(void)state;
	assert_int_equal(symbolizer_add_map(s, 0x1000, 0, 0, "/bin/true", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_string_equal(err.msg, "invalid mapping [0x1000, +0) of '/bin/true'");
	assert_int_equal(symbolizer_add_map(s, UINT64_MAX - 0xfff, 0x2000, 0, "/bin/true", &err),
			 -1);
	assert_int_equal(symbolizer_add_maps(s, &bad, 1, &err), -1);
	assert_string_equal(err.msg, "invalid mapping [0x2000, 0x1000) of '/bin/true'");
	assert_non_null(symbolizer_gaps(s));
	assert_null(symbolizer_gaps(s)[0]);
	symbolizer_free(s);
}

/* ---- the workload ------------------------------------------------------ */

/* r1cs-synth's code segment mapped as the loader would at base: what
 * MMAP2 would report. */
static void map_at(struct symbolizer *s, const char *path, uint64_t base)
{
	struct elf_file f;
	struct error err;

	assert_int_equal(elf_open(&f, path, &err), 0);
	for (size_t i = 0; i < f.phnum; i++) {
		GElf_Phdr p;
		uint64_t lo, hi;

		if (!gelf_getphdr(f.elf, (int)i, &p) || p.p_type != PT_LOAD || !(p.p_flags & PF_X))
			continue;
		lo = p.p_vaddr & ~0xfffull;
		hi = (p.p_vaddr + p.p_memsz + 0xfff) & ~0xfffull;
		assert_int_equal(symbolizer_add_map(s, base + lo, hi - lo, p.p_offset & ~0xfffull,
						    path, &err), 0);
	}
	elf_close(&f);
}

/*
 * bool_lc is a static function of several translation units (each
 * synth_*.c includes the same template, tmpl_lc.h): each copy is
 * "bool_lc", written in tmpl_lc.h, and its unit is the one its STT_FILE
 * entry names.
 */
static void test_workload_statics(void **state)
{
	char *path = tool("r1cs-synth");
	struct elf_fn fn[16];
	int n = symtab_functions(path, "bool_lc", fn, 16), vec = 0, sv2 = 0;
	uint64_t base = 0x7f3a00000000ull;
	struct symbolizer *s = symbolizer_new();

	(void)state;
	map_at(s, path, base);
	assert_true(n >= 2);
	for (int i = 0; i < n; i++) {
		struct sym_frame f[16];
		int k = symbolizer_lookup(s, base + fn[i].value, f, 16);

		assert_string_equal(f[k - 1].key, "bool_lc");
		assert_int_equal(f[k - 1].inlined, 0);
		assert_int_equal(f[k - 1].vaddr, fn[i].value);
		assert_true(ends_with(f[k - 1].file, "workloads/r1cs/tmpl_lc.h"));
		assert_non_null(f[k - 1].unit);
		assert_string_equal(base_name(f[k - 1].unit), fn[i].file);
		vec += !strcmp(fn[i].file, "synth_vec.c");
		sv2 += !strcmp(fn[i].file, "synth_sv2.c");
		for (int j = 0; j < i; j++)	/* each copy has a unit of its own */
			assert_string_not_equal(fn[i].file, fn[j].file);
	}
	assert_int_equal(vec, 1);
	assert_int_equal(sv2, 1);
	symbolizer_free(s);
	free(path);
}

/*
 * A later mapping replaces an earlier one where they overlap, and what is
 * left of the earlier one after the hole still symbolizes as before (its
 * file offset moved with its start).
 */
static void test_overlap(void **state)
{
	char *path = tool("r1cs-synth");
	struct elf_fn fn[16];
	int n = symtab_functions(path, "bool_lc", fn, 16);
	uint64_t base = 0x7f3a00000000ull, hole = (base + fn[0].value) & ~0xfffull;
	struct symbolizer *whole = symbolizer_new(), *holed = symbolizer_new();
	struct sym_frame a[16], b[16];
	struct error err;

	(void)state;
	assert_true(n >= 2);
	map_at(whole, path, base);
	map_at(holed, path, base);
	assert_int_equal(symbolizer_add_map(holed, hole, 0x1000, 0, "//anon", &err), 0);
	assert_int_equal(symbolizer_lookup(holed, base + fn[0].value, a, 16), 1);
	assert_string_equal(a[0].object, "[unknown]");
	for (int i = 1; i < n; i++) {
		uint64_t addr = base + fn[i].value;
		int k;

		if (addr >= hole && addr < hole + 0x1000)
			continue;
		k = symbolizer_lookup(whole, addr, a, 16);
		assert_int_equal(symbolizer_lookup(holed, addr, b, 16), k);
		assert_string_equal(a[k - 1].function, b[k - 1].function);
		assert_string_equal(a[k - 1].unit, b[k - 1].unit);
		assert_int_equal(a[k - 1].vaddr, b[k - 1].vaddr);
	}
	symbolizer_free(whole);
	symbolizer_free(holed);
	free(path);
}

/* ---- C++ names --------------------------------------------------------- */

/* A C++ function of libstdc++ mapped into this process: the name shown is
 * demangled, whichever of its aliases (D1/D2) the table names. */
static void test_demangle(void **state)
{
	void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
	struct sym_map maps[64];
	int n, nmaps;
	struct symbolizer *s;
	struct sym_frame f[8];
	void *fn;
	struct error err;

	(void)state;
	if (!h)
		skip();
	fn = dlsym(h, "_ZNSt9exceptionD2Ev");
	assert_non_null(fn);
	nmaps = read_maps(getpid(), maps, 64);
	s = symbolizer_new();
	assert_int_equal(symbolizer_add_maps(s, maps, (size_t)nmaps, &err), 0);
	n = symbolizer_lookup(s, (uint64_t)(uintptr_t)fn, f, 8);
	assert_string_equal(f[n - 1].function, "std::exception::~exception()");
	assert_string_equal(f[n - 1].key, "std::exception::~exception()");
	assert_non_null(strstr(f[n - 1].object, "/libstdc++.so.6"));
	symbolizer_free(s);
	for (int i = 0; i < nmaps; i++)
		free(maps[i].path);
	dlclose(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_symbol_demangle),
		cmocka_unit_test(test_pie),
		cmocka_unit_test(test_pie_shifted),
		cmocka_unit_test(test_pie_lld),
		cmocka_unit_test(test_not_pie),
		cmocka_unit_test(test_plt),
		cmocka_unit_test(test_debuglink),
		cmocka_unit_test(test_repeat),
		cmocka_unit_test(test_shared_libraries),
		cmocka_unit_test(test_stripped),
		cmocka_unit_test(test_no_dwarf),
		cmocka_unit_test(test_not_files),
		cmocka_unit_test(test_map_after_lookup),
		cmocka_unit_test(test_bad_maps),
		cmocka_unit_test(test_workload_statics),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_demangle),
	};
	ssize_t n = readlink("/proc/self/exe", build_dir, sizeof(build_dir) - 1);

	if (n <= 0)
		return 1;
	build_dir[n] = '\0';
	for (int i = 0; i < 2; i++)	/* build/tests/test_symbols -> build */
		*strrchr(build_dir, '/') = '\0';
	/* Debug files come from this machine only: no network in a test. */
	unsetenv("DEBUGINFOD_URLS");
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
