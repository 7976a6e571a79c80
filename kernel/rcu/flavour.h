/*
 * What the grace-period engine asks of the read side's flavour.
 *
 * In the non-preemptible flavour (the default, the 2003 article's RCU) a
 * reader runs with preemption off, so a CPU that passes through
 * schedule() holds no reader, and there is nothing more to ask: every
 * hook below is a constant. In the preemptible flavour (make
 * RCU=preempt, kernel/rcu/preempt/) a reader may be switched out inside
 * its section; the switch still lets the CPU report, so the reader is
 * queued on its leaf, and the leaf reports upward only once the readers
 * queued before the grace period began are done. The engine (tree/tree.c,
 * exp.c, quiescent.c) calls these hooks at the points where that
 * matters, and nowhere asks which flavour runs.
 */
#ifndef KERNEL_RCU_FLAVOUR_H
#define KERNEL_RCU_FLAVOUR_H

#include "kernel/sched/preempt.h"
#include "lib/types.h"

struct rcu_node;

#if CONFIG_PREEMPT_RCU

#define RCU_FLAVOUR_NAME	"preemptible"

/* A node's lists, empty: rcu_init(), for every node. */
void rcu_preempt_init_node(struct rcu_node *node);
/* The running thread is being switched out (schedule(), interrupts off,
 * before the CPU reports): a reader is queued on the CPU's leaf; a
 * thread whose unlock had to leave its dequeue for later does it now. */
void rcu_preempt_note_context_switch(unsigned int cpu);
/* Under the node's lock: whether readers queued before the node's
 * current grace period began still hold it up. */
bool rcu_preempt_blocks_gp(const struct rcu_node *node);
/* Lock-free peek of the same, for the GP thread's wait on the root. */
bool rcu_preempt_blocks_gp_hint(const struct rcu_node *node);
/* Under the leaf's lock: whether readers are queued on it. */
bool rcu_preempt_has_blocked(const struct rcu_node *leaf);
/* At grace-period start, under the leaf's lock: every reader queued now
 * holds up the new grace period. */
void rcu_preempt_gp_start_leaf(struct rcu_node *leaf);
/* At expedited start, after the CPUs' flags are set: the expedited
 * grace period also waits for every reader queued on a leaf now; each
 * such leaf holds one more report (rcu_exp_hold_report()) and makes it
 * when its last such reader ends. */
void rcu_preempt_exp_start(void);
/* Whether the code this interrupt (the tick, an IPI) interrupted is
 * outside every reader, so its CPU may report for itself at once. */
bool rcu_preempt_outside_reader(void);
/* The forcing scan of a grace period gp_age_ms old: boost the readers
 * that hold it up, once it is rcu.boost_delay_ms old (preempt/boost.c). */
void rcu_preempt_boost(u64 gp_age_ms);
/* Whether readers are boosted at all (rcu.boost): the forcing scan of
 * rcu_gp does it, so rcu_gp must be real-time too (kthreads.c). */
bool rcu_preempt_boost_enabled(void);
/* Readers queued on a leaf since boot, and boosted (statistics). */
u64 rcu_preempt_blocked_count(void);
u64 rcu_preempt_boost_count(void);
/* rcu.boost_delay_ms, and the forcing scans since boot of grace periods
 * that old (each a chance to boost, taken or not): rcutorture's boost
 * test bounds its hogs by both. */
unsigned int rcu_preempt_boost_delay_ms(void);
u64 rcu_preempt_boost_chances(void);
/* rcu.boost_prio: a benchmark's hog must stay below it. */
unsigned int rcu_preempt_boost_prio(void);
/* Stall warnings: name the readers that hold up the normal or the
 * expedited grace period from their leaves' lists. */
void rcu_preempt_show_blocked(bool expedited);
/* The tick: an unlock that could not dequeue its thread gets it done at
 * the next preemption point, within a tick. */
void rcu_preempt_tick(void);

/* Whether t has been boosted while queued: a test or benchmark whose
 * reader waits inside its section for a lower-priority thread leaves
 * when boosted, or it would outrank that thread for good. Set under the
 * leaf's lock by the GP thread (boost.c); only looked at here. */
bool rcu_preempt_thread_boosted(const struct thread *t);
#else

#define RCU_FLAVOUR_NAME	"non-preemptible"

static inline void rcu_preempt_init_node(struct rcu_node *node)
{
	(void)node;
}

static inline void rcu_preempt_note_context_switch(unsigned int cpu)
{
	(void)cpu;
}

static inline bool rcu_preempt_blocks_gp(const struct rcu_node *node)
{
	(void)node;
	return false;
}

static inline bool rcu_preempt_blocks_gp_hint(const struct rcu_node *node)
{
	(void)node;
	return false;
}

static inline bool rcu_preempt_has_blocked(const struct rcu_node *leaf)
{
	(void)leaf;
	return false;
}

static inline void rcu_preempt_gp_start_leaf(struct rcu_node *leaf)
{
	(void)leaf;
}

static inline void rcu_preempt_exp_start(void)
{
}

/* Readers disable preemption, so preempt_count 0 is outside them. */
static inline bool rcu_preempt_outside_reader(void)
{
	return preempt_count() == 0;
}

static inline void rcu_preempt_tick(void)
{
}

static inline void rcu_preempt_boost(u64 gp_age_ms)
{
	(void)gp_age_ms;
}

static inline bool rcu_preempt_boost_enabled(void)
{
	return false;
}

static inline u64 rcu_preempt_blocked_count(void)
{
	return 0;
}

static inline u64 rcu_preempt_boost_count(void)
{
	return 0;
}

static inline void rcu_preempt_show_blocked(bool expedited)
{
	(void)expedited;
}

static inline bool rcu_preempt_thread_boosted(const struct thread *t)
{
	(void)t;
	return false;
}

#endif
#endif
