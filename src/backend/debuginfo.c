/*
 * debuginfo_find (see debuginfo.h). The places and their order are
 * libdwfl's (its default debuginfo path ":.debug:/usr/lib/debug"): the
 * build-id file /usr/lib/debug/.build-id/NN/REST.debug, then the linked
 * name in the object's own directory, in its .debug/, and under
 * /usr/lib/debug/ followed by the object's directory; an absolute linked
 * name is tried as it is first. A final symbolic link is followed: debug
 * files are often links (distributions' .build-id trees), and the
 * descriptor is checked after the open, so a link to a FIFO or a device
 * is refused like the thing itself.
 *
 * libdwfl calls this twice for a module: for the debug file (with the
 * .gnu_debuglink name and CRC, or none), and once DWARF is open, for the
 * file its .gnu_debugaltlink names (dwz's shared DWARF), with CRC 0. The
 * second is recognised by its name being the one in that section of
 * file_name, and must carry the build id written there.
 */
#include "backend/debuginfo.h"

#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/safeopen.h"
#include "core/strbuf.h"

#define DEBUG_ROOT "/usr/lib/debug"
/* Without a build id a candidate is checked by reading it whole for its
 * CRC; a larger file (a sparse one planted to be read for ever) is not. */
#define CRC_FILE_MAX (4ull << 30)

/* What the module's debug file must match. */
struct want {
	unsigned char id[64];	/* its build id ... */
	size_t idlen;		/* ... of this length, 0 = none */
	GElf_Word crc;		/* without an id: the debuglink's CRC, 0 = unchecked */
};

static size_t elf_build_id(Elf *e, unsigned char *out, size_t max)
{
	const void *id;
	ssize_t n = e ? dwelf_elf_gnu_build_id(e, &id) : -1;

	if (n <= 0 || (size_t)n > max)
		return 0;
	memcpy(out, id, (size_t)n);
	return (size_t)n;
}

static int same_id(int fd, const struct want *w)
{
	unsigned char id[64];
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t n = elf_build_id(e, id, sizeof(id));

	if (e)
		elf_end(e);
	return n == w->idlen && !memcmp(id, w->id, n);
}

static int same_crc(int fd, GElf_Word want)
{
	unsigned char buf[65536];
	uLong crc = crc32(0L, Z_NULL, 0);
	struct stat st;
	ssize_t got;

	if (fstat(fd, &st) || (unsigned long long)st.st_size > CRC_FILE_MAX)
		return 0;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		crc = crc32(crc, buf, (uInt)got);
	return got == 0 && lseek(fd, 0, SEEK_SET) == 0 && (GElf_Word)crc == want;
}

/* A descriptor of path if it is the debug file w asks for, else -1; a path
 * that is there but no regular file is kept in skip (the first one). */
static int try_path(const char *path, const struct want *w, struct debuginfo_skip *skip)
{
	int fd = safeopen_read(path, 0);

	if (fd == SAFEOPEN_NOTREG && skip && !skip->path[0])
		snprintf(skip->path, sizeof(skip->path), "%s", path);
	if (fd < 0)
		return -1;
	if (w->idlen ? same_id(fd, w) : !w->crc || same_crc(fd, w->crc))
		return fd;
	close(fd);
	return -1;
}

/* The name and build id in file_name's .gnu_debugaltlink into w when its
 * name is link: 1; else 0. */
static int altlink_of(const char *file_name, const char *link, struct want *w)
{
	int fd = file_name ? safeopen_read(file_name, 0) : -1, found = 0;
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (e && elf_getshdrstrndx(e, &shstrndx) == 0) {
		while (!found && (scn = elf_nextscn(e, scn)) != NULL) {
			GElf_Shdr sh;
			const char *name;
			Elf_Data *d;
			size_t nlen;

			if (!gelf_getshdr(scn, &sh) ||
			    !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
			    strcmp(name, ".gnu_debugaltlink") || !(d = elf_getdata(scn, NULL)) ||
			    !d->d_buf)
				continue;
			nlen = strnlen(d->d_buf, d->d_size);
			if (nlen >= d->d_size || strcmp(d->d_buf, link))
				break;
			w->idlen = d->d_size - nlen - 1;
			if (w->idlen > sizeof(w->id))
				w->idlen = 0;
			memcpy(w->id, (const char *)d->d_buf + nlen + 1, w->idlen);
			found = w->idlen > 0;
		}
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return found;
}

/* The linked name (or FILE.debug without one) in libdwfl's places. */
static int by_name(const char *file_name, const char *link, const struct want *w,
		   struct debuginfo_skip *skip, struct strbuf *path)
{
	const char *slash = file_name ? strrchr(file_name, '/') : NULL;
	int dirlen = slash ? (int)(slash - file_name) : 1;
	const char *dir = slash ? file_name : ".";
	struct strbuf base = STRBUF_INIT;
	int fd = -1;

	if (link && link[0] == '/') {
		strbuf_adds(path, link);
		fd = try_path(path->buf, w, skip);
	}
	if (link) {
		const char *b = strrchr(link, '/');

		strbuf_adds(&base, b ? b + 1 : link);
	} else if (file_name) {
		strbuf_addf(&base, "%s.debug", slash ? slash + 1 : file_name);
	}
	for (int place = 0; fd < 0 && base.len && place < 3; place++) {
		if (place == 2 && dir[0] != '/')
			break;	/* /usr/lib/debug mirrors absolute directories only */
		strbuf_reset(path);
		strbuf_addf(path, "%s%.*s%s/%s", place == 2 ? DEBUG_ROOT : "", dirlen, dir,
			    place == 1 ? "/.debug" : "", base.buf);
		/* the object is not its own debug file */
		if (file_name && !strcmp(path->buf, file_name))
			continue;
		fd = try_path(path->buf, w, skip);
	}
	strbuf_release(&base);
	return fd;
}

int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		   const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name)
{
	struct debuginfo_skip *skip = userdata ? *userdata : NULL;
	struct want w = { { 0 }, 0, debuglink_crc };
	struct strbuf path = STRBUF_INIT;
	int fd = -1;

	(void)modname;
	(void)base;
	elf_version(EV_CURRENT);
	if (!(debuglink_file && !debuglink_crc && altlink_of(file_name, debuglink_file, &w))) {
		const unsigned char *id;
		GElf_Addr vaddr;
		int n = dwfl_module_build_id(mod, &id, &vaddr);

		if (n > 0 && (size_t)n <= sizeof(w.id)) {
			memcpy(w.id, id, (size_t)n);
			w.idlen = (size_t)n;
		}
	}
	if (w.idlen >= 2) {
		strbuf_addf(&path, DEBUG_ROOT "/.build-id/%02x/", w.id[0]);
		for (size_t i = 1; i < w.idlen; i++)
			strbuf_addf(&path, "%02x", w.id[i]);
		strbuf_adds(&path, ".debug");
		fd = try_path(path.buf, &w, skip);
	}
	if (fd < 0) {
		strbuf_reset(&path);
		fd = by_name(file_name, debuglink_file, &w, skip, &path);
	}
	if (fd >= 0)
		*debuginfo_file_name = strbuf_detach(&path);
	strbuf_release(&path);
	return fd;
}
