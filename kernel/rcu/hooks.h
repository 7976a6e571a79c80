/*
 * RCU's hooks into the scheduler, the idle loop and interrupt entry: the
 * places where a CPU tells RCU it is quiescent (quiescent.c implements
 * them; tree/tree.c explains how the grace period uses them).
 */
#ifndef KERNEL_RCU_HOOKS_H
#define KERNEL_RCU_HOOKS_H

/* Once per pass through schedule() on this CPU: a quiescent state. */
void rcu_note_context_switch(void);

struct thread;
#if CONFIG_PREEMPT_RCU
/* The switch from prev to next, interrupts off: the read-side depth and
 * special bits on this CPU's area are the running thread's, so they go
 * with prev and next's come back (kernel/rcu/preempt/read_side.c). */
void rcu_preempt_switch(struct thread *prev, struct thread *next);
/* Whether t, switched out, is inside a reader: a CPU going down must run
 * it until it leaves, since grace periods wait for it. */
bool rcu_preempt_in_reader(const struct thread *t);
/* The running thread exits: a section it left open is ended. */
void rcu_preempt_thread_exit(void);
#else
static inline void rcu_preempt_thread_exit(void)
{
}

static inline bool rcu_preempt_in_reader(const struct thread *t)
{
	(void)t;
	return false;
}

static inline void rcu_preempt_switch(struct thread *prev,
				      struct thread *next)
{
	(void)prev;
	(void)next;
}
#endif
/* The idle loop is about to halt / has woken: an extended quiescent state. */
void rcu_idle_enter(void);
void rcu_idle_exit(void);
/* Outermost interrupt entry and exit, which may interrupt idle. */
void rcu_irq_enter(void);
void rcu_irq_exit(void);
/* Every timer tick on every CPU. */
void rcu_tick(void);
/* A CPU about to stop its tick in idle (kernel/sched/tick.c), interrupts
 * off: the longest, in ns, RCU lets it sleep without a tick. 0 keeps the
 * tick; U64_MAX means RCU needs nothing of this CPU. Linux's
 * rcu_needs_cpu(). */
u64 rcu_needs_cpu(void);

/* CPU hotplug (kernel/hotplug.c calls them in this order). On the CPU
 * going down, interrupts off: its last quiescent state. On a surviving
 * CPU, once it has parked: take its callbacks. On a CPU coming up, first
 * thing. rcu_hotplug_lock() keeps rcu_barrier() out meanwhile. */
void rcu_cpu_dying(void);
void rcu_cpu_dead(unsigned int cpu);
void rcu_cpu_starting(void);
void rcu_hotplug_lock(void);
void rcu_hotplug_unlock(void);

#endif
