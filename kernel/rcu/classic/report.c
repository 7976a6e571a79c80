/*
 * What the classic engine reports: the stall warning (which 2.6.0 did
 * not have; 2.6.27's classic RCU checked, as here, from every CPU's
 * tick), the statistics, and its state for reports of a hang.
 */
#include "classic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/trace/trace.h"
#include "lib/atomic.h"
#include "lib/bitops.h"
#include "lib/format.h"

/* Batch durations, written under the control block's lock. */
static u64 latency_ns[RCU_LATENCY_RING];
static unsigned int latency_next;	/* published with release */

void classic_record_latency(u64 ns)
{
	latency_ns[latency_next % RCU_LATENCY_RING] = ns;
	/* Release: the sample before the count that shows it; pairs with
	 * the acquire in classic_get_stats(). */
	smp_store_release(&latency_next, latency_next + 1);
}

/* What an owing CPU did since the batch began, and what that says: it
 * takes its snapshot at its first tick that sees the batch, and reports
 * at the first tick after its counter moves. */
static const char *stall_verdict(unsigned int cpu)
{
	const char *offline = rcu_offline_stall_verdict(cpu);
	const struct classic_data *rdp = &classic_data[cpu];
	long last = READ_ONCE(rdp->last_qsctr);

	if (offline)
		return offline;
	if (last == RCU_QSCTR_INVALID)
		return "it has not ticked since the batch began: the host did "
		       "not run this vCPU, or it runs with interrupts off";
	if (READ_ONCE(rdp->qsctr) != last)
		return "its counter moved past its snapshot, yet it did not "
		       "report";
	return "it ticked but never scheduled: a reader or a preempt-off "
	       "region that does not end";
}

static void print_stalled_cpu(unsigned int cpu)
{
	/* Lock-free snapshots of another CPU's state: nothing ordered. */
	const struct classic_data *rdp = &classic_data[cpu];
	struct thread *t = READ_ONCE(cpu_area(cpu)->current);

	pr_err("rcu:     cpu%u: running %s, preempt_count %u, need_resched "
	       "%u, qsctr %ld, last_qsctr %ld, asked to schedule %llu times: "
	       "%s\n", cpu, t ? t->name : "?",
	       READ_ONCE(cpu_area(cpu)->preempt_count),
	       READ_ONCE(cpu_area(cpu)->need_resched), READ_ONCE(rdp->qsctr),
	       READ_ONCE(rdp->last_qsctr), READ_ONCE(rdp->resched_asked),
	       stall_verdict(cpu));
	if (cpu != this_cpu_id())
		arch_backtrace_cpu(cpu);
	else
		arch_dump_stack();
}

/* The first RCU_STALL_CPUS_IN_FULL holdouts in full, the rest in one
 * line (engine.h says why): the control block is the engine's one node.
 * Only the CPU whose tick won the warning under the lock gets here. */
static void report_holdouts(struct cpumask *owing)
{
	unsigned int cpu, in_full = 0, rest = 0, rest_starved = 0;
	char cpus[96];

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!cpumask_test(owing, cpu))
			continue;
		if (in_full < RCU_STALL_CPUS_IN_FULL) {
			in_full++;
			print_stalled_cpu(cpu);
			bitmap_clear_bit(owing->bits, cpu);
			continue;
		}
		rest++;
		rest_starved += READ_ONCE(classic_data[cpu].last_qsctr) ==
				RCU_QSCTR_INVALID;
	}
	atomic_add_relaxed(&rcu_stall_full_reported, in_full);	/* engine.h */
	if (!rest)
		return;
	atomic_add_relaxed(&rcu_stall_rest_reported, rest);
	bitmap_format_ranges(cpus, sizeof(cpus), owing->bits, MAX_CPUS);
	pr_err("rcu:     %u more holdouts, %u of them not ticking since the "
	       "batch began (starved by the host, or interrupts off): cpu%s\n",
	       rest, rest_starved, cpus);
}

/* From every CPU's tick: once per rcu.stall_timeout_ms of a batch's age,
 * one CPU prints the warning. */
void classic_check_stall(void)
{
	struct rcu_ctrlblk *rcp = &rcu_ctrlblk;
	struct cpumask owing;
	unsigned long flags;
	u64 now = clock_ns(), age_ms;
	unsigned long gp;
	bool forced;

	/* Hints, rechecked under the lock. */
	if (!READ_ONCE(rcp->nr_owing) || now < READ_ONCE(rcp->next_stall_ns))
		return;
	flags = classic_lock();
	if (!rcp->nr_owing || now < rcp->next_stall_ns) {
		classic_unlock(flags);
		return;
	}
	WRITE_ONCE(rcp->next_stall_ns,		/* peeked at above */
		   now + rcu_stall_timeout_ms * NSEC_PER_MSEC);
	rcp->stalls++;
	/* An expedited wait is a forced batch here: its stall is the
	 * batch's, counted as both. A hint: a waiter that arrives as this
	 * prints is counted at the next warning. */
	forced = READ_ONCE(rcp->exp_waiting) != 0;
	if (forced)
		rcp->exp_stalls++;
	owing = rcp->cpumask;
	gp = rcp->gp_seq;
	age_ms = (now - rcp->batch_start_ns) / NSEC_PER_MSEC;
	classic_unlock(flags);
	trace_event(TRACE_RCU, this_cpu_id(), TRACE_STALL, 0,
		    rcu_gp_number(gp), age_ms);
	pr_err("rcu: INFO: rcu detected stalls on CPUs: grace period %lu "
	       "(classic batch%s) is %llu ms old; still waiting for:\n",
	       rcu_gp_number(gp), forced ? ", forced for an expedited wait" :
	       "", age_ms);
	report_holdouts(&owing);
}

void classic_get_stats(struct rcu_stats *s)
{
	/* Acquire pairs with the release in classic_record_latency(). */
	unsigned int n = smp_load_acquire(&latency_next);
	long maxbatch = READ_ONCE(rcu_ctrlblk.maxbatch);

	s->shape = "one control block: one lock, one cpumask";
	/* Lock-free snapshots, each untorn, not consistent together. */
	s->gp_seq = READ_ONCE(rcu_ctrlblk.gp_seq);
	/* The sequence at which the latest batch asked for ends. */
	s->gp_seq_needed = (unsigned long)maxbatch * 2;
	s->gps_completed = READ_ONCE(rcu_ctrlblk.batches_completed);
	s->exp_completed = READ_ONCE(rcu_ctrlblk.exp_completed);
	s->stalls = READ_ONCE(rcu_ctrlblk.stalls);
	s->exp_stalls = READ_ONCE(rcu_ctrlblk.exp_stalls);
	s->readers_blocked = 0;
	s->readers_boosted = 0;
	rcu_fill_latency(s, latency_ns, n);
	s->lock_acquisitions = READ_ONCE(rcu_ctrlblk.lock_acquisitions);
	s->hottest_lock_acquisitions = s->lock_acquisitions;	/* one lock */
	s->lock_wait_ns = READ_ONCE(rcu_ctrlblk.lock_wait_ns);
	s->shared_writes = READ_ONCE(rcu_ctrlblk.shared_writes);
	s->idle_cpu_reports = 0;
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		s->idle_cpu_reports += READ_ONCE(classic_data[cpu].idle_reports);
}

void classic_get_cpu_stats(unsigned int cpu, struct rcu_cpu_stats *s)
{
	const struct classic_data *rdp = &classic_data[cpu];

	/* Lock-free snapshots of the CPU's own counters. */
	s->qs_reported = READ_ONCE(rdp->qs_reported);
	s->context_switches = READ_ONCE(rdp->context_switches);
	s->cbs_queued = READ_ONCE(rdp->cbs_queued);
	s->cbs_invoked = READ_ONCE(rdp->cbs_invoked);
	s->cbs_pending = READ_ONCE(rdp->qlen);
	s->nudges = READ_ONCE(rdp->resched_asked);
	/* Idle or offline: owes no batch that starts now. */
	s->idle = READ_ONCE(rdp->idle) ||
		  !cpumask_test(&rcu_ctrlblk.online, cpu);
}

/* For reports of a hang: the control block, and who still owes. */
void classic_show_gp_state(void)
{
	struct rcu_ctrlblk *rcp = &rcu_ctrlblk;
	char owed[128] = "";
	size_t n = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpus && n < sizeof(owed) - 8; cpu++)
		if (classic_peek_owes(cpu))
			n += ksnprintf(owed + n, sizeof(owed) - n, " cpu%u", cpu);
	pr_err("rcu: classic curbatch %ld, maxbatch %ld, gp_seq %lu (%s), "
	       "began %llu ms ago; %u CPUs owe:%s\n",
	       READ_ONCE(rcp->curbatch), READ_ONCE(rcp->maxbatch),
	       READ_ONCE(rcp->gp_seq),
	       READ_ONCE(rcp->gp_seq) & 1 ? "running" : "idle",
	       (clock_ns() - READ_ONCE(rcp->batch_start_ns)) / NSEC_PER_MSEC,
	       READ_ONCE(rcp->nr_owing), n ? owed : " none");
}
