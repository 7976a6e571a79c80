/*
 * Expedited grace periods: instead of waiting for every CPU to schedule,
 * IPI every CPU that is not idle. A CPU that the IPI finds outside any
 * reader (preempt_count 0 in the interrupted code: interrupts do not
 * raise it; in the preemptible flavour, its read-side depth 0 too)
 * reports at once; one inside a reader gets need_resched, so it goes
 * through schedule() at its next preemption point and reports there
 * (its outermost rcu_read_unlock(), or, in the preemptible flavour, the
 * interrupt's exit, where the switch queues the reader for the leaf to
 * answer for: kernel/rcu/preempt/); idle entry and the tick report too.
 *
 * Concurrent callers share the work through exp_seq, numbered like
 * gp_seq: a caller that finds, once it holds exp_mutex, that a whole
 * expedited grace period has run since it arrived, returns at once.
 */
#include "tree.h"
#include "lib/bitops.h"
#include "kernel/init.h"
#include "kernel/ipi.h"
#include "kernel/printk.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/timer.h"
#include "kernel/time.h"
#include "kernel/race.h"
#include "lib/atomic.h"
#include "lib/format.h"

static DEFINE_MUTEX(exp_mutex);
static unsigned long exp_seq;
static unsigned int exp_outstanding;
static DEFINE_WAIT_QUEUE(exp_wait);
u64 rcu_exp_completed;
u64 rcu_exp_latency_last_ns;
u64 rcu_exp_stalls;
/* Armed while a caller waits for the reports; its callback runs from
 * the tick of the waiter's CPU. */
static struct timer exp_stall_timer;
static u64 exp_start_ns;

/* This CPU is outside any reader: report, if it still owes. */
void rcu_exp_report_here(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];
	unsigned long flags = arch_irq_save();

	if (rcu_exp_claim(rdp)) {
		/* The locked decrement orders this CPU's earlier reads
		 * before the waiter's acquire load of the count, in
		 * exp_done(). */
		if (atomic_sub_return(&exp_outstanding, 1) == 0)
			wake_up_all(&exp_wait);
	}
	arch_irq_restore(flags);
}

/* The IPI of synchronize_rcu_expedited(), on each CPU it waits for. */
static void exp_ipi_handler(void)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];

	/* The requester set the flag before its locked add and the IPI, so
	 * it is seen here; false means reported already, or a late IPI
	 * (the claim itself is rcu_exp_claim()). */
	if (!READ_ONCE(rdp->exp_pending))
		return;
	if (rcu_preempt_outside_reader()) {
		rcu_exp_report_here();
		return;
	}
	/* Inside a reader (or any preempt-disabled region): report at
	 * the next pass through schedule() (see the header). Our own CPU's
	 * flag, read by its preempt_enable() and the interrupt's exit:
	 * program order suffices; ONCE because other CPUs set it too
	 * (resched_cpu()). */
	WRITE_ONCE(this_cpu()->need_resched, 1);
}

/* Backstop for a reader that ended with interrupts off, so that its
 * preempt_enable() could not schedule. */
void rcu_exp_tick(void)
{
	/* A hint: rcu_exp_report_here() claims the flag. */
	if (READ_ONCE(rcu_data[this_cpu_id()].exp_pending) &&
	    rcu_preempt_outside_reader())
		rcu_exp_report_here();
}

__init void rcu_exp_init(void)
{
	arch_set_ipi_handler(IPI_RCU_EXPEDITE, exp_ipi_handler);
}

/* A CPU that owes the expedited grace period and took too few ticks for
 * its age, though awake: a vCPU the host did not run. One that idles and
 * still owes is no victim of the host: idle entry reports, and its tick
 * stops, so its missing ticks would hide that bug. */
static bool exp_holdout_starved(unsigned int cpu, u64 age_ms)
{
	const struct rcu_data *rdp = &rcu_data[cpu];

	return !(READ_ONCE(rdp->eqs_seq) & 1) &&
	       rcu_vcpu_starved(READ_ONCE(cpu_area(cpu)->ticks) -
				rdp->exp_ticks_snapshot, age_ms);
}

/*
 * An expedited grace period still waiting rcu.stall_timeout_ms after it
 * began: name the CPUs that owe it a report, and what each is running,
 * as the normal stall warning does. Lock-free snapshots; nothing is
 * ordered. Rearms itself until synchronize_rcu_expedited() cancels it.
 *
 * As the normal warning does too, it says when the host alone is to
 * blame: every CPU that owes was a vCPU the host hardly ran, and no
 * preempted reader holds a report. The count is read before the flags:
 * a CPU claims its flag before it drops its count, so a report made
 * between the two reads leaves fewer flags than counts, never a reader's
 * held report hidden by a flag cleared late.
 */
static void exp_stall_warn(void *unused)
{
	unsigned int outstanding = READ_ONCE(exp_outstanding);
	u64 age_ms = (clock_ns() - exp_start_ns) / NSEC_PER_MSEC;
	unsigned int cpu, shown = 0, starved = 0;
	struct cpumask owing;
	char owed[96];

	(void)unused;
	rcu_exp_stalls++;	/* this callback only; read lock-free */
	cpumask_clear(&owing);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!READ_ONCE(rcu_data[cpu].exp_pending))
			continue;
		cpumask_set(&owing, cpu);
		starved += exp_holdout_starved(cpu, age_ms);
	}
	bitmap_format_ranges(owed, sizeof(owed), owing.bits, MAX_CPUS);
	/* "{ 1-3 }", or "{ }" when only preempted readers hold it up. */
	pr_err("rcu: INFO: rcu detected expedited stalls on CPUs: {%s%s } "
	       "%llu ms old, expedited seq %lu\n", owed[0] ? " " : "", owed,
	       age_ms, READ_ONCE(exp_seq));
	/* The first few in full, as the normal warning (engine.h). */
	for (cpu = 0; cpu < nr_cpus && shown < RCU_STALL_CPUS_IN_FULL; cpu++) {
		struct thread *t = READ_ONCE(cpu_area(cpu)->current);
		const char *offline = rcu_offline_stall_verdict(cpu);

		if (!cpumask_test(&owing, cpu))
			continue;
		shown++;
		pr_err("rcu:     cpu%u: running %s, preempt_count %u, "
		       "need_resched %u%s%s\n", cpu, t ? t->name : "?",
		       READ_ONCE(cpu_area(cpu)->preempt_count),
		       READ_ONCE(cpu_area(cpu)->need_resched),
		       offline ? ": " : "", offline ? offline : "");
	}
	if (cpumask_weight(&owing) > shown)
		pr_err("rcu:     and %u more\n", cpumask_weight(&owing) - shown);
	rcu_preempt_show_blocked(true);
	pr_err("rcu:     %u reports outstanding\n", READ_ONCE(exp_outstanding));
	if (starved && starved == cpumask_weight(&owing) &&
	    outstanding <= starved)
		pr_warn("rcu: the expedited stall warning of expedited seq %lu "
			"at %llu ms named only vCPUs the host starved: not a "
			"kernel bug\n", READ_ONCE(exp_seq), age_ms);
	timer_rearm(&exp_stall_timer,
		    clock_ns() + rcu_stall_timeout_ms * NSEC_PER_MSEC);
}

/* Acquire: pairs with the fully ordered decrements in
 * rcu_exp_report_here() and synchronize_rcu_expedited(), so every
 * reported CPU's earlier readers are over before we return. */
static bool exp_done(void)
{
	return smp_load_acquire(&exp_outstanding) == 0;
}

/**
 * synchronize_rcu_expedited - wait for a grace period forced with IPIs
 *
 * Context: thread context with preemption and interrupts enabled, after
 * rcu_init(); sleeps (on a mutex and for the reports), so never inside
 * rcu_read_lock(), with a spinlock held or in an interrupt handler.
 * Sends an IPI to every online CPU that is not idle and returns once
 * each has been seen outside any reader, without waiting for ticks.
 * Concurrent callers share one expedited grace period where they can.
 * Guarantees as synchronize_rcu(): every reader that began before the
 * call has ended, and its accesses happen before the caller's later
 * ones; a reader still running at the return sees every update the
 * caller made before the call.
 */
void rcu_tree_synchronize_expedited(void)
{
	unsigned long snap;
	unsigned int cpu, me, n = 0;
	u64 start;

	/* As rcu_gp_snap(): our updates before the sample.
	 * Pairs with the locked add on exp_outstanding below, which
	 * follows the store that starts an expedited grace period: one
	 * that starts after this read sees our updates. The lock-free
	 * read needs no more: a stale value is smaller, so at worst we
	 * wait for a later grace period than we need. */
	smp_mb();
	snap = rcu_seq_snap(READ_ONCE(exp_seq));
	mutex_lock(&exp_mutex);
	/* exp_seq is written only under exp_mutex, which orders the last
	 * holder's grace period, its reports included, before this read. */
	if (rcu_seq_done(READ_ONCE(exp_seq), snap)) {
		mutex_unlock(&exp_mutex);
		return;		/* someone else's expedited GP covered us */
	}
	start = clock_ns();
	exp_start_ns = start;	/* exp_mutex; read by exp_stall_warn() */
	/* Odd: one runs. Ordered before the idle counters are read by the
	 * locked add below; later callers' snapshots read it lock-free. */
	WRITE_ONCE(exp_seq, exp_seq + 1);
	preempt_disable();
	me = this_cpu_id();
	trace_event(TRACE_RCU, me, TRACE_EXP_START, 0,
		    rcu_gp_number(exp_seq), 0);
	/* Our own hold on the count, dropped only once every flag is set
	 * and counted, so exp_done() cannot see zero early. (A CPU that
	 * reports before the add below may take the count to zero for a
	 * moment; nobody waits yet, so its wake-up is spurious.) */
	WRITE_ONCE(exp_outstanding, 1);
	/* Every CPU, not only the online ones: a CPU going offline is out
	 * of the online set while it may still finish a reader. Parked
	 * CPUs are in an extended quiescent state, and are cleared below. */
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (cpu == me)
			continue;
		/* Release: a CPU that sees its flag (the claim in
		 * rcu_exp_report_here()) decrements a count that already
		 * holds our 1, never the 0 left by the last grace period.
		 * Free on x86-TSO, where stores stay in order anyway. */
		smp_store_release(&rcu_data[cpu].exp_pending, true);
		rcu_data[cpu].exp_ticks_snapshot =
			READ_ONCE(cpu_area(cpu)->ticks);
		n++;
	}
	atomic_fetch_add(&exp_outstanding, n);
	/* Readers preempted before now: a count for each leaf that has
	 * them, taken by the flavour before it publishes the leaf's wait,
	 * while our own hold keeps the count above zero. */
	rcu_preempt_exp_start();
	/* Full barrier (the locked add above): the flags and our updates
	 * are visible before we read the idle counters, and before the
	 * IPIs; pairs with the barriers in rcu_idle_exit() and
	 * rcu_irq_enter(), as in rcu_gp_start(). */
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (cpu == me)
			continue;
		/* Odd: the locked increment in rcu_idle_enter() or
		 * rcu_irq_exit() put the CPU's readers before this load, and
		 * the claim below keeps our later accesses after it. Even:
		 * the IPI, or the CPU's own check of its flag before it
		 * goes idle, brings the report. */
		if (READ_ONCE(rcu_data[cpu].eqs_seq) & 1) {
			race_window(RACE_EXP_SCAN);
			/* Idle: it owes nothing. Clear its flag unless it
			 * woke and reported meanwhile. The decrement is
			 * fully ordered, for exp_done(). */
			if (rcu_exp_claim(&rcu_data[cpu]))
				atomic_sub_return(&exp_outstanding, 1);
		} else {
			trace_event(TRACE_RCU, cpu, TRACE_EXP_IPI, 0,
				    rcu_gp_number(exp_seq), 0);
			arch_send_ipi(cpu, IPI_RCU_EXPEDITE);
		}
	}
	preempt_enable();
	/* This thread is outside any reader: drop its own count. Fully
	 * ordered, for exp_done(); if every CPU has reported, it reads
	 * zero below without sleeping. */
	if (atomic_sub_return(&exp_outstanding, 1) == 0)
		wake_up_all(&exp_wait);
	exp_stall_timer.fn = exp_stall_warn;
	timer_add(&exp_stall_timer,
		  start + rcu_stall_timeout_ms * NSEC_PER_MSEC);
	wait_event(&exp_wait, exp_done());
	/* After it returns, exp_stall_warn() is not running and will not
	 * run: no warning about a grace period that is over. */
	timer_cancel(&exp_stall_timer);
	/* Even: this grace period is over. The re-check of a later holder
	 * is ordered by exp_mutex, and a lock-free snapshot needs no
	 * ordering (see above); the release pairs with the acquire in
	 * rcu_exp_seq(), and costs nothing on x86. The
	 * statistics are read lock-free by rcu_get_stats(). */
	smp_store_release(&exp_seq, exp_seq + 1);
	rcu_exp_completed++;
	rcu_exp_latency_last_ns = clock_ns() - start;
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_EXP_END, 0,
		    rcu_gp_number(exp_seq), rcu_exp_latency_last_ns);
	mutex_unlock(&exp_mutex);
}

void rcu_exp_hold_report(void)
{
	/* Under the leaf's lock, with our own hold or an unreported CPU's
	 * count keeping the total above zero: nothing to order. */
	atomic_fetch_add(&exp_outstanding, 1);
}

void rcu_exp_report_leaf(void)
{
	/* Fully ordered, for exp_done(), as rcu_exp_report_here(): the
	 * leaf's readers are over before the waiter's acquire. */
	if (atomic_sub_return(&exp_outstanding, 1) == 0)
		wake_up_all(&exp_wait);
}

/* exp_seq now, for the polled cookies. Acquire: pairs with the release
 * that ends an expedited grace period, so its readers are done before
 * the caller's next accesses. */
unsigned long rcu_tree_exp_seq(void)
{
	return smp_load_acquire(&exp_seq);
}

/* The expedited machinery's part of rcu_show_gp_state(): its sequence,
 * the reports it still waits for, and which CPUs owe them. Lock-free
 * snapshots. */
void rcu_exp_show_state(void)
{
	char owed[128] = "";
	size_t n = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpus && n < sizeof(owed) - 8; cpu++)
		if (READ_ONCE(rcu_data[cpu].exp_pending))
			n += ksnprintf(owed + n, sizeof(owed) - n, " cpu%u", cpu);
	pr_err("rcu: expedited seq %lu (%s), %u reports outstanding, owed "
	       "by:%s\n", READ_ONCE(exp_seq),
	       READ_ONCE(exp_seq) & 1 ? "running" : "idle",
	       READ_ONCE(exp_outstanding), n ? owed : " none");
}
