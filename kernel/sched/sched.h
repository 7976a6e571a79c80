/*
 * Kernel threads and the scheduler.
 *
 * Every CPU has a run queue of runnable threads. Normal threads (priority
 * 0) share the CPU round-robin with a fixed time slice; the tick asks for
 * a reschedule when the slice ends, and an interrupt returning to
 * preemptible code acts on that (kernel preemption). Real-time threads
 * (priorities 1..99, Linux's SCHED_FIFO) come first: the highest runs
 * until it blocks or yields, one made runnable above the running thread
 * preempts it at once, and equals run in FIFO order. Idle CPUs pull
 * queued threads from busy ones; any CPU pulls a waiting real-time thread
 * that would run at once on it (sched/balance.c).
 *
 * Every pass through the scheduler on a CPU calls
 * rcu_note_context_switch() once: it is a quiescent state of that CPU,
 * since schedule() refuses to run inside preempt_disable(), and so inside
 * rcu_read_lock().
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include "preempt.h"
#include "spinlock.h"
#include "wchan.h"
#include "kernel/cpumask.h"
#include "kernel/mm/kstack.h"
#include "lib/list.h"

#define THREAD_NAME_MAX	24
#define SCHED_SLICE_MS	4
#define SCHED_PRIO_NORMAL	0
#define SCHED_PRIO_RT_MAX	99

enum thread_state {
	THREAD_RUNNABLE,	/* queued, or running */
	THREAD_SLEEPING,	/* waiting for a wake-up */
	THREAD_DEAD,		/* exited, waiting to be joined */
};

struct wait_queue;

struct thread {
	u64 id;
	char name[THREAD_NAME_MAX];
	enum thread_state state;
	unsigned int cpu;		/* the CPU whose queue owns it */
	struct cpumask allowed;		/* fixed once it exists */
	uptr saved_sp;			/* while switched out */
	struct kstack stack;
	struct list_head run_link;	/* in its CPU's run queue */
	struct list_head all_link;	/* in the thread table */
	bool on_queue;
	bool on_cpu;			/* running, or still switching out */
	bool is_idle;
	bool movable;			/* allowed on more than one CPU */
	/* A per-CPU kernel thread (rcuc/N): a CPU going offline lets it run
	 * until it sleeps, then leaves it parked with the CPU. */
	bool per_cpu;
	/* Priorities, 0 (normal) or 1..99 (real-time FIFO); written under
	 * the lock of the queue that owns the thread. prio, the one the
	 * scheduler uses, is max(base_prio, boost_prio) (see
	 * thread_boost_priority()); it is read without the lock as a hint by
	 * the tick, the balancer and `ps` (READ_ONCE). */
	unsigned int prio;
	unsigned int base_prio;
	unsigned int boost_prio;
	void (*fn)(void *arg);
	void *arg;
	u64 switched_in_ns;
	u64 run_ns;			/* time spent running */
	u64 switches;			/* times switched in */
	unsigned int srcu_nesting;	/* SRCU read locks held (debug) */
#if CONFIG_PREEMPT_RCU
	/* Preemptible RCU: the per-CPU read-side state while switched out,
	 * and, while preempted inside a reader, its place on a leaf's
	 * blocked-readers list (kernel/rcu/preempt/). */
	u32 rcu_nesting;
	u32 rcu_unlock_special;
	u64 rcu_lock_ip;
	struct list_head rcu_blocked_link;
	struct rcu_node *rcu_blocked_node;
	u64 rcu_blocked_ns;		/* when it was queued */
	bool rcu_boosted;		/* its priority raised while queued */
	u64 rcu_boosted_ns;		/* when, for the stall report */
#endif
	struct wait_queue *join_queue;
	struct wchan wchan;		/* while it waits: wchan.h */
};

struct rcu_node;
typedef void (*thread_fn)(void *arg);

/* A new thread, runnable at once, on the least loaded allowed CPU.
 * The name is copied. Returns NULL when out of memory. */
struct thread *thread_create(thread_fn fn, void *arg, const char *name);
struct thread *thread_create_on(thread_fn fn, void *arg, const char *name,
				unsigned int cpu);
struct thread *thread_create_mask(thread_fn fn, void *arg, const char *name,
				  const struct cpumask *allowed);
/* Mark t, pinned to one CPU, as that CPU's kernel thread (see per_cpu). */
void thread_mark_per_cpu(struct thread *t);
/* Wait for a thread to exit and free it. Every thread must be joined. */
void thread_join(struct thread *t);
__noreturn void thread_exit(void);

static __always_inline struct thread *current_thread(void)
{
	return (struct thread *)arch_percpu_read64(PERCPU_OFF(current));
}

void schedule(void);
void might_sleep(void);
void yield(void);
void sleep_ms(u64 ms);
void sleep_ns(u64 ns);
/* Make a sleeping thread runnable; true if it was asleep. */
bool wake_up_thread(struct thread *t);

/*
 * Priorities (sched/prio.c). thread_set_priority() sets t's own (base)
 * priority: 0 normal, 1..99 real-time FIFO; anything else is refused with
 * -EINVAL and t is left as it was. thread_priority() is the effective
 * priority, the one the scheduler acts on.
 *
 * Boosting is for a holder of something a higher-priority thread waits
 * for (RCU will boost a preempted reader blocking a grace period): it
 * raises t's effective priority to at least prio (1..99) until
 * thread_unboost_priority() drops it back to the base. One boost at a
 * time: a second boost replaces the first, one unboost ends it, so a
 * thread should have one booster. A change of the base meanwhile keeps
 * the boost.
 */
int thread_set_priority(struct thread *t, unsigned int prio);
unsigned int thread_priority(const struct thread *t);
unsigned int thread_base_priority(const struct thread *t);
int thread_boost_priority(struct thread *t, unsigned int prio);
void thread_unboost_priority(struct thread *t);

/* Called from interrupt return with interrupts off (traps.c). */
void preempt_schedule_irq(void);
void sched_reschedule_ipi(void);
void sched_tick(void);

/* Boot: the calling context becomes thread "init" on cpu0. */
void sched_init(void);
/* Each AP: the calling context becomes that CPU's idle thread. */
__noreturn void sched_start_ap(void);
/* cpu0: create its idle thread (the init thread keeps running). */
void sched_start_boot_cpu(void);

/* The thread table, for the console's `ps`. */
struct thread_info {
	u64 id;
	char name[THREAD_NAME_MAX];
	enum thread_state state;
	unsigned int cpu;
	unsigned int prio;		/* effective */
	unsigned int base_prio;
	bool running;
	u64 run_ns;
	u64 switches;
};

size_t thread_snapshot(struct thread_info *out, size_t max);
/* Every CPU's current thread and every thread's state, with the call
 * chain of each sleeper, on the console: for hang reports. */
void sched_show_state(void);
const char *thread_state_name(enum thread_state s);

struct sched_cpu_stats {
	u64 switches;
	u64 nr_queued;
	u64 idle_ns;
	u64 migrations_in;
};

void sched_cpu_stats(unsigned int cpu, struct sched_cpu_stats *out);

/* CPU hotplug (sched/hotplug.c; kernel/hotplug.c runs the whole). */
void sched_cpu_going_down(unsigned int cpu);
void sched_cpu_coming_up(unsigned int cpu);
/* On the CPU going down, interrupts off: move its threads away; returns
 * how many moved. */
unsigned int sched_migrate_away(unsigned int cpu);
unsigned int sched_nr_threads(void);

#endif
