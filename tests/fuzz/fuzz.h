/*
 * What the fuzz harnesses share. Each harness (tests/fuzz/fuzz_NAME.c) is one
 * parser's entry point behind libFuzzer's LLVMFuzzerTestOneInput, built two
 * ways from the same source: with clang's -fsanitize=fuzzer for `make fuzz`,
 * and with replay.c's main() under the ordinary (gcc, ASan+UBSan) build, so
 * that `make check` replays the seed corpus and every crash found once
 * (tests/fuzz/regress/NAME/) without needing clang.
 *
 * The helpers abort when the harness itself cannot work (no temporary
 * directory, a fixture that does not load): that is a broken tree, not a
 * finding about the input.
 */
#ifndef PMU_TESTS_FUZZ_H
#define PMU_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "backend/sample.h"
#include "result/result.h"

#ifndef FUZZ_SRCROOT
#define FUZZ_SRCROOT "."
#endif
#define FUZZ_FIXTURES FUZZ_SRCROOT "/tests/fixtures"
#define FUZZ_DATA FUZZ_SRCROOT "/data"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input up to its first NUL, as a C string (malloc'd). */
char *fuzz_cstr(const uint8_t *data, size_t size);

/* A directory of this process's own, created on first use and removed
 * with everything in it at exit. */
const char *fuzz_tmpdir(void);

/* "<fuzz_tmpdir()>/<name>", malloc'd. */
char *fuzz_path(const char *name);

/* Create or truncate path and write data to it. */
void fuzz_write(const char *path, const void *data, size_t size);

/* Stop with a message: the harness, not the input, is broken. */
void fuzz_die(const char *what, const char *why) __attribute__((noreturn));

/* Every renderer behind `pmustat report`, on a result that loaded: the
 * stat and compare tables (with and without colour), HTML, CSV (into the
 * temporary directory), the JSON document, and a merge with itself. */
void fuzz_render_result(struct result *r);

/*
 * Lay bytes out as a perf ring buffer of one page (a metadata page, then
 * the data), the records starting at byte start * page / 256 and wrapping
 * at the end of the page as the kernel's do, and point set at it (one
 * CPU): sample_read(set, ...) then reads them as it reads the kernel's.
 * set's options (event, chain, uprobe ids) are the caller's; the ring is
 * the harness's own, reused by the next call.
 */
void fuzz_ring(struct sample_set *set, uint8_t start, const uint8_t *bytes, size_t len);

#endif
