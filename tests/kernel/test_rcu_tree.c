/*
 * The combining tree's own rules, white-box: checked against its state
 * (kernel/rcu/tree/tree.h) where a black-box test would need a rare
 * interleaving.
 *
 * A report is for one grace period: a late report for the last one must
 * not clear the holdout's bit in the next. Without that check the make
 * mutants run let report_for_stale_gp survive, since the torture meets
 * the interleaving (an idle CPU's interrupt reporting late) only now and
 * then.
 *
 * A CPU that cpu_down() has taken out of the online set may still be
 * finishing a reader (kernel/hotplug.c, step 1): grace periods, normal
 * and expedited, must wait for it. The onoff torture meets that window
 * only when a CPU goes down inside a reader, and the make mutants run of
 * stop 20 let gp_skips_cpus_marked_offline and
 * exp_skips_cpus_marked_offline through; these tests hold the window
 * open.
 *
 * The forcing scan nudges a holdout that runs on without a quiescent
 * state, naming it by its leaf's first CPU plus its bit there: only a
 * tree of several leaves (rcu.fanout_leaf=) shows a wrong sum, and the
 * torture's CPUs report soon enough on their own that nobody noticed
 * (the blind mutant fqs_holdout_missing_leaf_offset survived). A holder
 * in the last leaf here waits to be nudged.
 *
 * The rcu_tree suite checks the tree's shape (geometry.c), worked out
 * apart, and that every node on a holdout's way to the root waits for
 * the node below: the deep-tree boots run it (rcu.fanout=), where a
 * wrong mask at an interior level would otherwise show only as a
 * grace period ending early, or never, somewhere in the torture.
 *
 * A grace-period request between its lock-free check and its check
 * under the lock meets another, later request there, put exactly in
 * that gap by a race window armed for the test's thread.
 *
 * Each test that holds a reader runs on cpu0 and holds it on another
 * CPU, where it spins with preemption off: the test's own thread must
 * not be there.
 */
#include "kernel/race.h"
#include "kernel/rcu/tree/tree.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/smp_call.h"
#include "kernel/test/ktest.h"

static bool holder_inside, holder_release;

/* White-box tests of the tree: with rcu.engine=classic there is none. */
#define SKIP_UNLESS_TREE()						\
	do {								\
		if (rcu_engine != &rcu_tree_engine)			\
			KTEST_SKIP("tests the tree engine; rcu.engine="	\
				   "classic runs");			\
	} while (0)

/* Preemption off as well as the reader: a preemptible reader's CPU
 * reports when the reader is switched out (its leaf then waits for the
 * reader instead), and these tests need the CPU itself to owe. */
static void hold_reader_until_released(void *unused)
{
	(void)unused;
	preempt_disable();
	rcu_read_lock();
	WRITE_ONCE(holder_inside, true);
	while (!READ_ONCE(holder_release))
		arch_cpu_relax();
	rcu_read_unlock();
	preempt_enable();
}

/* A thread on cpu inside rcu_read_lock() once this returns, or NULL. */
static struct thread *hold_reader_on(unsigned int cpu)
{
	struct thread *holder;

	WRITE_ONCE(holder_inside, false);
	WRITE_ONCE(holder_release, false);
	holder = thread_create_on(hold_reader_until_released, NULL,
				  "reader_holder", cpu);
	if (holder)
		while (!READ_ONCE(holder_inside))
			sleep_ms(1);
	return holder;
}

/* Inside a reader until the forcing scan has nudged this CPU twice. A
 * holdout never nudged keeps the grace period waiting, and the stall
 * warning says so. */
static void hold_reader_until_nudged(void *unused)
{
	struct rcu_data *rdp = &rcu_data[this_cpu_id()];
	u64 before;

	(void)unused;
	preempt_disable();
	rcu_read_lock();
	/* The GP thread's plain increments, read whole (aligned). */
	before = READ_ONCE(rdp->nudges);
	WRITE_ONCE(holder_inside, true);
	while (READ_ONCE(rdp->nudges) < before + 2)
		arch_cpu_relax();
	rcu_read_unlock();
	preempt_enable();
}

static void release_reader(struct thread *holder)
{
	WRITE_ONCE(holder_release, true);
	thread_join(holder);
}

/* Ask for a grace period and wait until cpu's leaf has been set up for
 * it (node_start() stores the mask before the node's gp_seq, in order
 * on x86-TSO), or until it has ended already. Returns its cookie. */
static unsigned long start_grace_period(unsigned int cpu)
{
	const struct rcu_node *leaf = rcu_data[cpu].leaf;
	unsigned long snap = rcu_gp_snap();

	rcu_request_gp(snap);
	/* The grace period that ends at snap begins at snap - 1. */
	while (READ_ONCE(leaf->gp_seq) != snap - 1 && !rcu_gp_done(snap))
		sleep_ms(1);
	return snap;
}

KTEST_ON_CPU(rcu, stale_report_does_not_end_the_next_grace_period, 0)
{
	struct rcu_data *rdp = &rcu_data[1];
	unsigned long stale, snap;
	struct thread *holder;
	bool bit_set, ended_under_reader;

	SKIP_UNLESS_TREE();
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to hold a reader");
	synchronize_rcu();
	/* The value gp_seq had while the grace period just ended ran. */
	stale = READ_ONCE(rcu_state.gp_seq) - 1;
	holder = hold_reader_on(1);
	KASSERT_TRUE(holder != NULL);
	snap = start_grace_period(1);
	bit_set = READ_ONCE(rdp->leaf->qsmask) & rdp->leaf_bit;
	/* cpu1's report for the last grace period arrives late. */
	rcu_report_qs(1, stale);
	/* Ticks enough for the grace-period thread to end it, were the bit
	 * gone: cpu0 reports at its next context switch. */
	sleep_ms(20);
	ended_under_reader = rcu_gp_done(snap);
	release_reader(holder);
	KEXPECT_TRUE(bit_set);
	KEXPECT_FALSE(ended_under_reader);
	synchronize_rcu();
}

KTEST_ON_CPU(hotplug, grace_period_waits_for_a_cpu_leaving_the_online_set, 0)
{
	struct rcu_data *rdp = &rcu_data[1];
	struct thread *holder;
	bool bit_set, ended_under_reader;
	unsigned long snap;

	SKIP_UNLESS_TREE();
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to hold a reader");
	holder = hold_reader_on(1);
	KASSERT_TRUE(holder != NULL);
	/* cpu_down()'s first step, with cpu1 still inside its reader. */
	smp_call_set_online(1, false);
	snap = start_grace_period(1);
	bit_set = READ_ONCE(rdp->leaf->qsmask) & rdp->leaf_bit;
	/* Were cpu1 left out, every other CPU reports within a few ticks
	 * and the grace period ends. */
	sleep_ms(20);
	ended_under_reader = rcu_gp_done(snap);
	smp_call_set_online(1, true);
	release_reader(holder);
	KEXPECT_TRUE(bit_set);
	KEXPECT_FALSE(ended_under_reader);
	synchronize_rcu();
}

static bool expedited_returned;

static void expedite(void *unused)
{
	(void)unused;
	synchronize_rcu_expedited();
	WRITE_ONCE(expedited_returned, true);
}

KTEST_ON_CPU(hotplug, expedited_waits_for_a_cpu_leaving_the_online_set, 0)
{
	struct thread *holder, *expediter;
	bool owed, returned_under_reader;

	SKIP_UNLESS_TREE();
	if (nr_cpus_online < 2)
		KTEST_SKIP("needs a second CPU to hold a reader");
	holder = hold_reader_on(1);
	KASSERT_TRUE(holder != NULL);
	smp_call_set_online(1, false);
	WRITE_ONCE(expedited_returned, false);
	expediter = thread_create_on(expedite, NULL, "expediter", 0);
	KASSERT_TRUE(expediter != NULL);
	/* Until the expedited grace period has asked cpu1 for its report,
	 * or has ended without it (the bug): neither waits on the clock. */
	while (!READ_ONCE(rcu_data[1].exp_pending) &&
	       !READ_ONCE(expedited_returned))
		sleep_ms(1);
	owed = READ_ONCE(rcu_data[1].exp_pending);
	/* The IPI reaches cpu1 inside its reader, which must hold the
	 * grace period until it ends. */
	sleep_ms(20);
	returned_under_reader = READ_ONCE(expedited_returned);
	smp_call_set_online(1, true);
	release_reader(holder);
	thread_join(expediter);
	KEXPECT_TRUE(owed);
	KEXPECT_FALSE(returned_under_reader);
}

KTEST_ON_CPU(rcu, holdout_of_a_later_leaf_is_nudged, 0)
{
	unsigned int cpu = nr_cpus - 1;
	struct thread *holder;

	SKIP_UNLESS_TREE();
	if (rcu_state.nr_leaves < 2 || !READ_ONCE(cpu_area(cpu)->online) ||
	    rcu_data[cpu].leaf->grplo == 0)
		KTEST_SKIP("needs an online CPU in a second leaf of the tree "
			   "(rcu.fanout_leaf=)");
	WRITE_ONCE(holder_inside, false);
	holder = thread_create_on(hold_reader_until_nudged, NULL,
				  "nudged_holder", cpu);
	KASSERT_TRUE(holder != NULL);
	while (!READ_ONCE(holder_inside))
		sleep_ms(1);
	/* Ends once the holder, nudged, has left its reader. */
	synchronize_rcu();
	thread_join(holder);
}

/* The levels a tree of these fanouts needs for nr_cpus, worked out
 * apart from geometry.c: the leaves, then a node per fanout nodes of
 * the level below, until one node is left. */
static unsigned int expected_levels(void)
{
	unsigned int levels = 1, n = DIV_ROUND_UP(nr_cpus, rcu_fanout_leaf);

	for (; n > 1; levels++)
		n = DIV_ROUND_UP(n, rcu_fanout);
	return levels;
}

/* One node's place: its CPUs follow its left neighbour's on its level,
 * inside its parent's, and a leaf holds at most rcu.fanout_leaf. */
static void check_node(struct ktest_context *t, const struct rcu_node *node,
		       unsigned int *next_cpu)
{
	const struct rcu_node *parent = node->parent;

	KEXPECT_EQ(node->grplo, next_cpu[node->level]);
	KEXPECT_TRUE(node->grplo <= node->grphi);
	next_cpu[node->level] = node->grphi + 1;
	if (rcu_is_leaf(node))
		KEXPECT_TRUE(node->grphi - node->grplo < rcu_fanout_leaf);
	if (!parent) {
		KEXPECT_TRUE(node == rcu_root());
		return;
	}
	KEXPECT_EQ(parent->level + 1, node->level);
	KEXPECT_TRUE(parent->grplo <= node->grplo &&
		     node->grphi <= parent->grphi);
	/* One bit, and a bit of the parent's fanout. */
	KEXPECT_TRUE(node->grpmask && !(node->grpmask & (node->grpmask - 1)));
	KEXPECT_TRUE(rcu_fanout == RCU_FANOUT_MAX ||
		     node->grpmask < 1ull << rcu_fanout);
}

/*
 * The shape geometry.c built for the CPUs found and the fanouts asked
 * for: as few levels as hold every CPU, each level's nodes covering every
 * CPU once, in order, each node inside its parent, and each CPU pointed
 * at the leaf that covers it, at its bit there.
 */
KTEST(rcu_tree, shape_covers_every_cpu_once_per_level)
{
	unsigned int next_cpu[RCU_MAX_LEVELS] = { 0 };
	const struct rcu_node *node;
	unsigned int cpu, k;

	SKIP_UNLESS_TREE();
	KEXPECT_EQ(rcu_state.nr_levels, expected_levels());
	KEXPECT_EQ(rcu_state.level_count[0], 1u);
	rcu_for_each_node(node)
		check_node(t, node, next_cpu);
	for (k = 0; k < rcu_state.nr_levels; k++)
		KEXPECT_EQ(next_cpu[k], nr_cpus);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		const struct rcu_node *leaf = rcu_data[cpu].leaf;

		KEXPECT_TRUE(rcu_is_leaf(leaf));
		KEXPECT_TRUE(leaf->grplo <= cpu && cpu <= leaf->grphi);
		KEXPECT_EQ(rcu_data[cpu].leaf_bit, 1ull << (cpu - leaf->grplo));
	}
}

/*
 * While a CPU owes the running grace period, each node on its way to the
 * root waits for the one below: the masks a grace period's start sets at
 * every level, and that no report of another CPU clears early. A last CPU
 * is the one in the deepest, least shared corner of an uneven tree.
 */
KTEST_ON_CPU(rcu_tree, each_ancestor_of_a_holdout_waits_for_it, 0)
{
	unsigned int cpu = nr_cpus - 1;
	const struct rcu_node *node;
	struct thread *holder;
	unsigned long snap, gp;
	bool all_wait;

	SKIP_UNLESS_TREE();
	if (cpu == 0 || !READ_ONCE(cpu_area(cpu)->online))
		KTEST_SKIP("needs a second online CPU to hold a reader");
	holder = hold_reader_on(cpu);
	KASSERT_TRUE(holder != NULL);
	snap = start_grace_period(cpu);
	gp = snap - 1;
	/* The holder cannot report: every bit on its path stays set, and
	 * each node stays in this grace period, until it is released. */
	all_wait = READ_ONCE(rcu_data[cpu].leaf->qsmask) &
		   rcu_data[cpu].leaf_bit;
	for (node = rcu_data[cpu].leaf; node; node = node->parent) {
		all_wait &= READ_ONCE(node->gp_seq) == gp;
		if (node->parent)
			all_wait &= !!(READ_ONCE(node->parent->qsmask) &
				       node->grpmask);
	}
	release_reader(holder);
	KEXPECT_TRUE(all_wait);
	synchronize_rcu();
}

static bool later_request_made;

/* A grace period beyond every need so far, so that a request for it
 * misses its lock-free check and reaches the armed window. */
static unsigned long snap_beyond_every_need(void)
{
	unsigned long snap = rcu_seq_snap(READ_ONCE(rcu_state.gp_seq));

	if (rcu_seq_done(READ_ONCE(rcu_state.gp_seq_needed), snap))
		snap = READ_ONCE(rcu_state.gp_seq_needed);
	return snap + 2;
}

/* The armed action: another request, for a later grace period. */
static void request_a_later_gp(void *later)
{
	rcu_tree_request_gp(*(unsigned long *)later);
	WRITE_ONCE(later_request_made, true);
}

/* A request whose lock-free check missed checks again under the lock:
 * a later need stored meanwhile must not be lowered to its own, since
 * gp_seq_needed only grows and the GP thread stops where it says. The
 * later request is made exactly between the two checks (a race window
 * armed for this thread), so the test does not depend on timing. */
KTEST(rcu_tree, request_between_its_checks_keeps_the_later_need)
{
	unsigned long snap, later;

	SKIP_UNLESS_TREE();
	snap = snap_beyond_every_need();
	later = snap + 2;
	WRITE_ONCE(later_request_made, false);
	if (!race_window_arm(RACE_GP_REQUEST, 1, request_a_later_gp, &later))
		KTEST_SKIP("race windows are compiled out of this build");
	rcu_tree_request_gp(snap);
	race_window_disarm();
	KEXPECT_TRUE(READ_ONCE(later_request_made));
	KEXPECT_TRUE(rcu_seq_done(READ_ONCE(rcu_state.gp_seq_needed), later));
	synchronize_rcu();
}

static bool irqs_were_on;

/* The armed action: can the requester be preempted here? */
static void note_irq_state(void *unused)
{
	(void)unused;
	WRITE_ONCE(irqs_were_on, arch_irqs_enabled());
	WRITE_ONCE(later_request_made, true);
}

/* Between a request's store of gp_seq_needed and its wake-up of the GP
 * thread, interrupts stay off: later requesters see the need stored and
 * return without waking, so a requester preempted there (behind a
 * real-time hog, or pinned to a CPU going down) would hold every grace
 * period up, with none running to warn of it. */
KTEST(rcu_tree, request_stores_and_wakes_with_interrupts_off)
{
	unsigned long snap;

	SKIP_UNLESS_TREE();
	snap = snap_beyond_every_need();
	WRITE_ONCE(later_request_made, false);
	if (!race_window_arm(RACE_GP_REQUEST_WAKE, 1, note_irq_state, NULL))
		KTEST_SKIP("race windows are compiled out of this build");
	rcu_tree_request_gp(snap);
	race_window_disarm();
	KEXPECT_TRUE(READ_ONCE(later_request_made));
	KEXPECT_FALSE(READ_ONCE(irqs_were_on));
	synchronize_rcu();
}
