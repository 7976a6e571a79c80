/*
 * The rcutorture suite (ktest=rcutorture), configured by the torture.*
 * options. Slow by design: it runs only when named.
 */
#include "kernel/rcu/torture/rcutorture.h"
#include "kernel/test/ktest.h"

/* On cpu0, which the torture's stutter leaves free for its monitor. */
KTEST_DEFINE(rcutorture, torture, 0, 4 * 3600 * 1000, true)
{
	KEXPECT_TRUE(rcu_torture_run(&torture_cmdline, NULL));
}
