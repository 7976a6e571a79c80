/* Scheduler state shared by the files of kernel/sched/. */
#ifndef KERNEL_SCHED_INTERNAL_H
#define KERNEL_SCHED_INTERNAL_H

#include "sched.h"

#define SCHED_BALANCE_TICKS	8

/*
 * A CPU's queue is one list in priority order, highest first and FIFO
 * among equals, so its head is what runs next and everything that walks
 * a queue (balancing, hotplug) needs no other view. One list per level
 * and a bitmap (Linux's rt_prio_array) would make an insertion O(1), but
 * it costs 100 list heads on every CPU's queue, and here a queue
 * holds a few threads: a real-time thread walks past the real-time ones
 * ahead of it, a normal thread goes to the tail without a walk.
 */
struct run_queue {
	spinlock_t lock;
	struct list_head queue;		/* runnable, not running */
	unsigned int nr_queued;
	/* The priority of the queue's head (0 when empty): a real-time
	 * thread waits here. Written under lock (WRITE_ONCE), read as a hint
	 * without it (READ_ONCE) by CPUs looking for one to pull, rechecked
	 * under the locks (sched_pull_rt()). */
	unsigned int top_queued_prio;
	/* Queued threads allowed on other CPUs too: what a puller could
	 * take. Written under lock (WRITE_ONCE), read as a hint without it
	 * (READ_ONCE in sched_balance()), so idle CPUs do not take the locks
	 * of a queue whose threads are all pinned to it. */
	unsigned int nr_movable;
	struct thread *current;
	struct thread *idle;
	struct thread *switched_from;	/* for finish_switch() */
	u64 switches;
	u64 slice_start_ns;
	u64 migrations_in;
	u64 balance_contended;		/* pulls given up: a lock was busy */
	/* Set by cpu_down() (WRITE_ONCE), read by this CPU's scheduler:
	 * pick only per-CPU threads, then go down from the idle loop. */
	bool going_down;
	unsigned int ticks_since_balance;
	/* Halted in the idle loop (WRITE_ONCE by this CPU), read as a hint
	 * by busy CPUs choosing one to kick (READ_ONCE). */
	bool idle_waiting;
} __aligned(CACHE_LINE);

DECLARE_PERCPU_ARRAY(struct run_queue, run_queues);

/* Queue t behind the threads of its priority (a wake-up, a yield). */
void rq_enqueue(struct run_queue *rq, struct thread *t);
/* Queue t ahead of the threads of its priority: a real-time thread that
 * was preempted, or whose priority was lowered, keeps its turn. */
void rq_enqueue_ahead(struct run_queue *rq, struct thread *t);
void rq_dequeue(struct run_queue *rq, struct thread *t);
/* Whether t, queued on rq, must run before rq's current thread. */
bool rq_preempts_current(const struct run_queue *rq, const struct thread *t);
struct run_queue *lock_thread_rq(struct thread *t, unsigned long *flags);
void resched_cpu(unsigned int cpu);
/* Kick cpu if it idles, so that it programs its clock event again. */
void sched_kick_if_idle(unsigned int cpu);
void finish_switch(struct run_queue *rq);
__noreturn void cpu_idle_loop(void);
/* The idle loop of a CPU going offline: true once it may park. */
bool sched_cpu_may_park(struct run_queue *rq);
unsigned int thread_rehome_sleepers(unsigned int cpu,
				    unsigned int (*new_home)(
					    const struct thread *t,
					    unsigned int dying));

/* thread.c's pieces that bring-up (core.c, idle.c) builds on. */
extern struct thread init_thread;
struct thread *thread_alloc(const char *name);
void thread_entry(void *self);
void table_add(struct thread *t);
void set_allowed(struct thread *t, const struct cpumask *allowed);
/* The thread table for the hang report (thread.c). */
bool thread_table_try_walk(void (*fn)(struct thread *t, void *arg),
			   void *arg);
bool thread_in_table(const struct thread *p);
/* Pull one thread from the busiest CPU; interrupts must be off. */
bool sched_balance(unsigned int cpu, bool idle);
/* Pull a real-time thread that waits elsewhere and would run at once
 * here; interrupts must be off. */
bool sched_pull_rt(unsigned int cpu);
/* From a busy CPU's tick: wake an idle one to pull from the busy ones. */
void sched_kick_idle_cpu(unsigned int cpu);

#endif
