/*
 * Safe output files. Each refusal is checked both ways: the call fails with
 * an error naming what the path is, and the thing at the path (a link, its
 * target, a FIFO) is exactly as it was. Write failures are produced with
 * RLIMIT_FSIZE, which makes a regular file refuse to grow on any file
 * system, so the cleanup after a failed write is tested without a full disk.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/owner.h"
#include "core/strbuf.h"

struct dir {
	char path[64];
	char buf[256];	/* scratch for path_in */
};

static int setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	strcpy(d->path, "/tmp/test_outfile.XXXXXX");
	if (!mkdtemp(d->path))
		return -1;
	*state = d;
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct dir *d = *state;

	nftw(d->path, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	free(d);
	return 0;
}

static const char *path_in(struct dir *d, const char *name)
{
	snprintf(d->buf, sizeof(d->buf), "%s/%s", d->path, name);
	return d->buf;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file's whole content (caller frees), or NULL. */
static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[512];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_add(&sb, chunk, n);
	fclose(f);
	return strbuf_detach(&sb);
}

static void assert_content(const char *path, const char *want)
{
	char *got = slurp(path);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static size_t count_entries(const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(dh);
	while ((e = readdir(dh)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dh);
	return n;
}

static void assert_link(const char *link, const char *target)
{
	char got[256];
	ssize_t n = readlink(link, got, sizeof(got) - 1);

	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got, target);
}

static void test_check_accepts_new_file_and_stdout(void **state)
{
	struct dir *d = *state;
	struct error err;

	error_clear(&err);
	assert_int_equal(outfile_check("-", "-o/--output", &err), 0);
	assert_int_equal(outfile_check(path_in(d, "new.json"), "-o/--output", &err), 0);
	/* The probe file is gone again and the output was not created. */
	assert_int_equal(count_entries(d->path), 0);
	put(path_in(d, "old.json"), "old");
	assert_int_equal(outfile_check(path_in(d, "old.json"), "-o/--output", &err), 0);
	assert_content(path_in(d, "old.json"), "old");
}

static void test_check_directory(void **state)
{
	struct dir *d = *state;
	struct error err;
	char want[128];

	error_clear(&err);
	assert_int_equal(outfile_check(d->path, "-o/--output", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	snprintf(want, sizeof(want), "'%s' is a directory", d->path);
	assert_string_equal(err.msg, want);
	snprintf(want, sizeof(want), "give a file name for -o/--output, e.g. '%s/result.json'",
		 d->path);
	assert_string_equal(err.hint, want);
	assert_int_equal(outfile_check(d->path, "--csv", &err), -1);
	assert_non_null(strstr(err.hint, "/result.csv'"));
}

static void test_check_symlink_not_followed(void **state)
{
	struct dir *d = *state;
	struct error err;
	char target[128], link[128], want[200];

	error_clear(&err);
	snprintf(target, sizeof(target), "%s", path_in(d, "target"));
	snprintf(link, sizeof(link), "%s", path_in(d, "link.json"));
	put(target, "precious");
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(outfile_check(link, "-o/--output", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	snprintf(want, sizeof(want), "'%s' is not a regular file (a symbolic link)", link);
	assert_string_equal(err.msg, want);
	assert_non_null(strstr(err.hint, "'-o -'"));
	assert_link(link, target);
	assert_content(target, "precious");
	/* A dangling link is refused too: it would be created through. */
	assert_int_equal(unlink(target), 0);
	assert_int_equal(outfile_check(link, "-o/--output", &err), -1);
	assert_int_equal(access(target, F_OK), -1);
}

static void test_check_device_and_fifo(void **state)
{
	struct dir *d = *state;
	struct error err;
	char fifo[128], want[200];
	struct stat st;

	error_clear(&err);
	assert_int_equal(outfile_check("/dev/null", "-o/--output", &err), -1);
	assert_string_equal(err.msg, "'/dev/null' is not a regular file (a character device)");
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	snprintf(fifo, sizeof(fifo), "%s", path_in(d, "fifo"));
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(outfile_check(fifo, "--csv", &err), -1);
	snprintf(want, sizeof(want), "'%s' is not a regular file (a FIFO)", fifo);
	assert_string_equal(err.msg, want);
	assert_non_null(strstr(err.hint, "'--csv -'"));
}

static void test_check_unwritable_directory(void **state)
{
	struct error err;

	(void)state;
	error_clear(&err);
	assert_int_equal(outfile_check("/nonexistent/dir/r.json", "-o/--output", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_string_equal(err.msg,
			    "cannot write '/nonexistent/dir/r.json': No such file or directory");
	assert_string_equal(err.hint, "choose a writable path for -o/--output");
	assert_int_equal(outfile_check("", "-o/--output", &err), -1);
}

static void test_replace_writes_and_keeps_mode(void **state)
{
	struct dir *d = *state;
	struct error err;
	struct stat st;
	char out[128];
	mode_t old_mask;

	error_clear(&err);
	snprintf(out, sizeof(out), "%s", path_in(d, "out.json"));
	old_mask = umask(022);
	assert_int_equal(outfile_replace(out, "first\n", 6, &err), 0);
	umask(old_mask);
	assert_content(out, "first\n");
	/* A new file as fopen makes it, not mkstemp's 0600. */
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(chmod(out, 0640), 0);
	assert_int_equal(outfile_replace(out, "second, longer\n", 15, &err), 0);
	assert_content(out, "second, longer\n");
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(outfile_replace(out, "", 0, &err), 0);
	assert_content(out, "");
	assert_int_equal(count_entries(d->path), 1);
}

static void test_replace_refuses_symlink_and_fifo(void **state)
{
	struct dir *d = *state;
	struct error err;
	char target[128], link[128], fifo[128];
	struct stat st;

	error_clear(&err);
	snprintf(target, sizeof(target), "%s", path_in(d, "target"));
	snprintf(link, sizeof(link), "%s", path_in(d, "link.json"));
	snprintf(fifo, sizeof(fifo), "%s", path_in(d, "fifo"));
	put(target, "precious");
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(outfile_replace(link, "x", 1, &err), -1);
	assert_int_equal(err.kind, ERR_RUNTIME);
	assert_non_null(strstr(err.msg, "(a symbolic link)"));
	assert_link(link, target);
	assert_content(target, "precious");
	assert_int_equal(outfile_replace(fifo, "x", 1, &err), -1);
	assert_non_null(strstr(err.msg, "(a FIFO)"));
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	/* No temporary file is left behind by either refusal. */
	assert_int_equal(count_entries(d->path), 3);
}

static void test_replace_ignores_planted_temp_links(void **state)
{
	struct dir *d = *state;
	struct error err;
	char target[128], out[128], link[160];
	static const char *const planted[] = { "out.json.tmp", ".out.json.tmp",
					       ".out.json.XXXXXX", ".out.json.000000" };

	error_clear(&err);
	snprintf(target, sizeof(target), "%s", path_in(d, "target"));
	snprintf(out, sizeof(out), "%s", path_in(d, "out.json"));
	put(target, "precious");
	for (size_t i = 0; i < sizeof(planted) / sizeof(*planted); i++) {
		snprintf(link, sizeof(link), "%s/%s", d->path, planted[i]);
		assert_int_equal(symlink(target, link), 0);
	}
	assert_int_equal(outfile_replace(out, "result\n", 7, &err), 0);
	assert_content(out, "result\n");
	assert_content(target, "precious");
	for (size_t i = 0; i < sizeof(planted) / sizeof(*planted); i++) {
		snprintf(link, sizeof(link), "%s/%s", d->path, planted[i]);
		assert_link(link, target);
	}
	assert_int_equal(count_entries(d->path), 2 + sizeof(planted) / sizeof(*planted));
}

/* A killed writer's temporary is removed by the next write of the same
 * output; a live writer's, another output's, a link and a name of another
 * form are kept. */
static void test_replace_sweeps_dead_temps(void **state)
{
	struct dir *d = *state;
	struct error err;
	char out[128], name[256], target[128];
	long self = (long)getpid();
	unsigned long long start = owner_start(self);

	error_clear(&err);
	assert_true(start > 0);
	snprintf(out, sizeof(out), "%s", path_in(d, "out.json"));
	snprintf(target, sizeof(target), "%s", path_in(d, "target"));
	put(target, "precious");
	/* gone: this pid with another start (reused); kept: the live one */
	snprintf(name, sizeof(name), "%s/.out.json.pm-%ld-%llu.a1B2c3", d->path, self, start + 1);
	put(name, "half a document");
	snprintf(name, sizeof(name), "%s/.out.json.pm-%ld-%llu.d4E5f6", d->path, self, start);
	put(name, "being written");
	snprintf(name, sizeof(name), "%s/.other.json.pm-%ld-%llu.a1B2c3", d->path, self, start + 1);
	put(name, "another output's");
	snprintf(name, sizeof(name), "%s/.out.json.pm-%ld-%llu.g7H8i9", d->path, self, start + 1);
	assert_int_equal(symlink(target, name), 0);
	snprintf(name, sizeof(name), "%s/.out.json.pm-%ld-%llu.a1B2c3.bak", d->path, self,
		 start + 1);
	put(name, "not a temporary");
	assert_int_equal(outfile_replace(out, "result\n", 7, &err), 0);
	snprintf(name, sizeof(name), "%s/.out.json.pm-%ld-%llu.a1B2c3", d->path, self, start + 1);
	assert_int_equal(access(name, F_OK), -1);
	snprintf(name, sizeof(name), "%s/.out.json.pm-%ld-%llu.d4E5f6", d->path, self, start);
	assert_content(name, "being written");
	assert_content(target, "precious");
	/* out.json, target, the live one, the other output's, the link, .bak */
	assert_int_equal(count_entries(d->path), 6);
}

/* Files may grow to `bytes` only; SIGXFSZ ignored so the write fails instead. */
static void limit_file_size(struct rlimit *old, rlim_t bytes)
{
	struct rlimit lim;

	assert_int_equal(getrlimit(RLIMIT_FSIZE, old), 0);
	lim = *old;
	lim.rlim_cur = bytes;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
}

static void test_replace_failure_leaves_old_file(void **state)
{
	struct dir *d = *state;
	struct error err;
	struct rlimit old;
	char out[128], big[4096];
	char want[200];
	int rc;

	error_clear(&err);
	snprintf(out, sizeof(out), "%s", path_in(d, "out.json"));
	put(out, "old result\n");
	memset(big, 'x', sizeof(big));
	limit_file_size(&old, 1000);
	rc = outfile_replace(out, big, sizeof(big), &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(rc, -1);
	assert_int_equal(err.kind, ERR_RUNTIME);
	snprintf(want, sizeof(want), "cannot write '%s': %s", out, strerror(EFBIG));
	assert_string_equal(err.msg, want);
	assert_content(out, "old result\n");
	assert_int_equal(count_entries(d->path), 1);
}

/* Pieces of every size the JSON writer hands over (a byte, a token, more
 * than the stream's chunk at once), of bytes that differ by position, so a
 * piece written twice, dropped or out of order shows in the content. */
static const size_t piece_sizes[] = { 1, 7, 300, 65535, 1, 65536, 200000, 3, 4096 };

static void fill_pieces(struct strbuf *want, int times)
{
	for (int t = 0; t < times; t++)
		for (size_t i = 0; i < sizeof(piece_sizes) / sizeof(*piece_sizes); i++)
			for (size_t j = 0; j < piece_sizes[i]; j++)
				strbuf_addch(want, (char)('a' + (want->len * 7 + i) % 26));
}

/* Write want to the stream in pieces of piece_sizes; the number of writes
 * that failed. */
static int stream_pieces(struct outfile_stream *s, const struct strbuf *want)
{
	size_t off = 0, i = 0;
	int failed = 0;

	while (off < want->len) {
		size_t n = piece_sizes[i++ % (sizeof(piece_sizes) / sizeof(*piece_sizes))];

		if (n > want->len - off)
			n = want->len - off;
		failed += outfile_stream_write(s, want->buf + off, n) != 0;
		off += n;
	}
	return failed;
}

static void assert_bytes(const char *path, const struct strbuf *want)
{
	struct strbuf got = STRBUF_INIT;

	assert_int_equal(strbuf_read_file(&got, path), 0);
	assert_int_equal(got.len, want->len);
	assert_memory_equal(got.buf, want->buf, want->len);
	strbuf_release(&got);
}

static void test_stream_writes_same_bytes(void **state)
{
	struct dir *d = *state;
	struct outfile_stream s;
	struct strbuf want = STRBUF_INIT;
	struct error err;
	struct stat st;
	char out[128];

	error_clear(&err);
	snprintf(out, sizeof(out), "%s", path_in(d, "out.json"));
	put(out, "old result\n");
	assert_int_equal(chmod(out, 0604), 0);
	fill_pieces(&want, 3);
	assert_int_equal(outfile_stream_open(&s, out, &err), 0);
	/* the old file stays whole until the commit */
	assert_int_equal(stream_pieces(&s, &want), 0);
	assert_content(out, "old result\n");
	assert_int_equal(count_entries(d->path), 2);
	assert_int_equal(outfile_stream_commit(&s, &err), 0);
	assert_bytes(out, &want);
	assert_int_equal(lstat(out, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0604);
	assert_int_equal(count_entries(d->path), 1);
	/* outfile_replace is one write of the stream: the same bytes */
	assert_int_equal(outfile_replace(out, want.buf, want.len, &err), 0);
	assert_bytes(out, &want);
	assert_int_equal(count_entries(d->path), 1);
	strbuf_release(&want);
}

static void test_stream_failure_midstream_leaves_old_file(void **state)
{
	struct dir *d = *state;
	struct outfile_stream s;
	struct strbuf want = STRBUF_INIT;
	struct error err;
	struct rlimit old;
	char out[128], msg[200];
	int failed, rc;

	error_clear(&err);
	snprintf(out, sizeof(out), "%s", path_in(d, "out.json"));
	put(out, "old result\n");
	fill_pieces(&want, 4);
	assert_int_equal(outfile_stream_open(&s, out, &err), 0);
	/* the temporary may take the first 300 KB of about 1.3 MB */
	limit_file_size(&old, 300000);
	failed = stream_pieces(&s, &want);
	rc = outfile_stream_commit(&s, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	/* the failure is remembered: every write after it fails too */
	assert_true(failed > 0);
	assert_int_equal(rc, -1);
	assert_int_equal(err.kind, ERR_RUNTIME);
	snprintf(msg, sizeof(msg), "cannot write '%s': %s", out, strerror(EFBIG));
	assert_string_equal(err.msg, msg);
	assert_non_null(strstr(err.hint, "ulimit -f"));
	assert_content(out, "old result\n");
	assert_int_equal(count_entries(d->path), 1);
	strbuf_release(&want);
}

static void test_stream_abort_leaves_old_file(void **state)
{
	struct dir *d = *state;
	struct outfile_stream s;
	struct strbuf want = STRBUF_INIT;
	struct error err;
	char out[128];

	error_clear(&err);
	snprintf(out, sizeof(out), "%s", path_in(d, "out.json"));
	put(out, "old result\n");
	fill_pieces(&want, 1);
	assert_int_equal(outfile_stream_open(&s, out, &err), 0);
	assert_int_equal(stream_pieces(&s, &want), 0);
	outfile_stream_abort(&s);
	assert_content(out, "old result\n");
	assert_int_equal(count_entries(d->path), 1);
	/* a new file is not made by an aborted stream either */
	assert_int_equal(outfile_stream_open(&s, path_in(d, "new.json"), &err), 0);
	assert_int_equal(outfile_stream_write(&s, "{}", 2), 0);
	outfile_stream_abort(&s);
	assert_int_equal(count_entries(d->path), 1);
	strbuf_release(&want);
}

/* A FIFO put in the output's place while the stream is written is not
 * replaced: the commit refuses and removes its temporary. */
static void test_stream_commit_refuses_fifo(void **state)
{
	struct dir *d = *state;
	struct outfile_stream s;
	struct error err;
	struct stat st;
	char out[128], msg[200];

	error_clear(&err);
	snprintf(out, sizeof(out), "%s", path_in(d, "out.json"));
	put(out, "old result\n");
	assert_int_equal(outfile_stream_open(&s, out, &err), 0);
	assert_int_equal(outfile_stream_write(&s, "{}\n", 3), 0);
	assert_int_equal(unlink(out), 0);
	assert_int_equal(mkfifo(out, 0600), 0);
	assert_int_equal(outfile_stream_commit(&s, &err), -1);
	snprintf(msg, sizeof(msg), "'%s' is not a regular file (a FIFO)", out);
	assert_string_equal(err.msg, msg);
	assert_int_equal(lstat(out, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(count_entries(d->path), 1);
}

static void test_append_keeps_unless_truncate(void **state)
{
	struct dir *d = *state;
	struct error err;
	char out[128];
	int fd, flags;

	error_clear(&err);
	snprintf(out, sizeof(out), "%s", path_in(d, "runs.csv"));
	fd = outfile_open_append(out, 1, &err);
	assert_true(fd >= 0);
	assert_int_equal(outfile_write_all(fd, "one\n", 4), 0);
	flags = fcntl(fd, F_GETFL);
	assert_true(flags & O_APPEND);
	assert_false(flags & O_NONBLOCK);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	fd = outfile_open_append(out, 0, &err);
	assert_true(fd >= 0);
	/* O_APPEND: even from offset 0, the write goes to the end. */
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(outfile_write_all(fd, "two\n", 4), 0);
	close(fd);
	assert_content(out, "one\ntwo\n");
	fd = outfile_open_append(out, 1, &err);
	assert_true(fd >= 0);
	close(fd);
	assert_content(out, "");
}

static void test_append_refuses_before_touching(void **state)
{
	struct dir *d = *state;
	struct error err;
	char target[128], link[128], fifo[128];

	error_clear(&err);
	snprintf(target, sizeof(target), "%s", path_in(d, "target"));
	snprintf(link, sizeof(link), "%s", path_in(d, "link.csv"));
	snprintf(fifo, sizeof(fifo), "%s", path_in(d, "fifo"));
	put(target, "precious");
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(outfile_open_append(link, 1, &err), -1);
	assert_non_null(strstr(err.msg, "(a symbolic link)"));
	assert_link(link, target);
	assert_content(target, "precious");
	/* No reader on the FIFO: refused, not blocked on. */
	assert_int_equal(outfile_open_append(fifo, 1, &err), -1);
	assert_non_null(strstr(err.msg, "(a FIFO)"));
	assert_int_equal(outfile_open_append("/dev/null", 1, &err), -1);
	assert_string_equal(err.msg, "'/dev/null' is not a regular file (a character device)");
	assert_int_equal(outfile_open_append(d->path, 0, &err), -1);
	assert_non_null(strstr(err.msg, "is a directory"));
	assert_int_equal(outfile_open_append("/nonexistent/dir/r.csv", 1, &err), -1);
	assert_string_equal(err.msg,
			    "cannot write '/nonexistent/dir/r.csv': No such file or directory");
}

static void test_write_all_reports_errno(void **state)
{
	int p[2];
	char buf[8];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(outfile_write_all(p[1], "abc", 3), 0);
	assert_int_equal(read(p[0], buf, sizeof(buf)), 3);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	assert_int_equal(outfile_write_all(p[1], "abc", 3), -1);
	assert_int_equal(errno, EPIPE);
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_check_accepts_new_file_and_stdout),
		T(test_check_directory),
		T(test_check_symlink_not_followed),
		T(test_check_device_and_fifo),
		T(test_check_unwritable_directory),
		T(test_replace_writes_and_keeps_mode),
		T(test_replace_refuses_symlink_and_fifo),
		T(test_replace_ignores_planted_temp_links),
		T(test_replace_sweeps_dead_temps),
		T(test_replace_failure_leaves_old_file),
		T(test_stream_writes_same_bytes),
		T(test_stream_failure_midstream_leaves_old_file),
		T(test_stream_abort_leaves_old_file),
		T(test_stream_commit_refuses_fifo),
		T(test_append_keeps_unless_truncate),
		T(test_append_refuses_before_touching),
		T(test_write_all_reports_errno),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
