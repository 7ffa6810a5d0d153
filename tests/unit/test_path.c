/*
 * Unit tests for core/path: the PATH search against execvp's rules on a
 * directory tree made here (entries in order, empty entries as the current
 * directory, files that cannot be executed or are not regular skipped, names
 * with '/' taken as they are), the private directories of tmpdir_make
 * (where, which mode, and the error when TMPDIR cannot hold one), and the
 * sweep of those a killed pmustat left (what it takes, what it leaves).
 */
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

#include "core/owner.h"
#include "core/path.h"
#include "core/strbuf.h"

static char root[] = "/tmp/pmustat-pathtest-XXXXXX";

static char *at(const char *rel)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", root, rel);
	return strbuf_detach(&sb);
}

static void put_file(const char *rel, mode_t mode)
{
	char *p = at(rel);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

static void put_dir(const char *rel)
{
	char *p = at(rel);

	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	put_dir("a");
	put_dir("b");
	put_dir("c");
	put_dir("b/tool");		/* a directory of that name is no program */
	put_file("a/tool", 0644);	/* not executable */
	put_file("c/tool", 0755);
	put_file("c/lib.so", 0644);
	put_file("tool", 0755);		/* in the current directory */
	return 0;
}

static int teardown(void **state)
{
	static const char *const files[] = { "a/tool", "c/tool", "c/lib.so", "tool" };
	static const char *const dirs[] = { "b/tool", "a", "b", "c" };

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *p = at(files[i]);

		unlink(p);
		free(p);
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *p = at(dirs[i]);

		rmdir(p);
		free(p);
	}
	return rmdir(root);
}

static void expect_found(const char *name, const char *path_env, int mode, const char *rel)
{
	char *got = path_search(name, path_env, mode), *want = rel ? at(rel) : NULL;

	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
	free(got);
	free(want);
}

static void test_search_order(void **state)
{
	struct strbuf env = STRBUF_INIT;

	(void)state;
	/* a/tool is not executable and b/tool is a directory: c/tool wins. */
	strbuf_addf(&env, "%s/a:%s/b:%s/c", root, root, root);
	expect_found("tool", env.buf, X_OK, "c/tool");
	/* For reading, a/tool comes first. */
	expect_found("tool", env.buf, R_OK, "a/tool");
	expect_found("lib.so", env.buf, R_OK, "c/lib.so");
	expect_found("lib.so", env.buf, X_OK, NULL);
	expect_found("missing", env.buf, X_OK, NULL);
	expect_found("", env.buf, X_OK, NULL);
	strbuf_release(&env);
}

static void expect_cwd(const char *path_env)
{
	char *got = path_search("tool", path_env, X_OK);

	assert_non_null(got);
	assert_string_equal(got, "./tool");
	free(got);
}

/* An empty entry, wherever it stands, means the current directory. */
static void test_empty_entries(void **state)
{
	struct strbuf env = STRBUF_INIT;
	char cwd[4096];

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(root), 0);
	expect_cwd("");
	strbuf_addf(&env, ":%s/a", root);
	expect_cwd(env.buf);
	strbuf_reset(&env);
	strbuf_addf(&env, "%s/a:", root);
	expect_cwd(env.buf);
	strbuf_reset(&env);
	strbuf_addf(&env, "%s/a::%s/c", root, root);
	expect_cwd(env.buf);
	/* No empty entry: the current directory is not searched. */
	strbuf_reset(&env);
	strbuf_addf(&env, "%s/a:%s/b", root, root);
	assert_null(path_search("tool", env.buf, X_OK));
	assert_int_equal(chdir(cwd), 0);
	strbuf_release(&env);
}

static void test_slash_and_environment(void **state)
{
	char *got;

	(void)state;
	/* With a '/', the name is the path: no search, no check. */
	got = path_search("./no/such/prog", "/bin", X_OK);
	assert_string_equal(got, "./no/such/prog");
	free(got);
	/* NULL reads $PATH. */
	got = path_search("sh", NULL, X_OK);
	assert_non_null(got);
	assert_true(path_usable(got, X_OK));
	free(got);
	assert_false(path_usable("/tmp", X_OK));
	assert_false(path_usable("/nonexistent/x", R_OK));
}

static void test_tmpdir(void **state)
{
	char *old = getenv("TMPDIR") ? xstrdup(getenv("TMPDIR")) : NULL;
	char *dir = NULL, *want;
	struct error err;
	struct stat st;

	(void)state;
	assert_int_equal(setenv("TMPDIR", root, 1), 0);
	assert_int_equal(tmpdir_make("pmustat-t.", &dir, &err), 0);
	want = at("pmustat-t.");
	assert_int_equal(strncmp(dir, want, strlen(want)), 0);
	{	/* <prefix><pid>-<start time>-XXXXXX: the owner named */
		long pid = 0;
		unsigned long long start = 0;
		int used = 0;

		assert_int_equal(sscanf(dir + strlen(want), "%ld-%llu-%n", &pid, &start, &used), 2);
		assert_int_equal(pid, (long)getpid());
		assert_true(start > 0);
		assert_int_equal(strlen(dir + strlen(want) + used), 6);
	}
	assert_int_equal(stat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(rmdir(dir), 0);
	free(dir);
	free(want);

	assert_int_equal(setenv("TMPDIR", "/nonexistent/tmp", 1), 0);
	assert_int_equal(tmpdir_make("pmustat-t.", &dir, &err), -1);
	assert_null(dir);
	assert_string_equal(err.msg, "cannot create a directory in '/nonexistent/tmp': "
				     "No such file or directory");
	assert_string_equal(err.hint, "point TMPDIR at a writable directory");

	/* Empty TMPDIR: /tmp. */
	assert_int_equal(setenv("TMPDIR", "", 1), 0);
	assert_int_equal(tmpdir_make("pmustat-t.", &dir, &err), 0);
	assert_int_equal(strncmp(dir, "/tmp/pmustat-t.", 15), 0);
	assert_int_equal(rmdir(dir), 0);
	free(dir);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

static void mkdir_at(const char *rel)
{
	char *p = at(rel);

	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
}

static int exists_at(const char *rel)
{
	char *p = at(rel);
	struct stat st;
	int r = lstat(p, &st) == 0;

	free(p);
	return r;
}

static void rm_at(const char *rel)
{
	char *p = at(rel);

	assert_int_equal(remove(p), 0);
	free(p);
}

static void test_sweep(void **state)
{
	char *old = getenv("TMPDIR") ? xstrdup(getenv("TMPDIR")) : NULL;
	char dead[64], live[64], deep[64], sub[256], *tmp = at("s"), *keep = at("keep"), *dead_path;
	struct strbuf removed = STRBUF_INIT, want = STRBUF_INIT;
	long pid = (long)getpid();

	(void)state;
	mkdir_at("s");
	mkdir_at("keep");
	put_file("keep/file", 0644);
	assert_int_equal(setenv("TMPDIR", tmp, 1), 0);
	/* A compare's exec directory whose pid was reused (this process, with
	 * another start time): links to a directory, a file a level deeper. */
	snprintf(dead, sizeof(dead), "s/pmustat-exec-%ld-1-AAAAAA", pid);
	mkdir_at(dead);
	dead_path = at(dead);
	snprintf(sub, sizeof(sub), "%s/0_", dead);
	mkdir_at(sub);
	snprintf(sub, sizeof(sub), "%s/0_/prog", dead_path);
	assert_int_equal(symlink(keep, sub), 0);
	snprintf(sub, sizeof(sub), "%s/1", dead);
	mkdir_at(sub);
	snprintf(sub, sizeof(sub), "%s/1/x", dead);
	mkdir_at(sub);
	snprintf(sub, sizeof(sub), "%s/1/x/file", dead);
	put_file(sub, 0600);
	/* This process's own (live), and a dead one deeper than pmustat makes. */
	snprintf(live, sizeof(live), "s/pmustat-sim.%ld-%llu-BBBBBB", pid, owner_start(pid));
	mkdir_at(live);
	snprintf(deep, sizeof(deep), "s/pmustat-calls.%ld-2-CCCCCC", pid);
	mkdir_at(deep);
	snprintf(sub, sizeof(sub), "%s/a", deep);
	mkdir_at(sub);
	snprintf(sub, sizeof(sub), "%s/a/b", deep);
	mkdir_at(sub);
	snprintf(sub, sizeof(sub), "%s/a/b/c", deep);
	mkdir_at(sub);

	assert_int_equal(tmpdir_sweep(&removed), 1);
	strbuf_addf(&want, "%s", dead_path);
	assert_string_equal(removed.buf, want.buf);
	assert_false(exists_at(dead));
	assert_true(exists_at("keep/file"));
	assert_true(exists_at(live));
	assert_true(exists_at(sub));
	assert_int_equal(tmpdir_sweep(NULL), 0);

	for (const char *const *r = (const char *const[]){ "/a/b/c", "/a/b", "/a", "", NULL };
	     *r; r++) {
		snprintf(sub, sizeof(sub), "%s%s", deep, *r);
		rm_at(sub);
	}
	rm_at(live);
	rm_at("s");
	rm_at("keep/file");
	rm_at("keep");
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
	free(tmp);
	free(keep);
	free(dead_path);
	strbuf_release(&removed);
	strbuf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search_order),
		cmocka_unit_test(test_empty_entries),
		cmocka_unit_test(test_slash_and_environment),
		cmocka_unit_test(test_tmpdir),
		cmocka_unit_test(test_sweep),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
