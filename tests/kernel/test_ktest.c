/*
 * The runner's own checks. Its watchdog (ktest=ktest_watchdog, named only by its
 * boot in tests/boots.txt, which expects the failure): a test that
 * overruns its timeout is reported not ok, the rest of its suite is
 * skipped rather than run beside its abandoned threads, and the run is
 * marked tainted.
 */
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/rcu/rcupdate.h"
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

/*
 * Fixtures and the leak check (ktest=ktest_fixture, named only by its boot
 * in tests/boots.txt, which expects the failures): a test whose setup
 * failed is skipped, naming the setup, and never runs on what the setup
 * did not make; memory a setup keeps for the tests that need it is no
 * leak; memory a test keeps without saying so is, to the object.
 */
#define FIXTURE_OBJECT_SIZE	64

static void *fixture_object;

KTEST_SLOW(ktest_fixture, setup_that_fails, 1000)
{
	KTEST_FAIL("this setup fails on purpose");
}

KTEST_DEFINE(ktest_fixture, needs_the_failed_setup, KTEST_ANY_CPU, 1000,
	     true, KTEST_NEEDS_TEST(ktest_fixture, setup_that_fails))
{
	KTEST_FAIL("ran although the setup it needs failed");
}

KTEST_DEFINE(ktest_fixture, needs_what_was_skipped, KTEST_ANY_CPU, 1000,
	     true, KTEST_NEEDS_TEST(ktest_fixture, needs_the_failed_setup))
{
	KTEST_FAIL("ran although the setup it needs, indirectly, failed");
}

KTEST_SLOW(ktest_fixture, setup_keeps_an_object, 1000)
{
	fixture_object = kmalloc(FIXTURE_OBJECT_SIZE);
	KASSERT_TRUE(fixture_object != NULL);
}

KTEST_DEFINE(ktest_fixture, frees_what_its_setup_kept, KTEST_ANY_CPU, 1000,
	     true, KTEST_NEEDS_TEST(ktest_fixture, setup_keeps_an_object))
{
	(void)t;
	kfree(fixture_object);
	fixture_object = NULL;
}

KTEST_SLOW(ktest_fixture, setup_keeps_another_object, 1000)
{
	fixture_object = kmalloc(FIXTURE_OBJECT_SIZE);
	KASSERT_TRUE(fixture_object != NULL);
}

KTEST_DEFINE(ktest_fixture, forgets_what_its_setup_kept, KTEST_ANY_CPU, 1000,
	     true, KTEST_NEEDS_TEST(ktest_fixture, setup_keeps_another_object))
{
	(void)t;
	fixture_object = NULL;
}

KTEST_SLOW(ktest_fixture, leaks_three_objects_and_a_page, 1000)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		KEXPECT_TRUE(kmalloc(FIXTURE_OBJECT_SIZE) != NULL);
	KEXPECT_TRUE(kmalloc(2 * PAGE_SIZE) != NULL);
}

static void returns_at_once(void *unused)
{
	(void)unused;
}

KTEST_SLOW(ktest_fixture, leaves_a_thread_unjoined, 1000)
{
	KEXPECT_TRUE(thread_create(returns_at_once, NULL, "unjoined") != NULL);
}

KTEST_SLOW(ktest_fixture, frees_with_kfree_rcu, 1000)
{
	struct freed_later {
		struct rcu_head rcu;
	} *p = kmalloc(sizeof(*p));

	KASSERT_TRUE(p != NULL);
	kfree_rcu(p, rcu);
}
