/*
 * Unit tests for backend/elf. References are independent of the code under
 * test wherever possible: the dynamic loader of this very process (dlsym
 * and dladdr give the address it bound a name to, so the symbol's value and
 * its default-version choice can be checked), the bytes at the address it
 * mapped (to check the vaddr -> file offset mapping), and ldd (for the list
 * of loaded objects). Damaged files (truncated, bytes flipped) must be
 * refused or read safely, never crash.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/rng.h"
#include "core/strbuf.h"
#include "backend/elf.h"

static char build_dir[4096];

static char *tool(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", build_dir, name);
	return strbuf_detach(&sb);
}

/* The path this process's loader mapped libc from. */
static char *libc_path(void **fn_malloc)
{
	void *h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	Dl_info info;
	char *p;

	assert_non_null(h);
	*fn_malloc = dlsym(h, "malloc");
	assert_non_null(*fn_malloc);
	assert_true(dladdr(*fn_malloc, &info) != 0);
	p = xstrdup(info.dli_fname);
	dlclose(h);
	return p;
}

static void open_ok(struct elf_file *f, const char *path)
{
	struct error err;

	if (elf_open(f, path, &err))
		fail_msg("%s: %s", path, err.msg);
}

static void test_open_errors(void **state)
{
	struct elf_file f;
	struct error err;
	char path[] = "/tmp/pmustat-elf-XXXXXX";
	unsigned char hdr[64] = { 0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB, 1 };
	int fd = mkstemp(path);
	struct strbuf want = STRBUF_INIT;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(elf_open(&f, "/nonexistent/prog", &err), -1);
	assert_string_equal(err.msg, "cannot read '/nonexistent/prog': No such file or directory");
	assert_int_equal(write(fd, "#!/bin/sh\necho hi\n", 18), 18);
	assert_int_equal(elf_open(&f, path, &err), -1);
	strbuf_addf(&want, "'%s' is not an ELF file", path);
	assert_string_equal(err.msg, want.buf);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(pwrite(fd, hdr, sizeof(hdr), 0), (ssize_t)sizeof(hdr));
	assert_int_equal(elf_open(&f, path, &err), -1);
	strbuf_reset(&want);
	strbuf_addf(&want, "'%s' is a 32-bit ELF file", path);
	assert_string_equal(err.msg, want.buf);
	assert_non_null(strstr(err.hint, "64-bit"));
	assert_int_equal(elf_open(&f, "/tmp", &err), -1);
	assert_string_equal(err.msg, "cannot read '/tmp': not a regular file");
	/* A FIFO is refused without waiting for a writer. */
	strbuf_reset(&want);
	strbuf_addf(&want, "%s.fifo", path);
	assert_int_equal(mkfifo(want.buf, 0600), 0);
	assert_int_equal(elf_open(&f, want.buf, &err), -1);
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_non_null(strstr(err.hint, "not a FIFO"));
	unlink(want.buf);
	close(fd);
	unlink(path);
	strbuf_release(&want);
}

static void test_interp(void **state)
{
	struct elf_file f;
	char *dyn = tool("allocn"), *stat = tool("allocn-static");

	(void)state;
	open_ok(&f, dyn);
	assert_non_null(elf_interp(&f));
	assert_int_equal(access(elf_interp(&f), X_OK), 0);
	elf_close(&f);
	open_ok(&f, stat);
	assert_null(elf_interp(&f));
	elf_close(&f);
	free(dyn);
	free(stat);
}

/*
 * malloc in libc: the value found is where this process's loader put it
 * (relative to libc's load base), and the bytes at the file offset are the
 * bytes the loader mapped there.
 */
static void test_symbol_libc(void **state)
{
	void *fn;
	char *path = libc_path(&fn);
	struct elf_file f;
	struct elf_sym sym;
	Dl_info info;
	uint64_t off;
	FILE *fp;
	unsigned char bytes[32];

	(void)state;
	open_ok(&f, path);
	assert_int_equal(elf_find_symbol(&f, "malloc", ELF_DYNSYM, &sym), ELF_SYM_FOUND);
	assert_int_equal(sym.type, STT_FUNC);
	assert_int_equal(sym.table, ELF_DYNSYM);
	assert_true(dladdr(fn, &info) != 0);
	assert_int_equal(sym.value, (uintptr_t)fn - (uintptr_t)info.dli_fbase);
	assert_int_equal(elf_vaddr_to_offset(&f, sym.value, &off), 0);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, (long)off, SEEK_SET), 0);
	assert_int_equal(fread(bytes, 1, sizeof(bytes), fp), sizeof(bytes));
	fclose(fp);
	assert_memory_equal(bytes, fn, sizeof(bytes));
	/* Not in any loaded segment. */
	assert_int_equal(elf_vaddr_to_offset(&f, UINT64_MAX - 16, &off), -1);
	/* An object, not a function; and a name nobody defines. */
	assert_int_equal(elf_find_symbol(&f, "environ", ELF_DYNSYM, &sym), ELF_SYM_FOUND);
	assert_int_equal(sym.type, STT_OBJECT);
	assert_int_equal(elf_find_symbol(&f, "no_such_function_xyz", ELF_DYNSYM | ELF_SYMTAB,
					 &sym), ELF_SYM_NONE);
	elf_close(&f);
	free(path);
}

/*
 * posix_spawn has two versions in glibc at different addresses
 * (posix_spawn@GLIBC_2.2.5 and the default posix_spawn@@GLIBC_2.15): the
 * lookup must pick the one dlsym binds, the default.
 */
static void test_symbol_default_version(void **state)
{
	void *fn, *h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD), *spawn;
	char *path = libc_path(&fn);
	struct elf_file f;
	struct elf_sym sym;
	Dl_info info;

	(void)state;
	assert_non_null(h);
	spawn = dlsym(h, "posix_spawn");
	assert_non_null(spawn);
	assert_true(dladdr(spawn, &info) != 0);
	open_ok(&f, path);
	assert_int_equal(elf_find_symbol(&f, "posix_spawn", ELF_DYNSYM, &sym), ELF_SYM_FOUND);
	assert_int_equal(sym.value, (uintptr_t)spawn - (uintptr_t)info.dli_fbase);
	elf_close(&f);
	dlclose(h);
	free(path);
}

/* Imports are not definitions; a static binary defines malloc in .symtab. */
static void test_symbol_tables(void **state)
{
	char *dyn = tool("allocn"), *stat = tool("allocn-static");
	struct elf_file f;
	struct elf_sym sym;

	(void)state;
	open_ok(&f, dyn);
	assert_int_equal(elf_find_symbol(&f, "malloc", ELF_DYNSYM | ELF_SYMTAB, &sym), ELF_SYM_NONE);
	assert_int_equal(elf_find_symbol(&f, "main", ELF_DYNSYM, &sym), ELF_SYM_NONE);
	assert_int_equal(elf_find_symbol(&f, "main", ELF_SYMTAB, &sym), ELF_SYM_FOUND);
	assert_int_equal(sym.table, ELF_SYMTAB);
	assert_int_equal(sym.bind, STB_GLOBAL);
	/* A file-local function of allocn. */
	assert_int_equal(elf_find_symbol(&f, "has_mode", ELF_SYMTAB, &sym), ELF_SYM_FOUND);
	assert_int_equal(sym.bind, STB_LOCAL);
	elf_close(&f);
	open_ok(&f, stat);
	assert_int_equal(elf_find_symbol(&f, "malloc", ELF_DYNSYM | ELF_SYMTAB, &sym),
			 ELF_SYM_FOUND);
	assert_int_equal(sym.type, STT_FUNC);
	assert_int_equal(sym.table, ELF_SYMTAB);
	elf_close(&f);
	free(dyn);
	free(stat);
}

static void test_function_names(void **state)
{
	void *fn;
	char *path = libc_path(&fn);
	struct elf_file f;
	const char **names;
	size_t n, found = 0;

	(void)state;
	open_ok(&f, path);
	n = elf_function_names(&f, &names);
	assert_true(n > 1000);
	for (size_t i = 0; i < n; i++) {
		if (i)
			assert_true(strcmp(names[i - 1], names[i]) < 0);	/* sorted, unique */
		found += !strcmp(names[i], "malloc") || !strcmp(names[i], "free");
		assert_true(strcmp(names[i], "environ") != 0);
	}
	assert_int_equal(found, 2);
	free(names);
	elf_close(&f);
	free(path);
}

/* The loader's list against ldd's (the vDSO has no file and is left out). */
static void test_loaded_objects_vs_ldd(void **state)
{
	char *prog = tool("allocn"), **paths, line[4096];
	struct strbuf cmd = STRBUF_INIT, ldd = STRBUF_INIT, ours = STRBUF_INIT;
	struct elf_file f;
	struct error err;
	FILE *p;

	(void)state;
	open_ok(&f, prog);
	if (elf_loaded_objects(&f, NULL, &paths, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(paths[0], prog);
	for (size_t i = 1; paths[i]; i++)
		strbuf_addf(&ours, "%s\n", paths[i]);
	strbuf_addf(&cmd, "ldd %s", prog);
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *s = strstr(line, "=> "), *paren;

		s = s ? s + 3 : line + strspn(line, " \t");
		paren = strstr(s, " (0x");
		if (*s != '/' || !paren)
			continue;
		strbuf_addf(&ldd, "%.*s\n", (int)(paren - s), s);
	}
	assert_int_equal(pclose(p), 0);
	assert_string_equal(ours.buf, ldd.buf);
	print_message("loaded by allocn:\n%s", ours.buf);
	elf_paths_free(paths);
	elf_close(&f);
	strbuf_release(&cmd);
	strbuf_release(&ldd);
	strbuf_release(&ours);
	free(prog);
}

static void test_parse_loader_list(void **state)
{
	static const char text[] =
		"\tlinux-vdso.so.1 (0x00007ffc2a5f2000)\n"
		"\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x00007f0b1c5e0000)\n"
		"\tlibweird.so => /opt/with space/libweird.so (0x00007f0b1c000000)\n"
		"\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0b1c3ff000)\n"
		"\t/lib64/ld-linux-x86-64.so.2 (0x00007f0b1c6e1000)\n";
	char **paths;
	struct error err;

	(void)state;
	assert_int_equal(elf_parse_loader_list(text, "./prog", &paths, &err), 0);
	assert_string_equal(paths[0], "./prog");
	assert_string_equal(paths[1], "/lib/x86_64-linux-gnu/libm.so.6");
	assert_string_equal(paths[2], "/opt/with space/libweird.so");
	assert_string_equal(paths[3], "/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(paths[4], "/lib64/ld-linux-x86-64.so.2");
	assert_null(paths[5]);
	elf_paths_free(paths);

	assert_int_equal(elf_parse_loader_list("\tlibfoo.so.1 => not found\n", "./prog", &paths,
					       &err), -1);
	assert_string_equal(err.msg, "'./prog' needs 'libfoo.so.1', which the dynamic loader "
				     "cannot find");
	assert_string_equal(err.hint, "run 'ldd ./prog', and set LD_LIBRARY_PATH if needed");
	assert_null(paths);
	assert_int_equal(elf_parse_loader_list("", NULL, &paths, &err), 0);
	assert_null(paths[0]);
	elf_paths_free(paths);
}

/* Every operation on a damaged copy either fails cleanly or stays in bounds. */
static void exercise(const char *path)
{
	struct elf_file f;
	struct elf_sym sym;
	struct error err;
	const char **names;
	uint64_t off;

	if (elf_open(&f, path, &err))
		return;
	(void)elf_interp(&f);
	(void)elf_find_symbol(&f, "main", ELF_DYNSYM | ELF_SYMTAB, &sym);
	(void)elf_find_symbol(&f, "malloc", ELF_DYNSYM | ELF_SYMTAB, &sym);
	(void)elf_vaddr_to_offset(&f, 0x1000, &off);
	(void)elf_function_names(&f, &names);
	free(names);
	elf_close(&f);
}

static void test_damaged_files(void **state)
{
	char *prog = tool("allocn");
	char path[] = "/tmp/pmustat-elf-XXXXXX";
	struct strbuf data = STRBUF_INIT;
	struct rng r;
	FILE *fp = fopen(prog, "rb");
	char buf[65536];
	size_t got;
	int fd = mkstemp(path);

	(void)state;
	assert_non_null(fp);
	assert_true(fd >= 0);
	while ((got = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&data, buf, got);
	fclose(fp);
	for (size_t len = 0; len < data.len; len += len < 4096 ? 61 : 997) {
		assert_int_equal(ftruncate(fd, 0), 0);
		assert_int_equal(pwrite(fd, data.buf, len, 0), (ssize_t)len);
		exercise(path);
	}
	rng_init(&r, 42);
	for (int round = 0; round < 300; round++) {
		struct strbuf bad = STRBUF_INIT;

		strbuf_add(&bad, data.buf, data.len);
		/* Flip bytes in the headers and tables, where damage matters. */
		for (int k = 0; k < 8; k++) {
			size_t at = (size_t)(rng_next(&r) % (round % 2 ? 256 : data.len));

			bad.buf[at] = (char)rng_next(&r);
		}
		assert_int_equal(ftruncate(fd, 0), 0);
		assert_int_equal(pwrite(fd, bad.buf, bad.len, 0), (ssize_t)bad.len);
		exercise(path);
		strbuf_release(&bad);
	}
	close(fd);
	unlink(path);
	strbuf_release(&data);
	free(prog);
}

/* ---- crafted files: each field a hostile file can lie in ---------------- */

/*
 * A minimal native ELF64 image: the header, then section headers at 64,
 * then free room for section contents (from 64 + 64 * nsh). Fields are set
 * by each test; nothing here is read from a real program.
 */
struct crafted {
	unsigned char buf[1024];
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	size_t len;
};

static void craft(struct crafted *c, unsigned nsh)
{
	memset(c, 0, sizeof(*c));
	c->eh = (Elf64_Ehdr *)c->buf;
	c->sh = (Elf64_Shdr *)(c->buf + sizeof(Elf64_Ehdr));
	memcpy(c->eh->e_ident, ELFMAG, SELFMAG);
	c->eh->e_ident[EI_CLASS] = ELFCLASS64;
	c->eh->e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB
									  : ELFDATA2MSB;
	c->eh->e_ident[EI_VERSION] = EV_CURRENT;
	c->eh->e_type = ET_DYN;
	c->eh->e_machine = EM_X86_64;
	c->eh->e_version = EV_CURRENT;
	c->eh->e_ehsize = sizeof(Elf64_Ehdr);
	c->eh->e_shoff = sizeof(Elf64_Ehdr);
	c->eh->e_shentsize = sizeof(Elf64_Shdr);
	c->eh->e_shnum = (Elf64_Half)nsh;
	c->len = sizeof(Elf64_Ehdr) + nsh * sizeof(Elf64_Shdr);
}

/* Append data to the image; its file offset. */
static uint64_t craft_add(struct crafted *c, const void *data, size_t n)
{
	uint64_t off = (c->len + 7) & ~(uint64_t)7;

	assert_true(off + n <= sizeof(c->buf));
	memcpy(c->buf + off, data, n);
	c->len = off + n;
	return off;
}

static char *craft_write(const struct crafted *c)
{
	char path[] = "/tmp/pmustat-elf-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, c->buf, c->len), (ssize_t)c->len);
	close(fd);
	return xstrdup(path);
}

/* Opening must fail with "'PATH' has corrupt <what>..." (what: "section
 * headers", "program headers", or "" when libelf refuses the header). */
static void expect_open_error(const struct crafted *c, const char *what)
{
	char *path = craft_write(c);
	struct elf_file f;
	struct error err;
	struct strbuf want = STRBUF_INIT;

	error_clear(&err);
	assert_int_equal(elf_open(&f, path, &err), -1);
	strbuf_addf(&want, "'%s' has corrupt %s", path, what);
	if (strncmp(err.msg, want.buf, want.len))
		fail_msg("got '%s', want '%s...'", err.msg, want.buf);
	assert_null(f.elf);
	elf_close(&f);	/* harmless after a failed open */
	unlink(path);
	free(path);
	strbuf_release(&want);
}

/*
 * Extended section numbering: e_shnum = 0 means "the count is section 0's
 * sh_size". A count of 2^58 made the old reader's range check wrap
 * (2^58 * 64 = 2^64 = 0) and read far past the mapping; 4096 sections in a
 * file of two is plainly out of bounds. Both must be errors.
 */
static void test_hostile_section_count(void **state)
{
	struct crafted c;

	(void)state;
	craft(&c, 1);
	c.eh->e_shnum = 0;
	c.sh[0].sh_size = (uint64_t)1 << 58;
	expect_open_error(&c, "");
	c.sh[0].sh_size = 4096;
	expect_open_error(&c, "section headers");
	/* The honest use of it opens: one section, counted in section 0. */
	c.sh[0].sh_size = 1;
	{
		char *path = craft_write(&c);
		struct elf_file f;
		struct elf_sym sym;
		struct error err;

		if (elf_open(&f, path, &err))
			fail_msg("%s", err.msg);
		assert_int_equal(elf_find_symbol(&f, "main", ELF_DYNSYM | ELF_SYMTAB, &sym),
				 ELF_SYM_NONE);
		elf_close(&f);
		unlink(path);
		free(path);
	}
}

/* e_phnum = PN_XNUM puts the program header count in section 0's sh_info. */
static void test_hostile_program_headers(void **state)
{
	struct crafted c;

	(void)state;
	craft(&c, 1);
	c.eh->e_phoff = sizeof(Elf64_Ehdr);
	c.eh->e_phentsize = sizeof(Elf64_Phdr);
	c.eh->e_phnum = PN_XNUM;
	c.sh[0].sh_info = 0xffffffffu;
	expect_open_error(&c, "program headers");
	c.eh->e_phnum = 1000;
	expect_open_error(&c, "program headers");
	c.eh->e_shoff = (uint64_t)1 << 62;	/* section headers beyond the file */
	c.eh->e_phnum = 0;
	expect_open_error(&c, "");
}

/*
 * A symbol table with one function "main", linked to its string table; then
 * the same table lying about where its contents or names are. The honest
 * file finds main (so the lies below fail for the reason they test).
 */
static void craft_symtab(struct crafted *c)
{
	static const char names[] = "\0main";
	Elf64_Sym syms[2];
	uint64_t off;

	craft(c, 3);
	memset(syms, 0, sizeof(syms));
	syms[1].st_name = 1;
	syms[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
	syms[1].st_shndx = 1;
	syms[1].st_value = 0x1000;
	off = craft_add(c, syms, sizeof(syms));
	c->sh[1].sh_type = SHT_SYMTAB;
	c->sh[1].sh_offset = off;
	c->sh[1].sh_size = sizeof(syms);
	c->sh[1].sh_entsize = sizeof(Elf64_Sym);
	c->sh[1].sh_link = 2;
	c->sh[1].sh_addralign = 8;
	off = craft_add(c, names, sizeof(names));
	c->sh[2].sh_type = SHT_STRTAB;
	c->sh[2].sh_offset = off;
	c->sh[2].sh_size = sizeof(names);
	c->sh[2].sh_addralign = 1;
}

static enum elf_lookup crafted_lookup(const struct crafted *c, size_t *nfuncs)
{
	char *path = craft_write(c);
	struct elf_file f;
	struct elf_sym sym;
	struct error err;
	const char **names;
	enum elf_lookup r;

	if (elf_open(&f, path, &err))
		fail_msg("%s", err.msg);
	r = elf_find_symbol(&f, "main", ELF_DYNSYM | ELF_SYMTAB, &sym);
	if (r == ELF_SYM_FOUND)
		assert_int_equal(sym.value, 0x1000);
	*nfuncs = elf_function_names(&f, &names);
	free(names);
	elf_close(&f);
	unlink(path);
	free(path);
	return r;
}

static void test_hostile_tables(void **state)
{
	struct crafted c;
	size_t n;

	(void)state;
	craft_symtab(&c);
	assert_int_equal(crafted_lookup(&c, &n), ELF_SYM_FOUND);
	assert_int_equal(n, 1);
	/* Contents beyond the end of the file. */
	craft_symtab(&c);
	c.sh[1].sh_offset = (uint64_t)1 << 40;
	assert_int_equal(crafted_lookup(&c, &n), ELF_SYM_NONE);
	assert_int_equal(n, 0);
	/* A size that runs past the end, and one that wraps the offset. */
	craft_symtab(&c);
	c.sh[1].sh_size = (uint64_t)1 << 58;
	assert_int_equal(crafted_lookup(&c, &n), ELF_SYM_NONE);
	craft_symtab(&c);
	c.sh[1].sh_size = UINT64_MAX - c.sh[1].sh_offset + 1 + sizeof(Elf64_Sym);
	assert_int_equal(crafted_lookup(&c, &n), ELF_SYM_NONE);
	/* Names in a section that does not exist, or is not a string table. */
	craft_symtab(&c);
	c.sh[1].sh_link = 77;
	assert_int_equal(crafted_lookup(&c, &n), ELF_SYM_NONE);
	craft_symtab(&c);
	c.sh[1].sh_link = 1;
	assert_int_equal(crafted_lookup(&c, &n), ELF_SYM_NONE);
	/* A name offset past its table, and a table without its final NUL. */
	craft_symtab(&c);
	((Elf64_Sym *)(c.buf + c.sh[1].sh_offset))[1].st_name = 1u << 30;
	assert_int_equal(crafted_lookup(&c, &n), ELF_SYM_NONE);
	craft_symtab(&c);
	c.sh[2].sh_size -= 1;
	assert_int_equal(crafted_lookup(&c, &n), ELF_SYM_NONE);
	/* Entries of the wrong size are not read as symbols. */
	craft_symtab(&c);
	c.sh[1].sh_entsize = 16;
	assert_int_equal(crafted_lookup(&c, &n), ELF_SYM_NONE);
}

static void test_is_pie(void **state)
{
	char *dyn = tool("allocn"), *stat = tool("allocn-static");
	struct crafted c;
	struct error err;
	char *path;
	int pie = -1;

	(void)state;
	assert_int_equal(elf_is_pie(dyn, &pie, &err), 0);
	assert_int_equal(pie, 1);	/* Debian's gcc builds PIE by default */
	assert_int_equal(elf_is_pie(stat, &pie, &err), 0);
	assert_int_equal(pie, 0);	/* -static without -static-pie: ET_EXEC */
	craft(&c, 0);
	c.eh->e_shoff = 0;
	c.eh->e_type = ET_EXEC;
	path = craft_write(&c);
	assert_int_equal(elf_is_pie(path, &pie, &err), 0);
	assert_int_equal(pie, 0);
	unlink(path);
	free(path);
	assert_int_equal(elf_is_pie("/nonexistent/prog", &pie, &err), -1);
	assert_string_equal(err.msg, "cannot read '/nonexistent/prog': No such file or directory");
	free(dyn);
	free(stat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_interp),
		cmocka_unit_test(test_symbol_libc),
		cmocka_unit_test(test_symbol_default_version),
		cmocka_unit_test(test_symbol_tables),
		cmocka_unit_test(test_function_names),
		cmocka_unit_test(test_loaded_objects_vs_ldd),
		cmocka_unit_test(test_parse_loader_list),
		cmocka_unit_test(test_damaged_files),
		cmocka_unit_test(test_hostile_section_count),
		cmocka_unit_test(test_hostile_program_headers),
		cmocka_unit_test(test_hostile_tables),
		cmocka_unit_test(test_is_pie),
	};
	ssize_t n = readlink("/proc/self/exe", build_dir, sizeof(build_dir) - 1);

	if (n <= 0)
		return 1;
	build_dir[n] = '\0';
	for (int i = 0; i < 2; i++)	/* build/tests/test_elf -> build */
		*strrchr(build_dir, '/') = '\0';
	return cmocka_run_group_tests(tests, NULL, NULL);
}
