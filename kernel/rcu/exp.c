/*
 * Expedited grace periods: instead of waiting for every CPU to schedule,
 * IPI every CPU that is not idle. A CPU that the IPI finds outside any
 * reader (preempt_count 0 in the interrupted code: interrupts do not
 * raise it) reports at once; one inside a reader gets need_resched, so
 * its outermost rcu_read_unlock() (preempt_enable) goes through
 * schedule() and reports there; idle entry and the tick report too.
 *
 * Concurrent callers share the work through exp_seq, numbered like
 * gp_seq: a caller that finds, once it holds exp_mutex, that a whole
 * expedited grace period has run since it arrived, returns at once.
 */
#include "internal.h"
#include "kernel/sched/mutex.h"
#include "kernel/time.h"
#include "kernel/ipi.h"
#include "kernel/init.h"
#include "lib/atomic.h"

static DEFINE_MUTEX(exp_mutex);
static unsigned long exp_seq;
static unsigned int exp_outstanding;
static DEFINE_WAIT_QUEUE(exp_wait);
u64 rcu_exp_completed;
u64 rcu_exp_latency_last_ns;

/* This CPU is outside any reader: report, if it still owes. */
void rcu_exp_report_here(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];
	unsigned long flags = arch_irq_save();

	/* Exchange, not a plain store: the requester may be clearing the
	 * flag of a CPU it saw idle at the same moment. */
	if (xchg(&rdp->exp_pending, false)) {
		/* The locked decrement orders this CPU's earlier reads
		 * before the waiter's acquire load of the count. */
		if (atomic_sub_return(&exp_outstanding, 1) == 0)
			wake_up_all(&exp_wait);
	}
	arch_irq_restore(flags);
}

/* The IPI of synchronize_rcu_expedited(), on each CPU it waits for. */
static void exp_ipi_handler(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];

	if (!READ_ONCE(rdp->exp_pending))
		return;
	if (preempt_count() == 0) {
		rcu_exp_report_here();
		return;
	}
	/* Inside a reader (or any preempt-disabled region): report at
	 * its end, through schedule(). */
	WRITE_ONCE(this_cpu()->need_resched, 1);
}

/* Backstop for a reader that ended with interrupts off, so that its
 * preempt_enable() could not schedule. */
void rcu_exp_tick(void)
{
	if (READ_ONCE(rcu_data[this_cpu_id()].exp_pending) &&
	    preempt_count() == 0)
		rcu_exp_report_here();
}

__init void rcu_exp_init(void)
{
	arch_set_ipi_handler(IPI_RCU_EXPEDITE, exp_ipi_handler);
}

static bool exp_done(void)
{
	return smp_load_acquire(&exp_outstanding) == 0;
}

void synchronize_rcu_expedited(void)
{
	unsigned long snap;
	unsigned int cpu, me, n = 0;
	u64 start;

	/* As get_state_synchronize_rcu(): our updates before the sample. */
	smp_mb();
	snap = rcu_seq_snap(READ_ONCE(exp_seq));
	mutex_lock(&exp_mutex);
	if (rcu_seq_done(READ_ONCE(exp_seq), snap)) {
		mutex_unlock(&exp_mutex);
		return;		/* someone else's expedited GP covered us */
	}
	start = clock_ns();
	WRITE_ONCE(exp_seq, exp_seq + 1);
	preempt_disable();
	me = this_cpu_id();
	/* Count first, so that no report can bring it to zero early. */
	WRITE_ONCE(exp_outstanding, 1);
	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		WRITE_ONCE(rcu_data[cpu].exp_pending, true);
		n++;
	}
	atomic_fetch_add(&exp_outstanding, n);
	/* Full barrier (the locked add above): the flags and our updates
	 * are visible before we read the idle counters; pairs with the
	 * barrier in rcu_idle_exit(), as in gp_start(). */
	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		if (READ_ONCE(rcu_data[cpu].eqs_seq) & 1) {
			/* Idle: it owes nothing. Clear its flag unless it
			 * woke and reported meanwhile. */
			if (xchg(&rcu_data[cpu].exp_pending, false))
				atomic_sub_return(&exp_outstanding, 1);
		} else {
			arch_send_ipi(cpu, IPI_RCU_EXPEDITE);
		}
	}
	preempt_enable();
	/* This thread is outside any reader: drop its own count. */
	if (atomic_sub_return(&exp_outstanding, 1) == 0)
		wake_up_all(&exp_wait);
	wait_event(&exp_wait, exp_done());
	/* Release: pairs with the snapshot read of a later caller. */
	smp_store_release(&exp_seq, exp_seq + 1);
	rcu_exp_completed++;
	rcu_exp_latency_last_ns = clock_ns() - start;
	mutex_unlock(&exp_mutex);
}
