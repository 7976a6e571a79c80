/*
 * Sleepable RCU (SRCU), with Linux's names: read-side sections that may
 * sleep, in independent domains.
 *
 *	DEFINE_STATIC_SRCU(my_srcu);
 *
 *	idx = srcu_read_lock(&my_srcu);
 *	p = srcu_dereference(gp, &my_srcu);
 *	... use *p; may sleep ...
 *	srcu_read_unlock(&my_srcu, idx);
 *
 * An updater unpublishes, then synchronize_srcu(&my_srcu) or
 * call_srcu(&my_srcu, &p->rcu, free_fn). A grace period of one domain
 * waits only for that domain's readers: a reader asleep in another domain,
 * or in RCU proper, never holds it up, and it never waits for a CPU to
 * schedule. srcu.c explains the algorithm (per-CPU lock and unlock
 * counters in two banks, flipped by each grace period) and its barriers.
 */
#ifndef KERNEL_RCU_SRCU_H
#define KERNEL_RCU_SRCU_H

#include "cblist.h"
#include "rcupdate.h"
#include "kernel/percpu.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/spinlock.h"
#include "lib/list.h"

/* One CPU's counts of srcu_read_lock() and srcu_read_unlock() calls made
 * on it, per bank. Only the CPU itself increments them (one instruction,
 * preemption off); grace periods sum them over every CPU. */
struct srcu_data {
	unsigned long lock_count[2];
	unsigned long unlock_count[2];
} __aligned(CACHE_LINE);

struct srcu_struct {
	struct srcu_data *sda;		/* nr_cpus entries */
	unsigned long idx;		/* bit 0: the bank new readers use */
	unsigned long gp_seq;		/* as rcu_state.gp_seq: odd while
					 * a grace period runs */
	unsigned long gp_seq_needed;	/* the latest that call_srcu() or
					 * a polled cookie asked for */
	struct mutex gp_mutex;		/* one grace period at a time */
	spinlock_t cb_lock;		/* cbs, gp_seq_needed, pending */
	struct rcu_cblist cbs;		/* call_srcu() callbacks */
	struct list_head pending;	/* on the srcu_gp thread's list */
	bool dynamic;			/* sda from kmalloc (init_srcu_struct) */
	const char *name;
};

#define __SRCU_STRUCT_INIT(var, data) {					\
	.sda = (data), .idx = 0, .gp_seq = 0, .gp_seq_needed = 0,	\
	.gp_mutex = MUTEX_INIT((var).gp_mutex),				\
	.cb_lock = SPINLOCK_INIT,					\
	.cbs = RCU_CBLIST_INIT((var).cbs),				\
	.pending = LIST_HEAD_INIT((var).pending),			\
	.dynamic = false, .name = #var }

/* A domain defined at build time: no init_srcu_struct() needed, and
 * cleanup_srcu_struct() must not be called. */
#define DEFINE_SRCU(name)						\
	struct srcu_struct name = __SRCU_STRUCT_INIT(name, NULL);	\
	PERCPU_ARRAY_RECORD(&name.sda, sizeof(struct srcu_data),	\
			    __alignof__(struct srcu_data), NULL, name##_sda)
#define DEFINE_STATIC_SRCU(name)					\
	static struct srcu_struct name = __SRCU_STRUCT_INIT(name, NULL); \
	PERCPU_ARRAY_RECORD(&name.sda, sizeof(struct srcu_data),	\
			    __alignof__(struct srcu_data), NULL, name##_sda)

/* A domain set up at run time (thread context; 0, or -ENOMEM), and torn
 * down once it has no readers and no callbacks (says so if it has). */
int init_srcu_struct(struct srcu_struct *ssp);
void cleanup_srcu_struct(struct srcu_struct *ssp);

/**
 * srcu_read_lock - begin a sleepable read-side section of one domain
 *
 * Context: threads and interrupt handlers; nests, across domains too.
 * The section may sleep, and may end on another CPU.
 * A full barrier after the count: the section's accesses come after it
 * (srcu.c, barrier B).
 * Return: the bank to hand to srcu_read_unlock().
 */
int srcu_read_lock(struct srcu_struct *ssp);
/* End the section begun by the srcu_read_lock() that returned idx. */
void srcu_read_unlock(struct srcu_struct *ssp, int idx);

/* Whether the current thread holds some SRCU read lock (debug build: an
 * exact count; otherwise always true). For assertions. */
bool srcu_read_lock_held(const struct srcu_struct *ssp);

/**
 * srcu_dereference_check - load an SRCU-protected pointer, with a check
 * @p: the pointer
 * @ssp: the domain whose reader the caller is
 * @c: the caller's other protection, 0 if none
 *
 * Ordering as rcu_dereference_check(): pairs with rcu_assign_pointer().
 * The debug build warns when neither @c nor an SRCU read lock protects
 * the result.
 */
#define srcu_dereference_check(p, ssp, c)				\
	({								\
		if (KERNEL_DEBUG && !(c) && !srcu_read_lock_held(ssp))	\
			rcu_dereference_warn(__FILE__, __LINE__);	\
		rcu_dereference_raw(p);					\
	})
#define srcu_dereference(p, ssp)	srcu_dereference_check(p, ssp, 0)

/* Wait until every reader of the domain that began before the call has
 * ended (thread context, sleeps; never inside a section of the same
 * domain). The _expedited form polls the counters without backing off. */
void synchronize_srcu(struct srcu_struct *ssp);
void synchronize_srcu_expedited(struct srcu_struct *ssp);

/* Run func(head) after a grace period of the domain, in the "srcu_gp"
 * thread (any context; never sleeps). func may sleep, but must not wait
 * for an SRCU callback (srcu_barrier(), cleanup_srcu_struct()): the
 * thread that would run it is the one waiting. */
void call_srcu(struct srcu_struct *ssp, struct rcu_head *head,
	       rcu_callback_t func);
/* Wait until every callback queued on the domain before the call has run. */
void srcu_barrier(struct srcu_struct *ssp);

/* Polled grace periods: a cookie now (start_ also makes sure a grace
 * period will come), later whether a full one has elapsed since. */
unsigned long get_state_synchronize_srcu(struct srcu_struct *ssp);
unsigned long start_poll_synchronize_srcu(struct srcu_struct *ssp);
bool poll_state_synchronize_srcu(struct srcu_struct *ssp,
				 unsigned long cookie);

/* The srcu_gp thread's work on the console, lock-free: hang reports. */
void srcu_show_state(void);

/* Boot: start the "srcu_gp" thread (after rcu_start_kthreads()). */
void srcu_start_kthread(void);

#endif
