/* RCU statistics for the console and the self-tests. */
#include "stats.h"
#include "internal.h"
#include "lib/atomic.h"
#include "lib/sort.h"


/* Called by the GP thread only. */
void rcu_record_latency(u64 ns)
{
	rcu_state.latency_ns[rcu_state.latency_next % RCU_LATENCY_SAMPLES] = ns;
	/* Release: the sample is stored before the count that makes a
	 * reader look at it; pairs with the acquire in rcu_get_stats(). */
	smp_store_release(&rcu_state.latency_next,
			  rcu_state.latency_next + 1);
}

void rcu_get_stats(struct rcu_stats *s)
{
	static u64 sorted[RCU_LATENCY_SAMPLES];
	/* Acquire: the first n samples are written before we read them;
	 * pairs with the release in rcu_record_latency(). Once the ring
	 * has wrapped, a slot being rewritten reads as the old sample or
	 * the new, either a real one. */
	unsigned int n = smp_load_acquire(&rcu_state.latency_next), i;

	/* The rest are lock-free snapshots of counters that one thread or
	 * CPU writes: untorn, but not consistent with one another. */
	s->gp_seq = READ_ONCE(rcu_state.gp_seq);
	s->gp_seq_needed = READ_ONCE(rcu_state.gp_seq_needed);
	s->gps_completed = READ_ONCE(rcu_state.gps_completed);
	s->exp_completed = READ_ONCE(rcu_exp_completed);
	s->stalls = READ_ONCE(rcu_state.stalls);
	s->exp_stalls = READ_ONCE(rcu_exp_stalls);
	s->kfree_blocks = READ_ONCE(rcu_kfree_blocks);
	s->flavour = RCU_FLAVOUR_NAME;
	s->readers_blocked = rcu_preempt_blocked_count();
	s->readers_boosted = rcu_preempt_boost_count();
	s->kthread_prio = rcu_kthread_priority();
	n = n < RCU_LATENCY_SAMPLES ? n : RCU_LATENCY_SAMPLES;
	for (i = 0; i < n; i++)
		sorted[i] = READ_ONCE(rcu_state.latency_ns[i]);
	sort_u64(sorted, n);
	s->latency_samples = n;
	s->latency_min_ns = n ? sorted[0] : 0;
	s->latency_median_ns = n ? percentile_u64(sorted, n, 50) : 0;
	s->latency_p99_ns = n ? percentile_u64(sorted, n, 99) : 0;
	s->latency_max_ns = n ? sorted[n - 1] : 0;
}

void rcu_get_cpu_stats(unsigned int cpu, struct rcu_cpu_stats *s)
{
	struct rcu_data *rdp = &rcu_data[cpu];

	/* Lock-free snapshots of counters that the CPU (nudges: the GP
	 * thread) updates alone; nothing is ordered between them. */
	s->qs_reported = READ_ONCE(rdp->qs_reported);
	s->context_switches = READ_ONCE(rdp->context_switches);
	s->cbs_queued = READ_ONCE(rdp->cbs_queued);
	s->cbs_invoked = READ_ONCE(rdp->cbs_invoked);
	s->cbs_pending = READ_ONCE(rdp->cbs.len);
	s->nudges = READ_ONCE(rdp->nudges);
	s->idle = READ_ONCE(rdp->eqs_seq) & 1;
}

unsigned long rcu_gp_seq_now(void)
{
	/* A snapshot for reports and the torture test, unordered: code
	 * that acts on a grace period's end uses
	 * poll_state_synchronize_rcu(), which reads it with acquire. */
	return READ_ONCE(rcu_state.gp_seq);
}
