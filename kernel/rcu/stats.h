/* What RCU reports about itself: grace periods, callbacks, latency. */
#ifndef KERNEL_RCU_STATS_H
#define KERNEL_RCU_STATS_H

#include "lib/types.h"

struct rcu_stats {
	unsigned long gp_seq;		/* odd: a grace period is running */
	unsigned long gp_seq_needed;
	u64 gps_completed;
	u64 exp_completed;
	u64 stalls;
	/* Of stalls, those in which the host had starved every holdout
	 * (the tree engine's verdict): not a kernel bug. */
	u64 stalls_starved;
	u64 exp_stalls;			/* expedited stall warnings */
	/* Holdouts the normal stall warnings printed in full, and named
	 * only in a summary line (engine.h: RCU_STALL_CPUS_IN_FULL). */
	u64 stall_cpus_in_full, stall_cpus_summarised;
	u64 kfree_blocks;		/* kfree_rcu() blocks queued */
	const char *flavour;		/* RCU_FLAVOUR_NAME */
	const char *engine;		/* "tree" or "classic" (engine.h) */
	/* How the engine's grace-period state is laid out: the tree's
	 * levels, nodes per level and fanouts, or classic's one block. */
	const char *shape;
	const char *kthreads;		/* the threads kthread_prio is for */
	u64 readers_blocked;		/* preempted inside a reader, queued */
	u64 readers_boosted;		/* of those, boosted (preempt/boost.c) */
	unsigned int kthread_prio;	/* rcu_gp's and rcuc's; 0 normal */
	/* The engine comparison's counts since boot (make bench-engines):
	 * acquisitions of RCU's grace-period locks (the classic engine's
	 * one, the tree's nodes), the time spent waiting for them, those of
	 * the busiest lock alone, stores to RCU's shared lines (a mask, a
	 * sequence; one per operation), and quiescent-state reports made
	 * on idle CPUs. */
	u64 lock_acquisitions, lock_wait_ns, hottest_lock_acquisitions;
	u64 shared_writes;
	u64 idle_cpu_reports;
	unsigned int latency_samples;	/* of the last 1024 grace periods */
	u64 latency_min_ns, latency_median_ns, latency_p99_ns, latency_max_ns;
};

struct rcu_cpu_stats {
	u64 qs_reported;
	u64 context_switches;
	u64 cbs_queued, cbs_invoked, cbs_pending;
	u64 nudges;
	bool idle;
};

void rcu_get_stats(struct rcu_stats *s);
void rcu_get_cpu_stats(unsigned int cpu, struct rcu_cpu_stats *s);
/* The grace-period sequence number: odd while one runs, +2 per GP. */
unsigned long rcu_gp_seq_now(void);
/* The grace-period and expedited machinery's state, and where the GP
 * thread is, on the console: for reports of a hang. */
void rcu_show_gp_state(void);

#endif
