/*
 * Where unit tests find the recorded machines: under $PMUSTAT_TEST_FIXTURES,
 * else tests/fixtures (make runs the tests from the top of the tree).
 * use_fixture() points PMUSTAT_SYSFS_ROOT and PMUSTAT_PROC_ROOT at one of
 * them, as the tool is pointed at a recorded machine, and drops
 * PMUSTAT_CPU and PMUSTAT_UARCH so that the machine's own identity counts.
 */
#ifndef PMU_TESTS_FIXTURES_H
#define PMU_TESTS_FIXTURES_H

#include <stdlib.h>

#include "core/strbuf.h"

static inline void use_fixture(const char *machine)
{
	const char *dir = getenv("PMUSTAT_TEST_FIXTURES");
	struct strbuf sb = STRBUF_INIT;

	if (!dir || !*dir)
		dir = "tests/fixtures";
	strbuf_addf(&sb, "%s/%s/sys", dir, machine);
	setenv("PMUSTAT_SYSFS_ROOT", sb.buf, 1);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/%s/proc", dir, machine);
	setenv("PMUSTAT_PROC_ROOT", sb.buf, 1);
	strbuf_release(&sb);
	unsetenv("PMUSTAT_CPU");
	unsetenv("PMUSTAT_UARCH");
}

#endif
