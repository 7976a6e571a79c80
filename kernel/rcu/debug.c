/*
 * The debug build's reports of RCU misuse: an unbalanced
 * rcu_read_unlock(), and a pointer loaded or a list walked with neither a
 * reader nor the caller's own protection around it.
 */
#include "rcupdate.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
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
