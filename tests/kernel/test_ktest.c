/*
 * The runner's own watchdog (ktest=ktest_watchdog, named only by its
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
