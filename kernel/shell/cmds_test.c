/* The shell's test: the self-tests again, in KTAP, as at boot. */
#include "shell.h"
#include "kernel/printk.h"
#include "kernel/test/ktest.h"
#include "lib/string.h"

#define SPEC_MAX	256

struct test_job {
	char spec[SPEC_MAX];
	bool stop;
	bool passed;
};

static void test_body(void *arg)
{
	struct test_job *job = arg;

	job->passed = ktest_run_until(job->spec, &job->stop);
}

static void cmd_test(int argc, char **argv)
{
	struct test_job job;

	if (argc >= 2 && !strcmp(argv[1], "-l")) {
		if (shell_max_args(argc, argv, 1))
			shell_print_names("suites", ktest_suite_name);
		return;
	}
	if (!shell_spec_from_words(argc, argv, 1, ktest_suite_name, "suite",
				   job.spec, sizeof(job.spec)))
		return;
	console_printf("test: %s; Ctrl-C skips the tests not yet begun\n",
		       job.spec);
	if (!shell_run_long("test", test_body, &job, &job.stop, -1))
		return;
	if (job.stop)
		console_printf("test: stopped by Ctrl-C; the tests after it "
			       "were skipped\n");
	console_printf("test: %s\n", job.passed ? "PASS" : "FAIL");
}
SHELL_COMMAND("test", "test [-l | SUITE...]",
	      "run the self-tests again, printed as KTAP\n"
	      "No SUITE: every suite not marked slow (as ktest=all); -l lists "
	      "the suites. Ctrl-C skips the tests not yet begun.", cmd_test);
