/*
 * The fuzz harnesses' helpers (see fuzz.h). Kept out of the harnesses so
 * each of those is only its parser's calls; nothing here looks at the
 * input beyond copying it.
 */
#include "fuzz.h"

#include <ftw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "analysis/analysed.h"
#include "core/strbuf.h"
#include "report/compare_table.h"
#include "report/csv.h"
#include "report/html.h"
#include "result/json.h"
#include "report/table.h"

static char *tmpdir;

void fuzz_die(const char *what, const char *why)
{
	fprintf(stderr, "fuzz harness: %s: %s\n", what, why);
	abort();
}

char *fuzz_cstr(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);

	return xstrndup((const char *)data, nul ? (size_t)(nul - data) : size);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tmpdir(void)
{
	nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(tmpdir);
}

const char *fuzz_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;

	if (tmpdir)
		return tmpdir;
	strbuf_addf(&sb, "%s/pmustat-fuzz.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(sb.buf))
		fuzz_die(sb.buf, strerror(errno));
	tmpdir = strbuf_detach(&sb);
	atexit(remove_tmpdir);
	return tmpdir;
}

char *fuzz_path(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", fuzz_tmpdir(), name);
	return strbuf_detach(&sb);
}

void fuzz_write(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	const char *p = data;

	if (fd < 0)
		fuzz_die(path, strerror(errno));
	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fuzz_die(path, strerror(errno));
		p += n;
		size -= (size_t)n;
	}
	close(fd);
}

static void render_tables(const struct analysed *a)
{
	for (int color = 0; color < 2; color++)
		for (int verbose = 0; verbose < 2; verbose++) {
			struct table_opts o = { color, verbose };
			struct strbuf sb = STRBUF_INIT;

			report_stat_table(a, &o, &sb);
			if (a->r->nvariants >= 2)
				report_compare_table(a, &o, &sb);
			strbuf_release(&sb);
		}
}

static void render_files(const struct analysed *a)
{
	const struct result *r = a->r;
	struct strbuf table = STRBUF_INIT, page = STRBUF_INIT;
	struct table_opts o = { 0, 0 };
	char *csv = fuzz_path("out.csv");
	json_t *sections = analysed_json(a);
	struct error err;
	json_t *doc;

	report_stat_table(a, &o, &table);
	report_html(a, table.buf, &page);
	csv_write_result(r, csv, &err);
	doc = report_json(r, sections);
	free(json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER));
	json_decref(doc);
	json_decref(sections);
	free(csv);
	strbuf_release(&table);
	strbuf_release(&page);
}

void fuzz_render_result(struct result *r)
{
	struct result copy;
	struct analysed a;
	struct error err;

	analysed_build(r, &a);
	render_tables(&a);
	render_files(&a);
	analysed_release(&a);
	/* A merge with itself: same shape by construction, blocks renumbered. */
	memset(&copy, 0, sizeof(copy));
	result_init(&copy, r->command);
	for (size_t v = 0; v < r->nvariants; v++)
		result_add_variant(&copy, r->variants[v].name, r->variants[v].argv);
	for (size_t m = 0; m < r->nmetrics; m++)
		result_add_metric(&copy, r->metrics[m].name, r->metrics[m].unit,
				  r->metrics[m].source);
	if (result_merge(&copy, r, "self", &err) == 0 && result_merge(&copy, r, "self", &err) == 0) {
		analysed_build(&copy, &a);
		render_tables(&a);
		analysed_release(&a);
	}
	result_release(&copy);
}

void fuzz_ring(struct sample_set *set, uint8_t start, const uint8_t *bytes, size_t len)
{
	static unsigned char *ring;
	static size_t page;
	static void *maps[1];
	static int fds[1] = { -1 };
	struct perf_event_mmap_page *meta;
	size_t at;

	if (!ring) {
		page = (size_t)sysconf(_SC_PAGESIZE);
		ring = aligned_alloc(page, 2 * page);
		if (!ring)
			fuzz_die("ring", "no memory");
	}
	memset(ring, 0, 2 * page);
	at = start * (page / 256);
	if (len > page)
		len = page;
	for (size_t i = 0; i < len; i++)	/* the ring wraps at its end */
		ring[page + (at + i) % page] = bytes[i];
	meta = (struct perf_event_mmap_page *)(void *)ring;
	meta->data_tail = at;
	meta->data_head = at + len;
	maps[0] = ring;
	set->map = maps;
	set->fd = fds;
	set->ncpu = 1;
	set->pages = 1;
	set->page_size = page;
}
