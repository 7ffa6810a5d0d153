/*
 * Fuzz harness: a PMU's sysfs files. The input is a small tree, one file
 * per line, "PATH CONTENT" with PATH one of type, cpumask, format/NAME,
 * events/NAME (and its .scale and .unit), caps/NAME; it is written as the
 * PMU "cpu" under a private sysfs root and loaded as pmustat loads /sys.
 * When the model loads, every alias and format term is used through the
 * event parser (cpu/ALIAS/, cpu/TERM=VALUE/), and a line "parse EVENT"
 * parses EVENT against it. Format specs are also parsed and encoded alone.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/event.h"
#include "core/strbuf.h"
#include "fuzz.h"
#include "host/sysfs.h"

#define MAX_FILES 64

static char *root, *pmu_dir;
static char *written[MAX_FILES];
static size_t nwritten;

static void make_dir(const char *path)
{
	if (mkdir(path, 0700) && errno != EEXIST)
		fuzz_die(path, strerror(errno));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const dirs[] = {
		"", "/bus", "/bus/event_source", "/bus/event_source/devices",
		"/bus/event_source/devices/cpu", "/bus/event_source/devices/cpu/format",
		"/bus/event_source/devices/cpu/events", "/bus/event_source/devices/cpu/caps",
	};
	struct strbuf sb = STRBUF_INIT;

	(void)argc;
	(void)argv;
	root = fuzz_path("sys");
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%s", root, dirs[i]);
		make_dir(sb.buf);
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/bus/event_source/devices/cpu", root);
	pmu_dir = strbuf_detach(&sb);
	return 0;
}

/* Names a file may have: no slash, no dot-only names, printable. */
static int good_name(const char *s, size_t len)
{
	if (!len || len > 64 || (s[0] == '.' && (len == 1 || (len == 2 && s[1] == '.'))))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] == '/' || !isgraph((unsigned char)s[i]))
			return 0;
	return 1;
}

static int good_path(const char *p, size_t len)
{
	static const char *const dirs[] = { "format/", "events/", "caps/" };

	if ((len == 4 && !memcmp(p, "type", 4)) || (len == 7 && !memcmp(p, "cpumask", 7)))
		return 1;
	for (size_t i = 0; i < 3; i++) {
		size_t l = strlen(dirs[i]);

		if (len > l && !memcmp(p, dirs[i], l))
			return good_name(p + l, len - l);
	}
	return 0;
}

static void clear_tree(void)
{
	for (size_t i = 0; i < nwritten; i++) {
		unlink(written[i]);
		free(written[i]);
	}
	nwritten = 0;
}

static void add_file(const char *path, size_t plen, const char *text, size_t tlen)
{
	struct strbuf sb = STRBUF_INIT;

	if (nwritten == MAX_FILES || !good_path(path, plen))
		return;
	strbuf_addf(&sb, "%s/%.*s", pmu_dir, (int)plen, path);
	fuzz_write(sb.buf, text, tlen);
	written[nwritten++] = strbuf_detach(&sb);
}

static void parse_event(const struct sysfs_model *m, const char *s)
{
	struct event_spec ev;
	struct error err;

	if (event_parse(m, s, &ev, &err) == 0)
		event_spec_release(&ev);
}

static void use_model(const struct sysfs_model *m)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t p = 0; p < m->npmus; p++) {
		const struct sysfs_pmu *pmu = &m->pmus[p];

		for (size_t i = 0; i < pmu->naliases; i++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s/%s/u", pmu->name, pmu->aliases[i].name);
			parse_event(m, sb.buf);
		}
		for (size_t i = 0; i < pmu->nformats; i++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s/%s=0x5,%s/", pmu->name, pmu->formats[i].name,
				    pmu->formats[i].name);
			parse_event(m, sb.buf);
		}
	}
	strbuf_release(&sb);
}

/* A format spec alone: parsed, then every value width encoded. */
static void format_alone(const char *spec)
{
	struct sysfs_format f = { .name = "term" };
	uint64_t config[4] = { 0 };
	struct error err;

	if (sysfs_format_parse(spec, &f, &err))
		return;
	for (int w = 0; w <= 64; w += 7)
		sysfs_format_encode(&f, w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1, config, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), **events = NULL;
	size_t nevents = 0;
	struct sysfs_model m;
	struct error err;

	clear_tree();
	for (char *line = text, *next; line; line = next) {
		char *sp;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!(sp = strchr(line, ' ')))
			continue;
		if (sp - line == 5 && !memcmp(line, "parse", 5)) {
			events = realloc(events, (nevents + 1) * sizeof(*events));
			events[nevents++] = sp + 1;
		} else {
			add_file(line, (size_t)(sp - line), sp + 1, strlen(sp + 1));
			if (!strncmp(line, "format/", 7))
				format_alone(sp + 1);
		}
	}
	if (sysfs_model_load(&m, root, &err) == 0) {
		use_model(&m);
		for (size_t i = 0; i < nevents; i++)
			parse_event(&m, events[i]);
		sysfs_model_release(&m);
	}
	free(events);
	free(text);
	return 0;
}
