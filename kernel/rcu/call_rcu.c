/*
 * The two forms of call_rcu(), over whichever engine runs: the checks a
 * debug or KASAN kernel makes of the head, then the engine's queue.
 */
#include "engine.h"
#include "kernel/mm/kmalloc.h"

/* KASAN's report on a late reader of the object that holds p names the
 * call that freed it through RCU, and the grace period it waits for. */
void rcu_kasan_record(const void *p, enum kasan_aux_kind kind)
{
	if (KERNEL_KASAN)
		kasan_record_aux_stack(p, kind, rcu_gp_number(rcu_gp_snap()));
}

/**
 * call_rcu_arg - queue func(arg) to run after a grace period: the
 * article's call_rcu(head, func, arg)
 * @head: storage for the queue entry, usually inside the object; need
 *        not be initialized; must stay valid until func runs
 * @func: the callback, typically freeing arg
 * @arg: its argument
 *
 * Context: any, after rcu_init(): threads, interrupt handlers,
 * read-side sections, preemption or interrupts off; never sleeps.
 * func runs in the callback thread ("rcuc") of this CPU, with interrupts and
 * preemption enabled, once every reader that might hold a reference
 * obtained before this call has finished; this CPU's callbacks run in
 * the order queued. func may sleep, but holds up this CPU's later
 * callbacks meanwhile, and must not call rcu_barrier().
 * The caller's earlier accesses (the store that unpublished the object)
 * happen before func runs, and any reader still running by then sees
 * them: the tree's queue begins with a full barrier, the classic
 * engine's tick gives the callback its batch under its lock, after the
 * store in program order.
 */
void call_rcu_arg(struct rcu_head *head, void (*func)(void *arg), void *arg)
{
	if (KERNEL_DEBUG &&
	    !rcu_head_debug_queue(head, (uptr)__builtin_return_address(0)))
		return;
	rcu_kasan_record(head, KASAN_AUX_CALL_RCU);
	head->func = func;
	head->arg = arg;
	rcu_engine->queue_callback(head);
}

char rcu_head_form_linux[1];

/* Linux's call_rcu(head, func): as call_rcu_arg(), but func gets head. */
void call_rcu_head(struct rcu_head *head, rcu_callback_t func)
{
	if (KERNEL_DEBUG &&
	    !rcu_head_debug_queue(head, (uptr)__builtin_return_address(0)))
		return;
	rcu_kasan_record(head, KASAN_AUX_CALL_RCU);
	head->func_head = func;
	head->arg = rcu_head_form_linux;
	rcu_engine->queue_callback(head);
}

void kfree_rcu_callback(void *ptr)
{
	kfree(ptr);
}

