/*
 * A main() for a fuzz harness without libFuzzer: feed it files, or every
 * file of directories, one input each, in name order. `make check` builds
 * each harness with this under the sanitizer build and replays the seed
 * corpus and the crashes found before (tests/fuzz/regress/NAME/), so a
 * fixed crash stays fixed on machines without clang. A crash aborts the
 * process through the sanitizer; the last "input" line on stderr names
 * the file.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/strbuf.h"
#include "fuzz.h"

/* A harness without setup does not define it. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path)) {
		fprintf(stderr, "replay: cannot read '%s': %s\n", path, strerror(errno));
		strbuf_release(&sb);
		return -1;
	}
	fprintf(stderr, "input %s\n", path);
	LLVMFuzzerTestOneInput((const uint8_t *)sb.buf, sb.len);
	strbuf_release(&sb);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every regular file of dir; 0, or -1 when one cannot be read. */
static int replay_dir(const char *dir, size_t *count)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name), rc = 0;

	if (n < 0) {
		fprintf(stderr, "replay: cannot read '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct strbuf p = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&p, "%s/%s", dir, names[i]->d_name);
		if (!stat(p.buf, &st) && S_ISREG(st.st_mode) && names[i]->d_name[0] != '.') {
			rc |= replay_file(p.buf);
			++*count;
		}
		strbuf_release(&p);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int rc = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			if (errno == ENOENT)
				continue;	/* a harness without regressions yet */
			fprintf(stderr, "replay: cannot read '%s': %s\n", argv[i], strerror(errno));
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			rc |= replay_dir(argv[i], &count) ? 1 : 0;
		} else {
			rc |= replay_file(argv[i]) ? 1 : 0;
			count++;
		}
	}
	printf("%zu inputs\n", count);
	return rc;
}
