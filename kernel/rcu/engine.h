/*
 * The grace-period engine behind RCU's API: which algorithm finds the
 * quiescent states and decides when a grace period is over.
 *
 * Two engines are built into every non-preemptible kernel and chosen at
 * boot with rcu.engine=:
 *  - "tree" (the default; tree/, whose tree.c is the map): Linux's Tree
 *    RCU, a combining tree of per-node locks, a grace-period thread, and
 *    idle CPUs left alone in extended quiescent states.
 *  - "classic" (classic/): Linux 2.6.0's kernel/rcupdate.c, the engine
 *    of the 2003 article: one control block, one lock, one cpumask, and
 *    per-CPU quiescent-state counters read by each CPU's tick.
 * The preemptible flavour (make RCU=preempt) runs on the tree alone, as
 * Linux's preemptible RCU never ran on the classic engine.
 *
 * The API (rcupdate.h, hooks.h, stats.h) calls the engine through this
 * table (engine.c), so neither engine asks which one runs. What stays
 * common to both: the forms of call_rcu() and kfree_rcu() (call_rcu.c,
 * kfree.c), rcu_barrier() (barrier.c), the polled API (poll.c), and
 * SRCU, which has its own grace periods.
 *
 * Grace periods are numbered alike in both, so that the polled cookies,
 * KASAN's reports and the statistics mean one thing: a sequence that is
 * odd while a grace period runs and goes up by 2 for each one
 * (rcu_seq_snap() and rcu_seq_done() in seq.h).
 */
#ifndef KERNEL_RCU_ENGINE_H
#define KERNEL_RCU_ENGINE_H

#include "rcupdate.h"
#include "seq.h"
#include "stats.h"
#include "kernel/mm/kasan.h"

struct rcu_engine {
	const char *name;
	/* Boot, as rcu_setup(), rcu_init() and rcu_start_kthreads()
	 * (rcupdate.h); setup may be NULL. */
	void (*setup)(void);
	void (*init)(void);
	void (*start_kthreads)(void);
	/* The hooks of hooks.h, one for one. */
	void (*note_context_switch)(void);
	void (*idle_enter)(void);
	void (*idle_exit)(void);
	void (*irq_enter)(void);
	void (*irq_exit)(void);
	void (*tick)(void);
	/* rcu_needs_cpu(): how long this idle CPU may sleep without its
	 * tick, in ns; 0 keeps the tick, U64_MAX asks for nothing. */
	u64 (*needs_cpu)(void);
	void (*cpu_dying)(void);
	void (*cpu_dead)(unsigned int cpu);
	void (*cpu_starting)(void);
	/* Queue head, whose func and arg are set, on this CPU's list, to
	 * run after a grace period begun after the call; never sleeps.
	 * Callbacks of one CPU run in the order queued (rcu_barrier()
	 * relies on it). */
	void (*queue_callback)(struct rcu_head *head);
	/* The normal grace-period sequence, read with acquire: a grace
	 * period seen ended has its readers done before the caller's next
	 * accesses. A grace period that starts after the caller's full
	 * barrier makes it odd only after that barrier. */
	unsigned long (*gp_seq)(void);
	/* Make sure the grace period that ends at sequence snap starts. */
	void (*request_gp)(unsigned long snap);
	void (*synchronize)(void);
	void (*synchronize_expedited)(void);
	/* The expedited sequence, read with acquire, numbered as gp_seq;
	 * an engine without expedited grace periods of its own returns
	 * gp_seq's. */
	unsigned long (*exp_seq)(void);
	/* Run the engine's own threads at prio (0 normal, 1..99 FIFO). */
	int (*set_kthread_priority)(unsigned int prio);
	/* The engine's part of rcu_get_stats() and rcu_get_cpu_stats(). */
	void (*get_stats)(struct rcu_stats *s);
	void (*get_cpu_stats)(unsigned int cpu, struct rcu_cpu_stats *s);
	void (*show_gp_state)(void);
	/* The threads rcu_kthreads_set_priority() moves, for the boot
	 * line and the shell: "rcu_gp and rcuc/N". */
	const char *kthreads;
};

/* The engine that runs: chosen by rcu.engine= while the command line is
 * parsed, before any AP starts, and never changed after. */
extern const struct rcu_engine *rcu_engine;

extern const struct rcu_engine rcu_tree_engine;
#if !CONFIG_PREEMPT_RCU
extern const struct rcu_engine rcu_classic_engine;
#endif

/* Each engine keeps the durations of its last RCU_LATENCY_RING grace
 * periods for rcu_get_stats(), which rcu_fill_latency() summarises. */
#define RCU_LATENCY_RING	1024u
void rcu_fill_latency(struct rcu_stats *s, const u64 *ring,
		      unsigned int written);

/* Shared by both engines and the common files. poll.c: the sequence value at which a normal grace period begun after
 * the caller's earlier accesses has ended, and whether it has. */
unsigned long rcu_gp_snap(void);
bool rcu_gp_done(unsigned long snap);
void rcu_request_gp(unsigned long snap);
/* The expedited sequence's snapshot, for the _full cookies. */
unsigned long rcu_exp_get_state(void);
/* call_rcu.c: KASAN's note of who handed p to RCU, for which GP. */
void rcu_kasan_record(const void *p, enum kasan_aux_kind kind);
/* engine.c: start cpu's callback thread, "rcuc/N", running fn(arg). */
struct thread;
struct thread *rcu_start_cb_thread(unsigned int cpu, void (*fn)(void *arg),
				   void *arg);
/* kthreads.c: rcu.kthread_prio= for the threads just started. */
void rcu_kthreads_apply_boot_priority(void);
/* kfree.c: queue this CPU's open kfree_rcu() block (interrupts off). */
void rcu_kfree_flush_here(void);
bool rcu_kfree_pending_here(void);
extern u64 rcu_kfree_blocks;
/*
 * Holdouts a stall warning prints in full, two lines and a backtrace
 * each; the rest are named in a line per node of CPUs, with how many the
 * host starved. At -smp 255 on a busy host most vCPUs are holdouts, and
 * a warning that printed each in full through the 115200-baud console
 * outlasted the stall timeout: the reports kept the run from ending.
 * Counted since boot (atomic adds by whichever CPU warns, read
 * lock-free) for rcu_get_stats() and the test that checks the bound.
 */
#define RCU_STALL_CPUS_IN_FULL	4
extern u64 rcu_stall_full_reported, rcu_stall_rest_reported;

/* The stall warnings' verdict on a CPU that is not online (fqs.c), or
 * NULL, and rcu.stall_timeout_ms=, which both engines use. */
const char *rcu_offline_stall_verdict(unsigned int cpu);
extern unsigned int rcu_stall_timeout_ms;

#endif
