/*
 * run/srun.h without Slurm: srun_run on a real program standing in for
 * srun (its stderr shown and kept, its exit code returned), and the line
 * of Slurm's messages an error quotes, on messages srun and slurmstepd
 * print (Slurm 22.05).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "run/srun.h"

static void test_run(void **state)
{
	char *argv[] = { "/bin/sh", "-c", "echo 'srun: error: vm: task 1: Exited' >&2; exit 3",
			 NULL };
	struct strbuf msg = STRBUF_INIT;
	struct error err;
	int devnull = open("/dev/null", O_WRONLY);

	(void)state;
	error_clear(&err);
	assert_int_equal(srun_run(argv, devnull, &msg, &err), 3);
	assert_string_equal(msg.buf, "srun: error: vm: task 1: Exited\n");
	strbuf_release(&msg);
	close(devnull);
}

static void test_line(void **state)
{
	char line[256];

	(void)state;
	srun_telling_line("/usr/bin/srun: unrecognized option '--x'\n"
			  "Try \"srun --help\" for more information\n", line, sizeof(line));
	assert_string_equal(line, "/usr/bin/srun: unrecognized option '--x'");
	srun_telling_line("srun: error: invalid partition specified: p\n"
			  "srun: error: Unable to allocate resources: Invalid partition name "
			  "specified\n", line, sizeof(line));
	assert_string_equal(line, "srun: error: Unable to allocate resources: Invalid partition "
				  "name specified");
	srun_telling_line("srun: Job step aborted: Waiting up to 32 seconds\n"
			  "slurmstepd-vm: error: *** STEP 2.0 ON vm CANCELLED AT 2026-12-01T15:08:35 "
			  "DUE TO TIME LIMIT ***\nsrun: error: vm: tasks 0-1: Terminated\n",
			  line, sizeof(line));
	assert_string_equal(line, "slurmstepd-vm: error: *** STEP 2.0 ON vm CANCELLED AT "
				  "2026-12-01T15:08:35 DUE TO TIME LIMIT ***");
	srun_telling_line("", line, sizeof(line));
	assert_string_equal(line, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
