/*
 * Callbacks that move off a CPU going down still wait for the readers
 * that began before they were queued. The surviving CPU that adopts them
 * must give them a grace period that begins after they moved, never one
 * that began before they were queued, nor none. callbacks_move_and_run_once
 * (test_hotplug.c) has no reader to see a callback run early, and a blind
 * mutant of the classic engine that put adopted callbacks on the
 * adopter's current list, under its old batch number, passed every boot
 * (classic_dead_joins_curlist). Here a reader on cpu2 holds from before
 * the callbacks are queued on cpu1 until cpu1 is down and the adopting
 * CPU has ticked twenty times since.
 */
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "lib/atomic.h"

#define MOVED_CBS	16u
#define ADOPTER_TICKS	20

static bool reader_inside, reader_release, ran_under_reader;
static unsigned int moved_ran;
static struct rcu_head moved_heads[MOVED_CBS];

/* reader_inside is cleared inside the section, before its unlock: a
 * callback that still sees it set ran under the reader. */
static void hold_reader(void *unused)
{
	(void)unused;
	rcu_read_lock();
	WRITE_ONCE(reader_inside, true);
	while (!READ_ONCE(reader_release))
		arch_cpu_relax();
	WRITE_ONCE(reader_inside, false);
	rcu_read_unlock();
}

static void note_moved_run(void *unused)
{
	(void)unused;
	if (READ_ONCE(reader_inside))
		WRITE_ONCE(ran_under_reader, true);
	atomic_add_relaxed(&moved_ran, 1);
}

static void queue_moved_callbacks(void *unused)
{
	unsigned int i;

	(void)unused;
	for (i = 0; i < MOVED_CBS; i++)
		call_rcu(&moved_heads[i], note_moved_run, NULL);
}

/* On cpu0, which adopts cpu1's callbacks (rcu_cpu_dead() runs on the
 * CPU that calls cpu_down()). */
KTEST_DEFINE(hotplug, moved_callbacks_wait_for_older_readers, 0, 120000,
	     false)
{
	struct thread *reader, *queuer;
	bool ran_early;
	u64 ticks;

	if (nr_cpus < 3)
		KTEST_SKIP("needs 3 CPUs: a reader on cpu2 while cpu1 goes "
			   "down");
	WRITE_ONCE(reader_inside, false);
	WRITE_ONCE(reader_release, false);
	WRITE_ONCE(ran_under_reader, false);
	WRITE_ONCE(moved_ran, 0);
	reader = thread_create_on(hold_reader, NULL, "old_reader", 2);
	KASSERT_TRUE(reader != NULL);
	while (!READ_ONCE(reader_inside))
		sleep_ms(1);
	queuer = thread_create_on(queue_moved_callbacks, NULL, "queue_cbs", 1);
	KASSERT_TRUE(queuer != NULL);
	thread_join(queuer);
	KASSERT_EQ(cpu_down(1), 0);
	/* Counted in ticks, not time: each tick of the adopter may move
	 * its lists along, and a host that runs it late only waits longer. */
	ticks = READ_ONCE(cpu_area(0)->ticks);
	while (READ_ONCE(cpu_area(0)->ticks) < ticks + ADOPTER_TICKS)
		sleep_ms(1);
	ran_early = READ_ONCE(ran_under_reader);
	WRITE_ONCE(reader_release, true);
	thread_join(reader);
	rcu_barrier();
	KEXPECT_FALSE(ran_early);
	KEXPECT_EQ(READ_ONCE(moved_ran), MOVED_CBS);
	KEXPECT_EQ(cpu_up(1), 0);
}
