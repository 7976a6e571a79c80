/*
 * Preemptible RCU's part of the stall warnings: the readers that hold a
 * grace period up from their leaves' lists, as Linux's "tasks blocked on
 * level-0 rcu_node" lines name them.
 */
#include "preempt.h"
#include "kernel/printk.h"
#include "kernel/rcu/tree/tree.h"
#include "kernel/time.h"

/* At most this many readers named per leaf: a stall report must end. */
#define STALL_READERS_SHOWN	8

/* One leaf's readers from `from` on (the wait that stalls), under the
 * leaf's lock so that the list holds still while we walk it. */
static void show_leaf(struct rcu_node *leaf, bool expedited)
{
	unsigned long flags = spin_lock_irqsave(&leaf->lock);
	struct list_head *from = expedited ? leaf->exp_tasks : leaf->gp_tasks;
	struct list_head *pos;
	unsigned int shown = 0;
	u64 now = clock_ns();

	if (from)
		pr_err("rcu:     tasks blocked on leaf %u (cpu%u..) %s:\n",
		       leaf->index, leaf->grplo,
		       expedited ? "hold up the expedited grace period" :
				   "hold up the grace period");
	for (pos = from; pos && pos != &leaf->blkd_tasks; pos = pos->next) {
		struct thread *t = list_entry(pos, struct thread,
					      rcu_blocked_link);
		unsigned int cpu = READ_ONCE(t->cpu);
		struct thread *running = READ_ONCE(cpu_area(cpu)->current);

		if (shown++ == STALL_READERS_SHOWN) {
			pr_err("rcu:       ...\n");
			break;
		}
		pr_err("rcu:       %s/%llu, preempted inside its reader "
		       "%llu ms ago, %s on cpu%u, which runs %s (preempt_count "
		       "%u)\n", t->name, t->id,
		       (now - t->rcu_blocked_ns) / NSEC_PER_MSEC,
		       thread_state_name(READ_ONCE(t->state)), cpu,
		       running ? running->name : "?",
		       READ_ONCE(cpu_area(cpu)->preempt_count));
		/* Boosted and still holding the wait up: whatever starves
		 * it outranks the boost, or the boost is recent. */
		if (t->rcu_boosted)
			pr_err("rcu:         boosted %llu ms ago, to priority "
			       "%u\n", (now - t->rcu_boosted_ns) /
			       NSEC_PER_MSEC, thread_priority(t));
	}
	spin_unlock_irqrestore(&leaf->lock, flags);
}

void rcu_preempt_show_blocked(bool expedited)
{
	struct rcu_node *leaf;

	rcu_for_each_leaf(leaf)
		show_leaf(leaf, expedited);
}
