/*
 * Read-copy-update: the API, with Linux's names.
 *
 * Readers:
 *	rcu_read_lock();
 *	p = rcu_dereference(gp);
 *	... use *p, without sleeping ...
 *	rcu_read_unlock();
 *
 * Updaters publish a new version with rcu_assign_pointer() and retire the
 * old one with call_rcu(&old->rcu, func, arg) (func(arg) runs after a
 * grace period: once every CPU has passed a quiescent state, so no reader
 * that could see the old version remains) or wait for a grace period with
 * synchronize_kernel() / synchronize_rcu().
 *
 * The read side is preempt_disable()/preempt_enable() and nothing else:
 * no atomic instruction, no fence, no shared write. The debug build also
 * keeps a per-CPU nesting count, with the same single-instruction
 * increment, to catch an unbalanced rcu_read_unlock().
 */
#ifndef KERNEL_RCUPDATE_H
#define KERNEL_RCUPDATE_H

#include "kernel/sched/preempt.h"
#include "lib/rcu_pointer.h"

struct rcu_head;
/* Linux's callback type: the callback gets the head, and finds its
 * object with container_of(). */
typedef void (*rcu_callback_t)(struct rcu_head *head);

struct rcu_head {
	struct rcu_head *next;
	union {
		void (*func)(void *arg);	/* the article's func(arg) */
		rcu_callback_t func_head;	/* Linux's func(head) */
	};
	void *arg;		/* func's argument, or rcu_head_form_linux */
#if KERNEL_DEBUG
	/* rcu_head_queued_mark(head) from call_rcu() or call_srcu() until
	 * the callback is invoked, and who queued it: a second queueing, or
	 * a kfree() of memory holding the head meanwhile, is reported
	 * (debug.c). */
	unsigned long debug_queued;
	unsigned long debug_caller;
#endif
};

#define RCU_HEAD_QUEUED		0x5243552d51554555ul	/* "RCU-QUEU" */

/* The mark of a queued head is keyed to where it lies: a stale copy of
 * the constant (a register spilled on a stack since freed, the unused
 * tail of a reused block) sits at some other address and is not taken
 * for a queued head by kfree()'s check. */
static inline unsigned long rcu_head_queued_mark(const struct rcu_head *head)
{
	return RCU_HEAD_QUEUED ^ (unsigned long)head;
}

/* Debug build: mark head queued by `caller`; false (after a report naming
 * both callers) if it is queued already, and must not be queued again. */
bool rcu_head_debug_queue(struct rcu_head *head, unsigned long caller);
/* Debug build: whether [ptr, ptr + size) holds no queued rcu_head;
 * false after reporting one. */
bool rcu_head_check_free(const void *ptr, size_t size);

/* The address that marks a head queued in Linux's form: no caller of the
 * three-argument form can pass it by accident. */
extern char rcu_head_form_linux[];

/* Run a callback queued by call_rcu(), call_srcu() or kfree_rcu(), in
 * whichever form it was queued. */
static inline void rcu_invoke_callback(struct rcu_head *head)
{
#if KERNEL_DEBUG
	/* Before the call: the callback may free or queue the head again. */
	head->debug_queued = 0;
#endif
	if (head->arg == rcu_head_form_linux)
		head->func_head(head);
	else
		head->func(head->arg);
}

void rcu_read_unlock_underflow(void);
void rcu_dereference_warn(const char *file, int line);

#if CONFIG_PREEMPT_RCU
void rcu_read_unlock_special(void);

/**
 * rcu_read_lock - begin a read-side critical section
 *
 * Context: any: threads, interrupt handlers, preemption or interrupts
 * already off; nests. Never sleeps, and the section it opens must not
 * sleep either (the debug build panics), but in this flavour it may be
 * preempted: the depth belongs to the thread (it moves with it at each
 * switch, see percpu.h), and a thread switched out inside a section is
 * queued where grace periods wait for it (kernel/rcu/preempt/).
 * One instruction on this CPU's area, which an interrupt cannot split;
 * the compiler barrier keeps the section's accesses after it.
 */
static __always_inline void rcu_read_lock(void)
{
	if (KERNEL_DEBUG && arch_percpu_read32(PERCPU_OFF(rcu_nesting)) == 0)
		arch_percpu_write64(PERCPU_OFF(rcu_lock_ip), _THIS_IP_);
	arch_percpu_inc32(PERCPU_OFF(rcu_nesting));
	barrier();
}

/**
 * rcu_read_unlock - end a read-side critical section
 *
 * Context: wherever the matching rcu_read_lock() was. Never sleeps. The
 * outermost unlock of a thread that was preempted inside its section
 * takes it off its leaf's list (rcu_read_unlock_special()), which may
 * end a grace period. The debug build panics on an unlock without a lock.
 * Depth first, then the special bits: a switch between the two sees the
 * depth at 0 and does the slow path itself, and an interrupt's reader
 * between them does it, or leaves it to the next preemption point.
 */
static __always_inline void rcu_read_unlock(void)
{
	barrier();
	if (KERNEL_DEBUG &&
	    unlikely(arch_percpu_read32(PERCPU_OFF(rcu_nesting)) == 0))
		rcu_read_unlock_underflow();
	arch_percpu_dec32(PERCPU_OFF(rcu_nesting));
	barrier();
	if (unlikely(arch_percpu_read32(PERCPU_OFF(rcu_unlock_special))) &&
	    arch_percpu_read32(PERCPU_OFF(rcu_nesting)) == 0)
		rcu_read_unlock_special();
}

/**
 * rcu_read_lock_any_held - does anything keep a grace period from ending?
 *
 * Context: any; never sleeps. A reader, and also preemption off for any
 * reason (a spinlock, say), interrupts off, or an interrupt handler, as
 * Linux's rcu_read_lock_any_held() counts them. Orders nothing.
 */
static inline bool rcu_read_lock_any_held(void)
{
	return arch_percpu_read32(PERCPU_OFF(rcu_nesting)) > 0 ||
	       preempt_count() > 0 || !arch_irqs_enabled() || in_irq();
}

/**
 * rcu_preempt_depth - how deep in preemptible read-side sections?
 *
 * Context: any; never sleeps; orders nothing. Linux's rcu_preempt_depth():
 * the running thread's nesting, which a section may be preempted at but
 * never sleep at; always 0 in the other flavour, whose sections show in
 * preempt_count() instead.
 */
static inline unsigned int rcu_preempt_depth(void)
{
	return arch_percpu_read32(PERCPU_OFF(rcu_nesting));
}

#else

/**
 * rcu_read_lock - begin a read-side critical section
 *
 * Context: any: threads, interrupt handlers, preemption or interrupts
 * already off; nests. Never sleeps; the section it opens must not sleep
 * either (schedule() inside it panics in the debug build), as it
 * disables preemption until the matching rcu_read_unlock().
 * No barrier and no atomic instruction: the compiler barrier of
 * preempt_disable() keeps the section's accesses after it, and the
 * grace-period machinery does the rest (a CPU reports a quiescent state
 * only from outside every section).
 */
static __always_inline void rcu_read_lock(void)
{
	preempt_disable();
	if (KERNEL_DEBUG) {
		/* Where the outermost section began, for the report of a
		 * reader that sleeps. An interrupt's own section between
		 * the test and the increment may overwrite it: a rare
		 * wrong place in a report, nothing else. */
		if (arch_percpu_read32(PERCPU_OFF(rcu_nesting)) == 0)
			arch_percpu_write64(PERCPU_OFF(rcu_lock_ip), _THIS_IP_);
		arch_percpu_inc32(PERCPU_OFF(rcu_nesting));
	}
}

/**
 * rcu_read_unlock - end a read-side critical section
 *
 * Context: wherever the matching rcu_read_lock() was. Never sleeps, but
 * when it turns preemption back on, in a thread with interrupts on, it
 * reschedules if a reschedule is pending (that is how a CPU nudged by
 * RCU reports its quiescent state).
 * The debug build panics on an unlock without a lock.
 * No barrier: the compiler barrier of preempt_enable() keeps the
 * section's accesses before it.
 */
static __always_inline void rcu_read_unlock(void)
{
	if (KERNEL_DEBUG) {
		if (unlikely(arch_percpu_read32(PERCPU_OFF(rcu_nesting)) == 0))
			rcu_read_unlock_underflow();
		arch_percpu_dec32(PERCPU_OFF(rcu_nesting));
	}
	preempt_enable();
}

/**
 * rcu_read_lock_any_held - does anything keep a grace period from ending?
 *
 * Context: any; never sleeps. Preemption off for any reason (a spinlock,
 * say), interrupts off, or an interrupt handler all do, as Linux's
 * rcu_read_lock_any_held() counts them. Orders nothing.
 */
static inline bool rcu_read_lock_any_held(void)
{
	return preempt_count() > 0 || !arch_irqs_enabled() || in_irq();
}

static inline unsigned int rcu_preempt_depth(void)
{
	return 0;
}
#endif

/**
 * rcu_read_lock_held - is the caller inside rcu_read_lock()?
 *
 * Context: any; never sleeps. For assertions. The debug build answers
 * exactly, from the nesting count of rcu_read_lock(): a spinlock or a
 * region with preemption off is no read-side section, however much it
 * happens to delay grace periods; so does the preemptible flavour, which
 * always counts. The non-preemptible flavour's other build keeps no count
 * and answers as rcu_read_lock_any_held(). Orders nothing.
 */
static inline bool rcu_read_lock_held(void)
{
	if (KERNEL_DEBUG || CONFIG_PREEMPT_RCU)
		return arch_percpu_read32(PERCPU_OFF(rcu_nesting)) > 0;
	return rcu_read_lock_any_held();
}

/**
 * rcu_dereference_check - load an RCU-protected pointer, with a check
 * @p: the pointer (an lvalue, such as a global or a structure field)
 * @c: the caller's other protection, for instance "I hold the update
 *     lock"; 0 if none
 *
 * Context: any; never sleeps. The debug build prints a warning and a
 * stack trace when neither @c nor rcu_read_lock_held() protects the
 * result.
 * One untorn load (READ_ONCE); accesses through the result depend on
 * it and so come after it, which pairs with the release store of
 * rcu_assign_pointer(): they see the object as it was published.
 * Return: the pointer's value.
 */
#define rcu_dereference_check(p, c)					\
	({								\
		if (KERNEL_DEBUG && !(c) && !rcu_read_lock_held())	\
			rcu_dereference_warn(__FILE__, __LINE__);	\
		rcu_dereference_raw(p);					\
	})

/**
 * rcu_dereference - load an RCU-protected pointer inside a reader
 * @p: the pointer
 *
 * Context: inside rcu_read_lock() (or anywhere rcu_read_lock_held() is
 * true); the debug build warns otherwise. Never sleeps.
 * Ordering as rcu_dereference_check(): pairs with rcu_assign_pointer().
 * Return: the pointer's value, valid until the section ends.
 */
#define rcu_dereference(p)		rcu_dereference_check(p, 0)

/**
 * rcu_dereference_protected - load an RCU-protected pointer as updater
 * @p: the pointer
 * @c: the protection the caller holds, usually "I hold the lock that
 *     excludes other updaters"
 *
 * Context: any, with @c true; the debug build warns otherwise, inside a
 * reader too, as Linux checks only @c here. Never sleeps. The load is
 * READ_ONCE, though @c excludes concurrent updates: it costs nothing.
 * Return: the pointer's value.
 */
#define rcu_dereference_protected(p, c)				\
	({								\
		if (KERNEL_DEBUG && !(c))				\
			rcu_dereference_warn(__FILE__, __LINE__);	\
		rcu_dereference_raw(p);					\
	})

/**
 * rcu_replace_pointer - publish a new value and return the old one
 * @rcu_ptr: the RCU-protected pointer
 * @ptr: the new value
 * @c: the protection the updater holds, as for rcu_dereference_protected()
 *
 * Context: an updater, @c true. Release store as rcu_assign_pointer().
 * Return: the value @rcu_ptr held, to free after a grace period.
 */
#define rcu_replace_pointer(rcu_ptr, ptr, c)				\
	({								\
		__typeof__(ptr) __old = rcu_dereference_protected(rcu_ptr, c); \
		rcu_assign_pointer(rcu_ptr, ptr);			\
		__old;							\
	})

void call_rcu_arg(struct rcu_head *head, void (*func)(void *arg), void *arg);

/* Linux's call_rcu(head, func): func(head) after a grace period. The same
 * as call_rcu_arg() in every other way. */
void call_rcu_head(struct rcu_head *head, rcu_callback_t func);

/*
 * call_rcu() in both forms: the article's call_rcu(head, func, arg), and
 * Linux's call_rcu(head, func) with func(struct rcu_head *), so that code
 * written for either compiles unchanged. The number of arguments picks.
 */
#define call_rcu(...)							\
	CALL_RCU_PICK(__VA_ARGS__, call_rcu_arg, call_rcu_head, )(__VA_ARGS__)
#define CALL_RCU_PICK(a, b, c, form, ...) form

void kfree_rcu_callback(void *ptr);

void kfree_rcu_head(void *ptr, struct rcu_head *head);

/**
 * kfree_rcu - free an object with kfree() after a grace period
 * @ptr: the object, from kmalloc(), already unpublished
 * @field: the name of its struct rcu_head member
 *
 * Context: as call_rcu(): any, after rcu_init(); never sleeps.
 * Batched (kfree.c): the pointer joins this CPU's block, which one
 * callback frees after a grace period; @field is used only when there is
 * no memory for a block. Orders as call_rcu(): the caller's earlier
 * stores (the unpublishing one) come before the free, and no reader that
 * could still see @ptr is running when it happens.
 */
#define kfree_rcu(ptr, field)	kfree_rcu_head((ptr), &(ptr)->field)

/* Linux's single-argument form, for an object with no rcu_head: batched
 * too, but without memory for a block it waits for a grace period
 * itself, so it may sleep (thread context only). */
void kfree_rcu_mightsleep(void *ptr);

void synchronize_rcu(void);

/**
 * synchronize_kernel - the 2003 name of synchronize_rcu()
 *
 * Context: as synchronize_rcu(): thread context with preemption and
 * interrupts enabled; sleeps, so never inside rcu_read_lock().
 * Orders as synchronize_rcu(): every reader that began before the call
 * has ended on return, and its accesses come before the caller's later
 * ones.
 */
static inline void synchronize_kernel(void)
{
	synchronize_rcu();
}

/* A grace period forced with IPIs, for callers that cannot wait ticks. */
void synchronize_rcu_expedited(void);
/* Wait until every callback queued before the call has run. */
void rcu_barrier(void);

/* Polled grace periods (poll.c): a cookie now; later, whether a full
 * grace period has elapsed since. */
unsigned long get_state_synchronize_rcu(void);
unsigned long start_poll_synchronize_rcu(void);
bool poll_state_synchronize_rcu(unsigned long cookie);
void cond_synchronize_rcu(unsigned long cookie);
unsigned long start_poll_synchronize_rcu_expedited(void);
void cond_synchronize_rcu_expedited(unsigned long cookie);

/* A cookie that a normal or an expedited grace period satisfies,
 * whichever ends first. */
struct rcu_gp_oldstate {
	unsigned long rgos_norm;
	unsigned long rgos_exp;
};
void get_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp);
void start_poll_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp);
bool poll_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp);
void cond_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp);
void start_poll_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp);
void cond_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp);

/* Boot: take rcu.engine= (right after the command line is parsed), size
 * what grows with the CPUs (once they are counted, before any AP or
 * thread runs), set up the engine (once the APs are up), and start its
 * kthreads. */
void rcu_choose_engine(void);
void rcu_setup(void);
void rcu_init(void);
void rcu_start_kthreads(void);
/* The engine's threads' priority (kernel/rcu/kthreads.c:
 * rcu.kthread_prio), and a change of it at run time. */
unsigned int rcu_kthread_priority(void);
int rcu_kthreads_set_priority(unsigned int prio);

#endif
