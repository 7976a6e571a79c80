/*
 * The debug build's reports of RCU misuse: an unbalanced
 * rcu_read_unlock(), a pointer loaded or a list walked with neither a
 * reader nor the caller's own protection around it, and an rcu_head
 * queued twice or freed while queued.
 */
#include "rcupdate.h"
#include "kernel/panic.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "lib/atomic.h"
#include "lib/rculist.h"

void rcu_read_unlock_underflow(void)
{
	panic("BUG: rcu_read_unlock() without rcu_read_lock() (thread %s)",
	      current_thread() ? current_thread()->name : "?");
}

void rcu_dereference_warn(const char *file, int line)
{
	pr_warn("WARNING: suspicious rcu_dereference_check() usage at %s:%d:"
		" no rcu_read_lock() held and no other protection given\n",
		file, line);
	arch_dump_stack();
}

/* lib/rculist.h's iterators call this once per walk. */
void rcu_list_check(bool cond, const char *file, int line)
{
	if (KERNEL_DEBUG && !cond && !rcu_read_lock_held()) {
		pr_warn("WARNING: suspicious RCU list walk at %s:%d: no "
			"rcu_read_lock() held and no condition given\n", file,
			line);
		arch_dump_stack();
	}
}

#if KERNEL_DEBUG
bool rcu_head_debug_queue(struct rcu_head *head, unsigned long caller)
{
	char first[64], again[64];
	/* One locked exchange: two CPUs queueing the same head at once
	 * cannot both see it free. */
	unsigned long mark = rcu_head_queued_mark(head);
	unsigned long was = xchg(&head->debug_queued, mark);

	if (was != mark) {
		WRITE_ONCE(head->debug_caller, caller);
		return true;
	}
	pr_err("BUG: rcu_head %p queued again while still queued: first by "
	       "%s, again by %s; the second is ignored\n", head,
	       ksym_format(first, sizeof(first),
			   READ_ONCE(head->debug_caller)),
	       ksym_format(again, sizeof(again), caller));
	arch_dump_stack();
	return false;
}

bool rcu_head_check_free(const void *ptr, size_t size)
{
	const unsigned long *w = ptr;
	size_t i, n = size / sizeof(*w);
	bool clean = true;
	char by[64];

	for (i = 0; i < n; i++) {
		const struct rcu_head *head;

		if (i * sizeof(*w) < offsetof(struct rcu_head, debug_queued))
			continue;
		head = (const void *)((const char *)&w[i] -
				      offsetof(struct rcu_head, debug_queued));
		if (READ_ONCE(w[i]) != rcu_head_queued_mark(head))
			continue;
		pr_err("BUG: kfree(%p) of an object holding an rcu_head still "
		       "queued (at %p, by %s); the object is not freed\n",
		       ptr, head, ksym_format(by, sizeof(by),
					      READ_ONCE(head->debug_caller)));
		arch_dump_stack();
		clean = false;
	}
	return clean;
}
#endif
