/*
 * The combining tree's shape, computed once at boot from the CPUs found,
 * as Linux's rcu_init_geometry() does: leaves of up to rcu.fanout_leaf
 * CPUs, interior nodes of up to rcu.fanout children, and as few levels
 * (at most RCU_MAX_LEVELS) as hold every CPU. With 16 and 64, the
 * defaults, 16 CPUs make one node, 1024 two levels and 4096 three (256
 * leaves, 4 interior nodes, the root). Small fanouts make deep trees at
 * small CPU counts, so that the tests can climb four levels on a 2-core
 * host: 2 and 2 make three levels at -smp 5 to 8 and four at 9 to 16.
 *
 * The nodes sit in one array level by level, the root first, so that a
 * walk of the array visits every parent before its children (the grace
 * period's start publishes in that order) and a walk backwards every
 * child before its parent (the start's masks are combined so). The array
 * is sized at boot from the CPUs present, with the other per-CPU arrays,
 * and the tree is built before any AP or thread runs: from the first
 * context switch on, every CPU reports to its own leaf.
 */
#include "tree.h"
#include "kernel/cmdline.h"
#include "kernel/init.h"
#include "kernel/percpu_array.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/format.h"

unsigned int rcu_fanout_leaf = RCU_FANOUT_LEAF_DEFAULT;
CMDLINE_UINT("rcu.fanout_leaf", rcu_fanout_leaf, RCU_FANOUT_MIN,
	     RCU_FANOUT_MAX,
	     "CPUs per leaf of the combining tree (Linux's "
	     "rcutree.rcu_fanout_leaf)");

unsigned int rcu_fanout = RCU_FANOUT_DEFAULT;
CMDLINE_UINT("rcu.fanout", rcu_fanout, RCU_FANOUT_MIN, RCU_FANOUT_MAX,
	     "children per interior node of the combining tree (Linux's "
	     "CONFIG_RCU_FANOUT)");

char rcu_tree_shape[128];

static DEFINE_PERCPU_ARRAY_N(struct rcu_node, tree_nodes, RCU_NODES_PER_CPU);

/* CPUs a tree of `levels` levels holds at the given fanouts. */
static __init u64 capacity(unsigned int fanout, unsigned int levels)
{
	u64 cpus = rcu_fanout_leaf;

	while (--levels)
		cpus *= fanout;
	return cpus;
}

/* The fewest levels that hold cpus, or 0 if more than RCU_MAX_LEVELS. */
static __init unsigned int levels_for(unsigned int cpus, unsigned int fanout)
{
	unsigned int levels;

	for (levels = 1; levels <= RCU_MAX_LEVELS; levels++)
		if (capacity(fanout, levels) >= cpus)
			return levels;
	return 0;
}

/* The interior fanout asked for, unless RCU_MAX_LEVELS levels of it
 * could not hold every CPU: then the smallest that does, said once. Two
 * CPUs a leaf and 64 children a node hold half a million CPUs, so one
 * always fits. */
static __init unsigned int fanout_for(unsigned int cpus)
{
	unsigned int least = rcu_fanout;

	if (levels_for(cpus, rcu_fanout))
		return rcu_fanout;
	while (least < RCU_FANOUT_MAX && !levels_for(cpus, least))
		least++;
	pr_err("rcu: rcu.fanout_leaf=%u rcu.fanout=%u would need more than "
	       "%u levels for %u CPUs; expected rcu.fanout=%u at least, using "
	       "%u\n", rcu_fanout_leaf, rcu_fanout, RCU_MAX_LEVELS, cpus,
	       least, least);
	return least;
}

/* Link node j of level k to its parent and give it its CPUs: a node of
 * level k spans `span` CPUs, the last one of a level fewer. */
static __init void place_node(unsigned int k, unsigned int j, u64 span)
{
	struct rcu_node *node = rcu_state.level[k] + j;

	node->level = k;
	node->index = j;
	node->grplo = j * span;
	node->grphi = MIN(node->grplo + span, (u64)nr_cpus) - 1;
	node->parent = k ? rcu_state.level[k - 1] + j / rcu_fanout : NULL;
	node->grpmask = k ? 1ull << (j % rcu_fanout) : 0;
	spin_lock_init(&node->lock);
	rcu_preempt_init_node(node);
}

/* "3 levels: 1+2+4 nodes, fanout 2, leaves of up to 2 CPUs". */
static __init void describe_shape(void)
{
	unsigned int k, n;

	n = ksnprintf(rcu_tree_shape, sizeof(rcu_tree_shape), "%u level%s: ",
		      rcu_state.nr_levels, rcu_state.nr_levels == 1 ? "" : "s");
	for (k = 0; k < rcu_state.nr_levels; k++)
		n += ksnprintf(rcu_tree_shape + n, sizeof(rcu_tree_shape) - n,
			       "%s%u", k ? "+" : "", rcu_state.level_count[k]);
	ksnprintf(rcu_tree_shape + n, sizeof(rcu_tree_shape) - n,
		  " node%s, fanout %u, leaves of up to %u CPUs",
		  rcu_state.nr_nodes == 1 ? "" : "s", rcu_fanout,
		  rcu_fanout_leaf);
}

/**
 * rcu_geometry_init - build the combining tree for the CPUs found
 *
 * Context: boot, once, from rcu_setup(): after percpu_arrays_alloc() (the
 * nodes' array), before any AP or thread runs, so no CPU reports and no
 * reader queues on a node until the whole tree is built.
 */
__init void rcu_geometry_init(void)
{
	unsigned int k, j, cpu, levels;
	u64 span;

	rcu_fanout = fanout_for(nr_cpus);
	levels = levels_for(nr_cpus, rcu_fanout);
	/* Count from the leaves up: each level has a node per fanout
	 * nodes of the one below; the capacity check leaves one root. */
	rcu_state.level_count[levels - 1] = DIV_ROUND_UP(nr_cpus,
							 rcu_fanout_leaf);
	for (k = levels - 1; k > 0; k--)
		rcu_state.level_count[k - 1] =
			DIV_ROUND_UP(rcu_state.level_count[k], rcu_fanout);
	if (rcu_state.level_count[0] != 1)
		panic("rcu: a tree of %u levels for %u CPUs has %u roots",
		      levels, nr_cpus, rcu_state.level_count[0]);
	rcu_state.node = tree_nodes;
	rcu_state.nr_nodes = 0;
	for (k = 0; k < levels; k++) {
		rcu_state.level[k] = rcu_state.node + rcu_state.nr_nodes;
		rcu_state.nr_nodes += rcu_state.level_count[k];
	}
	if (rcu_state.nr_nodes > RCU_NODES_PER_CPU * nr_cpus)
		panic("rcu: %u nodes for %u CPUs, more than the %u a CPU of "
		      "RCU_NODES_PER_CPU", rcu_state.nr_nodes, nr_cpus,
		      RCU_NODES_PER_CPU);
	rcu_state.nr_levels = levels;
	rcu_state.nr_leaves = rcu_state.level_count[levels - 1];
	for (k = 0; k < levels; k++) {
		span = capacity(rcu_fanout, levels - k);
		for (j = 0; j < rcu_state.level_count[k]; j++)
			place_node(k, j, span);
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct rcu_node *leaf = rcu_leaf(cpu / rcu_fanout_leaf);

		/* Read by its CPU, which starts later: arch_smp_boot()
		 * orders these stores before it runs. */
		WRITE_ONCE(rcu_data[cpu].leaf_bit, 1ull << (cpu - leaf->grplo));
		WRITE_ONCE(rcu_data[cpu].leaf, leaf);
	}
	describe_shape();
}
