/* State shared by the files of the tree engine (tree.c is the map). */
#ifndef KERNEL_RCU_TREE_TREE_H
#define KERNEL_RCU_TREE_TREE_H

#include "kernel/rcu/cblist.h"
#include "kernel/rcu/engine.h"
#include "kernel/rcu/flavour.h"
#include "kernel/rcu/hooks.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/mm/kasan.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/spinlock.h"
#include "kernel/sched/timer.h"
#include "kernel/sched/waitqueue.h"
#include "kernel/time.h"
#include "kernel/trace/trace.h"
#include "lib/atomic.h"

#define RCU_FANOUT_LEAF_DEFAULT	16	/* CPUs a leaf, as Linux's */
#define RCU_FANOUT_DEFAULT	64	/* children of an interior node, as
					 * Linux's CONFIG_RCU_FANOUT */
/* Two at least, so that small CPU counts can make deep trees; 64 at
 * most, the bits of a node's qsmask. */
#define RCU_FANOUT_MIN		2
#define RCU_FANOUT_MAX		64
#define RCU_MAX_LEVELS		4	/* as Linux's RCU_NUM_LVLS */
/* The most nodes a tree can need per CPU: at least two children a node,
 * so at most ceil(n / 2) leaves and each level above at most half as many
 * (rounded up) as the one below: fewer than n + RCU_MAX_LEVELS in all,
 * which is at most 2n from n = 4 on (and 1 or 3 nodes below). */
#define RCU_NODES_PER_CPU	2
#define RCU_NUDGE_TICKS		1	/* ticks before a holdout is nudged */
/* The longest an idle CPU holding callbacks sleeps (rcu_tree_needs_cpu()). */
#define RCU_IDLE_WAKE_TICKS	4

/*
 * A node of the combining tree (geometry.c builds it). A leaf's qsmask
 * has a bit per CPU of the leaf that still owes the current grace period
 * a quiescent state; an interior node's has a bit per child still owing.
 * With rcu.fanout_leaf CPUs or fewer (16 by default) the one leaf is the
 * root.
 */
struct rcu_node {
	spinlock_t lock;
	/* Both under lock; gp_seq is also peeked at lock-free by
	 * note_quiescent_state(), the root's qsmask by rcu_gp_complete(). */
	unsigned long gp_seq;		/* the grace period qsmask is for */
	u64 qsmask;
	/* The shape, set by rcu_init() before any grace period and never
	 * changed: the parent (NULL at the root), this node's bit in the
	 * parent's qsmask, the CPUs it covers (grplo..grphi; a leaf's bit
	 * 0 is grplo), its level (0 at the root) and its place there. */
	struct rcu_node *parent;
	u64 grpmask;
	unsigned int grplo, grphi;
	unsigned int level, index;
	/* For make bench-engines, under lock (rcu_node_lock()), read
	 * lock-free: acquisitions, the wait for them, and the stores to
	 * the node's mask that other CPUs' reports also make. */
	u64 lock_acquisitions;
	u64 lock_wait_ns;
	u64 shared_writes;
#if CONFIG_PREEMPT_RCU
	/* Readers preempted inside their sections on this leaf's CPUs,
	 * newest first, and where the normal and the expedited grace
	 * periods' waits begin: each waits for its entry and every one
	 * after it (kernel/rcu/preempt/blocked.c). All under lock; gp_tasks
	 * also peeked at lock-free by rcu_gp_complete(). */
	struct list_head blkd_tasks;
	struct list_head *gp_tasks;
	struct list_head *exp_tasks;
#endif
} __aligned(CACHE_LINE);

/* Per-CPU RCU state: written by its CPU, read by the grace-period thread. */
struct rcu_data {
	/* Where this CPU reports: set by rcu_init(), before any grace
	 * period, and never changed. */
	struct rcu_node *leaf;
	u64 leaf_bit;			/* this CPU's bit in leaf->qsmask */
	unsigned long gp_seq_seen;	/* last grace period this CPU noticed */
	/* Extended quiescent state counter: odd while idle, and while
	 * offline; every CPU starts at 1, not yet started, and leaves it
	 * itself (rcu_cpu_starting()). Changed only by its CPU, with full
	 * barriers; sampled lock-free by the GP thread and the expedited
	 * requester. */
	unsigned long eqs_seq;
	unsigned long eqs_snapshot;	/* GP thread's sample at GP start */
	/* Also sampled at GP start, for the stall warning only: they tell a
	 * vCPU the host did not run from a CPU that ran and never reported. */
	u64 ticks_snapshot;
	u64 switches_snapshot;
	u64 nudges_snapshot;
	u64 found_running_snapshot;
	/* Its ticks when the running expedited grace period began, for
	 * that warning: written by the requester under exp_mutex, read by
	 * exp_stall_warn(), whose timer is armed after (timer_add()'s lock
	 * orders the two). */
	u64 exp_ticks_snapshot;
	unsigned int irq_eqs_exit;	/* an irq took this CPU out of idle */
	/* Owes the expedited GP a report: set by the requester with
	 * release, claimed (rcu_exp_claim()) by whoever reports or clears it. */
	bool exp_pending;
	struct rcu_cblist cbs;		/* its CPU only, interrupts off */
	struct thread *cb_thread;	/* invokes this CPU's callbacks */
	bool cb_thread_has_work;	/* this CPU's tick and rcuc only */
	struct wait_queue cb_wait;
	unsigned long blimit;		/* callbacks per batch */
	u64 qs_reported;		/* grace periods this CPU reported */
	u64 context_switches;		/* rcu_note_context_switch calls */
	u64 cbs_queued;
	u64 cbs_invoked;
	u64 cbs_adopted;		/* moved here from CPUs gone offline */
	u64 nudges;			/* reschedule IPIs received from RCU */
	u64 found_running;		/* forcing scans that found it running */
	u64 idle_reports;		/* made on its idle CPU, at irq exit */
} __aligned(CACHE_LINE);

struct rcu_state {
	/* gp_seq: odd while a grace period runs. Written by the GP thread
	 * alone (its end with release, under the root lock), read
	 * everywhere with READ_ONCE or, to act on an end, with acquire. */
	unsigned long gp_seq;
	/* Latest grace period asked for: written under request_lock, read
	 * lock-free by rcu_request_gp() and the GP thread. */
	unsigned long gp_seq_needed;
	spinlock_t request_lock;
	/* Every node, level by level from the root (breadth-first), so
	 * that a walk of the array is a walk down the tree, the leaves
	 * last; level[k] is the first of level k. Built by rcu_setup()
	 * (geometry.c) in an array sized at boot, before any AP or thread
	 * runs. */
	struct rcu_node *node;
	struct rcu_node *level[RCU_MAX_LEVELS];
	unsigned int level_count[RCU_MAX_LEVELS];
	unsigned int nr_levels, nr_nodes, nr_leaves;
	struct thread *gp_thread;
	struct wait_queue gp_wait;	/* the GP thread waits here */
	struct wait_queue gp_done;	/* synchronize_rcu() waiters */
	/* The GP thread's alarm: RCU_NUDGE_TICKS after a grace period
	 * starts or its last scan, fqs_timer sets fqs_due, the GP thread
	 * scans the holdouts. A timer, not any CPU's tick, so that it comes
	 * while every CPU but the holdouts idles tickless. */
	struct timer fqs_timer;
	bool fqs_due;
	u64 gp_start_ns;
	u64 next_stall_ns;
	u64 gps_completed;
	u64 gp_seq_writes;		/* the GP thread's: starts and ends */
	u64 stalls;
	u64 stalls_starved;		/* every holdout starved by the host */
	u64 latency_ns[RCU_LATENCY_RING];
	unsigned int latency_next;	/* published with release */
};

extern struct rcu_state rcu_state;
DECLARE_PERCPU_ARRAY(struct rcu_data, rcu_data);
extern unsigned int rcu_fanout_leaf, rcu_fanout;
extern u64 rcu_exp_completed;
extern u64 rcu_exp_latency_last_ns;
extern u64 rcu_exp_stalls;

/*
 * A stall's verdict on a vCPU: it took under a quarter of the ticks the
 * stall's age should have brought, so the host hardly ran it. Ticks
 * count only while the CPU is not idle, and a holdout that idles reports
 * as it does, so a holdout short of ticks is one that was not run.
 */
static inline bool rcu_vcpu_starved(u64 ticks, u64 age_ms)
{
	return ticks * 4 < age_ms * hz / 1000;
}

static inline struct rcu_node *rcu_root(void)
{
	return &rcu_state.node[0];
}

/* The nodes whose masks have a bit per CPU, the last level: the root
 * alone when one leaf holds every CPU. */
static inline struct rcu_node *rcu_leaf(unsigned int i)
{
	return rcu_state.level[rcu_state.nr_levels - 1] + i;
}

#define rcu_for_each_node(node)						\
	for ((node) = rcu_state.node;					\
	     (node) < rcu_state.node + rcu_state.nr_nodes; (node)++)

/* The leaves are the array's last nr_leaves nodes. */
#define rcu_for_each_leaf(leaf)						\
	for ((leaf) = rcu_state.node + rcu_state.nr_nodes -		\
		      rcu_state.nr_leaves;				\
	     (leaf) < rcu_state.node + rcu_state.nr_nodes; (leaf)++)

static inline bool rcu_is_leaf(const struct rcu_node *node)
{
	return node->level == rcu_state.nr_levels - 1;
}

/* A node's lock, counted for the engine comparison (make bench-engines):
 * the classic engine counts its one lock the same way. Interrupts off. */
static inline void rcu_node_lock(struct rcu_node *node)
	__acquires(&node->lock)
{
	u64 start = clock_ns();

	raw_spin_lock(&node->lock);
	node->lock_acquisitions++;
	node->lock_wait_ns += clock_ns() - start;
}

/* The same as spin_lock_irqsave(), which spin_unlock_irqrestore() undoes. */
static inline unsigned long rcu_node_lock_irqsave(struct rcu_node *node)
	__acquires(&node->lock)
{
	unsigned long flags = arch_irq_save();

	preempt_disable();
	rcu_node_lock(node);
	return flags;
}

void rcu_report_qs(unsigned int cpu, unsigned long gp_seq);
/* Called with node->lock held (interrupts off), which it releases: the
 * node may have nothing left to wait for in gp_seq (a CPU reported, or
 * its last blocked reader ended); if so, clear its bit in its parent,
 * and so on up while nodes empty, waking the GP thread if the root
 * does (report.c). */
void rcu_report_node_done(struct rcu_node *node, unsigned long gp_seq);
/* Under the node's lock: CPUs or children that have not reported, or
 * readers preempted before the grace period began. */
bool rcu_node_waits(const struct rcu_node *node);
/* gp.c: the grace period's start and end, and whether the root has
 * nothing left to wait for (lock-free, for the GP thread's wait). */
void rcu_gp_start(void);
void rcu_gp_end(void);
bool rcu_gp_complete(void);
/* geometry.c: the tree's shape for nr_cpus, built once at boot (the
 * engine's setup), and what the boot line and the shell say of it. */
void rcu_geometry_init(void);
extern char rcu_tree_shape[128];
/* quiescent.c: report this CPU's quiescent state, if a grace period it
 * has not reported runs. Interrupts off. */
void note_quiescent_state(unsigned int cpu, enum trace_qs_reason reason);
void rcu_force_quiescent_states(void);
void rcu_check_stall(void);
void rcu_record_latency(u64 ns);
void rcu_callbacks_tick(void);
void rcu_exp_report_here(void);
/* The expedited grace period also waits for a leaf's readers preempted
 * inside their sections (kernel/rcu/preempt/): one more report to wait
 * for, and the leaf's report once the last of them is done. */
void rcu_exp_hold_report(void);
void rcu_exp_report_leaf(void);
void rcu_exp_tick(void);

/*
 * Take a CPU's expedited report: the CPU itself does, when it is seen
 * outside any reader (rcu_exp_report_here()), and so does the requester
 * that found the CPU idle. They may try at the same moment, and exactly
 * one must win and decrement the count, so the claim is an exchange, not
 * a test and a store. Fully ordered: pairs with the release that set the
 * flag, so the count the winner decrements already holds the requester's.
 */
static inline bool rcu_exp_claim(struct rcu_data *rdp)
{
	return xchg(&rdp->exp_pending, false);
}
void rcu_exp_init(void);
void rcu_exp_show_state(void);
void rcu_cb_threads_start(void);

/* The tree's entries in the engine table (engine.c). */
void rcu_tree_init(void);
void rcu_tree_start_kthreads(void);
void rcu_tree_note_context_switch(void);
void rcu_tree_idle_enter(void);
void rcu_tree_idle_exit(void);
void rcu_tree_irq_enter(void);
void rcu_tree_irq_exit(void);
void rcu_tree_tick(void);
u64 rcu_tree_needs_cpu(void);
void rcu_tree_cpu_dying(void);
void rcu_tree_cpu_dead(unsigned int cpu);
void rcu_tree_cpu_starting(void);
void rcu_tree_queue_callback(struct rcu_head *head);
unsigned long rcu_tree_gp_seq(void);
void rcu_tree_request_gp(unsigned long snap);
void rcu_tree_synchronize(void);
void rcu_tree_synchronize_expedited(void);
unsigned long rcu_tree_exp_seq(void);
void rcu_tree_get_stats(struct rcu_stats *s);
void rcu_tree_get_cpu_stats(unsigned int cpu, struct rcu_cpu_stats *s);
void rcu_tree_show_gp_state(void);

#endif
