/*
 * The classic engine's own rules, white-box (kernel/rcu/classic/), in the
 * suites the engine's boots run; each test skips on the tree.
 *
 * cpu_down() takes a CPU out of the scheduler's online set while the CPU
 * may still be finishing a reader (kernel/hotplug.c, step 1). The classic
 * engine keeps its own set, which the CPU leaves itself in
 * rcu_cpu_dying(), so a batch that starts in that window still waits for
 * the CPU. A batch built from the scheduler's online set would leave it
 * out, and end under its reader; the torture meets that window only
 * when a CPU goes down inside a reader, so this test holds it open, as
 * test_rcu_tree.c does for the tree.
 */
#if !CONFIG_PREEMPT_RCU
#include "kernel/rcu/classic/classic.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/smp_call.h"
#include "kernel/test/ktest.h"

static bool holder_inside, holder_release;

static void hold_reader_until_released(void *unused)
{
	(void)unused;
	rcu_read_lock();
	WRITE_ONCE(holder_inside, true);
	while (!READ_ONCE(holder_release))
		arch_cpu_relax();
	rcu_read_unlock();
}

KTEST_ON_CPU(hotplug, classic_batch_waits_for_a_cpu_leaving_the_online_set,
	     0)
{
	struct thread *holder;
	bool owed, ended_under_reader;
	unsigned long snap;

	if (rcu_engine != &rcu_classic_engine)
		KTEST_SKIP("tests the classic engine; rcu.engine=tree runs");
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to hold a reader");
	WRITE_ONCE(holder_inside, false);
	WRITE_ONCE(holder_release, false);
	holder = thread_create_on(hold_reader_until_released, NULL,
				  "reader_holder", 1);
	KASSERT_TRUE(holder != NULL);
	while (!READ_ONCE(holder_inside))
		sleep_ms(1);
	/* cpu_down()'s first step, with cpu1 still inside its reader. */
	smp_call_set_online(1, false);
	snap = rcu_gp_snap();
	rcu_request_gp(snap);
	/* Until the batch that ends at snap runs (it begins at snap - 1),
	 * or has ended already (the bug): neither waits on the clock. */
	while (READ_ONCE(rcu_ctrlblk.gp_seq) != snap - 1 && !rcu_gp_done(snap))
		sleep_ms(1);
	owed = classic_peek_owes(1);
	/* Were cpu1 left out, cpu0 reports within a few ticks and the
	 * batch ends. */
	sleep_ms(20);
	ended_under_reader = rcu_gp_done(snap);
	smp_call_set_online(1, true);
	WRITE_ONCE(holder_release, true);
	thread_join(holder);
	KEXPECT_TRUE(owed);
	KEXPECT_FALSE(ended_under_reader);
	synchronize_rcu();
}
#endif
