/*
 * Fuzz harness: the host checks (`pmustat doctor`) over a mutated recorded
 * machine. The recorded machines of tests/fixtures (a sys/ and proc/ tree
 * each: zen4, spr, hybrid Intel, arm64, virtual machines) are copied once
 * under the harness's own directory; an input names one file of one tree
 * (its first two bytes, each taken modulo the number of choices) and the
 * rest of the input replaces that file's content. The checks then run on
 * that tree as on a recorded machine (PMUSTAT_SYSFS_ROOT/PMUSTAT_PROC_ROOT:
 * files only, no probe of this host), and the verdict, the doctor text and
 * its JSON are rendered; the file is put back afterwards, so one input
 * costs one write, one check pass and one restore.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/strbuf.h"
#include "fuzz.h"
#include "host/checks.h"
#include "host/cpumap.h"
#include "report/doctor.h"

#define MAX_TREES 16
#define MAX_FILES 4096

struct file {
	char *path;		/* in the copy */
	struct strbuf text;	/* the recorded content, to put back */
};

struct tree {
	char *sys, *proc;	/* the copy's roots */
	struct file *files;
	size_t nfiles;
};

static struct tree trees[MAX_TREES];
static size_t ntrees;
static struct cpu_map *map;
static const char *copy_from, *copy_to;
static struct tree *filling;

static int copy_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	struct strbuf dst = STRBUF_INIT;
	struct file *f;

	(void)st;
	(void)ftw;
	strbuf_addf(&dst, "%s%s", copy_to, path + strlen(copy_from));
	if (flag == FTW_D) {
		if (mkdir(dst.buf, 0700) && errno != EEXIST)
			fuzz_die(dst.buf, strerror(errno));
		strbuf_release(&dst);
		return 0;
	}
	if (flag != FTW_F || filling->nfiles == MAX_FILES) {
		strbuf_release(&dst);
		return 0;
	}
	f = &filling->files[filling->nfiles++];
	strbuf_init(&f->text);
	if (strbuf_read_file(&f->text, path))
		fuzz_die(path, strerror(errno));
	fuzz_write(dst.buf, f->text.buf, f->text.len);
	f->path = strbuf_detach(&dst);
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct file *)a)->path, ((const struct file *)b)->path);
}

static void copy_tree(const char *name)
{
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT;
	struct tree *t = &trees[ntrees];
	struct stat st;

	strbuf_addf(&src, "%s/%s", FUZZ_FIXTURES, name);
	strbuf_addf(&dst, "%s/%s", fuzz_tmpdir(), name);
	strbuf_addf(&src, "/sys");
	if (stat(src.buf, &st) || !S_ISDIR(st.st_mode)) {
		strbuf_release(&src);
		strbuf_release(&dst);
		return;
	}
	src.buf[src.len -= 4] = '\0';
	t->files = calloc(MAX_FILES, sizeof(*t->files));
	filling = t;
	copy_from = src.buf;
	copy_to = dst.buf;
	if (nftw(src.buf, copy_one, 16, FTW_PHYS))
		fuzz_die(src.buf, "cannot copy the fixture");
	/* sorted, so that an input names the same file on every machine */
	qsort(t->files, t->nfiles, sizeof(*t->files), by_path);
	t->proc = xstrdup(dst.buf);
	strbuf_addf(&dst, "/sys");
	t->sys = xstrdup(dst.buf);
	t->proc = xrealloc(t->proc, strlen(t->proc) + 6);
	strcat(t->proc, "/proc");
	ntrees++;
	strbuf_release(&src);
	strbuf_release(&dst);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct error err;
	struct dirent *e;
	char *names[MAX_TREES];
	size_t n = 0;
	DIR *d = opendir(FUZZ_FIXTURES);

	(void)argc;
	(void)argv;
	if (!d)
		fuzz_die(FUZZ_FIXTURES, strerror(errno));
	while ((e = readdir(d)) && n < MAX_TREES)
		if (e->d_name[0] != '.')
			names[n++] = xstrdup(e->d_name);
	closedir(d);
	/* sorted, so that an input names the same tree on every machine */
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		copy_tree(names[i]);
		free(names[i]);
	}
	if (!ntrees)
		fuzz_die(FUZZ_FIXTURES, "no recorded machine (sys/ and proc/) in it");
	if (cpu_map_load_default(&map, &err))
		fuzz_die("data/cpus.json", err.msg);
	return 0;
}

static void check(const struct tree *t)
{
	struct checks c;
	struct strbuf out = STRBUF_INIT;
	struct error err;
	char verdict[512];

	setenv("PMUSTAT_SYSFS_ROOT", t->sys, 1);
	setenv("PMUSTAT_PROC_ROOT", t->proc, 1);
	if (checks_run(&c, NULL, &err) == 0) {
		json_t *doc = report_doctor_json(&c, map);
		char *text = json_dumps(doc, JSON_COMPACT);

		checks_verdict(&c, verdict, sizeof(verdict));
		report_doctor_text(&c, &out);
		free(text);
		json_decref(doc);
		checks_release(&c);
	}
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tree *t;
	const struct file *f;

	if (size < 2)
		return 0;
	t = &trees[data[0] % ntrees];
	if (!t->nfiles)
		return 0;
	f = &t->files[data[1] % t->nfiles];
	fuzz_write(f->path, data + 2, size - 2);
	check(t);
	fuzz_write(f->path, f->text.buf, f->text.len);
	return 0;
}
