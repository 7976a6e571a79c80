/*
 * The tree engine's entries in the engine table (kernel/rcu/engine.h);
 * tree.c is the map of the engine itself.
 */
#include "tree.h"

/* The engine's set_kthread_priority: rcu_gp and every rcuc thread. */
static int tree_set_kthread_priority(unsigned int prio)
{
	unsigned int cpu;
	/* The thread pointers were set before rcu_start_kthreads()
	 * returned, and never change. */
	int err = thread_set_priority(rcu_state.gp_thread, prio);

	for (cpu = 0; cpu < nr_cpus && !err; cpu++)
		if (rcu_data[cpu].cb_thread)
			err = thread_set_priority(rcu_data[cpu].cb_thread,
						  prio);
	return err;
}

const struct rcu_engine rcu_tree_engine = {
	.name = "tree",
	.setup = rcu_geometry_init,
	.init = rcu_tree_init,
	.start_kthreads = rcu_tree_start_kthreads,
	.note_context_switch = rcu_tree_note_context_switch,
	.idle_enter = rcu_tree_idle_enter,
	.idle_exit = rcu_tree_idle_exit,
	.irq_enter = rcu_tree_irq_enter,
	.irq_exit = rcu_tree_irq_exit,
	.tick = rcu_tree_tick,
	.needs_cpu = rcu_tree_needs_cpu,
	.cpu_dying = rcu_tree_cpu_dying,
	.cpu_dead = rcu_tree_cpu_dead,
	.cpu_starting = rcu_tree_cpu_starting,
	.queue_callback = rcu_tree_queue_callback,
	.gp_seq = rcu_tree_gp_seq,
	.request_gp = rcu_tree_request_gp,
	.synchronize = rcu_tree_synchronize,
	.synchronize_expedited = rcu_tree_synchronize_expedited,
	.exp_seq = rcu_tree_exp_seq,
	.set_kthread_priority = tree_set_kthread_priority,
	.get_stats = rcu_tree_get_stats,
	.get_cpu_stats = rcu_tree_get_cpu_stats,
	.show_gp_state = rcu_tree_show_gp_state,
	.kthreads = "rcu_gp and rcuc/N",
};
