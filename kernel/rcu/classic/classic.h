/* State shared by the files of the classic engine (batch.c is the map). */
#ifndef KERNEL_RCU_CLASSIC_CLASSIC_H
#define KERNEL_RCU_CLASSIC_CLASSIC_H

#include "kernel/cpumask.h"
#include "kernel/rcu/engine.h"
#include "kernel/rcu/hooks.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/spinlock.h"
#include "kernel/sched/waitqueue.h"

/* last_qsctr before the CPU has looked at the current batch. */
#define RCU_QSCTR_INVALID	(-1L)
/* A CPU that owes a batch this many ticks old asks its scheduler for a
 * pass through schedule(), as the end of a time slice did in 2.6.0. */
#define CLASSIC_RESCHED_TICKS	4

/*
 * 2.6.0's rcu_ctrlblk: one for the whole machine, one lock for all of it.
 * Batches are numbered from 1: curbatch is the batch that runs while
 * cpumask is not empty, or the next to run when it is; batch b is over
 * once curbatch > b.
 */
struct rcu_ctrlblk {
	spinlock_t lock;
	/* Under lock; read lock-free with acquire by the CPUs' ticks (a
	 * callback list's batch over) and in reports. */
	long curbatch;
	long maxbatch;			/* the latest batch asked for; lock */
	/* CPUs that owe curbatch a quiescent state: set at the start from
	 * `online`, each bit cleared by its own CPU under lock. A CPU
	 * peeks at its own bit lock-free (classic_peek_owes()). */
	struct cpumask cpumask;
	unsigned int nr_owing;		/* bits set in cpumask; lock */
	/* The CPUs that take part: a CPU joins in rcu_cpu_starting() and
	 * leaves in rcu_cpu_dying(), both under lock. */
	struct cpumask online;
	/* The same batches numbered for the API (engine.h): odd while one
	 * runs. Written under lock, its end with release; read anywhere. */
	unsigned long gp_seq;
	/* For the stall warning and the forcing tick: under lock, read
	 * lock-free as hints. */
	u64 batch_start_ns;
	u64 next_stall_ns;
	u64 batches_completed;
	u64 stalls;
	/* What the engine comparison counts (make bench-engines): lock
	 * acquisitions and the time spent waiting for them, and stores to
	 * the control block's lines. Under lock. */
	u64 lock_acquisitions;
	u64 lock_wait_ns;
	u64 shared_writes;
	u64 exp_completed;		/* atomic adds, no lock */
	/* synchronize_rcu()'s waiters: each batch's end wakes them. */
	struct wait_queue gp_wait;
	/* Expedited waiters now (atomic), and the stall warnings of the
	 * batches they forced: under lock. */
	unsigned int exp_waiting;
	u64 exp_stalls;
};

/* 2.6.0's per-CPU rcu_data: its CPU's alone (with interrupts off), but
 * for the statistics, read lock-free. */
struct classic_data {
	long qsctr;		/* quiescent states passed: schedule(), idle */
	long last_qsctr;	/* qsctr when it first saw curbatch */
	bool idle;		/* halted in the idle loop: the tick counts it */
	u64 resched_asked;	/* passes through schedule() it asked for */
	/* Callbacks: nxtlist not yet in a batch; curlist waiting for batch
	 * `batch`; donelist over, for the callback thread. */
	struct rcu_head *nxtlist, **nxttail;
	struct rcu_head *curlist, **curtail;
	struct rcu_head *donelist, **donetail;
	long batch;
	unsigned long qlen;	/* callbacks on all three lists */
	unsigned long donelen;
	struct thread *cb_thread;	/* "rcuc/N", invokes donelist */
	bool cb_thread_has_work;	/* its tick and its rcuc only */
	struct wait_queue cb_wait;
	u64 qs_reported;
	u64 idle_reports;	/* of those, from ticks that found it idle */
	u64 context_switches;
	u64 cbs_queued;
	u64 cbs_invoked;
	u64 cbs_adopted;
} __aligned(CACHE_LINE);

extern struct rcu_ctrlblk rcu_ctrlblk;
DECLARE_PERCPU_ARRAY(struct classic_data, classic_data);
extern bool classic_ready;

/* Wrap-safe batch comparison, as 2.6.0's rcu_batch_before/after. */
static inline bool classic_batch_before(long a, long b)
{
	return a - b < 0;
}

/* batch.c */
/* Ask for batch `batch` and start one if none runs. Under the lock. */
void classic_start_batch(long batch);
bool classic_peek_owes(unsigned int cpu);
/* Take the control block's lock, counting the acquisition and its wait. */
unsigned long classic_lock(void);
void classic_unlock(unsigned long flags);

/* callbacks.c */
void classic_queue_callback(struct rcu_head *head);
void classic_process_callbacks(unsigned int cpu);
void classic_cpu_dead(unsigned int cpu);
void classic_init_callbacks(void);
void classic_start_cb_threads(void);
int classic_set_kthread_priority(unsigned int prio);
void classic_synchronize(void);
void classic_synchronize_expedited(void);

/* report.c */
void classic_check_stall(void);
void classic_record_latency(u64 ns);
void classic_get_stats(struct rcu_stats *s);
void classic_get_cpu_stats(unsigned int cpu, struct rcu_cpu_stats *s);
void classic_show_gp_state(void);

#endif
