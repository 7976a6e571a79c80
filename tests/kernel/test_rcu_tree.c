/*
 * The rcu suite, white-box: the combining tree's own rules, checked
 * against its state (kernel/rcu/internal.h) where a black-box test would
 * need a rare interleaving. A report is for one grace period: a late
 * report for the last one must not clear the holdout's bit in the next.
 * Without that check the make mutants run of this stop let
 * report_for_stale_gp survive, since the torture meets the interleaving
 * (an idle CPU's interrupt reporting late) only now and then.
 */
#include "kernel/rcu/internal.h"
#include "kernel/sched/sched.h"
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

KTEST(rcu, stale_report_does_not_end_the_next_grace_period)
{
	struct rcu_data *rdp = &rcu_data[1];
	unsigned long stale, snap;
	struct thread *holder;
	bool bit_set, ended_under_reader;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to hold a reader");
	synchronize_rcu();
	/* The value gp_seq had while the grace period just ended ran. */
	stale = READ_ONCE(rcu_state.gp_seq) - 1;
	WRITE_ONCE(holder_inside, false);
	WRITE_ONCE(holder_release, false);
	holder = thread_create_on(hold_reader_until_released, NULL,
				  "stale_holder", 1);
	KASSERT_TRUE(holder != NULL);
	while (!READ_ONCE(holder_inside))
		sleep_ms(1);
	/* A grace period that must wait for cpu1's reader. */
	snap = rcu_gp_snap();
	rcu_request_gp(snap);
	while (!(READ_ONCE(rcu_state.gp_seq) & 1))
		sleep_ms(1);
	bit_set = READ_ONCE(rdp->leaf->qsmask) & rdp->leaf_bit;
	/* cpu1's report for the last grace period arrives late. */
	rcu_report_qs(1, stale);
	/* Ticks enough for the grace-period thread to end it, were the bit
	 * gone: cpu0 reports at its next context switch. */
	sleep_ms(20);
	ended_under_reader = rcu_gp_done(snap);
	WRITE_ONCE(holder_release, true);
	thread_join(holder);
	KEXPECT_TRUE(bit_set);
	KEXPECT_FALSE(ended_under_reader);
	synchronize_rcu();
}
