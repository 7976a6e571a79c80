/*
 * The runner's own checks. Its watchdog (ktest=ktest_watchdog, named only by its
 * boot in tests/boots.txt, which expects the failure): a test that
 * overruns its timeout is reported not ok, the rest of its suite is
 * skipped rather than run beside its abandoned threads, and the run is
 * marked tainted.
 */
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"

KTEST_SLOW(ktest_watchdog, overruns_its_timeout, 300)
{
	(void)t;
	for (;;)
		sleep_ms(100);
}

KTEST_SLOW(ktest_watchdog, follows_the_overrun, 300)
{
	KTEST_FAIL("ran beside the abandoned threads of a timed-out test");
}

/* What a failed check prints (ktest=ktest_report, run by
 * tests/harness-test, which expects the failure): the expression as
 * written, NULL and all, not as the preprocessor expanded it. */
static void *no_object(void)
{
	return NULL;
}

KTEST_SLOW(ktest_report, failure_shows_the_check_as_written, 1000)
{
	KEXPECT_TRUE(no_object() != NULL);
}
