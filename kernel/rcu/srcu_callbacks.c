/*
 * SRCU's asynchronous side: call_srcu(), srcu_barrier() and polled grace
 * periods that must come with nobody waiting for them. One "srcu_gp"
 * thread serves every domain. A domain keeps its callbacks in one list
 * (cblist.h) under its cb_lock, each segment tagged with the grace period
 * it needs; when it needs a grace period no one has asked for yet, it
 * goes on the thread's list. The thread runs that domain's grace periods
 * (srcu_wait_for(), as synchronize_srcu() does) and then invokes the
 * callbacks whose grace period has ended, in the order they were queued.
 */
#include "srcu_internal.h"
#include "kernel/init.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/waitqueue.h"
#include "lib/atomic.h"

/* Domains that need a grace period from the thread. */
static LIST_HEAD(pending_domains);
static DEFINE_SPINLOCK(pending_lock);
static DEFINE_WAIT_QUEUE(srcu_gp_wq);
/* Held by the thread while it serves a domain, so that
 * cleanup_srcu_struct() can wait until it is done with one. */
static DEFINE_MUTEX(serving_mutex);
/* The domain the thread serves now, or NULL: stored under serving_mutex
 * (WRITE_ONCE), read lock-free by srcu_show_state() (READ_ONCE).
 * cleanup_srcu_struct() waits for serving_mutex, so a domain shown here
 * is alive but for a report racing with its very teardown. */
static struct srcu_struct *serving;

/* Caller holds ssp->cb_lock. */
void srcu_request_gp(struct srcu_struct *ssp, unsigned long cookie)
{
	if (rcu_seq_done(ssp->gp_seq_needed, cookie))
		return;		/* asked for already */
	ssp->gp_seq_needed = cookie;
	spin_lock(&pending_lock);
	if (list_empty(&ssp->pending))
		list_add_tail(&ssp->pending, &pending_domains);
	spin_unlock(&pending_lock);
	/* The queue's lock orders the list_add before the thread's test in
	 * wait_event(), which runs after prepare_to_wait() took that lock. */
	wake_up_all(&srcu_gp_wq);
}

void call_srcu(struct srcu_struct *ssp, struct rcu_head *head,
	       rcu_callback_t func)
{
	unsigned long flags, cookie;

	if (KERNEL_DEBUG &&
	    !rcu_head_debug_queue(head, (uptr)__builtin_return_address(0)))
		return;
	head->func_head = func;
	head->arg = rcu_head_form_linux;
	/* The cookie's full barrier orders the caller's unpublishing store
	 * before the sample, as in call_rcu(). */
	cookie = get_state_synchronize_srcu(ssp);
	flags = spin_lock_irqsave(&ssp->cb_lock);
	rcu_cblist_enqueue(&ssp->cbs, head);
	if (rcu_cblist_accelerate(&ssp->cbs, cookie))
		srcu_request_gp(ssp, cookie);
	spin_unlock_irqrestore(&ssp->cb_lock, flags);
}

unsigned long start_poll_synchronize_srcu(struct srcu_struct *ssp)
{
	unsigned long cookie = get_state_synchronize_srcu(ssp);
	unsigned long flags = spin_lock_irqsave(&ssp->cb_lock);

	srcu_request_gp(ssp, cookie);
	spin_unlock_irqrestore(&ssp->cb_lock, flags);
	return cookie;
}

struct srcu_barrier_head {
	struct rcu_head head;
	struct completion done;
};

static void srcu_barrier_done(struct rcu_head *head)
{
	complete(&container_of(head, struct srcu_barrier_head, head)->done);
}

/* A domain's callbacks run in the order queued, and a later one never
 * needs an earlier grace period, so one callback queued last marks the
 * moment every earlier one has run. */
void srcu_barrier(struct srcu_struct *ssp)
{
	struct srcu_barrier_head b;

	init_completion(&b.done);
	call_srcu(ssp, &b.head, srcu_barrier_done);
	wait_for_completion(&b.done);
}

/* Invoke every callback whose grace period has ended. */
static void invoke_done(struct srcu_struct *ssp)
{
	struct rcu_head *list, *next;
	unsigned long flags;

	flags = spin_lock_irqsave(&ssp->cb_lock);
	/* Acquire: pairs with the release at the end of srcu_gp(), so the
	 * callbacks run after what their grace period waited for. */
	rcu_cblist_advance(&ssp->cbs, smp_load_acquire(&ssp->gp_seq));
	rcu_cblist_take_done(&ssp->cbs, ~0ul, &list);
	spin_unlock_irqrestore(&ssp->cb_lock, flags);
	for (; list; list = next) {
		next = list->next;
		rcu_invoke_callback(list);
	}
}

static void serve(struct srcu_struct *ssp)
{
	unsigned long flags = spin_lock_irqsave(&ssp->cb_lock);
	unsigned long needed = ssp->gp_seq_needed;

	spin_unlock_irqrestore(&ssp->cb_lock, flags);
	srcu_wait_for(ssp, needed, false);
	invoke_done(ssp);
}

static struct srcu_struct *next_pending(void)
{
	struct srcu_struct *ssp = NULL;
	unsigned long flags = spin_lock_irqsave(&pending_lock);

	if (!list_empty(&pending_domains)) {
		ssp = list_first_entry(&pending_domains, struct srcu_struct,
				       pending);
		list_del_init(&ssp->pending);
	}
	spin_unlock_irqrestore(&pending_lock, flags);
	return ssp;
}

static void srcu_gp_thread_fn(void *unused)
{
	(void)unused;
	for (;;) {
		struct srcu_struct *ssp;

		/* Lock-free test, made after prepare_to_wait() took the
		 * queue's lock: see srcu_request_gp(). */
		wait_event(&srcu_gp_wq, !list_empty(&pending_domains));
		mutex_lock(&serving_mutex);
		ssp = next_pending();
		WRITE_ONCE(serving, ssp);
		if (ssp)
			serve(ssp);
		WRITE_ONCE(serving, NULL);
		mutex_unlock(&serving_mutex);
	}
}

/**
 * srcu_show_state - the srcu_gp thread's work, for reports of a hang
 *
 * The domain it serves (its grace period's sequence, what was asked for,
 * the bank readers count in), and whether more wait. A thread in
 * synchronize_srcu() shows its own wait in the thread list (wchan.h).
 * Context: any, NMI included: lock-free reads, each untorn.
 */
void srcu_show_state(void)
{
	struct srcu_struct *ssp = READ_ONCE(serving);
	/* The list head's next pointer alone: empty or not. */
	bool more = READ_ONCE(pending_domains.next) != &pending_domains;

	if (!ssp) {
		pr_err("srcu: srcu_gp serves no domain; %s\n",
		       more ? "domains wait for it" : "none waits");
		return;
	}
	pr_err("srcu: srcu_gp serves %s: gp_seq %lu (%s), needed %lu, readers "
	       "count in bank %lu; %s\n", ssp->name, READ_ONCE(ssp->gp_seq),
	       READ_ONCE(ssp->gp_seq) & 1 ? "running" : "idle",
	       READ_ONCE(ssp->gp_seq_needed), READ_ONCE(ssp->idx) & 1,
	       more ? "other domains wait" : "no other waits");
}

void srcu_forget(struct srcu_struct *ssp)
{
	unsigned long flags = spin_lock_irqsave(&pending_lock);

	list_del_init(&ssp->pending);
	spin_unlock_irqrestore(&pending_lock, flags);
	mutex_lock(&serving_mutex);
	mutex_unlock(&serving_mutex);
}

__init void srcu_start_kthread(void)
{
	if (!thread_create(srcu_gp_thread_fn, NULL, "srcu_gp"))
		panic("srcu: no memory for the srcu_gp thread");
}
