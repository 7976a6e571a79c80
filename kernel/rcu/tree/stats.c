/* RCU statistics for the console and the self-tests. */
#include "tree.h"
#include "kernel/rcu/stats.h"
#include "lib/atomic.h"


/* Called by the GP thread only. */
void rcu_record_latency(u64 ns)
{
	rcu_state.latency_ns[rcu_state.latency_next % RCU_LATENCY_RING] = ns;
	/* Release: the sample is stored before the count that makes a
	 * reader look at it; pairs with the acquire in rcu_get_stats(). */
	smp_store_release(&rcu_state.latency_next,
			  rcu_state.latency_next + 1);
}

/* The engine comparison's counts: every node's lock and mask, the GP
 * thread's stores of gp_seq, and the idle CPUs' own reports. Lock-free
 * snapshots of counters kept under the nodes' locks or by one CPU. */
static void count_locks_and_writes(struct rcu_stats *s)
{
	const struct rcu_node *node;
	unsigned int cpu;

	s->lock_acquisitions = s->lock_wait_ns = 0;
	s->hottest_lock_acquisitions = 0;
	s->shared_writes = READ_ONCE(rcu_state.gp_seq_writes);
	rcu_for_each_node(node) {
		u64 n = READ_ONCE(node->lock_acquisitions);

		s->lock_acquisitions += n;
		s->lock_wait_ns += READ_ONCE(node->lock_wait_ns);
		s->shared_writes += READ_ONCE(node->shared_writes);
		s->hottest_lock_acquisitions =
			MAX(s->hottest_lock_acquisitions, n);
	}
	s->idle_cpu_reports = 0;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		s->idle_cpu_reports += READ_ONCE(rcu_data[cpu].idle_reports);
}

/* The engine's get_stats: what engine.c's rcu_get_stats() leaves. */
void rcu_tree_get_stats(struct rcu_stats *s)
{
	/* Acquire: the first n samples are written before we read them;
	 * pairs with the release in rcu_record_latency(). */
	unsigned int n = smp_load_acquire(&rcu_state.latency_next);

	/* The rest are lock-free snapshots of counters that one thread or
	 * CPU writes: untorn, but not consistent with one another. */
	s->shape = rcu_tree_shape;	/* set at boot, never changed */
	s->gp_seq = READ_ONCE(rcu_state.gp_seq);
	s->gp_seq_needed = READ_ONCE(rcu_state.gp_seq_needed);
	s->gps_completed = READ_ONCE(rcu_state.gps_completed);
	s->exp_completed = READ_ONCE(rcu_exp_completed);
	s->stalls = READ_ONCE(rcu_state.stalls);
	s->stalls_starved = READ_ONCE(rcu_state.stalls_starved);
	s->exp_stalls = READ_ONCE(rcu_exp_stalls);
	s->readers_blocked = rcu_preempt_blocked_count();
	s->readers_boosted = rcu_preempt_boost_count();
	rcu_fill_latency(s, rcu_state.latency_ns, n);
	count_locks_and_writes(s);
}

void rcu_tree_get_cpu_stats(unsigned int cpu, struct rcu_cpu_stats *s)
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

unsigned long rcu_tree_gp_seq(void)
{
	/* Acquire pairs with rcu_gp_end()'s release store: a grace period
	 * seen ended has its readers done before the caller goes on. */
	return smp_load_acquire(&rcu_state.gp_seq);
}
