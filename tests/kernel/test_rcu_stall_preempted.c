/*
 * rcu_stall, continued, in the preemptible flavour: a reader preempted
 * inside its section and held there past rcu.stall_timeout_ms holds up
 * the grace period with no CPU to blame, so the warning must name the
 * reader itself, from the list of the wait that stalls (gp_tasks for a
 * normal grace period, exp_tasks for an expedited one). The reader holds
 * its section until a second warning has been counted, never for a time:
 * the count goes up before a warning prints, so only the second count
 * says that the first warning has been printed whole. The boot line of
 * tests/boots-preempt.txt checks the lines that name the reader.
 */
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/sched.h"
#include "kernel/test/ktest.h"
#include "test_rcu_preempt.h"
#include "test_rcu_stall.h"
#include "arch.h"

#if CONFIG_PREEMPT_RCU

struct stalled_reader {
	bool expedited;		/* which warning it waits for */
	u64 until;		/* that warning's count to reach */
	bool queued;
};

/* Preempts itself inside its section, which queues it on its leaf as
 * any preemption would, then holds the section until the warning. */
static void read_through_a_stall(void *arg)
{
	struct stalled_reader *r = arg;

	rcu_read_lock();
	preempt_schedule();
	WRITE_ONCE(r->queued, true);
	while (stalls_of(r->expedited) < r->until)
		arch_cpu_relax();
	rcu_read_unlock();
}

/* The reader is queued on cpu1's leaf before `wait` begins its grace
 * period, so that grace period's list starts with it. */
static void stall_on_a_preempted_reader(struct ktest_context *t,
					void (*wait)(void), bool expedited)
{
	struct stalled_reader r = { .expedited = expedited };
	struct thread *reader;

	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU for the reader");
	r.until = stalls_of(expedited) + 2;
	reader = thread_create_on(read_through_a_stall, &r, "stalled_reader",
				  1);
	KASSERT_TRUE(reader != NULL);
	while (!READ_ONCE(r.queued) || !leaf_has_reader(1))
		sleep_ms(1);
	wait();		/* ends once the reader has left, after the warning */
	thread_join(reader);
	KEXPECT_GE(stalls_of(expedited), r.until);
}

KTEST_SLOW(rcu_stall, warning_names_the_preempted_reader, 60000)
{
	stall_on_a_preempted_reader(t, synchronize_rcu, false);
}

KTEST_SLOW(rcu_stall, expedited_warning_names_the_preempted_reader, 60000)
{
	stall_on_a_preempted_reader(t, synchronize_rcu_expedited, true);
}

#endif
